"""A line's idioms are applied without scanning every keyword for each idiom found
(docs/input-handling.md, "Matching time").

``IdiomTable.apply`` used to ask every keyword of the line whether an idiom's stretch cut it, and
every stretch whether a keyword lay inside it: quadratic in a long line (21 s of the 80 s the 1 MB
line took). It now bisects both. The earlier definition is kept here, on purpose, to compare
against: on generated keywords and stretches (in order and out of order) and on lines Kiwi
analyses, long ones included.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ktr.korean.keywords import Keyword, extract, load_tagset
from ktr.lexicon import idioms as idioms_module
from ktr.lexicon.idioms import IdiomTable, _cuts_a_word, _Words

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CLASSES = frozenset({"noun", "proper_noun", "bound_noun", "pronoun", "numeral", "digits", "verb", "adjective"})


@st.composite
def keywords_and_stretch(draw):
    pairs = draw(st.lists(st.tuples(st.integers(0, 40), st.integers(1, 8), st.booleans()), max_size=12))
    keywords = [
        Keyword("가다" if verb else "가", "VV" if verb else "NNG", "verb" if verb else "noun", s, s + n)
        for s, n, verb in pairs
    ]
    if draw(st.booleans()):
        keywords.sort(key=lambda k: k.start)
    start = draw(st.integers(0, 50))
    return keywords, start, start + draw(st.integers(1, 6))


@SETTINGS
@given(case=keywords_and_stretch())
def test_the_keywords_a_stretch_may_cut_are_all_a_scan_would_find(case):
    keywords, start, end = case
    assert _cuts_a_word(_Words(keywords).near(start, end), start, end) == _cuts_a_word(keywords, start, end)


def apply_by_scan(table: IdiomTable, text: str, keywords: list[Keyword]):
    """``IdiomTable.apply`` as it was: every keyword asked for each stretch, every stretch for each keyword."""
    # the stretches as the scan finds them, then the keywords laid out as the scan laid them
    stretches = []
    squeezed = idioms_module._SKIP.sub("", text)
    chars = [(i, c) for i, c in enumerate(text) if not idioms_module._SKIP.match(c)]
    taken = [False] * len(squeezed)
    openings = set(map(str.__add__, squeezed, squeezed[1:])).union(squeezed)
    maybe = sorted(n for pair in openings.intersection(table._by_opening) for n in table._by_opening[pair])
    for idiom in (table.idioms[n] for n in maybe):
        start = squeezed.find(idiom.key)
        while start >= 0:
            end = start + len(idiom.key)
            s, e = chars[start][0], chars[end - 1][0] + 1
            if not any(taken[start:end]) and not _cuts_a_word(keywords, s, e):
                taken[start:end] = [True] * (end - start)
                stretches.append((s, e, idiom))
            start = squeezed.find(idiom.key, start + 1)
    if not stretches:
        return keywords, {}
    out, units = [], {}
    pending = sorted(stretches, key=lambda f: f[0])
    for kw in keywords:
        while pending and pending[0][1] <= kw.start:
            s, e, idiom = pending.pop(0)
            units[len(out)] = idiom
            out.append(Keyword(idiom.korean, "idiom", "idiom", s, e))
        if any(s <= kw.start < e for s, e, _ in stretches):
            continue
        out.append(kw)
    for s, e, idiom in pending:
        units[len(out)] = idiom
        out.append(Keyword(idiom.korean, "idiom", "idiom", s, e))
    return out, units


LINES = [
    "예, 손님. 감사합니다. 화가 나서 그 후 어느 날 마음에 드는 집을 샀다.",
    "화가 나타났다. 그 후보는 어느 날씨에도 왔다.",
    "감사합니다 예 손님 화가 나서 " * 40,
    "학생이 책을 읽었다.",
]


@pytest.mark.parametrize("line", LINES)
def test_a_line_gets_the_keywords_and_units_the_scan_gave(kiwi, line):
    table = IdiomTable.from_files(("idioms",))
    keywords = extract(kiwi.analyze(line), load_tagset(kiwi.tagset), CLASSES)
    out, units = table.apply(line, keywords)
    before, units_before = apply_by_scan(table, line, keywords)
    assert out == before and units == units_before
    assert bool(units) == ("손님" in line or "화가 나서" in line)  # 화가 나타났다, 그 후보: no idiom

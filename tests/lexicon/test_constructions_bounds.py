"""A line's constructions are applied in time linear in its keywords and constructions
(docs/input-handling.md, "Matching time").

``ConstructionTable.apply`` used to look for the construction around each keyword by scanning
every construction span of the line: quadratic in a long line (7 s of the 72 s a 200 KB line of
news took). It now bisects the spans; :class:`_Spans` is checked against that scan on generated
spans, nested and out of order included, ``apply`` against the earlier scan on lines Kiwi
analyses, and its work is counted, not timed.
"""

from __future__ import annotations

import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ktr.korean.keywords import Keyword, extract, load_tagset
from ktr.lexicon.constructions import ConstructionTable, _Spans

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CLASSES = frozenset({"noun", "proper_noun", "bound_noun", "pronoun", "numeral", "digits", "verb", "adjective"})


def first_around_by_scan(spans, start, end):
    return next((n for n, (s, e, _) in enumerate(spans) if s <= start and end <= e), None)


@st.composite
def spans_and_keyword(draw):
    ordered = draw(st.booleans())
    pairs = draw(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 15)), max_size=12))
    spans = [(s, s + length, None) for s, length in pairs]
    if ordered:
        spans.sort(key=lambda span: span[0])
    start = draw(st.integers(0, 50))
    return spans, start, start + draw(st.integers(0, 6))


@SETTINGS
@given(case=spans_and_keyword())
def test_the_span_around_a_keyword_is_the_first_a_scan_finds(case):
    spans, start, end = case
    assert _Spans(spans).first_around(start, end) == first_around_by_scan(spans, start, end)


@pytest.fixture(scope="module")
def table(kiwi):
    return ConstructionTable.from_files(["constructions"], kiwi.tagset), load_tagset(kiwi.tagset)


LINES = [
    "나는 학교에 갈 수 없다. 그는 돈이 없다. 비가 올 것 같다.",
    "그녀는 노래를 부를 수 있다 그리고 갈 수 없다 " * 5,
    "책이 없다",
    "학생이 책을 읽었다.",
]


@pytest.mark.parametrize("line", LINES)
def test_a_line_gets_the_keywords_the_scan_gave(kiwi, table, line, monkeypatch):
    constructions_table, tags = table
    morphemes = kiwi.analyze(line)
    keywords = extract(morphemes, tags, CLASSES)
    now = constructions_table.apply(morphemes, keywords)
    monkeypatch.setattr(_Spans, "first_around", lambda self, s, e: first_around_by_scan(self.spans, s, e))
    assert now == constructions_table.apply(morphemes, keywords)
    assert any(k.cls == "construction" for k in now) == ("없" in line or "것 같" in line)


def lines_run_by_apply(kiwi, table, times: int) -> int:
    """How many lines of Python ``apply`` runs (generator expressions' included) on a line of
    ``times`` sentences with constructions (its work, counted rather than timed)."""
    constructions_table, tags = table
    morphemes = kiwi.analyze("나는 학교에 갈 수 없다 그는 돈이 없다 " * times)
    keywords: list[Keyword] = extract(morphemes, tags, CLASSES)
    lines = 0

    def trace(frame, event, arg):
        nonlocal lines
        lines += event == "line"
        return trace

    sys.settrace(trace)
    try:
        applied = constructions_table.apply(morphemes, keywords)
    finally:
        sys.settrace(None)
    assert sum(k.cls == "construction" for k in applied) == 2 * times
    return lines


def test_the_work_of_applying_constructions_grows_as_a_line(kiwi, table):
    """Twice the line, about twice the work (the scan: the keywords times the spans)."""
    small, large = lines_run_by_apply(kiwi, table, 200), lines_run_by_apply(kiwi, table, 400)
    assert large / small < 2.5, (small, large)

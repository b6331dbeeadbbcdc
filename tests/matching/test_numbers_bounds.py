"""A line's numbers are grouped in time linear in them (docs/input-handling.md, "Matching time").

``ktr.matching.numbers.group`` joins adjacent number keywords into one number keyword (2천, 3억
5천만), with the counter or unit after them. It used to read the longest run of adjacent number
keywords whole, then shorten it one keyword at a time until it read as one number, for each run:
cubic in a line's numbers (the numbers 0 ... 999 separated by spaces took 199 s). The grouping
is checked here against that definition (:func:`by_shortening`, the earlier code), on lines
generated from number words, counters and dates analysed by Kiwi and on keyword lists built by
hand (digits written without a space between them, which Kiwi never gives), and its work is
counted, not timed: the calls it makes grow as a line's numbers, not as their cube.
"""

from __future__ import annotations

import json
import sys
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ktr.cli.main import main
from ktr.english.number_expressions import english_spans
from ktr.english.tokens import tokenize
from ktr.korean.analyzers.base import Morpheme
from ktr.korean.keywords import Keyword, extract, load_tagset
from ktr.matching import numbers
from ktr.matching.numbers import _RELATIVE as _relative_words
from ktr.matching.numbers import DATE_UNITS, _is_number, _surface, korean_value
from tests.conftest import write

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def by_shortening(morphemes, keywords):
    """The grouping as the earlier code did it: each run of adjacent number keywords read whole,
    then shortened one keyword at a time until it reads as one number; every other look-up a
    scan from the start of the line."""

    def suffix(end, value):
        k = next((x for x, m in enumerate(morphemes) if m.start >= end), len(morphemes))
        after = morphemes[k : k + 2]
        if not after or after[0].start - end > 1 or value is None:
            return end, ""
        first = after[0]
        if first.form == "째":
            return first.end, "째"
        if first.form == "번" and len(after) > 1 and after[1].form == "째" and after[1].start == first.end:
            return after[1].end, "번째"
        if not first.tag.startswith("N"):
            return end, ""
        if first.form == "월" or first.form in numbers.COUNTERS:
            return first.end, first.form
        if first.form == "년" and value >= 1000 and first.start == end:
            return first.end, "년"
        return end, ""

    def relative(keyword, start):
        if keyword.lemma not in _relative_words:
            return ""
        stem = next((x for x, m in enumerate(morphemes) if m.start == keyword.start), None)
        if stem is None or stem + 1 >= len(morphemes):
            return ""
        ending = morphemes[stem + 1]
        ok = ending.tag.upper().startswith("ET") and start - ending.end <= 1
        return _relative_words[keyword.lemma] if ok else ""

    numeric = [k.cls in numbers.NUMBER_CLASSES and _is_number(k) for k in keywords]
    out, i = [], 0
    while i < len(keywords):
        if not numeric[i]:
            out.append(keywords[i])
            i += 1
            continue
        j = i + 1
        while j < len(keywords) and numeric[j] and keywords[j].start - keywords[j - 1].end <= 1:
            j += 1
        value = korean_value(_surface(keywords[i:j]), "numeral")
        while value is None and j > i + 1:
            j -= 1
            value = korean_value(_surface(keywords[i:j]), "numeral")
        run = keywords[i:j]
        lemma = _surface(run)
        end, extra = suffix(run[-1].end, value)
        if len(run) == 1 and not extra:
            out.append(run[0])
        else:
            cls = "digits" if any(k.cls == "digits" for k in run) else "numeral"
            start, written = run[0].start, lemma + extra
            if extra in DATE_UNITS and out and (before := relative(out[-1], start)):
                written, start = f"{before} {written}", out.pop().start
            out.append(Keyword(written, "number", cls, start, end, base=lemma))
        i = j + sum(1 for k in keywords[j:] if k.start < end)
    return out


PIECES = (
    "1 2 3 7 10 20 35 100 999 1,000 2.5 0 스물 다섯 서른 세 네 한 두 첫 삼 이 일 십 백 천 "
    "만 억 조 이천 이천십구 첫째 둘째 세번째 명 개 마리 월 일 년 시 분 번째 째 번 지난 오는 사과 학생 3월 25일 "
    "9월 11일 2019년 7시 30분 3억 5천만"
).split()


@st.composite
def lines(draw):
    words = draw(st.lists(st.sampled_from(PIECES), min_size=1, max_size=10))
    gaps = draw(st.lists(st.sampled_from(["", " ", " ", ", ", "  "]), min_size=len(words), max_size=len(words)))
    return "".join(w + g for w, g in zip(words, gaps))


@pytest.fixture(scope="module")
def table(kiwi):
    return load_tagset(kiwi.tagset)


CLASSES = frozenset({"noun", "proper_noun", "bound_noun", "pronoun", "numeral", "digits", "verb", "determiner"})


@SETTINGS
@given(line=lines())
def test_lines_are_grouped_as_by_shortening_each_run(kiwi, table, line):
    morphemes = kiwi.analyze(line)
    keywords = extract(morphemes, table, CLASSES)
    assert numbers.group(morphemes, keywords) == by_shortening(morphemes, keywords)


LEMMAS = (("3", "digits"), ("4", "digits"), ("10", "digits"), ("2.5", "digits"), ("1,0", "digits"))
LEMMAS += tuple((w, "numeral") for w in "삼 십 천 만 스물 다섯 서 세 첫째 세번째 번째 이".split())
LEMMAS += (("세", "determiner"), ("두", "determiner"), ("사과", "noun"))


@st.composite
def keyword_lists(draw):
    """Keywords with gaps of 0, 1 or 2 characters (digits written together included), and a
    counter or unit morpheme after some of them."""
    chosen = draw(st.lists(st.sampled_from(LEMMAS), min_size=1, max_size=12))
    keywords, morphemes, at = [], [], 0
    for lemma, cls in chosen:
        tag = {"digits": "SN", "numeral": "NR", "determiner": "MM", "noun": "NNG"}[cls]
        keywords.append(Keyword(lemma, tag, cls, at, at + len(lemma)))
        morphemes.append(Morpheme(lemma, lemma, tag, at, at + len(lemma)))
        at += len(lemma)
        unit = draw(st.sampled_from(["", "", "", "명", "월", "째", "년"]))
        if unit:
            morphemes.append(Morpheme(unit, unit, "NNB", at, at + 1))
            at += 1
        at += draw(st.sampled_from([0, 0, 1, 2]))
    return morphemes, keywords


@SETTINGS
@given(case=keyword_lists())
def test_keyword_lists_are_grouped_as_by_shortening_each_run(case):
    morphemes, keywords = case
    assert numbers.group(morphemes, keywords) == by_shortening(morphemes, keywords)


def calls_to_group(kiwi, table, count: int) -> int:
    """How many Python and C functions ``group`` calls on the numbers 0 ... count-1 separated by
    spaces (its work, counted rather than timed)."""
    morphemes = kiwi.analyze(" ".join(str(n) for n in range(count)))
    keywords = extract(morphemes, table, CLASSES)
    numbers.korean_value.cache_clear()
    calls = 0

    def profile(frame, event, arg):
        nonlocal calls
        if event in ("call", "c_call"):
            calls += 1

    sys.setprofile(profile)
    try:
        grouped = numbers.group(morphemes, keywords)
    finally:
        sys.setprofile(None)
    assert len(grouped) == count - 1  # "0 1" reads as one number, as 스물 다섯 does: every other alone
    return calls


def test_the_work_of_grouping_grows_as_the_numbers_of_a_line(kiwi, table):
    """Twice the numbers, about twice the calls (the earlier code: about eight times as many,
    and 199 s for a thousand numbers)."""
    small, large = calls_to_group(kiwi, table, 150), calls_to_group(kiwi, table, 300)
    assert large / small < 2.5


# ---------------------------------------------------------------------------------------------
# numbers past what Decimal holds: no line stops the run


@pytest.mark.parametrize(
    "text",
    [
        "100000000000000000000000000000 7",  # 30 digits and a number: decimal.InvalidOperation
        "1" * 40,
        "9" * 100_000 + "만",  # a value past Decimal's exponent times a unit: decimal.Overflow
        ",".join(["999"] * 1000),
    ],
)
def test_a_number_of_more_digits_than_decimal_holds_is_no_number(text):
    assert korean_value(text) is None


@pytest.mark.parametrize(
    "text, value",
    [("1" * 28, Decimal("1" * 28)), ("3억 5천만", Decimal(350_000_000)), ("1,000,000", Decimal(10**6))],
)
def test_numbers_within_decimal_precision_keep_their_value(text, value):
    assert korean_value(text) == value


def test_an_english_number_never_overflows():
    """A million 9s, and "5 million million ..." 170,000 times, raised decimal.Overflow."""
    assert english_spans(tokenize("I saw " + "9" * 1_000_000 + " people")) == []
    spans = english_spans(tokenize("5 " + "million " * 170_000))
    assert sorted(spans[0].keys) == ["n:5" + "0" * 60]  # multiplied until past 10**60, the next ones alone
    assert [sorted(s.keys) for s in english_spans(tokenize("5 million million and 2.5"))] == [
        ["n:5000000000000"],
        ["n:2.5"],
    ]


def test_a_line_with_a_huge_number_is_scored_with_the_others(tmp_path, capsys):
    src = write(tmp_path / "src.ko", "100000000000000000000000000000 7명\n학생 7명이 왔다.\n")
    hyp = write(tmp_path / "out.en", "x\nSeven students came.\n")
    code = main(["score", "-s", str(src), "-t", str(hyp), "-f", "json", "--sentences"])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    segments = json.loads(out)["systems"][0]["segments"]
    assert [s["score"] for s in segments] == [0.0, 1.0]

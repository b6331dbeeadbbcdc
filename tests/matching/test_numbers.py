"""The number stage: Korean numbers by value against English number expressions."""

from decimal import Decimal

import pytest

from ktr import Config, Scorer
from ktr.english.number_expressions import english_spans
from ktr.english.tokens import tokenize
from ktr.korean.keywords import Keyword
from ktr.matching.numbers import korean_keys, korean_value


@pytest.mark.parametrize(
    "text, cls, value",
    [
        ("2천", "numeral", 2000),
        ("이천십구", "numeral", 2019),
        ("3억 5천만", "numeral", 350_000_000),
        ("스물다섯", "numeral", 25),
        ("세", "determiner", 3),
        ("첫째", "numeral", 1),
        ("세번째", "numeral", 3),
        ("천만", "numeral", 10_000_000),
        ("12.5", "digits", Decimal("12.5")),
        ("1,000", "digits", 1000),
        ("삼십", "numeral", 30),
        ("열", "numeral", 10),
    ],
)
def test_korean_values(text, cls, value):
    assert korean_value(text, cls) == value


@pytest.mark.parametrize(
    "text, cls",
    [
        ("이", "determiner"),  # 이 as a determiner is "this", not 2
        ("3 5", "numeral"),  # two numbers, not 35
        ("수십", "numeral"),  # "tens of": no value
        ("사람", "noun"),
    ],
)
def test_not_numbers(text, cls):
    assert korean_value(text, cls) is None


def spans(text):
    toks = tokenize(text)
    return [(" ".join(toks[s.start : s.end]), sorted(s.keys)) for s in english_spans(toks)]


def test_english_number_expressions():
    assert spans("the third floor, the 3rd floor, 3 floors") == [("third", ["n:3"]), ("3 rd", ["n:3"]), ("3", ["n:3"])]
    assert spans("350 million dollars or 350,000,000 won") == [
        ("350 million", ["n:350000000"]),
        ("350000000", ["n:350000000"]),
    ]
    assert spans("twenty-five, two hundred and one, twice in March") == [
        ("twenty five", ["n:25"]),
        ("two hundred and one", ["n:201"]),
        ("twice", ["n:2"]),
        ("march", ["m:3"]),
    ]
    assert spans("three four") == [("three", ["n:3"]), ("four", ["n:4"])]
    # news English abbreviates a scale after digits, never alone ("bn" is no number by itself)
    assert spans("$10bn and 5 mn, a bn") == [("10 bn", ["n:10000000000"]), ("5 mn", ["n:5000000"])]


def test_minutes_said_without_a_number():
    assert spans("half an hour, an hour and a half, a quarter of an hour") == [
        ("half an hour", ["min:30"]),
        ("hour and a half", ["min:90"]),
        ("quarter of an hour", ["min:15"]),
    ]
    assert spans("half the people waited an hour") == []
    assert korean_keys(Keyword("30분", "number", "digits", 0, 3, base="30")) == ("n:30", "min:30")
    # a number of anything else is no span of minutes
    assert korean_keys(Keyword("30명", "number", "digits", 0, 3, base="30")) == ("n:30",)


def test_month_unit_matches_month_name():
    kw = Keyword("3월", "number", "digits", 0, 2, base="3")
    assert korean_keys(kw) == ("n:3", "m:3")


@pytest.fixture(scope="module")
def scorer(kiwi):
    """Only the exact and number stages, so a match is the number stage's or a plain word's: not
    conftest's shared default ``scorer``, which this one replaces in this file."""
    return Scorer(Config(matching=("exact", "number")), analyzer=kiwi)


@pytest.mark.parametrize("output", ["It is on the third floor.", "It is on the 3rd floor.", "There are 3 floors."])
def test_sam_cheung_transfers_to_third_floor(scorer, output):
    seg = scorer.score(["삼 층에 있습니다."], [output]).systems[0].sentences[0]
    sam = next(k for k in seg.keywords if k.keyword.lemma == "삼")
    assert sam.transferred, (output, sam)


def test_written_numbers_are_one_keyword(scorer):
    src = ["2천 명이 3억 5천만 달러를 받았다."]
    seg = scorer.score(src, ["2,000 people received 350 million dollars."]).systems[0].sentences[0]
    units = [(k.keyword.lemma, k.how) for k in seg.keywords if k.keyword.tag == "number"]
    assert units == [("2천명", "exact"), ("3억 5천만", "number")]
    wrong = scorer.score(src, ["2,000 people received 35 million dollars."]).systems[0].sentences[0]
    assert [k.transferred for k in wrong.keywords if k.keyword.tag == "number"] == [True, False]


def test_dates_and_ordinals(scorer):
    seg = scorer.score(["9월 11일 세 번째 경기"], ["the third game on September 11"]).systems[0].sentences[0]
    got = {k.keyword.lemma: k.matched for k in seg.keywords}
    assert got["9월"] == "september" and got["11일"] == "11" and got["세번째"] == "third"


def test_a_day_of_the_month_may_be_its_weekday(scorer):
    # news English writes a date of this week as its weekday; which weekday, nothing in the
    # sentence says, so any one is taken, after the day's own number
    src = ["정부는 25일 발표했다."]
    day = [k for k in scorer.score(src, ["It was announced on Friday."]).systems[0].sentences[0].keywords][1]
    assert (day.keyword.lemma, day.matched, day.how, day.tried) == ("25일", "friday", "number", ("number 25", "day 25"))
    both = scorer.score(src, ["On Friday the 25th, it was announced."]).systems[0].sentences[0].keywords[1]
    assert both.matched == "25"
    # a weekday is no count of people, nor a month
    for source in ("학생 25명이 왔다.", "9월에 왔다."):
        seg = scorer.score([source], ["They came on Friday."]).systems[0].sentences[0]
        assert not any(k.transferred for k in seg.keywords if k.keyword.tag == "number"), source


def test_one_of_something_counted_is_the_article_before_its_noun(kiwi):
    scorer = Scorer(Config(matching=("exact", "inflection", "number")), analyzer=kiwi)

    def one(source, output):
        seg = scorer.score([source], [output]).systems[0].sentences[0]
        return next((k.matched, k.how) for k in seg.keywords if k.keyword.tag == "number")

    # Korean counts after the noun (고양이 한 마리), English puts "a" before it, or one word before
    assert one("고양이 한 마리가 지붕에 올라갔다.", "A cat climbed onto the roof.") == ("a", "number")
    assert one("고양이 한 마리가 지붕에 올라갔다.", "A black cat climbed onto the roof.") == ("a", "number")
    assert one("학생 한 명이 왔다.", "A student came.") == ("a", "number")
    # the number as written first; an "a" before another word, or a number of more, is no match
    assert one("고양이 한 마리가 지붕에 올라갔다.", "A roof and one cat.") == ("one", "number")
    assert one("고양이 한 마리가 지붕에 올라갔다.", "It climbed onto a roof.") == (None, None)
    assert one("고양이 두 마리가 지붕에 올라갔다.", "A cat climbed onto the roof.") == (None, None)


@pytest.mark.parametrize("analyzer_name", ["kiwi", "mecab"])
def test_a_date_takes_the_word_that_places_it_before_or_after_today(analyzer_name):
    from conftest import analyzer

    scorer = Scorer(Config(analyzer=analyzer_name, matching=("exact", "number")), analyzer=analyzer(analyzer_name))

    def numbers(source, output):
        seg = scorer.score([source], [output]).systems[0].sentences[0]
        return [
            (k.keyword.lemma, k.matched) for k in seg.keywords if k.keyword.tag == "number" or k.keyword.cls == "verb"
        ]

    # 지난 25일 "on Friday", 지난 3월 "in March", 오는 25일 "on the 25th": the date, as English says it
    assert numbers("정부는 지난 25일 발표했다.", "It was announced on Friday.")[0] == ("지난 25일", "friday")
    assert numbers("회사는 지난 3월 시작했다.", "It started in March.")[0] == ("지난 3월", "march")
    assert numbers("회의는 오는 25일 열린다.", "The meeting opens on the 25th.")[0] == ("오는 25일", "25")
    # not a date: 지난 20년간 "the past 20 years" keeps its own word
    assert ("지나다", "past") in numbers("그는 지난 20년간 일했다.", "He worked for the past 20 years.")


def test_minutes_belong_to_their_number(kiwi):
    # a clock time says no "minutes" (7:30, seven-thirty); a duration does, and the word is the
    # counter's, not one the translation adds
    scorer = Scorer(Config(matching=("exact", "inflection", "number")), analyzer=kiwi)
    for output in ("He ate at 7:30.", "He ate at seven-thirty."):
        seg = scorer.score(["그는 7시 30분에 먹었다."], [output]).systems[0].sentences[0]
        assert [k.keyword.lemma for k in seg.keywords if k.keyword.tag == "number"] == ["7시", "30분"]
        assert seg.transferred == seg.counted, (output, seg.keywords)
    seg = scorer.score(["30분 동안 기다렸다."], ["He waited for 30 minutes."]).systems[0].sentences[0]
    assert seg.transferred == seg.counted and not seg.added
    half = scorer.score(["30분 동안 기다렸다."], ["He waited half an hour."]).systems[0].sentences[0]
    assert [(k.matched, k.how) for k in half.keywords if k.keyword.tag == "number"] == [("half an hour", "number")]


def test_number_stage_off_keeps_keywords_apart(kiwi):
    plain = Scorer(Config(matching=("exact",)), analyzer=kiwi)
    assert [k.lemma for k in plain.keywords(["2천 명"])[0]] == ["2", "천", "명"]

"""The periphrasis stage (ktr/matching/periphrasis.py, lexicons/periphrases.tsv): a keyword of a
listed pair shares its neighbour's word where English says the two in one, on sentences written
for these tests, with the real Kiwi and mecab-ko; what it refuses; the table's format errors."""

from __future__ import annotations

import pytest
from conftest import analyzer, write

from ktr import KTR, Config
from ktr.errors import LexiconError
from ktr.lexicon.periphrases import PeriphrasisTable

ANALYZERS = ["kiwi", "mecab"]
LEXICAL = tuple(s for s in Config().matching if s != "semantic")  # the semantic stage not asked
WITHOUT = tuple(s for s in LEXICAL if s != "periphrasis")


@pytest.fixture(scope="module", params=ANALYZERS)
def metric(request):
    return KTR(Config(analyzer=request.param, matching=LEXICAL), analyzer=analyzer(request.param))


@pytest.fixture(scope="module", params=ANALYZERS)
def without(request):
    return KTR(Config(analyzer=request.param, matching=WITHOUT), analyzer=analyzer(request.param))


def how(metric, source, output, lemma):
    found = metric.sentence_score(source, output)
    (k,) = [k for k in found.keywords if k.keyword.lemma == lemma]
    return k.how


@pytest.mark.parametrize(
    ("source", "output", "lemma"),
    [
        ("할머니는 지난주에 병원에 입원하셨다.", "Grandmother was hospitalized last week.", "병원"),
        ("어제 비가 많이 왔다.", "It rained a lot yesterday.", "오다"),
        ("그 사고로 승객 다섯 명이 부상을 입었다.", "Five passengers were injured in the accident.", "입다"),
        ("그 선수는 튀니지 출신이다.", "The player is Tunisian.", "출신"),
    ],
)
def test_a_listed_pair_shares_the_one_word(metric, without, source, output, lemma):
    assert how(metric, source, output, lemma) == "periphrasis"
    assert how(without, source, output, lemma) is None  # missed without the stage


@pytest.mark.parametrize(
    ("source", "output", "lemma"),
    [
        # the partner's word is a near miss: nothing to share, both missed
        ("그 사고로 승객 다섯 명이 부상을 입었다.", "Five passengers were killed in the accident.", "입다"),
        ("어제 비가 많이 왔다.", "It snowed a lot yesterday.", "비"),
        # the place's own name is no demonym: "from Iran" says 출신 with "from", not with "Iran"
        ("그 선수는 이란 출신이다.", "The player comes to Iran.", "출신"),
        # a pair the table does not list: 병원 and 가다 say two things
        ("할머니는 지난주에 병원에 갔다.", "Grandmother was hospitalized last week.", "가다"),
    ],
)
def test_no_share_without_the_pair_and_its_word(metric, source, output, lemma):
    assert how(metric, source, output, lemma) != "periphrasis"


def test_a_shared_word_is_shown_with_its_partner(metric):
    found = metric.sentence_score("어제 비가 많이 왔다.", "It rained a lot yesterday.")
    (k,) = [k for k in found.keywords if k.keyword.lemma == "오다"]
    assert k.matched == "rain (with 비)"
    assert found.score == 1.0 and "rained" not in [w for _, w in found.added]


def test_the_signature_names_the_table(metric):
    assert "|pp:periphrases@" in metric.signature().short()
    assert "pp:" not in KTR(Config(matching=WITHOUT), analyzer=analyzer("kiwi")).signature().short()


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("병원\t입원하다", "expected 3 tab-separated columns"),
        ("병원\t입원하다\tbe hospitalized", "single lower-case words"),
        ("병원\t입원하다\tHospitalize", "single lower-case words"),
        ("병원\t입원하다\t@plural", "the only mark is @demonym"),
        ("hospital\t입원하다\thospitalize", "must be NFC Hangul"),
        ("병원\t@name\thospitalize", "must be NFC Hangul"),
    ],
)
def test_a_bad_row_names_its_line(tmp_path, line, message):
    path = write(tmp_path / "p.tsv", f"# a table\n{line}\n")
    with pytest.raises(LexiconError, match=message) as raised:
        PeriphrasisTable.from_files((str(path),))
    assert f"{path}:2" in str(raised.value)


def test_a_pair_listed_twice_is_an_error(tmp_path):
    path = write(tmp_path / "p.tsv", "비\t오다\train\n비\t오다\trainy\n")
    with pytest.raises(LexiconError, match="duplicate pair 비 오다"):
        PeriphrasisTable.from_files((str(path),))


def test_the_shipped_table_is_sorted_and_reads():
    table = PeriphrasisTable.from_files(("periphrases",))
    assert len(table) >= 30
    assert table.shared("튀니지", "출신", name=True) == frozenset({"@demonym"})
    assert table.shared("튀니지", "출신", name=False) is None
    pairs = list(table.rows)
    assert pairs == sorted(pairs, key=lambda p: (p[0].encode(), p[1].encode()))

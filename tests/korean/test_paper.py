"""The paper's Fig. 4 sentences with the real analyzers and the paper's own equivalents."""

import pytest

from ktr import Config, Scorer
from tests.conftest import ROOT, requires_java

SOURCES = [
    "기다려 주셔서 감사합니다.",
    "방 열쇠 여기 있습니다.",
    "삼 층 방은 314호실입니다.",
    "그 사람이 옷을 사서 저한테 선물로 줬어요.",
    "제일 유명한 백화점이 어디에요?",
]
OUTPUTS = [
    "Thank you for waiting.",
    "Consider room key.",
    "is room room number 314.",
    "Man is you draw clothes for me I like gift give.",
    "Where is department store famous great?",
]

# Hannanum's keywords with the paper's KAIST classes (compare the paper's Fig. 3). Two differ
# from the paper because Hannanum's own analysis differs: 여기 is the adverb (mad), not the
# verb 여기다 the paper's tagger produced, and 줬어요 is tagged as an auxiliary (px).
HANNANUM_KEYWORDS = [
    ["기다리다/pvg", "감사/ncpa"],
    ["방/ncn", "열쇠/ncn", "여기/mad"],
    ["삼/nnc", "층/nbu", "방/ncn", "314/nnc", "호실/nbu"],
    ["그/mmd", "사람/ncn", "옷/ncn", "사다/pvg", "저/npp", "선물/ncn"],
    ["제일/mag", "유명/ncps", "백화점/ncn", "어디/npd"],
]
# transferred / keywords, counted by hand from the rows above and the paper's lexicon
HANNANUM_SCORES = [1 / 2, 2 / 3, 3 / 5, 4 / 6, 4 / 4]


@pytest.fixture(scope="module")
def paper_scorer(hannanum):
    config = Config.from_yaml(ROOT / "configs" / "paper.yaml").replace(lexicons=("paper",))
    return Scorer(config, analyzer=hannanum)


@requires_java
def test_paper_keywords_with_hannanum(paper_scorer):
    got = [[f"{k.lemma}/{k.tag}" for k in kws] for kws in paper_scorer.keywords(SOURCES)]
    assert got == HANNANUM_KEYWORDS


@requires_java
def test_paper_scores_follow_the_formula(paper_scorer):
    report = paper_scorer.score(SOURCES, OUTPUTS)
    system = report.systems[0]
    assert [s.score for s in system.sentences] == pytest.approx(HANNANUM_SCORES)
    assert system.ktr == pytest.approx(sum(HANNANUM_SCORES) / 5)
    assert system.ktr_micro == pytest.approx(14 / 20)
    third = system.sentences[2]
    assert {k.keyword.lemma: k.matched for k in third.keywords} == {
        "삼": None,
        "층": None,
        "방": "room",
        "314": "314",
        "호실": "room number",
    }


def test_paper_scores_with_kiwi(kiwi):
    scorer = Scorer(Config(lexicons=("paper",), matching=("exact",)), analyzer=kiwi)
    system = scorer.score(SOURCES, OUTPUTS).systems[0]
    # kiwi: 여기 is a pronoun (NP), 있다 an adjective (VA) without entry; 줬어요 is the verb 주다
    assert [s.score for s in system.sentences] == pytest.approx([1 / 2, 2 / 4, 3 / 5, 5 / 7, 4 / 4])
    for s in system.sentences:
        assert s.score == s.transferred / s.counted


def test_default_config_on_the_paper_sentences(kiwi):
    """configs/default.yaml: "Thank you for waiting." transfers both keywords; every sentence
    is explained keyword by keyword."""
    scorer = Scorer(Config.from_yaml(ROOT / "configs" / "default.yaml"), analyzer=kiwi)
    system = scorer.score(SOURCES, OUTPUTS).systems[0]
    first = system.sentences[0]
    assert first.score == 1.0
    assert {(k.keyword.lemma, k.how) for k in first.keywords} == {("기다리다", "inflection"), ("감사합니다", "idiom")}
    # 삼 층 방 → "room room number 314": the number stage cannot help (no "three"/"third"),
    # and each output token still credits one keyword only
    third = {k.keyword.lemma: k.matched for k in system.sentences[2].keywords}
    assert third["삼"] is None and third["314"] == "314"

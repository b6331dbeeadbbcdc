import pytest

from ktr import Scorer
from ktr.config import Config
from ktr.errors import ConfigError
from ktr.scoring.corpus import Totals
from ktr.scoring.formula import Aggregation
from ktr.scoring.sentences import SentenceResult


def ktr_of(stats, aggregation="macro", no_keywords="exclude"):
    """The corpus KTR of lines of (counted, transferred) keywords, by the formula."""
    lines = [SentenceResult(i, (), c, t, float(c), float(t)) for i, (c, t) in enumerate(stats)]
    return Totals.of(lines, Aggregation(aggregation, no_keywords)).scores().ktr


def test_macro_and_micro_by_hand():
    stats = [(2, 1), (10, 10), (0, 0)]
    assert ktr_of(stats, no_keywords="exclude") == pytest.approx((0.5 + 1.0) / 2)
    assert ktr_of(stats, no_keywords="zero") == pytest.approx((0.5 + 1.0 + 0.0) / 3)
    assert ktr_of(stats, no_keywords="one") == pytest.approx((0.5 + 1.0 + 1.0) / 3)
    assert ktr_of(stats, "micro") == pytest.approx(11 / 12)


def test_empty_stats_have_no_score():
    assert ktr_of([(0, 0)], no_keywords="exclude") is None
    assert ktr_of([(0, 0)], "micro") is None


def test_config_is_strict():
    with pytest.raises(ConfigError, match="unknown key 'analyser'; valid keys: analyzer"):
        Config.from_dict({"analyser": "kiwi"})
    with pytest.raises(ConfigError, match="aggregation: 'mean' is not valid; choose one of: macro, micro"):
        Config.from_dict({"aggregation": "mean"})
    with pytest.raises(ConfigError, match="classes: 'interjection' is not valid"):
        Config.from_dict({"classes": ["noun", "interjection"]})
    with pytest.raises(ConfigError, match="analyzer must be a str"):
        Config.from_dict({"analyzer": 3})
    # the default cascade ends with semantic: naming it again is a mistake, not a second pass
    with pytest.raises(ConfigError, match="matching: semantic given more than once; each stage runs once"):
        Config(matching=(*Config().matching, "semantic"))


def test_config_yaml_error_names_line(tmp_path):
    p = tmp_path / "c.yaml"
    p.write_text("analyzer: kiwi\nclasses: [noun\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"c\.yaml:\d+: invalid YAML"):
        Config.from_yaml(p)


def test_class_weighted_aggregation_by_hand(kiwi):
    # 세 (determiner, weight 0.25) missed, 사과 (noun, 1) transferred: macro 1/2, weighted 1/1.25
    from ktr import Scorer

    config = Config(matching=("exact",), aggregation="weighted")
    report = Scorer(config, analyzer=kiwi).score(["세 사과"], ["an apple"])
    seg = report.systems[0].sentences[0]
    assert [(k.keyword.cls, k.transferred) for k in seg.keywords] == [("determiner", False), ("noun", True)]
    system = report.systems[0]
    assert system.ktr_macro == 0.5
    assert system.ktr_weighted == pytest.approx(1 / 1.25)
    assert system.ktr == system.ktr_weighted
    assert "w:" in report.signature.short()
    custom = Config(matching=("exact",), class_weights={"determiner": 1})
    assert Scorer(custom, analyzer=kiwi).score(["세 사과"], ["an apple"]).systems[0].ktr_weighted == 0.5


def test_class_weights_are_checked():
    with pytest.raises(ConfigError, match="class_weights"):
        Config.from_dict({"class_weights": {"nouns": 1}})
    with pytest.raises(ConfigError, match="class_weights"):
        Config.from_dict({"class_weights": {"noun": -1}})
    with pytest.raises(ConfigError, match="mapping"):
        Config.from_dict({"class_weights": [1, 2]})
    assert Config.from_dict({"transliteration_threshold": 1}).transliteration_threshold == 1.0


@pytest.mark.parametrize("value", [-1, 1.5, True, "3"])
def test_expanded_equivalents_is_a_whole_number(value):
    with pytest.raises(ConfigError, match="expanded_equivalents: must be a whole number"):
        Config(expanded_equivalents=value)


@pytest.mark.parametrize("policy, counted, transferred", [("miss", (3, 3), (2, 2)), ("exclude", (3, 2), (2, 2))])
def test_missing_in_lexicon_excludes_only_keywords_nothing_found(kiwi, policy, counted, transferred):
    # 클린턴 has no entry but is found by sound: it counts under both policies; 존슨 has no entry
    # and is not found: missed under miss, left out under exclude
    scorer = Scorer(Config(missing_in_lexicon=policy), analyzer=kiwi)
    system = scorer.score(["클린턴 대통령이 왔다.", "존슨 씨가 왔다."], ["Clinton came.", "Mr. came."]).systems[0]
    assert tuple(s.counted for s in system.sentences) == counted
    assert tuple(s.transferred for s in system.sentences) == transferred
    clinton = system.sentences[0].keywords[0]
    assert (clinton.keyword.lemma, clinton.in_lexicon, clinton.how) == ("클린턴", False, "transliteration")
    assert system.ktr == pytest.approx((2 / 3 + 2 / counted[1]) / 2)

import pytest

from ktr.config import Config
from ktr.errors import ConfigError
from ktr.score import macro, micro


def test_macro_and_micro_by_hand():
    stats = [(2, 1), (10, 10), (0, 0)]
    assert macro(stats, "exclude") == pytest.approx((0.5 + 1.0) / 2)
    assert macro(stats, "zero") == pytest.approx((0.5 + 1.0 + 0.0) / 3)
    assert macro(stats, "one") == pytest.approx((0.5 + 1.0 + 1.0) / 3)
    assert micro(stats) == pytest.approx(11 / 12)


def test_empty_stats_have_no_score():
    assert macro([(0, 0)], "exclude") is None
    assert micro([(0, 0)]) is None


def test_config_is_strict():
    with pytest.raises(ConfigError, match="unknown key 'analyser'; valid keys: analyzer"):
        Config.from_dict({"analyser": "kiwi"})
    with pytest.raises(ConfigError, match="aggregation: 'mean' is not valid; choose one of: macro, micro"):
        Config.from_dict({"aggregation": "mean"})
    with pytest.raises(ConfigError, match="classes: 'interjection' is not valid"):
        Config.from_dict({"classes": ["noun", "interjection"]})
    with pytest.raises(ConfigError, match="analyzer must be a str"):
        Config.from_dict({"analyzer": 3})


def test_config_yaml_error_names_line(tmp_path):
    p = tmp_path / "c.yaml"
    p.write_text("analyzer: kiwi\nclasses: [noun\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"c\.yaml:\d+: invalid YAML"):
        Config.from_yaml(p)

"""The registry of matching stages (ktr/matching/registry.py, ktr/matching/stage.py): each name
of a config's ``matching`` list is one class, built once per set of settings, ordered as the
config lists them; a new stage is one class in one module and one line of
``registry.STAGES``, with its options, its signature fragment and its strength declared by it."""

import pytest

from ktr import KTR, Config
from ktr.errors import ConfigError
from ktr.matching.candidate import Candidate
from ktr.matching.cascade import match_sentence
from ktr.matching.registry import STAGES
from ktr.matching.stage import Matching, Option, Stage, cascade
from ktr.matching.targets import Targets


def test_every_registered_name_is_a_stage_of_that_name():
    stages = cascade(Matching(tuple(STAGES))).stages
    assert [s.name for s in stages] == list(STAGES)
    assert all(isinstance(s, Stage) for s in stages)
    assert [s.order for s in stages] == list(range(len(STAGES)))


def test_the_cascade_is_in_the_config_s_order_and_built_once():
    matching = Matching(("number", "exact"))
    first = cascade(matching)
    assert [(s.name, s.order) for s in first.stages] == [("number", 0), ("exact", 1)]
    assert cascade(Matching(("number", "exact"))) is first  # settings are a value: built once


def test_an_unknown_stage_is_refused_by_the_config_and_the_cascade():
    with pytest.raises(ConfigError, match="matching: 'fuzzy' is not valid; choose one of: exact, inflection"):
        Config(matching=("exact", "fuzzy"))
    with pytest.raises(ValueError, match="no matching stage 'fuzzy'"):
        cascade(Matching(("exact", "fuzzy")))


class ShoutStage(Stage):
    """A stage defined outside the package: a keyword whose first equivalent the output writes
    in capitals, found as a candidate of its own."""

    name = "shout"

    def propose(self, k, targets, v):
        wanted = targets.equivalents[0].upper() if targets.equivalents else None
        return [self.candidate(k, t, (i, i + 1)) for i, t in enumerate(v.tokens) if t == wanted]


def test_a_new_stage_is_one_class_and_one_registry_line(monkeypatch):
    monkeypatch.setitem(STAGES, "shout", "tests.matching.test_stage:ShoutStage")
    # tokens are case-folded by the tokenizer; here they are given as they are, to see the stage work
    found = match_sentence([Targets(("apple",)), Targets(("pear",))], ("APPLE", "pear"), ("exact", "shout"))
    assert found == {
        0: Candidate(0, "APPLE", 0, 1, "shout", (1, 0, 0)),
        1: Candidate(1, "pear", 1, 2, "exact", (0, 0, 1)),
    }


class FillStage(Stage):
    """A stage that completes the assignment: every keyword still missed gets an empty span."""

    name = "fill"

    def complete(self, lines):
        for chosen, targets, _ in lines:
            for k in range(len(targets)):
                chosen.setdefault(k, Candidate(k, "?", 0, 0, self.name, (self.order, 0, 0)))


def test_a_stage_that_completes_the_assignment_sees_only_what_is_left(monkeypatch):
    """``complete`` runs after the assignment, once for every line together, and may add to it."""
    from ktr.matching.cascade import match_lines

    monkeypatch.setitem(STAGES, "fill", "tests.matching.test_stage:FillStage")
    found = match_lines(
        [([Targets(("apple",)), Targets(("kiwi",))], ("apple",), None), ([Targets(("pear",))], ("plum",), None)],
        ("exact", "fill"),
    )
    apple = Candidate(0, "apple", 0, 1, "exact", (0, 0, 0))  # the assignment's, kept
    assert found == [
        {0: apple, 1: Candidate(1, "?", 0, 0, "fill", (1, 0, 0))},
        {0: Candidate(0, "?", 0, 0, "fill", (1, 0, 0))},
    ]


class ReversedStage(Stage):
    """A stage defined outside the package, with an option of its own: an equivalent of at least
    ``reversed_least`` letters written backwards ("elppa" for apple)."""

    name = "reversed"
    strength = 6
    options = (
        Option(
            "reversed_least",
            4,
            "The shortest equivalent matched written backwards.",
            lambda v: None if isinstance(v, int) and v >= 1 else f"must be a whole number of at least 1, got {v!r}",
        ),
    )

    @classmethod
    def fragment(cls, settings, table=None):
        return {"rev": str(settings["reversed_least"])}

    def propose(self, k, targets, v):
        least = self.setting("reversed_least")
        backwards = {e[::-1]: e for e in targets.equivalents if len(e) >= least}
        return [self.candidate(k, backwards[t], (i, i + 1)) for i, t in enumerate(v.tokens) if t in backwards]


@pytest.mark.parametrize("least, credited", [(5, True), (6, False)])
def test_a_stage_defined_outside_ktr_scores_with_its_option_from_yaml(monkeypatch, tmp_path, kiwi, least, credited):
    """Registered from here, without a file of ktr edited: its option read from YAML (and
    checked), its fragment in the signature, its matches in the scores with its name."""
    monkeypatch.setitem(STAGES, "reversed", "tests.matching.test_stage:ReversedStage")
    path = tmp_path / "reversed.yaml"
    path.write_text(f"matching: [exact, reversed]\nreversed_least: {least}\n", encoding="utf-8")
    config = Config.from_yaml(path)
    assert config.reversed_least == least
    metric = KTR(config, analyzer=kiwi)
    result = metric.sentence_score("나는 사과를 먹었다.", "I ate an elppa.")
    apple = next(k for k in result.keywords if k.keyword.lemma == "사과")
    assert (apple.how, apple.matched) == (("reversed", "apple") if credited else (None, None))
    assert f"|rev:{least}|" in metric.signature().short()
    assert "rev" not in KTR(Config(matching=("exact",)), analyzer=kiwi).signature().short()
    path.write_text("matching: [exact, reversed]\nreversed_least: 0\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="reversed_least: must be a whole number of at least 1, got 0"):
        Config.from_yaml(path)


def test_a_stage_s_option_is_unknown_without_its_stage():
    with pytest.raises(ConfigError, match="unknown key 'reversed_least'"):
        Config.from_dict({"reversed_least": 5})

"""Checks made before a run: is everything the configuration needs installed?

A missing backend package, Java runtime or WordNet would otherwise show up late (after the
lexicon is loaded, or at the first sentence) as a traceback from a third-party library.
:func:`check` looks for each of them without loading any and raises one
:class:`~ktr.errors.BackendUnavailable` naming every problem, the backend and the fix.
"""

from __future__ import annotations

from ktr.config import Config
from ktr.errors import BackendUnavailable
from ktr.korean.analyzers.requirements import analyzer_problem
from ktr.matching.stage import stage_class


def _wordnet() -> str | None:
    from ktr.english.wordnet import wordnet_dir

    try:
        wordnet_dir()
    except BackendUnavailable as exc:
        return str(exc)
    return None


#: what a matching stage may need that other stages share (:attr:`ktr.matching.stage.Stage.needs`),
#: and how to find out whether it is missing (a problem, or None)
NEEDS = {"WordNet": _wordnet}


def stage_problems(config: Config) -> list[str]:
    """What the config's matching stages need that is missing: each shared need once, naming the
    stages that need it (the inflection table is keyed by WordNet's version), then each stage's own."""
    stages = [stage_class(name) for name in config.matching]
    found = []
    for need, problem in NEEDS.items():
        names = [s.name for s in stages if need in s.needs]
        if names and (why := problem()):
            found.append(f"matching stage(s) {', '.join(names)} need {need}: {why}")
    return found + [why for s in stages if (why := s.problem(config.options))]


def check(config: Config, analyzer: bool = True) -> None:
    """Raise BackendUnavailable naming everything ``config`` needs that is missing."""
    found = [p for p in (analyzer_problem(config.analyzer) if analyzer else None,) if p] + stage_problems(config)
    if found:
        raise BackendUnavailable("; ".join(found))

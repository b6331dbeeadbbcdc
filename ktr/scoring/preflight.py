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

#: matching stages that read WordNet (the inflection table is keyed by WordNet's version)
WORDNET_STAGES = ("inflection", "synonym", "derivation")


def wordnet_problem(config: Config) -> str | None:
    stages = [s for s in config.matching if s in WORDNET_STAGES]
    if not stages:
        return None
    from ktr.english.wordnet import wordnet_dir

    try:
        wordnet_dir()
    except BackendUnavailable as exc:
        return f"matching stage(s) {', '.join(stages)} need WordNet: {exc}"
    return None


def check(config: Config, analyzer: bool = True) -> None:
    """Raise BackendUnavailable naming everything ``config`` needs that is missing."""
    found = [p for p in (analyzer_problem(config.analyzer) if analyzer else None, wordnet_problem(config)) if p]
    if found:
        raise BackendUnavailable("; ".join(found))

"""A matching stage, and the cascade of the stages a config names.

A stage is one object with a ``name`` and one way to propose candidates: :meth:`Stage.propose`
takes a keyword (its index and :class:`~ktr.matching.targets.Targets`) and the output sentence
(:class:`~ktr.matching.view.SentenceView`) and returns the places where the keyword may be
transferred, each a :class:`~ktr.matching.assignment.Candidate` whose rank starts with the
stage's ``order`` (its place in the config's ``matching`` list: an earlier stage is preferred).
A stage may also look at every keyword's candidates before the assignment (:meth:`Stage.refine`),
add marks that share a token with another keyword's match after it (:meth:`Stage.marks`,
:meth:`Stage.place`), or match the keywords still missed on the tokens still free once the
assignment is made (:meth:`Stage.complete`: the ``semantic`` stage, whose matches so rank below
every lexical one).

The stages are registered by name in :data:`ktr.config.MATCH_STAGES` (name → ``module:Class``),
and each lives in the module of its idea: the phrase stages in :mod:`ktr.matching.phrases`,
``construction`` in :mod:`ktr.matching.marks`, ``number`` in :mod:`ktr.matching.numbers`,
``transliteration`` in :mod:`ktr.matching.transliteration_stage`, ``semantic`` in
:mod:`ktr.matching.semantic`. :func:`cascade` builds the stages of a :class:`Matching` once
(they hold no state of a sentence).
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ktr.config import DEFAULT_EMBEDDER, DEFAULT_SEMANTIC_THRESHOLD, MATCH_STAGES
from ktr.matching.assignment import Candidate
from ktr.matching.targets import Targets
from ktr.matching.transliteration import DEFAULT_THRESHOLD
from ktr.matching.view import SentenceView


@dataclass(frozen=True)
class Matching:
    """The settings of matching, which travel together from the config to every stage: the
    stages in cascade order, the transliteration stage's least sound similarity, and the
    semantic stage's embedder and least confidence."""

    stages: tuple[str, ...] = ("exact",)
    threshold: float = DEFAULT_THRESHOLD
    embedder: str = DEFAULT_EMBEDDER
    semantic_threshold: float = DEFAULT_SEMANTIC_THRESHOLD


class Stage:
    """A matching stage (:mod:`ktr.matching.stage`): built once per cascade, with the settings of
    the whole cascade (a stage may match differently beside another one)."""

    name = ""

    def __init__(self, order: int, matching: Matching):
        self.order = order
        self.matching = matching
        self.names = frozenset(matching.stages)

    def propose(self, k: int, targets: Targets, v: SentenceView) -> list[Candidate]:
        """Where keyword ``k`` may be transferred in the output."""
        return []

    def refine(self, cands: dict[int, list[Candidate]], targets: Sequence[Targets], v: SentenceView) -> None:
        """Every keyword's candidates, before the assignment (keyword index → candidates, none empty)."""

    def marks(self, k: int, targets: Targets, v: SentenceView) -> list[Candidate]:
        """Grammatical marks of keyword ``k``, which share a token with another keyword's match."""
        return []

    def place(
        self, chosen: dict[int, Candidate], marks: dict[int, list[Candidate]], keywords: int, tokens: int
    ) -> None:
        """The marks (:meth:`marks`) kept, after the assignment."""

    def complete(self, lines: Sequence[tuple[dict[int, Candidate], Sequence[Targets], SentenceView]]) -> None:
        """After the assignment (and the marks) of some lines, each ``(chosen, targets, view)``:
        more keywords matched on tokens nobody took, added to ``chosen``."""

    def candidate(self, k: int, equivalent: str, span: tuple[int, int], rank: int = 0) -> Candidate:
        """A candidate of this stage: ``equivalent`` found at token ``span``, ``rank`` its place
        among the keyword's targets (the earlier preferred)."""
        return Candidate(k, equivalent, span[0], span[1], self.name, (self.order, rank, span[0]))


@lru_cache(maxsize=64)
def cascade(matching: Matching) -> tuple[Stage, ...]:
    """The stages ``matching`` names (:data:`ktr.config.MATCH_STAGES`), in that order."""
    stages = []
    for order, name in enumerate(matching.stages):
        if name not in MATCH_STAGES:
            raise ValueError(f"no matching stage {name!r}; the stages are {', '.join(MATCH_STAGES)}")
        module, _, cls = MATCH_STAGES[name].partition(":")
        stages.append(getattr(importlib.import_module(module), cls)(order, matching))
    return tuple(stages)

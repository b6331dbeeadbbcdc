"""A candidate match: a keyword, the equivalent found, where in the output, and which stage found it."""

from __future__ import annotations

from typing import NamedTuple


class Candidate(NamedTuple):
    keyword: int  # index of the keyword in the sentence
    equivalent: str  # the lexicon equivalent that matched
    start: int  # token span [start, end) in the output
    end: int
    how: str  # stage name
    rank: tuple[int, int, int]  # (stage order, equivalent order, start): lower is preferred
    confidence: float | None = None  # how sure a stage that weighs evidence is (the semantic stage)

"""A system's corpus figures summed line by line, so that a corpus need not be held to be scored.

:class:`Totals` takes each line's :class:`~ktr.scoring.results.SentenceResult` in line order and
keeps only sums and counts: every figure of a system's summary (macro, micro and weighted KTR,
precision, F, the counts) comes out of it, the same to the last bit as from the list of
sentences, since the sums are taken in the same order. A :class:`~ktr.scoring.results.SystemResult`
computes its figures this way from its sentences, or holds the totals of a run that kept none.

:class:`PerLine` is what a bootstrap resamples when the sentences are not kept: each line's
counts in arrays of numbers instead of objects (17 bytes a line per system; 33 with the
weighted aggregation, whose class weights are 8-byte floats).
"""

from __future__ import annotations

import warnings
from array import array
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ktr.errors import InputWarning
from ktr.matching.tracing import f_beta

if TYPE_CHECKING:
    from ktr.scoring.results import SentenceResult


def sentence_value(counted: float, transferred: float, no_keywords: str) -> float | None:
    """A sentence's share of a mean of sentence scores: transferred / counted, or for a sentence
    without counted keywords 1 or 0 (``no_keywords``: one, zero) or nothing (exclude)."""
    if counted:
        return transferred / counted
    if no_keywords != "exclude":
        return 1.0 if no_keywords == "one" else 0.0
    return None


class Mean:
    """A mean of values added one by one (None: left out), summed in the order they come."""

    __slots__ = ("total", "n")

    def __init__(self) -> None:
        self.total, self.n = 0.0, 0

    def add(self, value: float | None) -> None:
        if value is not None:
            self.total += value
            self.n += 1

    @property
    def value(self) -> float | None:
        return self.total / self.n if self.n else None


def macro(stats: Sequence[tuple[int, int]], no_keywords: str) -> float | None:
    """Mean of sentence scores (the paper). ``stats`` are (counted, transferred) pairs."""
    mean = Mean()
    for counted, transferred in stats:
        mean.add(sentence_value(counted, transferred, no_keywords))
    return mean.value


def micro(stats: Sequence[tuple[int, int]]) -> float | None:
    """All transferred keywords / all counted keywords."""
    counted = sum(c for c, _ in stats)
    return sum(t for _, t in stats) / counted if counted else None


class Totals:
    """A system's corpus figures, from its lines' results added in line order (:meth:`add`)."""

    def __init__(self, aggregation: str, no_keywords: str, beta: float):
        self.aggregation, self.no_keywords, self.beta = aggregation, no_keywords, beta
        self.sentences = self.scored = self.without_keywords = self.failed = self.empty = 0
        self.keywords = self.counted = self.transferred = self.not_in_lexicon = 0
        self.content = self.traced = self.added = 0
        # of the lines analysed (failed lines have no score): micro KTR and precision
        self.ok_counted = self.ok_transferred = self.ok_content = self.ok_traced = 0
        self.macro, self.weighted, self.precision, self.f = Mean(), Mean(), Mean(), Mean()

    @classmethod
    def of(cls, sentences: Iterable[SentenceResult], aggregation: str, no_keywords: str, beta: float) -> Totals:
        totals = cls(aggregation, no_keywords, beta)
        for s in sentences:
            totals.add(s)
        return totals

    def add(self, s: SentenceResult) -> None:
        """The next line's result."""
        size = s.keyword_count
        self.sentences += 1
        self.scored += bool(s.counted)
        self.without_keywords += not size and not s.failed
        self.failed += bool(s.failed)
        self.empty += s.empty_hypothesis
        self.keywords += size
        self.counted += s.counted
        self.transferred += s.transferred
        self.not_in_lexicon += s.missing
        self.content += s.content
        self.traced += s.traced
        self.added += s.content - s.traced
        if s.failed is None:
            self.macro.add(sentence_value(s.counted, s.transferred, self.no_keywords))
            self.weighted.add(sentence_value(s.weight, s.weight_transferred, self.no_keywords))
            self.ok_counted += s.counted
            self.ok_transferred += s.transferred
            self.ok_content += s.content
            self.ok_traced += s.traced
        self.precision.add(s.precision)
        if self.aggregation != "micro":
            self.f.add(s.f(self.beta, self.aggregation == "weighted"))

    @property
    def ktr_micro(self) -> float | None:
        return self.ok_transferred / self.ok_counted if self.ok_counted else None

    @property
    def precision_micro(self) -> float | None:
        return self.ok_traced / self.ok_content if self.ok_content else None

    @property
    def f_score(self) -> float | None:
        """F-beta of KTR and precision: of the corpus figures (micro), else the mean of the lines'."""
        if self.aggregation == "micro":
            return f_beta(self.ktr_micro, self.precision_micro, self.beta)
        return self.f.value


class PerLine:
    """Each line's counts for a bootstrap (:mod:`ktr.scoring.significance`), in arrays: the
    keywords counted and transferred, the output's content words and those traced, the class
    weights of both with the weighted aggregation, and whether the line failed."""

    def __init__(self, weighted: bool):
        self.weighted = weighted
        self.columns: dict[str, array[Any]] = {n: array("i") for n in ("counted", "transferred", "content", "traced")}
        if weighted:
            self.columns.update(weight=array("d"), weight_transferred=array("d"))
        self.failed = bytearray()

    @classmethod
    def of(cls, sentences: Iterable[SentenceResult], weighted: bool) -> PerLine:
        lines = cls(weighted)
        for s in sentences:
            lines.add(s)
        return lines

    def add(self, s: SentenceResult) -> None:
        for name, column in self.columns.items():
            column.append(getattr(s, name))
        self.failed.append(s.failed is not None)

    def __len__(self) -> int:
        return len(self.failed)

    def column(self, name: str) -> np.ndarray:
        """A column as floats, 0 on the lines that failed."""
        values = np.asarray(self.columns[name], dtype=float)
        values[self.ok == 0] = 0.0
        return values

    @property
    def ok(self) -> np.ndarray:
        """1.0 on the lines analysed, 0.0 on those that failed."""
        return 1.0 - np.frombuffer(bytes(self.failed), dtype=np.uint8).astype(float)


#: input warnings a run keeps (about 150 bytes each: 15 MB); the rest are counted, so that the
#: memory of a run that keeps no sentence stays flat however many of its lines warn
KEPT_WARNINGS = 100_000


class Warnings:
    """A run's input warnings in line order: the first :data:`KEPT_WARNINGS`, and how many more came."""

    def __init__(self) -> None:
        self.kept: list[str] = []
        self.not_kept = 0
        self.limit = KEPT_WARNINGS

    def add(self, messages: Sequence[str]) -> None:
        room = max(self.limit - len(self.kept), 0)
        self.kept += messages[:room]
        self.not_kept += max(len(messages) - room, 0)

    def emit(self, stacklevel: int) -> None:
        """Each kept warning through :mod:`warnings` (category InputWarning), then one that counts
        the others."""
        for message in self.kept:
            warnings.warn(message, InputWarning, stacklevel=stacklevel + 1)
        if self.not_kept:
            warnings.warn(
                f"{self.not_kept} more input warnings not kept (a run keeps its first {self.limit}; "
                "a line not scored also says why in its sentence's 'failed')",
                InputWarning,
                stacklevel=stacklevel + 1,
            )

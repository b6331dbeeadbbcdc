"""The KTR formula, in one place: a line's sufficient statistics, and the one function that turns
statistics summed over lines into scores.

A line's result (:class:`~ktr.scoring.sentences.SentenceResult`) gives its sentence scores
(KTR = transferred / counted keywords, the class-weighted KTR, precision = traced / content words
of the output, and their F-beta). A corpus score is a mean of sentence scores (``macro``, the
paper's; ``weighted``, of the class-weighted ones) or a ratio of pooled counts (``micro``), so
it is a ratio of sums: :func:`line_statistics` gives each line's numerators and denominators,
they are summed over the corpus, and :func:`scores` divides. The same function scores the
corpus (sums taken line by line, in line order), a bootstrap resample (sums taken as a product
of resample counts and each line's statistics, on arrays) and a cluster's merged results.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

import numpy as np

#: a line's sufficient statistics, in the order :func:`line_statistics` gives them: the pooled
#: counts of lines that were analysed (``ok_``), and the numerator (``_sum``) and denominator
#: (``_n``) of each mean of sentence scores
STATISTICS = (
    "ok_counted",
    "ok_transferred",
    "ok_content",
    "ok_traced",
    "ktr_sum",
    "ktr_n",
    "weighted_sum",
    "weighted_n",
    "precision_sum",
    "precision_n",
    "f_sum",
    "f_n",
)


@dataclass(frozen=True)
class Aggregation:
    """The options that make a corpus score of sentence scores, which travel together:
    ``aggregation`` (:data:`ktr.config.AGGREGATIONS`: the mean of sentence scores, the pooled
    rate, or the mean of class-weighted sentence scores), ``no_keywords`` (what a sentence
    without counted keywords adds to a mean: :data:`ktr.config.NO_KEYWORD_POLICIES`) and ``beta``
    of the F score (beta > 1 weighs KTR more than precision)."""

    aggregation: str = "macro"
    no_keywords: str = "exclude"
    beta: float = 0.5

    @property
    def weighted(self) -> bool:
        return self.aggregation == "weighted"


class Line(Protocol):
    """What the formula reads of a line's result (a :class:`~ktr.scoring.sentences.SentenceResult`)."""

    @property
    def counted(self) -> int: ...
    @property
    def transferred(self) -> int: ...
    @property
    def weight(self) -> float: ...
    @property
    def weight_transferred(self) -> float: ...
    @property
    def content(self) -> int: ...
    @property
    def traced(self) -> int: ...
    @property
    def failed(self) -> str | None: ...


def ratio(numerator: float, denominator: float) -> float | None:
    """``numerator / denominator``, None when the denominator is 0 (nothing to divide)."""
    return numerator / denominator if denominator else None


def f_beta(recall: float | None, precision: float | None, beta: float) -> float | None:
    """F-beta of a recall (KTR) and a precision; beta > 1 weighs recall more. None without a
    recall; the recall itself without a precision (an output with no content word adds nothing,
    so only what it transfers counts: "Yes, here it is." for 예, 여기에 있어요); 0 when either is 0."""
    if recall is None:
        return None
    if precision is None:
        return recall
    if not recall or not precision:
        return 0.0
    b2 = beta * beta
    return (1 + b2) * precision * recall / (b2 * precision + recall)


def sentence_value(counted: float, transferred: float, no_keywords: str) -> float | None:
    """A sentence's share of a mean of sentence scores: transferred / counted, or for a sentence
    without counted keywords 1 or 0 (``no_keywords``: one, zero) or nothing (exclude)."""
    if counted:
        return transferred / counted
    if no_keywords != "exclude":
        return 1.0 if no_keywords == "one" else 0.0
    return None


class LineFigures(NamedTuple):
    """A line's own figures, as every table, JSON row and DataFrame shows them."""

    score: float | None  # KTR: transferred / counted keywords
    weighted_score: float | None  # the class-weighted KTR
    precision: float | None  # traced / content words of the output
    f: float | None  # F-beta of the line's KTR by the aggregation (weighted: the class-weighted) and precision


#: the figures of a line the analyzer failed on: none
_FAILED = LineFigures(None, None, None, None)


def line_figures(line: Line, averaging: Aggregation) -> LineFigures:
    """The one place a line's own KTR, precision and F are decided, under ``averaging``: each None where
    it has nothing to divide, all None for a line the analyzer failed on. The corpus scores are
    means of these (:func:`line_statistics`), so a line's F is the one the corpus F averages."""
    if line.failed:
        return _FAILED
    score = ratio(line.transferred, line.counted)
    weighted = ratio(line.weight_transferred, line.weight)
    precision = ratio(line.traced, line.content)
    return LineFigures(
        score, weighted, precision, f_beta(weighted if averaging.weighted else score, precision, averaging.beta)
    )


def line_statistics(line: Line, averaging: Aggregation) -> tuple[float, ...]:
    """A line's sufficient statistics (:data:`STATISTICS`): all zero for a line the analyzer
    failed on, which counts for nothing."""
    if line.failed:
        return (0,) * len(STATISTICS)
    value = sentence_value(line.counted, line.transferred, averaging.no_keywords)
    weighted = sentence_value(line.weight, line.weight_transferred, averaging.no_keywords)
    _, _, precision, f = line_figures(line, averaging)
    return (
        line.counted,
        line.transferred,
        line.content,
        line.traced,
        0.0 if value is None else value,
        value is not None,
        0.0 if weighted is None else weighted,
        weighted is not None,
        0.0 if precision is None else precision,
        precision is not None,
        0.0 if f is None else f,
        f is not None,
    )


@dataclass(frozen=True)
class Scores:
    """A corpus's scores under every aggregation, and its headline figures by ``averaging``."""

    averaging: Aggregation
    ktr_macro: Any
    ktr_micro: Any
    ktr_weighted: Any
    precision_macro: Any
    precision_micro: Any
    f: Any  # of the corpus figures (micro), else the mean of the lines' F

    @property
    def ktr(self) -> Any:
        """KTR by the aggregation."""
        return {"macro": self.ktr_macro, "micro": self.ktr_micro, "weighted": self.ktr_weighted}[
            self.averaging.aggregation
        ]

    @property
    def precision(self) -> Any:
        """Precision by the aggregation (weighted: as macro; words have no class)."""
        return self.precision_micro if self.averaging.aggregation == "micro" else self.precision_macro


def scores(sums: Mapping[str, Any], averaging: Aggregation) -> Scores:
    """The scores of summed statistics (:data:`STATISTICS`, each a number: None where a score is
    undefined; or each an array of resampled sums: NaN there)."""
    divide: Callable[..., Any] = ratio
    f_of: Callable[..., Any] = f_beta
    if isinstance(sums["ktr_n"], np.ndarray):
        divide, f_of = _ratios, _f_betas
    ktr_micro = divide(sums["ok_transferred"], sums["ok_counted"])
    precision_micro = divide(sums["ok_traced"], sums["ok_content"])
    if averaging.aggregation == "micro":
        f = f_of(ktr_micro, precision_micro, averaging.beta)
    else:
        f = divide(sums["f_sum"], sums["f_n"])
    return Scores(
        averaging,
        ktr_macro=divide(sums["ktr_sum"], sums["ktr_n"]),
        ktr_micro=ktr_micro,
        ktr_weighted=divide(sums["weighted_sum"], sums["weighted_n"]),
        precision_macro=divide(sums["precision_sum"], sums["precision_n"]),
        precision_micro=precision_micro,
        f=f,
    )


def _ratios(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """:func:`ratio` on arrays: NaN where the denominator is 0."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denominator > 0, numerator / np.where(denominator > 0, denominator, 1), np.nan)


def _f_betas(recall: np.ndarray, precision: np.ndarray, beta: float) -> np.ndarray:
    """:func:`f_beta` on arrays (NaN for None): the same arithmetic, element by element."""
    b2 = beta * beta
    with np.errstate(invalid="ignore", divide="ignore"):
        both = (1 + b2) * precision * recall / (b2 * precision + recall)
    zero = (recall == 0) | (precision == 0)
    return np.where(np.isnan(recall), np.nan, np.where(np.isnan(precision), recall, np.where(zero, 0.0, both)))


def columns(lines: Iterable[Line], averaging: Aggregation) -> dict[str, np.ndarray]:
    """Each line's statistics, one array of floats per statistic: what a bootstrap resamples."""
    rows = [line_statistics(line, averaging) for line in lines]
    table = np.array(rows, dtype=float).reshape(len(rows), len(STATISTICS))
    return {name: np.ascontiguousarray(table[:, j]) for j, name in enumerate(STATISTICS)}

"""Bootstrap confidence intervals and paired bootstrap significance, as sacreBLEU does them.

A resample draws ``n`` sentence indices with replacement; drawing index *i* k times is the same
as weighting sentence *i* by k, so each resample is a row of *counts* and every metric whose
corpus score is computed from summed per-sentence statistics is rescored from ``counts @ stats``
without touching the text again:

- KTR, precision and F: every aggregation is a ratio of sums of the lines' statistics, so a
  resample's scores are :func:`ktr.scoring.formula.scores` of ``counts @ statistics``, the
  function that scores the corpus (:func:`system_statistic`);
- BLEU and chrF: sacreBLEU's sufficient statistics and its own score-from-statistics function;
- METEOR: the mean of sentence scores.

The resamples are those of sacreBLEU's ``--paired-bs`` for the same seed (numpy's
``default_rng(seed).choice(n, (resamples, n))``, drawn in chunks to bound memory), and every
system and metric is scored on the *same* resamples, which is what makes the test paired. A
bootstrap draws at most :data:`~ktr.scoring.resampling.MAX_RESAMPLES` resamples (why: see there).

- 95% confidence interval: the 2.5th and 97.5th percentiles of the resampled scores, by
  sacreBLEU's rule (sorted, index ``B // 40`` and ``B - B // 40 - 1``).
- Paired p-value against a baseline (Koehn 2004 as sacreBLEU implements it): the resampled
  absolute differences are shifted to mean zero (the null hypothesis) and
  ``p = (#{shifted ≥ |observed difference|} + 1) / (B + 1)``. sacreBLEU counts ``>`` only,
  which makes two identical systems "significantly different" (p = 1/(B+1)); KTR on small
  test sets has many ties, so ties count here. Without ties the two agree.
- Paired approximate randomization (sacreBLEU's ``--paired-ar``, after Riezler and Maxwell
  2005): in each trial every line's outputs of the two systems are swapped with probability
  1/2, which makes two pseudo-systems, and ``p = (#{|pseudo A - pseudo B| ≥ |observed
  difference|} + 1) / (R + 1)`` over the R trials. The swaps are sacreBLEU's for the same seed
  (``default_rng(seed).integers(2, size=(R, n), dtype=bool)``, drawn in chunks of whole 32 rows,
  which draws the same bits) and the same for every system and metric; ties count, as above
  (sacreBLEU counts ``>``, which makes a system significantly different from itself).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeVar

import numpy as np

from ktr.scoring.corpus import Estimate, Report, SystemResult
from ktr.scoring.formula import Aggregation, columns, scores
from ktr.scoring.reference import (
    SACREBLEU_METRICS,
    ReferenceScores,
    Statistics,
    score_from_statistics,
    sentence_statistics,
)
from ktr.scoring.resampling import DEFAULT_RESAMPLES, DEFAULT_SEED, DEFAULT_TRIALS, Resampling, check_resamples

if TYPE_CHECKING:
    from sacrebleu.metrics.base import Metric

_CHUNK_CELLS = 2_000_000  # resample rows are drawn in chunks of about this many indices


_S = TypeVar("_S", bound="Statistic")


class Statistic(Protocol):
    """Scores a corpus under resampling: one score per row of sentence counts (NaN: undefined)."""

    def scores(self, counts: np.ndarray) -> np.ndarray: ...

    def joined(self: _S, other: _S) -> _S:
        """The statistic of this one's lines followed by ``other``'s (an approximate randomization
        test scores a pseudo-system as counts of 1 on the lines it takes from each)."""
        ...


@dataclass
class RatioStatistic:
    """Corpus score = Σ num / Σ den over the sentences (each weighted by its count)."""

    num: np.ndarray
    den: np.ndarray

    def scores(self, counts: np.ndarray) -> np.ndarray:
        den = counts @ self.den
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(den > 0, (counts @ self.num) / np.where(den > 0, den, 1), np.nan)

    def joined(self, other: RatioStatistic) -> RatioStatistic:
        return RatioStatistic(np.concatenate([self.num, other.num]), np.concatenate([self.den, other.den]))


@dataclass
class SumStatistic:
    """Corpus score = ``score(Σ stats)`` (sacreBLEU's metrics: summed sufficient statistics)."""

    stats: np.ndarray  # (sentences, statistics)
    score: Callable[[np.ndarray], float]

    def scores(self, counts: np.ndarray) -> np.ndarray:
        return np.array([self.score(row) for row in counts @ self.stats], dtype=float)

    def joined(self, other: SumStatistic) -> SumStatistic:
        return SumStatistic(np.vstack([self.stats, other.stats]), self.score)


@dataclass
class FormulaStatistic:
    """One of a system's figures (``ktr``, ``precision`` or ``f``) under resampling: the
    formula (:func:`ktr.scoring.formula.scores`) of the resampled sums of its lines' statistics."""

    columns: dict[str, np.ndarray]
    averaging: Aggregation
    figure: str

    def scores(self, counts: np.ndarray) -> np.ndarray:
        found: np.ndarray = getattr(
            scores({name: counts @ c for name, c in self.columns.items()}, self.averaging), self.figure
        )
        return found

    def joined(self, other: FormulaStatistic) -> FormulaStatistic:
        both = {name: np.concatenate([c, other.columns[name]]) for name, c in self.columns.items()}
        return FormulaStatistic(both, self.averaging, self.figure)


#: the figures of a system that a bootstrap resamples
FIGURES = ("ktr", "precision", "f")


def system_statistics(system: SystemResult, figures: Sequence[str] = FIGURES) -> dict[str, FormulaStatistic]:
    """Each of the system's ``figures`` (of :data:`FIGURES`, by its aggregation) under
    resampling; the lines the analyzer failed on count for nothing, as in the corpus score."""
    lines = columns(system.lines(), system.averaging)
    return {figure: FormulaStatistic(lines, system.averaging, figure) for figure in figures}


def sacrebleu_statistic(
    name: str, hypotheses: Sequence[str], references: Sequence[Sequence[str]]
) -> tuple[float, SumStatistic, Metric]:
    """(corpus score, :class:`Statistic`, the sacreBLEU metric object) of BLEU or chrF."""
    stats, metric = sentence_statistics(name, hypotheses, references)
    return statistic_of(metric, stats)


def statistic_of(metric: Metric, stats: list[Statistics] | np.ndarray) -> tuple[float, SumStatistic, Metric]:
    """:func:`sacrebleu_statistic` from sacreBLEU's statistics of every sentence and the metric
    object that extracted them."""
    array = np.asarray(stats).reshape(len(stats), -1)
    score = score_from_statistics(metric, array.sum(axis=0).tolist())  # as sacreBLEU sums them
    array = array.astype(float)
    return score, SumStatistic(array, lambda row: score_from_statistics(metric, list(row))), metric


def mean_statistic(values: Sequence[float | None]) -> RatioStatistic:
    """The mean of per-sentence values (sentence-level metrics such as METEOR; precision, F),
    leaving out the sentences whose value is None."""
    has = np.array([v is not None for v in values], dtype=float)
    return RatioStatistic(np.array([0.0 if v is None else v for v in values], dtype=float), has)


def _chunks(total: int, rows: int) -> Iterator[int]:
    """How many rows each chunk of ``total`` rows draws, ``rows`` at most."""
    done = 0
    while done < total:
        k = min(rows, total - done)
        yield k
        done += k


def resample_counts(n: int, resamples: int, seed: int) -> Iterator[np.ndarray]:
    """Rows of sentence counts, ``resamples`` in all, in chunks; the same for the same seed."""
    rng = np.random.default_rng(seed)
    for k in _chunks(resamples, max(1, _CHUNK_CELLS // max(n, 1))):
        idx = rng.choice(n, size=(k, n), replace=True)
        flat = (idx + n * np.arange(k)[:, None]).ravel()
        yield np.bincount(flat, minlength=k * n).reshape(k, n).astype(float)


def bootstrap(
    statistics: Sequence[Statistic],
    n: int,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
    counts: Iterator[np.ndarray] | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[np.ndarray]:
    """Resampled scores of every statistic, all on the same resamples (one array each).

    ``counts`` replaces the random resamples (tests enumerate all of them this way);
    ``progress`` is called with the number of resamples done after each chunk.
    """
    if counts is None:
        check_resamples(resamples)
    parts: list[list[np.ndarray]] = [[] for _ in statistics]
    for chunk in counts if counts is not None else resample_counts(n, resamples, seed):
        for out, stat in zip(parts, statistics):
            out.append(stat.scores(chunk))
        if progress:
            progress(len(chunk))
    return [np.concatenate(p) if p else np.array([]) for p in parts]


def confidence_interval(samples: np.ndarray) -> tuple[float, float] | None:
    """95% percentile interval of resampled scores (sacreBLEU's index rule); NaNs are dropped."""
    s = np.sort(samples[np.isfinite(samples)])
    if not len(s):
        return None
    lower = len(s) // 40
    return float(s[lower]), float(s[len(s) - lower - 1])


def paired_p_value(baseline: np.ndarray, system: np.ndarray, observed: float) -> float | None:
    """Paired bootstrap p-value of the observed difference between two systems' scores."""
    ok = np.isfinite(baseline) & np.isfinite(system)
    if not ok.any():
        return None
    diffs = np.abs(system[ok] - baseline[ok])
    shifted = diffs - diffs.mean()
    return float((np.sum(shifted >= abs(observed)) + 1) / (ok.sum() + 1))


def randomization_masks(n: int, trials: int, seed: int) -> Iterator[np.ndarray]:
    """The swaps of an approximate randomization test, a row per trial (True: the line's outputs
    stay with their systems), in chunks; sacreBLEU's for the same seed: a chunk of whole 32 rows
    draws the same bits as one draw of every row."""
    rng = np.random.default_rng(seed)
    for k in _chunks(trials, max(32, _CHUNK_CELLS // max(n, 1) // 32 * 32)):
        yield rng.integers(2, size=(k, n), dtype=bool)


def randomization(
    pairs: Sequence[tuple[Statistic, Statistic]],
    n: int,
    trials: int = DEFAULT_TRIALS,
    seed: int = DEFAULT_SEED,
    masks: Iterator[np.ndarray] | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[np.ndarray]:
    """``|pseudo A - pseudo B|`` of every pair (baseline, system) in each trial of an approximate
    randomization test, all on the same swaps; ``masks`` replaces the random swaps (tests
    enumerate all of them this way); ``progress`` is called with the trials done after each chunk."""
    if masks is None:
        check_resamples(trials, "trials")
    joined = [a.joined(b) for a, b in pairs]
    parts: list[list[np.ndarray]] = [[] for _ in pairs]
    for keep in masks if masks is not None else randomization_masks(n, trials, seed):
        first = np.hstack([keep, ~keep]).astype(float)  # the baseline's kept lines, the system's swapped ones
        second = np.hstack([~keep, keep]).astype(float)
        for out, stat in zip(parts, joined):
            out.append(np.abs(stat.scores(first) - stat.scores(second)))
        if progress:
            progress(len(keep))
    return [np.concatenate(p) if p else np.array([]) for p in parts]


def randomization_p_value(differences: np.ndarray, observed: float) -> float | None:
    """The approximate randomization test's p-value of the observed difference, from the trials'
    differences (:func:`randomization`; trials where a pseudo-system has no score left out)."""
    ok = np.isfinite(differences)
    if not ok.any():
        return None
    return float((np.sum(differences[ok] >= abs(observed)) + 1) / (ok.sum() + 1))


def estimates(scores: Sequence[float | None], samples: Sequence[np.ndarray], baseline: int | None) -> list[Estimate]:
    """Interval for every score and, when ``baseline`` is an index, p-values against it."""
    out = []
    base = scores[baseline] if baseline is not None else None
    for i, (score, sample) in enumerate(zip(scores, samples)):
        p = None
        if baseline is not None and i != baseline and score is not None and base is not None:
            p = paired_p_value(samples[baseline], sample, score - base)
        out.append(Estimate(score, confidence_interval(sample), p))
    return out


def bootstrap_estimates(
    systems: Sequence[SystemResult], references: ReferenceScores | None, resampling: Resampling
) -> tuple[dict[str, list[Estimate]], dict[str, str]]:
    """Intervals (and when ``paired``, p-values against the first system) of every system's KTR,
    precision and F, and BLEU and chrF when ``references`` were scored (with each sentence's
    statistics kept), all on the same resamples; and sacreBLEU's signatures of BLEU and chrF
    with the resample count and seed, as sacreBLEU records them."""
    if references is not None and not references.keep:
        raise ValueError("BLEU and chrF are resampled from each sentence's statistics: score with statistics=True")
    found: dict[str, list[float | None]] = {figure: [] for figure in FIGURES}
    statistics: dict[str, list[Statistic]] = {figure: [] for figure in FIGURES}
    for system in systems:
        figures, resampled = system.scores(), system_statistics(system)
        for figure in FIGURES:
            found[figure].append(getattr(figures, figure))
            statistics[figure].append(resampled[figure])
    signatures: dict[str, str] = {}
    if references is not None:
        for name in SACREBLEU_METRICS:
            found[name], statistics[name] = [], []
            for s in systems:
                score, statistic, metric = statistic_of(
                    references.metric(name), references.statistics_array(s.name, name)
                )
                found[name].append(score)
                statistics[name].append(statistic)
            metric.n_bootstrap = resampling.resamples if resampling.intervals else None
            metric.seed = resampling.seed
            signature = metric.get_signature()
            if resampling.trials is not None:
                signature.update("ar", resampling.trials)
            signatures[name] = str(signature)
    n = len(systems[0].lines())
    if resampling.trials is not None:
        return randomization_estimates(found, statistics, n, resampling), signatures
    flat = [st for metric in statistics for st in statistics[metric]]
    drawn = iter(bootstrap(flat, n, resampling.resamples, resampling.seed))
    baseline = 0 if resampling.paired else None
    return {
        metric: estimates(found[metric], [next(drawn) for _ in statistics[metric]], baseline) for metric in statistics
    }, signatures


def randomization_estimates(
    found: dict[str, list[float | None]], statistics: dict[str, list[Statistic]], n: int, resampling: Resampling
) -> dict[str, list[Estimate]]:
    """Each metric's scores with the approximate randomization test's p-value of every system
    against the first, and with the bootstrap's intervals when ``resampling.intervals``."""
    assert resampling.trials is not None
    intervals: dict[str, list[tuple[float, float] | None]] = {m: [None] * len(found[m]) for m in found}
    if resampling.intervals:
        flat = [st for metric in statistics for st in statistics[metric]]
        drawn = iter(bootstrap(flat, n, resampling.resamples, resampling.seed))
        intervals = {m: [confidence_interval(next(drawn)) for _ in statistics[m]] for m in statistics}
    compared = [(m, i) for m in statistics for i in range(1, len(statistics[m]))]
    differences = iter(
        randomization(
            [(statistics[m][0], statistics[m][i]) for m, i in compared], n, resampling.trials, resampling.seed
        )
    )
    p_values: dict[tuple[str, int], float | None] = {}
    for m, i in compared:
        diffs, score, base = next(differences), found[m][i], found[m][0]
        p_values[m, i] = None if score is None or base is None else randomization_p_value(diffs, score - base)
    return {
        m: [Estimate(score, intervals[m][i], p_values.get((m, i))) for i, score in enumerate(found[m])]
        for m in statistics
    }


def bootstrap_report(
    report: Report, resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED, paired: bool = False
) -> dict[str, list[Estimate]]:
    """:func:`bootstrap_estimates` of a :class:`~ktr.scoring.corpus.Report` scored without a
    bootstrap; its signatures then record the resample count and seed, as sacreBLEU's do.
    (``Scorer.score`` with ``RunOptions(bootstrap=...)`` does this as it scores.)"""
    found, signatures = bootstrap_estimates(report.systems, report.references, Resampling(resamples, seed, paired))
    if report.sacrebleu is not None:
        report.sacrebleu.update(signatures)
    report.signature = dataclasses.replace(report.signature, resamples=resamples, seed=seed)
    return found

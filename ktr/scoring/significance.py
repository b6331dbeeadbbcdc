"""Bootstrap confidence intervals and paired bootstrap significance, as sacreBLEU does them.

A resample draws ``n`` sentence indices with replacement; drawing index *i* k times is the same
as weighting sentence *i* by k, so each resample is a row of *counts* and every metric whose
corpus score is computed from summed per-sentence statistics is rescored from ``counts @ stats``
without touching the text again:

- KTR: the paper's mean of sentence scores (plain or class-weighted) and the keyword-weighted
  rate are all a ratio of sums, ``Σ num / Σ den`` with (score, 1) or (transferred, counted) per
  sentence (see :func:`ktr_statistic`); any other aggregation falls back to re-aggregating
  resampled sentences;
- BLEU and chrF: sacreBLEU's sufficient statistics and its own score-from-statistics function;
- METEOR: the mean of sentence scores.

The resamples are those of sacreBLEU's ``--paired-bs`` for the same seed (numpy's
``default_rng(seed).choice(n, (resamples, n))``, drawn in chunks to bound memory), and every
system and metric is scored on the *same* resamples, which is what makes the test paired.

- 95% confidence interval: the 2.5th and 97.5th percentiles of the resampled scores, by
  sacreBLEU's rule (sorted, index ``B // 40`` and ``B - B // 40 - 1``).
- Paired p-value against a baseline (Koehn 2004 as sacreBLEU implements it): the resampled
  absolute differences are shifted to mean zero (the null hypothesis) and
  ``p = (#{shifted ≥ |observed difference|} + 1) / (B + 1)``. sacreBLEU counts ``>`` only,
  which makes two identical systems "significantly different" (p = 1/(B+1)); KTR on small
  test sets has many ties, so ties count here. Without ties the two agree.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import numpy as np

from ktr.matching.tracing import f_beta
from ktr.scoring.results import Report, SystemResult

if TYPE_CHECKING:
    from sacrebleu.metrics.base import Metric

    from ktr.scoring.reference import Statistics

DEFAULT_RESAMPLES = 1000
DEFAULT_SEED = 12345
_CHUNK_CELLS = 2_000_000  # resample rows are drawn in chunks of about this many indices


class Statistic(Protocol):
    """Scores a corpus under resampling: one score per row of sentence counts (NaN: undefined)."""

    def scores(self, counts: np.ndarray) -> np.ndarray: ...


@dataclass
class RatioStatistic:
    """Corpus score = Σ num / Σ den over the sentences (each weighted by its count)."""

    num: np.ndarray
    den: np.ndarray

    def scores(self, counts: np.ndarray) -> np.ndarray:
        den = counts @ self.den
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(den > 0, (counts @ self.num) / np.where(den > 0, den, 1), np.nan)


@dataclass
class SumStatistic:
    """Corpus score = ``score(Σ stats)`` (sacreBLEU's metrics: summed sufficient statistics)."""

    stats: np.ndarray  # (sentences, statistics)
    score: Callable[[np.ndarray], float]

    def scores(self, counts: np.ndarray) -> np.ndarray:
        return np.array([self.score(row) for row in counts @ self.stats], dtype=float)


@dataclass
class ResampledSystem:
    """Any aggregation of a system's corpus score (``ktr``, ``f``...): re-aggregates the
    resampled sentences (slow, always correct)."""

    system: SystemResult
    attribute: str = "ktr"

    def scores(self, counts: np.ndarray) -> np.ndarray:
        out = []
        for row in counts:
            picked = [s for s, k in zip(self.system.sentences, row) for _ in range(int(k))]
            value = getattr(dataclasses.replace(self.system, sentences=picked, totals=None), self.attribute)
            out.append(np.nan if value is None else value)
        return np.array(out, dtype=float)


def ktr_statistic(system: SystemResult) -> Statistic:
    """The system's headline KTR under resampling, from its per-sentence (counted, transferred)
    (for ``weighted``: the class-weighted pair, averaged as macro averages sentence scores); the
    lines the analyzer failed on count for nothing, as in the corpus score."""
    if system.aggregation not in ("macro", "micro", "weighted"):
        return ResampledSystem(system)
    lines = system.lines()
    weighted = system.aggregation == "weighted"
    counted = lines.column("weight" if weighted else "counted")
    transferred = lines.column("weight_transferred" if weighted else "transferred")
    if system.aggregation == "micro":
        return RatioStatistic(transferred, counted)
    has = counted > 0
    score = np.divide(transferred, counted, out=np.zeros_like(counted), where=has)
    if system.no_keywords == "exclude":
        return RatioStatistic(score, has.astype(float))
    filler = 1.0 if system.no_keywords == "one" else 0.0
    ok = lines.ok  # a failed line counts for nothing, not as a line without keywords
    return RatioStatistic(np.where(has, score, filler) * ok, ok)


def precision_statistic(system: SystemResult) -> Statistic:
    """The system's precision under resampling: pooled words (micro) or the mean of sentences."""
    lines = system.lines()
    traced, content = lines.column("traced"), lines.column("content")
    if system.aggregation == "micro":
        return RatioStatistic(traced, content)
    has = content > 0
    return RatioStatistic(np.divide(traced, content, out=np.zeros_like(content), where=has), has.astype(float))


def f_statistic(system: SystemResult) -> Statistic:
    """The system's F under resampling: the mean of sentence F (micro: F of the pooled figures)."""
    lines = system.lines()
    traced, content = lines.column("traced"), lines.column("content")
    if system.aggregation == "micro":
        return MicroF(
            RatioStatistic(lines.column("transferred"), lines.column("counted")),
            RatioStatistic(traced, content),
            system.beta,
        )
    weighted = system.aggregation == "weighted"
    counted = lines.column("weight" if weighted else "counted")
    transferred = lines.column("weight_transferred" if weighted else "transferred")
    rows = zip(counted.tolist(), transferred.tolist(), content.tolist(), traced.tolist(), lines.ok.tolist())
    return mean_statistic(  # each line's F as SentenceResult.f computes it; None for a failed line
        [
            f_beta(hits / keywords if keywords else None, found / words if words else None, system.beta) if ok else None
            for keywords, hits, words, found, ok in rows
        ]
    )


@dataclass
class MicroF:
    """F-beta of two pooled ratios (micro KTR and precision) under resampling."""

    ktr: RatioStatistic
    precision: RatioStatistic
    beta: float

    def scores(self, counts: np.ndarray) -> np.ndarray:
        pairs = zip(self.ktr.scores(counts).tolist(), self.precision.scores(counts).tolist())
        found = [f_beta(_number(ktr), _number(precision), self.beta) for ktr, precision in pairs]
        return np.array([np.nan if f is None else f for f in found], dtype=float)


def _number(value: float) -> float | None:
    """A resampled score, None where it is undefined (NaN)."""
    return None if math.isnan(value) else value


def sacrebleu_statistic(
    name: str, hypotheses: Sequence[str], references: Sequence[Sequence[str]]
) -> tuple[float, SumStatistic, Metric]:
    """(corpus score, :class:`Statistic`, the sacreBLEU metric object) of BLEU or chrF."""
    from ktr.scoring.reference import sentence_statistics

    stats, metric = sentence_statistics(name, hypotheses, references)
    return statistic_of(metric, stats)


def statistic_of(metric: Metric, stats: list[Statistics] | np.ndarray) -> tuple[float, SumStatistic, Metric]:
    """:func:`sacrebleu_statistic` from sacreBLEU's statistics of every sentence and the metric
    object that extracted them."""
    array = np.asarray(stats).reshape(len(stats), -1)
    score: float = metric._compute_score_from_stats(array.sum(axis=0).tolist()).score  # as sacreBLEU sums them
    array = array.astype(float)
    return score, SumStatistic(array, lambda row: metric._compute_score_from_stats(list(row)).score), metric


def mean_statistic(values: Sequence[float | None]) -> RatioStatistic:
    """The mean of per-sentence values (sentence-level metrics such as METEOR; precision, F),
    leaving out the sentences whose value is None."""
    has = np.array([v is not None for v in values], dtype=float)
    return RatioStatistic(np.array([0.0 if v is None else v for v in values], dtype=float), has)


def resample_counts(n: int, resamples: int, seed: int) -> Iterator[np.ndarray]:
    """Rows of sentence counts, ``resamples`` in all, in chunks; the same for the same seed."""
    rng = np.random.default_rng(seed)
    rows = max(1, _CHUNK_CELLS // max(n, 1))
    done = 0
    while done < resamples:
        k = min(rows, resamples - done)
        idx = rng.choice(n, size=(k, n), replace=True)
        flat = (idx + n * np.arange(k)[:, None]).ravel()
        yield np.bincount(flat, minlength=k * n).reshape(k, n).astype(float)
        done += k


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


@dataclass(frozen=True)
class Estimate:
    """A corpus score with its bootstrap interval and, against a baseline, its p-value."""

    score: float | None
    ci: tuple[float, float] | None = None
    p_value: float | None = None

    def fields(self, metric: str) -> dict[str, list[float] | float | None]:
        """``{metric}_ci`` and ``{metric}_p``, as the JSON reports carry them beside the score."""
        return {f"{metric}_ci": list(self.ci) if self.ci else None, f"{metric}_p": self.p_value}


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


def signature_extra(resamples: int, seed: int) -> dict[str, str]:
    """What a bootstrap adds to a signature: the resample count and the seed."""
    return {"bs": str(resamples), "seed": str(seed)}


def bootstrap_report(
    report: Report, resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED, paired: bool = False
) -> dict[str, list[Estimate]]:
    """Intervals (and with ``paired``, p-values against the first system) for a
    :class:`~ktr.scoring.scorer.Report`: KTR, precision and F, and BLEU and chrF when it was scored with references (then
    with ``statistics=True``, which keeps each sentence's sacreBLEU statistics).

    Records the resample count and seed in the report's signatures, as sacreBLEU does.
    """
    from ktr.scoring.reference import SACREBLEU_METRICS

    kept = report.references
    if kept is not None and not kept.keep:
        raise ValueError("BLEU and chrF are resampled from each sentence's statistics: score with statistics=True")
    scores: dict[str, list[float | None]] = {
        "ktr": [s.ktr for s in report.systems],
        "precision": [s.precision for s in report.systems],
        "f": [s.f for s in report.systems],
    }
    statistics: dict[str, list[Statistic]] = {
        "ktr": [ktr_statistic(s) for s in report.systems],
        "precision": [precision_statistic(s) for s in report.systems],
        "f": [f_statistic(s) for s in report.systems],
    }
    if kept is not None:
        for name in SACREBLEU_METRICS:
            scores[name], statistics[name] = [], []
            for s in report.systems:
                score, statistic, metric = statistic_of(kept.metric(name), kept.statistics_array(s.name, name))
                scores[name].append(score)
                statistics[name].append(statistic)
            metric.n_bootstrap, metric.seed = resamples, seed
            if report.sacrebleu is not None:
                report.sacrebleu[name] = str(metric.get_signature())
    flat = [st for metric in statistics for st in statistics[metric]]
    drawn = iter(bootstrap(flat, len(report.systems[0].lines()), resamples, seed))
    report.signature = dataclasses.replace(
        report.signature, extra={**report.signature.extra, **signature_extra(resamples, seed)}
    )
    return {
        metric: estimates(scores[metric], [next(drawn) for _ in statistics[metric]], 0 if paired else None)
        for metric in statistics
    }

"""The statistics of the meta-evaluation and of the agreement with judged keywords: ROC-AUC,
Kendall's tau-b, Pearson's correlation, the mean and the Wilson interval of a proportion."""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Sequence


def auc(positives: Sequence[float], negatives: Sequence[float]) -> float | None:
    """ROC-AUC: the probability that a random positive scores above a random negative, ties
    counted half (the Mann–Whitney U statistic divided by the number of pairs)."""
    if not positives or not negatives:
        return None
    ranked = sorted(negatives)
    wins = sum(bisect_left(ranked, p) + (bisect_right(ranked, p) - bisect_left(ranked, p)) / 2 for p in positives)
    return wins / (len(positives) * len(negatives))


def kendall_tau_b(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Kendall's tau-b (ties in either variable corrected for); ``None`` when a variable is constant.

    Pairs are compared group by group of equal ``x`` with binary search, so the cost is about
    (distinct x values) × n log n: fast for a few drop levels, correct for any input.
    """
    if len(x) != len(y):
        raise ValueError("x and y differ in length")
    groups: dict[float, list[float]] = {}
    for a, b in zip(x, y):
        groups.setdefault(a, []).append(b)
    ordered = [sorted(groups[k]) for k in sorted(groups)]
    s = 0  # concordant minus discordant pairs
    for i, low in enumerate(ordered):
        for high in ordered[i + 1 :]:
            s += sum((len(high) - bisect_right(high, v)) - bisect_left(high, v) for v in low)
    n0 = len(x) * (len(x) - 1) // 2
    ties_x = sum(t * (t - 1) // 2 for t in Counter(x).values())
    ties_y = sum(t * (t - 1) // 2 for t in Counter(y).values())
    denominator = math.sqrt((n0 - ties_x) * (n0 - ties_y))
    return s / denominator if denominator else None


def average(values: Sequence[float]) -> float | None:
    """The mean, or None for no values."""
    return sum(values) / len(values) if values else None


def pearson(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Pearson's correlation; None for fewer than two points or a constant side."""
    if len(x) < 2:
        return None
    mx, my = sum(x) / len(x), sum(y) / len(y)
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    return sxy / math.sqrt(sxx * syy) if sxx and syy else None


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float] | None:
    """The Wilson score interval of the proportion ``k / n`` (95 % for the default ``z``);
    None when ``n`` is 0."""
    if n <= 0:
        return None
    p, zz = k / n, z * z
    centre = (p + zz / (2 * n)) / (1 + zz / n)
    half = z * math.sqrt(p * (1 - p) / n + zz / (4 * n * n)) / (1 + zz / n)
    return max(0.0, centre - half), min(1.0, centre + half)

"""Bootstrap intervals and paired tests: checked by enumerating every resample of tiny cases,
against the corpus scoring of the resampled sentences and the scores worked out directly, and
against sacreBLEU's --paired-bs and --paired-ar on the sample."""

import dataclasses
import itertools
from math import comb

import numpy as np
import pytest

from ktr.sample import paths as sample_paths
from ktr.scoring.corpus import SystemResult
from ktr.scoring.formula import Aggregation
from ktr.scoring.sentences import SentenceResult
from ktr.scoring.significance import (
    bootstrap,
    confidence_interval,
    paired_p_value,
    randomization,
    randomization_masks,
    randomization_p_value,
    resample_counts,
    sacrebleu_statistic,
    system_statistics,
)
from ktr.textio import read_lines


def system(stats, aggregation="macro", no_keywords="exclude", name="s", weights=None):
    """A SystemResult from (counted, transferred) pairs (the keywords themselves do not matter
    here); ``weights``: the class-weighted (weight, weight transferred) pairs."""
    weights = weights or [(float(c), float(t)) for c, t in stats]
    return SystemResult(
        name,
        [SentenceResult(i, (), c, t, w, wt) for i, ((c, t), (w, wt)) in enumerate(zip(stats, weights))],
        Aggregation(aggregation, no_keywords),
    )


def ktr_statistic(s):
    return system_statistics(s, ("ktr",))["ktr"]


def resampled(s, row):
    """The system scored as a corpus (not resampled) on the sentences a resample draws."""
    return dataclasses.replace(s, sentences=[line for line, k in zip(s.sentences, row) for _ in range(int(k))])


def mean_of_ratios(pairs, no_keywords):
    """The paper's KTR worked out directly: the mean of t/c, a sentence without keywords 1, 0 or left out."""
    filler = {"one": [1.0], "zero": [0.0], "exclude": []}[no_keywords]
    values = [v for c, t in pairs for v in ([t / c] if c else filler)]
    return sum(values) / len(values) if values else None


def ratio_of_sums(pairs):
    counted = sum(c for c, _ in pairs)
    return sum(t for _, t in pairs) / counted if counted else None


def every_resample(n):
    """All n**n ordered resamples of n sentences, as rows of counts: the exact bootstrap."""
    rows = []
    for picks in itertools.product(range(n), repeat=n):
        rows.append(np.bincount(picks, minlength=n).astype(float))
    return iter([np.array(rows)])


def tally(samples):
    values, counts = np.unique(samples, return_counts=True)
    return dict(zip(values.tolist(), counts.tolist()))


def test_interval_by_hand():
    # four sentences scoring 1, 1, 1, 0: a resample's KTR is k/4 where k, the number of 1-sentences
    # drawn, is Binomial(4, 3/4); of the 256 resamples C(4,k)·3^k have KTR k/4: 1, 12, 54, 108, 81.
    s = system([(1, 1), (1, 1), (1, 1), (1, 0)])
    (samples,) = bootstrap([ktr_statistic(s)], 4, counts=every_resample(4))
    assert sorted(tally(samples).items()) == [(0.0, 1), (0.25, 12), (0.5, 54), (0.75, 108), (1.0, 81)]
    # 95% interval: sorted index 256 // 40 = 6 (KTR 0.25: indexes 1-12) and 256 - 6 - 1 = 249 (KTR 1.0: 175-255)
    assert confidence_interval(samples) == (0.25, 1.0)


def test_paired_p_value_by_hand():
    # baseline scores 1, 1, 1, 0; the system 1 everywhere: observed difference 0.25. In a resample
    # the difference is j/4 with j ~ Binomial(4, 1/4) (draws of the last sentence): counts 81, 108, 54,
    # 12, 1; mean |difference| exactly 0.25. Shifted to mean 0, a resample is at least as extreme as
    # the observation when j/4 - 0.25 >= 0.25, i.e. j >= 2: 54 + 12 + 1 = 67 resamples.
    base = system([(1, 1), (1, 1), (1, 1), (1, 0)])
    better = system([(1, 1)] * 4)
    a, b = bootstrap([ktr_statistic(base), ktr_statistic(better)], 4, counts=every_resample(4))
    assert [comb(4, j) * 3 ** (4 - j) for j in range(5)] == [81, 108, 54, 12, 1]
    assert paired_p_value(a, b, better.ktr - base.ktr) == pytest.approx((67 + 1) / (256 + 1))


def test_identical_systems_are_not_significant():
    s = system([(2, 1), (3, 3), (1, 0), (4, 2)])
    a, b = bootstrap([ktr_statistic(s), ktr_statistic(s)], 4, resamples=200, seed=1)
    assert paired_p_value(a, b, 0.0) == 1.0


@pytest.mark.parametrize(
    "aggregation,no_keywords",
    [
        ("macro", "exclude"),
        ("macro", "zero"),
        ("macro", "one"),
        ("micro", "exclude"),
        ("weighted", "exclude"),
        ("weighted", "one"),
    ],
)
def test_resampled_scores_are_ktr_score_aggregation(aggregation, no_keywords):
    stats = [(3, 2), (0, 0), (5, 5), (2, 0), (4, 1), (0, 0), (1, 1)]
    weights = [(2.5, 2.0), (0.0, 0.0), (4.0, 4.0), (1.5, 0.0), (3.0, 0.5), (0.0, 0.0), (0.5, 0.5)]
    s = system(stats, aggregation, no_keywords, weights=weights)
    chunk = next(resample_counts(len(stats), 50, seed=7))
    fast = ktr_statistic(s).scores(chunk)
    pairs = weights if aggregation == "weighted" else stats
    for row, f in zip(chunk, fast):
        picked = [st for st, k in zip(pairs, row) for _ in range(int(k))]
        expected = ratio_of_sums(picked) if aggregation == "micro" else mean_of_ratios(picked, no_keywords)
        assert (np.isnan(f) and expected is None) or f == pytest.approx(expected)
        corpus = resampled(s, row).ktr  # the corpus scoring of the resampled sentences
        assert (np.isnan(f) and corpus is None) or f == pytest.approx(corpus)


@pytest.mark.parametrize("aggregation", ["macro", "micro", "weighted"])
def test_resampled_precision_and_f_are_the_system_s_own_aggregation(aggregation):
    # (counted, transferred), (content words, traced); one line failed, one output without content words
    stats = [(3, 2), (2, 2), (4, 1), (2, 0), (1, 1)]
    words = [(4, 3), (0, 0), (5, 2), (3, 3), (2, 1)]
    sentences = [
        SentenceResult(i, (), c, t, float(c), float(t), content=w, traced=tr, failed="timeout" if i == 3 else None)
        for i, ((c, t), (w, tr)) in enumerate(zip(stats, words))
    ]
    s = SystemResult("s", sentences, Aggregation(aggregation, "exclude", 0.5))
    chunk = next(resample_counts(len(stats), 40, seed=3))
    statistics = system_statistics(s)
    for figure in ("precision", "f"):
        fast = statistics[figure].scores(chunk)
        slow = [getattr(resampled(s, row), figure) for row in chunk]
        assert np.allclose(fast, np.array([np.nan if v is None else v for v in slow]), equal_nan=True)
    whole = np.ones((1, len(stats)))
    assert statistics["precision"].scores(whole)[0] == pytest.approx(s.precision)
    assert statistics["f"].scores(whole)[0] == pytest.approx(s.f)
    # by hand: the failed line (index 3) counts for nothing; line 1 has no content word
    if aggregation == "micro":
        assert s.precision == pytest.approx((3 + 2 + 1) / (4 + 5 + 2))
    else:
        assert s.precision == pytest.approx((3 / 4 + 2 / 5 + 1 / 2) / 3)


def test_seeded_and_deterministic():
    s = system([(2, 1), (3, 3), (1, 0), (4, 2), (2, 2)])
    first = bootstrap([ktr_statistic(s)], 5, resamples=300, seed=3)[0]
    assert np.array_equal(first, bootstrap([ktr_statistic(s)], 5, resamples=300, seed=3)[0])
    assert not np.array_equal(first, bootstrap([ktr_statistic(s)], 5, resamples=300, seed=4)[0])


def test_chunks_draw_the_same_resamples_as_one_draw(monkeypatch):
    import ktr.scoring.significance as sig

    whole = np.vstack(list(resample_counts(50, 40, seed=9)))
    monkeypatch.setattr(sig, "_CHUNK_CELLS", 50 * 7)  # 7 rows per chunk
    chunked = list(resample_counts(50, 40, seed=9))
    assert len(chunked) == 6 and np.array_equal(np.vstack(chunked), whole)


@pytest.mark.parametrize("metric", ["bleu", "chrf"])
def test_agrees_with_sacrebleu_paired_bs(metric):
    from sacrebleu.metrics import BLEU, CHRF
    from sacrebleu.significance import _paired_bs_test

    p = sample_paths()
    ref = read_lines(p["reference"])
    base_lines, other_lines = read_lines(p["fluent"]), read_lines(p["wordsalad"])
    m = {"bleu": BLEU, "chrf": CHRF}[metric](references=[ref])
    base_stats = m._extract_corpus_statistics(base_lines, None)
    _, theirs = _paired_bs_test(
        {metric: (np.array(base_stats), m._aggregate_and_compute(base_stats))},
        "other",
        other_lines,
        None,
        {metric: m},
        n_samples=1000,
        seed=12345,
    )
    s0, st0, _ = sacrebleu_statistic(metric, base_lines, [ref])
    s1, st1, _ = sacrebleu_statistic(metric, other_lines, [ref])
    a, b = bootstrap([st0, st1], len(ref), 1000, 12345)
    assert paired_p_value(a, b, s1 - s0) == pytest.approx(theirs[metric].p_value)
    low, high = confidence_interval(b)
    assert (high - low) / 2 == pytest.approx(theirs[metric].ci, rel=1e-5)  # sacreBLEU reports the half-width
    assert b.mean() == pytest.approx(theirs[metric].mean, rel=1e-5)


def every_swap(n):
    """All 2**n ways of swapping n lines' outputs between two systems: the exact randomization test."""
    return iter([np.array(list(itertools.product([True, False], repeat=n)))])


def test_randomization_by_hand():
    # the baseline transfers every keyword of three lines, the system those of the third only:
    # KTR 1 against 1/3, a difference of 2/3. A trial's pseudo-systems differ by |2(k1 + k2) - 2| / 3,
    # k1 and k2 the first two lines kept: 2/3 in 4 of the 8 swaps (k1 + k2 of 0 or 2), 0 in the rest
    base, other = system([(1, 1), (1, 1), (1, 1)]), system([(1, 0), (1, 0), (1, 1)])
    (diffs,) = randomization([(ktr_statistic(base), ktr_statistic(other))], 3, masks=every_swap(3))
    assert sorted(np.round(diffs, 12).tolist()) == [0.0] * 4 + [round(2 / 3, 12)] * 4
    assert randomization_p_value(diffs, other.ktr - base.ktr) == pytest.approx((4 + 1) / (8 + 1))


def test_randomization_of_a_system_against_itself_is_p_1():
    # every swap changes nothing: each trial's difference ties the observed 0 (sacreBLEU's strict
    # count would give p = 1/(R+1), "significant")
    s = system([(2, 1), (3, 3), (1, 0), (4, 2), (2, 2)])
    (diffs,) = randomization([(ktr_statistic(s), ktr_statistic(s))], 5, trials=500, seed=1)
    assert randomization_p_value(diffs, 0.0) == 1.0


def test_randomization_finds_a_clearly_better_system():
    # 40 lines: the system transfers every keyword, the baseline half of them on every line
    base, better = system([(2, 1)] * 40), system([(2, 2)] * 40)
    (diffs,) = randomization([(ktr_statistic(base), ktr_statistic(better))], 40, trials=2000, seed=5)
    assert randomization_p_value(diffs, better.ktr - base.ktr) == pytest.approx(1 / 2001)


def test_randomization_is_seeded_and_its_chunks_draw_as_one_draw(monkeypatch):
    import ktr.scoring.significance as sig

    whole = np.random.default_rng(9).integers(2, size=(100, 50), dtype=bool)  # sacreBLEU's one draw
    assert np.array_equal(np.vstack(list(randomization_masks(50, 100, seed=9))), whole)
    monkeypatch.setattr(sig, "_CHUNK_CELLS", 50 * 40)  # 32 rows per chunk
    chunked = list(randomization_masks(50, 100, seed=9))
    assert [len(c) for c in chunked] == [32, 32, 32, 4] and np.array_equal(np.vstack(chunked), whole)


@pytest.mark.parametrize("metric", ["bleu", "chrf"])
@pytest.mark.parametrize("other", ["literal", "wordsalad"])
def test_agrees_with_sacrebleu_paired_ar(metric, other):
    from sacrebleu.metrics import BLEU, CHRF
    from sacrebleu.significance import _paired_ar_test

    p = sample_paths()
    ref = read_lines(p["reference"])
    base_lines, other_lines = read_lines(p["fluent"]), read_lines(p[other])
    m = {"bleu": BLEU, "chrf": CHRF}[metric](references=[ref])
    base_stats = m._extract_corpus_statistics(base_lines, None)
    _, theirs = _paired_ar_test(
        {metric: (np.array(base_stats), m._aggregate_and_compute(base_stats))},
        "other",
        other_lines,
        None,
        {metric: m},
        n_samples=10000,
        seed=12345,
    )
    s0, st0, _ = sacrebleu_statistic(metric, base_lines, [ref])
    s1, st1, _ = sacrebleu_statistic(metric, other_lines, [ref])
    (diffs,) = randomization([(st0, st1)], len(ref), 10000, 12345)
    assert randomization_p_value(diffs, s1 - s0) == pytest.approx(theirs[metric].p_value)


def test_a_resampling_of_approximate_randomization_is_paired_and_has_trials():
    from ktr.errors import ConfigError
    from ktr.scoring.resampling import Resampling

    assert Resampling(paired=True, trials=200, intervals=False).test == "ar"
    assert Resampling(paired=True).test == "bs" and Resampling().test is None
    with pytest.raises(ConfigError, match="approximate randomization needs paired=True"):
        Resampling(trials=200)
    with pytest.raises(ConfigError, match="without intervals is an approximate randomization test"):
        Resampling(paired=True, intervals=False)
    with pytest.raises(ConfigError, match="trials must be from 1 to 1000000, got 0"):
        Resampling(paired=True, trials=0)

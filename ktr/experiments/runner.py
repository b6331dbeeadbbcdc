"""Running an experiment: every variant × every system, scored, compared and summarised.

The source is analysed once per analyzer (:class:`~ktr.scoring.analysis_cache.CachedAnalyzer`, in memory
and on disk, under the same guards and time limit as ``ktr score``: a line the analyzer fails on
is reported and left out, the run goes on); each variant then only extracts keywords, looks them
up and matches. BLEU, chrF and METEOR do not depend on the variant and are computed once per
system. All bootstrap estimates (every variant, system and metric) use the same resamples, so
every comparison is paired.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ktr.config import Config
from ktr.execution.analyzer_pool import AnalyzerPool, SharedAnalyzer
from ktr.execution.jobs import split_jobs
from ktr.execution.options import Engine
from ktr.experiments.dask_variants import one_cluster, score_variant
from ktr.experiments.experiment import Experiment
from ktr.experiments.metrics import MetricScores, Statistics, reference_metrics
from ktr.korean.analyzers import Analyzer
from ktr.korean.analyzers.process import build_analyzer
from ktr.korean.guard import pieces
from ktr.korean.keywords import CLASSES
from ktr.korean.normalize import normalize_source
from ktr.lexicon import Lexicon
from ktr.progress import Progress
from ktr.scoring.analysis_cache import CachedAnalyzer
from ktr.scoring.corpus import Estimate, SystemResult
from ktr.scoring.preflight import check
from ktr.scoring.resampling import Resampling
from ktr.scoring.scorer import Scorer
from ktr.scoring.signature import Signature
from ktr.scoring.significance import (
    Statistic,
    bootstrap,
    estimates,
    paired_p_value,
    system_statistics,
)
from ktr.textio import check_same_length, read_lines
from ktr.version import __version__

if TYPE_CHECKING:
    from ktr.execution.dask_analyzer import ClusterAnalyzer

#: keyword classes in report order (idiom units last)
CLASS_ORDER = (*CLASSES, "idiom", "construction")


@dataclass
class Difference:
    """A sentence where a system and the baseline system differ in KTR."""

    index: int
    baseline_score: float
    score: float
    gained: list[str]  # keywords the system transferred and the baseline did not
    lost: list[str]  # keywords the baseline transferred and the system did not

    @property
    def delta(self) -> float:
        return self.score - self.baseline_score


@dataclass
class VariantRun:
    """One variant's results: a scored system per output, and what the comparison found."""

    name: str
    config: Config
    signature: Signature
    systems: list[SystemResult]
    ktr: dict[str, Estimate] = field(default_factory=dict)  # system → KTR with CI, p
    f: dict[str, Estimate] = field(default_factory=dict)  # system → F with CI, p
    vs_baseline_variant: dict[str, tuple[float, float | None]] = field(default_factory=dict)  # Δ, p
    differences: dict[str, list[Difference]] = field(default_factory=dict)

    def system(self, name: str) -> SystemResult:
        return next(s for s in self.systems if s.name == name)

    @property
    def failed(self) -> list[tuple[int, str]]:
        """(line number, reason) of each source line the analyzer failed on: not scored, by
        any system."""
        return [(s.index + 1, s.failed) for s in self.systems[0].sentences if s.failed]


@dataclass
class Run:
    """Everything a report needs; :meth:`to_dict` is ``results.json``."""

    experiment: Experiment
    sources: list[str]
    outputs: dict[str, list[str]]
    references: list[list[str]]
    variants: list[VariantRun]
    reference_metrics: dict[str, dict[str, Estimate]]  # metric → system → estimate
    metric_signatures: dict[str, str]  # BLEU, chrF (sacreBLEU), METEOR
    seconds: float = 0.0

    @property
    def baseline(self) -> str:
        return self.experiment.compare.baseline

    def to_dict(self) -> dict[str, Any]:
        exp = self.experiment
        return {
            "ktr_version": __version__,
            "experiment": exp.to_dict(),
            "sentences": len(self.sources),
            "bootstrap": {
                "resamples": exp.compare.resamples,
                "seed": exp.compare.seed,
                "confidence": 0.95,
                "test": "paired bootstrap (sacreBLEU --paired-bs)",
            },
            "metric_signatures": self.metric_signatures or None,
            "variants": [self._variant_dict(v) for v in self.variants],
        }

    def _variant_dict(self, v: VariantRun) -> dict[str, Any]:
        systems = []
        for s in v.systems:
            d = s.summary()
            d.update(v.ktr[s.name].fields("ktr"))
            d.update(v.f[s.name].fields("f"))
            for metric, by_system in self.reference_metrics.items():
                d.update({metric: by_system[s.name].score, **by_system[s.name].fields(metric)})
            delta = v.vs_baseline_variant.get(s.name)
            d["vs_baseline_variant"] = {"delta": delta[0], "p_value": delta[1]} if delta else None
            d["classes"] = {
                c: {"keywords": n, "transferred": t, "rate": t / n if n else None}
                for c, (n, t) in class_rates(s).items()
            }
            d["score_histogram"] = histogram(s)
            systems.append(d)
        return {
            "name": v.name,
            "signature": {"short": v.signature.short(), "full": v.signature.full()},
            "systems": systems,
            "failed_lines": [{"line": n, "reason": why} for n, why in v.failed],
            "differences": {
                name: [
                    {
                        "index": d.index,
                        "baseline_score": d.baseline_score,
                        "score": d.score,
                        "delta": d.delta,
                        "gained": d.gained,
                        "lost": d.lost,
                    }
                    for d in diffs
                ]
                for name, diffs in v.differences.items()
            },
        }


def class_rates(system: SystemResult) -> dict[str, tuple[int, int]]:
    """Per keyword class: (keywords counted, transferred), counted as the lines' scores count them
    (:attr:`~ktr.scoring.sentences.KeywordResult.counted`)."""
    counted: Counter[str] = Counter()
    transferred: Counter[str] = Counter()
    for s in system.sentences:
        for k in s.keywords:
            if k.counted:
                counted[k.keyword.cls] += 1
                transferred[k.keyword.cls] += k.transferred
    order = [c for c in CLASS_ORDER if c in counted] + sorted(set(counted) - set(CLASS_ORDER))
    return {c: (counted[c], transferred[c]) for c in order}


def histogram(system: SystemResult, bins: int = 10) -> list[int]:
    """Sentence scores in ``bins`` equal bins over [0, 1] (1.0 falls in the last)."""
    out = [0] * bins
    for s in system.sentences:
        if s.score is not None:
            out[min(int(s.score * bins), bins - 1)] += 1
    return out


def _differences(base: SystemResult, other: SystemResult, top: int) -> list[Difference]:
    found = []
    for b, o in zip(base.sentences, other.sentences):
        if b.score is None or o.score is None or b.score == o.score:
            continue
        gained = [k.keyword.lemma for k, kb in zip(o.keywords, b.keywords) if k.transferred and not kb.transferred]
        lost = [k.keyword.lemma for k, kb in zip(o.keywords, b.keywords) if kb.transferred and not k.transferred]
        found.append(Difference(b.index, b.score, o.score, gained, lost))
    found.sort(key=lambda d: (-abs(d.delta), d.index))
    return found[:top]


def run_experiment(
    exp: Experiment,
    *,
    quiet: bool = False,
    analyzer_factory: Callable[[str], Analyzer] | None = None,
    analysis_cache: str | os.PathLike[str] | None = None,
    jobs: int = 1,
    engine: Engine | None = None,
) -> Run:
    """Score every variant and system of ``exp`` and compare them (see the module docstring).

    ``analyzer_factory`` builds an analyzer by name (default: as the variant's config says, with
    its ``timeout``); ``analysis_cache`` is the folder of stored analyses (default: ``analyses/``
    in ktr's cache folder); ``jobs`` > 1 analyses on that many cores: in the analyzer's own
    threads if it has them (Kiwi), else in worker processes (:class:`~ktr.execution.analyzer_pool.AnalyzerPool`);
    with a Dask ``engine``, on the cluster's workers (:class:`~ktr.execution.dask_analyzer.ClusterAnalyzer`),
    where each variant's systems are then scored too (:mod:`ktr.experiments.dask_variants`)."""
    with one_cluster(engine) as engine:  # the analysis and every variant on one cluster
        analysis = Analysis(analyzer_factory, analysis_cache, jobs, engine)
        try:
            return _run(exp, Progress(quiet), analysis)
        finally:
            for pool in analysis.pools:
                pool.close()


@dataclass
class Analysis:
    """How an experiment analyses its source, which travels together (:func:`run_experiment`'s
    arguments), and the pools of analyzer processes it started, closed when the run ends."""

    factory: Callable[[str], Analyzer] | None = None
    cache: str | os.PathLike[str] | None = None
    jobs: int = 1
    engine: Engine | None = None
    pools: list[SharedAnalyzer] = field(default_factory=list)

    @property
    def distributed(self) -> bool:
        return self.engine is not None and self.engine.distributed

    def analyzer(self, config: Config) -> Analyzer:
        """The analyzer of ``config``: by the factory, on the cluster's workers, in a pool of
        processes or in this one (with the analyzer's own threads)."""
        if self.factory:
            return self.factory(config.analyzer)
        check(config)
        if self.engine is not None and self.engine.distributed:
            from ktr.execution.dask_analyzer import ClusterAnalyzer

            pool: ClusterAnalyzer | AnalyzerPool = ClusterAnalyzer(config.analyzer, self.engine, config.timeout)
        else:
            processes, threads = split_jobs(self.jobs, config)
            if processes == 1 or threads > 1:  # one job, or an analyzer with threads of its own: all of them analysing
                return build_analyzer(config.analyzer, config.timeout, self.jobs)
            pool = AnalyzerPool(config.analyzer, processes, config.timeout)
        self.pools.append(pool)
        return pool


def _run(exp: Experiment, progress: Progress, analysis: Analysis) -> Run:
    started = time.perf_counter()
    files = {str(exp.data.source): read_lines(exp.data.source)}
    for path in [*exp.data.systems.values(), *exp.data.references]:
        files.setdefault(str(path), read_lines(path, allow_empty=True))
    check_same_length(files, str(exp.data.source))
    sources = files[str(exp.data.source)]
    outputs = {name: files[str(path)] for name, path in exp.data.systems.items()}
    references = [files[str(path)] for path in exp.data.references]
    variants = _variants(exp, sources, outputs, progress, analysis)
    reference_scores, reference_stats, signatures = reference_metrics(exp, outputs, references, progress)
    run = Run(exp, sources, outputs, references, variants, {}, signatures)
    _compare(run, reference_scores, reference_stats, progress)
    run.seconds = time.perf_counter() - started
    return run


def _variants(
    exp: Experiment, sources: list[str], outputs: dict[str, list[str]], progress: Progress, analysis: Analysis
) -> list[VariantRun]:
    """Every variant scored on every system. The analyses and prepared sources are let go on
    return: what follows (reference metrics, the bootstrap, the reports) needs only the results."""
    analyzers: dict[tuple[str, float | None], CachedAnalyzer] = {}
    lexicons: dict[tuple[str, ...], Lexicon] = {}
    variants = []
    for vname, config in exp.variants.items():
        analyzer = analyzers.get((config.analyzer, config.timeout))
        if analyzer is None:
            inner = analysis.analyzer(config)
            analyzer = analyzers[config.analyzer, config.timeout] = CachedAnalyzer(inner, directory=analysis.cache)
            with progress.bar(f"analysing ({config.analyzer})", len(sources)) as bar:
                analyzer.progress = lambda done, total, bar=bar: bar.set(done, total)
                analyzer.outcomes(analyzed_texts(sources, config.max_chars), label=str(exp.data.source))
                analyzer.progress = None
                bar.set(len(sources), len(sources))
                bar.note(f"{analyzer.loaded} from the cache")
        with progress.bar(f"scoring {vname}", len(outputs)) as bar:
            scorer = Scorer(config, analyzer=analyzer, lexicon=lexicons.get(config.lexicons))
            lexicons[config.lexicons] = scorer.lexicon
            if analysis.engine is not None and analysis.distributed:  # each stretch of every system on the cluster
                named = {name: str(path) for name, path in exp.data.systems.items()}
                systems = score_variant(scorer, sources, outputs, str(exp.data.source), analysis.engine, named)
            else:
                prepared = scorer.prepare(sources, str(exp.data.source))
                systems = [
                    scorer.score_prepared(prepared, name, lines, output_name=str(exp.data.systems[name]))
                    for name, lines in outputs.items()
                ]
            bar.update(len(outputs))
        resampling = Resampling(exp.compare.resamples, exp.compare.seed) if exp.compare.resamples else None
        variants.append(VariantRun(vname, config, scorer.metric.signature(resampling), systems))
    return variants


def analyzed_texts(sources: list[str], max_chars: int) -> list[str]:
    """What the scorer hands the analyzer for ``sources`` (normalized, cut as :mod:`ktr.korean.guard`
    cuts long lines), so the whole corpus is analysed and stored under one label first."""
    return [piece for line in sources for _, piece in pieces(normalize_source(line).text, max_chars)]


def _compare(run: Run, ref_scores: MetricScores, ref_stats: Statistics, progress: Progress) -> None:
    """Intervals, p-values against the baseline system and variant, and the largest differences."""
    exp = run.experiment
    names = list(run.outputs)
    base_i = names.index(run.baseline)
    statistics: list[Statistic] = []
    keys: list[tuple[str, str | None, str]] = []  # (metric, variant: None for the reference metrics, system)
    for v in run.variants:
        for s in v.systems:
            statistics += system_statistics(s, ("ktr", "f")).values()
            keys += [("ktr", v.name, s.name), ("f", v.name, s.name)]
    for metric, by_system in ref_stats.items():
        for name in names:
            statistics.append(by_system[name])
            keys.append((metric, None, name))
    samples: dict[tuple[str, str | None, str], np.ndarray] = {}
    if exp.compare.resamples:
        with progress.bar("bootstrap", exp.compare.resamples) as bar:
            drawn = bootstrap(
                statistics, len(run.sources), exp.compare.resamples, exp.compare.seed, progress=bar.update
            )
        samples = dict(zip(keys, drawn))

    def table(metric: str, variant: str | None, scores: list[float | None]) -> list[Estimate]:
        if not samples:
            return [Estimate(s) for s in scores]
        return estimates(scores, [samples[(metric, variant, n)] for n in names], base_i)

    for v in run.variants:
        v.ktr = dict(zip(names, table("ktr", v.name, [s.ktr for s in v.systems])))
        v.f = dict(zip(names, table("f", v.name, [s.f for s in v.systems])))
        base = v.system(run.baseline)
        v.differences = {
            s.name: _differences(base, s, exp.compare.differences) for s in v.systems if s.name != run.baseline
        }
    for metric, system_scores in ref_scores.items():
        run.reference_metrics[metric] = dict(zip(names, table(metric, None, [system_scores[n] for n in names])))
    for v in run.variants:  # the system summaries carry BLEU and chrF, as ktr score's do
        for s in v.systems:
            s.bleu = ref_scores.get("bleu", {}).get(s.name)
            s.chrf = ref_scores.get("chrf", {}).get(s.name)
    base_variant = next(v for v in run.variants if v.name == exp.compare.baseline_variant)
    for v in run.variants:
        if v is base_variant:
            continue
        for s in v.systems:
            before, after = base_variant.system(s.name).ktr, s.ktr
            if before is None or after is None:
                continue
            p = None
            if samples:
                p = paired_p_value(
                    samples[("ktr", base_variant.name, s.name)], samples[("ktr", v.name, s.name)], after - before
                )
            v.vs_baseline_variant[s.name] = (after - before, p)

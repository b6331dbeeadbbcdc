"""The Python API: analyse sources once, look keywords up once, match every system against them.

The command line is a thin layer over it::

    from ktr import Scorer
    report = Scorer().score(sources, {"mt1": hyps1, "mt2": hyps2}, references=[refs])
    print(report.systems[0].ktr, report.signature.short())

A :class:`Scorer` drives the :class:`~ktr.scoring.metric.KTR` metric (its pipeline: the analyzer
and tables) over many systems and files: it checks its input, cuts it into stretches and hands
them to an engine (:mod:`ktr.execution`); BLEU and chrF are summed as the stretches go by, and
what a run keeps and adds travels as one :class:`RunOptions`.
"""

from __future__ import annotations

import dataclasses
import os
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from ktr.config import Config
from ktr.errors import ConfigError, InputError, InputWarning
from ktr.execution.engines import Engine, Execution, iter_stretches
from ktr.execution.inputs import Inputs, blank, check_inputs
from ktr.execution.jobs import resolve_jobs, split_jobs
from ktr.execution.ranges import CheckedFile, IndexedFile, Range, check_file, ranges, task_lines
from ktr.execution.unit import Scored, Stretch, fewer_gc_pauses, sliced, stretch_size
from ktr.korean.analyzers import Analyzer
from ktr.korean.keywords import Keyword
from ktr.lexicon import Lexicon
from ktr.scoring.corpus import PerLine, Report, SystemResult, Totals
from ktr.scoring.lines import checked
from ktr.scoring.metric import KTR
from ktr.scoring.pipeline import Pipeline, Prepared, output_warnings
from ktr.scoring.preflight import check
from ktr.scoring.reference import WIDTHS, ReferenceScores, SystemStatistics, statistics_problem, stretch_statistics
from ktr.scoring.resampling import Resampling
from ktr.scoring.sentences import SentenceResult
from ktr.scoring.signature import Signature
from ktr.scoring.significance import bootstrap_estimates
from ktr.textio import aligned, scan
from ktr.version import __version__


@dataclass(frozen=True)
class RunOptions:
    """What a run keeps and adds, which travels together from the command to the engines.

    ``details``: each line's keywords' results (else only its counts: the same scores and
    summary in far less memory, without per-sentence keyword output). ``keep_sentences``: each
    line's result (else only the corpus figures, summed as the lines are scored, so memory does
    not grow with the corpus; ``report.systems[i].sentences`` is then empty). ``statistics``:
    each line's counts and sacreBLEU statistics, for a bootstrap later
    (:func:`~ktr.scoring.significance.bootstrap_report`). ``bootstrap``: intervals (and paired
    tests) computed as the run ends, recorded in the signature. ``progress``: called with the
    number of source lines of each stretch as it is scored (a progress bar's update)."""

    details: bool = True
    keep_sentences: bool = True
    statistics: bool = False
    bootstrap: Resampling | None = None
    progress: Callable[[int], None] | None = None

    @property
    def keeps_statistics(self) -> bool:
        return self.statistics or self.bootstrap is not None


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


class Scorer:
    """The driver of the :class:`~ktr.scoring.metric.KTR` metric over many systems and files: built
    from a :class:`~ktr.config.Config`, it checks its input, cuts it into stretches and hands
    them to an engine."""

    def __init__(
        self,
        config: Config | None = None,
        *,
        analyzer: Analyzer | None = None,
        lexicon: Lexicon | None = None,
        jobs: int | None = 1,
        engine: Engine | str | None = None,
    ):
        """``jobs``: cores that :meth:`score` uses (0: all), as processes or, for an analyzer with
        threads of its own, as its threads (see :mod:`ktr.execution.jobs`). ``engine``: where the
        stretches run, ``"local"`` (the default) or an :class:`~ktr.execution.engines.Engine`
        (``Engine("dask", scheduler=...)``: the workers of a Dask cluster). The scorer builds its
        analyzer and lexicon from the config, and so does each further process or worker, so
        ``jobs > 1`` or a cluster cannot be combined with an ``analyzer`` or ``lexicon`` object."""
        config = config or Config()
        self.jobs = resolve_jobs(jobs)
        self.engine = engine if isinstance(engine, Engine) else Engine(engine or "local")
        if self.engine.distributed and self.jobs > 1:
            raise ConfigError("jobs are this machine's cores (the local engine); a cluster's are its workers")
        if (self.jobs > 1 or self.engine.distributed) and (analyzer is not None or lexicon is not None):
            raise ConfigError(
                "jobs > 1 builds an analyzer and a lexicon in each process from the config; "
                "pass the config only, or use jobs=1 with an analyzer or lexicon object"
            )
        self.processes, self.threads = split_jobs(self.jobs, config)
        if analyzer is None and self.engine.distributed:
            check(config)
            analyzer = _described(config)
        self.metric = KTR(config, analyzer=analyzer, lexicon=lexicon, threads=self.threads)
        #: the analyzer and tables, and the unit of work every engine runs
        self.pipeline: Pipeline = self.metric.pipeline

    @classmethod
    def from_yaml(cls, path: str) -> Scorer:
        return cls(Config.from_yaml(path))

    @property
    def config(self) -> Config:
        return self.metric.config

    @property
    def analyzer(self) -> Analyzer:
        return self.pipeline.analyzer

    @property
    def lexicon(self) -> Lexicon:
        return self.pipeline.lexicon

    @property
    def signature(self) -> Signature:
        """The metric's signature (:meth:`ktr.scoring.metric.KTR.signature`)."""
        return self.metric.signature()

    def keywords(self, sources: Sequence[str]) -> list[list[Keyword]]:
        """The keywords of each source sentence (idiom stretches collapsed into one unit)."""
        return self.prepare(sources).keywords

    def prepare(self, sources: Sequence[str], name: str = "source", first_line: int = 1) -> Prepared:
        """Analyse and look up the source once; ``name`` (a file name) prefixes warnings, which
        name lines from ``first_line`` on and also go out through :mod:`warnings` (category
        InputWarning)."""
        with fewer_gc_pauses():
            analysed = self.pipeline.analyse(sources)
            budget = self.pipeline.limited(len(analysed))  # each line's time, spent here and by its matching
            prepared = self.pipeline.prepare_analysed(analysed, name, first_line, budget)
            self.pipeline.ran_out(prepared, {}, {})
        for message in prepared.warnings:
            warnings.warn(message, InputWarning, stacklevel=2)
        return prepared

    def prepare_file(self, source: str | CheckedFile) -> Iterator[Prepared]:
        """:meth:`prepare` on a file (a path, or a file checked with :func:`ktr.textio.scan`),
        one stretch of lines after another, so memory does not grow with the file's length; every
        line is checked (encoding) before the first is analysed. Warnings name the file's lines."""
        src = scan(source) if isinstance(source, (str, os.PathLike)) else source
        size = stretch_size(src.lines)
        for n, (lines,) in enumerate(aligned([src], size)):
            yield self.prepare(lines, src.name, n * size + 1)

    def score_prepared(
        self, prepared: Prepared, name: str, hypotheses: Sequence[str], *, output_name: str | None = None
    ) -> SystemResult:
        """One system's result on a prepared source (:meth:`prepare`). With ``output_name`` (the
        output's file), each output line cleaned of escape sequences or control characters is
        reported through :mod:`warnings` (category InputWarning), naming it and the line."""
        if len(hypotheses) != len(prepared.keywords):
            raise InputError(
                f"line counts differ: source has {len(prepared.keywords)} lines, "
                f"{name} has {len(hypotheses)}; nothing was scored"
            )
        if output_name is not None:
            for _, message in output_warnings(hypotheses, output_name, prepared.first_line):
                warnings.warn(message, InputWarning, stacklevel=2)
        with fewer_gc_pauses():
            sentences = self.pipeline.match_lines(prepared, hypotheses)
        # a line whose time ran out while this system was matched: failed here and for the
        # systems matched after (those before have its results)
        for message in self.pipeline.ran_out(prepared, {name: sentences}, {name: hypotheses}):
            warnings.warn(message, InputWarning, stacklevel=2)
        return SystemResult(name, sentences, self.metric.averaging)

    def score(
        self,
        sources: Sequence[str],
        hypotheses: Mapping[str, Sequence[str]] | Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
        *,
        source_name: str = "source",
        options: RunOptions | None = None,
    ) -> Report:
        """Score one or more systems. ``hypotheses`` is a list of lines or a name → lines map;
        ``references`` (optional) is a list of reference streams, each as long as ``sources``.
        ``source_name`` names the source in warnings and errors (the CLI passes the file name), a
        system's name its output.
        ``options``: what the run keeps and adds (:class:`RunOptions`)."""
        options = options or RunOptions()
        named = hypotheses if isinstance(hypotheses, Mapping) else {"system": hypotheses}
        sources, systems, references = checked(sources, named, references, source_name)
        if not sources:
            raise InputError(f"{source_name} is empty: nothing to score")
        if not any(line.strip() for line in sources):
            raise blank(source_name, len(sources))
        size = self._stretch(len(sources))
        stretches = sliced(sources, systems, references, size)
        plan = self._plan([(source_name, len(sources))], list(systems), len(references), size, options)
        run = self._execution(source_name, options, plan)
        return self._score(stretches, list(systems), bool(references), run, options)

    def score_files(
        self,
        source: str | CheckedFile,
        hypotheses: Mapping[str, str | CheckedFile],
        references: Sequence[str | CheckedFile] = (),
        *,
        options: RunOptions | None = None,
    ) -> Report:
        """:meth:`score` on files (paths, or files already checked), read a stretch at a time:
        memory does not grow with the files' length (only by each line's counts, or with
        ``details`` its keywords' results; not at all without ``keep_sentences``).
        ``hypotheses`` maps system names to files. Every file is checked (encoding, line counts)
        before anything is scored."""
        inputs = check_inputs(source, hypotheses, references, distributed=self.engine.distributed)
        return self.score_inputs(inputs, options)

    def score_inputs(self, inputs: Inputs, options: RunOptions | None = None) -> Report:
        """:meth:`score_files` on files checked once already (:func:`ktr.execution.inputs.check_inputs`)."""
        options = options or RunOptions()
        src, outs, refs = inputs.source, inputs.systems, inputs.references
        size = self._stretch(src.lines)
        files = inputs.files
        sizes = [getattr(f, "offsets", [None])[-1] for f in files]  # bytes, where known
        plan = self._plan([(f.name, f.lines, n) for f, n in zip(files, sizes)], list(outs), len(refs), size, options)
        run = self._execution(src.name, options, plan, {system: f.name for system, f in outs.items()})
        indexed = [f for f in files if isinstance(f, IndexedFile)] if self.engine.distributed else []
        if len(indexed) == len(files):  # the workers read their lines
            found = ranges(indexed[0], dict(zip(outs, indexed[1:])), indexed[len(outs) + 1 :], size)
            return self._score(found, list(outs), bool(refs), run, options)

        def stretches() -> Iterator[Stretch]:
            for n, (lines, *rest) in enumerate(aligned(files, size)):
                yield Stretch(n * size, lines, dict(zip(outs, rest[: len(outs)])), rest[len(outs) :])

        return self._score(stretches(), list(outs), bool(refs), run, options)

    def _stretch(self, lines: int) -> int:
        """Lines per stretch: a task's on a cluster (larger, as a task costs more to hand out)."""
        return task_lines(lines) if self.engine.distributed else stretch_size(lines)

    def _plan(
        self,
        inputs: list[tuple[str, int] | tuple[str, int, int | None]],
        systems: list[str],
        references: int,
        size: int,
        options: RunOptions,
    ) -> dict[str, Any]:
        """What a shard manifest records of a run, so that a resumed run is the same run."""
        return {
            "ktr": __version__,
            "signature": self.signature.full(),
            "inputs": inputs,
            "systems": systems,
            "references": references,
            "task_lines": size,
            "details": options.details,
            "statistics": options.keeps_statistics,
            "lines": inputs[0][1],
        }

    def _execution(
        self, name: str, options: RunOptions, plan: Any, outputs: Mapping[str, str] | None = None
    ) -> Execution:
        """How this scorer runs stretches: its engine, its processes, each building its own
        pipeline; warnings name the source ``name`` and each system's file in ``outputs``."""
        return Execution(
            name=name,
            outputs=dict(outputs or {}),
            details=options.details,
            engine=self.engine,
            processes=self.processes,
            factory=partial(Pipeline.for_worker, self.config, self.threads),
            plan=plan,
        )

    def keywords_file(self, source: str | CheckedFile) -> Iterator[tuple[list[Keyword], str | None]]:
        """Each line's keywords and why its analysis failed (or None), in order, read a stretch
        at a time; input warnings go out through :mod:`warnings` as the stretches are done."""
        src = (
            source
            if not isinstance(source, (str, os.PathLike))
            else check_file(str(source), distributed=self.engine.distributed)
        )
        if not self.engine.distributed:
            for prepared in self.prepare_file(src):
                yield from zip(prepared.keywords, prepared.failed)
            return
        size = self._stretch(src.lines)
        if isinstance(src, IndexedFile):  # the workers read the source, each line matched against nothing
            items: Iterator[Range | Stretch] = (
                r._replace(systems=(("", None, 0, 0),)) for r in ranges(src, {}, [], size)
            )
        else:
            items = (
                Stretch(n * size, lines, {"": [""] * len(lines)}) for n, (lines,) in enumerate(aligned([src], size))
            )
        run = Execution(
            name=src.name,
            engine=dataclasses.replace(self.engine, shards=None, resume=False),  # nothing to resume
            factory=partial(Pipeline.for_worker, self.config, 1),
            plan={"lines": src.lines},
        )
        for found, messages in iter_stretches(self.pipeline, items, run):
            for message in messages:
                warnings.warn(message, InputWarning, stacklevel=2)
            for sentence in found[""]:
                yield [k.keyword for k in sentence.keywords], sentence.failed

    def _score(
        self,
        stretches: Iterable[Stretch | Range],
        names: list[str],
        with_references: bool,
        run: Execution,
        options: RunOptions,
    ) -> Report:
        """Every stretch scored; its lines' results kept, or summed into each system's totals as
        the lines go by; BLEU and chrF summed stretch by stretch; a bootstrap at the end if asked."""
        averaging = self.metric.averaging
        metrics = ReferenceScores(keep=options.keeps_statistics) if with_references else None
        if metrics is not None:
            run = dataclasses.replace(
                run,
                side=partial(_reference_statistics, options.keeps_statistics),
                merge=metrics.merge,
                check=partial(_statistics_problem, options.keeps_statistics),
            )
        kept: dict[str, list[SentenceResult]] = {name: [] for name in names}
        totals = {name: Totals(averaging) for name in names}
        lines = {name: PerLine(averaging.weighted) for name in names}
        messages = Warnings()
        for found, notes in iter_stretches(self.pipeline, stretches, run):
            for name, sentences in found.items():
                if options.keep_sentences:
                    kept[name] += sentences
                    continue
                for sentence in sentences:
                    totals[name].add(sentence)
                    if options.keeps_statistics:
                        lines[name].add(sentence)
            messages.add(notes)
            if options.progress is not None:
                options.progress(max((len(sentences) for sentences in found.values()), default=0))
        messages.emit(stacklevel=3)
        results = []
        signatures = None
        for name in names:
            result = SystemResult(name, kept[name], averaging)
            if not options.keep_sentences:
                result.totals, result.per_line = totals[name], lines[name] if options.keeps_statistics else None
            if metrics is not None:
                scores = metrics.scores(name)
                result.bleu, result.chrf = scores["bleu"][0], scores["chrf"][0]
                signatures = {k: v[1] for k, v in scores.items()}
            results.append(result)
        estimates = None
        if options.bootstrap is not None:
            estimates, resampled = bootstrap_estimates(results, metrics, options.bootstrap)
            if signatures is not None:
                signatures.update(resampled)
        return Report(
            self.metric.signature(options.bootstrap),
            results,
            signatures,
            estimates,
            warnings=messages.kept,
            warnings_not_kept=messages.not_kept,
            references=metrics,
            headline=self.config.headline,
        )


def _described(config: Config) -> Analyzer:
    """With a cluster the workers analyse: here the analyzer is only named in the signature
    (its name, tagset and version), read from a child process that is stopped at once, so that
    this process never holds its model (Kiwi's: about 200 MB). Were it asked to analyse, the
    child would start again."""
    from ktr.korean.analyzers.process import AnalyzerProcess, effective_timeout

    described = AnalyzerProcess(config.analyzer, effective_timeout(config.analyzer, config.timeout) or 60)
    described.close()
    return described


def _statistics_problem(keep: bool, results: Scored, side: Any) -> str | None:
    """What is wrong with BLEU's and chrF's statistics read back from a shard beside ``results``
    (:func:`~ktr.scoring.reference.statistics_problem`; each line's must be there if ``keep``)."""
    found, _ = results
    lines = {system: len(sentences) for system, sentences in found.items()}
    problem = statistics_problem(side, lines)
    if problem is None and keep and any(stats[name][1] is None for stats in side.values() for name in WIDTHS):
        return "the statistics of each line are not there"
    return problem


def _reference_statistics(keep: bool, stretch: Stretch) -> dict[str, SystemStatistics]:
    """BLEU's and chrF's statistics of a stretch (where it is scored: on a cluster, the worker)."""
    return stretch_statistics(stretch.systems, stretch.references, keep)

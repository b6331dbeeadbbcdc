"""The Python API: analyse sources once, look keywords up once, match every system against them.

The command line is a thin layer over it::

    from ktr import Scorer
    report = Scorer().score(sources, {"mt1": hyps1, "mt2": hyps2}, references=[refs])
    print(report.systems[0].ktr, report.signature.short())

A :class:`Scorer` is a :class:`~ktr.scoring.pipeline.Pipeline` (the analyzer and tables) that
checks its input, cuts it into stretches and hands them to an engine (:mod:`ktr.execution`);
BLEU and chrF are summed as the stretches go by.
"""

from __future__ import annotations

import dataclasses
import os
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import partial
from typing import Any

from ktr import __version__
from ktr.config import Config
from ktr.errors import ConfigError, InputError, InputWarning
from ktr.execution.engines import Engine, iter_stretches
from ktr.execution.jobs import resolve_jobs, split_jobs
from ktr.execution.ranges import CheckedFile, IndexedFile, Range, check_file, ranges, task_lines
from ktr.execution.unit import Stretch, fewer_gc_pauses, sliced, stretch_size
from ktr.korean.analyzers import Analyzer
from ktr.korean.analyzers.process import build_analyzer
from ktr.korean.keywords import Keyword
from ktr.lexicon import Lexicon
from ktr.matching.tracing import RULES as TRACING
from ktr.scoring.pipeline import Pipeline, Prepared
from ktr.scoring.reference import ReferenceScores, SystemStatistics, stretch_statistics
from ktr.scoring.results import Report, SentenceResult, Signature, SystemResult
from ktr.scoring.totals import PerLine, Totals, Warnings
from ktr.textio import aligned, check_counts, scan


class Scorer(Pipeline):
    """Keyword transfer rate scorer built from a :class:`~ktr.config.Config`."""

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
        from ktr.scoring.preflight import check

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
        check(config, analyzer=analyzer is None)
        self.processes, self.threads = split_jobs(self.jobs, config)
        if analyzer is None and self.engine.distributed:
            analyzer = _described(config)
        super().__init__(config, analyzer or build_analyzer(config.analyzer, config.timeout, self.threads), lexicon)

    @classmethod
    def from_yaml(cls, path: str) -> Scorer:
        return cls(Config.from_yaml(path))

    @property
    def signature(self) -> Signature:
        c = self.config
        return Signature(
            ktr_version=__version__,
            analyzer=self.analyzer.name,
            analyzer_version=self.analyzer.version,
            tagset=self.table.name,
            lexicons=c.lexicons,
            lexicon_hash=self.lexicon.digest,
            classes=c.classes,
            matching=c.matching,
            aggregation=c.aggregation,
            no_keywords=c.no_keywords,
            missing_in_lexicon=c.missing_in_lexicon,
            extra=self._signature_extra(),
        )

    def _signature_extra(self) -> dict[str, str]:
        extra = {}
        for stage, key in (("synonym", "syn"), ("derivation", "der")):  # both read WordNet's senses
            if stage in self.config.matching:
                from ktr.english.derivation import RULES
                from ktr.english.wordnet import fingerprint

                extra[key] = (
                    f"wn{fingerprint()}/senses{self.config.synonym_senses}"
                    + (f"/eq{self.config.expanded_equivalents}" if self.config.expanded_equivalents else "")
                    + (f"/drv{RULES}" if stage == "derivation" else "")
                )
        if self.constructions is not None:
            extra["cx"] = f"{'+'.join(self.config.constructions)}@{self.constructions.digest[:10]}"
        if self.idioms is not None:
            extra["idioms"] = f"{'+'.join(self.config.idioms)}@{self.idioms.digest[:10]}"
        if self._sounds:
            extra["tl"] = f"{self.config.transliteration_threshold:g}"
        extra["f"] = f"b{self.config.f_beta:g}/tr{TRACING}"
        if self.config.aggregation == "weighted":
            extra["w"] = ",".join(f"{c}={w:g}" for c, w in sorted(self.config.class_weights.items()))
        return extra

    def keywords(self, sources: Sequence[str]) -> list[list[Keyword]]:
        """The keywords of each source sentence (idiom stretches collapsed into one unit)."""
        return self.prepare(sources).keywords

    def prepare(self, sources: Sequence[str], name: str = "source", first_line: int = 1) -> Prepared:
        """Analyse and look up the source once; ``name`` (a file name) prefixes warnings, which
        name lines from ``first_line`` on and also go out through :mod:`warnings` (category
        InputWarning)."""
        with fewer_gc_pauses():
            prepared = self.prepare_analysed(self.analyse(sources), name, first_line)
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

    def score_prepared(self, prepared: Prepared, name: str, hypotheses: Sequence[str]) -> SystemResult:
        """One system's result on a prepared source (:meth:`prepare`)."""
        if len(hypotheses) != len(prepared.keywords):
            raise InputError(
                f"line counts differ: source has {len(prepared.keywords)} lines, "
                f"{name} has {len(hypotheses)}; nothing was scored"
            )
        with fewer_gc_pauses():
            sentences = self.match_lines(prepared, hypotheses)
        return SystemResult(name, sentences, self.config.aggregation, self.config.no_keywords, beta=self.config.f_beta)

    def score(
        self,
        sources: Sequence[str],
        hypotheses: Mapping[str, Sequence[str]] | Sequence[str],
        references: Sequence[Sequence[str]] | None = None,
        *,
        source_name: str = "source",
        details: bool = True,
        statistics: bool = False,
        keep_sentences: bool = True,
    ) -> Report:
        """Score one or more systems. ``hypotheses`` is a list of lines or a name → lines map;
        ``references`` (optional) is a list of reference streams, each as long as ``sources``.
        ``source_name`` names the source in warnings and errors (the CLI passes the file name).
        ``details=False`` keeps each line's counts but not its keywords' results: the same scores
        and summary in far less memory, without per-sentence keyword output. ``statistics=True``
        keeps sacreBLEU's statistics of every sentence in the report (for a bootstrap).
        ``keep_sentences=False`` keeps no line's result, only the corpus figures summed as the
        lines are scored (the summary is the same; ``report.systems[i].sentences`` is empty), so
        memory does not grow with the corpus; with ``statistics`` too, each line's counts and
        sacreBLEU statistics are kept as arrays of numbers for the bootstrap."""
        if isinstance(hypotheses, Mapping):
            systems = dict(hypotheses)
        else:
            systems = {"system": hypotheses}
        if not systems:
            raise InputError("no hypothesis given")
        if isinstance(sources, str):
            raise InputError("sources must be a list of lines, not one string")
        if not sources:
            raise InputError(f"{source_name} is empty: nothing to score")
        if not any(line.strip() for line in sources):
            raise _blank(source_name, len(sources))
        references = list(references or [])
        for name, lines in list(systems.items()) + [(f"reference {i + 1}", r) for i, r in enumerate(references)]:
            if isinstance(lines, str):
                raise InputError(f"{name}: expected a list of lines, not one string")
        check_counts(
            [
                ("source", len(sources)),
                *((name, len(lines)) for name, lines in systems.items()),
                *((f"reference {i + 1}", len(r)) for i, r in enumerate(references)),
            ]
        )
        size = self._stretch(len(sources))
        stretches = sliced(sources, systems, references, size)
        plan = self._plan([(source_name, len(sources))], list(systems), len(references), size, details, statistics)
        return self._score(
            stretches, list(systems), bool(references), source_name, details, statistics, plan, keep_sentences
        )

    def score_files(
        self,
        source: str | CheckedFile,
        hypotheses: Mapping[str, str | CheckedFile],
        references: Sequence[str | CheckedFile] = (),
        *,
        details: bool = True,
        statistics: bool = False,
        keep_sentences: bool = True,
    ) -> Report:
        """:meth:`score` on files (paths, or files already checked with :func:`ktr.textio.scan`),
        read a stretch at a time: memory does not grow with the files' length (only by each
        line's counts, or with ``details`` its keywords' results; not at all without
        ``keep_sentences``). ``hypotheses`` maps system
        names to files. Every file is checked (encoding, line counts) before anything is scored."""
        if not hypotheses:
            raise InputError("no hypothesis given")
        src = self._checked(source)
        outs = {name: self._checked(f, allow_empty=True) for name, f in hypotheses.items()}
        refs = [self._checked(f, allow_empty=True) for f in references]
        check_counts([(f.name, f.lines) for f in (src, *outs.values(), *refs)])
        if not src.has_text:
            raise _blank(src.name, src.lines)
        size = self._stretch(src.lines)
        sizes = [getattr(f, "offsets", [None])[-1] for f in (src, *outs.values(), *refs)]  # bytes, where known
        plan = self._plan(
            [(f.name, f.lines, n) for f, n in zip((src, *outs.values(), *refs), sizes)],
            list(outs),
            len(refs),
            size,
            details,
            statistics,
        )
        files = [src, *outs.values(), *refs]
        indexed = [f for f in files if isinstance(f, IndexedFile)] if self.engine.distributed else []
        if len(indexed) == len(files):  # the workers read their lines
            found = ranges(indexed[0], dict(zip(outs, indexed[1:])), indexed[len(outs) + 1 :], size)
            return self._score(found, list(outs), bool(refs), src.name, details, statistics, plan, keep_sentences)

        def stretches() -> Iterator[Stretch]:
            for n, (lines, *rest) in enumerate(aligned([src, *outs.values(), *refs], size)):
                yield Stretch(n * size, lines, dict(zip(outs, rest[: len(outs)])), rest[len(outs) :])

        return self._score(stretches(), list(outs), bool(refs), src.name, details, statistics, plan, keep_sentences)

    def _checked(self, f: str | os.PathLike[str] | CheckedFile, allow_empty: bool = False) -> CheckedFile:
        """A file checked once: read by the workers with a cluster (:mod:`ktr.execution.ranges`),
        else streamed from here."""
        if not isinstance(f, (str, os.PathLike)):  # checked already: a TextFile, IndexedFile or table Column
            return f
        return check_file(str(f), distributed=self.engine.distributed, allow_empty=allow_empty)

    def _stretch(self, lines: int) -> int:
        """Lines per stretch: a task's on a cluster (larger, as a task costs more to hand out)."""
        return task_lines(lines) if self.engine.distributed else stretch_size(lines)

    def _plan(
        self,
        inputs: list[tuple[str, int] | tuple[str, int, int | None]],
        systems: list[str],
        references: int,
        size: int,
        details: bool,
        statistics: bool,
    ) -> dict[str, Any]:
        """What a shard manifest records of a run, so that a resumed run is the same run."""
        return {
            "ktr": __version__,
            "signature": self.signature.full(),
            "inputs": inputs,
            "systems": systems,
            "references": references,
            "task_lines": size,
            "details": details,
            "statistics": statistics,
            "lines": inputs[0][1],
        }

    def keywords_file(self, source: str | CheckedFile) -> Iterator[tuple[list[Keyword], str | None]]:
        """Each line's keywords and why its analysis failed (or None), in order, read a stretch
        at a time; input warnings go out through :mod:`warnings` as the stretches are done."""
        src = self._checked(source)
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
        engine = dataclasses.replace(self.engine, shards=None, resume=False)  # nothing to resume
        for found, messages in iter_stretches(
            self,
            items,
            src.name,
            details=True,
            engine=engine,
            factory=partial(Pipeline.for_worker, self.config, 1),
            plan={"lines": src.lines},
        ):
            for message in messages:
                warnings.warn(message, InputWarning, stacklevel=2)
            for sentence in found[""]:
                yield [k.keyword for k in sentence.keywords], sentence.failed

    def _score(
        self,
        stretches: Iterable[Stretch | Range],
        names: list[str],
        with_references: bool,
        source_name: str,
        details: bool,
        statistics: bool,
        plan: dict[str, Any] | None = None,
        keep_sentences: bool = True,
    ) -> Report:
        """Every stretch scored; its lines' results kept, or summed into each system's totals as
        the lines go by; BLEU and chrF summed stretch by stretch."""
        c = self.config
        metrics = ReferenceScores(keep=statistics) if with_references else None
        kept: dict[str, list[SentenceResult]] = {name: [] for name in names}
        totals = {name: Totals(c.aggregation, c.no_keywords, c.f_beta) for name in names}
        lines = {name: PerLine(c.aggregation == "weighted") for name in names}
        messages = Warnings()
        for found, notes in iter_stretches(
            self,
            stretches,
            source_name,
            processes=self.processes,
            factory=partial(Pipeline.for_worker, self.config, self.threads),
            details=details,
            engine=self.engine,
            plan=plan,
            side=partial(_reference_statistics, statistics) if metrics else None,
            merge=metrics.merge if metrics else None,
        ):
            for name, sentences in found.items():
                if keep_sentences:
                    kept[name] += sentences
                    continue
                for sentence in sentences:
                    totals[name].add(sentence)
                    if statistics:
                        lines[name].add(sentence)
            messages.add(notes)
        messages.emit(stacklevel=3)
        results = []
        signatures = None
        for name in names:
            result = SystemResult(name, kept[name], c.aggregation, c.no_keywords, beta=c.f_beta)
            if not keep_sentences:
                result.totals, result.per_line = totals[name], lines[name] if statistics else None
            if metrics is not None:
                scores = metrics.scores(name)
                result.bleu, result.chrf = scores["bleu"][0], scores["chrf"][0]
                signatures = {k: v[1] for k, v in scores.items()}
            results.append(result)
        report = Report(self.signature, results, signatures, warnings=messages.kept, references=metrics)
        report.headline, report.warnings_not_kept = self.config.headline, messages.not_kept
        return report


def _described(config: Config) -> Analyzer:
    """With a cluster the workers analyse: here the analyzer is only named in the signature
    (its name, tagset and version), read from a child process that is stopped at once, so that
    this process never holds its model (Kiwi's: about 200 MB). Were it asked to analyse, the
    child would start again."""
    from ktr.korean.analyzers.process import AnalyzerProcess, effective_timeout

    described = AnalyzerProcess(config.analyzer, effective_timeout(config.analyzer, config.timeout) or 60)
    described.close()
    return described


def _reference_statistics(keep: bool, stretch: Stretch) -> dict[str, SystemStatistics]:
    """BLEU's and chrF's statistics of a stretch (where it is scored: on a cluster, the worker)."""
    return stretch_statistics(stretch.systems, stretch.references, keep)


def _blank(name: str, lines: int) -> InputError:
    return InputError(f"{name} has {lines} line(s) but none with text: nothing to score")

"""Scoring a corpus stretch by stretch: analysis overlapped with matching, or spread over processes.

A corpus comes as stretches of up to ``STRETCH`` lines (:class:`Stretch`: sliced from lists, or
read from files as they are needed, :mod:`ktr.textio`); each is analysed, looked up and matched
against every system, and the per-line results are put back together in line order, so the
result is exactly that of scoring the lines one by one. Only a few stretches' lines and analyses
are held at a time.

* One process. Kiwi (in this process) is fed the lines as its batch API asks for them, and this
  thread matches every ``STEP`` lines between its results while Kiwi's own threads analyse the
  next ones (:func:`_streamed`). Kiwi hands each result back through the interpreter lock and
  holds the lock while it waits for one, so a second Python thread taking the results would
  keep the matching waiting. Another analyzer that works outside the lock (a KoNLPy analyzer in
  its child process, an analysis cache) has the next ``AHEAD`` stretches analysed in a
  background thread while this one is matched.
* ``jobs=N`` (:func:`split_jobs`): Kiwi (in this process) takes two jobs per process, as its
  analysis threads, so ``jobs=2`` is one process whose Kiwi analyses in two threads; any other
  analyzer takes a process per job. With several processes, the parent and the workers score
  stretches side by side. Workers are started with ``spawn``, never ``fork`` (forking a running
  JVM or Kiwi's threads is unsafe), and each builds its own :class:`~ktr.scorer.Scorer` from the
  config: its own analyzer, lexicon and WordNet tables, read from the on-disk cache the parent
  wrote when it built its own. The parent scores stretches from the start, so no time is lost
  while the workers start.

Input warnings (cleaned characters, failed lines) come back with each stretch and are reported
by the parent, in line order. Scripts that use ``jobs > 1`` must guard their entry point with
``if __name__ == "__main__":``, as every ``spawn`` user must.
"""
from __future__ import annotations

import gc
import os
import warnings
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, ThreadPoolExecutor, wait
from collections import deque
from contextlib import closing, contextmanager
from itertools import chain, islice
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Mapping, NamedTuple, Sequence

from .errors import ConfigError, KtrError

if TYPE_CHECKING:
    from .config import Config
    from .score import SentenceResult
    from .scorer import Scorer

#: lines per unit of work at most: small enough to keep every process busy to the end, large
#: enough that handing a stretch over costs little next to scoring it
STRETCH = 256
#: a shorter corpus is cut into this many stretches (of at least ``MIN_STRETCH`` lines), so that
#: analysis and matching overlap from early on: the first stretch is analysed with nothing to
#: match beside it (300 lines in stretches of 256 left Hannanum's analysis and matching one
#: after the other)
PIECES, MIN_STRETCH = 16, 16

#: stretches analysed ahead of the one being matched (one process, a concurrent analyzer)
AHEAD = 3
#: lines matched at a time between the results of an analyzer that streams (Kiwi): few enough
#: that its look-ahead (16 lines per thread) never runs dry meanwhile
STEP = 8

#: per system, the results of a stretch's lines; and the stretch's input warnings
Scored = tuple[dict[str, list["SentenceResult"]], list[str]]


class Stretch(NamedTuple):
    """Lines ``first`` to ``first + len(sources)`` of a corpus: the source's, each system's and
    each reference stream's."""

    first: int
    sources: Sequence[str]
    systems: Mapping[str, Sequence[str]]
    references: Sequence[Sequence[str]] = ()


def stretch_size(lines: int) -> int:
    """Lines per stretch for a corpus of ``lines`` lines."""
    return min(STRETCH, max(MIN_STRETCH, -(-lines // PIECES)))


def sliced(sources: Sequence[str], systems: Mapping[str, Sequence[str]],
           references: Sequence[Sequence[str]], size: int, first: int = 0) -> Iterator[Stretch]:
    """Lists of lines cut into stretches of ``size`` lines; their line indexes count from
    ``first`` (the lists being a stretch of a longer corpus)."""
    for a in range(0, len(sources), size):
        b = a + size
        yield Stretch(first + a, sources[a:b], {name: lines[a:b] for name, lines in systems.items()},
                      [r[a:b] for r in references])


#: jobs (cores) a process takes when its analyzer analyses in threads of its own: its analysis
#: threads work outside the interpreter lock beside the process's matching (each line's result
#: comes back through the lock), and one copy of the model serves them all. On two cores,
#: 10,000 news lines, two runs each: one process with two Kiwi threads 6.87 and 7.40 s, two
#: processes with one thread each 7.59 and 7.72 s.
JOBS_PER_THREADED_PROCESS = 2


def split_jobs(jobs: int, config: Config) -> tuple[int, int]:
    """(processes, analysis threads per process) for ``jobs``: a backend with threads of its own
    (Kiwi, when it runs in this process) gets ``JOBS_PER_THREADED_PROCESS`` jobs per process as
    threads; any other, a process per job."""
    from .analyzers.base import analyzer_class
    from .analyzers.process import effective_timeout

    name = config.analyzer
    if jobs > 1 and analyzer_class(name).threaded and not effective_timeout(name, config.timeout):
        per = JOBS_PER_THREADED_PROCESS
        return -(-jobs // per), min(jobs, per)
    return jobs, 1


def resolve_jobs(jobs: int | None) -> int:
    """The number of jobs (cores to use): ``None`` or 1 → 1; 0 → every CPU core available."""
    if jobs is None:
        return 1
    if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 0:
        raise ConfigError(f"jobs must be a whole number, 0 (one per core) or more, got {jobs!r}")
    if jobs == 0:
        return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return jobs


@contextmanager
def fewer_gc_pauses():
    """Python's cycle collector run less often for the duration. Scoring allocates millions of
    small objects, none in reference cycles, and keeps most of them; at the default threshold
    the collector walks the kept ones again and again (a fifth of the scoring time). Switching
    it off instead would leave one long collection of everything for the end. Restored after."""
    old = gc.get_threshold()
    gc.set_threshold(50_000, 50, 10)
    try:
        yield
    finally:
        gc.set_threshold(*old)


def score_lines(scorer: Scorer, stretches: Iterable[Stretch], name: str, processes: int = 1,
                details: bool = True, each: Callable[[Stretch], None] | None = None) -> Scored:
    """Every system's per-line results on the ``stretches`` and the input warnings, in line
    order. Without ``details`` the per-line results keep their counts but not their keywords,
    stretch by stretch, so that memory grows by a few numbers a line, not by every keyword's
    result. ``each`` is called in this process with every stretch, or every part of one, in
    line order, between analyses (ktr sums BLEU and chrF there)."""
    each = each or _nothing
    with fewer_gc_pauses():
        if processes > 1:
            parts = _in_processes(scorer, iter(stretches), name, processes, details, each)
        else:
            parts = _in_one_process(scorer, iter(stretches), name, details, each)
    results: dict[str, list[SentenceResult]] = {}
    messages: list[str] = []
    for found, notes in parts:
        for system, sentences in found.items():
            results.setdefault(system, []).extend(sentences)
        messages += notes
    return results, messages


def score_stretch(scorer: Scorer, stretch: Stretch, name: str, analysed=None, details: bool = True) -> Scored:
    """One stretch: analysed (unless given), prepared, matched; without ``details``, its results
    keep only their counts (see :func:`score_lines`)."""
    first, sources, systems = stretch.first, stretch.sources, stretch.systems
    prepared = scorer.prepare_analysed(analysed or scorer.analyse(sources), name, first + 1)
    found = {system: scorer.match_lines(prepared, lines, first, details) for system, lines in systems.items()}
    return found, prepared.warnings


def _nothing(stretch: Stretch) -> None:
    pass


def _in_one_process(scorer: Scorer, stretches: Iterator[Stretch], name: str, details: bool,
                    each: Callable[[Stretch], None]) -> list[Scored]:
    if getattr(scorer.analyzer, "stream", None) is not None:
        return _streamed(scorer, stretches, name, details, each)
    parts = []
    if not getattr(scorer.analyzer, "concurrent", False):
        for stretch in stretches:
            parts.append(score_stretch(scorer, stretch, name, details=details))
            each(stretch)
        return parts
    with ThreadPoolExecutor(1, thread_name_prefix="ktr-analysis") as ahead:
        # AHEAD stretches queued for analysis, so the analyzer never waits for matching
        pending = [(s, ahead.submit(scorer.analyse, s.sources)) for s in islice(stretches, AHEAD)]
        while pending:
            stretch, analysis = pending.pop(0)
            analysed = analysis.result()
            for s in islice(stretches, 1):
                pending.append((s, ahead.submit(scorer.analyse, s.sources)))
            parts.append(score_stretch(scorer, stretch, name, analysed, details))
            each(stretch)
    return parts


def _streamed(scorer: Scorer, stretches: Iterator[Stretch], name: str, details: bool,
              each: Callable[[Stretch], None]) -> list[Scored]:
    """An analyzer that analyses a stream in threads of its own (Kiwi's batch API) is fed the
    lines as it asks for them, and this thread matches every ``STEP`` lines as soon as they are
    analysed, while the analyzer goes on with the next ones: no second Python thread, so nothing
    waits for the interpreter lock."""
    queued: deque[Stretch] = deque()

    def sources() -> Iterator[str]:
        for stretch in stretches:
            for step in sliced(stretch.sources, stretch.systems, stretch.references, STEP, stretch.first):
                queued.append(step)
                yield from step.sources

    parts = []
    with closing(scorer.analyse_stream(sources())) as analyses:
        for first in analyses:
            step = queued.popleft()
            analysed = [first, *islice(analyses, len(step.sources) - 1)]
            parts.append(score_stretch(scorer, step, name, analysed, details))
            each(step)
    return parts


def _in_processes(scorer: Scorer, stretches: Iterator[Stretch], name: str, processes: int,
                  details: bool, each: Callable[[Stretch], None]) -> list[Scored]:
    import multiprocessing

    first = list(islice(stretches, 2))
    if len(first) < 2:      # one stretch: not worth starting a worker
        return _in_one_process(scorer, iter(first), name, details, each)
    numbered = enumerate(chain(first, stretches))
    workers = processes - 1
    parts: dict[int, Scored] = {}
    pending: dict[Future, int] = {}
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_start,
                               initargs=(scorer.config, scorer.threads))
    try:
        more = True
        while more or pending:
            for i, s in islice(numbered, max(0, 2 * workers - len(pending))):   # keep workers fed
                pending[pool.submit(_work, s.first, s.sources, s.systems, name, details)] = i
                each(s)
            mine = next(numbered, None) if more else None
            if mine is not None:        # the parent scores one stretch itself
                parts[mine[0]] = score_stretch(scorer, mine[1], name, details=details)
                each(mine[1])
                done = [f for f in pending if f.done()]
            else:
                more = False
                done = list(wait(pending, return_when=FIRST_COMPLETED).done) if pending else []
            for future in done:
                parts[pending.pop(future)] = _unpack(future.result())
    except KtrError:
        raise
    except Exception as exc:
        raise KtrError(f"a worker process failed ({type(exc).__name__}: {exc}); "
                       "run with --jobs 1 to see the error in this process") from None
    finally:
        # not waiting for the workers to free their tables and exit: this process goes on
        # meanwhile (the interpreter waits for them when it exits)
        pool.shutdown(wait=False, cancel_futures=True)
    return [parts[i] for i in sorted(parts)]


class AnalyzerPool:
    """An analyzer whose every batch is shared out among ``jobs`` worker processes (spawned),
    each with its own copy of analyzer ``name``, built as a scorer builds it (with the time
    limit ``timeout``, see :func:`~ktr.analyzers.process.build_analyzer`). ``ktr run --jobs N``
    analyses a corpus this way before its variants are scored, unless the analyzer has threads
    of its own (:func:`split_jobs`). Failed texts are reported like
    the analyzer's own failures (:mod:`ktr.guard`); :meth:`close` stops the workers."""

    concurrent = True   # the workers analyse while this process waits

    def __init__(self, name: str, jobs: int, timeout: float | None = None):
        import multiprocessing

        from .analyzers.base import analyzer_class

        self.name, self.jobs = name, jobs
        self.tagset = analyzer_class(name).tagset
        self._pool = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"),
                                         initializer=_start_analyzer, initargs=(name, timeout))
        try:
            self.version = self._pool.submit(_analyzer_version).result()
        except Exception as exc:
            self.close()
            raise KtrError(f"the {name} analyzer could not start in a worker process ({type(exc).__name__}: {exc})") from None

    def outcomes(self, texts: Sequence[str]):
        """Per text its morphemes, or why the analyzer failed on it."""
        texts = list(texts)
        size = -(-len(texts) // self.jobs) or 1
        parts = self._pool.map(_outcomes, [texts[a:a + size] for a in range(0, len(texts), size)])
        return [outcome for part in parts for outcome in part]

    def analyze_many(self, texts: Sequence[str]):
        from .analyzers.process import morphemes_or_raise

        return morphemes_or_raise(self.outcomes(texts))

    def analyze(self, text: str):
        return self.analyze_many([text])[0]

    def close(self) -> None:
        self._pool.shutdown(cancel_futures=True)


_analyzer = None    # an AnalyzerPool worker's own


def _start_analyzer(name: str, timeout: float | None) -> None:
    global _analyzer
    from .analyzers.process import build_analyzer

    _analyzer = build_analyzer(name, timeout)


def _analyzer_version() -> str:
    return _analyzer.version


def _outcomes(texts: list[str]):
    from .guard import outcomes

    return outcomes(_analyzer, texts)


_scorer: Scorer | None = None   # the worker process's own


def _start(config: Config, threads: int) -> None:
    """Worker start-up: build the scorer once; the parent reports input warnings."""
    global _scorer
    from .analyzers.process import build_analyzer
    from .scorer import Scorer

    warnings.simplefilter("ignore")
    _scorer = Scorer(config, analyzer=build_analyzer(config.analyzer, config.timeout, threads))


def _work(first: int, sources: Sequence[str], systems: Mapping[str, Sequence[str]], name: str,
          details: bool) -> tuple:
    assert _scorer is not None, "worker used before start-up"
    with fewer_gc_pauses():
        return _pack(score_stretch(_scorer, Stretch(first, sources, systems), name, details=details))


# A stretch's results travel back from a worker as plain tuples, strings and numbers, which
# pickle handles without calling Python for each object: several times faster than sending the
# result objects themselves. Each keyword's unmatched result is sent once for all systems.

def _pack(part: Scored) -> tuple:
    results, messages = part
    names = list(results)
    keywords = [[(tuple(k.keyword), *k[1:6], k.tried) for k in s.keywords] for s in results[names[0]]]
    systems = [(name, [(s.index, s.counted, s.transferred, s.weight, s.weight_transferred, s.failed,
                        s.empty_hypothesis, s.size, s.not_in_lexicon,
                        [(i, k.matched, k.how, k.span) for i, k in enumerate(s.keywords) if k.matched is not None])
                       for s in results[name]]) for name in names]
    return keywords, systems, messages


def _unpack(packed: tuple) -> Scored:
    from .keywords import Keyword
    from .score import KeywordResult, SentenceResult

    keywords, systems, messages = packed
    missed = [[KeywordResult(Keyword(*k), e, syn, known, entry, via, None, None, None, tried)
               for k, e, syn, known, entry, via, tried in row] for row in keywords]
    results = {}
    for name, lines in systems:
        out = []
        for row, (index, counted, transferred, weight, weight_transferred, failed, empty, size, not_in_lexicon,
                  matches) in zip(missed, lines):
            found = list(row)
            for i, matched, how, span in matches:
                found[i] = row[i].matched_as(matched, how, span)
            out.append(SentenceResult(index, tuple(found), counted, transferred, weight, weight_transferred,
                                      failed, empty, size, not_in_lexicon))
        results[name] = out
    return results, messages

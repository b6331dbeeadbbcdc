"""An analyzer whose batches are shared out among worker processes (``ktr run --jobs N``)."""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor

from ktr.errors import KtrError


class SharedAnalyzer:
    """An analyzer whose every batch is shared out among ``workers`` workers, each with its own
    copy of the analyzer; :meth:`_map` hands them their parts."""

    concurrent = True  # the workers analyse while this process waits
    workers = 1

    def _map(self, parts: list[list[str]]) -> Iterable[list]:
        raise NotImplementedError

    def outcomes(self, texts: Sequence[str]):
        """Per text its morphemes, or why the analyzer failed on it."""
        texts = list(texts)
        size = -(-len(texts) // self.workers) or 1
        parts = self._map([texts[a : a + size] for a in range(0, len(texts), size)])
        return [outcome for part in parts for outcome in part]

    def analyze_many(self, texts: Sequence[str]):
        from ktr.korean.analyzers.process import morphemes_or_raise

        return morphemes_or_raise(self.outcomes(texts))

    def analyze(self, text: str):
        return self.analyze_many([text])[0]


class AnalyzerPool(SharedAnalyzer):
    """An analyzer whose every batch is shared out among ``jobs`` worker processes (spawned),
    each with its own copy of analyzer ``name``, built as a scorer builds it (with the time
    limit ``timeout``, see :func:`~ktr.korean.analyzers.process.build_analyzer`). ``ktr run --jobs N``
    analyses a corpus this way before its variants are scored, unless the analyzer has threads
    of its own (:func:`~ktr.execution.jobs.split_jobs`). Failed texts are reported like the
    analyzer's own failures (:mod:`ktr.korean.guard`); :meth:`close` stops the workers."""

    def __init__(self, name: str, jobs: int, timeout: float | None = None):
        from ktr.korean.analyzers.base import analyzer_class

        self.name, self.jobs, self.workers = name, jobs, jobs
        self.tagset = analyzer_class(name).tagset
        self._pool = ProcessPoolExecutor(
            jobs, mp_context=multiprocessing.get_context("spawn"), initializer=_start_analyzer, initargs=(name, timeout)
        )
        try:
            self.version = self._pool.submit(_analyzer_version).result()
        except Exception as exc:
            self.close()
            raise KtrError(
                f"the {name} analyzer could not start in a worker process ({type(exc).__name__}: {exc})"
            ) from None

    def _map(self, parts: list[list[str]]) -> Iterable[list]:
        return self._pool.map(_outcomes, parts)

    def close(self) -> None:
        self._pool.shutdown(cancel_futures=True)


_analyzer = None  # an AnalyzerPool worker's own


def _start_analyzer(name: str, timeout: float | None) -> None:
    global _analyzer
    from ktr.korean.analyzers.process import build_analyzer

    _analyzer = build_analyzer(name, timeout)


def _analyzer_version() -> str:
    return _analyzer.version


def _outcomes(texts: list[str]):
    from ktr.korean.guard import outcomes

    return outcomes(_analyzer, texts)

"""An analyzer whose batches are shared out among worker processes (``ktr run --jobs N``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ktr.errors import KtrError
from ktr.execution.processes import stop_pool, worker_pool

if TYPE_CHECKING:
    from ktr.korean.analyzers.base import Analyzer, Morpheme
    from ktr.korean.guard import Outcome


class SharedAnalyzer:
    """An analyzer whose every batch is shared out among ``workers`` workers, each with its own
    copy of the analyzer; :meth:`_map` hands them their parts."""

    concurrent = True  # the workers analyse while this process waits
    workers = 1

    def _map(self, parts: list[list[str]]) -> Iterable[list[Outcome]]:
        raise NotImplementedError

    def close(self) -> None:
        """Stop the workers."""
        raise NotImplementedError

    def outcomes(self, texts: Iterable[str]) -> list[Outcome]:
        """Per text its morphemes, or why the analyzer failed on it."""
        texts = list(texts)
        size = -(-len(texts) // self.workers) or 1
        try:
            parts = self._map([texts[a : a + size] for a in range(0, len(texts), size)])
            return [outcome for part in parts for outcome in part]
        except KeyboardInterrupt:  # the workers stop now, not once they have done their parts
            self.stop()
            raise

    def stop(self) -> None:
        """Stop the workers at once, when interrupted (by default, nothing: :meth:`close` does
        when the run ends)."""

    def analyze_many(self, texts: Iterable[str]) -> list[list[Morpheme]]:
        from ktr.korean.analyzers.process import morphemes_or_raise

        return morphemes_or_raise(self.outcomes(texts))

    def analyze(self, text: str) -> list[Morpheme]:
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
        self._pool = worker_pool(jobs, _start_analyzer, (name, timeout))
        try:
            self.version = self._pool.submit(_analyzer_version).result()
        except Exception as exc:
            self.close()
            raise KtrError(
                f"the {name} analyzer could not start in a worker process ({type(exc).__name__}: {exc})"
            ) from None

    def _map(self, parts: list[list[str]]) -> Iterable[list[Outcome]]:
        return self._pool.map(_outcomes, parts)

    def close(self) -> None:
        self._pool.shutdown(cancel_futures=True)

    def stop(self) -> None:
        stop_pool(self._pool)


_analyzer: Analyzer | None = None  # an AnalyzerPool worker's own


def _start_analyzer(name: str, timeout: float | None) -> None:
    global _analyzer
    from ktr.korean.analyzers.process import build_analyzer

    _analyzer = build_analyzer(name, timeout)


def _own() -> Analyzer:
    if _analyzer is None:
        raise KtrError("analyzer worker used before start-up")
    return _analyzer


def _analyzer_version() -> str:
    return _own().version


def _outcomes(texts: list[str]) -> list[Outcome]:
    from ktr.korean.guard import outcomes

    return outcomes(_own(), texts)

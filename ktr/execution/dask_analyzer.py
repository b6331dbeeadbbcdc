"""An analyzer whose batches are analysed on the workers of a Dask cluster (``ktr run --engine dask``)."""

from __future__ import annotations

from contextlib import ExitStack
from functools import partial
from typing import Any

from ktr.errors import KtrError
from ktr.execution.analyzer_pool import SharedAnalyzer
from ktr.execution.dask_engine import connect, start_units, worker_unit
from ktr.execution.options import Engine


class ClusterAnalyzer(SharedAnalyzer):
    """Analyzer ``name`` on every worker of the engine's cluster (each builds its own, with the
    time limit ``timeout``, as a scorer builds it), every batch shared out among them. ``ktr
    run --engine dask`` analyses its corpus this way, once, before its variants are scored in
    this process; :meth:`close` lets the cluster go (and stops a local one)."""

    def __init__(self, name: str, engine: Engine, timeout: float | None = None):
        from ktr.korean.analyzers.base import analyzer_class
        from ktr.korean.analyzers.process import build_analyzer

        self.name = name
        backend: Any = analyzer_class(name)
        self.tagset: str = backend.tagset
        self._stack = ExitStack()
        try:
            self._client = self._stack.enter_context(connect(engine))
            self._plugin = start_units(self._client, partial(build_analyzer, name, timeout), engine)
            self.workers = max(1, sum(self._client.nthreads().values()))
            self.version = self._client.submit(_version, self._plugin, pure=False).result()
        except BaseException:
            self.close()
            raise

    def _map(self, parts: list[list[str]]) -> list[list[Any]]:
        futures = [self._client.submit(_outcomes, self._plugin, part, pure=False) for part in parts]
        try:
            found: list[list[Any]] = self._client.gather(futures)
            return found
        except KtrError:
            raise
        except Exception as exc:
            raise KtrError(f"analysis on the Dask cluster failed ({type(exc).__name__}: {exc})") from None

    def close(self) -> None:
        self._stack.close()


def _version(plugin: str) -> str:
    version: str = worker_unit(plugin).version
    return version


def _outcomes(plugin: str, texts: list[str]) -> list[Any]:
    from ktr.korean.guard import outcomes

    return list(outcomes(worker_unit(plugin), texts))

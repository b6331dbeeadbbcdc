"""Choosing an engine for a corpus's stretches and putting their results together in line order."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ktr.execution.local import run_local
from ktr.execution.options import ENGINES, Engine, Execution
from ktr.execution.processes import run_processes
from ktr.execution.unit import Scored, Stretch, Unit, fewer_gc_pauses

__all__ = ["ENGINES", "Engine", "Execution", "iter_stretches"]


def _nothing(stretch: Stretch) -> None:
    pass


def iter_stretches(unit: Unit, stretches: Iterable[Any], run: Execution) -> Iterator[Scored]:
    """Every stretch's per-system results and input warnings, one stretch after another in
    line order: in this process, or with ``run.processes`` > 1 in worker processes that build
    their unit with ``run.factory``, or on the Dask cluster of ``run.engine``. Without
    ``run.details`` the per-line results keep their counts but not their keywords, so that a
    caller that keeps them grows by a few numbers a line (and one that sums them as they come,
    not at all). ``run.side`` is computed from every stretch, or every part of one, and handed to
    ``run.merge`` in this process, in line order: in this process with a local engine, on the
    worker that scored the stretch with Dask. With the Dask engine the ``stretches`` may also be
    line ranges of files the workers read (:class:`~ktr.execution.ranges.Range`), and
    ``run.plan`` names the input in a shard manifest (:mod:`ktr.execution.shards`)."""
    side, merge = run.side, run.merge
    if side is not None and merge is not None:
        each: Callable[[Stretch], None] = lambda stretch: merge(side(stretch))  # noqa: E731
    else:
        each = _nothing
    with fewer_gc_pauses():
        if run.engine.distributed:
            if run.factory is None:
                raise ValueError("the dask engine needs a factory that builds each worker's unit")
            from ktr.execution.dask_engine import run_dask

            yield from run_dask(unit, iter(stretches), run)
        elif run.processes > 1:
            if run.factory is None:
                raise ValueError("several processes need a factory that builds each worker's unit")
            yield from run_processes(unit, iter(stretches), run, each)
        else:
            yield from run_local(unit, iter(stretches), run, each)

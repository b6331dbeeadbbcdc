"""Choosing an engine for a corpus's stretches and putting their results together in line order."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ktr.execution.local import run_local
from ktr.execution.options import ENGINES, Engine
from ktr.execution.processes import run_processes
from ktr.execution.unit import Scored, Stretch, Unit, fewer_gc_pauses

__all__ = ["ENGINES", "Engine", "iter_stretches"]


def _nothing(stretch: Stretch) -> None:
    pass


def iter_stretches(
    unit: Unit,
    stretches: Iterable[Any],
    name: str,
    *,
    processes: int = 1,
    factory: Callable[[], Unit] | None = None,
    details: bool = True,
    side: Callable[[Stretch], Any] | None = None,
    merge: Callable[[Any], None] | None = None,
    engine: Engine | None = None,
    plan: Any = None,
) -> Iterator[Scored]:
    """Every stretch's per-system results and input warnings, one stretch after another in
    line order: in this process, or with ``processes`` > 1 in worker processes that build their
    unit with ``factory``, or on the Dask cluster of ``engine``. Without ``details`` the
    per-line results keep their counts but not their keywords, so that a caller that keeps them
    grows by a few numbers a line (and one that sums them as they come, not at all). ``side`` is
    computed from every stretch, or every part of one, and handed to ``merge`` in this process,
    in line order (ktr sums BLEU and chrF this way): in this process with a local engine, on the
    worker that scored the stretch with Dask. With the Dask engine the ``stretches`` may also be
    line ranges of files the workers read (:class:`~ktr.execution.ranges.Range`), and ``plan``
    names the input in a shard manifest (:mod:`ktr.execution.shards`)."""
    if side is not None and merge is not None:
        each = lambda stretch: merge(side(stretch))  # noqa: E731
    else:
        each = _nothing
    with fewer_gc_pauses():
        if engine is not None and engine.distributed:
            if factory is None:
                raise ValueError("the dask engine needs a factory that builds each worker's unit")
            from ktr.execution.cluster import run_dask

            yield from run_dask(unit, factory, iter(stretches), name, details, engine, side, merge, plan)
        elif processes > 1:
            if factory is None:
                raise ValueError("several processes need a factory that builds each worker's unit")
            yield from run_processes(unit, factory, iter(stretches), name, processes, details, each)
        else:
            yield from run_local(unit, iter(stretches), name, details, each)

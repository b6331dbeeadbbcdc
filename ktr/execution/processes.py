"""Worker processes: the parent and ``processes - 1`` workers score stretches side by side.

Workers are started with ``spawn``, never ``fork`` (forking a running JVM or Kiwi's threads is
unsafe), and each builds its own unit of work once, with the picklable ``factory`` it is given
(ktr's: :meth:`ktr.scoring.pipeline.Pipeline.for_worker`, whose tables are read from the
on-disk cache the parent wrote). The parent scores stretches from the start, so no time is lost
while the workers start. A stretch's results come back packed (:meth:`Unit.pack`). Scripts
that use several processes must guard their entry point with ``if __name__ == "__main__":``,
as every ``spawn`` user must.
"""

from __future__ import annotations

import multiprocessing
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from itertools import chain, islice
from typing import Any, cast

from ktr.errors import KtrError
from ktr.execution.local import run_local
from ktr.execution.options import Execution
from ktr.execution.unit import Scored, Stretch, Unit, fewer_gc_pauses


def run_processes(
    unit: Unit, stretches: Iterator[Stretch], run: Execution, each: Callable[[Stretch], None]
) -> Iterator[Scored]:
    """Every stretch scored by this process's ``unit`` or by a worker's own (``run.factory()``),
    ``run.processes`` in all, the results yielded in stretch order as soon as they are (only
    those that came back early are kept meanwhile); ``each`` is called in this process with every
    stretch handed out."""
    first = list(islice(stretches, 2))
    if len(first) < 2:  # one stretch: not worth starting a worker
        yield from run_local(unit, iter(first), run, each)
        return
    name, details, outputs = run.name, run.details, dict(run.outputs)
    numbered = enumerate(chain(first, stretches))
    workers = run.processes - 1
    parts: dict[int, Scored] = {}  # scored, not yet yielded
    following = 0
    pending: dict[Future[Any], int] = {}
    pool = ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_start,
        initargs=(cast(Callable[[], Unit], run.factory),),
    )
    try:
        more = True
        while more or pending:
            for i, s in islice(numbered, max(0, 2 * workers - len(pending))):  # keep workers fed
                pending[pool.submit(_work, s.first, s.sources, s.systems, name, details, outputs)] = i
                each(s)
            mine = next(numbered, None) if more else None
            if mine is not None:  # the parent scores one stretch itself
                parts[mine[0]] = unit.score_stretch(mine[1], name=name, details=details, outputs=outputs)
                each(mine[1])
                done = [f for f in pending if f.done()]
            else:
                more = False
                done = list(wait(pending, return_when=FIRST_COMPLETED).done) if pending else []
            for future in done:
                parts[pending.pop(future)] = unit.unpack(future.result())
            while following in parts:
                yield parts.pop(following)
                following += 1
    except KtrError:
        raise
    except Exception as exc:
        raise KtrError(
            f"a worker process failed ({type(exc).__name__}: {exc}); run with --jobs 1 to see the error in this process"
        ) from None
    finally:
        # not waiting for the workers to free their tables and exit: this process goes on
        # meanwhile (the interpreter waits for them when it exits)
        pool.shutdown(wait=False, cancel_futures=True)


_unit: Unit | None = None  # the worker process's own


def _start(factory: Callable[[], Unit]) -> None:
    """Worker start-up: build the unit once; the parent reports input warnings."""
    global _unit
    warnings.simplefilter("ignore")
    _unit = factory()


def _work(
    first: int,
    sources: Sequence[str],
    systems: Mapping[str, Sequence[str]],
    name: str,
    details: bool,
    outputs: Mapping[str, str],
) -> Any:
    if _unit is None:
        raise KtrError("worker used before start-up")
    with fewer_gc_pauses():
        return _unit.pack(
            _unit.score_stretch(Stretch(first, sources, systems), name=name, details=details, outputs=outputs)
        )

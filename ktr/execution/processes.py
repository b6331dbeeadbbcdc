"""Worker processes: the parent and ``processes - 1`` workers score stretches side by side.

Workers are started with ``spawn``, never ``fork`` (forking a running JVM or Kiwi's threads is
unsafe), and each builds its own unit of work once, with the picklable ``factory`` it is given
(ktr's: :meth:`ktr.scoring.pipeline.Pipeline.for_worker`, whose tables are read from the
on-disk cache the parent wrote). The parent scores stretches from the start, so no time is lost
while the workers start. A stretch's results come back packed (:meth:`Unit.pack`). Scripts
that use several processes must guard their entry point with ``if __name__ == "__main__":``,
as every ``spawn`` user must.

Stopping. Ctrl-C and a hangup are the parent's to handle: a worker ignores SIGINT and SIGHUP
(from its very start: they are blocked while it is spawned), and the parent, when interrupted
(KeyboardInterrupt; the command raises it for SIGTERM and SIGHUP too), stops its workers at once
(:func:`stop_pool`: SIGTERM, then SIGKILL after ``GRACE`` seconds) instead of letting them finish
their stretches. A worker's SIGTERM stops its analyzer's child process (an analyzer with a
``timeout``) before the worker exits, and a worker whose parent is gone (killed by SIGKILL) does
the same within ``PARENT_CHECK`` seconds, so that no process of a run outlives it.
"""

from __future__ import annotations

import os
import signal
import threading
import time
import warnings
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from itertools import chain, islice
from multiprocessing.context import SpawnContext, SpawnProcess
from types import FrameType
from typing import Any, cast

from ktr.errors import KtrError
from ktr.execution.local import run_local
from ktr.execution.options import Execution
from ktr.execution.unit import Scored, Stretch, Unit, fewer_gc_pauses
from ktr.korean.analyzers.process import close_analyzers

#: seconds a worker has to exit after SIGTERM before it is killed
GRACE = 5.0
#: seconds between a worker's checks that its parent is still there
PARENT_CHECK = 1.0
#: the signals a worker leaves to its parent
_PARENTS = (signal.SIGINT, signal.SIGHUP)
#: the pools of worker processes this process has started (:func:`stop_children` stops them)
_pools: weakref.WeakSet[ProcessPoolExecutor] = weakref.WeakSet()


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
    pool = worker_pool(workers, _start, (cast(Callable[[], Unit], run.factory),))
    interrupted = True  # until the loop ends or fails
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
        interrupted = False
    except KtrError:
        interrupted = False
        raise
    except Exception as exc:
        interrupted = False
        raise KtrError(
            f"a worker process failed ({type(exc).__name__}: {exc}); run with --jobs 1 to see the error in this process"
        ) from None
    finally:
        if interrupted:  # KeyboardInterrupt, or the results no longer wanted (the generator closed)
            stop_pool(pool)
        else:
            # not waiting for the workers to free their tables and exit: this process goes on
            # meanwhile (the interpreter waits for them when it exits)
            pool.shutdown(wait=False, cancel_futures=True)
            _pools.discard(pool)


class _WorkerProcess(SpawnProcess):
    """A spawned worker process that starts with SIGINT and SIGHUP blocked (a mask outlives
    ``exec``), so that Ctrl-C cannot reach it before :func:`_start_worker` ignores them."""

    def start(self) -> None:
        with blocked():
            super().start()


class _WorkerContext(SpawnContext):
    Process = _WorkerProcess


@contextmanager
def blocked() -> Iterator[None]:
    """SIGINT and SIGHUP held back in this thread meanwhile (delivered after, if they came)."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _PARENTS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def worker_pool(workers: int, initializer: Callable[..., None], initargs: tuple[Any, ...]) -> ProcessPoolExecutor:
    """``workers`` worker processes (spawned), each started with ``initializer(*initargs)`` once it
    has taken its signals (see the module docstring); :func:`stop_pool` or :func:`stop_children`
    stops them at once."""
    with blocked():  # multiprocessing's resource tracker, started here, keeps them blocked: a
        # hangup of the terminal cannot kill it before this process is done with it
        pool = ProcessPoolExecutor(
            workers,
            mp_context=_WorkerContext(),
            initializer=_start_worker,
            initargs=(os.getpid(), initializer, initargs),
        )
    _pools.add(pool)
    return pool


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """The pool's worker processes stopped now: SIGTERM (each stops its analyzer's child process
    and exits), SIGKILL for those still there after ``GRACE`` seconds; waited for."""
    # CPython's record of the pool's live processes (gone once the pool is shut down)
    workers = list((getattr(pool, "_processes", None) or {}).values())
    for worker in workers:
        if worker.is_alive():
            worker.terminate()
    deadline = time.monotonic() + GRACE
    for worker in workers:
        worker.join(max(0.0, deadline - time.monotonic()))
        if worker.is_alive():
            worker.kill()
            worker.join()
    pool.shutdown(wait=False, cancel_futures=True)
    _pools.discard(pool)


def stop_children() -> None:
    """Every worker process (:func:`worker_pool`) and analyzer child process this process has
    started, stopped now and waited for: a command's way out when it is interrupted."""
    for pool in list(_pools):
        stop_pool(pool)
    close_analyzers()


def _start_worker(parent: int, initializer: Callable[..., None], initargs: tuple[Any, ...]) -> None:
    """A worker's first step: Ctrl-C and a hangup left to the parent, SIGTERM stopping the
    analyzer's child process with the worker, a watch on the parent; then ``initializer``."""
    for signum in _PARENTS:
        signal.signal(signum, signal.SIG_IGN)  # also drops one that came while they were blocked
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _PARENTS)
    signal.signal(signal.SIGTERM, _terminated)
    threading.Thread(target=_watch, args=(parent,), name="ktr-parent-watch", daemon=True).start()
    initializer(*initargs)


def _terminated(signum: int, frame: FrameType | None) -> None:
    close_analyzers()
    os._exit(128 + signum)


def _watch(parent: int) -> None:
    """In a worker: once its parent is gone, stop the analyzer's child process and exit."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK)
    close_analyzers()
    os._exit(128 + signal.SIGKILL)


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

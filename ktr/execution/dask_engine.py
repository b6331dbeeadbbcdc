"""The Dask engine: stretches scored on the workers of a Dask cluster, results back in line order.

A run connects to the scheduler it is given (``tcp://host:8786``: a cluster started with
``dask scheduler``/``dask worker``, dask-jobqueue or dask-kubernetes) or starts a
``LocalCluster`` of worker processes for itself, and stops that one after the run, also on an
error or Ctrl-C. Every worker builds its unit of work once, with the factory it is handed, in a
worker plugin (:class:`UnitPlugin`; a worker that joins later, or replaces one that died,
builds its own on arrival). Tasks are the stretches themselves (lines sent from here) or line
ranges of files the workers read (:mod:`ktr.execution.ranges`); at most ``WINDOW`` per worker
thread are handed out beyond the first one not yet put back in order, so memory here stays flat
however long the corpus. A worker that dies takes its tasks with it and the scheduler gives them
to another: each task is a pure function of its stretch, so the result is the same.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import logging
import signal
import threading
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from types import FrameType
from typing import Any, cast

from ktr.errors import KtrError
from ktr.execution.options import Engine, Execution
from ktr.execution.processes import blocked
from ktr.execution.ranges import Range, read_range
from ktr.execution.shards import Manifest, write_shard
from ktr.execution.unit import Analysed, Scored, Stretch, Unit, fewer_gc_pauses

try:
    from distributed import WorkerPlugin
except ImportError:  # the engine then says how to install Dask (connect)
    WorkerPlugin = object  # type: ignore[assignment,misc]

#: tasks handed out per worker thread ahead of the results put back in order
WINDOW = 4
#: worker processes of a LocalCluster when the engine does not say
DEFAULT_WORKERS = 2
#: seconds to wait for a scheduler to answer
CONNECT_TIMEOUT = 30


#: what the dask engine imports (module: as an error names it); the ``dask`` extra installs them
NEEDS = {"distributed": "Dask", "fsspec": "fsspec"}


def require_dask() -> None:
    """Nothing, or an error naming what of the ``dask`` extra is not installed and how to install it."""
    missing = []
    for module, name in NEEDS.items():
        try:
            importlib.import_module(module)
        except ImportError:
            missing.append(name)
    if missing:
        raise KtrError(f'the dask engine needs {" and ".join(missing)}: pip install "ktr[dask]"')


def _distributed() -> Any:
    """Dask's distributed package (its client side is not typed), or an error saying how to install it."""
    try:
        return importlib.import_module("distributed")
    except ImportError:
        require_dask()  # raises, naming what is missing
        raise


@contextmanager
def connect(engine: Engine) -> Iterator[Any]:
    """A Dask client of the engine's scheduler, or of a LocalCluster started for the run (and
    closed after it, its worker processes with it)."""
    distributed = _distributed()
    Client, LocalCluster = distributed.Client, distributed.LocalCluster
    if engine.scheduler:
        try:
            client = Client(engine.scheduler, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError) as exc:
            raise KtrError(f"cannot reach the Dask scheduler at {engine.scheduler}: {exc}") from None
        except ValueError as exc:  # an address Dask cannot read ('garbage::!', inproc:// of another process)
            raise KtrError(
                f"{engine.scheduler}: not a Dask scheduler's address ({exc}): give tcp://host:8786"
            ) from None
        with client:
            yield client
        return
    try:
        # started with Ctrl-C and hangups held back: the cluster's thread, the worker processes it
        # spawns and multiprocessing's resource tracker keep them blocked and leave them to this
        # process, which closes the cluster (a hangup to the process group killed the tracker
        # and the workers under the cluster's feet: a dozen tracebacks)
        with blocked():
            cluster = LocalCluster(
                n_workers=engine.workers or DEFAULT_WORKERS,
                threads_per_worker=1,
                processes=True,
                dashboard_address="127.0.0.1:0",  # the dashboard has no authentication: this machine only
                silence_logs=logging.CRITICAL,
            )
    except (RuntimeError, OSError, TimeoutError) as exc:
        raise KtrError(
            f"could not start a local Dask cluster ({type(exc).__name__}: {exc}); a script that "
            'runs one must guard its entry point with if __name__ == "__main__":'
        ) from None
    try:
        with Client(cluster) as client:
            yield client
    finally:
        cluster.close()


class UnitPlugin(WorkerPlugin):
    """A worker plugin: the worker's own unit of work, built once when the plugin reaches the worker."""

    def __init__(self, factory: Callable[[], Unit]):
        self.factory = factory
        self.unit: Unit | None = None

    def setup(self, worker: Any = None) -> None:
        import warnings

        warnings.simplefilter("ignore")  # input warnings are reported by the client
        self.unit = self.factory()

    def teardown(self, worker: Any = None) -> None:
        self.unit = None


@contextmanager
def running(engine: Engine) -> Iterator[Engine]:
    """An engine for several runs on one cluster (``ktr run``'s analysis, then each variant):
    the engine itself if it names a scheduler, else one naming the scheduler of a LocalCluster
    started (and announced) here, and stopped after the last run."""
    if not engine.distributed or engine.scheduler:
        yield engine
        return
    with connect(engine) as client:
        _announce(client, engine)
        yield replace(engine, scheduler=client.scheduler.address, workers=None, announce=None)


def _announce(client: Any, engine: Engine) -> None:
    """The cluster and its dashboard's address, told to the engine's ``announce``."""
    if engine.announce is not None:
        n = engine.workers or DEFAULT_WORKERS
        where = engine.scheduler or f"a local cluster of {n} worker process{'es' if n > 1 else ''}"
        engine.announce(f"dask: {where}; dashboard {_dashboard(client)}")


#: the oldest bokeh the scheduler's dashboard runs with
BOKEH = (3, 1)


def _dashboard(client: Any) -> str:
    """The scheduler's dashboard address, or why it has none: the scheduler answers on the
    address whatever is installed beside it, but shows its pages only with bokeh >= 3.1 (the
    ``dask`` extra installs it), so the bokeh of the scheduler's own machine is asked for."""
    try:
        version = client.run_on_scheduler(importlib.metadata.version, "bokeh")
    except importlib.metadata.PackageNotFoundError:
        version = None
    except Exception:  # a scheduler that runs no code sent to it: its address as Dask gives it
        return str(client.dashboard_link)
    if version is None or tuple(int(p) if p.isdigit() else 0 for p in version.split(".")[:2]) < BOKEH:
        return (
            f"none: the scheduler needs bokeh >= 3.1 for it{f' (it has {version})' if version else ''}; "
            'pip install "ktr[dask]" where it runs'
        )
    return str(client.dashboard_link)


def start_units(client: Any, factory: Callable[[], Any], engine: Engine) -> str:
    """Every worker's own unit (or analyzer) built with ``factory``, in a worker plugin whose
    name is returned; the dashboard's address announced."""
    _announce(client, engine)
    plugin = f"ktr-unit-{uuid.uuid4().hex}"
    try:
        client.register_plugin(UnitPlugin(factory), name=plugin)
    except Exception as exc:
        raise KtrError(f"a Dask worker could not build its scorer ({type(exc).__name__}: {exc})") from None
    return plugin


@dataclass(frozen=True)
class Task:
    """What every task of a run is sent besides its item: the source's name (in warnings),
    each system's (``outputs``: its file's, in warnings),
    whether to keep each keyword's result, the ``side`` computed beside the results, and the
    shard folder to write them to (None: none)."""

    name: str
    details: bool
    side: Callable[[Stretch], Any] | None
    shards: str | None
    outputs: Mapping[str, str] = field(default_factory=dict)


def _work(plugin: str, item: Stretch | Range | Analysed, task: Task, index: int) -> tuple[Any, Any, Any]:
    """A task: one stretch (sent, read from its line ranges, or sent with its analyses) scored by
    the worker's unit; its results packed, with ``side`` of the stretch; written to the shard
    folder if there is one (then with the files written, for the manifest)."""
    unit = worker_unit(plugin)
    analysed = item.analysed if isinstance(item, Analysed) else None
    stretch = read_range(item) if isinstance(item, Range) else item.stretch if isinstance(item, Analysed) else item
    with fewer_gc_pauses():
        packed = unit.pack(
            unit.score_stretch(stretch, analysed, name=task.name, details=task.details, outputs=task.outputs)
        )
    extra = task.side(stretch) if task.side is not None else None
    files = write_shard(task.shards, index, stretch.first, packed, extra) if task.shards is not None else None
    return packed, extra, files


def worker_unit(plugin: str) -> Any:
    """On a worker: what the plugin named ``plugin`` built there."""
    return cast(UnitPlugin, _distributed().get_worker().plugins[plugin]).unit


def _lines(item: Stretch | Range | Analysed) -> int:
    if isinstance(item, Analysed):
        return len(item.stretch.sources)
    return item.lines if isinstance(item, Range) else len(item.sources)


def run_dask(unit: Unit, items: Iterator[Stretch | Range | Analysed], run: Execution) -> Iterator[Scored]:
    """Every item scored on the cluster of ``run.engine``, its results (unpacked with ``unit``)
    yielded in item order and its ``run.side`` handed to ``run.merge`` in the same order."""
    engine = run.engine
    manifest = Manifest(engine.shards, run.plan, engine.resume) if engine.shards else None
    task = Task(run.name, run.details, run.side, manifest.folder if manifest is not None else None, dict(run.outputs))
    try:
        with _interruptible() as check, connect(engine) as client, _progress(engine, run.plan) as bar:
            plugin = start_units(client, cast(Callable[[], Any], run.factory), engine)
            try:
                for results, extra, lines in _in_order(client, plugin, items, task, manifest, (unit.unpack, run.check)):
                    check()
                    if run.merge is not None and run.side is not None:
                        run.merge(extra)
                    bar(lines)
                    yield results
            except KtrError:
                raise
            except Exception as exc:
                raise _failure(exc, engine, manifest) from None
            client.unregister_worker_plugin(plugin)  # a cluster that goes on serving others
    finally:
        if manifest is not None:
            manifest.close()


def _in_order(
    client: Any,
    plugin: str,
    items: Iterator[Stretch | Range | Analysed],
    task: Task,
    manifest: Manifest | None,
    reading: tuple[Callable[[Any], Scored], Callable[[Any, Any], str | None] | None],
) -> Iterator[tuple[Scored, Any, int]]:
    """(results, side, lines) of every item in order: from the cluster, or read back from the
    shard of an earlier run that finished it (scored again if that shard cannot be read);
    ``reading``: how results are unpacked, and how a side read back is checked."""
    unpack, check = reading
    window = WINDOW * max(1, sum(client.nthreads().values()))
    before = manifest.done if manifest is not None else {}  # finished by an earlier run
    futures: dict[Any, int] = {}
    arrived: dict[int, tuple[Any, Any]] = {}  # packed, as they came
    sizes: dict[int, int] = {}  # the items handed out and not yet yielded
    kept: dict[int, Stretch | Range | Analysed] = {}  # those finished before, until their shard is read
    finished = _distributed().as_completed()
    numbered = enumerate(items)
    following, more = 0, True

    def submit(i: int, item: Stretch | Range | Analysed) -> None:
        future = client.submit(_work, plugin, item, task, i, pure=False, key=f"{plugin}-{i}")
        futures[future] = i
        finished.add(future)

    try:
        while True:
            while more and len(sizes) < window:
                nxt = next(numbered, None)
                if nxt is None:
                    more = False
                    break
                i, item = nxt
                sizes[i] = _lines(item)
                if i in before:
                    kept[i] = item
                else:
                    submit(i, item)
            while following in arrived or following in kept:
                if following in arrived:
                    packed, extra = arrived.pop(following)
                    results = unpack(packed)
                else:  # finished by an earlier run: there is a manifest
                    item = kept.pop(following)
                    found = cast(Manifest, manifest).load(following, unpack, check)
                    if found is None:  # its shard named in a warning: scored again
                        submit(following, item)
                        break
                    results, extra = found
                yield results, extra, sizes.pop(following)
                following += 1
            if following not in sizes:  # every item handed out is yielded
                if not more:
                    return
                continue
            future = next(finished)  # the item awaited is on the cluster
            i = futures.pop(future)
            try:
                packed, extra, files = future.result()
            except KtrError:
                raise
            except Exception as exc:
                if future.status == "error" and type(exc).__name__ != "KilledWorker":
                    raise _TaskFailed(exc) from None  # raised by the task, not by the cluster
                raise
            arrived[i] = packed, extra
            if manifest is not None:
                manifest.finished(i, sizes[i], files)
    finally:
        if futures:
            client.cancel(list(futures), force=True)


class _TaskFailed(Exception):
    """A task that raised on its worker (its exception in ``args[0]``): an OSError there, such
    as a shard that cannot be written, is no lost scheduler."""


def _failure(exc: Exception, engine: Engine, manifest: Manifest | None) -> KtrError:
    """An error of the cluster (a lost scheduler, a task that killed its workers) as one message."""
    kind = type(exc).__name__
    if isinstance(exc, _TaskFailed):
        text = f"a Dask worker failed ({type(exc.args[0]).__name__}: {exc.args[0]})"
    elif kind == "KilledWorker":
        text = f"a task killed {exc.args[1] if len(exc.args) > 1 else 'its'} workers again and again ({exc})"
    elif kind in ("CancelledError", "CommClosedError", "TimeoutError", "FutureCancelledError") or isinstance(
        exc, OSError
    ):
        text = f"lost the Dask scheduler {engine.scheduler or '(local cluster)'} ({kind}: {exc})"
    else:
        text = f"a Dask worker failed ({kind}: {exc})"
    if manifest is not None:
        text += f"; {manifest.kept} finished tasks are kept in {manifest.folder}: run again with --resume"
    return KtrError(text)


@contextmanager
def _interruptible() -> Iterator[Callable[[], None]]:
    """Ctrl-C raises KeyboardInterrupt as it does by default, and is also remembered, so that the
    check yielded raises it again: Python drops an exception raised inside a finalizer, and the
    client runs many (each Dask future released runs one), so an interrupt would now and then be
    lost and the run go on. Only in the main thread, and only over Python's own handler."""
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield lambda: None
        return
    hits: list[int] = []

    def interrupted(signum: int, frame: FrameType | None) -> None:
        hits.append(signum)
        raise KeyboardInterrupt

    def check() -> None:
        if hits:
            raise KeyboardInterrupt

    signal.signal(signal.SIGINT, interrupted)
    try:
        yield check
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@contextmanager
def _progress(engine: Engine, plan: Any) -> Iterator[Callable[[int], None]]:
    """A bar of lines scored (tqdm, on standard error), when the engine asks for it."""
    if not engine.progress:
        yield lambda lines: None
        return
    from ktr.progress import Progress

    total = plan.get("lines") if isinstance(plan, dict) else None
    with Progress().bar("scoring (dask)", total or 0) as bar:
        yield bar.update

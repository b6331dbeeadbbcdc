"""Where a corpus runs, as a user asks for it: this machine, or a Dask cluster."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ktr.errors import ConfigError

#: the engines a corpus can run on: this machine's cores, or a Dask cluster (:mod:`ktr.execution.dask_engine`)
ENGINES = ("local", "dask")


#: the most worker processes a local Dask cluster is started with: each holds its own tables (a
#: few hundred MB); ``--workers 1e20`` built the cluster's description until memory ran out
MOST_WORKERS = 256


@dataclass(frozen=True)
class Engine:
    """Where the stretches run. ``local``: this process and, with ``jobs``, worker processes of
    this machine. ``dask``: the workers of a Dask cluster, the one whose scheduler is at
    ``scheduler`` (``tcp://host:8786``), or else a ``LocalCluster`` of ``workers`` processes
    started for the run and stopped after it. ``shards``: a folder where each task's per-line
    results are written as it finishes, with a manifest; ``resume`` continues a run whose
    manifest is there, scoring only the tasks it does not list. ``announce`` is called with
    one-line news for a person (the dashboard's address); ``progress`` shows a bar of lines scored."""

    name: str = "local"
    scheduler: str | None = None
    workers: int | None = None
    shards: str | None = None
    resume: bool = False
    progress: bool = False
    announce: Callable[[str], None] | None = None

    def __post_init__(self) -> None:
        if self.name not in ENGINES:
            raise ConfigError(f"engine: {self.name!r} is not valid; choose one of: {', '.join(ENGINES)}")
        if self.name == "local" and (self.scheduler or self.workers or self.shards or self.resume):
            raise ConfigError(
                "a scheduler, workers, shards and resume are options of the dask engine "
                "(--engine dask); the local engine takes --jobs"
            )
        if self.workers is not None and (
            isinstance(self.workers, bool) or not isinstance(self.workers, int) or self.workers < 1
        ):
            raise ConfigError(f"workers must be a whole number of at least 1, got {self.workers!r}")
        if self.workers is not None and self.workers > MOST_WORKERS:
            raise ConfigError(f"workers must be at most {MOST_WORKERS}, got {self.workers}")
        if self.scheduler and self.workers:
            raise ConfigError(
                "workers are started for a run only without a scheduler: "
                "give --scheduler ADDRESS or --workers N, not both"
            )
        if self.resume and not self.shards:
            raise ConfigError("resume continues from the shards of an earlier run: give its shard folder too")

    @property
    def distributed(self) -> bool:
        return self.name != "local"


@dataclass(frozen=True)
class Execution:
    """How a corpus's stretches are run, which travels together from the scorer to the engine:
    ``name`` (the source's, in input warnings), ``outputs`` (each system's, its file's, in input
    warnings), ``details`` (keep each keyword's result, else a
    line's counts only), the ``engine``, the local worker ``processes``, the ``factory`` that
    builds a worker's own unit of work (picklable), the ``plan`` a shard manifest records of the
    run, and ``side``, computed from every stretch where it is scored and handed to ``merge``
    here, in line order (ktr sums BLEU's and chrF's statistics this way); ``check`` says what is
    wrong with a side read back from a shard (``--resume``), given the results beside it, or None."""

    name: str = "source"
    outputs: Mapping[str, str] = field(default_factory=dict)
    details: bool = True
    engine: Engine = Engine()
    processes: int = 1
    factory: Callable[[], Any] | None = None
    plan: Any = None
    side: Callable[[Any], Any] | None = None
    check: Callable[[Any, Any], str | None] | None = None
    merge: Callable[[Any], None] | None = None

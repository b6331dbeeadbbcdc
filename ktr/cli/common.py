"""What every command shares: exit codes, the config from ``-c`` and ``-a``, the engine, and the
warning for an input in the other language."""

from __future__ import annotations

import argparse
import logging
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ktr.config import Config

if TYPE_CHECKING:
    from ktr.execution.options import Engine

EXIT_OK, EXIT_ERROR, EXIT_USAGE = 0, 1, 2
EXIT_FAILED_LINES = 3  # the run finished, but the analyzer failed on some lines (not scored)


def config_path(name: str) -> str:
    """``-c NAME``: a file, or else a config shipped with ktr by its name (``paper`` for
    configs/paper.yaml, read from the installed package when ktr is installed from a wheel)."""
    from pathlib import Path

    from ktr.resources import configs_dir

    if Path(name).exists() or "/" in name or "\\" in name:
        return name
    shipped = configs_dir() / (name if name.endswith(".yaml") else f"{name}.yaml")
    return str(shipped) if shipped.is_file() else name


def shipped_configs() -> list[str]:
    """The names of the configs shipped with ktr (``-c NAME``)."""
    from ktr.resources import configs_dir

    return sorted(p.stem for p in configs_dir().glob("*.yaml"))


def config_from(args: argparse.Namespace) -> Config:
    if args.config and "/" not in args.config and not Path(config_path(args.config)).exists():  # a name
        from ktr.errors import ConfigError

        raise ConfigError(
            f"-c {args.config}: no such file, nor a config shipped with ktr ({', '.join(shipped_configs())})"
        )
    config = Config.from_yaml(config_path(args.config)) if args.config else Config()
    if getattr(args, "analyzer", None):
        config = config.replace(analyzer=args.analyzer)
    if getattr(args, "headline", None):
        config = config.replace(headline=args.headline)
    stages, dropped = getattr(args, "stages", None), getattr(args, "no_stage", None) or []
    if stages is not None or dropped:
        config = config.replace(matching=matching_stages(config.matching, stages, dropped))
    return config


def add_stage_arguments(p: argparse.ArgumentParser) -> None:
    """--stages LIST and --no-stage NAME: the config's matching cascade from the command line."""
    from ktr.matching.registry import STAGES

    names = ", ".join(STAGES)
    p.add_argument(
        "--stages",
        metavar="LIST",
        help=f"the matching stages to run, comma-separated, in this order (replaces the config's; of: {names})",
    )
    p.add_argument(
        "--no-stage",
        action="append",
        metavar="NAME",
        help="leave a matching stage out of the config's cascade (repeatable): --no-stage semantic",
    )


def matching_stages(matching: tuple[str, ...], stages: str | None, dropped: list[str]) -> tuple[str, ...]:
    """The cascade ``--stages`` names (else the config's ``matching``), without the ``--no-stage``
    ones; a name that is no stage, or not in the cascade, is a usage error."""
    from ktr.errors import UsageError
    from ktr.matching.registry import STAGES

    valid = ", ".join(STAGES)
    if stages is not None:
        matching = tuple(s.strip() for s in stages.split(","))
        for s in matching:
            if s not in STAGES:
                raise UsageError(f"--stages: {s!r} is no matching stage; choose from: {valid}")
            if matching.count(s) > 1:
                raise UsageError(f"--stages: {s} given more than once; each stage runs once")
    for s in dropped:
        if s not in STAGES:
            raise UsageError(f"--no-stage: {s!r} is no matching stage; choose from: {valid}")
        if s not in matching:
            raise UsageError(f"--no-stage {s}: not among the stages run ({', '.join(matching)})")
    kept = tuple(s for s in matching if s not in dropped)
    if not kept:
        raise UsageError("no matching stage left to run: keep at least one (exact, say)")
    return kept


def add_engine_arguments(p: argparse.ArgumentParser, shards: bool = False) -> None:
    """--engine, --scheduler and --workers (and with ``shards``, --shards and --resume)."""
    from ktr.execution.engines import ENGINES

    g = p.add_argument_group("engine (docs/cluster.md)")
    g.add_argument(
        "--engine",
        choices=ENGINES,
        default="local",
        help="local: this machine (--jobs); dask: the workers of a Dask cluster (default local)",
    )
    g.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="the Dask scheduler to run on (tcp://host:8786); without it, a local cluster of --workers",
    )
    g.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help="worker processes of the local Dask cluster started for the run (default 2)",
    )
    if shards:
        g.add_argument(
            "--shards",
            metavar="DIR",
            help="write each task's per-line results into DIR as it finishes, with a manifest (dask)",
        )
        g.add_argument(
            "--resume",
            action="store_true",
            help="continue the run whose shards are in --shards DIR: only the tasks not finished",
        )


def engine_from(args: argparse.Namespace) -> Engine:
    """The engine the arguments ask for; with Dask, its news (the dashboard) and a progress bar on stderr."""
    import sys

    from ktr.errors import UsageError
    from ktr.execution.options import MOST_WORKERS, Engine

    if args.workers is not None and args.workers > MOST_WORKERS:
        raise UsageError(f"--workers must be at most {MOST_WORKERS} (processes of a local cluster), got {args.workers}")
    dask = args.engine == "dask"
    if dask:
        from ktr.execution.dask_engine import require_dask

        require_dask()  # before any file is read with it
    return Engine(
        args.engine,
        scheduler=args.scheduler,
        workers=args.workers,
        shards=getattr(args, "shards", None),
        resume=getattr(args, "resume", False),
        progress=dask and not getattr(args, "quiet", False),
        announce=(lambda text: print(f"ktr: {text}", file=sys.stderr)) if dask else None,
    )


def engine_field(engine: Engine) -> dict[str, Any]:
    """The ``engine`` field of a distributed run's JSON output."""
    from ktr.execution.dask_engine import DEFAULT_WORKERS

    workers = engine.workers or (None if engine.scheduler else DEFAULT_WORKERS)  # a scheduler's: its own
    return {"name": engine.name, "scheduler": engine.scheduler, "workers": workers}


class _Named(Protocol):
    """A file of a run, as :func:`warn_of_language` reads it: its name and its lines."""

    @property
    def name(self) -> str: ...

    def __iter__(self) -> Any: ...


def warn_of_language(source: _Named | None, outputs: Iterable[_Named] = ()) -> list[tuple[str, bool]]:
    """An input warning for a source whose lines mostly have no Hangul, and for each output
    whose lines are mostly Hangul (:func:`ktr.textio.language_warning`): each would score near 0.
    A file indexed for a cluster (or a URL) is not read again: its first lines were kept when it
    was checked (``head``). A table's columns are not looked at. Returns the files warned of, as
    (name, whether read as the Korean source)."""
    import warnings

    from ktr.errors import InputWarning
    from ktr.textio import language_warning

    files = ([(source, True)] if source is not None else []) + [(f, False) for f in outputs]
    warned = set()
    found: list[tuple[str, bool]] = []
    for f, korean in files:
        if (f.name, korean) in warned:
            continue  # a file given twice is warned of once
        warned.add((f.name, korean))
        if getattr(f, "column", None) is not None:
            continue  # a table's column: its rows would be read again
        lines = getattr(f, "head", None)
        message = language_warning(f.name, iter(f) if lines is None else lines, korean)
        if message is not None:
            warnings.warn(message, InputWarning, stacklevel=2)
            found.append((f.name, korean))
    return found


class NamedFile:
    """A file by its path, its lines read as they are asked for (:func:`ktr.textio.lines_of`)."""

    def __init__(self, path: object) -> None:
        self.name = str(path)

    def __iter__(self) -> Any:
        from ktr.textio import lines_of

        return lines_of(self.name)


def on_terminal(quiet: bool) -> bool:
    """Whether to show progress: standard error is a terminal and ``-q`` was not given (piped or
    redirected, a command prints no progress at all)."""
    import sys

    return not quiet and sys.stderr.isatty()


class _Building(logging.Handler):
    """Says once, on standard error, that a table is being built into the cache (a first run)."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.said = False

    def emit(self, record: logging.LogRecord) -> None:
        import sys

        if not self.said:
            self.said = True
            folder = record.args[1] if isinstance(record.args, tuple) and len(record.args) > 1 else "the cache"
            print(
                f"ktr: a first run: building the tables ktr keeps in {folder} from the lexicons and "
                "WordNet (once; later runs read them)",
                file=sys.stderr,
                flush=True,
            )


@contextmanager
def building_said(show: bool) -> Iterator[None]:
    """Meanwhile, with ``show``, the first table built into the cache is announced in one line."""
    if not show:
        yield
        return
    log = logging.getLogger("ktr.cache")
    handler, level = _Building(), log.level
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    try:
        yield
    finally:
        log.removeHandler(handler)
        log.setLevel(level)

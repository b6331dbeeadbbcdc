"""How many cores, and in what shape: processes, or an analyzer's own threads."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ktr.errors import ConfigError

if TYPE_CHECKING:
    from ktr.config import Config

#: jobs (cores) a process takes when its analyzer analyses in threads of its own: its analysis
#: threads work outside the interpreter lock beside the process's matching (each line's result
#: comes back through the lock), and one copy of the model serves them all. On two cores,
#: 10,000 news lines, two runs each: one process with two Kiwi threads 6.87 and 7.40 s, two
#: processes with one thread each 7.59 and 7.72 s.
JOBS_PER_THREADED_PROCESS = 2


def split_jobs(jobs: int, config: Config) -> tuple[int, int]:
    """(processes, analysis threads per process) for ``jobs``: a backend with threads of its own
    (Kiwi, when it runs in this process) gets ``JOBS_PER_THREADED_PROCESS`` jobs per process as
    threads; any other, a process per job."""
    from ktr.korean.analyzers.base import analyzer_class
    from ktr.korean.analyzers.process import effective_timeout

    name = config.analyzer
    if jobs > 1 and analyzer_class(name).threaded and not effective_timeout(name, config.timeout):
        per = JOBS_PER_THREADED_PROCESS
        return -(-jobs // per), min(jobs, per)
    return jobs, 1


def resolve_jobs(jobs: int | None) -> int:
    """The number of jobs (cores to use): ``None`` or 1 → 1; 0 → every CPU core available."""
    if jobs is None:
        return 1
    if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 0:
        raise ConfigError(f"jobs must be a whole number, 0 (one per core) or more, got {jobs!r}")
    if jobs == 0:
        return available_cores()
    return jobs


def available_cores() -> int:
    """The CPU cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def capped_jobs(jobs: int | None) -> tuple[int, str | None]:
    """``--jobs`` as the command runs it: :func:`resolve_jobs`, at most :func:`available_cores`
    (more processes or threads than cores only take turns on them, each with its own copy of the
    tables); and, when it was lowered, the warning that says so."""
    found, cores = resolve_jobs(jobs), available_cores()
    if found <= cores:
        return found, None
    return cores, f"--jobs {found} is more than the {cores} cores available: using {cores}"

"""Stopping signals at the edges of a run (docs/input-handling.md, "Limits, signals and worker
processes"): SIGTERM once ``--jobs 2`` has written its output, while the interpreter waits to
exit, and SIGHUP to the process group of ``--engine dask``. Each is one line and the status
128 + the signal's number, nothing else on standard error, no process left."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ktr.sample import paths as sample_paths
from tests.conftest import ROOT
from tests.execution.test_processes import WORKER, _default_signals, assert_nothing_left, processes_of

pytestmark = pytest.mark.slow  # ktr in a subprocess, stopped

#: ``ktr`` as the program, whose exit the interpreter holds for 3 s (a thread it waits for), as
#: it waits for worker processes to exit: the half second in which a SIGTERM was silent
HELD_AT_EXIT = """
import sys, threading, time
from ktr.cli import main
sys.argv[0] = "ktr"
code = main()
threading.Thread(target=time.sleep, args=(3,)).start()
sys.exit(code)
"""

#: ``ktr`` as the program, with a thread that never ends (the interpreter joins it at exit) and a
#: step of multiprocessing's at exit that never returns: what a stop can leave behind when its
#: signal cuts a library's locking short (a worker pool's manager thread waiting on a future's
#: lock that the main thread took as the signal came)
STUCK_AT_EXIT = """
import multiprocessing.util, sys, threading
from ktr.cli import main
sys.argv[0] = "ktr"
never = threading.Event()
threading.Thread(target=never.wait, name="stuck").start()
multiprocessing.util.Finalize(None, never.wait, exitpriority=10)
sys.exit(main())
"""


def sample_copies(tmp_path: Path, copies: int) -> tuple[str, str]:
    """The sample's source and fluent output, each ``copies`` times over, as files: a run of
    the length a test needs."""
    p = sample_paths()
    src, hyp = tmp_path / "src.ko", tmp_path / "mt.en"
    src.write_bytes(Path(p["source"]).read_bytes() * copies)
    hyp.write_bytes(Path(p["fluent"]).read_bytes() * copies)
    return str(src), str(hyp)


def start(tmp_path: Path, program: list[str], *args: str) -> tuple[subprocess.Popen[bytes], Path, Path]:
    out, err = tmp_path / "out", tmp_path / "err"
    with open(out, "wb") as stdout, open(err, "wb") as stderr:
        run = subprocess.Popen(
            [sys.executable, *program, *args],
            cwd=ROOT,
            stdout=stdout,
            stderr=stderr,
            env={**os.environ, "PYTHONIOENCODING": "utf-8"},
            start_new_session=True,
            preexec_fn=_default_signals,
        )
    return run, out, err


def wait_for(check, run: subprocess.Popen[bytes], seconds: float = 300) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert run.poll() is None and time.monotonic() < deadline, "the run ended or took too long"
        time.sleep(0.05)


def test_sigterm_once_the_output_is_written_is_one_line(tmp_path):
    """Before: exit 143 without a word (Python's handlers were gone), and the resource tracker's
    warning of the workers' leaked semaphores."""
    src, hyp = sample_copies(tmp_path, 50)
    run, out, err = start(tmp_path, ["-c", HELD_AT_EXIT], "score", "-s", src, "-t", hyp, "--jobs", "2", "-q")
    try:
        wait_for(lambda: out.read_text(encoding="utf-8").count("\n") > 3 and "signature" in out.read_text(), run)
        time.sleep(0.5)
        os.killpg(run.pid, signal.SIGTERM)
        assert run.wait(timeout=60) == 143
        time.sleep(1)  # the resource tracker, had it anything to say
        assert err.read_text(encoding="utf-8") == "ktr: terminated\n"
        assert_nothing_left(run.pid)
    finally:
        if run.poll() is None:
            run.kill()


def test_a_stop_ends_the_program_whatever_is_left_waiting_at_exit(tmp_path):
    """Before: a SIGTERM to the group of a ``--jobs 2`` run said ``ktr: terminated`` and the
    process then waited for ever in the interpreter's exit, for a thread the stop had left waiting
    on a lock (seen once in CI: the run still there 120 s after the signal)."""
    src, hyp = sample_copies(tmp_path, 2000)
    run, _, err = start(tmp_path, ["-c", STUCK_AT_EXIT], "score", "-s", src, "-t", hyp, "-a", "mecab", "--jobs", "2")
    try:
        wait_for(lambda: any(WORKER in command for _, command in processes_of(run.pid).values()), run)
        time.sleep(1)
        assert run.poll() is None, "the run ended before it was stopped: give it more lines"
        os.killpg(run.pid, signal.SIGTERM)
        assert run.wait(timeout=60) == 143
        assert err.read_text(encoding="utf-8") == "ktr: terminated\n"
        assert_nothing_left(run.pid)
    finally:
        if run.poll() is None:
            run.kill()


def test_sighup_to_the_group_of_a_dask_run_is_one_line(tmp_path):
    """Before: a dozen tracebacks (the resource tracker killed, relaunched and unable to find the
    workers' semaphores; the cluster's connections closed under it)."""
    pytest.importorskip("distributed")
    src, hyp = sample_copies(tmp_path, 400)
    run, _, err = start(tmp_path, ["-m", "ktr"], "score", "-s", src, "-t", hyp, "--engine", "dask", "-q")
    try:
        wait_for(lambda: "a local cluster" in err.read_text(encoding="utf-8"), run)
        time.sleep(1.5)  # scoring on the cluster
        assert run.poll() is None, "the run ended before it was stopped: give it more lines"
        os.killpg(run.pid, signal.SIGHUP)
        assert run.wait(timeout=120) == 129
        time.sleep(1)
        lines = err.read_text(encoding="utf-8").splitlines()
        assert len(lines) == 2 and lines[0].startswith("ktr: dask: a local cluster") and lines[1] == "ktr: hung up"
        assert_nothing_left(run.pid)
    finally:
        if run.poll() is None:
            run.kill()

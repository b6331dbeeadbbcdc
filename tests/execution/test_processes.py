"""Limits and stops, run as a user runs them: bootstrap resamples past the limit, inputs that never
end (a device, a pipe, an endless standard input), ``--jobs`` past the machine's cores, and a run
stopped by SIGTERM, SIGHUP, Ctrl-C or SIGKILL, after which no process it started may be left
(docs/input-handling.md, "Limits, signals and worker processes").

The runs that a broken limit would let go on for hours or eat the machine's memory run as
subprocesses with a time limit and a cap on their address space, so that such a break fails the
test instead of the machine.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from ktr.errors import ConfigError
from ktr.sample import paths as sample_paths
from ktr.scoring.resampling import Resampling
from ktr.scoring.significance import bootstrap, mean_statistic
from tests.cli.test_commands import ktr as ktr_here
from tests.cli.test_main import assert_clean_error
from tests.conftest import ROOT

#: the documented limits
MAX_RESAMPLES = 1_000_000
MAX_LINE_BYTES = 16 * 1024 * 1024
#: address space a bounded run gets: far more than a refusal needs, far less than the machine has
MEMORY = 4 << 30
CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _bounded() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def bounded(*args, timeout: float = 120, stdin=None) -> subprocess.CompletedProcess[str]:
    """``ktr ARGS`` as a subprocess (as tests/cli/test_main.py runs it), with a time limit and
    :data:`MEMORY` of address space."""
    return subprocess.run(
        [sys.executable, "-m", "ktr.cli", *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        timeout=timeout,
        stdin=stdin,
        preexec_fn=_bounded,
    )


def error_line(proc: subprocess.CompletedProcess[str], message: str) -> None:
    assert_clean_error(proc)
    assert proc.stderr == f"ktr: error: {message}\n"


# 6. bootstrap resamples --------------------------------------------------------------------------


@pytest.mark.parametrize("resamples", [MAX_RESAMPLES + 1, 10**9])
@pytest.mark.slow  # ktr in a subprocess, stopped or bounded
def test_bootstrap_resamples_past_the_limit_are_refused_before_scoring(resamples):
    p = sample_paths()
    proc = bounded(
        "score", "-s", p["source"], "-t", p["fluent"], p["literal"], "--paired-bs", "--bootstrap-resamples", resamples
    )
    error_line(proc, f"--bootstrap-resamples must be from 1 to {MAX_RESAMPLES}, got {resamples}")


def test_resampling_is_limited_in_the_library_too():
    assert Resampling(MAX_RESAMPLES).resamples == MAX_RESAMPLES
    for resamples in (MAX_RESAMPLES + 1, 0):
        with pytest.raises(ConfigError) as caught:
            Resampling(resamples)
        assert str(caught.value) == f"resamples must be from 1 to {MAX_RESAMPLES}, got {resamples}"
    with pytest.raises(ConfigError) as caught:
        bootstrap([mean_statistic([1.0, 0.5])], 2, resamples=10**9)
    assert str(caught.value) == f"resamples must be from 1 to {MAX_RESAMPLES}, got {10**9}"


@pytest.mark.slow  # ktr in a subprocess, stopped or bounded
def test_compare_resamples_past_the_limit_are_refused_before_the_run(tmp_path):
    config = tmp_path / "big.yaml"
    demo = (ROOT / "configs" / "demo.yaml").read_text(encoding="utf-8")
    assert "  resamples: 1000\n" in demo
    config.write_text(demo.replace("  resamples: 1000\n", f"  resamples: {10**9}\n"), encoding="utf-8")
    proc = bounded("run", config, "-q", "-o", tmp_path / "out")
    error_line(proc, f"{config}: compare.resamples: must be at most {MAX_RESAMPLES}, got {10**9}")
    assert not (tmp_path / "out").exists()


# 6. inputs that never end ------------------------------------------------------------------------


@pytest.fixture
def texts(tmp_path):
    p = sample_paths()
    return {"src": p["source"], "hyp": p["fluent"], "ref": p["reference"], "out": tmp_path / "out"}


COMMANDS = {
    "score -s": ["score", "-s", "{bad}", "-t", "{hyp}"],
    "score -t": ["score", "-s", "{src}", "-t", "{bad}"],
    "score -r": ["score", "-s", "{src}", "-t", "{hyp}", "-r", "{bad}"],
    "keywords": ["keywords", "-s", "{bad}"],
    "lexicon coverage": ["lexicon", "coverage", "-s", "{bad}"],
    "meta-eval -s": ["meta-eval", "-s", "{bad}", "-r", "{ref}", "-o", "{out}"],
    "meta-eval -r": ["meta-eval", "-s", "{src}", "-r", "{bad}", "-o", "{out}"],
}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.slow  # ktr in a subprocess, stopped or bounded
def test_a_character_device_is_refused_by_every_command(command, texts):
    args = [a.format(bad="/dev/zero", **texts) for a in COMMANDS[command]]
    error_line(
        bounded(*args, timeout=60),
        "/dev/zero: is a character device, expected a regular file (or - for standard input)",
    )


@pytest.mark.slow  # ktr in a subprocess, stopped or bounded
def test_a_named_pipe_is_refused_without_waiting_for_a_writer(tmp_path, texts):
    fifo = tmp_path / "source.ko"
    os.mkfifo(fifo)
    error_line(
        bounded("score", "-s", fifo, "-t", texts["hyp"], timeout=60),
        f"{fifo}: is a pipe, expected a regular file (or - for standard input)",
    )


@pytest.mark.slow  # ktr in a subprocess, stopped or bounded
def test_endless_standard_input_is_refused_at_the_line_limit(texts):
    with open("/dev/zero", "rb") as zeros:
        proc = bounded("score", "-s", texts["src"], "-t", "-", stdin=zeros, timeout=60)
    error_line(proc, f"-:1: a line longer than {MAX_LINE_BYTES} bytes: expected one sentence per line")


@pytest.mark.slow  # ktr in a subprocess, stopped or bounded
def test_a_long_line_on_standard_input_below_the_limit_is_read(tmp_path, texts):
    """The limit is far above any sentence: a line of 100,000 characters on standard input scores."""
    src = tmp_path / "one.ko"
    src.write_text("학생이 책을 읽었다\n", encoding="utf-8")
    with open(tmp_path / "one.en", "w", encoding="utf-8") as out:
        out.write("the student read a book " * 4000 + "\n")
    with open(tmp_path / "one.en", "rb") as stdin:
        proc = bounded("score", "-s", src, "-t", "-", "-f", "json", stdin=stdin)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["systems"][0]["ktr"] == 1.0


# 6. --jobs past the cores --------------------------------------------------------------------------


@pytest.mark.slow  # worker processes
def test_jobs_past_the_cores_are_capped_with_one_warning(capsys):
    p = sample_paths()
    args = ["score", "-s", p["source"], "-t", p["fluent"], "-a", "mecab", "-f", "json"]
    code, one, err = ktr_here(capsys, *args)
    assert (code, err) == (0, "")
    code, capped, err = ktr_here(capsys, *args, "--jobs", CORES + 3)
    assert err == f"ktr: warning: --jobs {CORES + 3} is more than the {CORES} cores available: using {CORES}\n"
    assert code == 0 and json.loads(capped) == json.loads(one)
    code, _, err = ktr_here(capsys, *args, "--jobs", CORES)  # as many as there are: no warning
    assert (code, err) == (0, "")


@pytest.mark.slow  # worker processes
def test_ktr_run_caps_its_jobs_the_same_way(capsys, tmp_path):
    config = tmp_path / "small.yaml"
    config.write_text(
        "name: small\ndata:\n  source: sample:travel.ko\n  systems:\n    fluent: sample:travel.fluent.en\n"
        "pipeline:\n  analyzer: mecab\ncompare:\n  resamples: 0\n",
        encoding="utf-8",
    )
    code, out, err = ktr_here(capsys, "run", config, "-q", "-o", tmp_path / "out", "--jobs", CORES + 1)
    assert err == f"ktr: warning: --jobs {CORES + 1} is more than the {CORES} cores available: using {CORES}\n"
    assert code == 0 and "written to" in out


# 7. signals ----------------------------------------------------------------------------------------

#: what ktr says when it is stopped, by signal
STOPPED = {signal.SIGINT: "ktr: interrupted\n", signal.SIGTERM: "ktr: terminated\n", signal.SIGHUP: "ktr: hung up\n"}
WORKER = "multiprocessing.spawn"  # in the command line of a worker process
ANALYZER_CHILD = "ktr.korean.analyzers.process"  # in that of an analyzer in a child process (timeout)

needs_proc_and_two_cores = pytest.mark.skipif(
    not Path("/proc/self/io").exists() or CORES < 2,
    reason="needs Linux's /proc and two cores (--jobs 2 starts a worker process)",
)


@pytest.fixture(scope="module")
def long_run(tmp_path_factory):
    """A source and an output long enough that ``--jobs 2`` is still scoring when it is stopped
    (100,000 lines: about a minute on two cores), and a config that puts Kiwi in a child process."""
    folder = tmp_path_factory.mktemp("long")
    p = sample_paths()
    for name, key in (("long.ko", "source"), ("long.en", "fluent")):
        (folder / name).write_bytes(Path(p[key]).read_bytes() * 5000)
    (folder / "kiwi-timeout.yaml").write_text("analyzer: kiwi\ntimeout: 60\n", encoding="utf-8")
    return folder


def _default_signals() -> None:
    # the child's dispositions as in a terminal, even where the tests run with some ignored (in the
    # background, under nohup)
    for s in STOPPED:
        signal.signal(s, signal.SIG_DFL)


def processes_of(session: int) -> dict[int, tuple[int, str]]:
    """pid → (parent's pid, command line) of every process of ``session`` still alive (a zombie
    has exited: it only waits for its parent to read its status)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:  # gone meanwhile
            continue
        state, ppid, _, sid = stat[stat.rindex(")") + 2 :].split()[:4]
        if int(sid) == session and state != "Z":
            found[int(entry.name)] = (int(ppid), command.strip())
    return found


def written(pid: int) -> int:
    """Bytes process ``pid`` has written so far (0 if it is gone)."""
    try:
        return int(dict(line.split(": ") for line in Path(f"/proc/{pid}/io").read_text().splitlines())["wchar"])
    except OSError:
        return 0


def cpu_seconds(pid: int) -> float:
    """The CPU time process ``pid`` has used (0 if it is gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    user, system = stat[stat.rindex(")") + 2 :].split()[11:13]
    return (int(user) + int(system)) / os.sysconf("SC_CLK_TCK")


@contextmanager
def started(
    folder: Path, analyzer: str, scoring: bool = True
) -> Iterator[tuple[subprocess.Popen[bytes], Callable[[], tuple[int, str, str]]]]:
    """``ktr score --jobs 2`` in a session of its own, and what tells its exit status, output and
    errors once it has ended (written to files: a process left behind cannot hold them open).
    Yielded once its worker process is scoring (it has written: results back, or texts to its
    analyzer child) and, with a timeout, both analyzer children (the parent's and the worker's)
    are running; or (``scoring=False``) while its worker process starts: once it has used 0.3 s
    of CPU (its interpreter is up, its imports take seconds more) and written nothing yet, and
    with a timeout, once it has started its analyzer's child process and waits for it (Kiwi
    loads for seconds). Whatever is left of the run is killed after."""
    choice = ["-a", "mecab"] if analyzer == "mecab" else ["-c", str(folder / "kiwi-timeout.yaml")]
    out, err = folder / f"{analyzer}.out", folder / f"{analyzer}.err"
    with open(out, "wb") as stdout, open(err, "wb") as stderr:
        run = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "ktr.cli",
                "score",
                "-s",
                folder / "long.ko",
                "-t",
                folder / "long.en",
                "--jobs",
                "2",
            ]
            + choice,
            cwd=ROOT,
            stdout=stdout,
            stderr=stderr,
            env={**os.environ, "PYTHONIOENCODING": "utf-8"},
            start_new_session=True,
            preexec_fn=_default_signals,
        )

    def outcome() -> tuple[int, str, str]:
        status = run.wait(timeout=120)
        return status, out.read_text(encoding="utf-8"), err.read_text(encoding="utf-8")

    try:
        _wait_until_started(run, 2 if analyzer != "mecab" else 0, scoring)
        yield run, outcome
    finally:
        if run.poll() is None:
            run.kill()
        run.wait()
        for pid in processes_of(run.pid):
            os.kill(pid, signal.SIGKILL)


def _wait_until_started(run: subprocess.Popen[bytes], children: int, scoring: bool) -> None:
    deadline = time.monotonic() + 300  # a loaded machine starts a worker slowly
    while time.monotonic() < deadline and run.poll() is None:
        running = processes_of(run.pid)
        workers = [
            pid for pid, (_, command) in running.items() if WORKER in command and "resource_tracker" not in command
        ]
        analyzers = [parent for parent, command in running.values() if ANALYZER_CHILD in command]
        if not scoring and workers and (not children or workers[0] in analyzers):
            if cpu_seconds(workers[0]) >= 0.3 and written(workers[0]) == 0:
                return
        if len(workers) == 1 and written(workers[0]) > 0 and len(analyzers) == children:
            return
        time.sleep(0.1)
    pytest.fail(f"the run did not start its worker in time (exit status {run.poll()})")


def assert_nothing_left(session: int) -> None:
    deadline = time.monotonic() + 60
    while (left := processes_of(session)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert left == {}


@needs_proc_and_two_cores
@pytest.mark.parametrize("analyzer", ["mecab", "kiwi-timeout"])
@pytest.mark.parametrize(
    "signum, group",
    [
        (signal.SIGTERM, False),  # kill PID: only ktr gets it
        (signal.SIGTERM, True),  # kill -TERM -PGID (a batch system, a service manager): every process
        (signal.SIGHUP, True),  # the terminal hangs up: its shell sends it to the whole job
        (signal.SIGINT, True),  # Ctrl-C: the terminal sends it to the whole job
    ],
    ids=["TERM", "TERM-group", "HUP-group", "INT-group"],
)
@pytest.mark.slow  # ktr in a subprocess, stopped or bounded
def test_a_stopped_run_stops_every_process_it_started(long_run, analyzer, signum, group):
    with started(long_run, analyzer) as (run, outcome):
        if group:
            os.killpg(run.pid, signum)
        else:
            os.kill(run.pid, signum)
        assert outcome() == (128 + signum, "", STOPPED[signum])
        assert_nothing_left(run.pid)


@needs_proc_and_two_cores
@pytest.mark.parametrize("analyzer", ["mecab", "kiwi-timeout"])
@pytest.mark.slow  # ktr in a subprocess, stopped or bounded
def test_ctrl_c_while_the_worker_starts_is_one_line_too(long_run, analyzer):
    """Ctrl-C reaches the worker too; while it starts (its imports, its analyzer's child process)
    it must not print a traceback of its own."""
    with started(long_run, analyzer, scoring=False) as (run, outcome):
        os.killpg(run.pid, signal.SIGINT)
        assert outcome() == (130, "", STOPPED[signal.SIGINT])
        assert_nothing_left(run.pid)


@needs_proc_and_two_cores
@pytest.mark.parametrize("analyzer", ["mecab", "kiwi-timeout"])
@pytest.mark.slow  # ktr in a subprocess, stopped or bounded
def test_workers_exit_when_ktr_is_killed(long_run, analyzer):
    """SIGKILL cannot be handled: the workers notice that their parent is gone and stop, their
    analyzer children with them."""
    with started(long_run, analyzer) as (run, outcome):
        os.kill(run.pid, signal.SIGKILL)
        assert outcome()[0] == -signal.SIGKILL
        assert_nothing_left(run.pid)

"""Faults on a Dask cluster, as they happen: a worker killed mid-run, a run stopped and resumed
from its shards, Ctrl-C. Each run's result must be the one an uninterrupted local run gives."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from ktr import Config, Scorer
from ktr.execution.engines import Engine
from ktr.execution.ranges import task_lines
from ktr.execution.shards import MANIFEST
from tests.cli.test_main import ktr
from tests.conftest import local_cluster
from tests.execution.test_dask_engine import assert_same_run, written

distributed = pytest.importorskip("distributed")
psutil = pytest.importorskip("psutil")
# slow: a Dask cluster per test, workers killed
pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::ktr.errors.InputWarning")]

#: copies of the written lines: 2,400 lines
COPIES = 300
#: in tasks of 128 lines
TASKS = -(-2400 // task_lines(2400))


@pytest.fixture
def cluster():
    """A cluster of its own for each test, not conftest's ``scheduler`` shared by a module: these
    tests kill its workers."""
    with local_cluster() as found:
        yield found


def finished_tasks(folder: Path) -> list[int]:
    path = folder / MANIFEST
    if not path.is_file():
        return []
    return [
        json.loads(line)["task"] for line in path.read_text(encoding="utf-8").splitlines()[1:] if line.endswith("}")
    ]


def wait_for(condition, seconds: float = 120) -> None:
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.05)


def test_a_worker_killed_mid_run_changes_nothing(tmp_path, cluster):
    src, hyp, ref = written(tmp_path, COPIES)
    local = Scorer(Config()).score_files(str(src), {"mt": str(hyp)}, [str(ref)])
    shards = tmp_path / "shards"
    engine = Engine("dask", scheduler=cluster.scheduler_address, shards=str(shards))
    found: dict = {}

    def run() -> None:
        try:
            found["report"] = Scorer(Config(), engine=engine).score_files(str(src), {"mt": str(hyp)}, [str(ref)])
        except BaseException as exc:  # handed to the test's thread
            found["error"] = exc

    with distributed.Client(cluster) as client:
        pids = client.run(os.getpid)
        scoring = threading.Thread(target=run)
        scoring.start()
        wait_for(lambda: len(finished_tasks(shards)) >= 3)
        killed_at = len(finished_tasks(shards))
        os.kill(next(iter(pids.values())), signal.SIGKILL)
        scoring.join(300)
    assert "error" not in found, found.get("error")
    assert killed_at < TASKS and sorted(finished_tasks(shards)) == list(range(TASKS))
    assert json.dumps(found["report"].to_dict(sentences=True)) == json.dumps(local.to_dict(sentences=True))


def test_a_run_stopped_and_resumed_scores_each_task_once(tmp_path, cluster):
    src, hyp, ref = written(tmp_path, COPIES)
    shards = tmp_path / "shards"
    args = [
        "score",
        "-s",
        src,
        "-t",
        hyp,
        "-r",
        ref,
        "-f",
        "json",
        "--sentences",
        "--engine",
        "dask",
        "--scheduler",
        cluster.scheduler_address,
        "--shards",
        shards,
    ]
    first = subprocess.Popen(
        [sys.executable, "-m", "ktr.cli", *map(str, args)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    wait_for(lambda: len(finished_tasks(shards)) >= 4)
    first.kill()  # the client gone at once, as when its machine fails
    first.wait()
    kept = finished_tasks(shards)
    assert 4 <= len(kept) < TASKS
    before = {i: (shards / f"part-{i:07d}.jsonl").stat().st_mtime_ns for i in kept}
    again = ktr(*args)
    assert again.returncode == 1 and "holds the shards of an earlier run; continue it with --resume" in again.stderr
    resumed = ktr(*args, "--resume")
    assert_same_run(ktr(*args[:-6]), resumed, cluster.scheduler_address)
    done = finished_tasks(shards)
    assert sorted(done) == list(range(TASKS)) and done[: len(kept)] == kept  # each task once
    assert {i: (shards / f"part-{i:07d}.jsonl").stat().st_mtime_ns for i in kept} == before  # not scored again
    rows = [line.split("\t") for i in range(TASKS) for line in (shards / f"part-{i:07d}.tsv").read_text().splitlines()]
    assert rows[0] == ["line", "system", "score", "keywords", "transferred", "precision", "failed"]
    assert [int(r[0]) for r in rows[1:]] == list(range(1, 2401))
    segments = json.loads(resumed.stdout)["systems"][0]["segments"]
    assert [r[2] for r in rows[1:]] == ["" if s["score"] is None else f"{s['score']:.4f}" for s in segments]


def test_a_resume_refuses_another_runs_shards(tmp_path, cluster):
    src, hyp, ref = written(tmp_path, 2)
    shards = tmp_path / "shards"
    args = [
        "score",
        "-s",
        src,
        "-t",
        hyp,
        "--engine",
        "dask",
        "--scheduler",
        cluster.scheduler_address,
        "--shards",
        shards,
    ]
    assert ktr(*args).returncode == 0
    other = ktr(*args, "-r", ref, "--resume")
    assert other.returncode == 1 and "written by another run" in other.stderr
    assert "Traceback" not in other.stderr


def test_ctrl_c_leaves_no_worker_behind(tmp_path):
    src, hyp, _ = written(tmp_path, COPIES * 4)
    # Ctrl-C's default action, even where this test runs with SIGINT ignored (in the background)
    run = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ktr.cli",
            "score",
            "-s",
            str(src),
            "-t",
            str(hyp),
            "--engine",
            "dask",
            "--workers",
            "2",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert "dashboard" in run.stderr.readline()
    wait_for(lambda: len(psutil.Process(run.pid).children(recursive=True)) >= 2)
    time.sleep(2)  # the workers scoring
    workers = psutil.Process(run.pid).children(recursive=True)
    run.send_signal(signal.SIGINT)
    assert run.wait(60) == 130
    assert "ktr: interrupted" in run.stderr.read()
    gone, alive = psutil.wait_procs(workers, timeout=30)
    assert alive == []


def test_a_lost_scheduler_is_a_clear_error_and_the_run_resumes(tmp_path):
    src, hyp, ref = written(tmp_path, COPIES)
    local = Scorer(Config()).score_files(str(src), {"mt": str(hyp)}, [str(ref)])
    shards = tmp_path / "shards"
    found: dict = {}
    lost = local_cluster()

    def run() -> None:
        engine = Engine("dask", scheduler=lost.scheduler_address, shards=str(shards))
        try:
            found["report"] = Scorer(Config(), engine=engine).score_files(str(src), {"mt": str(hyp)}, [str(ref)])
        except BaseException as exc:  # handed to the test's thread
            found["error"] = exc

    scoring = threading.Thread(target=run)
    scoring.start()
    wait_for(lambda: len(finished_tasks(shards)) >= 2)
    lost.close()
    scoring.join(300)
    assert "report" not in found
    message = str(found["error"])
    assert type(found["error"]).__name__ == "KtrError" and "lost the Dask scheduler" in message
    assert f"finished tasks are kept in {shards}: run again with --resume" in message
    kept = finished_tasks(shards)
    with local_cluster() as again:
        engine = Engine("dask", scheduler=again.scheduler_address, shards=str(shards), resume=True)
        resumed = Scorer(Config(), engine=engine).score_files(str(src), {"mt": str(hyp)}, [str(ref)])
    assert json.dumps(resumed.to_dict(sentences=True)) == json.dumps(local.to_dict(sentences=True))
    assert sorted(finished_tasks(shards)) == list(range(TASKS)) and finished_tasks(shards)[: len(kept)] == kept

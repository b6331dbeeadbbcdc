"""The Dask engine beside the local one, for ``python scripts/bench.py --engines``.

On the same lines (news-dev repeated, each copy numbered), in one run, one thing at a time:
``Scorer.score_files`` as ``ktr score`` calls it (a summary, ``RunOptions(details=False)``; the files
checked, the workers reading their line ranges) with ``--engine local --jobs 1`` and
``--jobs 2``, and with ``--engine dask`` on a LocalCluster of 1 and of 2 worker processes
started beforehand (as a cluster is up before a run; each run's workers still build their
scorer, which is timed). Then the costs a larger cluster scales with: the scheduler's time
per task (2,000 empty tasks), the bytes a task sends each way, the client's time per task
(unpacking its results and summing them into the totals), a task's time on a worker; and
from them an estimate for 8 to 64 workers. Last, the peak memory of the client (the ``ktr score --engine dask``
process itself, without its workers) on each size of ``--memory-lines``, then that of
``ktr score --engine local`` on each, and with ``--confidence`` (each line's figures kept for
the bootstrap) on the first;
``--engine-lines 0`` measures only that.
"""

from __future__ import annotations

import logging
import pickle
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ktr import Config, Scorer
from ktr.execution.engines import Engine
from ktr.execution.ranges import TASK_LINES, index_file, ranges, read_range
from ktr.scoring.corpus import Totals
from ktr.scoring.scorer import RunOptions

ROOT = Path(__file__).resolve().parent.parent


def _noop(x):
    return x


def write(folder: Path, name: str, lines: list[str]) -> str:
    path = folder / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def score_seconds(scorer: Scorer, src: str, hyp: str) -> float:
    start = time.perf_counter()
    scorer.score_files(src, {"hyp": hyp}, options=RunOptions(details=False))
    return time.perf_counter() - start


def engines(source: list[str], english: list[str], analyzer: str, repeat: int) -> list[tuple[str, int, float, str]]:
    """Rows (what, lines, seconds, comparison) of the four ways to score the same lines."""
    from distributed import LocalCluster

    rows = []
    with tempfile.TemporaryDirectory() as folder:
        src, hyp = write(Path(folder), "src.ko", source), write(Path(folder), "hyp.en", english)
        config = Config(analyzer=analyzer)
        local = {}
        for jobs in (1, 2):
            scorer = Scorer(config, jobs=jobs)
            scorer.score(source[:10], english[:10])
            local[jobs] = min(score_seconds(scorer, src, hyp) for _ in range(repeat))
            rows.append(
                (
                    f"{analyzer}: --engine local --jobs {jobs}",
                    len(source),
                    local[jobs],
                    f"{local[1] / local[jobs]:.2f} × --jobs 1",
                )
            )
        for workers in (1, 2):
            started = time.perf_counter()
            with LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",
                silence_logs=logging.ERROR,
            ) as cluster:
                start = time.perf_counter() - started
                scorer = Scorer(config, engine=Engine("dask", scheduler=cluster.scheduler_address))
                seconds = min(score_seconds(scorer, src, hyp) for _ in range(repeat))
            rows.append(
                (
                    f"{analyzer}: --engine dask, {workers} worker{'s' * (workers > 1)}",
                    len(source),
                    seconds,
                    f"{local[2] / seconds:.2f} × local --jobs 2; {local[1] / seconds:.2f} × --jobs 1; "
                    f"cluster start {start:.1f} s",
                )
            )
    return rows


def task_costs(source: list[str], english: list[str], analyzer: str) -> dict[str, float]:
    """Per task of TASK_LINES lines: the scheduler's seconds, the bytes each way, the client's
    seconds, a worker's seconds."""
    from distributed import Client, LocalCluster

    lines = TASK_LINES
    with tempfile.TemporaryDirectory() as folder:
        src = index_file(write(Path(folder), "src.ko", source[:lines]))
        hyp = index_file(write(Path(folder), "hyp.en", english[:lines]))
        item = next(ranges(src, {"hyp": hyp}, [], lines))
        scorer = Scorer(Config(analyzer=analyzer))
        stretch = read_range(item)
        scorer.pipeline.score_stretch(stretch, details=False)  # the look-ups warmed up, as in a running worker
        start = time.perf_counter()
        packed = scorer.pipeline.pack(scorer.pipeline.score_stretch(stretch, details=False))
        worker = time.perf_counter() - start
        start = time.perf_counter()
        for _ in range(10):  # unpacked and summed into the system's totals, as the client does
            totals = Totals(scorer.metric.how)
            for sentence in scorer.pipeline.unpack(packed)[0]["hyp"]:
                totals.add(sentence)
        client = (time.perf_counter() - start) / 10
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=logging.ERROR
        ) as cluster,
        Client(cluster) as c,
    ):
        c.gather(c.map(_noop, range(100)))  # connections made
        start = time.perf_counter()
        c.gather(c.map(_noop, range(100, 2100)))
        scheduler = (time.perf_counter() - start) / 2000
    return {
        "lines": lines,
        "scheduler_s": scheduler,
        "bytes_out": len(pickle.dumps(item)),
        "bytes_back": len(pickle.dumps(packed)),
        "client_s": client,
        "worker_s": worker,
    }


def scaling(costs: dict[str, float]) -> list[str]:
    """Estimated lines/s and hours for 100 million pairs on 8-64 workers: the workers' rate,
    unless the scheduler or the client, each handling every task in turn, is slower."""
    lines, per_worker = costs["lines"], costs["worker_s"]
    ceiling = lines / max(costs["scheduler_s"], costs["client_s"])
    out = []
    for workers in (8, 16, 32, 64):
        rate = min(workers * lines / per_worker, ceiling)
        out.append(
            f"| {workers} | {rate:,.0f} | {100e6 / rate / 3600:.1f} | "
            f"{'scheduler or client' if rate == ceiling else 'workers'} |"
        )
    return out


def client_memory(source: list[str], english: list[str], *options: str) -> tuple[float, int]:
    """Seconds and peak resident memory (kB) of the ``ktr score`` process itself (with
    ``--engine dask``, its LocalCluster's workers are processes of their own), with a reference
    and ``options``: the engine's among them."""
    with tempfile.TemporaryDirectory() as folder:
        src, hyp = write(Path(folder), "src.ko", source), write(Path(folder), "hyp.en", english)
        # VmHWM, the peak of this process's own memory since it started: ru_maxrss would also count
        # the memory of the (larger) bench process it was forked from
        probe = (
            "import re, sys, time\nfrom ktr.cli.main import main\nt = time.perf_counter()\n"
            "code = main(sys.argv[1:])\n"
            "peak = re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read()).group(1)\n"
            "print(time.perf_counter() - t, peak, code)"
        )
        command = ["score", "-s", src, "-t", hyp, "-r", hyp, "-f", "json"]
        out = subprocess.run(
            [sys.executable, "-c", probe, *command, *options],
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=True,
        ).stdout.split()
    if out[-1] not in ("0", "3"):
        raise SystemExit(f"ktr score {' '.join(options)} exited with status {out[-1]}")
    return float(out[-3]), int(out[-2])


def report(
    source: list[str], english: list[str], analyzer: str, repeat: int, memory: list[tuple[list[str], list[str]]]
) -> None:
    """Everything above, printed as Markdown tables; without ``source`` lines, only the client's
    memory: on each corpus of ``memory``, and with ``--confidence`` on the first."""
    print("| measurement | lines | seconds | lines/s | ratio |")
    print("|---|---:|---:|---:|---|")
    for what, n, seconds, ratio in engines(source, english, analyzer, repeat) if source else []:
        print(f"| {what} | {n} | {seconds:.2f} | {n / seconds:,.0f} | {ratio} |")
    dask = ("--engine", "dask", "--workers", "2")
    runs = [(lines, dask) for lines in memory] + [(lines, ("--engine", "local")) for lines in memory]
    runs += [(memory[0], (*dask, "--confidence"))] if memory else []
    for (ko, en), options in runs:
        seconds, rss = client_memory(ko, en, *options)
        print(
            f"| `ktr score {' '.join(options)}` with a reference: the client's peak RSS "
            f"| {len(ko)} | {seconds:.2f} | {len(ko) / seconds:,.0f} | {rss / 1024:.0f} MB |",
            flush=True,
        )
    if not source:
        return
    costs = task_costs(source, english, analyzer)
    print(
        f"\nper task of {costs['lines']} lines: scheduler {costs['scheduler_s'] * 1e3:.2f} ms, "
        f"{costs['bytes_out']:,} bytes out, {costs['bytes_back']:,} bytes back (details=False), "
        f"client {costs['client_s'] * 1e3:.1f} ms, worker {costs['worker_s']:.2f} s ({analyzer})\n"
    )
    print("| workers | lines/s (estimate) | hours for 100M pairs | bound by |")
    print("|---:|---:|---:|---|")
    print("\n".join(scaling(costs)))

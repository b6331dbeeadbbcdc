"""``ktr run --engine dask`` scores every variant and system on the cluster (the source analysed
there once per analyzer, each variant's stretches scored there with their analyses), and writes
what a run on one machine writes: an experiment written here with variants of two analyzers, and
news-dev."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT
from tests.execution.test_dask_engine import written

distributed = pytest.importorskip("distributed")
# slow: ktr run on a Dask cluster
pytestmark = pytest.mark.slow

#: what a run writes that must be the same byte for byte (report.html embeds the same figures)
FILES = ("results.json", "segments.tsv", "report.md")


def experiment(folder, source, systems: dict, reference, variants: str) -> str:
    config = folder / "experiment.yaml"
    listed = "".join(f"    {name}: {path}\n" for name, path in systems.items())
    config.write_text(
        f"name: on-a-cluster\ndata:\n  source: {source}\n  systems:\n{listed}  references: [{reference}]\n"
        f"metrics: [ktr, bleu, chrf]\nvariants:\n{variants}"
        "compare: {resamples: 200, seed: 3, differences: 4}\n",
        encoding="utf-8",
    )
    return str(config)


def run(config: str, out, cache, *engine: str) -> subprocess.CompletedProcess:
    """``ktr run`` with a cache folder of its own (so nothing analysed by another run is read back)."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "KTR_CACHE_DIR": str(cache)}
    return subprocess.run(
        [sys.executable, "-m", "ktr.cli", "run", config, "-o", str(out), "-q", *engine],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
    )


def assert_same_reports(local, dask, local_out, dask_out):
    assert local.returncode == dask.returncode == 0, dask.stderr
    assert dask.stdout.split("\nwritten to")[0] == local.stdout.split("\nwritten to")[0]
    warned = [line for line in dask.stderr.splitlines() if "warning" in line]
    assert warned == [line for line in local.stderr.splitlines() if "warning" in line]
    for name in FILES:
        assert (dask_out / name).read_text(encoding="utf-8") == (local_out / name).read_text(encoding="utf-8"), name


def test_every_variant_and_system_on_a_cluster_ktr_starts(tmp_path):
    src, hyp, ref = written(tmp_path, copies=20)  # 160 lines: tasks of 64
    lower = tmp_path / "lower.en"
    lower.write_text(hyp.read_text(encoding="utf-8").lower(), encoding="utf-8")
    config = experiment(
        tmp_path,
        src,
        {"mt": hyp, "lower": lower, "upper": ref},
        hyp,
        "  default: {}\n  exact-only: {matching: [exact]}\n  micro: {aggregation: micro}\n"
        "  mecab: {analyzer: mecab, aggregation: weighted}\n",
    )
    local = run(config, tmp_path / "local", tmp_path / "cache-local")
    dask = run(config, tmp_path / "dask", tmp_path / "cache-dask", "--engine", "dask", "--workers", "2")
    assert_same_reports(local, dask, tmp_path / "local", tmp_path / "dask")
    # one cluster for both analyzers and the four variants, announced once
    assert dask.stderr.count("ktr: dask: a local cluster of 2 worker processes") == 1, dask.stderr
    assert f"{src}:2: " in dask.stderr  # a control character
    assert {p.name.split("-")[0] for p in (tmp_path / "cache-dask" / "analyses").iterdir()} == {"kiwi", "mecab"}


@pytest.mark.shared_data
def test_news_dev_experiment_on_a_cluster(tmp_path, shared_data, scheduler):
    lower = tmp_path / "news-dev.lower.en"
    lower.write_text((shared_data / "news-dev.en").read_text(encoding="utf-8").lower(), encoding="utf-8")
    config = experiment(
        tmp_path,
        shared_data / "news-dev.ko",
        {"human": shared_data / "news-dev.en", "lower": lower},
        shared_data / "news-dev.en",
        "  default: {}\n  no-synonyms: {matching: [exact, inflection, derivation, idiom, construction, number]}\n",
    )
    local = run(config, tmp_path / "local", tmp_path / "cache-local")
    before = scoring_tasks(scheduler)
    dask = run(config, tmp_path / "dask", tmp_path / "cache-dask", "--engine", "dask", "--scheduler", scheduler)
    assert_same_reports(local, dask, tmp_path / "local", tmp_path / "dask")
    assert f"ktr: dask: {scheduler}" in dask.stderr
    assert scoring_tasks(scheduler) - before == 2 * 16  # each variant's 1,000 lines in tasks of 64, on the cluster


def scoring_tasks(scheduler: str) -> int:
    """Tasks of ktr's units of work (keys ktr-unit-...) the scheduler has run to the end."""
    with distributed.Client(scheduler) as client:
        return client.run_on_scheduler(
            lambda dask_scheduler: (
                dask_scheduler.task_prefixes["ktr-unit"].state_counts["forgotten"]
                if "ktr-unit" in dask_scheduler.task_prefixes
                else 0
            )
        )

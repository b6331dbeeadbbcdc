"""The Dask engine gives what the local engine gives: the same JSON (but for its engine field),
the same keywords, the same errors. Every test runs on a real LocalCluster of 2 worker
processes, started once for the module (tests of a cluster started by ktr itself aside)."""

from __future__ import annotations

import json

import pytest

from ktr import Config, Scorer
from ktr.errors import InputError, KtrError
from ktr.execution import dask_engine
from ktr.execution.engines import Engine
from ktr.execution.ranges import index_file
from ktr.scoring.scorer import RunOptions
from tests.cli.test_main import assert_clean_error, ktr

distributed = pytest.importorskip("distributed")
# slow: a Dask cluster of worker processes
pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::ktr.errors.InputWarning")]

#: source lines with what makes warnings and odd lines: a control character, a blank line, a
#: line only of punctuation, numbers, a name, an idiom
LINES = [
    ("클린턴 대통령은 2천 명을 만났다.", "President Clinton met 2,000 people."),
    ("백화점에서 가방을 샀어요.\x07", "I bought a bag at the department store."),
    ("", ""),
    ("...", "..."),
    ("서울역까지 걸어서 30분 걸립니다.", "It takes 30 minutes on foot to Seoul Station."),
    ("그는 손이 크다.", "He is generous."),
    ("내일 아침 일찍 출발합시다.", "Let's leave early tomorrow morning."),
    ("방이 너무 추워서 잠을 못 잤다.", ""),
]


def written(tmp_path, copies: int = 40, lines=LINES):
    """``lines`` (those above), ``copies`` times, each copy numbered: a source, a system, a reference."""
    n = len(lines)
    rows = [
        (ko + (f" {i // n}" if ko else ""), en + (f" {i // n}" if en else ""))
        for i in range(copies * n)
        for ko, en in [lines[i % n]]
    ]
    src, hyp, ref = tmp_path / "src.ko", tmp_path / "mt.en", tmp_path / "ref.en"
    src.write_text("".join(ko + "\n" for ko, _ in rows), encoding="utf-8")
    hyp.write_text("".join(en + "\n" for _, en in rows), encoding="utf-8")
    ref.write_text("".join(en.upper() + "\n" for _, en in rows), encoding="utf-8")
    return src, hyp, ref


def without_engine(stdout: str, scheduler: str | None) -> str:
    """A Dask run's JSON with its engine field checked and taken out, printed as ktr prints it."""
    doc = json.loads(stdout)
    assert doc.pop("engine") == {"name": "dask", "scheduler": scheduler, "workers": None if scheduler else 2}
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"


def assert_same_run(local, dask, scheduler):
    assert (local.returncode, dask.returncode) in ((0, 0), (3, 3)), dask.stderr
    assert without_engine(dask.stdout, scheduler) == local.stdout
    warned = [line for line in dask.stderr.splitlines() if "warning" in line]
    assert warned == [line for line in local.stderr.splitlines() if "warning" in line]


@pytest.mark.shared_data
@pytest.mark.parametrize("analyzer", ["kiwi", "mecab"])
def test_news_dev_scores_as_on_one_machine(shared_data, scheduler, analyzer):
    args = [
        "score",
        "-s",
        shared_data / "news-dev.ko",
        "-t",
        shared_data / "news-dev.en",
        "-r",
        shared_data / "news-dev.en",
        "-a",
        analyzer,
        "-f",
        "json",
        "--sentences",
    ]
    local = ktr(*args)
    dask = ktr(*args, "--engine", "dask", "--scheduler", scheduler)
    assert_same_run(local, dask, scheduler)
    assert len(json.loads(local.stdout)["systems"][0]["segments"]) == 1000
    assert f"dask: {scheduler}; dashboard http" in dask.stderr


@pytest.mark.shared_data
def test_news_dev_keywords_as_on_one_machine(shared_data, scheduler):
    local = ktr("keywords", "-s", shared_data / "news-dev.ko", "-a", "mecab")
    dask = ktr(
        "keywords", "-s", shared_data / "news-dev.ko", "-a", "mecab", "--engine", "dask", "--scheduler", scheduler
    )
    assert (local.returncode, dask.returncode) == (0, 0), dask.stderr
    assert dask.stdout == local.stdout and len(local.stdout.splitlines()) == 1000


def test_written_lines_score_as_on_one_machine_on_a_cluster_ktr_starts(tmp_path):
    src, hyp, ref = written(tmp_path)
    args = ["score", "-s", src, "-t", hyp, "-r", ref, "-f", "json", "--sentences"]
    local = ktr(*args)
    dask = ktr(*args, "--engine", "dask", "--workers", "2")
    assert_same_run(local, dask, None)
    assert "a local cluster of 2 worker processes" in dask.stderr
    assert "20 more warnings not shown" in local.stderr  # 40 lines with a control character


def test_keywords_and_standard_input_as_on_one_machine(tmp_path, scheduler):
    src, hyp, ref = written(tmp_path, copies=10)
    local = ktr("keywords", "-s", src)
    dask = ktr("keywords", "-s", src, "--engine", "dask", "--scheduler", scheduler)
    assert (local.returncode, dask.returncode) == (0, 0) and dask.stdout == local.stdout
    assert dask.stderr.count("warning") == local.stderr.count("warning") == 10
    assert f"ktr: dask: {scheduler}; dashboard " in dask.stderr  # it did run on the cluster
    # the hypotheses on standard input: sent to the workers, not read by them
    import subprocess
    import sys

    cmd = [sys.executable, "-m", "ktr.cli", "score", "-s", str(src), "-r", str(ref), "-f", "json"]
    runs = [
        subprocess.run(cmd + extra, input=hyp.read_text(encoding="utf-8"), capture_output=True, text=True)
        for extra in ([], ["--engine", "dask", "--scheduler", scheduler])
    ]
    assert_same_run(*runs, scheduler)


def test_python_api_on_a_cluster_gives_the_local_report(scheduler):
    sources = [ko for ko, _ in LINES] * 5
    systems = {"a": [en for _, en in LINES] * 5, "b": [en.lower() for _, en in LINES] * 5}
    references = [[en.upper() for _, en in LINES] * 5]
    local = Scorer(Config()).score(sources, systems, references, options=RunOptions(statistics=True))
    dask = Scorer(Config(), engine=Engine("dask", scheduler=scheduler)).score(
        sources, systems, references, options=RunOptions(statistics=True)
    )
    assert json.dumps(dask.to_dict(sentences=True)) == json.dumps(local.to_dict(sentences=True))
    for name in systems:
        for metric in ("bleu", "chrf"):  # each sentence's statistics, for a bootstrap
            assert dask.references.statistics(name, metric) == local.references.statistics(name, metric)


def test_bad_input_is_refused_before_the_cluster_starts(tmp_path, scheduler):
    src, hyp, _ = written(tmp_path, copies=2)
    bad = tmp_path / "bad.en"
    bad.write_bytes(hyp.read_bytes().replace(b"Seoul", b"Se\xffoul", 1))
    short = tmp_path / "short.en"
    short.write_text("one line\n", encoding="utf-8")
    for target, fragment in (
        (bad, f"{bad}:5: invalid UTF-8 at byte 33 of the line (byte 0xff)"),
        (short, f"line counts differ: {src} has 16 lines, {short} has 1"),
        (tmp_path / "none.en", f"{tmp_path / 'none.en'}: no such file"),
    ):
        local = ktr("score", "-s", src, "-t", target)
        dask = ktr("score", "-s", src, "-t", target, "--engine", "dask", "--scheduler", scheduler)
        assert_clean_error(local, fragment)
        assert_clean_error(dask, fragment)
        assert dask.stderr == local.stderr


def test_a_line_bad_on_a_worker_is_reported_with_its_file_and_line(tmp_path, scheduler):
    """A file that changed after it was checked: the worker that reads it names file:line."""
    src, hyp, _ = written(tmp_path, copies=20)
    checked = index_file(str(hyp), allow_empty=True)
    data = hyp.read_bytes()
    at = len(data) - 30
    hyp.write_bytes(data[:at] + b"\xff" + data[at + 1 :])  # the same length, a bad byte near the end
    line, byte = data[:at].count(b"\n") + 1, at - (data.rindex(b"\n", 0, at) + 1)
    assert line > 100  # not in the first task
    scorer = Scorer(Config(), engine=Engine("dask", scheduler=scheduler))
    with pytest.raises(InputError, match=rf"^{hyp}:{line}: invalid UTF-8 at byte {byte} of the line \(byte 0xff\)$"):
        scorer.score_files(index_file(str(src)), {"mt": checked})


def test_engine_options_are_checked(tmp_path):
    src, hyp, _ = written(tmp_path, copies=1)
    assert_clean_error(
        ktr("score", "-s", src, "-t", hyp, "--scheduler", "tcp://127.0.0.1:8786"), "options of the dask engine"
    )
    assert_clean_error(
        ktr("score", "-s", src, "-t", hyp, "--engine", "dask", "--jobs", "2"), "a cluster's are its workers"
    )
    assert_clean_error(
        ktr("score", "-s", src, "-t", hyp, "--engine", "dask", "--workers", "0"),
        "workers must be a whole number of at least 1",
    )
    assert_clean_error(
        ktr("score", "-s", src, "-t", hyp, "--engine", "dask", "--resume"), "resume continues from the shards"
    )
    assert ktr("score", "-s", src, "-t", hyp, "--engine", "spark").returncode == 2


def test_an_unreachable_scheduler_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setattr(dask_engine, "CONNECT_TIMEOUT", 2)
    scorer = Scorer(Config(), engine=Engine("dask", scheduler="tcp://127.0.0.1:9"))
    with pytest.raises(KtrError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        scorer.score(["사과를 먹었다."], ["I ate an apple."])


def test_an_experiment_analysed_on_a_cluster_reports_what_it_reports_locally(tmp_path, scheduler, demo_run):
    import os
    import subprocess
    import sys

    from tests.conftest import ROOT

    local_folder, local = demo_run
    assert local.returncode == 0, local.stderr
    out = tmp_path / "report"
    # a cache folder of its own: no analysis stored by the local run, so the workers analyse
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "KTR_CACHE_DIR": str(tmp_path / "cache")}
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "ktr.cli",
            "run",
            "configs/demo.yaml",
            "-o",
            str(out),
            "-q",
            "--engine",
            "dask",
            "--scheduler",
            scheduler,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
    )
    assert run.returncode == 0, run.stderr
    assert f"dask: {scheduler}" in run.stderr
    assert (out / "results.json").read_text(encoding="utf-8") == (local_folder / "results.json").read_text(
        encoding="utf-8"
    )
    assert (out / "segments.tsv").read_text(encoding="utf-8") == (local_folder / "segments.tsv").read_text(
        encoding="utf-8"
    )
    assert list((tmp_path / "cache" / "analyses").iterdir())  # the workers' analyses, stored here


def test_the_dashboard_announced_shows_its_pages(scheduler):
    """The dask extra installs bokeh, so the address printed leads to the dashboard's pages
    (without bokeh the scheduler answers there with a page saying bokeh is missing)."""
    from urllib.request import urlopen

    told: list[str] = []
    engine = Engine("dask", scheduler=scheduler, announce=told.append)
    with dask_engine.connect(engine) as client:
        dask_engine._announce(client, engine)
    assert told and told[0].startswith(f"dask: {scheduler}; dashboard http://")
    with urlopen(told[0].split("dashboard ")[1], timeout=60) as page:
        assert page.status == 200 and b"bokeh" in page.read().lower()

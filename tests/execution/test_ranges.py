"""``s3://`` inputs over the S3 protocol. moto's S3 server, on a free port of localhost, stands
in for the remote service; everything else runs as it would against AWS: ``ktr score`` in its
own process, s3fs in it and in every Dask worker (pointed at the server by fsspec's environment
variables, as a user points it at an S3-compatible store), the checks and the line ranges. Each
run on S3 is compared with a run on local copies of the same files."""

from __future__ import annotations

import json
import logging
import subprocess
from pathlib import Path

import pytest

from ktr.execution.ranges import task_lines
from ktr.sample import paths as sample_paths
from ktr.textio import read_lines
from tests.cli.test_main import assert_clean_error, ktr
from tests.execution.test_dask_engine import assert_same_run

s3fs = pytest.importorskip("s3fs")
moto_server = pytest.importorskip("moto.server")
pytest.importorskip("distributed")
# slow: moto's S3 server and ktr in subprocesses
pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::ktr.errors.InputWarning")]

BUCKET = "ktr-test"
#: copies of the sample's 20 lines: 2,000 lines, cut into 32 tasks of 64 lines
COPIES = 100
#: a control character: a warning, which names the file and the line
BELL = "\x07"
FILES = {
    "source": "travel.ko",
    "fluent": "travel.fluent.en",
    "wordsalad": "travel.wordsalad.en",
    "reference": "travel.ref.en",
}


@pytest.fixture(scope="module")
def s3(tmp_path_factory):
    """A bucket on the server, as an s3fs file system; ``ktr`` processes (and the workers of the
    clusters they start) find the server through the environment set here."""
    server = moto_server.ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    none = tmp_path_factory.mktemp("aws") / "none"  # no AWS configuration of the machine's
    with pytest.MonkeyPatch.context() as env:
        env.setenv("FSSPEC_S3_ENDPOINT_URL", endpoint)  # fsspec's configuration: s3fs's endpoint_url
        env.setenv("AWS_ACCESS_KEY_ID", "testing")
        env.setenv("AWS_SECRET_ACCESS_KEY", "testing")
        env.setenv("AWS_DEFAULT_REGION", "us-east-1")
        env.setenv("AWS_CONFIG_FILE", str(none))
        env.setenv("AWS_SHARED_CREDENTIALS_FILE", str(none))
        env.delenv("AWS_PROFILE", raising=False)
        # this process read fsspec's configuration when it first imported fsspec: told here
        fs = s3fs.S3FileSystem(endpoint_url=endpoint, key="testing", secret="testing")
        fs.mkdir(BUCKET)
        yield fs
    server.stop()


def corpus(folder: Path) -> dict[str, Path]:
    """The sample's source, two systems and reference, ``COPIES`` times with each copy numbered,
    written to ``folder``; each copy's first source line has a control character (a warning,
    which names the file and the line)."""
    sample = sample_paths()
    lines = {key: read_lines(sample[key]) for key in FILES}
    out = {}
    for key, name in FILES.items():
        text = "".join(
            f"{line}{BELL if key == 'source' and i == 0 else ''} {copy}\n"
            for copy in range(COPIES)
            for i, line in enumerate(lines[key])
        )
        out[key] = folder / name
        out[key].write_text(text, encoding="utf-8")
    return out


def upload(s3, local: dict[str, Path], folder: str) -> dict[str, str]:
    """``local``'s files put into ``folder`` of the bucket: their s3:// URLs."""
    urls = {}
    for key, path in local.items():
        s3.put_file(str(path), f"{BUCKET}/{folder}/{path.name}")
        urls[key] = f"s3://{BUCKET}/{folder}/{path.name}"
    return urls


def as_if_on_s3(proc, folder: Path, prefix: str):
    """A run on local copies in ``folder`` with their paths named as on S3 (under ``prefix``)."""
    out, err = (text.replace(str(folder), prefix) for text in (proc.stdout, proc.stderr))
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def score_args(files: dict[str, str] | dict[str, Path]) -> list:
    return [
        "score",
        "-s",
        files["source"],
        "-t",
        files["fluent"],
        files["wordsalad"],
        "-r",
        files["reference"],
        "-f",
        "json",
        "--sentences",
    ]


def test_files_on_s3_score_on_a_cluster_as_local_copies_on_one_machine(s3, tmp_path, caplog):
    local = corpus(tmp_path)
    urls = upload(s3, local, "plain")
    lines = COPIES * 20
    tasks = -(-lines // task_lines(lines))
    assert tasks == 32  # tasks of 64 lines: each worker reads many ranges
    caplog.set_level(logging.INFO, logger="werkzeug")  # the server's log of the requests it answered
    here = ktr(*score_args(local), "--engine", "local")
    there = ktr(*score_args(urls), "--engine", "dask", "--workers", "2")
    assert_same_run(as_if_on_s3(here, tmp_path, f"s3://{BUCKET}/plain"), there, None)
    assert "a local cluster of 2 worker processes" in there.stderr
    assert f"warning: {urls['source']}:1: cleaned" in there.stderr
    doc = json.loads(there.stdout)
    assert [len(system["segments"]) for system in doc["systems"]] == [lines, lines]
    # each file read from the server: once by the client's check, then by each task's worker its
    # range of bytes (one request each)
    for name in FILES.values():
        fetched = [r for r in caplog.records if f"GET /{BUCKET}/plain/{name} HTTP" in r.getMessage()]
        assert len(fetched) == 1 + tasks, name
    # the local engine on the URLs prints what it prints on the local copies
    on_s3 = ktr(*score_args(urls), "--engine", "local")
    expected = as_if_on_s3(here, tmp_path, f"s3://{BUCKET}/plain")
    assert (on_s3.returncode, on_s3.stdout, on_s3.stderr) == (0, expected.stdout, expected.stderr)


def test_a_parquet_table_on_s3_scores_as_its_local_copy(s3, tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    columns = {key: read_lines(path) for key, path in corpus(tmp_path).items()}
    table = tmp_path / "pairs.parquet"
    pq.write_table(pa.table(columns), table, row_group_size=500)
    url = upload(s3, {"table": table}, "table")["table"]

    def args(name):
        return [
            "score",
            "-s",
            name,
            "--source-column",
            "source",
            "--system-column",
            "fluent",
            "wordsalad",
            "--reference-column",
            "reference",
            "-f",
            "json",
            "--sentences",
        ]

    here = as_if_on_s3(ktr(*args(table), "--engine", "local"), tmp_path, f"s3://{BUCKET}/table")
    assert here.returncode == 0, here.stderr
    assert f"warning: {url}:1: cleaned" in here.stderr
    local_engine = ktr(*args(url), "--engine", "local")
    assert (local_engine.returncode, local_engine.stdout, local_engine.stderr) == (0, here.stdout, here.stderr)
    assert_same_run(here, ktr(*args(url), "--engine", "dask", "--workers", "2"), None)


def test_bad_input_on_s3_is_refused_with_its_url_and_line(s3, tmp_path):
    local = corpus(tmp_path)
    data = local["fluent"].read_bytes()
    at = data.index(b"\n", len(data) // 2) + 1
    line = data[:at].count(b"\n") + 1
    (tmp_path / "bad.en").write_bytes(data[:at] + b"\xff" + data[at + 1 :])
    (tmp_path / "short.en").write_text("one line\n", encoding="utf-8")
    local.update(bad=tmp_path / "bad.en", short=tmp_path / "short.en")
    urls = upload(s3, local, "bad")
    missing = f"s3://{BUCKET}/bad/none.en"
    for target, fragment in (
        ("bad", f"{urls['bad']}:{line}: invalid UTF-8 at byte 0 of the line (byte 0xff)"),
        ("short", f"line counts differ: {urls['source']} has 2000 lines, {urls['short']} has 1"),
    ):
        run = ktr("score", "-s", urls["source"], "-t", urls[target], "--engine", "dask", "--workers", "2")
        assert_clean_error(run, fragment)
        assert "local cluster" not in run.stderr  # refused before the cluster starts
        here = ktr("score", "-s", local["source"], "-t", local[target], "--engine", "local")
        assert run.stderr == as_if_on_s3(here, tmp_path, f"s3://{BUCKET}/bad").stderr
    assert_clean_error(
        ktr("score", "-s", urls["source"], "-t", missing, "--engine", "dask", "--workers", "2"),
        f"{missing}: cannot read",
    )
    # the local engine reads URLs too, with the same checks
    run = ktr("score", "-s", urls["source"], "-t", urls["bad"])
    assert_clean_error(run, f"{urls['bad']}:{line}: invalid UTF-8 at byte 0 of the line (byte 0xff)")


def test_a_store_that_cannot_be_reached_is_a_clear_error(tmp_path, monkeypatch):
    # nothing listens on port 9 of localhost: s3fs's client raises its own connection error (no
    # OSError), which ktr reports as it reports a file it cannot read
    monkeypatch.setenv("FSSPEC_S3_ENDPOINT_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_MAX_ATTEMPTS", "1")  # no retries: the error at once
    source, table = f"s3://{BUCKET}/away/travel.ko", f"s3://{BUCKET}/away/pairs.parquet"
    run = ktr("score", "-s", source, "-t", f"s3://{BUCKET}/away/travel.fluent.en", "--engine", "dask")
    assert_clean_error(run, f"{source}: cannot read")
    assert "local cluster" not in run.stderr
    run = ktr("score", "-s", table, "--source-column", "source", "--system-column", "fluent")
    assert_clean_error(run, f"{table}: cannot read")

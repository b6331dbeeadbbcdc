"""Tracebacks left by the first hardening pass, now one line each (docs/input-handling.md, "Configs,
the cache and the files ktr writes"): a ``timeout`` past what the system can wait for, a
scheduler address Dask cannot read, YAML nested thousands of levels deep, an absurd number of
workers, a hub model that cannot be loaded; and error lines of bounded length, whatever they
quote. Each runs ``ktr`` in this process, but the hub model's (the hub's client reads its
environment when imported)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.cli.test_commands import ktr
from tests.conftest import write


@pytest.fixture
def pair(tmp_path):
    return write(tmp_path / "src.ko", "학생이 책을 읽었다.\n"), write(tmp_path / "out.en", "The student read a book.\n")


@pytest.mark.slow  # the analyzer in a child process
def test_a_timeout_past_what_the_system_waits_for_is_waited_a_week_at_most(capsys, pair, tmp_path):
    """Before: OverflowError (the system's poll counts milliseconds in a C int)."""
    src, hyp = pair
    cfg = write(tmp_path / "c.yaml", "timeout: 1.0e+300\nmatching: [exact]\n")
    plain = write(tmp_path / "plain.yaml", "matching: [exact]\n")
    code, out, err = ktr(capsys, "score", "-s", src, "-t", hyp, "-c", cfg, "-f", "json")
    _, usual, _ = ktr(capsys, "score", "-s", src, "-t", hyp, "-c", plain, "-f", "json")
    assert (code, err) == (0, "") and out.split('"signature"')[0] == usual.split('"signature"')[0]


@pytest.mark.slow  # Dask imported
@pytest.mark.parametrize(
    "address, why",
    [
        ("inproc://x", "not enough values to unpack (expected 3, got 1)"),
        ("garbage::!", "invalid address 'garbage::!'; maybe: ipv6 needs brackets like [::1]"),
    ],
)
def test_a_scheduler_address_dask_cannot_read_is_one_line(capsys, pair, address, why):
    """Before: ValueError's traceback."""
    pytest.importorskip("distributed")
    src, hyp = pair
    code, out, err = ktr(capsys, "score", "-s", src, "-t", hyp, "--engine", "dask", "--scheduler", address)
    message = f"{address}: not a Dask scheduler's address ({why}): give tcp://host:8786"
    assert (code, out, err) == (1, "", f"ktr: error: {message}\n")


@pytest.mark.parametrize(
    "text, line",
    [
        ("matching: " + "[" * 5000 + "]" * 5000 + "\n", 1),  # flow style
        ("a:\n" + "".join("  " * i + "-\n" for i in range(5000)), 101),  # block style
    ],
)
def test_yaml_nested_past_the_bound_is_one_line(capsys, pair, tmp_path, text, line):
    """Before: RecursionError's traceback (PyYAML composes a level of nesting by a call)."""
    src, hyp = pair
    cfg = write(tmp_path / "deep.yaml", text)
    code, out, err = ktr(capsys, "score", "-s", src, "-t", hyp, "-c", cfg)
    assert (code, out, err) == (1, "", f"ktr: error: {cfg}:{line}: nested more than 100 levels deep\n")
    shallow = write(tmp_path / "shallow.yaml", "a:\n" + "".join("  " * i + "-\n" for i in range(97)))
    code, _, err = ktr(capsys, "score", "-s", src, "-t", hyp, "-c", shallow)
    assert code == 1 and "shallow.yaml: unknown key 'a'" in err  # read, then refused for what it says


def test_an_absurd_number_of_workers_is_a_usage_error(capsys, pair):
    """Before: LocalCluster built its workers' description until memory ran out."""
    src, hyp = pair
    code, out, err = ktr(capsys, "score", "-s", src, "-t", hyp, "--engine", "dask", "--workers", str(10**20))
    message = f"--workers must be at most 256 (processes of a local cluster), got {10**20}"
    assert (code, out, err) == (2, "", f"ktr: error: {message}\n")
    from ktr.errors import ConfigError
    from ktr.execution.options import Engine

    with pytest.raises(ConfigError, match="workers must be at most 256, got 257"):
        Engine("dask", workers=257)


@pytest.mark.slow  # model2vec and the hub's client imported in a child process
def test_a_hub_model_that_cannot_be_loaded_is_one_line(pair, tmp_path):
    """Before: three chained tracebacks (the hub's offline error, a missing snapshot, model2vec's)."""
    pytest.importorskip("model2vec")
    src, _ = pair
    hyp = write(tmp_path / "reworded.en", "The scholar read a book.\n")  # 학생 missed: the semantic stage asks
    cfg = write(tmp_path / "hub.yaml", "matching: [exact, semantic]\nembedder: model2vec:org/no-such-model\n")
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_HOME": str(tmp_path / "hf"), "KTR_CACHE_DIR": str(tmp_path / "c")}
    done = subprocess.run(
        [sys.executable, "-m", "ktr", "score", "-s", src, "-t", hyp, "-c", cfg],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith("ktr: error: embedder model2vec:org/no-such-model: the model cannot be loaded: ")


def test_an_error_line_quotes_a_bounded_part_of_a_value(capsys, pair, tmp_path):
    """Before: a 10 MB analyzer name printed a 10 MB line; a bad lexicon line was printed whole."""
    src, hyp = pair
    cfg = write(tmp_path / "big.yaml", "analyzer: " + "x" * 10_000_000 + "\n")
    code, _, err = ktr(capsys, "score", "-s", src, "-t", hyp, "-c", cfg)
    assert code == 1 and err.count("\n") == 1 and len(err) < 1020
    assert err.startswith("ktr: error: unknown analyzer 'xxx") and "…[9,999,277 characters]…" in err
    assert err.endswith("'; choose one of: hannanum, kiwi, kkma, komoran, mecab, okt\n")
    lexicon = write(tmp_path / "bad.tsv", "사과\tnoun\tapple\n" + "가" * 100_000 + "\n")
    cfg = write(tmp_path / "lex.yaml", f"lexicons: [{lexicon}]\n")
    code, _, err = ktr(capsys, "score", "-s", src, "-t", hyp, "-c", cfg)
    assert code == 1 and err.count("\n") == 1 and len(err) < 250, err
    assert f"{lexicon}:2: expected 3 tab-separated columns" in err
    from ktr.controls import bounded

    assert bounded("a" * 1000) == "a" * 1000
    assert bounded("a" * 400 + "b" * 201 + "c" * 400) == "a" * 400 + "…[201 characters]…" + "c" * 400

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
import subprocess
import sys

import pytest

from ktr.errors import ConfigError
from ktr.sample import paths as sample_paths
from ktr.scoring.significance import Resampling, bootstrap, mean_statistic
from tests.conftest import ROOT
from tests.test_cli import assert_clean_error
from tests.test_commands import ktr as ktr_here

#: the documented limits
MAX_RESAMPLES = 1_000_000
MAX_LINE_BYTES = 16 * 1024 * 1024
#: address space a bounded run gets: far more than a refusal needs, far less than the machine has
MEMORY = 4 << 30
CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _bounded() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def bounded(*args, timeout: float = 120, stdin=None) -> subprocess.CompletedProcess[str]:
    """``ktr ARGS`` as a subprocess (as tests/test_cli.py runs it), with a time limit and
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
def test_bootstrap_resamples_past_the_limit_are_refused_before_scoring(resamples):
    p = sample_paths()
    proc = bounded(
        "score", "-s", p["source"], "-t", p["fluent"], p["literal"], "--paired-bs", "--bootstrap-resamples", resamples
    )
    error_line(proc, f"--bootstrap-resamples must be at most {MAX_RESAMPLES}, got {resamples}")


def test_resampling_is_limited_in_the_library_too():
    assert Resampling(MAX_RESAMPLES).resamples == MAX_RESAMPLES
    for resamples in (MAX_RESAMPLES + 1, 0):
        with pytest.raises(ConfigError) as caught:
            Resampling(resamples)
        assert str(caught.value) == f"resamples must be from 1 to {MAX_RESAMPLES}, got {resamples}"
    with pytest.raises(ConfigError) as caught:
        bootstrap([mean_statistic([1.0, 0.5])], 2, resamples=10**9)
    assert str(caught.value) == f"resamples must be from 1 to {MAX_RESAMPLES}, got {10**9}"


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
def test_a_character_device_is_refused_by_every_command(command, texts):
    args = [a.format(bad="/dev/zero", **texts) for a in COMMANDS[command]]
    error_line(
        bounded(*args, timeout=60),
        "/dev/zero: is a character device, expected a regular file (or - for standard input)",
    )


def test_a_named_pipe_is_refused_without_waiting_for_a_writer(tmp_path, texts):
    fifo = tmp_path / "source.ko"
    os.mkfifo(fifo)
    error_line(
        bounded("score", "-s", fifo, "-t", texts["hyp"], timeout=60),
        f"{fifo}: is a pipe, expected a regular file (or - for standard input)",
    )


def test_endless_standard_input_is_refused_at_the_line_limit(texts):
    with open("/dev/zero", "rb") as zeros:
        proc = bounded("score", "-s", texts["src"], "-t", "-", stdin=zeros, timeout=60)
    error_line(proc, f"-:1: a line longer than {MAX_LINE_BYTES} bytes: expected one sentence per line")


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

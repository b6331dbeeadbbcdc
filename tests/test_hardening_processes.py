"""Limits and stops, run as a user runs them: bootstrap resamples past the limit, inputs that never
end (a device, a pipe, an endless standard input), ``--jobs`` past the machine's cores, and a run
stopped by SIGTERM, SIGHUP, Ctrl-C or SIGKILL, after which no process it started may be left
(docs/input-handling.md, "Limits, signals and worker processes").

The runs that a broken limit would let go on for hours or eat the machine's memory run as
subprocesses with a time limit and a cap on their address space, so that such a break fails the
test instead of the machine.
"""

from __future__ import annotations

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

"""Shared fixtures: real analyzers, built once per test session."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from ktr.korean.analyzers import get_analyzer

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
SHARED = ROOT.parent / "shared" / "data"

_analyzers: dict[tuple[str, int], object] = {}


def analyzer(name: str):
    """The analyzer ``name``, built once per process: a process forked after Kiwi has analysed
    (as mutmut forks one per mutant, scripts/mutation.py) would wait forever on the parent's Kiwi,
    whose worker threads it does not have, so it builds its own."""
    key = (name, os.getpid())
    if key not in _analyzers:
        _analyzers[key] = get_analyzer(name)
    return _analyzers[key]


@pytest.fixture(scope="session")
def kiwi():
    return analyzer("kiwi")


@pytest.fixture(scope="session")
def hannanum():
    return analyzer("hannanum")


@pytest.fixture
def shared_data() -> Path:
    if not (SHARED / "news-dev.ko").is_file():
        pytest.skip(f"needs the optional shared parallel data: not found at {SHARED}")
    return SHARED


requires_java = pytest.mark.skipif(
    shutil.which("java") is None,
    reason="needs Java (KoNLPy's backends): not installed; .ci/run installs "
    "Debian's default-jre-headless when run as root",
)


@pytest.fixture(scope="session")
def demo_run(tmp_path_factory) -> tuple[Path, object]:
    """``ktr run configs/demo.yaml -q`` once per test run, as a user runs it: (output folder, process)."""
    import os
    import subprocess
    import sys

    out = tmp_path_factory.mktemp("demo") / "report"
    proc = subprocess.run(
        [sys.executable, "-m", "ktr.cli", "run", "configs/demo.yaml", "-o", str(out), "-q"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    return out, proc

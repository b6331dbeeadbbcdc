"""Shared fixtures and helpers: real analyzers and a default scorer, built once per test session;
a Dask cluster per module; the suite's own cache folder."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from ktr import Config, Scorer
from ktr.errors import BackendUnavailable
from ktr.korean.analyzers import get_analyzer

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
SHARED = ROOT.parent / "shared" / "data"

#: set it to keep the suite's cache between runs (``scripts/mutation.py`` does); unset, each run
#: fills a folder of its own under pytest's base temporary folder
SUITE_CACHE = "KTR_TEST_CACHE_DIR"

_analyzers: dict[tuple[str, int], object] = {}
#: KTR_CACHE_DIR (and the Hugging Face caches) as they were before the suite set them
_before: dict[str, str | None] = {}


#: Hugging Face evaluate's and datasets' caches of modules and metric data (``evaluate.load`` copies
#: a metric module there): the run's own folders too, never the user's ``~/.cache/huggingface``
HF_CACHES = ("HF_MODULES_CACHE", "HF_METRICS_CACHE", "HF_EVALUATE_CACHE")


@pytest.hookimpl(trylast=True)  # after pytest's own configure, which makes the base temporary folder
def pytest_configure(config):
    """ktr's cache (``$KTR_CACHE_DIR``, by default ``~/.cache/ktr``) is the run's own folder, set
    before any test is collected, so every test and every ``ktr`` a test starts (they inherit the
    environment) reads and writes there and never in the user's cache. Tests that need an empty
    cache still point ``KTR_CACHE_DIR`` at a ``tmp_path`` of their own. So are the Hugging Face
    caches of :data:`HF_CACHES`, unless the caller set them."""
    folder = os.environ.get(SUITE_CACHE) or str(suite_base(config) / "ktr-cache")
    _before["KTR_CACHE_DIR"] = os.environ.get("KTR_CACHE_DIR")
    os.environ["KTR_CACHE_DIR"] = str(Path(folder).resolve())
    for name in HF_CACHES:
        if name not in os.environ:
            _before[name] = None
            os.environ[name] = str((suite_base(config) / "hf" / name.lower()).resolve())


def suite_base(config) -> Path:
    """pytest's base temporary folder of the run: with ``-n`` (pytest-xdist), the one above each
    worker's own (``popen-gw0``...), so that the workers share one cache folder and build each
    table once (writes there are atomic: a file is written under another name, then renamed)."""
    base = Path(config._tmp_path_factory.getbasetemp())
    return base.parent if hasattr(config, "workerinput") else base


def pytest_unconfigure(config):
    """The environment as it was (for a caller that runs pytest in its own process)."""
    for name in ("KTR_CACHE_DIR", *HF_CACHES):
        if name in _before:
            before = _before.pop(name)
            if before is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = before


def analyzer(name: str):
    """The analyzer ``name``, built once per process: a process forked after Kiwi has analysed
    (as mutmut forks one per mutant, scripts/mutation.py) would wait forever on the parent's Kiwi,
    whose worker threads it does not have, so it builds its own."""
    key = (name, os.getpid())
    if key not in _analyzers:
        try:
            _analyzers[key] = get_analyzer(name)
        except BackendUnavailable as exc:  # an extra not installed (mecab, konlpy): the test cannot run
            pytest.skip(f"needs the {name} analyzer: {exc}")
    return _analyzers[key]


def installed(module: str) -> bool:
    """Whether ``module`` can be imported (an extra's package: mecab_ko, distributed)."""
    import importlib.util

    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


#: a test that runs mecab-ko through the command line, or a Dask engine: skipped without the extra
requires_mecab = pytest.mark.skipif(
    not installed("mecab_ko"), reason='needs mecab-ko: not installed (pip install "ktr[mecab]")'
)
requires_dask = pytest.mark.skipif(
    not installed("distributed"), reason='needs Dask distributed: not installed (pip install "ktr[dask]")'
)


@pytest.fixture(scope="session")
def kiwi():
    return analyzer("kiwi")


@pytest.fixture(scope="session")
def hannanum():
    return analyzer("hannanum")


@pytest.fixture(scope="session")
def scorer(kiwi):
    """A scorer with the default config on the session's Kiwi, shared by every test that asks for
    it: scoring changes nothing in it. A test file that needs other settings (other matching
    stages, another analyzer) defines a ``scorer`` of its own, which takes the place of this one
    in that file."""
    return Scorer(Config(), analyzer=kiwi)


def write(path: Path, text: str | bytes) -> Path:
    """``text`` written to ``path`` as UTF-8 bytes exactly as given (no newline translation; a lone
    surrogate such as ``\\ud800`` becomes the invalid bytes that encode it), or ``bytes`` as they
    are; its folder made."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))
    return path


def local_cluster():
    """A real Dask LocalCluster of 2 worker processes of one thread each, without a dashboard and
    quiet but for errors (a context manager; ``close()`` stops it)."""
    import logging

    distributed = pytest.importorskip("distributed")
    return distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=logging.ERROR
    )


@pytest.fixture(scope="module")
def scheduler():
    """The address of a LocalCluster started once per test module; its workers keep what they
    built (analyzers, tables) from one test to the next. tests/execution/test_dask_faults.py, whose tests
    kill workers, starts a cluster for each test instead."""
    with local_cluster() as found:
        yield found.scheduler_address


@pytest.fixture
def shared_data() -> Path:
    if not (SHARED / "news-dev.ko").is_file():
        pytest.skip(f"needs the optional shared parallel data: not found at {SHARED}")
    return SHARED


#: how the skip reason of a test that needs Java begins
NEEDS_JAVA = "needs Java (KoNLPy's backends)"

requires_java = pytest.mark.skipif(
    shutil.which("java") is None,
    reason=f"{NEEDS_JAVA}: not installed; .ci/run installs Debian's default-jre-headless when run as root",
)


@pytest.hookimpl(tryfirst=True)  # before ``-m`` selects by marker
def pytest_collection_modifyitems(config, items):
    """A test that needs Java (``requires_java`` or the marker ``jvm``) is also ``slow``: it starts
    the JVM and KoNLPy's backends, seconds each. The other slow tests are marked in their files."""
    for item in items:
        needs_java = item.get_closest_marker("jvm") is not None or any(
            str(mark.kwargs.get("reason", "")).startswith(NEEDS_JAVA) for mark in item.iter_markers("skipif")
        )
        if needs_java:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def demo_run(tmp_path_factory) -> tuple[Path, object]:
    """``ktr run configs/demo.yaml -q`` once per test run, as a user runs it: (output folder, process)."""
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

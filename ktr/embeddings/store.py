"""Vectors kept on disk between runs: one SQLite file per embedder in ktr's cache folder
(``$KTR_CACHE_DIR/embeddings/``), text → vector (float16, the model's dimensions).

SQLite (in Python's standard library) lets several runs read and write the same file at once,
and holds nothing but numbers and text: nothing in it is ever executed. A file that cannot be
opened, read or written (a read-only or full cache folder, a file cut short) is not an error:
the vectors are then computed again, and kept in memory only. A file of another shape (a view or
trigger planted, a table of other columns) is removed and created anew.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path

import numpy as np

from ktr.cache import cache_dir

#: texts looked up per query (SQLite's limit on a query's parameters is 32,766)
BATCH = 500
#: the most bytes a store holds: past it, the oldest quarter of its vectors is dropped for new ones
#: (a vector of the shipped model takes about 1.1 KB: some 200,000 words)
MAX_BYTES = 256 << 20
#: SQLite's steps a query may take before it is stopped (a lookup of 500 texts takes some
#: thousands): a view or trigger planted in the file cannot hang a run
MAX_STEPS = 50_000_000
#: the only things a store file holds, as :meth:`VectorStore._connection` creates them
_SCHEMA = {
    ("table", "vectors", "CREATE TABLE vectors (text TEXT PRIMARY KEY, vector BLOB NOT NULL)"),
    ("index", "sqlite_autoindex_vectors_1", None),
    ("table", "dimensions", "CREATE TABLE dimensions (n INTEGER NOT NULL)"),
}


class VectorStore:
    """A text → vector table in a SQLite file, created readable by its owner only (0600), of at
    most :data:`MAX_BYTES`. Nothing read from it is believed without a check: the file must be a
    regular file holding exactly the table and index ktr creates (no view, no trigger), and a
    vector must be a blob of the store's dimensions of finite numbers; anything else is left out
    and computed again (and written over the bad row)."""

    def __init__(self, path: Path):
        self.path = path
        self._db: sqlite3.Connection | None = None
        self._broken = False
        self._dimensions: int | None = None

    @classmethod
    def for_spec(cls, spec: str) -> VectorStore:
        """The store of the embedder named ``spec``, in ktr's cache folder."""
        digest = hashlib.sha256(spec.encode("utf-8")).hexdigest()[:16]
        return cls(cache_dir() / "embeddings" / f"{digest}.sqlite")

    def _connection(self) -> sqlite3.Connection | None:
        if self._db is None and not self._broken:
            try:
                self._db = self._open()
            except (OSError, sqlite3.Error, ValueError):
                self._db = None
            self._broken = self._db is None
        return self._db

    def _open(self) -> sqlite3.Connection | None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0), 0o600)
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                return None  # a pipe, a device: never opened by SQLite
            if info.st_uid == os.geteuid() and stat.S_IMODE(info.st_mode) & 0o077:
                os.fchmod(fd, 0o600)  # a store of an older ktr was created 0644
        finally:
            os.close(fd)
        db = sqlite3.connect(self.path, timeout=5, check_same_thread=False)
        db.set_progress_handler(_Budget(), 1000)
        db.execute("PRAGMA trusted_schema = OFF")
        with db:  # a store of an older ktr gets its dimensions (and loses its vectors at the first put)
            db.execute("CREATE TABLE IF NOT EXISTS vectors (text TEXT PRIMARY KEY, vector BLOB NOT NULL)")
            db.execute("CREATE TABLE IF NOT EXISTS dimensions (n INTEGER NOT NULL)")
        if set(db.execute("SELECT type, name, sql FROM sqlite_master").fetchall()) != _SCHEMA:
            db.close()
            if not self._replace():
                return None
            return self._open()
        rows = db.execute("SELECT n FROM dimensions").fetchall()
        if len(rows) == 1 and isinstance(rows[0][0], int) and rows[0][0] > 0:
            self._dimensions = rows[0][0]
        return db

    def _replace(self) -> bool:
        """A file of another shape (an older layout, a planted view) removed, to be created anew."""
        try:
            for suffix in ("", "-journal", "-wal", "-shm"):
                name = Path(f"{self.path}{suffix}")
                if name.exists() or name.is_symlink():
                    name.unlink()
        except OSError:
            return False
        return True

    def get(self, texts: Iterable[str]) -> dict[str, np.ndarray]:
        """The vectors stored for ``texts`` (those it has, of the store's dimensions, finite)."""
        db = self._connection()
        found: dict[str, np.ndarray] = {}
        if db is None or self._dimensions is None:
            return found
        wanted = list(texts)
        size = 2 * self._dimensions  # float16
        try:
            for a in range(0, len(wanted), BATCH):
                part = wanted[a : a + BATCH]
                _budget(db)
                query = f"SELECT text, vector FROM vectors WHERE text IN ({','.join('?' * len(part))})"
                for text, blob in db.execute(query, part):
                    if isinstance(text, str) and isinstance(blob, bytes) and len(blob) == size:
                        vector = np.frombuffer(blob, dtype=np.float16).astype(np.float32)
                        if np.isfinite(vector).all():
                            found[text] = vector
        except sqlite3.Error:
            self._broken = True
            return {}
        return found

    def put(self, vectors: Mapping[str, np.ndarray]) -> bool:
        """Keep ``vectors``; whether they are kept (a store that cannot be written is left alone)."""
        db = self._connection()
        if db is None or not vectors:
            return False
        rows = [(text, np.asarray(v, dtype=np.float16).tobytes()) for text, v in vectors.items()]
        dimensions = len(rows[0][1]) // 2
        try:
            _budget(db)
            with db:
                if self._dimensions is None:
                    db.execute("DELETE FROM dimensions")
                    db.execute("DELETE FROM vectors")
                    db.execute("INSERT INTO dimensions VALUES (?)", (dimensions,))
                    self._dimensions = dimensions
                elif dimensions != self._dimensions:
                    return False
                self._bound(db)
                db.executemany("INSERT OR REPLACE INTO vectors (text, vector) VALUES (?, ?)", rows)
        except sqlite3.Error:
            self._broken = True
            return False
        return True

    def _bound(self, db: sqlite3.Connection) -> None:
        """The oldest quarter of the vectors dropped when the file has reached :data:`MAX_BYTES`
        (their pages are reused by the next ones: the file stops growing)."""
        pages, size, free = (
            db.execute(f"PRAGMA {p}").fetchone()[0] for p in ("page_count", "page_size", "freelist_count")
        )
        if (pages - free) * size >= MAX_BYTES:
            count = db.execute("SELECT count(*) FROM vectors").fetchone()[0]
            db.execute(
                "DELETE FROM vectors WHERE rowid IN (SELECT rowid FROM vectors ORDER BY rowid LIMIT ?)",
                (max(1, count // 4),),
            )


class _Budget:
    """SQLite's progress handler: stops a query past :data:`MAX_STEPS` (counted in thousands)."""

    def __init__(self) -> None:
        self.left = MAX_STEPS // 1000

    def __call__(self) -> int:
        self.left -= 1
        return int(self.left < 0)


def _budget(db: sqlite3.Connection) -> None:
    """A new budget for the next query."""
    db.set_progress_handler(_Budget(), 1000)

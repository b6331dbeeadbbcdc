"""Vectors kept on disk between runs: one SQLite file per embedder in ktr's cache folder
(``$KTR_CACHE_DIR/embeddings/``), text → vector (float16, the model's dimensions).

SQLite (in Python's standard library) lets several runs read and write the same file at once,
and holds nothing but numbers and text: nothing in it is ever executed. A file that cannot be
opened, read or written (a read-only or full cache folder, a file cut short) is not an error:
the vectors are then computed again, and kept in memory only.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterable, Mapping
from pathlib import Path

import numpy as np

from ktr.cache import cache_dir

#: texts looked up per query (SQLite's limit on a query's parameters is 32,766)
BATCH = 500


class VectorStore:
    """A text → vector table in a SQLite file."""

    def __init__(self, path: Path):
        self.path = path
        self._db: sqlite3.Connection | None = None
        self._broken = False

    @classmethod
    def for_spec(cls, spec: str) -> VectorStore:
        """The store of the embedder named ``spec``, in ktr's cache folder."""
        digest = hashlib.sha256(spec.encode("utf-8")).hexdigest()[:16]
        return cls(cache_dir() / "embeddings" / f"{digest}.sqlite")

    def _connection(self) -> sqlite3.Connection | None:
        if self._db is None and not self._broken:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(self.path, timeout=30, check_same_thread=False)
                db.execute("CREATE TABLE IF NOT EXISTS vectors (text TEXT PRIMARY KEY, vector BLOB NOT NULL)")
                self._db = db
            except (OSError, sqlite3.Error):
                self._broken = True
        return self._db

    def get(self, texts: Iterable[str]) -> dict[str, np.ndarray]:
        """The vectors stored for ``texts`` (those it has)."""
        db = self._connection()
        found: dict[str, np.ndarray] = {}
        if db is None:
            return found
        wanted = list(texts)
        try:
            for a in range(0, len(wanted), BATCH):
                part = wanted[a : a + BATCH]
                query = f"SELECT text, vector FROM vectors WHERE text IN ({','.join('?' * len(part))})"
                for text, blob in db.execute(query, part):
                    found[text] = np.frombuffer(blob, dtype=np.float16).astype(np.float32)
        except sqlite3.Error:
            self._broken = True
            return {}
        return found

    def put(self, vectors: Mapping[str, np.ndarray]) -> None:
        """Keep ``vectors``; a store that cannot be written is left alone."""
        db = self._connection()
        if db is None or not vectors:
            return
        rows = [(text, np.asarray(v, dtype=np.float16).tobytes()) for text, v in vectors.items()]
        try:
            with db:
                db.executemany("INSERT OR REPLACE INTO vectors (text, vector) VALUES (?, ?)", rows)
        except sqlite3.Error:
            self._broken = True

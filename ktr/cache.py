"""A small on-disk cache for tables compiled from the lexicon and WordNet.

Files live under ``$KTR_CACHE_DIR`` (default ``~/.cache/ktr``), named by a hash of everything
the table depends on, and are written atomically, so concurrent runs never read half a file.
A file that cannot be read (damaged: a run cut short, a full disk) is a miss: the table is
computed again and the file written again. A cache that cannot be written (a read-only or full
folder) only costs time: ktr goes on without it, says so once (:class:`~ktr.errors.CacheWarning`)
and leaves no temporary file behind.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ktr.errors import CacheWarning

_warned = False  # the cache could not be written, and this process has said so
#: a table about to be built (INFO): nothing is shown unless a command asks (``ktr score`` on a terminal)
_log = logging.getLogger("ktr.cache")


def cache_dir() -> Path:
    return Path(os.environ.get("KTR_CACHE_DIR") or Path.home() / ".cache" / "ktr")


def cached_json(kind: str, key: str, compute: Callable[[], Any]) -> Any:
    """The JSON value stored for (kind, key), computing and storing it on the first call."""
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:20]
    path = cache_dir() / f"{kind}-{digest}.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        pass  # absent, or damaged (not JSON, not UTF-8): computed again, and written again
    _log.info("building the %s table (kept in %s)", kind, path.parent)  # a command may show it
    value = compute()
    write_json(path, value, ensure_ascii=False, sort_keys=True)
    return value


def write_json(path: Path, value: Any, **options: Any) -> bool:
    """Write ``value`` as JSON (``options`` as json.dump takes them) into ``path`` atomically: into
    a temporary file beside it, then renamed. Whether it was written; when it cannot be (the
    folder is read-only, the disk full), the temporary file is removed and a warning says so,
    once per process."""
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, encoding="utf-8", suffix=".tmp") as fh:
            tmp = fh.name
            json.dump(value, fh, **options)
        os.replace(tmp, path)
        return True
    except OSError as exc:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        _cannot_write(path.parent, exc)
        return False


def _cannot_write(folder: Path, exc: OSError) -> None:
    cannot_write(folder, str(exc.strerror or exc))


def cannot_write(folder: Path, reason: str) -> None:
    """Say once per process that the cache in ``folder`` cannot be written (``reason``: the
    system's or SQLite's words), and that ktr goes on without it."""
    global _warned
    if _warned:
        return
    _warned = True
    warnings.warn(
        f"cannot write the cache in {folder} ({reason}): going on without it, so what it holds "
        "is built again on every run (KTR_CACHE_DIR names another folder)",
        CacheWarning,
        stacklevel=4,
    )

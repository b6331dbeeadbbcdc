"""A small on-disk cache for tables compiled from the lexicon and WordNet.

Files live under ``$KTR_CACHE_DIR`` (default ``~/.cache/ktr``), named by a hash of everything
the table depends on, and are written atomically, so concurrent runs never read half a file.
A file that cannot be read (damaged: a run cut short, a full disk), or that holds what its table
cannot be (another shape, other types: ``shape`` checks it), or that is not a regular file (a
pipe, a device, a link, which would block or never end) or larger than :data:`MAX_READ`, is a
miss: the table is computed again and the file written again. A cache that cannot be written (a read-only or full
folder) only costs time: ktr goes on without it, says so once (:class:`~ktr.errors.CacheWarning`)
and leaves no temporary file behind.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import stat
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
    """``$KTR_CACHE_DIR``; else ``ktr`` in ``$XDG_CACHE_HOME`` (when it is an absolute path, as the
    XDG base directory specification asks); else ``~/.cache/ktr``."""
    if os.environ.get("KTR_CACHE_DIR"):
        return Path(os.environ["KTR_CACHE_DIR"])
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "ktr"
    return Path.home() / ".cache" / "ktr"


#: the files ktr writes in its cache folder, by kind: (kind, glob pattern); a temporary file
#: left by a process that was killed while writing is ``tmp*.tmp`` (with its ``-journal``)
KINDS = (
    ("lexicons", "lexicon-*.json"),
    ("inflections", "inflection-*.json"),
    ("synonyms", "synonyms-*.json"),
    ("derivations", "derivations-*.json"),
    ("WordNet's relations", "relations-*.sqlite"),
    ("vectors (semantic stage)", "embeddings/*.sqlite*"),
    ("analyses (ktr run)", "analyses/*.json"),
    ("temporary files", "tmp*.tmp*"),
    ("temporary files", "*/tmp*.tmp*"),
)


def cache_files(folder: Path) -> dict[str, list[Path]]:
    """The files of each kind ktr writes that ``folder`` holds (regular files only: nothing else
    there is ktr's)."""
    found: dict[str, list[Path]] = {}
    for kind, pattern in KINDS:
        paths = [p for p in folder.glob(pattern) if p.is_file() and not p.is_symlink()]
        found.setdefault(kind, []).extend(sorted(paths))
    return found


#: the most bytes a cache file is read to (the largest, a lexicon's or a corpus's analyses, hold
#: tens of megabytes)
MAX_READ = 1 << 30


def read_regular(path: Path, limit: int = MAX_READ) -> bytes | None:
    """The bytes of ``path`` when it is a regular file (not a link) of at most ``limit`` bytes,
    else ``None``: a named pipe is opened without waiting for a writer, and neither it nor a
    device (``/dev/zero``) is read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(limit + 1)
        return data if len(data) <= limit else None
    except OSError:
        return None
    finally:
        os.close(fd)


def read_json(path: Path, limit: int = MAX_READ) -> Any:
    """The JSON value in ``path`` (:func:`read_regular`), or :data:`MISSING` when there is none."""
    data = read_regular(path, limit)
    if data is None:
        return MISSING
    try:
        return json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError):
        return MISSING  # damaged: not UTF-8, not JSON, nested past what the parser takes


#: what :func:`read_json` gives for a file it cannot read
MISSING = object()


def cached_json(
    kind: str, key: str, compute: Callable[[], Any], shape: Callable[[Any], bool] = lambda value: True
) -> Any:
    """The JSON value stored for (kind, key), computing and storing it on the first call, and when
    what is stored is not of the ``shape`` ``compute`` gives."""
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:20]
    path = cache_dir() / f"{kind}-{digest}.json"
    value = read_json(path)
    if value is not MISSING and shape(value):
        return value
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
            fh.write(
                json.dumps(value, **options)
            )  # one string: json.dump writes it in many small pieces, three times slower
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

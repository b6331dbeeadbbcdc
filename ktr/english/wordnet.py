"""WordNet access for inflection and synonym expansion: the copy shipped with ktr, never downloaded.

ktr ships WordNet 3.0 as ``nltk_data/corpora/wordnet.zip`` beside this module (NLTK's own layout,
with WordNet's licence), and reads it before anything on NLTK's data path, so an install needs no
other step and a stray WordNet elsewhere changes nothing. ``$KTR_WORDNET`` names another one, a
WordNet folder or NLTK's ``wordnet.zip`` (``python scripts/setup_wordnet.py`` installs one); only
when the shipped copy is missing is NLTK's data path searched.
"""

from __future__ import annotations

import io
import os
import re
import sys
import threading
import warnings
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import IO, Any

from ktr.errors import BackendUnavailable

#: the WordNet shipped with ktr (an NLTK data folder holding corpora/wordnet.zip, and the licence)
SHIPPED_DATA = Path(__file__).resolve().parent / "nltk_data"
SHIPPED = SHIPPED_DATA / "corpora" / "wordnet.zip"
#: names another WordNet: a folder with data.noun ..., or a zip with wordnet/data.noun ...
ENVIRONMENT = "KTR_WORDNET"
_ZIP_FOLDER = "wordnet/"

_lock = threading.Lock()
_readers: dict[Path, Any] = {}


def _nltk_default_path() -> list[str]:
    """NLTK's default ``nltk.data.path`` on POSIX systems, built the same way NLTK builds it."""
    path = [os.path.expanduser(d) for d in os.environ.get("NLTK_DATA", "").split(os.pathsep) if d]
    if "APPENGINE_RUNTIME" not in os.environ and os.path.expanduser("~/") != "~/":
        path.append(os.path.expanduser("~/nltk_data"))
    path += [
        os.path.join(sys.prefix, "nltk_data"),
        os.path.join(sys.prefix, "share", "nltk_data"),
        os.path.join(sys.prefix, "lib", "nltk_data"),
        "/usr/share/nltk_data",
        "/usr/local/share/nltk_data",
        "/usr/lib/nltk_data",
        "/usr/local/lib/nltk_data",
    ]
    return path


def _on_nltk_path() -> Path | None:
    """The WordNet NLTK itself would find (a folder first, then a zip), if any."""
    if "nltk" not in sys.modules and os.name == "posix":
        # importing NLTK takes a third of a second: walk its default path for a folder first
        for folder in _nltk_default_path():
            found = Path(folder) / "corpora" / "wordnet"
            if found.is_dir():
                return found
    import nltk

    for name in ("corpora/wordnet", "corpora/wordnet.zip"):
        try:
            return Path(str(nltk.data.find(name)))
        except LookupError:
            pass
    return None


def wordnet_dir() -> Path:
    """The WordNet ktr reads (a folder or a zip): ``$KTR_WORDNET``, else the shipped copy, else
    NLTK's; BackendUnavailable naming where it looked when there is none."""
    chosen = os.environ.get(ENVIRONMENT)
    if chosen:
        if Path(chosen).exists():
            return Path(chosen)
        raise BackendUnavailable(f"{ENVIRONMENT}={chosen}: no such WordNet folder or zip")
    if SHIPPED.is_file():
        return SHIPPED
    found = _on_nltk_path()
    if found is not None:
        return found
    import nltk

    raise BackendUnavailable(
        f"WordNet is missing: ktr's own copy ({SHIPPED}) is not in this installation (reinstall ktr), "
        "and NLTK's data path has none (looked in: " + ", ".join(map(str, nltk.data.path)) + "). "
        f"Another WordNet can be installed with: python scripts/setup_wordnet.py, and named by {ENVIRONMENT}"
    )


@contextmanager
def open_text(name: str) -> Iterator[IO[str]]:
    """One file of WordNet (``index.noun``, ``verb.exc`` ...), as text, from a folder or a zip."""
    where = wordnet_dir()
    if where.suffix != ".zip":
        with open(where / name, encoding="utf-8", errors="replace") as fh:
            yield fh
        return
    with zipfile.ZipFile(where) as archive, archive.open(_ZIP_FOLDER + name) as raw:
        yield io.TextIOWrapper(raw, encoding="utf-8", errors="replace")


def _size(name: str) -> int:
    where = wordnet_dir()
    if where.suffix != ".zip":
        return (where / name).stat().st_size
    with zipfile.ZipFile(where) as archive:
        return archive.getinfo(_ZIP_FOLDER + name).file_size


@lru_cache(maxsize=1)
def fingerprint() -> str:
    """WordNet's version and data size, read from the files without loading WordNet: the same
    files give the same fingerprint, in a folder or a zip."""
    with open_text("data.adj") as fh:
        header = fh.read(4096)
    match = re.search(r"WordNet (\d+\.\d+) Copyright", header)
    size = sum(_size(f"data.{p}") for p in ("noun", "verb", "adj", "adv"))
    return f"{match.group(1) if match else 'unknown'}-{size}"


def load() -> Any:
    """The WordNet reader (NLTK's), built once under a lock: NLTK's loading is not thread-safe.

    NLTK opens files only below the folders on its data path, so the folder holding the chosen
    WordNet is put first on it."""
    where = wordnet_dir()
    with _lock:
        if where not in _readers:
            import nltk
            from nltk.data import FileSystemPathPointer, ZipFilePathPointer

            if str(where.parent) not in nltk.data.path:
                nltk.data.path.insert(0, str(where.parent))
            zipped = where.suffix == ".zip"
            pointer = ZipFilePathPointer(str(where), _ZIP_FOLDER) if zipped else FileSystemPathPointer(str(where))
            with warnings.catch_warnings():  # "multilingual functions are not available": not used
                warnings.simplefilter("ignore", UserWarning)
                reader = _reader_class()(pointer, None)
            for pos in ("n", "v", "a", "r"):  # opened now, so a later change of NLTK's path cannot
                reader._data_file(pos)  # refuse them (NLTK checks the path at each opening)
            _readers[where] = reader
        return _readers[where]


def _reader_class() -> Any:
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    class Reader(WordNetCorpusReader):  # type: ignore[misc]
        def map_wn(self, version: str = "wordnet") -> None:
            """No map of the senses of NLTK's own 'wordnet' onto this one's: NLTK builds it for the
            multilingual functions, which ktr does not use, by looking 'wordnet' up on its data path
            (reading index.sense twice, and failing when the path has none)."""
            return None

    return Reader

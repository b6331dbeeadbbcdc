"""WordNet access for synonym expansion: found on disk or a clear error, never downloaded here.

Run ``python scripts/setup_wordnet.py`` once to install it (see README, "Install").
"""
from __future__ import annotations

import os
import re
import sys
import threading
from functools import lru_cache
from pathlib import Path

from ktr.errors import BackendUnavailable

_lock = threading.Lock()


def _nltk_default_path() -> list[str]:
    """NLTK's default ``nltk.data.path`` on POSIX systems, built the same way NLTK builds it."""
    path = [os.path.expanduser(d) for d in os.environ.get("NLTK_DATA", "").split(os.pathsep) if d]
    if "APPENGINE_RUNTIME" not in os.environ and os.path.expanduser("~/") != "~/":
        path.append(os.path.expanduser("~/nltk_data"))
    path += [os.path.join(sys.prefix, "nltk_data"), os.path.join(sys.prefix, "share", "nltk_data"),
             os.path.join(sys.prefix, "lib", "nltk_data"), "/usr/share/nltk_data", "/usr/local/share/nltk_data",
             "/usr/lib/nltk_data", "/usr/local/lib/nltk_data"]
    return path


def wordnet_dir() -> Path:
    """The WordNet folder NLTK would read, or BackendUnavailable naming where it looked.

    Scoring needs only the folder (the tables built from WordNet are cached), and importing NLTK
    takes a third of a second: so unless NLTK is already loaded (and its path maybe changed),
    NLTK's default search path is walked here for an unpacked ``corpora/wordnet`` first."""
    if "nltk" not in sys.modules and os.name == "posix":
        for folder in _nltk_default_path():
            found = Path(folder) / "corpora" / "wordnet"
            if found.is_dir():
                return found
    import nltk

    try:
        return Path(str(nltk.data.find("corpora/wordnet")))
    except LookupError:
        try:
            return Path(str(nltk.data.find("corpora/wordnet.zip")))
        except LookupError:
            pass
    raise BackendUnavailable(
        "WordNet (NLTK data 'corpora/wordnet') is not installed; looked in: "
        + ", ".join(nltk.data.path)
        + ". Install it once with: python scripts/setup_wordnet.py "
        "(uses NLTK's downloader, or Debian's wordnet-base and wordnet-sense-index packages)"
    )


@lru_cache(maxsize=1)
def fingerprint() -> str:
    """WordNet's version and data size, read from the files without loading WordNet."""
    folder = wordnet_dir()
    if folder.suffix == ".zip":
        return f"zip-{folder.stat().st_size}"
    header = (folder / "data.adj").read_bytes()[:4096].decode("ascii", "replace")
    match = re.search(r"WordNet (\d+\.\d+) Copyright", header)
    size = sum((folder / f"data.{p}").stat().st_size for p in ("noun", "verb", "adj", "adv"))
    return f"{match.group(1) if match else 'unknown'}-{size}"


def load():
    """The loaded WordNet reader (loaded once, under a lock: NLTK's lazy loader is not thread-safe)."""
    wordnet_dir()
    from nltk.corpus import wordnet as wn

    with _lock:
        wn.ensure_loaded()
    return wn

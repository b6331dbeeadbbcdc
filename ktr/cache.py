"""A small on-disk cache for tables compiled from the lexicon and WordNet.

Files live under ``$KTR_CACHE_DIR`` (default ``~/.cache/ktr``), named by a hash of everything
the table depends on, and are written atomically, so concurrent runs never read half a file.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any


def cache_dir() -> Path:
    return Path(os.environ.get("KTR_CACHE_DIR") or Path.home() / ".cache" / "ktr")


def cached_json(kind: str, key: str, compute: Callable[[], Any]) -> Any:
    """The JSON value stored for (kind, key), computing and storing it on the first call."""
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:20]
    path = cache_dir() / f"{kind}-{digest}.json"
    if path.is_file():
        return json.loads(path.read_text(encoding="utf-8"))
    value = compute()
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, encoding="utf-8", suffix=".tmp") as fh:
        json.dump(value, fh, ensure_ascii=False, sort_keys=True)
    os.replace(fh.name, path)
    return value

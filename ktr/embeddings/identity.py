"""What determines an embedder's vectors, as a short key: the store of vectors is kept under it
(:class:`~ktr.embeddings.store.VectorStore`) and the signature records it, so that two models
never share vectors, and a score says which model gave it.

- ``use``: the model ships inside its package, so the package's version names it
  (``use@0.2.1``, as :func:`~ktr.embeddings.base.describe` gives it).
- a model in a folder: :func:`describe`'s name, then a digest of the folder's files: each file's
  path in the folder, size and content (files past :data:`HASHED_BYTES` by their size and time
  of change, so that a model of gigabytes is not read at every start): two folders both named
  ``model`` holding two models get two keys, and a model retrained in place a new one.
- a model named on the Hugging Face hub: the revision its library's cache holds (the commit of
  ``refs/main`` in ``~/.cache/huggingface/hub``), or ``rev-unknown`` before it is downloaded.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

#: files up to this size are hashed whole (a model's config, vocabulary, tokenizer, small weights)
HASHED_BYTES = 16 << 20


def content_key(spec: str, described: str) -> str:
    """The key of the embedder ``spec`` (``described``: its name as the signature has recorded it)."""
    _, _, model = spec.partition(":")
    if not model:
        return described
    folder = Path(model).expanduser()
    if folder.is_dir():
        return f"{described}#{folder_digest(folder)[:12]}"
    return f"{described}@{hub_revision(model)[:12]}"


def folder_digest(folder: Path) -> str:
    """A digest of a model folder's files (see the module doc)."""
    h = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        info = path.stat()
        h.update(f"{path.relative_to(folder).as_posix()}\0{info.st_size}\0".encode())
        if info.st_size > HASHED_BYTES:
            h.update(f"{info.st_mtime_ns}\0".encode())
            continue
        with path.open("rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
    return h.hexdigest()


def hub_revision(name: str) -> str:
    """The commit of a hub model's ``main`` in the Hugging Face cache, or ``rev-unknown``."""
    home = Path(os.environ.get("HF_HUB_CACHE") or Path(os.environ.get("HF_HOME") or "~/.cache/huggingface") / "hub")
    ref = home.expanduser() / f"models--{name.replace('/', '--')}" / "refs" / "main"
    try:
        revision = ref.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return "rev-unknown"
    return revision if revision.isalnum() else "rev-unknown"

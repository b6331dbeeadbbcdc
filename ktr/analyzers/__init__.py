"""Korean morphological analyzers behind one interface (see :mod:`ktr.analyzers.base`)."""
from .base import Analyzer, Morpheme, available_analyzers, get_analyzer

__all__ = ["Analyzer", "Morpheme", "available_analyzers", "get_analyzer"]

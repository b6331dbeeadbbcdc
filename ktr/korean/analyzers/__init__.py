"""Korean morphological analyzers behind one interface (see :mod:`ktr.korean.analyzers.base`)."""

from ktr.korean.analyzers.base import Analyzer, Morpheme, available_analyzers, get_analyzer

__all__ = ["Analyzer", "Morpheme", "available_analyzers", "get_analyzer"]

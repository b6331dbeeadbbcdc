"""Lexicons: shipped or user files in, what a keyword may mean in English out.

``format`` reads, stacks and looks up Korean→English lexicons (TSV); ``expand`` adds WordNet's
synonyms and derivations of their equivalents; ``idioms`` and ``constructions`` read the tables
of set phrases and grammatical constructions that make several words one unit; ``importers``
and ``tools`` convert other dictionaries and measure coverage. Knows nothing of scoring.
"""

from ktr.lexicon.format import Entry, Lexicon, load_lexicon, resolve_lexicon_path

__all__ = ["Entry", "Lexicon", "load_lexicon", "resolve_lexicon_path"]

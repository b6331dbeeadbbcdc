"""Korean→English lexicons: the TSV format, loading, stacking and look-up."""
from ktr.lexicon.format import Entry, Lexicon, load_lexicon, resolve_lexicon_path

__all__ = ["Entry", "Lexicon", "load_lexicon", "resolve_lexicon_path"]

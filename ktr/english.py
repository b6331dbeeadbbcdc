"""English side: tokenization and case folding of MT output and of lexicon equivalents.

Both go through :func:`tokenize`, so an equivalent such as ``department store`` or
``well-known`` becomes the token sequence it must match. Digit groups lose their thousands
separators (``1,000`` → ``1000``); decimals keep their point (``12.3``); dotted abbreviations
lose their dots (``U.S.`` → ``us``, as the lexicon writes ``US``).
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_TOKEN = re.compile(r"\d+(?:[.,]\d+)*|[^\W\d_]+")
_DOTTED = re.compile(r"\b(?:[^\W\d_]\.){2,}")   # U.S., U.N., e.g.
_THOUSANDS = re.compile(r"^\d{1,3}(?:,\d{3})+$")


def _normalize_number(token: str) -> str:
    if _THOUSANDS.match(token):
        return token.replace(",", "")
    return token.rstrip(".,")


def tokenize(text: str) -> tuple[str, ...]:
    """Case-folded word tokens of an English text."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = _DOTTED.sub(lambda m: m.group().replace(".", "") + " ", text)
    return tuple(
        _normalize_number(t) if t[0].isdigit() else t for t in _TOKEN.findall(text)
    )


@lru_cache(maxsize=200_000)
def phrase(equivalent: str) -> tuple[str, ...]:
    """Token sequence of a lexicon equivalent (cached: equivalents repeat across sentences)."""
    return tokenize(equivalent)

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


def _clusters(text: str):
    """(start, end) of each base character with the combining marks that follow it."""
    start = 0
    for i in range(1, len(text) + 1):
        if i == len(text) or not unicodedata.combining(text[i]):
            yield start, i
            start = i


def token_spans(text: str) -> list[tuple[int, int]] | None:
    """Character spans in ``text`` of the tokens :func:`tokenize` returns, for highlighting.

    The text is normalised one character (with its combining marks) at a time, so every
    normalised character remembers where it came from; dotted abbreviations are handled as in
    :func:`tokenize`. Where this does not reproduce :func:`tokenize` exactly, ``None`` is
    returned rather than wrong spans.
    """
    pieces: list[str] = []
    origin: list[tuple[int, int]] = []
    for start, end in _clusters(text):
        piece = unicodedata.normalize("NFKC", text[start:end]).casefold()
        pieces.append(piece)
        origin.extend([(start, end)] * len(piece))
    folded = "".join(pieces)
    kept: list[str] = []
    where: list[tuple[int, int]] = []
    pos = 0
    for m in _DOTTED.finditer(folded):   # U.S. -> "us ", as tokenize does; a letter spans its dot
        kept.append(folded[pos:m.start()])
        where.extend(origin[pos:m.start()])
        for j in range(m.start(), m.end(), 2):
            kept.append(folded[j])
            where.append((origin[j][0], origin[j + 1][1]))
        kept.append(" ")
        where.append(origin[m.end() - 1])
        pos = m.end()
    kept.append(folded[pos:])
    where.extend(origin[pos:])
    found = list(_TOKEN.finditer("".join(kept)))
    tokens = tuple(_normalize_number(m.group()) if m.group()[0].isdigit() else m.group() for m in found)
    if tokens != tokenize(text):
        return None
    return [(where[m.start()][0], where[m.end() - 1][1]) for m in found]

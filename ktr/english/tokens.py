"""English side: tokenization and case folding of MT output and of lexicon equivalents.

Both go through :func:`tokenize`, so an equivalent such as ``department store`` or
``well-known`` becomes the token sequence it must match. Digit groups lose their thousands
separators (``1,000`` → ``1000``); decimals keep their point (``12.3``); dotted abbreviations
lose their dots (``U.S.`` → ``us``, as the lexicon writes ``US``). ``$``, ``€``, ``£``, ``¥``,
``₩`` and ``%`` are read as the words dollar, euro, pound, yen, won and percent; ``o'clock`` is
one word. Terminal escape sequences (a colour code, a window title: :data:`ktr.controls.ESCAPE`)
are removed whole first, as the source's normalization removes them (:mod:`ktr.korean.normalize`); other control
characters are no word characters, so they separate words as a space does.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator
from functools import lru_cache

from ktr.controls import escape_spans, strip_escapes

#: a word: digits (with their separators), letters, or "o'clock", one word with its apostrophe (its
#: "o" and "clock" are no words of their own: 3시 is "three o'clock")
_TOKEN = re.compile(r"\bo['’]clock\b|\d+(?:[.,]\d+)*|[^\W\d_]+")
_DOTTED = re.compile(r"\b(?:[^\W\d_]\.){2,}")  # U.S., U.N., e.g.
_THOUSANDS = re.compile(r"^\d{1,3}(?:,\d{3})+$")
_DIGIT = re.compile(r"\d")


def _normalize_number(token: str) -> str:
    if _THOUSANDS.match(token):
        return token.replace(",", "")
    return token.rstrip(".,")


#: symbols that stand for words a Korean keyword can match (달러 "$5", 퍼센트 "5%")
_SYMBOLS = {"$": " dollar ", "€": " euro ", "£": " pound ", "¥": " yen ", "₩": " won ", "%": " percent "}
_SYMBOL = re.compile("[" + re.escape("".join(_SYMBOLS)) + "]")


def tokenize(text: str) -> tuple[str, ...]:
    """Case-folded word tokens of an English text; currency and percent signs become words."""
    if not text.isprintable():
        text = strip_escapes(text)
    text = (text if text.isascii() else unicodedata.normalize("NFKC", text)).casefold()  # ASCII is NFKC
    text = _SYMBOL.sub(lambda m: _SYMBOLS[m.group()], text)
    text = _DOTTED.sub(lambda m: m.group().replace(".", "") + " ", text)
    tokens = _TOKEN.findall(text)
    if not _DIGIT.search(text):
        return tuple(tokens)
    return tuple(_normalize_number(t) if t[0].isdigit() else t for t in tokens)


#: a word written with a capital, with the parts hyphenated to it: Korean given names write their
#: second syllable in lower case (Nam-su, Ban Ki-moon), and it is as much of the name; so is the
#: Arabic article hyphenated before one (al-Maliki, el-Baradei)
_CAPITALIZED = re.compile(r"(?:\b(?:al|el|ad|ar|as|ash|at|az)-)?\b[^\W\d_a-z][^\W\d_]*(?:-[^\W\d_]+)*")

#: closed-class English words (articles, pronouns, prepositions, conjunctions, auxiliaries and
#: modals, degree and deictic adverbs, quantifiers): never a transliterated name, never a content
#: word of the meta-evaluation's variants
FUNCTION_WORDS = frozenset(
    """
a an the this that these those some any no every each either neither all both half another
other such what which whose whatever whichever
i me my mine myself you your yours yourself yourselves he him his himself she her hers herself
it its itself we us our ours ourselves they them their theirs themselves one ones oneself
someone somebody something anyone anybody anything everyone everybody everything nobody nothing
none who whom whoever whomever
about above across after against along amid among around as at before behind below beneath
beside besides between beyond by despite down during except for from in inside into like near
of off on onto out outside over past per since than through throughout till to toward towards
under underneath unlike until up upon via with within without
and but or nor so yet if unless because although though while whereas whether once
be am is are was were been being have has had having do does did doing
will would shall should can could may might must ought
not yes also too very just only even still already again ever never always often quite rather
here there now then where when why how thus therefore however
many much more most few fewer less least several enough lot lots
""".split()
)


def capitalized_words(text: str) -> frozenset[str]:
    """Case-folded words written with a capital letter in ``text`` (names, as a rule), and the
    words hyphenated to one (``Nam-su``: nam, su)."""
    found = _CAPITALIZED.findall(unicodedata.normalize("NFKC", strip_escapes(text)))
    return frozenset(part.casefold() for w in found for part in w.split("-"))


@lru_cache(maxsize=200_000)
def phrase(equivalent: str) -> tuple[str, ...]:
    """Token sequence of a lexicon equivalent (cached: equivalents repeat across sentences)."""
    return tokenize(equivalent)


def _clusters(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each base character with the combining marks that follow it."""
    start = 0
    for i in range(1, len(text) + 1):
        if i == len(text) or not unicodedata.combining(text[i]):
            yield start, i
            start = i


def _sub_mapped(
    pattern: re.Pattern[str], replace: Callable[[re.Match[str]], str], text: str, origin: list[tuple[int, int]]
) -> tuple[str, list[tuple[int, int]]]:
    """``pattern.sub(replace, text)``, carrying each character's origin span along: the
    characters of a replacement come from the whole match."""
    out: list[str] = []
    where: list[tuple[int, int]] = []
    pos = 0
    for m in pattern.finditer(text):
        out.append(text[pos : m.start()])
        where.extend(origin[pos : m.start()])
        piece = replace(m)
        out.append(piece)
        where.extend([(origin[m.start()][0], origin[m.end() - 1][1])] * len(piece))
        pos = m.end()
    out.append(text[pos:])
    where.extend(origin[pos:])
    return "".join(out), where


def token_spans(text: str) -> list[tuple[int, int]] | None:
    """Character spans in ``text`` of the tokens :func:`tokenize` returns, for highlighting.

    The steps of :func:`tokenize` are replayed with every character remembering where it came
    from: escape sequences removed, normalisation one character (with its combining marks) at a
    time, then the symbol and dotted-abbreviation rewrites. Where this does not reproduce
    :func:`tokenize` exactly, ``None`` is returned rather than wrong spans.
    """
    kept = [0, *(i for span in escape_spans(text) for i in span), len(text)]  # the text between sequences
    pieces: list[str] = []
    origin: list[tuple[int, int]] = []
    for a, b in zip(kept[::2], kept[1::2]):
        for start, end in _clusters(text[a:b]):
            piece = unicodedata.normalize("NFKC", text[a + start : a + end]).casefold()
            pieces.append(piece)
            origin.extend([(a + start, a + end)] * len(piece))
    folded, origin = _sub_mapped(_SYMBOL, lambda m: _SYMBOLS[m.group()], "".join(pieces), origin)
    folded, origin = _sub_mapped(_DOTTED, lambda m: m.group().replace(".", "") + " ", folded, origin)
    found = list(_TOKEN.finditer(folded))
    tokens = tuple(_normalize_number(m.group()) if m.group()[0].isdigit() else m.group() for m in found)
    if tokens != tokenize(text):
        return None
    return [(origin[m.start()][0], origin[m.end() - 1][1]) for m in found]

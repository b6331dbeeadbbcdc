"""Controlled variants of a human translation, for meta-evaluation (``ktr meta-eval``).

Each builder changes one thing about a reference sentence and leaves the rest of the text as it
was, so a metric's reaction can be read as its reaction to that one change:

- ``mismatch``: another line's translation (a derangement of the lines: no line keeps its own);
- ``drop25``/``drop50``/``drop75``: that share of the content words removed;
- ``shuffle``: the whitespace-separated tokens in random order;
- ``synonym``: every content word whose most frequent WordNet sense has another lemma replaced
  by that lemma (capitalised words, mostly names, are kept);
- ``numbers``: every digit sequence replaced by another number;
- ``addition``: the translation with another line's translation (the ``mismatch`` line) appended:
  all of the meaning, and content the source never had;
- ``salad``: no sentence at all, each source keyword's first three lexicon equivalents in source
  order (built from the scorer's look-ups, not from the reference; see :func:`salad`).

**Words.** A word is a run of letters, optionally joined by hyphens or apostrophes
(``five-minute``, ``nation's``, ``don't``). Punctuation is never part of a word, so removing or
replacing a word leaves the punctuation where it stood (``as a gift.`` → ``as a.``).

**Content words** (nouns, verbs, adjectives, adverbs) are decided without a tagger: a word is
a content word when, lower-cased and with a possessive ``'s`` removed, it has at least two
letters, is not in :data:`ktr.english.tokens.FUNCTION_WORDS` (articles, pronouns, prepositions, conjunctions,
auxiliaries and modals, degree and deictic adverbs, quantifiers) and WordNet knows it (it has a
synset after WordNet's own lemmatisation; a hyphenated word when WordNet knows it whole or knows
one of its parts). Contractions (``don't``, ``I'll``) are not content words. Names WordNet
knows (``Lawrence``) count; names it does not know do not.

**Randomness** comes from a :class:`random.Random` seeded from the run's seed, the variant and
the line number, so a line's variant does not depend on the other lines, and the three drop
levels draw the same random order of content words: the words dropped at 25 % are among those
dropped at 50 %, and those among the ones dropped at 75 %.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ktr.english.tokens import FUNCTION_WORDS
from ktr.errors import InputError

#: variant names in report order; ``true`` is the reference itself
VARIANTS = ("true", "mismatch", "drop25", "drop50", "drop75", "shuffle", "synonym", "numbers", "addition", "salad")
#: the drop variants and the share of content words each removes, in percent
DROP_LEVELS = {"drop25": 25, "drop50": 50, "drop75": 75}


_WORD = re.compile(r"[^\W\d_]+(?:[-'’][^\W\d_]+)*")
_DIGITS = re.compile(r"[0-9]+")
_LETTERS_AND_SPACES = re.compile(r"[^\W\d_]+(?:[ -][^\W\d_]+)*")
_ROMAN = re.compile(r"(?=[ivxlcdm])m{0,4}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})")


@dataclass(frozen=True)
class Word:
    """A word of a sentence: its character span and the part a dictionary would know."""

    start: int
    end: int
    text: str
    stem_end: int  # end of the part looked up: before a possessive 's, else ``end``

    @property
    def stem(self) -> str:
        return self.text[: self.stem_end - self.start]


def words(text: str) -> list[Word]:
    """Every word of ``text`` (see the module docstring), in order."""
    out = []
    for m in _WORD.finditer(text):
        w = m.group()
        stem_len = len(w) - 2 if len(w) > 2 and w[-2] in "'’" and w[-1] in "sS" else len(w)
        out.append(Word(m.start(), m.end(), w, m.start() + stem_len))
    return out


class Vocabulary:
    """Content-word decisions and synonyms from WordNet, memoised (sentences repeat words)."""

    def __init__(self, wn: Any = None):  # NLTK's WordNet reader (NLTK is untyped); None: the shipped one
        if wn is None:
            from ktr.english import wordnet

            wn = wordnet.load()
        self.wn = wn
        self.is_content = lru_cache(maxsize=None)(self._is_content)
        self.synonym = lru_cache(maxsize=None)(self._synonym)

    def _known(self, word: str) -> bool:
        return bool(self.wn.synsets(word))

    def _is_content(self, stem: str) -> bool:
        word = stem.lower()
        if len(word) < 2 or word in FUNCTION_WORDS or "'" in word or "’" in word:
            return False
        if self._known(word):
            return True
        return "-" in word and any(self._is_content(part) for part in word.split("-"))

    def _bases(self, word: str) -> set[str]:
        return {word} | {b for pos in "nvar" if (b := self.wn.morphy(word, pos))}

    def _synonym(self, stem: str) -> str | None:
        """A lemma of ``stem``'s most frequent sense, or ``None``.

        The most frequent sense is the synset in which WordNet's sense-tagged corpus counts the
        word (or its base form) most often, over all parts of speech; ties keep WordNet's order.
        Its first lemma is taken that is written differently from ``stem`` and its base forms,
        is not an inflection of them, is made of letters (spaces and hyphens between) and is not
        a well-formed Roman numeral (``seven`` → ``vii``). Only one sense is used: deeper senses
        are mostly other meanings (room → "way")."""
        word = stem.lower()
        bases = self._bases(word)
        ranked = sorted(
            self.wn.synsets(word),
            key=lambda s: -sum(lemma.count() for lemma in s.lemmas() if lemma.name().lower() in bases),
        )
        for name in ranked[0].lemma_names() if ranked else ():
            candidate: str = name.replace("_", " ")
            lower = candidate.lower()
            if (
                lower in bases
                or not _LETTERS_AND_SPACES.fullmatch(candidate)
                or _ROMAN.fullmatch(lower)
                or self._bases(lower) & bases
            ):
                continue
            return candidate
        return None

    def content_words(self, text: str) -> list[Word]:
        return [w for w in words(text) if self.is_content(w.stem)]


def line_rng(seed: int, variant: str, index: int) -> random.Random:
    """The random source of one line of one variant (string seeds are hashed with SHA-512,
    so this is the same on every run and platform)."""
    return random.Random(f"{seed}:{variant}:{index}")


def derangement(n: int, rng: random.Random) -> list[int]:
    """A random permutation of ``range(n)`` with no fixed point (uniform: shuffles are drawn
    until one has none, about e ≈ 2.7 draws on average)."""
    if n < 2:
        raise InputError(f"a mismatched pairing needs at least 2 lines, got {n}")
    order = list(range(n))
    while True:
        rng.shuffle(order)
        if all(i != j for i, j in enumerate(order)):
            return order


def mismatch(lines: Sequence[str], seed: int) -> list[str]:
    """Each line replaced by another line's text (``derangement``, seeded by ``seed``)."""
    order = derangement(len(lines), random.Random(f"{seed}:mismatch"))
    return [lines[j] for j in order]


def _remove(text: str, start: int, end: int) -> str:
    """``text`` without ``[start, end)`` and the white space before it (after it at the start)."""
    s = start
    while s > 0 and text[s - 1].isspace():
        s -= 1
    if s == start or s == 0:
        s = start
        while end < len(text) and text[end].isspace():
            end += 1
    return text[:s] + text[end:]


def drop_count(percent: int, n: int) -> int:
    """How many of ``n`` content words a drop of ``percent`` removes: percent × n / 100 rounded
    half up (1 of 2 at 25 %, 2 of 4 at 50 %, 0 of 1 at 25 %, 1 of 1 at 50 %)."""
    return (percent * n + 50) // 100


def drop(text: str, percent: int, rng: random.Random, vocab: Vocabulary) -> str:
    """``text`` without ``drop_count(percent, n)`` of its n content words, chosen at random."""
    content = vocab.content_words(text)
    rng.shuffle(content)
    for w in sorted(content[: drop_count(percent, len(content))], key=lambda w: -w.start):
        text = _remove(text, w.start, w.end)
    return text


def shuffle(text: str, rng: random.Random) -> str:
    """The whitespace-separated tokens of ``text`` in random order, joined by single spaces
    (punctuation travels with its token). Differs from ``text``'s token order whenever the
    tokens are not all the same."""
    tokens = text.split()
    if len(set(tokens)) < 2:
        return text
    shuffled = tokens[:]
    while shuffled == tokens:
        rng.shuffle(shuffled)
    return " ".join(shuffled)


def synonyms(text: str, vocab: Vocabulary) -> str:
    """Every content word that has a WordNet synonym (``Vocabulary.synonym``) replaced by it; a
    possessive ``'s`` stays. Capitalised words are kept: mostly they are names (WordNet would
    turn "John" into "toilet"), and without a tagger a sentence's first word cannot be told
    from a name. Deterministic: no random choice."""
    for w in reversed(vocab.content_words(text)):
        replacement = None if any(c.isupper() for c in w.stem) else vocab.synonym(w.stem)
        if replacement is not None:
            text = text[: w.start] + replacement + text[w.stem_end :]
    return text


def numbers(text: str, rng: random.Random) -> str:
    """Every digit sequence replaced by a different one of the same length (no leading zero
    where the original had none): ``314`` → e.g. ``862``, ``12.3`` → e.g. ``47.8``."""

    def other(m: re.Match[str]) -> str:
        digits = m.group()
        low = 10 ** (len(digits) - 1) if digits[0] != "0" and len(digits) > 1 else 0
        while True:
            new = str(rng.randrange(low, 10 ** len(digits))).zfill(len(digits))
            if new != digits:
                return new

    return _DIGITS.sub(other, text)


def salad(glosses: Sequence[Sequence[str]]) -> list[str]:
    """A gloss salad per line: the line's glosses (each keyword's first equivalents, in source
    order) joined by spaces. What a word-for-word lookup would print; no English sentence."""
    return [" ".join(line) for line in glosses]


def build(
    references: Sequence[str], seed: int, vocab: Vocabulary, glosses: Sequence[Sequence[str]]
) -> dict[str, list[str]]:
    """Every variant of ``references``, by name, in :data:`VARIANTS` order; ``glosses`` are
    the source keywords' first equivalents per line, for the salad."""
    if len(glosses) != len(references):
        raise InputError(f"{len(glosses)} lines of glosses for {len(references)} references")

    def dropping(percent: int) -> Callable[[str, int], str]:
        return lambda t, i: drop(t, percent, line_rng(seed, "drop", i), vocab)

    per_line: dict[str, Callable[[str, int], str]] = {
        **{name: dropping(p) for name, p in DROP_LEVELS.items()},
        "shuffle": lambda t, i: shuffle(t, line_rng(seed, "shuffle", i)),
        "synonym": lambda t, i: synonyms(t, vocab),
        "numbers": lambda t, i: numbers(t, line_rng(seed, "numbers", i)),
    }
    out = {"true": list(references), "mismatch": mismatch(references, seed), "salad": salad(glosses)}
    out["addition"] = [f"{text} {other}" for text, other in zip(references, out["mismatch"])]
    for name, make in per_line.items():
        out[name] = [make(text, i) for i, text in enumerate(references)]
    return {name: out[name] for name in VARIANTS}

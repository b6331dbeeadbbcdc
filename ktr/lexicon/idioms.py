"""Idioms and set phrases: multi-word Korean expressions scored as one unit (the paper's problem 5).

An idiom file is UTF-8, one idiom per line::

    # ktr-idioms/1
    예 손님<TAB>yes sir;yes madam;yes ma'am
    어떻게 지내<TAB>how are you;how have you been

The Korean side is matched against the *source text* with spaces and punctuation ignored, so it
does not depend on the analyzer (``예 손님`` matches ``예, 손님.``). Where it matches, the keywords
inside that stretch are replaced by one keyword of class ``idiom`` whose equivalents are the
English phrases; it is transferred when one of them occurs in the output.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from ktr.errors import LexiconError
from ktr.korean.keywords import PREDICATE_CLASSES, Keyword
from ktr.lexicon.format import numbered_lines, resolve_lexicon_path, split_columns

_HANGUL_PHRASE = re.compile(r"^[\uac00-\ud7a3]+( [\uac00-\ud7a3]+)*$")
_SKIP = re.compile(r"[\s\W_]", re.UNICODE)
#: up to this many distinct openings (first two letters of an idiom) a sentence is searched for
#: them with one regular expression before its pairs are listed
_SEARCHED_OPENINGS = 1000


@dataclass(frozen=True)
class Idiom:
    korean: str
    key: str  # the Korean without spaces: what is searched for
    english: tuple[str, ...]
    where: str


def _parse(line: str, where: str) -> Idiom | None:
    cols = split_columns(line, where, ("Korean", "English"))
    if cols is None:
        return None
    korean, english = cols
    if unicodedata.normalize("NFC", korean) != korean or not _HANGUL_PHRASE.match(korean):
        raise LexiconError(f"{where}: the Korean side must be NFC Hangul words separated by single spaces: {korean!r}")
    phrases = tuple(p.strip() for p in english.split(";"))
    if not english.strip() or any(not p or p != " ".join(p.split()) for p in phrases):
        raise LexiconError(f"{where}: empty or badly spaced English phrase in {english!r}")
    return Idiom(korean, korean.replace(" ", ""), phrases, where)


class IdiomTable:
    """Idioms of one or more files; :meth:`apply` collapses the keywords an idiom covers."""

    def __init__(self, idioms: list[Idiom]):
        # longest first, so 감사합니다 wins over a shorter idiom inside it
        self.idioms = sorted(idioms, key=lambda i: (-len(i.key), i.key))
        h = hashlib.sha256()
        for i in sorted(idioms, key=lambda i: i.korean):
            h.update(f"{i.korean}\t{';'.join(i.english)}\n".encode())
        self.digest = h.hexdigest()
        # positions in self.idioms by the first two characters of the key: a sentence is
        # searched only for the idioms whose opening pair it contains
        self._by_opening: dict[str, list[int]] = {}
        for n, idiom in enumerate(self.idioms):
            self._by_opening.setdefault(idiom.key[:2], []).append(n)
        # Whether a sentence holds any opening at all (most hold none) is found faster by one
        # regular expression of them than by listing the sentence's pairs, as long as there are
        # not too many: on 10,000 news lines 6 ms for 58 openings, 29 ms for 500, 456 ms for
        # 3,000, against 190 ms for the pairs.
        self._any_opening = (
            re.compile("|".join(map(re.escape, self._by_opening)))
            if len(self._by_opening) <= _SEARCHED_OPENINGS
            else None
        )

    @classmethod
    def from_files(cls, specs: tuple[str, ...]) -> IdiomTable:
        idioms: dict[str, Idiom] = {}
        for spec in specs:
            path = resolve_lexicon_path(spec)
            for where, line in numbered_lines(path, "idioms"):
                idiom = _parse(line, where)
                if idiom is None:
                    continue
                if idiom.key in idioms:
                    raise LexiconError(
                        f"{idiom.where}: duplicate idiom {idiom.korean!r} (first at {idioms[idiom.key].where})"
                    )
                idioms[idiom.key] = idiom
        return cls(list(idioms.values()))

    def __len__(self) -> int:
        return len(self.idioms)

    def apply(self, text: str, keywords: list[Keyword]) -> tuple[list[Keyword], dict[int, Idiom]]:
        """Keywords with idiom stretches collapsed; the map gives, by position, each unit's idiom."""
        if not self.idioms or not text:
            return keywords, {}
        squeezed = _SKIP.sub("", text)
        if self._any_opening is not None and self._any_opening.search(squeezed) is None:
            return keywords, {}
        openings = set(map(str.__add__, squeezed, squeezed[1:])).union(squeezed)  # pairs; one-letter keys
        maybe = sorted(n for pair in openings.intersection(self._by_opening) for n in self._by_opening[pair])
        if not maybe:
            return keywords, {}
        chars = [(i, c) for i, c in enumerate(text) if not _SKIP.match(c)]
        words = _Words(keywords)
        taken = [False] * len(squeezed)
        found: list[tuple[int, int, Idiom]] = []
        for idiom in (self.idioms[n] for n in maybe):
            start = squeezed.find(idiom.key)
            while start >= 0:
                end = start + len(idiom.key)
                s, e = chars[start][0], chars[end - 1][0] + 1
                if not any(taken[start:end]) and not _cuts_a_word(words.near(s, e), s, e):
                    taken[start:end] = [True] * (end - start)
                    found.append((s, e, idiom))
                start = squeezed.find(idiom.key, start + 1)
        if not found:
            return keywords, {}
        out: list[Keyword] = []
        units: dict[int, Idiom] = {}
        stretches = sorted(found, key=lambda f: f[0])  # apart from one another (``taken``)
        starts = [s for s, _, _ in stretches]
        at = 0  # the next stretch to place
        for kw in keywords:
            while at < len(stretches) and stretches[at][1] <= kw.start:
                s, e, idiom = stretches[at]
                at += 1
                units[len(out)] = idiom
                out.append(Keyword(idiom.korean, "idiom", "idiom", s, e))
            n = bisect_right(starts, kw.start) - 1  # the stretch starting last at or before it
            if n >= 0 and kw.start < stretches[n][1]:
                continue  # inside an idiom's stretch
            out.append(kw)
        for s, e, idiom in stretches[at:]:
            units[len(out)] = idiom
            out.append(Keyword(idiom.korean, "idiom", "idiom", s, e))
        return out, units


class _Words:
    """A line's keywords as :func:`_cuts_a_word` asks about them: those a stretch could cut, found
    by bisection where the keywords come in the order of their starts (as the analyzer gives
    them), all of them otherwise; a long line's idioms are then checked in time that does not
    grow with its length (a scan of every keyword per stretch was quadratic: 21 s of the 1 MB
    line's 80)."""

    def __init__(self, keywords: Sequence[Keyword]):
        self.keywords = keywords
        self.starts = [k.start for k in keywords]
        self.ordered = all(a <= b for a, b in zip(self.starts, self.starts[1:]))
        self.longest = max((k.end - k.start for k in keywords), default=0)

    def near(self, start: int, end: int) -> Sequence[Keyword]:
        """The keywords that may hold ``start`` or ``end`` inside them: those starting before
        ``end`` and less than the longest keyword's length before ``start``."""
        if not self.ordered:
            return self.keywords
        return self.keywords[bisect_right(self.starts, start - self.longest) : bisect_left(self.starts, end)]


def _cuts_a_word(keywords: Sequence[Keyword], start: int, end: int) -> bool:
    """Whether the stretch ``start``-``end`` cuts through a keyword: it may end inside a predicate
    only past the predicate's stem, whose endings an idiom leaves out (화가 나 in 화가 나서, 마음에 드
    in 마음에 드는), never inside a longer stem (화가 나 is not in 화가 나타났다 "a painter appeared")
    or a noun (그 후 is not in 그 후보 "that candidate", nor 어느 날 in 어느 날씨)."""
    for k in keywords:
        if k.start < start < k.end:
            return True
        if k.start < end < k.end:
            if k.cls not in PREDICATE_CLASSES:
                return True
            stem = len(k.lemma) - 1 if k.lemma.endswith("다") else len(k.lemma)
            if end - k.start < stem:
                return True
    return False

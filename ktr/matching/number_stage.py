"""The ``number`` stage: numbers by value (:mod:`ktr.matching.numbers` reads both sides).

삼 transfers to "three", "third", "3rd" or "3"; 3억 5천만 to "350 million"; a day of the month
also to any weekday (25일 ↔ Friday: which weekday the date was, nothing says); one of something
counted (고양이 한 마리) also to the article before its noun's match ("a cat").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ktr.english.number_expressions import WEEKDAYS
from ktr.korean.analyzers.base import Morpheme
from ktr.korean.keywords import Keyword
from ktr.lexicon.format import Lookup
from ktr.matching import numbers
from ktr.matching.assignment import MAIN_SENSES
from ktr.matching.candidate import Candidate
from ktr.matching.stage import Joined, Stage
from ktr.matching.targets import Targets
from ktr.matching.view import SentenceView


class NumberStage(Stage):
    """Numbers by value."""

    name = "number"
    strength = 0
    sense = MAIN_SENSES - 1  # a number by value: the last main sense (a word as written first)
    reads = frozenset({"numbers"})
    joins = 0  # before the constructions and idioms: 3억 5천만 is one number in a unit

    @classmethod
    def join(cls, table: Any, morphemes: Sequence[Morpheme], text: str, keywords: list[Keyword]) -> Joined:
        return numbers.group(morphemes, keywords), {}

    @classmethod
    def lookup(cls, table: Any, keyword: Keyword) -> Lookup | None:
        """A written number is its own equivalent."""
        if keyword.tag != "number":
            return None
        value = numbers.korean_keys(keyword)
        return Lookup(None, (value[0][2:],) if value else (), "number")

    @classmethod
    def targets(cls, keyword: Keyword, found: Lookup, keys: tuple[str, ...]) -> Targets:
        """Its value as written and by value; the nouns a counter stands for ("people" for 2명);
        one of something counted also as the article before its noun."""
        counted = next((v for c, v in numbers.COUNTED.items() if keyword.lemma.endswith(c)), ())
        one = found.equivalents == ("1",) and bool(keyword.base) and keyword.base != keyword.lemma
        return Targets(found.equivalents, numbers=keys, counted=counted, one=one)

    def propose(self, k: int, targets: Targets, v: SentenceView) -> list[Candidate]:
        if not targets.numbers:
            return []
        wanted = set(targets.numbers)
        found = [
            self.candidate(k, " ".join(v.tokens[s.start : s.end]), (s.start, s.end))
            for s in v.number_spans
            if not wanted.isdisjoint(s.keys)
        ]
        if any(key.startswith("d:") for key in wanted):  # which weekday the date was, nothing says
            found += [self.candidate(k, t, (i, i + 1), 1) for i, t in enumerate(v.tokens) if t in WEEKDAYS]
        return found

    def refine(self, cands: dict[int, list[Candidate]], targets: Sequence[Targets], v: SentenceView) -> None:
        """One of something counted (고양이 한 마리, 학생 한 명) is "a" or "an" right before the
        match of its noun, or one word before ("a little dog"), where the output does not write
        the number itself; its noun is the keyword before it, as Korean counts (the keyword after
        it is as often another noun: 고양이 한 마리가 지붕에 "a cat … the roof")."""
        for k, t in enumerate(targets):
            if not t.one or any(c.how == "number" or c.equivalent == "1" for c in cands.get(k, ())):
                continue
            nouns = {c.start for c in cands.get(k - 1, ())}
            found = [
                self.candidate(k, token, (i, i + 1), 1)
                for i, token in enumerate(v.tokens)
                if token in ("a", "an") and not nouns.isdisjoint((i + 1, i + 2))
            ]
            if found:
                cands.setdefault(k, []).extend(found)

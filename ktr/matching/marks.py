"""The ``construction`` stage: a construction unit (:mod:`ktr.lexicon.constructions`) found by
its English realizations, as written or inflected, or by a grammatical mark that carries it.

A mark is an inflection ("bigger" carries 더), an auxiliary with the form after it ("was
criticized" carries 받다, "is waiting" 중), or a word that governs the match of the keyword before
the unit ("interest *in* that craze" carries 에 대해). :func:`ending_stage` proposes them;
:func:`place_marks` keeps, after the assignment, those tied to the keyword before the unit and
gives each unit still unmatched the nearest. A mark shares its token with the word it inflects
or governs: never contested. The stage is grammar-aware, as the units are: an article carries a
determiner only before its noun (:meth:`ConstructionStage.refine`), where the paper's exact
matching counts any "the".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ktr.korean.analyzers.base import Morpheme
from ktr.korean.keywords import Keyword
from ktr.lexicon import Lexicon
from ktr.lexicon.constructions import GOVERNING, INFLECTED, PASSIVE_AUXILIARIES, PROGRESSIVE_AUXILIARIES
from ktr.lexicon.format import Lookup
from ktr.matching.candidate import Candidate
from ktr.matching.phrases import Forms, phrases
from ktr.matching.stage import Joined, Option, Stage
from ktr.matching.targets import Targets
from ktr.matching.view import SentenceView

#: equivalents that are articles (그 "the", 한 "a"): every English sentence has them
ARTICLES = frozenset({"the", "a", "an"})


class ConstructionStage(Stage):
    """A construction unit: its realizations (either way, as idioms), or a mark that carries it."""

    name = "construction"
    strength = 3
    joins = 1
    options = (
        Option(
            "constructions",
            ("constructions",),
            "Construction tables (shipped names or paths), used when the construction stage is on.",
        ),
    )

    @classmethod
    def load(cls, settings: Mapping[str, Any], lexicon: Lexicon, tagset: str) -> Any:
        from ktr.lexicon.constructions import ConstructionTable

        return ConstructionTable.from_files(settings["constructions"], tagset)

    @classmethod
    def english(cls, table: Any) -> Iterable[str]:
        return [phrase for c in table.constructions for phrase in c.english]

    @classmethod
    def join(cls, table: Any, morphemes: Sequence[Morpheme], text: str, keywords: list[Keyword]) -> Joined:
        """A unit's keywords replaced by one keyword of class ``construction``, a grammar
        construction's dropped."""
        return table.apply(morphemes, keywords), {}

    @classmethod
    def lookup(cls, table: Any, keyword: Keyword) -> Lookup | None:
        """A construction unit's look-up: its realizations (marks begin with @)."""
        if keyword.tag != "construction":
            return None
        return Lookup(None, table.realizations.get(keyword.lemma, ()), "construction")

    @classmethod
    def targets(cls, keyword: Keyword, found: Lookup, numbers: tuple[str, ...]) -> Targets:
        """Its realizations, and its inflected marks (@er: any comparative)."""
        words = tuple(e for e in found.equivalents if not e.startswith("@"))
        endings = tuple(e[1:] for e in found.equivalents if e.startswith("@"))
        return Targets(idioms=words, construction=True, endings=endings)

    @classmethod
    def fragment(cls, settings: Mapping[str, Any], table: Any = None) -> dict[str, str]:
        return {"cx": f"{'+'.join(settings['constructions'])}@{table.digest[:10]}"} if table is not None else {}

    def propose(self, k: int, targets: Targets, v: SentenceView) -> list[Candidate]:
        hits = targets.own_firsts[2] & v.present
        if not hits or not targets.construction:
            return []
        return phrases(self, k, targets.idioms_by_first, hits, v, Forms(True, True, True))

    def refine(self, cands: dict[int, list[Candidate]], targets: Sequence[Targets], v: SentenceView) -> None:
        """An article carries a determiner only before the word it determines: 그 회사 is "the
        company" when 회사 may match the word after "the" (or the word after that: "the new
        company"), not any "the" of the output, which has one in nearly every sentence."""
        for k in [k for k, lst in cands.items() if any(c.equivalent in ARTICLES for c in lst)]:
            after = {c.start for c in cands.get(k + 1, ())}
            kept = [c for c in cands[k] if c.equivalent not in ARTICLES or not after.isdisjoint((c.end, c.end + 1))]
            if kept:
                cands[k] = kept
            else:
                del cands[k]

    def marks(self, k: int, targets: Targets, v: SentenceView) -> list[Candidate]:
        return ending_stage(k, targets, v, self.order) if targets.endings else []

    def place(
        self, chosen: dict[int, Candidate], marks: dict[int, list[Candidate]], keywords: int, tokens: int
    ) -> None:
        place_marks(chosen, marks, keywords, tokens)


def ending_stage(k: int, targets: Targets, v: SentenceView, order: int) -> list[Candidate]:
    """A construction's inflected marks: tokens that inflect a word of the lexicon with one of
    ``targets.endings`` ("bigger", "healthier" for er), and the mark's irregular forms ("most",
    "better"); for ``passive``, be or get before a past participle; for ``progressive``, be before
    an -ing form; for ``agent``, an agent noun; for ``preposition``, ``to_infinitive`` and
    ``partitive``, the words of
    :data:`GOVERNING` (kept by :func:`_governs`). They may share a
    token with the keyword the inflected word matched, since the inflection carries both meanings
    (더 크다 → bigger)."""
    found = [
        Candidate(k, "-" + ending, i, i + 1, "construction", (order, 0, i))
        for i, token in enumerate(v.tokens)
        for ending in targets.endings
        if ending not in _AUXILIARY_MARKS and ending not in GOVERNING
        if token in INFLECTED.get(ending, ()) or token.endswith(ending) and any(b != token for b in v.bases(i))
    ]
    for ending, words in GOVERNING.items():
        if ending in targets.endings:
            found += [
                Candidate(k, token + _GOVERNED[ending][0], i, i + 1, "construction", (order, 0, i))
                for i, token in enumerate(v.tokens)
                if token in words
            ]
    if "passive" in targets.endings:
        found += [
            Candidate(k, "be + participle", i, end, "construction", (order, 0, i))
            for i, token in enumerate(v.tokens)
            if token in PASSIVE_AUXILIARIES
            if (end := _participle_after(v, i))
        ]
    if "agent" in targets.endings:  # a verb's agent noun: "believers", "speaker" (-는 사람)
        found += [
            Candidate(k, "agent noun", i, i + 1, "construction", (order, 0, i))
            for i, token in enumerate(v.tokens)
            if len(token) > 4 and token.endswith(AGENT_SUFFIXES)
        ]
    if "progressive" in targets.endings:
        found += [
            Candidate(k, "be + -ing", i, end, "construction", (order, 0, i))
            for i, token in enumerate(v.tokens)
            if token in PROGRESSIVE_AUXILIARIES
            if (end := _participle_after(v, i, "ing"))
        ]
    return found


#: marks tied to the match of the keyword before the unit: an auxiliary and the form after it, or
#: the agent noun the verb before matched ("believers" carries 믿는 사람 whole)
_AUXILIARY_MARKS = {"passive": "be + participle", "progressive": "be + -ing", "agent": "agent noun"}
#: endings of English agent nouns
AGENT_SUFFIXES = ("er", "ers", "or", "ors", "ist", "ists", "ant", "ants")


def _participle_after(v: SentenceView, i: int, ending: str = "") -> int:
    """The end of a past participle that follows token ``i``, next or after an adverb in -ly (an
    inflected form of a lexicon word that is not an -ing, -s, -er or -est form), else 0; with
    ``ending`` "ing", of a present participle (an inflected form in -ing) instead."""
    for j in (i + 1, i + 2):
        if j >= len(v.tokens):
            return 0
        token = v.tokens[j]
        if not v.bases(j) or token in v.bases(j):
            pass
        elif token.endswith("ing") if ending else not token.endswith(("ing", "s", "er", "est")):
            return j + 1
        if not token.endswith("ly"):
            return 0
    return 0


def place_marks(chosen: dict[int, Candidate], endings: dict[int, list[Candidate]], keywords: int, tokens: int) -> None:
    """Give each unit of ``endings`` not in ``chosen`` the nearest of its marks that holds: an
    auxiliary over the match of the keyword before it, the nearest word that governs that match."""
    for k, lst in endings.items():
        before = chosen.get(k - 1)
        lst = [c for c in lst if c.equivalent not in _AUXILIARY_MARKS.values() or _carries(before, c)]
        governing = [c for c in lst if c.equivalent.endswith(_GOVERNED_NAMES)]
        if governing:  # only the nearest word that governs the match before, if any
            lst = [c for c in lst if c not in governing] + _governs(before, governing)
        if k not in chosen and lst:
            chosen[k] = min(
                lst,
                key=lambda c: (abs((k + 0.5) / keywords - (c.start + 0.5) / tokens), c.start, c.equivalent),
            )


def _carries(before: Candidate | None, mark: Candidate) -> bool:
    """A passive carries 받다 only with the noun before it: 비난을 받다 is "were criticized" when
    비난 matched the participle (criticized), not any passive of the sentence; a progressive
    carries 중 only with the verb before it (기다리는 중이다 "is waiting"), and an agent noun 사람
    only where it is that verb's match (믿는 사람 "believer")."""
    return before is not None and mark.start < before.end and before.start < mark.end


#: by mark, what a governing word governs (its match is named "in + object", "to + verb") and how
#: many words may stand between it and the match of the keyword before the unit: "interest in that
#: craze" (one), "ads for new and revolutionary methods" (three); "to properly prepare" (one)
_GOVERNED = {
    "preposition": (" + object", 3),
    "to_infinitive": (" + verb", 1),
    "partitive": (" + whole", 3),
    "negated": (" + noun", 3),
    "relative": (" + clause", 3),
}
_GAPS = dict(_GOVERNED.values())
_GOVERNED_NAMES = tuple(_GAPS)


def _governs(before: Candidate | None, words: list[Candidate]) -> list[Candidate]:
    """Of the words that may govern it (:data:`GOVERNING`), the nearest before the match of the
    keyword before the unit, within the words allowed between: 유행에 대한 흥미 "interest in that
    craze" is transferred by "in" because 유행 matched "craze", not by any preposition of the
    output."""
    if before is None:
        return []
    near = [
        c
        for c in words
        if c.end <= before.start and before.start - c.end <= _GAPS[c.equivalent[c.equivalent.index(" + ") :]]
    ]
    return [max(near, key=lambda c: c.end)] if near else []

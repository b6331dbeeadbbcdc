"""The ``periphrasis`` stage: a keyword that English says together with its neighbour in one word
shares the neighbour's match, for the pairs of a table (:mod:`ktr.lexicon.periphrases`).

병원에 입원했다 "was hospitalized": 병원 and 입원하다 both reach "hospitalized", but one output word
credits one keyword, so the assignment gives it to one of them and misses the other, which the
English does carry. Once the assignment is made (and the marks placed), for each pair of keywords
the table lists (the second one or two keywords after the first), when one is transferred on one
of the row's English words and the other is not transferred, the other is credited on the same
words, ``how: periphrasis``, its match named after its neighbour's (``hospitalize (with
입원하다)``). Nothing else shares: a pair the table does not list, a match on another word (병원
on "hospital" leaves 입원하다 to find its own word), a keyword with no match of its own to share.
A match is never taken from anyone, and a wrong word for the partner ("were killed" for 부상을
입었다) leaves both missed. It comes before the semantic stage, which then looks only at what is
still missed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from ktr.lexicon import Lexicon
from ktr.lexicon.periphrases import DEMONYM, PeriphrasisTable
from ktr.matching.candidate import Candidate
from ktr.matching.stage import Option, Stage
from ktr.matching.targets import Targets
from ktr.matching.view import SentenceView

#: how many keywords after the first the second of a pair may be (비가 많이 오다: two)
REACH = 2
#: the endings of English demonyms (Tunisian, Korean, Chinese, British, Iraqi)
DEMONYM_ENDINGS = ("an", "ans", "ese", "ish", "i", "is")


class PeriphrasisStage(Stage):
    """A listed periphrasis: the keyword left out shares its neighbour's word."""

    name = "periphrasis"
    strength = 5
    options = (
        Option(
            "periphrases",
            ("periphrases",),
            "Periphrasis tables (shipped names or paths), used when the periphrasis stage is on.",
        ),
    )

    @classmethod
    def load(cls, settings: Mapping[str, Any], lexicon: Lexicon, tagset: str) -> Any:
        return _table(tuple(settings["periphrases"]))

    @classmethod
    def fragment(cls, settings: Mapping[str, Any], table: Any = None) -> dict[str, str]:
        return {"pp": f"{'+'.join(settings['periphrases'])}@{table.digest[:10]}"} if table is not None else {}

    def complete(self, lines: Sequence[tuple[dict[int, Candidate], Sequence[Targets], SentenceView]]) -> None:
        """In each line, a keyword of a listed pair left out shares its neighbour's match."""
        table = _table(tuple(self.setting("periphrases")))
        for chosen, targets, v in lines:
            for k, first in enumerate(targets):
                if not (first.lemma or first.name):
                    continue
                for j in range(k + 1, min(k + 1 + REACH, len(targets))):
                    english = table.shared(first.lemma, targets[j].lemma, first.name) if targets[j].lemma else None
                    if english is None or (k in chosen) == (j in chosen):
                        continue
                    held, left = (k, j) if k in chosen else (j, k)
                    if _carries(chosen[held], targets[held], english, v):
                        place = chosen[held]
                        partner = targets[held].lemma or "name"
                        chosen[left] = Candidate(
                            left,
                            f"{place.equivalent} (with {partner})",
                            place.start,
                            place.end,
                            self.name,
                            (self.order, 0, place.start),
                        )


@lru_cache(maxsize=8)
def _table(specs: tuple[str, ...]) -> PeriphrasisTable:
    """The table of ``specs``, read once per process (the pipeline loads it, the stage reads it)."""
    return PeriphrasisTable.from_files(specs)


def _carries(match: Candidate, targets: Targets, english: frozenset[str], v: SentenceView) -> bool:
    """Whether ``match`` (of a keyword with ``targets``) is on one of the ``english`` words, as
    written or inflected, or on a demonym when the row names one."""
    words = {w for i in range(match.start, match.end) for w in (v.tokens[i], *v.bases(i))}
    if not english.isdisjoint(words):
        return True
    return DEMONYM in english and _demonym(match, targets, v)


def _demonym(match: Candidate, targets: Targets, v: SentenceView) -> bool:
    """A name's match on a word naming its people: one word, written capitalized, with a
    demonym's ending, and not the name's own first equivalent (Tunisian for 튀니지, not Tunisia,
    nor Iran for 이란)."""
    if match.end - match.start != 1 or not targets.equivalents:
        return False
    token = v.tokens[match.start]
    own = targets.equivalents[0].casefold()
    written = v.names is None or token in v.names
    return written and token != own and token.endswith(DEMONYM_ENDINGS)

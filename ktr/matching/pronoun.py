"""The ``pronoun`` stage: a noun or a name the output carries by a pronoun, where nothing else
could be meant.

Korean says a person's name or title again where English says "he": 카라지치는 ... 그는 becomes
"Karadzic ... he", and a translation of 남편은 의사였다 in its context may read "He was a doctor."
Readers count the husband as carried (docs/judging.md). No word of the output is the keyword, and
a pronoun could stand for anything, so this stage credits one only under guard, after every other
stage (and the assignment) has had its say:

- **the keyword** is a noun or a name still missed, marked as the topic or the subject of its
  clause (은, 는, 이, 가 right after it; 들은, 들이 for a plural: :func:`ktr.korean.keywords.subject_mark`);
- **the pronoun** is a subject pronoun of the output nobody took (he, she, it, they), and agrees
  with it: he and she a person (the first noun sense of the entry's first equivalents that
  WordNet knows is in ``noun.person``: 남편 husband, 대통령 president) or a name WordNet does not
  know (카라지치, Karadzic: either); it a thing (a noun that is not a person: 중국, China) or such a
  name; they a noun marked plural;
- **no other candidate**: the line's keywords marked so and agreeing with that pronoun are one
  word (however often the source says it), and the source has no pronoun of its own that the
  English one would translate (그, 그녀 for he and she; 그것, 이것 for it; 그들 for they), and
  the output names nobody the keywords do not (a capitalized word, but the first, that no match
  took: "Rattin" where the source writes the name in Latin letters);
- **the line**: the other stages transferred at least :data:`GATE` of its keywords, as the
  semantic stage asks (an output of another sentence has pronouns too).

A match shows as ``how: pronoun`` on the pronoun ("he"). Measured before it was built
(``scripts/pronoun_reference.py``): on the human news-dev translations 41 keywords, on mismatched
pairs none; of those on judged lines, 8 judged transferred and 1 absent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ktr.english.relations import names_a_person
from ktr.matching.candidate import Candidate
from ktr.matching.stage import Stage
from ktr.matching.targets import Targets
from ktr.matching.view import SentenceView

#: each subject pronoun: the kind of keyword it may stand for, and the source's pronouns that it
#: would translate (where the source has one, the English one is that one's)
PRONOUNS = {
    "he": ("person", frozenset({"그", "그녀"})),
    "she": ("person", frozenset({"그", "그녀"})),
    "it": ("thing", frozenset({"그것", "이것"})),
    "they": ("plural", frozenset({"그들"})),
}
#: the share of a line's keywords the other stages must have transferred
GATE = 0.35
#: how many of an entry's first equivalents are asked whether they name a person
EQUIVALENTS = 3
#: the version of this stage's rules, in the signature (``pro:v1``)
VERSION = 1


class PronounStage(Stage):
    """A noun or name marked as subject, carried by the one pronoun that can stand for it."""

    name = "pronoun"
    needs = ("WordNet",)
    reads = frozenset({"roles"})

    @classmethod
    def fragment(cls, settings: Mapping[str, Any], table: Any = None) -> dict[str, str]:
        return {"pro": f"v{VERSION}"}

    def complete(self, lines: Sequence[tuple[dict[int, Candidate], Sequence[Targets], SentenceView]]) -> None:
        """In each line, the subject pronouns nobody took credited to the one keyword they can
        stand for."""
        for chosen, targets, v in lines:
            if len(chosen) >= GATE * len(targets) and any(t in PRONOUNS for t in v.tokens):
                self._credit(chosen, targets, v)

    def _credit(self, chosen: dict[int, Candidate], targets: Sequence[Targets], v: SentenceView) -> None:
        kinds = {k: kind for k, t in enumerate(targets) if t.role and (kind := _kind(t))}
        if not kinds:
            return
        own = {t.lemma for t in targets if t.cls == "pronoun"}
        taken = {i for c in chosen.values() for i in range(c.start, c.end)}
        if _other_name(v, taken):
            return
        for i, token in enumerate(v.tokens):
            if token not in PRONOUNS or i in taken:
                continue
            wanted, translates = PRONOUNS[token]
            if own & translates:
                continue
            agreeing = [k for k, kind in kinds.items() if kind == wanted or (kind == "any" and wanted != "plural")]
            if len({targets[k].lemma or targets[k].word or f"#{k}" for k in agreeing}) != 1:
                continue  # none, or two words it could stand for
            missed = [k for k in agreeing if k not in chosen]
            if missed:
                k = missed[0]
                chosen[k] = Candidate(k, token, i, i + 1, self.name, (self.order, 0, i))
                taken.add(i)


def _kind(t: Targets) -> str:
    """What a marked keyword is, for agreement: "plural", "person", "thing", "any" (a name
    WordNet does not know) or "" (a noun WordNet does not know)."""
    if t.role == "plural":
        return "plural"
    for equivalent in t.equivalents[:EQUIVALENTS]:
        person = names_a_person(equivalent.casefold())
        if person is not None:
            return "person" if person else "thing"
    return "any" if t.name else ""


def _other_name(v: SentenceView, taken: set[int]) -> bool:
    """Whether the output names someone or something no keyword stands for (a word it writes
    capitalized, but the first, that no match took: a name the source writes in Latin letters,
    "Rattin은"), whom a pronoun could mean as well."""
    if not v.names:
        return False
    return any(i and t in v.names and t not in PRONOUNS and i not in taken for i, t in enumerate(v.tokens))

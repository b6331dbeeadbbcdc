"""Grammatical constructions: sequences of morphemes that say one thing, or nothing, in English.

Korean says with a bound noun and a verb what English says with a modal (-ㄹ 수 있다 "can", -ㄹ 것이다
"will"), and it nominalizes with 것 where English needs no word at all (-는 것). Counted word by
word, 수, 것 and 있다 are keywords that a faithful translation never shows. A construction file
says, per tag set, which morpheme sequences are one unit and how English realizes it::

    # ktr-constructions/1
    can<TAB>sejong<TAB>unit<TAB>ᆯ|ㄹ|을/ETM [ 수/NNB */JKS|JX? 있/VA|VV|VX ]<TAB>can;could;able;possible
    nominalizer<TAB>sejong<TAB>grammar<TAB>는|ᆫ|ㄴ|은|던/ETM [ 것/NNB ]<TAB>

A pattern is a sequence of items ``FORMS/TAGS``: forms (``*`` for any) and tags separated by
``|``, an item ending in ``?`` optional. The brackets mark the part that is the construction:

* ``unit``: the keywords inside the brackets become one keyword of class ``construction`` (one is
  made where no keyword class keeps the morphemes: the auxiliary 싶다 of -고 싶다), whose
  English realizations (words, phrases, or marks such as ``@negation`` for n't, not, no, never…)
  are matched in the output by the ``construction`` stage;
* ``grammar``: the keywords inside the brackets are grammar, not keywords.

The first construction of the file that matches at a position takes its morphemes; later ones
only match elsewhere. Constructions apply when the ``construction`` stage is on, to analyzers
whose tag set has rows in the file.
"""

from __future__ import annotations

import hashlib
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate

from ktr.errors import LexiconError
from ktr.korean.analyzers.base import Morpheme
from ktr.korean.keywords import Keyword
from ktr.lexicon.format import resolve_lexicon_path, split_columns

HEADER = "# ktr-constructions/1"
ACTIONS = ("unit", "grammar")
#: marks carried by an inflection of another word (written ``@`` + the ending in :data:`MARKS`),
#: with their irregular forms: the comparative "bigger" carries 더 (more) as well as 크다 (big),
#: "most" 가장 as well as 많다 (many), so a unit realized by one shares the token with the word it
#: inflects (:func:`ktr.matching.marks.ending_stage`)
INFLECTED = {
    "er": ("more", "less", "better", "worse", "further", "farther", "fewer"),
    "est": ("most", "least", "best", "worst", "furthest", "farthest"),
}
#: grammatical marks a realization may name, and the output words that carry them (English
#: contractions are tokenized apart: can't is "can" "t", we'll is "we" "ll")
MARKS: dict[str, tuple[str, ...]] = {
    "@negation": ("not", "t", "no", "never", "cannot", "without", "none", "nothing", "nobody", "neither", "nor"),
    "@future": ("will", "would", "ll", "shall", "going", "gonna"),
    "@plural_pronoun": ("they", "them", "their", "theirs", "themselves"),
    "@comparative": (*INFLECTED["er"], "rather", "@er"),
    "@superlative": (*INFLECTED["est"], "@est"),
    "@passive": ("@passive",),
    "@progressive": ("@progressive",),
    "@partitive": ("@partitive",),
    "@negated": ("@negated",),
    "@relative": ("@relative",),
    "@agent": ("@agent",),
    "@preposition": ("@preposition",),
    "@to_infinitive": ("@to_infinitive",),
}
#: the forms of be (contractions are tokenized apart: 're and 'm are "re" and "m")
_BE = frozenset({"be", "is", "are", "re", "m", "was", "were", "been"})
#: ``@passive``: a form of be or get before a past participle ("were criticized", "was widely
#: praised", "they're approved"), which carries 받다 in 비난을 받다 with the noun the participle
#: derives from
PASSIVE_AUXILIARIES = _BE | {"being", "get", "gets", "got", "gotten", "getting"}
#: ``@progressive``: a form of be before an -ing form ("is waiting", "I'm doing"), which carries
#: 중 in -는 중이다 with the verb before it, as the passive carries 받다 with its noun
PROGRESSIVE_AUXILIARIES = _BE
#: ``@preposition``: the preposition that governs the match of the keyword before the unit, as in
#: 유행에 대한 흥미 "interest in that craze" and 쥐에 대한 실험 "research on rats", where the English
#: verb or noun chooses the preposition (in, on, of, for, to…) that carries 에 대해;
#: ``@to_infinitive``: "to" or "for" before the match of the verb before the unit, as in 경고하기
#: 위해 "to warn"; ``@partitive``: "of" before the match of the noun before the unit, as in 탈취범들 중
#: 15명 "15 of the 19 hijackers"; ``@negated``: a negation before the match of the noun before the
#: unit, as in 물이 없다 "the town doesn't have clean water", 필요 없다 "do not need"; ``@relative``:
#: "who" before the match of the verb before the unit, as in 책을 읽은 사람들 "those who read the book"
#: (:func:`ktr.matching.marks.ending_stage`)
GOVERNING = {
    "preposition": frozenset(
        {"about", "on", "upon", "of", "for", "to", "toward", "towards", "in", "into", "at", "over", "against", "with"}
    ),
    "to_infinitive": frozenset({"to", "for"}),
    "partitive": frozenset({"of"}),
    "negated": frozenset({"not", "t", "never"}),
    "relative": frozenset({"who", "whoever", "whom"}),
}


@dataclass(frozen=True)
class Item:
    forms: frozenset[str] | None  # None: any form
    tags: frozenset[str]
    optional: bool


@dataclass(frozen=True)
class Construction:
    name: str
    tagset: str
    action: str
    pattern: str  # as written
    items: tuple[Item, ...]
    inside: tuple[int, int]  # the items in brackets: [first, last)
    english: tuple[str, ...]  # realizations, marks expanded
    where: str


def _item(text: str, where: str) -> Item:
    optional = text.endswith("?")
    body = text[:-1] if optional else text
    forms, slash, tags = body.rpartition("/")
    if not slash or not forms or not tags:
        raise LexiconError(f"{where}: pattern item {text!r} must be FORMS/TAGS")
    return Item(None if forms == "*" else frozenset(forms.split("|")), frozenset(tags.split("|")), optional)


def _parse(line: str, where: str) -> Construction | None:
    cols = split_columns(line, where, ("name", "tag set", "action", "pattern", "English"))
    if cols is None:
        return None
    name, tagset, action, pattern, english = cols
    if action not in ACTIONS:
        raise LexiconError(f"{where}: action {action!r} is not one of {', '.join(ACTIONS)}")
    words = pattern.split()
    if words.count("[") != 1 or words.count("]") != 1 or words.index("[") > words.index("]"):
        raise LexiconError(f"{where}: the pattern must mark its construction with one [ and one ]")
    first, last = words.index("["), words.index("]") - 1
    items = tuple(_item(w, where) for w in words if w not in ("[", "]"))
    if last <= first:
        raise LexiconError(f"{where}: nothing between [ and ]")
    realizations: list[str] = []
    for phrase in filter(None, (p.strip() for p in english.split(";"))):
        if phrase.startswith("@"):
            if phrase not in MARKS:
                raise LexiconError(f"{where}: unknown mark {phrase!r}; known: {', '.join(MARKS)}")
            realizations += MARKS[phrase]
        else:
            realizations.append(phrase)
    if action == "unit" and not realizations:
        raise LexiconError(f"{where}: a unit needs its English realizations")
    return Construction(
        name, tagset, action, " ".join(words), items, (first, last), tuple(dict.fromkeys(realizations)), where
    )


def _matches(item: Item, m: Morpheme) -> bool:
    return m.tag in item.tags and (item.forms is None or m.form in item.forms)


def _walk(items: Sequence[Item], morphemes: Sequence[Morpheme], i: int, at: int) -> list[int | None] | None:
    """Per item from ``i`` on, the morpheme it matches from ``at`` on (None: an optional item left
    out), or None when the items cannot match there."""
    if i == len(items):
        return []
    item = items[i]
    if at < len(morphemes) and _matches(item, morphemes[at]):
        rest = _walk(items, morphemes, i + 1, at + 1)
        if rest is not None:
            return [at, *rest]
    if item.optional:
        rest = _walk(items, morphemes, i + 1, at)
        if rest is not None:
            return [None, *rest]
    return None


def _match_at(c: Construction, morphemes: Sequence[Morpheme], start: int) -> range | None:
    """The morphemes inside the brackets when ``c`` matches from ``start`` on, or None."""
    matched = _walk(c.items, morphemes, 0, start)
    if matched is None:
        return None
    inside = [at for at in matched[c.inside[0] : c.inside[1]] if at is not None]
    return range(inside[0], inside[-1] + 1) if inside else None


def _needed_forms(c: Construction) -> tuple[frozenset[str], ...]:
    """For each required item with fixed forms, those forms: a sentence without one of each
    cannot hold the construction."""
    return tuple(item.forms for item in c.items if item.forms is not None and not item.optional)


class _Spans:
    """Which of a line's construction spans is the first (in their order) around a keyword, in
    logarithmic time: the spans come in the order of their first morpheme, so of those starting by
    the keyword's start (a prefix of them), the first reaching its end is where the largest end so
    far first does. Spans out of that order are scanned, as before."""

    def __init__(self, spans: Sequence[tuple[int, int, Construction]]) -> None:
        self.spans = spans
        self.starts = [s for s, _, _ in spans]
        self.ordered = all(a <= b for a, b in zip(self.starts, self.starts[1:]))
        self.reach = list(accumulate((e for _, e, _ in spans), max))

    def first_around(self, start: int, end: int) -> int | None:
        if not self.ordered:
            return next((n for n, (s, e, _) in enumerate(self.spans) if s <= start and end <= e), None)
        before = bisect_right(self.starts, start)
        n = bisect_left(self.reach, end, 0, before)
        return n if n < before else None


class ConstructionTable:
    """The constructions of one or more files for one tag set; :meth:`apply` rewrites keywords."""

    def __init__(self, constructions: list[Construction], tagset: str):
        self.constructions = [c for c in constructions if c.tagset == tagset]
        #: a construction's name → its realizations
        self.realizations = {c.name: c.english for c in self.constructions}
        self._needed = [(c, _needed_forms(c)) for c in self.constructions]
        h = hashlib.sha256(tagset.encode("utf-8") + b"\n")  # the rows this tag set uses
        for c in self.constructions:
            h.update("\t".join((c.name, c.tagset, c.action, c.pattern, ";".join(c.english))).encode("utf-8") + b"\n")
        self.digest = h.hexdigest()

    @classmethod
    def from_files(cls, names: Sequence[str], tagset: str) -> ConstructionTable:
        found: list[Construction] = []
        for name in names:
            path = resolve_lexicon_path(name)
            try:
                lines = path.read_text(encoding="utf-8").splitlines()
            except OSError as exc:
                raise LexiconError(f"{path}: cannot read constructions: {exc.strerror}") from None
            except UnicodeDecodeError as exc:
                raise LexiconError(f"{path}: not UTF-8 (byte {exc.start})") from None
            if not lines or lines[0].strip() != HEADER:
                raise LexiconError(f"{path}:1: a construction file starts with {HEADER!r}")
            for n, line in enumerate(lines[1:], 2):
                c = _parse(line, f"{path}:{n}")
                if c is not None:
                    found.append(c)
        names_seen: dict[str, str] = {}
        for c in found:
            key = f"{c.tagset}:{c.name}"
            if key in names_seen:
                raise LexiconError(f"{c.where}: construction {c.name!r} already defined at {names_seen[key]}")
            names_seen[key] = c.where
        return cls(found, tagset)

    def __len__(self) -> int:
        return len(self.constructions)

    def apply(self, morphemes: Sequence[Morpheme], keywords: list[Keyword]) -> list[Keyword]:
        """Keywords with every construction applied: a unit's keywords replaced by one keyword of
        class ``construction`` (lemma: the construction's name), a grammar construction's dropped."""
        if not self.constructions or not keywords:
            return keywords
        forms = {m.form for m in morphemes}
        active = [c for c, needed in self._needed if all(not f.isdisjoint(forms) for f in needed)]
        if not active:  # most sentences: not one construction's words are there
            return keywords
        spans: list[tuple[int, int, Construction]] = []  # character spans of the brackets
        taken = [False] * len(morphemes)
        for start in range(len(morphemes)):
            for c in active:
                found = _match_at(c, morphemes, start)
                if found is None or any(taken[i] for i in found):
                    continue
                for i in found:
                    taken[i] = True
                spans.append((morphemes[found[0]].start, morphemes[found[-1]].end, c))
                break
        if not spans:
            return keywords
        out: list[Keyword] = []
        placed: set[int] = set()
        within = _Spans(spans)
        for kw in keywords:
            inside = within.first_around(kw.start, kw.end)
            if inside is None:
                out.append(kw)
                continue
            s, e, c = spans[inside]
            if c.action == "unit" and inside not in placed:
                placed.add(inside)
                out.append(Keyword(c.name, "construction", "construction", s, e))
        # a unit over morphemes no class keeps (the auxiliary 싶다 of -고 싶다) is a keyword all the same
        alone = [
            Keyword(c.name, "construction", "construction", s, e)
            for n, (s, e, c) in enumerate(spans)
            if c.action == "unit" and n not in placed
        ]
        return sorted(out + alone, key=lambda k: k.start) if alone else out

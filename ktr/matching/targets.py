"""What a keyword may match in an output: its look-up in the lexicon and its :class:`Targets`,
built once per keyword when a source is prepared (phrases indexed by their first word, so
matching never tokenizes)."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from ktr.english.tokens import phrase
from ktr.korean.keywords import Keyword
from ktr.lexicon import Lexicon
from ktr.lexicon.format import Lookup
from ktr.matching import numbers
from ktr.matching.transliteration import is_hangul, romanize, sound_key


@dataclass(frozen=True, slots=True)
class Targets:
    """What a keyword may match: its lexicon equivalents, their WordNet synonyms and
    derivations, the English of an idiom unit, its value as a number, the sound key of a name or
    loanword."""

    equivalents: tuple[str, ...] = ()
    synonyms: tuple[str, ...] = ()
    idioms: tuple[str, ...] = ()  # English phrases of an idiom unit
    numbers: tuple[str, ...] = ()  # number keys (:func:`ktr.matching.numbers.korean_keys`)
    sound: str = ""  # sound key (:func:`ktr.matching.transliteration.korean_key`)
    #: the keyword a sound key without a lexicon entry is of: two names of one key (테네시 and
    #: 타이탄스 are both TNS) are two words, not one word the source repeats
    #: (:func:`ktr.matching.cascade.match_sentence`)
    word: str = ""
    #: a name too short for a sound key (유미: one consonant), matched only as the Revised
    #: Romanization spells it, in one word or two hyphenated ("yumi": Yumi, Yu-mi)
    spelled: str = ""
    name: bool = False  # a proper noun: matches only words written capitalized
    derivations: tuple[str, ...] = ()  # words WordNet derives from an equivalent (:mod:`ktr.lexicon.expand`)
    #: words left out of ``synonyms`` and ``derivations`` as not meaning what the entry says, each
    #: (word, stage, reason): a lemma of an equivalent's synset in a rare sense of its own
    #: (:func:`ktr.lexicon.expand.rare_synonyms_of`), a derivation that is a converse of an
    #: equivalent (:func:`ktr.lexicon.expand.converse_derivations`); shown refused where the
    #: output has one
    refused: tuple[tuple[str, str, str], ...] = field(default=(), compare=False)
    #: for a name: the English of every proper noun of the lexicon (lower case) → its Korean
    #: lemmas, shared by all keywords: a word the lexicon gives another name is not this one
    #: however it sounds (오스트리아 is not "Australia", 호주's)
    others: Mapping[str, tuple[str, ...]] = field(default_factory=dict, compare=False, repr=False)
    construction: bool = False  # ``idioms`` are the realizations of a construction unit
    endings: tuple[str, ...] = ()  # a unit's inflected marks: "er" is any comparative ("bigger")
    counted: tuple[str, ...] = ()  # nouns a number's counter stands for ("people" for 2명), traced after it
    one: bool = False  # one of something counted (한 마리, 한 명): also the article before its noun ("a dog")
    #: the keyword's lemma and class, for a keyword with a lexicon entry (not a number, an idiom
    #: or a construction unit); not compared: they name what the equivalents already say
    lemma: str = field(default="", compare=False)
    cls: str = field(default="", compare=False)
    #: how the source marks this occurrence of a noun or name, for the stages that read "roles":
    #: "subject" (the topic or subject of its clause: 남편은), "plural" (학생들이) or ""
    role: str = field(default="", compare=False)
    # Derived once, when the source is prepared, so matching never tokenizes a phrase: the
    # phrases of each kind by their first word, and the first words of all of them (a sentence
    # holding none of these, as written or as a base word, matches no phrase).
    by_first: Index = field(init=False, repr=False, compare=False)
    synonyms_by_first: Index = field(init=False, repr=False, compare=False)
    idioms_by_first: Index = field(init=False, repr=False, compare=False)
    derivations_by_first: Index = field(init=False, repr=False, compare=False)
    #: first words of the equivalents, synonyms, idiom phrases and derivations, each on its own
    own_firsts: tuple[frozenset[str], ...] = field(init=False, repr=False, compare=False)

    def marked(self, role: str) -> Targets:
        """The same targets with :attr:`role` set (a copy: its indexes are shared, not built again)."""
        found = copy.copy(self)
        object.__setattr__(found, "role", role)
        return found

    def __post_init__(self) -> None:
        indexes = [
            _by_first(self.equivalents),
            _by_first(self.synonyms),
            _by_first(self.idioms),
            _by_first(self.derivations),
        ]
        for name, index in zip(("by_first", "synonyms_by_first", "idioms_by_first", "derivations_by_first"), indexes):
            object.__setattr__(self, name, index)
        object.__setattr__(self, "own_firsts", tuple(frozenset(index) for index in indexes))


#: first word -> (rank in the list, phrase, its words) of the phrases starting with it
Index = dict[str, list[tuple[int, str, tuple[str, ...]]]]


def _by_first(phrases: Sequence[str]) -> Index:
    index: Index = {}
    for rank, text in enumerate(phrases):
        words = phrase(text)
        if words:
            index.setdefault(words[0], []).append((rank, text, words))
    return index


class Unit(NamedTuple):
    """How a stage that joins keywords into units (:meth:`ktr.matching.stage.Stage.join`) looks
    up a unit of its kind (a keyword it made; None for any other), and what the unit may match
    (given its look-up and its number keys)."""

    lookup: Callable[[Keyword], Lookup | None]
    targets: Callable[[Keyword, Lookup, tuple[str, ...]], Targets]


class KeywordTargets:
    """A keyword's look-up and targets, from the lexicon and the stages in use: the look-ups of
    the units they join (numbers, constructions), the targets their tables fill by entry
    (WordNet's synonyms and derivations), numbers by value, names and unknown nouns by sound."""

    def __init__(
        self,
        lexicon: Lexicon,
        fills: Mapping[str, Mapping[tuple[str, str], tuple[str, ...]]],
        reads: frozenset[str] = frozenset({"numbers", "sounds"}),
        units: Mapping[str, Unit] = {},
    ):
        self.lexicon, self.units = lexicon, units
        self.synonyms = fills.get("synonyms", {})
        self.derivations = fills.get("derivations", {})
        self.numbers, self.sounds = "numbers" in reads, "sounds" in reads
        self._names: dict[str, tuple[str, ...]] | None = None

    @property
    def names(self) -> Mapping[str, tuple[str, ...]]:
        """The English of the lexicon's proper nouns, lower case, with their Korean lemmas (built
        when a name first asks)."""
        if self._names is None:
            found: dict[str, list[str]] = {}
            for entry in self.lexicon:
                if entry.cls == "proper_noun":
                    for english in entry.equivalents:
                        lemmas = found.setdefault(" ".join(phrase(english)), [])
                        if entry.lemma not in lemmas:
                            lemmas.append(entry.lemma)
            self._names = {english: tuple(lemmas) for english, lemmas in found.items() if english}
        return self._names

    def _refused(self, entry: tuple[str, str]) -> tuple[tuple[str, str, str], ...]:
        """The words the synonym and derivation tables left out for ``entry``, with the stage and why."""
        rare = getattr(self.synonyms, "rare", {}).get(entry, ())
        converse = getattr(self.derivations, "refused", {}).get(entry, ())
        return (
            *((w, "synonym", f"a rare sense of {w}") for w in rare),
            *((w, "derivation", why) for w, why in converse),
        )

    def lookup(self, keyword: Keyword) -> Lookup | None:
        """The look-up of a unit a stage joined, else the lexicon entry of a keyword, or None."""
        for unit in self.units.values():
            if (found := unit.lookup(keyword)) is not None:
                return found
        found = self.lexicon.lookup(keyword.lemma, keyword.cls)
        if found is None and keyword.base:
            found = self.lexicon.lookup(keyword.base, keyword.cls)
        return found

    def targets(self, keyword: Keyword, found: Lookup | None) -> Targets:
        """What ``keyword``, looked up as ``found``, may match."""
        name = keyword.cls == "proper_noun"
        sound = spelled = ""
        if self.sounds and is_hangul(keyword.lemma) and (name or (found is None and keyword.cls == "noun")):
            sound = sound_key(keyword.lemma)
            spelled = "" if sound or not name else romanize(keyword.lemma)
        elif self.sounds and found is not None and keyword.cls == "noun":
            spelled = _as_a_name(keyword.lemma)  # a common noun that is also a name: 나리 (lily), Typhoon Nari
        number_keys = numbers.korean_keys(keyword) if self.numbers else ()
        if found is not None and found.via in self.units:  # a unit a stage joined
            return self.units[found.via].targets(keyword, found, number_keys)
        if found is None:
            word = keyword.lemma if sound or spelled else ""
            others = self.names if name and sound else {}
            return Targets(numbers=number_keys, sound=sound, word=word, spelled=spelled, name=name, others=others)
        entry = (found.entry.lemma, found.entry.cls) if found.entry else None
        return Targets(
            found.equivalents,
            self.synonyms.get(entry, ()) if entry else (),
            numbers=number_keys,
            sound=sound,
            spelled=spelled,
            name=name,
            derivations=self.derivations.get(entry, ()) if entry else (),
            refused=self._refused(entry) if entry else (),
            others=self.names if name and sound else {},
            lemma=keyword.lemma,
            cls=keyword.cls,
        )


#: the fewest letters of a common noun's Revised Romanization that, written capitalized in the
#: output, is taken for the noun used as a name
NAME_LETTERS = 4


def _as_a_name(lemma: str) -> str:
    """The Revised Romanization a common noun may be matched by as a name: of Hangul of two
    syllables or more, spelled in :data:`NAME_LETTERS` letters or more (나리 Nari, 가람 Garam);
    "" for any other (not 배 "bae", 차 "cha")."""
    if not is_hangul(lemma) or len(lemma) < 2:
        return ""
    spelled = romanize(lemma)
    return spelled if len(spelled) >= NAME_LETTERS else ""

"""How two English words are related in WordNet, for the stages that credit a word other than
a lexicon equivalent.

A translation may carry a keyword by a word close in meaning to its lexicon equivalents without
being one of them ("modesty" for 겸손하다, humble). Embeddings see that closeness, but also the
closeness of words that mean something else: an antonym ("loves" for 싫어하다, hate), a sister
term ("tuesday" for 월요일, Monday), a part for the whole ("finger" for 손, hand), a converse
("learned" for 가르치다, teach), which is exactly what a wrong translation writes. :func:`kin`
tells them apart in the main senses of both words (the first two of each part of speech:
"learn" is a synonym of "teach" only in its fifth); :func:`relation`, the semantic stage's
version 3, over every sense (a synonym or hypernym in any sense still counts as evidence).

WordNet's graph is read from an index built once into ktr's cache (:mod:`ktr.english.wordnet_index`).
An inflected word is looked up by WordNet's own suffix rules (``athletes`` → athlete, ``hates`` →
hate).
"""

from __future__ import annotations

from functools import lru_cache

from ktr.english.wordnet_index import lemma as _lemma
from ktr.english.wordnet_index import synset as _synset

#: steps up or down WordNet's noun hierarchy within which a hypernym or hyponym counts
HYPERNYM_STEPS = 2
#: WordNet's detachment rules (NLTK's ``morphy``): suffix → replacement
_SUFFIXES = (
    ("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"),
    ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", ""),
    ("er", ""), ("est", ""), ("er", "e"), ("est", "e"),
)  # fmt: skip


def is_lemma(phrase: str) -> bool:
    """Whether WordNet lists ``phrase`` (lower case, words joined by spaces) as a lemma: "pick
    up", "street lamp", "give up"."""
    return bool(_lemma(phrase))


@lru_cache(maxsize=65536)
def _synsets(word: str) -> frozenset[int]:
    """The synsets of ``word``, or of the base forms WordNet's suffix rules give."""
    found = _lemma(word)
    if found:
        return frozenset(found)
    bases = {word[: -len(suffix)] + ending for suffix, ending in _SUFFIXES if word.endswith(suffix)}
    return frozenset(n for base in bases for n in _lemma(base))


@lru_cache(maxsize=65536)
def _above(synset: int) -> frozenset[int]:
    """The synsets up to :data:`HYPERNYM_STEPS` steps above ``synset``."""
    found: set[int] = set()
    front = {synset}
    for _ in range(HYPERNYM_STEPS):
        front = {h for s in front for h in _synset(s)[1]}
        found |= front
    return frozenset(found)


@lru_cache(maxsize=262144)
def relation(word: str, other: str) -> str:
    """``synonym``, ``antonym``, ``hypernym`` (either is a kind of the other, nouns), ``sister``
    (the same direct hypernym, and none of the above), ``other`` (both known to WordNet, unrelated
    so) or ``unknown`` (one is not in WordNet)."""
    mine, theirs = _synsets(word), _synsets(other.lower())
    if not mine or not theirs:
        return "unknown"
    if mine & theirs:
        return "synonym"
    if any(not theirs.isdisjoint(_synset(s)[2]) for s in mine):
        return "antonym"
    nouns = [s for s in mine if _synset(s)[0] == "n"]
    other_nouns = [s for s in theirs if _synset(s)[0] == "n"]
    if any(b in _above(a) or a in _above(b) for a in nouns for b in other_nouns):
        return "hypernym"
    parents = {h for s in mine for h in _synset(s)[1]}
    if any(not parents.isdisjoint(_synset(s)[1]) for s in theirs):
        return "sister"
    return "other"


#: the senses of a word (per part of speech, WordNet's most frequent first) that :func:`kin` weighs:
#: a word's main senses, not every sense WordNet lists ("learn" is a synonym of "teach" only in
#: its fifth sense)
MAIN_SENSES = 2
#: how far below the root of WordNet's hierarchy the hypernym two sister terms share must be: a
#: kind of something specific (days of the week, birds of prey, limbs), not of "location" or
#: "period" (*region* and *district*, *time* and *moment* are said for one another)
SISTER_DEPTH = 5
#: the kinds of :func:`kin`, the closest first
KINDS = ("synonym", "antonym", "broader", "narrower", "part", "converse", "sister", "other", "unknown")


@lru_cache(maxsize=65536)
def _main(word: str, senses: int, pos: str = "") -> tuple[int, ...]:
    """The first ``senses`` synsets of each part of speech of ``word`` and of the base forms
    WordNet's suffix rules give (*learned* is an adjective and a form of *learn*), in WordNet's
    order of senses; of part of speech ``pos`` only
    (n, v, a, r), when given and ``word`` has senses of it."""
    bases = sorted({word[: -len(suffix)] + ending for suffix, ending in _SUFFIXES if word.endswith(suffix)})
    found = tuple(dict.fromkeys((*_lemma(word), *(n for base in bases for n in _lemma(base)))))
    kept: list[int] = []
    count: dict[str, int] = {}
    for n in found:
        mine = _synset(n).pos
        mine = "a" if mine == "s" else mine
        if count.get(mine, 0) < senses:
            count[mine] = count.get(mine, 0) + 1
            kept.append(n)
    if pos and any(_pos(n) == pos for n in kept):
        return tuple(n for n in kept if _pos(n) == pos)
    return tuple(kept)


def _pos(synset: int) -> str:
    pos = _synset(synset).pos
    return "a" if pos == "s" else pos


@lru_cache(maxsize=262144)
def _depth(synset: int) -> int:
    """How far ``synset`` is below the root of its hierarchy (the shortest way up)."""
    above = _synset(synset).hypernyms
    return 1 + min(map(_depth, above)) if above else 0


@lru_cache(maxsize=262144)
def _up(synsets: tuple[int, ...], steps: int) -> frozenset[int]:
    """The synsets up to ``steps`` steps above ``synsets`` (remembered: the derivation table's
    converses ask :func:`kin` of one word against each equivalent of its entry)."""
    found: set[int] = set()
    front = set(synsets)
    for _ in range(steps):
        front = {h for s in front for h in _synset(s).hypernyms}
        found |= front
    return frozenset(found)


@lru_cache(maxsize=262144)
def kin(word: str, other: str, senses: int = MAIN_SENSES, pos: str = "") -> str:
    """How ``word`` (a word of a translation) is related to ``other`` (a lexicon equivalent) in
    their main senses (the first ``senses`` of each part of speech; of part of speech ``pos``
    alone, when given and the word has it), the closest relation of :data:`KINDS`:

    - ``synonym``: a synset in common, the same meaning;
    - ``antonym``: the opposite, or the opposite of a derivationally related form (*buyer* and
      *seller*: *buy* and *sell*);
    - ``broader`` / ``narrower``: ``word`` is a more general / more specific word (a noun's
      hypernym or hyponym, two steps at most: *aircraft* for *helicopter*, *sofa* for *furniture*);
    - ``part``: a part or member of what ``other`` names, or the whole it is part of (*lens*,
      *camera*; *face*, *head*; *continent*, *planet*: the earth is a planet), a step of hypernymy
      allowed on the whole's side;
    - ``converse``: what one verb entails or causes (*buy* entails *pay*), the other side of one
      exchange;
    - ``sister``: another kind of the same thing: a hypernym in common within two steps of each,
      :data:`SISTER_DEPTH` steps or more below the root (*Tuesday*, *Monday*: weekdays;
      *Saturday*, *Sunday*: days of the week);
    - ``other`` (both known to WordNet, related none of these ways) or ``unknown``."""
    mine, theirs = _main(word, senses, pos), _main(other.lower(), senses, pos)
    if not mine or not theirs:
        return "unknown"
    a, b = set(mine), set(theirs)
    if a & b:
        return "synonym"
    derived_a = a | {d for s in a for d in _synset(s).derived}
    derived_b = b | {d for s in b for d in _synset(s).derived}
    if any(not derived_b.isdisjoint(_synset(s).antonyms) for s in derived_a):
        return "antonym"
    nouns_a = tuple(s for s in a if _synset(s).pos == "n")
    nouns_b = tuple(s for s in b if _synset(s).pos == "n")
    if not b.isdisjoint(_up(nouns_a, HYPERNYM_STEPS)):
        return "narrower"
    if not a.isdisjoint(_up(nouns_b, HYPERNYM_STEPS)):
        return "broader"
    parts_a = {p for s in a for p in _synset(s).parts}
    parts_b = {p for s in b for p in _synset(s).parts}
    if not b.isdisjoint(parts_a | _up(tuple(sorted(parts_a)), 1)) or not a.isdisjoint(
        parts_b | _up(tuple(sorted(parts_b)), 1)
    ):
        return "part"
    if any(not b.isdisjoint(_synset(s).entails) for s in a) or any(not a.isdisjoint(_synset(s).entails) for s in b):
        return "converse"
    shared = _up(mine, HYPERNYM_STEPS) & _up(theirs, HYPERNYM_STEPS)
    if any(_depth(s) >= SISTER_DEPTH for s in shared):
        return "sister"
    return "other"


#: WordNet's lexicographer file of the nouns that name people (``noun.person``)
PERSON_FILE = 18


@lru_cache(maxsize=65536)
def names_a_person(word: str) -> bool | None:
    """Whether the first sense of ``word`` (or of its base form) as a noun names a person
    (WordNet's ``noun.person``: *husband*, *president*, *teacher*; not *company*, *city*); None
    where WordNet has no noun of it."""
    nouns = [n for n in _main(word, 1, "n") if _synset(n).pos == "n"]
    return _synset(nouns[0]).lexfile == PERSON_FILE if nouns else None

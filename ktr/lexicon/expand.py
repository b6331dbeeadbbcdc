"""WordNet expansion of lexicon equivalents, compiled once and cached on disk.

For each entry, each of its first ``equivalents`` equivalents (all of them when 0; the lexicon lists
the most common senses first) is looked up in WordNet under the entry's part of speech. The
lemmas of its first ``senses`` synsets (WordNet orders senses by frequency) become *synonyms*
(``say`` → ``tell``, ``state``); the words WordNet links to the equivalent itself in those senses
as derivationally related become *derivations* (``criticism`` → ``criticise``/``criticize``,
``critical``; ``decision`` → ``decide``), with the words a suffix or two away from it
(:mod:`ktr.english.derivation`: ``silent`` → ``silently``). Classes without a WordNet part of speech (pronouns,
numerals, determiners) get neither. The tables are cached under ``$KTR_CACHE_DIR`` (default
``~/.cache/ktr``) keyed by the lexicon's content hash, WordNet's fingerprint and the options, so
scoring runs do not load WordNet.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from ktr.cache import cached_json
from ktr.english import wordnet
from ktr.english.derivation import RULES, Families, participle
from ktr.lexicon.format import Lexicon

#: bump when the expansion rules change, so old caches are not reused
EXPANSION_VERSION = 2
#: the synonyms' own rule (a synonym's synset among its own first senses: :func:`synonyms_of`),
#: named apart from the version so that it is in the signature and never shares a cache key with
#: a table made without it
SYNONYM_RULES = "own1"
WORDNET_POS = {"noun": "n", "bound_noun": "n", "proper_noun": "n", "verb": "v", "adjective": "a", "adverb": "r"}
#: never added as synonyms: too common to carry meaning on their own
STOP = frozenset("be have do get make go come take give put set let say see use one".split())

#: NLTK's WordNetCorpusReader (:func:`ktr.english.wordnet.load`): NLTK ships no type information
WordNet = Any
#: the words found for (WordNet, an equivalent, its part of speech, senses): synonyms or derivations
WordsOf = Callable[[WordNet, str, str, int], list[str]]


def synonyms_of(wn: WordNet, word: str, pos: str, senses: int) -> list[str]:
    """The lemmas of the first ``senses`` synsets of ``word`` (part of speech ``pos``) that mean
    that sense themselves: the synset is among the lemma's own first ``senses`` senses too. A
    lemma whose sense it is only far down its list is another word to a reader ("learn" is in
    teach's first synset, as its fifth sense; "draw" in get's): :func:`rare_synonyms_of`."""
    return [name for name, main in _synonyms(wn, word, pos, senses) if main]


def rare_synonyms_of(wn: WordNet, word: str, pos: str, senses: int) -> list[str]:
    """The lemmas of ``word``'s first synsets that :func:`synonyms_of` leaves out: the synset is
    not among their own first ``senses`` senses."""
    return [name for name, main in _synonyms(wn, word, pos, senses) if not main]


@lru_cache(maxsize=262144)
def _synonyms(wn: WordNet, word: str, pos: str, senses: int) -> tuple[tuple[str, bool], ...]:
    """The lemmas of ``word``'s first ``senses`` synsets, each with whether the synset is among its
    own first ``senses`` (remembered: the synonym and rare-synonym tables read the same ones)."""
    out: list[tuple[str, bool]] = []
    seen: set[str] = set()
    for synset in _senses(wn, word.replace(" ", "_"), pos)[:senses]:
        for lemma in synset.lemma_names():
            name = lemma.replace("_", " ").lower()
            if name != word.lower() and name not in seen and name not in STOP and "(" not in name:
                seen.add(name)
                out.append((name, synset in _senses(wn, lemma, pos)[:senses]))
    return tuple(out)


@lru_cache(maxsize=262144)
def _senses(wn: WordNet, word: str, pos: str) -> tuple[Any, ...]:
    """``wn.synsets(word, pos=pos)``, remembered: building the tables asks for the same words'
    senses again and again (a lemma of one equivalent's synsets is another's equivalent), and
    NLTK reads them anew each time (its morphology first): a first run's tables took 8.2 s, 5.5 s
    so (2026-12-07, two shared cores)."""
    return tuple(wn.synsets(word, pos=pos))


def compute(
    lexicon: Lexicon, senses: int, words_of: WordsOf = synonyms_of, equivalents: int = 0
) -> dict[tuple[str, str], tuple[str, ...]]:
    """Per entry with a WordNet part of speech, the words ``words_of`` gives for its first
    ``equivalents`` equivalents (0: all), other than the equivalents themselves, in order, once each."""
    wn = wordnet.load()
    table: dict[tuple[str, str], tuple[str, ...]] = {}
    for entry in lexicon:
        pos = WORDNET_POS.get(entry.cls)
        if pos is None:
            continue
        found: list[str] = []
        for eq in entry.equivalents[: equivalents or None]:
            for word in words_of(wn, eq, pos, senses):
                if word not in found and word not in entry.equivalents:
                    found.append(word)
        if found:
            table[(entry.lemma, entry.cls)] = tuple(found)
    return table


def _cached(
    kind: str, lexicon: Lexicon, senses: int, words_of: WordsOf, equivalents: int
) -> dict[tuple[str, str], tuple[str, ...]]:
    rules = {"derivations": f"{EXPANSION_VERSION}.{RULES}", "synonyms": f"{EXPANSION_VERSION}.{SYNONYM_RULES}"}.get(
        kind, str(EXPANSION_VERSION)
    )
    key = f"{rules}|{lexicon.digest}|{wordnet.fingerprint()}|{senses}|{equivalents}"
    rows = cached_json(
        kind,
        key,
        lambda: [
            [lemma, c, list(words)]
            for (lemma, c), words in sorted(compute(lexicon, senses, words_of, equivalents).items())
        ],
        _is_rows,
    )
    return {(lemma, c): tuple(words) for lemma, c, words in rows}


def _is_refusals(value: object) -> bool:
    """Whether refusals read back from the cache are the ones :func:`derivation_table` writes:
    [lemma, class, word, reason], all text; none at all is computed again, as :func:`_is_rows`
    does (quickly, for a lexicon without them)."""
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(row, list) and len(row) == 4 and all(isinstance(x, str) for x in row) for row in value)
    )


def _is_rows(value: object) -> bool:
    """Whether rows read back from the cache are the ones :func:`_cached` writes: [lemma, class,
    words]. Empty rows are computed again (quickly, if there are none: a lexicon of a few words)."""
    return (
        isinstance(value, list)
        and bool(value)
        and all(
            isinstance(row, list)
            and len(row) == 3
            and isinstance(row[0], str)
            and isinstance(row[1], str)
            and isinstance(row[2], list)
            and all(isinstance(word, str) for word in row[2])
            for row in value
        )
    )


def synonym_table(lexicon: Lexicon, senses: int, equivalents: int = 0) -> dict[tuple[str, str], tuple[str, ...]]:
    """The synonyms of ``lexicon``'s (first ``equivalents``) equivalents, from the cache when computed before."""
    return _cached("synonyms", lexicon, senses, synonyms_of, equivalents)


def rare_synonym_table(lexicon: Lexicon, senses: int, equivalents: int = 0) -> dict[tuple[str, str], tuple[str, ...]]:
    """The lemmas of the first synsets of ``lexicon``'s equivalents left out for being a rare
    sense of their own (:func:`rare_synonyms_of`), from the cache when computed before: where the
    output has one, the synonym stage shows it refused."""
    return _cached("rare-synonyms", lexicon, senses, rare_synonyms_of, equivalents)


@lru_cache(maxsize=2)
def _families(wn: WordNet) -> Families:
    """WordNet's single words with their parts of speech, as derivational families."""
    vocabulary: dict[str, str] = {}
    for pos in "nvar":
        for name in wn.all_lemma_names(pos=pos):
            vocabulary[name] = vocabulary.get(name, "") + pos
    return Families(vocabulary)


def derivations_of(wn: WordNet, word: str, pos: str, senses: int) -> list[str]:
    """Single words WordNet links to ``word`` as derivationally related, in its first ``senses``
    senses of part of speech ``pos`` (British -ise spellings get their -ize twin), then the
    words a suffix or two away from it (:mod:`ktr.english.derivation`: silent → silently,
    research → researcher) and, for "be + participle", the participle and its verb (be banned →
    banned, ban)."""
    out: list[str] = []
    for synset in _senses(wn, word.replace(" ", "_"), pos)[:senses]:
        for lemma in synset.lemmas():
            if lemma.name().lower() != word.lower().replace(" ", "_"):
                continue
            for related in lemma.derivationally_related_forms():
                name = related.name().lower()
                for form in (name, name.replace("isation", "ization").replace("ise", "ize")):
                    if form.isalpha() and form != word.lower() and form not in out and form not in STOP:
                        out.append(form)
    if word.isalpha():
        out += [w for w in _families(wn).related(word) if w not in out and w not in STOP]
    out += [w for w in participle(word, wn.morphy) if w not in out and w not in STOP]
    return out


def derivation_table(lexicon: Lexicon, senses: int, equivalents: int = 0) -> DerivationTable:
    """The derivations of ``lexicon``'s (first ``equivalents``) equivalents, less those that say
    the other side of what the entry says (:func:`converse_derivations`, kept apart with their
    reasons as :attr:`DerivationTable.refused`), from the cache when computed before."""
    table = _cached("derivations", lexicon, senses, derivations_of, equivalents)
    key = (
        f"{CONVERSE_RULES}|{EXPANSION_VERSION}.{RULES}|{lexicon.digest}|{wordnet.fingerprint()}|{senses}|{equivalents}"
    )
    rows = cached_json(
        "derivation-converses",
        key,
        lambda: [[lemma, c, word, why] for (lemma, c), word, why in converse_derivations(lexicon, table)],
        _is_refusals,
    )
    refused: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for lemma, c, word, why in rows:
        refused.setdefault((lemma, c), []).append((word, why))
    kept = {}
    for entry, words in table.items():
        out = {w for w, _ in refused.get(entry, ())}
        if left := tuple(w for w in words if w not in out):
            kept[entry] = left
    return DerivationTable(kept, {entry: tuple(pairs) for entry, pairs in refused.items()})


#: the rule of :func:`converse_derivations`, in the derivation stage's signature
CONVERSE_RULES = "conv1"


class DerivationTable(dict[tuple[str, str], tuple[str, ...]]):
    """The derivations of each entry (lemma, class), with those refused as the other side of what
    the entry says (:attr:`refused`: entry → (word, reason) pairs)."""

    def __init__(
        self,
        derivations: dict[tuple[str, str], tuple[str, ...]],
        refused: dict[tuple[str, str], tuple[tuple[str, str], ...]],
    ):
        super().__init__(derivations)
        self.refused = refused


def converse_derivations(
    lexicon: Lexicon, table: dict[tuple[str, str], tuple[str, ...]]
) -> list[tuple[tuple[str, str], str, str]]:
    """The derivations of ``table`` that WordNet relates to one of the entry's first three
    equivalents (single words, in their main senses: :func:`ktr.english.relations.kin`) as a
    converse or an antonym, with the reason: "be taught", one of 배우다's equivalents, brings
    *taught* and *teach*, and teaching is what causes another to learn, 배우다's first
    equivalent. (entry, word, reason) triples."""
    from ktr.english.relations import kin

    entries = {(entry.lemma, entry.cls): entry.equivalents for entry in lexicon}
    refused = []
    for key, words in table.items():
        mains = [e.lower() for e in entries.get(key, ())[:3] if e.isalpha()]
        pos = WORDNET_POS.get(key[1], "")
        for word in words:
            for main in mains:
                if (kind := kin(word, main, pos=pos)) in ("converse", "antonym"):
                    refused.append((key, word, f"{kind} of {main}"))
                    break
    return refused

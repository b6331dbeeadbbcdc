"""WordNet synonym expansion of lexicon equivalents, compiled once and cached on disk.

For each entry, every equivalent is looked up in WordNet under the entry's part of speech;
the lemmas of its first ``senses`` synsets (WordNet orders senses by frequency) become
synonyms (``say`` → ``tell``, ``state``). Classes without a WordNet part of speech (pronouns,
numerals, determiners) get none. The table is cached under ``$KTR_CACHE_DIR`` (default
``~/.cache/ktr``) keyed by the lexicon's content hash, WordNet's fingerprint and the options,
so scoring runs do not load WordNet.
"""
from __future__ import annotations

from ktr.english import wordnet
from ktr.cache import cached_json
from ktr.lexicon.format import Lexicon

#: bump when the expansion rules change, so old caches are not reused
EXPANSION_VERSION = 1
WORDNET_POS = {"noun": "n", "bound_noun": "n", "proper_noun": "n", "verb": "v", "adjective": "a", "adverb": "r"}
#: never added as synonyms: too common to carry meaning on their own
STOP = frozenset("be have do get make go come take give put set let say see use one".split())


def synonyms_of(wn, word: str, pos: str, senses: int) -> list[str]:
    out: list[str] = []
    for synset in wn.synsets(word.replace(" ", "_"), pos=pos)[:senses]:
        for lemma in synset.lemma_names():
            name = lemma.replace("_", " ").lower()
            if name != word.lower() and name not in out and name not in STOP and "(" not in name:
                out.append(name)
    return out


def compute(lexicon: Lexicon, senses: int) -> dict[tuple[str, str], tuple[str, ...]]:
    wn = wordnet.load()
    table: dict[tuple[str, str], tuple[str, ...]] = {}
    for entry in lexicon:
        pos = WORDNET_POS.get(entry.cls)
        if pos is None:
            continue
        found: list[str] = []
        for eq in entry.equivalents:
            for syn in synonyms_of(wn, eq, pos, senses):
                if syn not in found and syn not in entry.equivalents:
                    found.append(syn)
        if found:
            table[(entry.lemma, entry.cls)] = tuple(found)
    return table


def synonym_table(lexicon: Lexicon, senses: int) -> dict[tuple[str, str], tuple[str, ...]]:
    """The expansion of ``lexicon``, from the cache when it was computed before."""
    key = f"{EXPANSION_VERSION}|{lexicon.digest}|{wordnet.fingerprint()}|{senses}"
    rows = cached_json("synonyms", key, lambda: [
        [l, c, list(syns)] for (l, c), syns in sorted(compute(lexicon, senses).items())])
    return {(l, c): tuple(syns) for l, c, syns in rows}

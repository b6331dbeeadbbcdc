"""How two English words are related in WordNet, for the semantic stage's evidence.

A translation may carry a keyword by a word close in meaning to its lexicon equivalents without
being one of them: a more general or more specific noun ("athlete" for 선수, player; "hikers" for
여행자, traveler). Embeddings see that closeness, but also the closeness of words that mean
something else: an antonym ("loves" for 싫어하다, hate) or a sister term ("shoes" for 바지,
pants), which is exactly what a wrong translation writes. :func:`relation` tells them apart by
WordNet: the same synset, a hypernym or hyponym (nouns, two steps at most), a sister term (the
same direct hypernym), an antonym, or none of these.

WordNet is not read while scoring: its graph (each lemma's synsets; each synset's part of speech,
hypernyms and antonyms) is built into a SQLite index once, kept in ktr's cache folder (keyed by
WordNet's fingerprint; about 10 MB, built in a few seconds the first time), and read a word at a time,
so a run that asks about a few words loads next to nothing. An inflected word is looked up by
WordNet's own suffix rules (``athletes`` → athlete, ``hates`` → hate).
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import tempfile
import threading
from functools import lru_cache
from pathlib import Path

from ktr.cache import cache_dir

#: the index's layout; bump it when :func:`_build` changes
VERSION = 1
#: steps up or down WordNet's noun hierarchy within which a hypernym or hyponym counts
HYPERNYM_STEPS = 2
#: WordNet's detachment rules (NLTK's ``morphy``): suffix → replacement
_SUFFIXES = (
    ("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"),
    ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", ""),
    ("er", ""), ("est", ""), ("er", "e"), ("est", "e"),
)  # fmt: skip


def _build(path: Path) -> None:
    """WordNet's graph into a SQLite file: lemma → its synsets; per synset its part of speech,
    hypernyms (with instance hypernyms) and its lemmas' antonyms' synsets. Written under a
    temporary name and renamed, so that a run never reads half an index."""
    lemmas, rows = _graph()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    os.close(fd)
    try:
        db = sqlite3.connect(tmp)
        with db:
            db.execute("CREATE TABLE lemmas (name TEXT PRIMARY KEY, synsets TEXT NOT NULL)")
            db.execute("CREATE TABLE synsets (id INTEGER PRIMARY KEY, pos TEXT, hypernyms TEXT, antonyms TEXT)")
            db.executemany("INSERT INTO lemmas VALUES (?, ?)", ((k, _joined(v)) for k, v in lemmas.items()))
            db.executemany("INSERT INTO synsets VALUES (?, ?, ?, ?)", rows)
        db.close()
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _graph() -> tuple[dict[str, list[int]], list[tuple[int, str, str, str]]]:
    """WordNet's graph read from its data files (``data.noun`` ...; a line a synset: its words,
    then its pointers), as NLTK reads it: a hypernym (``@``, ``@i``) is a pointer between synsets
    (source and target ``0000``), an antonym (``!``) one between lemmas; an adjective's syntactic
    marker (``(a)``, ``(p)``, ``(ip)``) is not part of its lemma. Reading the files directly took
    2.9 s where NLTK's synset objects took 17 s, for the same graph: the same 147,306 lemmas and
    117,659 synsets, each with the same hypernyms and antonyms (compared whole when this was
    written; tests/test_semantic.py compares 400 lemmas' synsets with NLTK's)."""
    from ktr.english.wordnet import open_text

    number: dict[tuple[str, str], int] = {}
    parsed: list[tuple[str, list[str], list[tuple[str, str]], list[tuple[str, str]]]] = []
    for name in ("adj", "adv", "noun", "verb"):
        with open_text(f"data.{name}") as fh:
            for line in fh:
                if line.startswith("  "):
                    continue  # the licence at the head of each file
                fields = line.split(" | ", 1)[0].split()
                offset, pos, count = fields[0], fields[2], int(fields[3], 16)
                words = [fields[4 + 2 * i] for i in range(count)]
                at = 4 + 2 * count
                hypernyms, antonyms = [], []
                for i in range(int(fields[at])):
                    symbol, target, target_pos, ends = fields[at + 1 + 4 * i : at + 5 + 4 * i]
                    key = ("a" if target_pos in "as" else target_pos, target)
                    if symbol in ("@", "@i") and ends == "0000":
                        hypernyms.append(key)
                    elif symbol == "!" and ends[:2] != "00":
                        antonyms.append(key)
                number["a" if pos in "as" else pos, offset] = len(parsed)
                parsed.append((pos, words, hypernyms, antonyms))
    lemmas: dict[str, list[int]] = {}
    rows = []
    for n, (pos, words, hypernyms, antonyms) in enumerate(parsed):
        for word in words:
            if pos in "as" and word.endswith(")"):
                word = word[: word.rindex("(")]
            lemmas.setdefault(word.replace("_", " ").lower(), []).append(n)
        rows.append((n, pos, _joined([number[k] for k in hypernyms]), _joined(sorted({number[k] for k in antonyms}))))
    return lemmas, rows


def _joined(numbers: list[int]) -> str:
    return ",".join(map(str, numbers))


def _numbers(text: str) -> tuple[int, ...]:
    return tuple(int(n) for n in text.split(",")) if text else ()


_lock = threading.Lock()


@lru_cache(maxsize=1)
def _db() -> sqlite3.Connection:
    """The index of the WordNet ktr reads, built into ktr's cache the first time."""
    from ktr.english.wordnet import fingerprint

    key = hashlib.sha256(f"{VERSION}|{fingerprint()}".encode()).hexdigest()[:20]
    path = cache_dir() / f"relations-{key}.sqlite"
    with _lock:
        if not path.is_file():
            _build(path)
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)


@lru_cache(maxsize=262144)
def _lemma(name: str) -> tuple[int, ...]:
    row = _db().execute("SELECT synsets FROM lemmas WHERE name = ?", (name,)).fetchone()
    return _numbers(row[0]) if row else ()


@lru_cache(maxsize=262144)
def _synset(number: int) -> tuple[str, tuple[int, ...], tuple[int, ...]]:
    """(part of speech, hypernyms, antonyms) of a synset."""
    pos, hypernyms, antonyms = (
        _db().execute("SELECT pos, hypernyms, antonyms FROM synsets WHERE id = ?", (number,)).fetchone()
    )
    return pos, _numbers(hypernyms), _numbers(antonyms)


def is_lemma(phrase: str) -> bool:
    """Whether WordNet lists ``phrase`` (lower case, words joined by spaces) as a lemma: "pick
    up", "street lamp", "give up"."""
    return phrase in _phrases() if " " in phrase else bool(_lemma(phrase))


@lru_cache(maxsize=1)
def _phrases() -> frozenset[str]:
    """WordNet's lemmas of several words (about 60,000), held in memory: phrases are asked about
    far more often than they are found."""
    return frozenset(name for (name,) in _db().execute("SELECT name FROM lemmas WHERE name LIKE '% %'"))


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

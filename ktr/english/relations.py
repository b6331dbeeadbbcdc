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
import re
import sqlite3
import stat
import tempfile
import threading
from functools import lru_cache
from pathlib import Path

from ktr.cache import cache_dir, cannot_write

#: the index's layout; bump it when :func:`_fill` changes
VERSION = 2
#: steps up or down WordNet's noun hierarchy within which a hypernym or hyponym counts
HYPERNYM_STEPS = 2
#: WordNet's detachment rules (NLTK's ``morphy``): suffix → replacement
_SUFFIXES = (
    ("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"),
    ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", ""),
    ("er", ""), ("est", ""), ("er", "e"), ("est", "e"),
)  # fmt: skip


Graph = tuple[dict[str, list[int]], list[tuple[int, str, str, str]]]


def _fill(db: sqlite3.Connection, graph: Graph) -> None:
    """WordNet's graph into an empty SQLite database: lemma → its synsets; per synset its part of
    speech, hypernyms (with instance hypernyms) and its lemmas' antonyms' synsets; and how many
    rows of each it holds, which a file read back must still hold (:func:`_valid`)."""
    lemmas, rows = graph
    with db:
        db.execute("CREATE TABLE lemmas (name TEXT PRIMARY KEY, synsets TEXT NOT NULL)")
        db.execute("CREATE TABLE synsets (id INTEGER PRIMARY KEY, pos TEXT, hypernyms TEXT, antonyms TEXT)")
        db.execute("CREATE TABLE counts (lemmas INTEGER NOT NULL, synsets INTEGER NOT NULL)")
        db.executemany("INSERT INTO lemmas VALUES (?, ?)", ((k, _joined(v)) for k, v in lemmas.items()))
        db.executemany("INSERT INTO synsets VALUES (?, ?, ?, ?)", rows)
        db.execute("INSERT INTO counts VALUES (?, ?)", (len(lemmas), len(rows)))


def _build(path: Path, graph: Graph) -> None:
    """The index written under a temporary name and renamed, so that a run never reads half an
    index; without a journal (nothing to roll back in a file no one reads yet), and the temporary
    file removed whatever happens."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    os.close(fd)
    try:
        db = sqlite3.connect(tmp)
        try:
            db.execute("PRAGMA journal_mode=OFF")
            _fill(db, graph)
        finally:
            db.close()
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    finally:
        for name in (tmp, tmp + "-journal"):
            if os.path.exists(name):
                os.unlink(name)


def _valid(db: sqlite3.Connection) -> bool:
    """Whether an index read back is whole: SQLite finds it sound (``quick_check``), and it holds
    its tables with the rows it was written with."""
    try:
        if db.execute("PRAGMA quick_check").fetchall() != [("ok",)]:
            return False
        counts = db.execute("SELECT lemmas, synsets FROM counts").fetchall()
        held = db.execute("SELECT (SELECT count(*) FROM lemmas), (SELECT count(*) FROM synsets)").fetchall()
        return len(counts) == 1 and counts == held
    except sqlite3.Error:
        return False


def _open(path: Path) -> sqlite3.Connection | None:
    """The index in ``path`` when it is a regular file (never a pipe or a device, which would
    block or never end) and whole; else ``None``."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=_WAIT, check_same_thread=False)
    except (OSError, sqlite3.Error):
        return None
    if _valid(db):
        return db
    db.close()
    return None


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


#: a list of synset numbers as the index holds it
_LIST = re.compile(r"(?:[0-9]+(?:,[0-9]+)*)?")


_lock = threading.Lock()
#: seconds a query waits for a file another process has locked before the index is built anew
_WAIT = 0.5
_index: dict[str, sqlite3.Connection] = {}


def _db() -> sqlite3.Connection:
    """The index of the WordNet ktr reads, from ktr's cache; built there the first time, or when
    the file there is damaged; built in memory when it cannot be written there (said once)."""
    with _lock:
        if "db" not in _index:
            _index["db"] = _open(_path()) or _rebuild()
        return _index["db"]


def _path() -> Path:
    from ktr.english.wordnet import fingerprint

    key = hashlib.sha256(f"{VERSION}|{fingerprint()}".encode()).hexdigest()[:20]
    return cache_dir() / f"relations-{key}.sqlite"


def _rebuild() -> sqlite3.Connection:
    """The index built anew into the cache and read from there, or, when it cannot be written
    there, held in memory."""
    path, graph = _path(), _graph()
    try:
        _build(path, graph)
    except (OSError, sqlite3.Error) as exc:
        cannot_write(path.parent, str(getattr(exc, "strerror", None) or exc))
    db = _open(path)
    if db is None:
        db = sqlite3.connect(":memory:", check_same_thread=False)
        _fill(db, graph)
    return db


def _query(sql: str, args: tuple[object, ...], lists: int = 0) -> list[tuple[str, ...]]:
    """The rows of a query on the index (texts, the last ``lists`` of each a list of synset
    numbers). An index that fails a query or answers with what it cannot hold (locked by another
    process, changed under this one) is built anew, once per process."""
    db = _db()
    try:
        rows = db.execute(sql, args).fetchall()
        if all(
            all(isinstance(value, str) for value in row) and all(_LIST.fullmatch(v) for v in row[len(row) - lists :])
            for row in rows
        ):
            return rows
    except sqlite3.Error:
        pass
    with _lock:
        if _index.get("db") is db and "rebuilt" not in _index:
            _index["db"] = _index["rebuilt"] = _rebuild()
    if _index["db"] is db:
        raise RuntimeError(f"WordNet's index of relations cannot be read ({_path()})")
    return _query(sql, args, lists)


@lru_cache(maxsize=262144)
def _lemma(name: str) -> tuple[int, ...]:
    rows = _query("SELECT synsets FROM lemmas WHERE name = ?", (name,), lists=1)
    return _numbers(rows[0][0]) if rows else ()


@lru_cache(maxsize=262144)
def _synset(number: int) -> tuple[str, tuple[int, ...], tuple[int, ...]]:
    """(part of speech, hypernyms, antonyms) of a synset."""
    rows = _query("SELECT pos, hypernyms, antonyms FROM synsets WHERE id = ?", (number,), lists=2)
    pos, hypernyms, antonyms = rows[0] if rows else ("", "", "")
    return pos, _numbers(hypernyms), _numbers(antonyms)


def is_lemma(phrase: str) -> bool:
    """Whether WordNet lists ``phrase`` (lower case, words joined by spaces) as a lemma: "pick
    up", "street lamp", "give up"."""
    return phrase in _phrases() if " " in phrase else bool(_lemma(phrase))


@lru_cache(maxsize=1)
def _phrases() -> frozenset[str]:
    """WordNet's lemmas of several words (about 60,000), held in memory: phrases are asked about
    far more often than they are found."""
    return frozenset(name for (name,) in _query("SELECT name FROM lemmas WHERE name LIKE '% %'", ()))


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

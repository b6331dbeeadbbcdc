"""WordNet's graph as :mod:`ktr.english.relations` reads it while scoring.

WordNet's data files are not read while scoring: its graph (each lemma's synsets in WordNet's
order of senses; each synset's part of speech, hypernyms, antonyms, parts and wholes, what it
entails or causes and its words' derivationally related forms) is built into a SQLite index
once, kept in ktr's cache folder (keyed by WordNet's fingerprint; about 10 MB, built in a few
seconds the first time), and read a row at a time, so a run that asks about a few words loads
next to nothing. :func:`lemma` gives a lemma's synsets, :func:`synset` a synset's row
(:class:`Synset`). Every row read is checked as it is parsed: an index that fails a query, or
answers with a row of another shape, is built anew, once per process (``tests/test_cache.py``
damages it in eight ways).
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import stat
import tempfile
import threading
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple, TypeVar

from ktr.cache import cache_dir, cannot_write

#: the index's layout; bump it when :func:`_fill` changes
VERSION = 4
#: the synsets' table (part of the index's key with :data:`VERSION`, so that an index of another
#: layout in a shared cache folder is never read for this one)
_SYNSETS = (
    "CREATE TABLE synsets (id INTEGER PRIMARY KEY, pos TEXT, hypernyms TEXT, antonyms TEXT,"
    " parts TEXT, entails TEXT, derived TEXT, lexfile TEXT)"
)


Graph = tuple[dict[str, list[int]], list["Row"]]


def _fill(db: sqlite3.Connection, graph: Graph) -> None:
    """WordNet's graph into an empty SQLite database: lemma → its synsets; per synset its part of
    speech, hypernyms (with instance hypernyms), its lemmas' antonyms' synsets, its parts and
    wholes, what it entails or causes and its words' derived forms' synsets; and how many rows of
    each it holds, which a file read back must still hold (:func:`_valid`)."""
    lemmas, rows = graph
    with db:
        db.execute("CREATE TABLE lemmas (name TEXT PRIMARY KEY, synsets TEXT NOT NULL)")
        db.execute(_SYNSETS)
        db.execute("CREATE TABLE counts (lemmas INTEGER NOT NULL, synsets INTEGER NOT NULL)")
        db.executemany("INSERT INTO lemmas VALUES (?, ?)", ((k, _joined(v)) for k, v in lemmas.items()))
        db.executemany("INSERT INTO synsets VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
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
    """Whether an index read back is whole: it holds its tables with the rows it was written with.
    (A page damaged elsewhere fails the query that reads it, and a row of another shape the check
    of every row read: :func:`_query` builds the index anew then. SQLite's ``quick_check``, which
    reads the whole file, took 30-50 ms of every run's start.)"""
    try:
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


#: pointers between synsets read besides hypernyms and antonyms: a part or a whole (meronyms and
#: holonyms: member, substance, part), what a verb entails or causes, and derivationally related forms
_PARTS = frozenset({"%m", "%s", "%p", "#m", "#s", "#p"})
_ENTAILS = frozenset({"*", ">"})

Row = tuple[int, str, str, str, str, str, str, str]


def _graph() -> tuple[dict[str, list[int]], list[Row]]:
    """WordNet's graph read from its data files (``data.noun`` ...; a line a synset: its words,
    then its pointers), as NLTK reads it: a hypernym (``@``, ``@i``) is a pointer between synsets
    (source and target ``0000``), an antonym (``!``) one between lemmas; an adjective's syntactic
    marker (``(a)``, ``(p)``, ``(ip)``) is not part of its lemma. Reading the files directly took
    2.9 s where NLTK's synset objects took 17 s, for the same graph: the same 147,306 lemmas and
    117,659 synsets, each with the same hypernyms and antonyms (compared whole when this was
    written; tests/test_semantic.py compares 400 lemmas' synsets with NLTK's). Each synset also
    has its lexicographer file (the second field: noun.person is 18), its parts and wholes, what it entails or causes, and the synsets of its words'
    derivationally related forms (``+``, from any of its words); each lemma's synsets are in
    WordNet's order of senses (``index.noun`` ...: the most frequent first), nouns, verbs,
    adjectives, adverbs."""
    from ktr.english.wordnet import open_text

    number: dict[tuple[str, str], int] = {}
    parsed: list[tuple[str, dict[str, list[tuple[str, str]]], str]] = []
    for name in ("adj", "adv", "noun", "verb"):
        with open_text(f"data.{name}") as fh:
            for line in fh:
                if line.startswith("  "):
                    continue  # the licence at the head of each file
                fields = line.split(" | ", 1)[0].split()
                offset, pos, count = fields[0], fields[2], int(fields[3], 16)
                at = 4 + 2 * count
                links: dict[str, list[tuple[str, str]]] = {"@": [], "!": [], "%": [], "*": [], "+": []}
                for i in range(int(fields[at])):
                    symbol, target, target_pos, ends = fields[at + 1 + 4 * i : at + 5 + 4 * i]
                    key = ("a" if target_pos in "as" else target_pos, target)
                    if symbol in ("@", "@i") and ends == "0000":
                        links["@"].append(key)
                    elif symbol == "!" and ends[:2] != "00":
                        links["!"].append(key)
                    elif symbol in _PARTS:
                        links["%"].append(key)
                    elif symbol in _ENTAILS:
                        links["*"].append(key)
                    elif symbol == "+":
                        links["+"].append(key)
                number["a" if pos in "as" else pos, offset] = len(parsed)
                parsed.append((pos, links, str(int(fields[1]))))
    lemmas: dict[str, list[int]] = {}
    for name, pos in (("noun", "n"), ("verb", "v"), ("adj", "a"), ("adv", "r")):
        with open_text(f"index.{name}") as fh:
            for line in fh:
                if line.startswith("  "):
                    continue
                fields = line.split()
                senses = int(fields[2])
                lemmas.setdefault(fields[0].replace("_", " ").lower(), []).extend(
                    number[pos, offset] for offset in fields[len(fields) - senses :]
                )
    rows = []
    for n, (pos, links, lexfile) in enumerate(parsed):
        antonyms, parts, entails, derived = (_joined(sorted({number[k] for k in links[s]})) for s in "!%*+")
        rows.append((n, pos, _joined([number[k] for k in links["@"]]), antonyms, parts, entails, derived, lexfile))
    return lemmas, rows


def _joined(numbers: list[int]) -> str:
    return ",".join(map(str, numbers))


def _numbers(value: object) -> tuple[int, ...]:
    """A list of synset numbers as the index holds it (``12,345``; empty for none); ValueError or
    TypeError for anything else."""
    text = _text(value)
    if not text:
        return ()
    if text.isascii() and text.replace(",", "").isdigit():
        return tuple(map(int, text.split(",")))  # an empty number between commas: ValueError
    raise ValueError(f"not a list of synset numbers: {text!r}")


def _text(value: object) -> str:
    if type(value) is not str:
        raise TypeError(f"not a text: {value!r}")
    return value


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

    key = hashlib.sha256(f"{VERSION}|{_SYNSETS}|senses in order|{fingerprint()}".encode()).hexdigest()[:20]
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


R = TypeVar("R")


def _query(sql: str, args: tuple[object, ...], row: Callable[[tuple[object, ...]], R]) -> list[R]:
    """The rows of a query on the index, each read by ``row`` (given its values), which raises
    ValueError or TypeError for a value the index cannot hold. An index that fails a query
    or answers with such a value (locked by another process, changed under this one) is built
    anew, once per process."""
    db = _index.get("db") or _db()
    try:
        return [row(values) for values in db.execute(sql, args).fetchall()]
    except (sqlite3.Error, ValueError, TypeError):
        pass
    with _lock:
        if _index.get("db") is db and "rebuilt" not in _index:
            _index["db"] = _index["rebuilt"] = _rebuild()
    if _index["db"] is db:
        raise RuntimeError(f"WordNet's index of relations cannot be read ({_path()})")
    return _query(sql, args, row)


@lru_cache(maxsize=262144)
def lemma(name: str) -> tuple[int, ...]:
    """The synsets of lemma ``name`` (lower case, words joined by spaces) in WordNet's order of
    senses; none for a word WordNet does not list."""
    rows = _query("SELECT synsets FROM lemmas WHERE name = ?", (name,), _first_numbers)
    return rows[0] if rows else ()


def _first_numbers(values: tuple[object, ...]) -> tuple[int, ...]:
    return _numbers(values[0])


class Synset(NamedTuple):
    """A synset of the index: its part of speech and the synsets it points to."""

    pos: str
    hypernyms: tuple[int, ...]
    antonyms: tuple[int, ...]
    parts: tuple[int, ...]  # its parts and the wholes it is part of (member, substance, part)
    entails: tuple[int, ...]  # what it entails or causes (verbs)
    derived: tuple[int, ...]  # the synsets of its words' derivationally related forms
    lexfile: int = -1  # its lexicographer file (18: noun.person), -1 for a number the index lacks


def _synset_row(values: tuple[object, ...]) -> Synset:
    pos, hypernyms, antonyms, parts, entails, derived, lexfile = values
    return Synset(
        _text(pos),
        _numbers(hypernyms),
        _numbers(antonyms),
        _numbers(parts),
        _numbers(entails),
        _numbers(derived),
        _numbers(lexfile)[0] if _text(lexfile) else -1,
    )


@lru_cache(maxsize=262144)
def synset(number: int) -> Synset:
    """A synset: its part of speech and the synsets it points to (none, for a number the index lacks)."""
    rows = _query(
        "SELECT pos, hypernyms, antonyms, parts, entails, derived, lexfile FROM synsets WHERE id = ?",
        (number,),
        _synset_row,
    )
    return rows[0] if rows else Synset("", (), (), (), (), ())

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

WordNet is not read while scoring: its graph (each lemma's synsets in WordNet's order of senses;
each synset's part of speech, hypernyms, antonyms, parts and wholes, what it entails or causes and
its words' derivationally related forms) is built into a SQLite index once, kept in ktr's cache folder (keyed by
WordNet's fingerprint; about 10 MB, built in a few seconds the first time), and read a word at a time,
so a run that asks about a few words loads next to nothing. An inflected word is looked up by
WordNet's own suffix rules (``athletes`` → athlete, ``hates`` → hate).
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
#: steps up or down WordNet's noun hierarchy within which a hypernym or hyponym counts
HYPERNYM_STEPS = 2
#: WordNet's detachment rules (NLTK's ``morphy``): suffix → replacement
_SUFFIXES = (
    ("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"),
    ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", ""),
    ("er", ""), ("est", ""), ("er", "e"), ("est", "e"),
)  # fmt: skip


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


def _numbers(text: str) -> tuple[int, ...]:
    """A list of synset numbers as the index holds it (``12,345``; empty for none); ValueError or
    TypeError for anything else."""
    if not _text(text):
        return ()
    if text.isascii() and text.replace(",", "").isdigit():
        return tuple(map(int, text.split(",")))  # an empty number between commas: ValueError
    raise ValueError(f"not a list of synset numbers: {text!r}")


def _text(value: str) -> str:
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


def _query(sql: str, args: tuple[object, ...], row: Callable[..., R]) -> list[R]:
    """The rows of a query on the index, each read by ``row`` (its values as arguments), which
    raises ValueError or TypeError for a value the index cannot hold. An index that fails a query
    or answers with such a value (locked by another process, changed under this one) is built
    anew, once per process."""
    db = _index.get("db") or _db()
    try:
        return [row(*values) for values in db.execute(sql, args).fetchall()]
    except (sqlite3.Error, ValueError, TypeError):
        pass
    with _lock:
        if _index.get("db") is db and "rebuilt" not in _index:
            _index["db"] = _index["rebuilt"] = _rebuild()
    if _index["db"] is db:
        raise RuntimeError(f"WordNet's index of relations cannot be read ({_path()})")
    return _query(sql, args, row)


@lru_cache(maxsize=262144)
def _lemma(name: str) -> tuple[int, ...]:
    rows = _query("SELECT synsets FROM lemmas WHERE name = ?", (name,), _numbers)
    return rows[0] if rows else ()


class Synset(NamedTuple):
    """A synset of the index: its part of speech and the synsets it points to."""

    pos: str
    hypernyms: tuple[int, ...]
    antonyms: tuple[int, ...]
    parts: tuple[int, ...]  # its parts and the wholes it is part of (member, substance, part)
    entails: tuple[int, ...]  # what it entails or causes (verbs)
    derived: tuple[int, ...]  # the synsets of its words' derivationally related forms
    lexfile: int = -1  # its lexicographer file (18: noun.person), -1 for a number the index lacks


def _synset_row(
    pos: str, hypernyms: str, antonyms: str, parts: str, entails: str, derived: str, lexfile: str
) -> Synset:
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
def _synset(number: int) -> Synset:
    """A synset: its part of speech and the synsets it points to (none, for a number the index lacks)."""
    rows = _query(
        "SELECT pos, hypernyms, antonyms, parts, entails, derived, lexfile FROM synsets WHERE id = ?",
        (number,),
        _synset_row,
    )
    return rows[0] if rows else Synset("", (), (), (), (), ())


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

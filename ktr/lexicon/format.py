"""The lexicon TSV format (``lexicons/README.md``), its loader and look-up.

A :class:`Lexicon` maps ``(lemma, class)`` to English equivalents. Several files can be stacked:
an entry found in a later file adds its equivalents after those already known.
"""

from __future__ import annotations

import hashlib
import os
import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ktr.errors import LexiconError, brief
from ktr.korean.keywords import CLASSES, PREDICATE_CLASSES
from ktr.resources import lexicons_dir
from ktr.textio import read_whole

#: classes a lexicon entry may have (digit strings are their own equivalents)
LEXICON_CLASSES = tuple(c for c in CLASSES if c != "digits")
_HANGUL_WORD = re.compile(r"^[\uac00-\ud7a3]+$")
_HANGUL_ANY = re.compile(r"[\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3]")
_NOUN_LIKE = ("noun", "proper_noun", "bound_noun", "pronoun", "numeral")
#: suffixes that make predicates of nouns (Korean 하다 verbs and their kin)
_DERIVING = ("하다", "되다", "시키다", "받다", "당하다", "스럽다", "롭다", "답다")


@dataclass(frozen=True, slots=True)
class Entry:
    lemma: str
    cls: str
    equivalents: tuple[str, ...]
    where: str  # "file:line" of the first line that defined it


@dataclass(frozen=True, slots=True)
class Lookup:
    """What a keyword found in the lexicon: the entry used and how it was reached."""

    entry: Entry | None
    equivalents: tuple[str, ...]
    via: str  # "entry", "other-class", "derived" (노래 ↔ 노래하다) or "digits"


def split_columns(line: str, where: str, names: tuple[str, ...]) -> list[str] | None:
    """The columns of a tab-separated data line; ``None`` for comments and blank lines."""
    text = line.rstrip("\r\n")
    if not text.strip() or text.lstrip().startswith("#"):
        return None
    cols = text.split("\t")
    if len(cols) != len(names):
        raise LexiconError(
            f"{where}: expected {len(names)} tab-separated columns ({', '.join(names)}), got {len(cols)}: {brief(text)}"
        )
    return cols


def parse_line(line: str, where: str) -> Entry | None:
    """Parse one lexicon line; ``None`` for comments and blank lines."""
    cols = split_columns(line, where, ("lemma", "class", "equivalents"))
    if cols is None:
        return None
    lemma, cls, equivalents = cols
    if unicodedata.normalize("NFC", lemma) != lemma or not _HANGUL_WORD.match(lemma):
        raise LexiconError(f"{where}: lemma must be NFC Hangul syllables: {lemma!r}")
    if cls not in LEXICON_CLASSES:
        raise LexiconError(f"{where}: unknown class {cls!r}; valid: {', '.join(LEXICON_CLASSES)}")
    if cls in PREDICATE_CLASSES and not lemma.endswith("다"):
        raise LexiconError(f"{where}: a {cls} lemma ends in 다 (dictionary form): {lemma!r}")
    items = tuple(e.strip() for e in equivalents.split(";"))
    if not equivalents.strip() or any(not e for e in items):
        raise LexiconError(f"{where}: empty English equivalent in {equivalents!r}")
    for e in items:
        if e != " ".join(e.split()):
            raise LexiconError(f"{where}: equivalent {e!r} has extra spaces")
        if _HANGUL_ANY.search(e):
            raise LexiconError(f"{where}: equivalent {e!r} contains Hangul")
    if len(set(items)) != len(items):
        raise LexiconError(f"{where}: duplicate equivalent in {equivalents!r}")
    return Entry(lemma, cls, items, where)


def read_entries(path: str | os.PathLike[str]) -> Iterable[Entry]:
    """Entries of one file, validated line by line."""
    for where, text in numbered_lines(path, "lexicon"):
        entry = parse_line(text, where)
        if entry is not None:
            yield entry


def numbered_lines(path: str | os.PathLike[str], what: str) -> Iterator[tuple[str, str]]:
    """Each line of a table file (a lexicon, idioms, periphrases) with where it is (``FILE:LINE``):
    a regular file of bounded size (:func:`ktr.textio.read_whole`), a leading BOM left out, lines
    split on ``\\n`` and decoded as UTF-8; an error naming the file (``what`` it is) or the line
    where it cannot be read or decoded."""
    name = str(path)
    try:
        raw = read_whole(path)
    except OSError as exc:
        raise LexiconError(f"{name}: cannot read {what}: {exc.strerror}") from None
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    for number, line in enumerate(raw.split(b"\n"), 1):
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise LexiconError(f"{name}:{number}: invalid UTF-8 at byte {exc.start}") from None
        yield f"{name}:{number}", text


def looks_like_path(spec: str) -> bool:
    """Whether a lexicon spec is a file path (it has a suffix or a folder) rather than a shipped name."""
    return bool(Path(spec).suffix) or os.sep in spec or "/" in spec


def resolve_lexicon_path(spec: str) -> Path:
    """A lexicon given by name (``core`` → the shipped ``lexicons/core.tsv``) or by path."""
    path = Path(spec)
    if looks_like_path(spec):
        if not path.is_file():
            raise LexiconError(f"{spec}: no such lexicon file")
        return path
    shipped = lexicons_dir() / f"{spec}.tsv"
    if not shipped.is_file():
        known = sorted(p.stem for p in lexicons_dir().glob("*.tsv"))
        raise LexiconError(f"no shipped lexicon named {spec!r}; shipped: {', '.join(known)}; or give a path")
    return shipped


class Lexicon:
    """Stacked lexicon files with look-up by (lemma, class)."""

    def __init__(self, entries: dict[tuple[str, str], Entry], names: tuple[str, ...], digest: str | None = None):
        self._entries = entries
        self._by_lemma: dict[str, list[Entry]] = {}
        for entry in entries.values():
            self._by_lemma.setdefault(entry.lemma, []).append(entry)
        order = {c: i for i, c in enumerate(LEXICON_CLASSES)}
        for group in self._by_lemma.values():
            group.sort(key=lambda e: order[e.cls])
        self.names = names
        self.digest = digest or self._digest()

    @classmethod
    def from_files(cls, specs: Iterable[str]) -> Lexicon:
        """The stacked lexicon of ``specs``; parsed once per content of the files, then read
        back compiled from ktr's cache (:mod:`ktr.cache`), as parsing 30,000 lines takes a while."""
        from ktr.cache import cached_json
        from ktr.version import __version__

        specs = tuple(specs)
        paths = [resolve_lexicon_path(spec) for spec in specs]
        h = hashlib.sha256(f"{__version__}|{'|'.join(specs)}".encode())
        for path in paths:
            h.update(f"|{path}|".encode() + path.read_bytes())

        def parse() -> dict[str, object]:  # a JSON document
            lexicon = cls._parse(specs, paths)
            return {
                "digest": lexicon.digest,
                "entries": [[e.lemma, e.cls, list(e.equivalents), e.where] for e in lexicon],
            }

        doc = cached_json("lexicon", h.hexdigest(), parse, _is_compiled)
        entries = {(e[0], e[1]): Entry(e[0], e[1], tuple(e[2]), e[3]) for e in doc["entries"]}
        return cls(entries, specs, doc["digest"])

    @classmethod
    def _parse(cls, specs: tuple[str, ...], paths: list[Path]) -> Lexicon:
        entries: dict[tuple[str, str], Entry] = {}
        names = []
        for spec, path in zip(specs, paths):
            names.append(spec)
            seen_here: dict[tuple[str, str], str] = {}
            for entry in read_entries(path):
                key = (entry.lemma, entry.cls)
                if key in seen_here:
                    raise LexiconError(
                        f"{entry.where}: duplicate entry {entry.lemma}/{entry.cls} (first at {seen_here[key]})"
                    )
                seen_here[key] = entry.where
                old = entries.get(key)
                if old is not None:
                    merged = old.equivalents + tuple(e for e in entry.equivalents if e not in old.equivalents)
                    entry = Entry(old.lemma, old.cls, merged, old.where)
                entries[key] = entry
        return cls(entries, tuple(names))

    def _digest(self) -> str:
        h = hashlib.sha256()
        for key in sorted(self._entries):
            e = self._entries[key]
            h.update(f"{e.lemma}\t{e.cls}\t{';'.join(e.equivalents)}\n".encode())
        return h.hexdigest()

    def __len__(self) -> int:
        return len(self._entries)

    def __iter__(self) -> Iterator[Entry]:
        return iter(self._entries[k] for k in sorted(self._entries))

    def get(self, lemma: str, cls: str) -> Entry | None:
        return self._entries.get((lemma, cls))

    def lookup(self, lemma: str, cls: str) -> Lookup | None:
        """Find a keyword's equivalents.

        Order: the entry of the same lemma and class; the same lemma under another class
        (analyzers disagree on 여기 adverb/pronoun, 층 noun/bound noun); a noun and its 하다
        predicate in either direction (유명 ↔ 유명하다), and a noun's other derived predicates
        through its 하다 verb or the noun itself (발생되다 → 발생하다, 자유롭다 → 자유). Digit
        strings are their own equivalent.
        """
        if cls == "digits":
            return Lookup(None, (lemma,), "digits")
        entry = self._entries.get((lemma, cls))
        if entry is not None:
            return Lookup(entry, entry.equivalents, "entry")
        others = self._by_lemma.get(lemma)
        if others:
            return Lookup(others[0], others[0].equivalents, "other-class")
        if cls in _NOUN_LIKE:
            candidates = [lemma + "하다"]
        else:
            stem = next((lemma[: -len(s)] for s in _DERIVING if lemma.endswith(s) and len(lemma) > len(s)), None)
            candidates = [stem + "하다", stem] if stem else []
        for candidate in candidates:
            related = self._by_lemma.get(candidate)
            if related and candidate != lemma:
                return Lookup(related[0], related[0].equivalents, "derived")
        return None


def load_lexicon(specs: Iterable[str] | str = ("core",)) -> Lexicon:
    """Load and stack lexicons given by shipped name or path."""
    if isinstance(specs, str):
        specs = (specs,)
    return Lexicon.from_files(specs)


def _is_compiled(value: object) -> bool:
    """Whether a lexicon read back from the cache is one :meth:`Lexicon.from_files` writes: its
    digest, and entries [lemma, class, equivalents, where] of the classes a lexicon has."""
    if not isinstance(value, dict) or not isinstance(value.get("digest"), str):
        return False
    entries = value.get("entries")
    return isinstance(entries, list) and all(
        isinstance(e, list)
        and len(e) == 4
        and isinstance(e[0], str)
        and e[1] in LEXICON_CLASSES
        and isinstance(e[2], list)
        and all(isinstance(eq, str) for eq in e[2])
        and isinstance(e[3], str)
        for e in entries
    )

"""Import dictionaries a user owns into ktr lexicon entries (``ktr-lexicon/1``).

Supported formats (:data:`FORMATS`):

- ``kengdic``: the kengdic TSV (id, surface, hanja, gloss, level, created, source; header line).
  The gloss holds English senses separated by ``;`` or ``,``; parenthesised notes are dropped.
  kengdic gives no part of speech: a surface ending in 다 is a ``verb``, anything else a ``noun``
  (so adjectives come out as verbs and the rare 다-final noun such as 바다 is misread).
- ``krdict``: the NIKL Basic Korean Dictionary LMF XML export, streamed with ``iterparse``;
  only ``<Equivalent>`` elements whose language is 영어 are used.
- ``muse``: a MUSE-style pair list, one ``korean english`` pair per line (whitespace or tab).
  No class is given: a lemma ending in 다 is a ``verb``, anything else a ``noun``.
- ``tsv``: ``lemma<TAB>class<TAB>equivalents`` (``;``-separated), optional header line and
  ``#`` comments, so a ktr lexicon imports as itself; classes are ktr names or Korean POS names.

Common rules: lemmas are NFC-normalised and lose homograph numbers (사다01, 사다¹); English is
lower-cased except all-caps acronyms (TV, U.S.) and proper nouns (Seoul), whitespace is collapsed,
a leading ``to`` is dropped for verbs and adjectives; empty, duplicate (case-insensitively) and
Hangul-containing equivalents are dropped and at most :data:`MAX_EQUIVALENTS` are kept. Records
with the same (lemma, class) merge in first-seen order. Unusable records are skipped and counted
by reason; a file that cannot be read or parsed at all, or from which no entry could be imported
(another format's file), raises :class:`~ktr.errors.LexiconError`.

:func:`write_tsv` writes the entries all or nothing, and replaces an existing file only if it is
empty or a file it wrote itself, unchanged since (its second line holds the sha256 of the lines
after it), unless told to ``overwrite``: a file of the user's is never replaced silently.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import unicodedata
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ktr.errors import LexiconError
from ktr.korean.keywords import PREDICATE_CLASSES
from ktr.lexicon.format import LEXICON_CLASSES, Entry, parse_line
from ktr.textio import file_kind, invalid_utf8, open_regular, write_texts

FORMATS = ("kengdic", "krdict", "muse", "tsv")
MAX_EQUIVALENTS = 8
HEADER = "# ktr-lexicon/1"
#: the line after the header in the files :func:`write_tsv` writes
WRITTEN = "# written by ktr lexicon import (sha256 {} of the lines below): an import replaces it only while they are unchanged"
_WRITTEN = re.compile(r"# written by ktr lexicon import \(sha256 ([0-9a-f]{64}) ")

#: Korean part-of-speech names (spaces removed) → ktr classes
KOREAN_POS = {
    "명사": "noun",
    "의존명사": "bound_noun",
    "고유명사": "proper_noun",
    "대명사": "pronoun",
    "수사": "numeral",
    "동사": "verb",
    "형용사": "adjective",
    "부사": "adverb",
    "관형사": "determiner",
}
_HOMOGRAPH = re.compile(r"[\s_-]*[0-9\u00b9\u00b2\u00b3\u2070-\u2079]+$")
_HANGUL_WORD = re.compile(r"^[\uac00-\ud7a3]+$")
_HANGUL_ANY = re.compile(r"[\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3]")
_NOTE = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")

# a record as read: (lemma, class or None if unknown, raw English strings, where)
Record = tuple[str, "str | None", list[str], str]
#: a file to read or write
FilePath = str | os.PathLike[str]
#: a dictionary format's reader: its records, counting the records it skips by reason
Reader = Callable[[FilePath, Counter[str]], Iterator[Record]]


@dataclass
class ImportResult:
    entries: list[Entry]  # sorted by (lemma, class)
    skipped: dict[str, int] = field(default_factory=dict)  # reason → number of records


def import_file(fmt: str, path: FilePath) -> ImportResult:
    """Read a dictionary file of format ``fmt`` (one of :data:`FORMATS`) into ktr entries."""
    try:
        reader = _READERS[fmt]
    except KeyError:
        raise LexiconError(f"unknown dictionary format {fmt!r}; valid: {', '.join(FORMATS)}") from None
    skipped: Counter[str] = Counter()
    # (lemma, class) -> (equivalents by their case-folded form, where first seen)
    merged: dict[tuple[str, str], tuple[dict[str, str], str]] = {}
    for raw_lemma, cls, english, where in reader(path, skipped):
        lemma = clean_lemma(raw_lemma)
        if not _HANGUL_WORD.match(lemma):
            skipped["lemma not a Hangul word"] += 1
        elif cls is None:
            skipped["unknown part of speech"] += 1
        elif cls in PREDICATE_CLASSES and not lemma.endswith("다"):
            skipped["predicate not in 다 form"] += 1
        else:
            items = [e for e in (clean_english(t, cls) for t in english) if e]
            if not items:
                skipped["no English"] += 1
                continue
            slot = merged.setdefault((lemma, cls), ({}, where))[0]
            for e in items:  # duplicates compare case-insensitively (TV / tv); the first wins
                slot.setdefault(e.casefold(), e)
    entries: list[Entry] = []
    for (lemma, cls), (by_folded, where) in sorted(merged.items()):
        line = f"{lemma}\t{cls}\t{';'.join(list(by_folded.values())[:MAX_EQUIVALENTS])}"
        try:
            entry = parse_line(line, where)
        except LexiconError:
            skipped["invalid entry"] += 1
            continue
        if entry is not None:  # always: the line starts with its lemma, it is no comment
            entries.append(entry)
    if not entries:  # another format's file, or an empty one: not an empty lexicon
        why = ", ".join(f"{reason}: {n}" for reason, n in sorted(skipped.items()))
        raise LexiconError(
            f"{path}: nothing could be imported as {fmt} ({f'skipped records: {why}' if why else 'no records'})"
        )
    return ImportResult(entries, dict(skipped))


def write_tsv(entries: Iterable[Entry], path: FilePath, overwrite: bool = False) -> int:
    """Write entries as a sorted ``ktr-lexicon/1`` file; returns the number of entries written.

    Every line is checked with :func:`parse_line` first, and (lemma, class) must be unique, so
    the file always loads; an invalid entry raises :class:`LexiconError` and nothing is written.
    An existing file is replaced only as :func:`check_target` allows; the file is written whole
    or not at all (a full disk leaves the old one as it was).
    """
    count, text = lexicon_text(entries)
    check_target(path, overwrite)
    try:
        write_texts({Path(path): text})
    except OSError as exc:
        raise LexiconError(f"{path}: cannot write lexicon: {exc.strerror}") from None
    return count


def lexicon_text(entries: Iterable[Entry]) -> tuple[int, str]:
    """The entries as the text of a ``ktr-lexicon/1`` file (sorted, each line checked, (lemma,
    class) unique, the marker of :func:`check_target`), and how many there are."""
    lines, seen = [], set()
    for e in sorted(entries, key=lambda e: (e.lemma, e.cls)):
        line = f"{e.lemma}\t{e.cls}\t{';'.join(e.equivalents)}"
        parse_line(line, e.where)
        if (e.lemma, e.cls) in seen:
            raise LexiconError(f"{e.where}: duplicate entry {e.lemma}/{e.cls}")
        seen.add((e.lemma, e.cls))
        lines.append(line + "\n")
    body = "".join(lines)
    marker = WRITTEN.format(hashlib.sha256(body.encode("utf-8")).hexdigest())
    return len(lines), f"{HEADER}\n{marker}\n{body}"


def check_target(path: FilePath, overwrite: bool = False) -> None:
    """Nothing, when :func:`write_tsv` may write ``path``: it is absent or empty, or a file written
    by it and unchanged since (its header, then the sha256 of the lines after its second line), or
    ``overwrite`` is given; else a LexiconError: a file of the user's is never replaced silently.
    Whatever ``overwrite`` says, only a regular file is replaced: a device, a pipe or a socket is
    refused before it is opened (reading one would never end or wait for a writer, and replacing
    one removes it)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise LexiconError(f"{path}: cannot write lexicon: {exc.strerror}") from None
    if not stat.S_ISREG(mode):
        what = "a folder" if stat.S_ISDIR(mode) else file_kind(mode)
        raise LexiconError(
            f"{path}: is {what}, expected a regular file: -o names the lexicon written (- for standard output)"
        )
    if overwrite:
        return
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise LexiconError(f"{path}: cannot write lexicon: {exc.strerror}") from None
    header, _, rest = data.partition(b"\n")
    marker, _, body = rest.partition(b"\n")
    found = _WRITTEN.match(marker.decode("utf-8", "replace"))
    if not data or (header == HEADER.encode() and found and found[1] == hashlib.sha256(body).hexdigest()):
        return
    raise LexiconError(
        f"{path}: exists and was not written by ktr lexicon import (or was changed since); "
        "use --overwrite to replace it, or -o to choose another file"
    )


def clean_lemma(text: str) -> str:
    """NFC, collapsed spaces, no homograph number (사다01, 사다¹ → 사다)."""
    text = " ".join(unicodedata.normalize("NFC", text).split())
    return _HOMOGRAPH.sub("", text)


def clean_english(text: str, cls: str) -> str:
    """One English equivalent in ktr style, or "" if nothing usable (empty or Hangul) is left.

    Lower case except all-caps acronyms; proper nouns keep their case (Seoul), as in the
    shipped lexicons.
    """
    text = unicodedata.normalize("NFC", text)
    while _NOTE.search(text):
        text = _NOTE.sub(" ", text)
    words = text.split()
    if _HANGUL_ANY.search(text) or not words:
        return ""
    if cls != "proper_noun":
        words = [w if _is_acronym(w) else w.lower() for w in words]
    if cls in PREDICATE_CLASSES and len(words) > 1 and words[0] == "to":
        words = words[1:]
    return " ".join(words)


def _is_acronym(word: str) -> bool:
    letters = [c for c in word if c.isalpha()]
    return len(letters) >= 2 and all(c.isupper() for c in letters)


def class_of(name: str) -> str | None:
    """A ktr class from a ktr class name or a Korean POS name (의존 명사 → bound_noun)."""
    name = name.strip()
    if name in LEXICON_CLASSES:
        return name
    return KOREAN_POS.get("".join(name.split()))


def guess_class(lemma: str) -> str:
    """The class of a dictionary without parts of speech: 다-final → verb, else noun."""
    return "verb" if clean_lemma(lemma).endswith("다") else "noun"


def _lines(path: FilePath) -> Iterator[tuple[str, str]]:
    """(text, "file:line") for each non-blank line; unreadable or non-UTF-8 files raise."""
    name = str(path)
    try:
        with open_regular(path) as f:
            for number, raw in enumerate(f, 1):
                if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
                    raw = raw[3:]
                try:
                    text = raw.decode("utf-8").rstrip("\r\n")
                except UnicodeDecodeError as exc:
                    raise LexiconError(invalid_utf8(name, number, raw, exc.start)) from None
                if text.strip():
                    yield text, f"{name}:{number}"
    except OSError as exc:
        raise LexiconError(f"{name}: cannot read dictionary: {exc.strerror}") from None


def read_kengdic(path: FilePath, skipped: Counter[str]) -> Iterator[Record]:
    for i, (text, where) in enumerate(_lines(path)):
        cols = text.split("\t")
        if i == 0 and cols[0].strip().lower() == "id":
            continue
        if len(cols) < 4:
            skipped["too few columns"] += 1
            continue
        surface, gloss = cols[1], cols[3]
        while _NOTE.search(gloss):  # notes may hold commas: drop them before splitting senses
            gloss = _NOTE.sub(" ", gloss)
        yield surface, guess_class(surface), re.split(r"[;,]", gloss), where


def read_muse(path: FilePath, skipped: Counter[str]) -> Iterator[Record]:
    for text, where in _lines(path):
        cols = text.split(None, 1)
        if len(cols) != 2:
            skipped["not a pair"] += 1
            continue
        yield cols[0], guess_class(cols[0]), cols[1].split(";"), where


def read_tsv(path: FilePath, skipped: Counter[str]) -> Iterator[Record]:
    first = True
    for text, where in _lines(path):
        if text.lstrip().startswith("#"):
            continue
        cols = text.split("\t")
        header = first and len(cols) >= 2 and class_of(cols[1]) is None and not _HANGUL_ANY.search(cols[0])
        first = False
        if header:
            continue
        if len(cols) != 3:
            skipped["wrong number of columns"] += 1
            continue
        yield cols[0], class_of(cols[1]), cols[2].split(";"), where


def _tag(elem: ET.Element) -> str:
    return elem.tag.rpartition("}")[2]


def _feats(elem: ET.Element) -> dict[str, str]:
    """The ``<feat att= val=>`` children of one element (direct children only)."""
    return {f.get("att", ""): f.get("val", "") for f in elem if _tag(f) == "feat"}


def read_krdict(path: FilePath, skipped: Counter[str]) -> Iterator[Record]:
    name, n = str(path), 0
    try:
        for _event, elem in ET.iterparse(path, events=("end",)):
            if _tag(elem) != "LexicalEntry":
                continue
            n += 1
            lemma = next((_feats(c).get("writtenForm", "") for c in elem if _tag(c) == "Lemma"), "")
            pos = _feats(elem).get("partOfSpeech", "")
            english = [
                feats.get("lemma", "")
                for eq in elem.iter()
                if _tag(eq) == "Equivalent"
                for feats in [_feats(eq)]
                if feats.get("language") == "영어"
            ]
            elem.clear()
            if not lemma.strip():
                skipped["no written form"] += 1
                continue
            yield lemma, class_of(pos), [p for e in english for p in e.split(";")], f"{name}:entry {n}"
    except ET.ParseError as exc:
        raise LexiconError(f"{name}:{exc.position[0]}: cannot parse XML: {exc}") from None
    except OSError as exc:
        raise LexiconError(f"{name}: cannot read dictionary: {exc.strerror}") from None
    if n == 0:
        raise LexiconError(f"{name}: no <LexicalEntry> elements: not a krdict LMF export")


_READERS: dict[str, Reader] = {
    "kengdic": read_kengdic,
    "krdict": read_krdict,
    "muse": read_muse,
    "tsv": read_tsv,
}

"""Morphological analyses kept in memory and on disk, so a corpus is analysed once.

Analysing the source is the slow part of scoring; everything after it (keywords, look-up,
matching, aggregation) is cheap. :class:`CachedAnalyzer` wraps any analyzer and remembers its
analysis of every sentence:

- in memory, so all systems and all variants of an experiment that use the same analyzer share
  one analysis (a variant that changes only matching, lexicons or aggregation analyses nothing);
- on disk, under ``ktr.cache.cache_dir()/analyses/``, one JSON file per corpus, so a re-run
  reads one file instead of analysing again. A sentence is reused when its text is the same
  and the analyzer is the same (name, version, and the code that converts its output).

A corpus is named by a ``label`` (the experiment passes the source file's path); when the file
changes, the sentences whose text is unchanged are taken from the previous file and only the
others are analysed. Without a label the corpus is named by its content.

A sentence the analyzer fails on (it raises, crashes or runs out of time: :mod:`ktr.korean.guard`) is
remembered as failed in memory only: it is not tried again by the same object, and never stored,
so a later run tries it again.

Use it anywhere an analyzer is accepted::

    scorer = Scorer(config, analyzer=CachedAnalyzer(get_analyzer("kiwi")))
"""

from __future__ import annotations

import hashlib
import inspect
import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from ktr.cache import cache_dir, read_json, write_json
from ktr.korean.analyzers import Analyzer, Morpheme
from ktr.korean.analyzers.base import analyzer_class, available_analyzers
from ktr.korean.analyzers.process import morphemes_or_raise
from ktr.korean.guard import Outcome, outcomes
from ktr.version import __version__

#: bump when the stored layout changes
FORMAT = 1
_BATCH = 64  # sentences analysed per call, so progress can be reported

#: a sentence's analysis as stored (:func:`_encode`): a string, or JSON rows [form, lemma, tag, start, end]
Stored = str | list[list[str | int]]


def _code_digest(analyzer: Analyzer) -> str:
    """Digest of the backend's source and the shared conversion code: a changed backend
    (same package version, new conversion) must not be served old analyses."""
    from ktr.korean.analyzers import base

    h = hashlib.sha256()
    # A registered backend is named by its own module, whatever runs it (in this process, in a
    # child process with a time limit, in worker processes): all give the same analyses.
    backend = analyzer_class(analyzer.name) if analyzer.name in available_analyzers() else type(analyzer)
    modules = {m.__name__: m for m in (inspect.getmodule(backend), base) if m is not None}
    for _, module in sorted(modules.items()):
        try:
            h.update(Path(inspect.getsourcefile(module) or "").read_bytes())
        except (OSError, TypeError):
            h.update(repr(module).encode())
    return h.hexdigest()[:16]


def _encode(morphemes: list[Morpheme]) -> Stored:
    """One string per sentence, a line per morpheme: form, lemma (empty when equal to the
    form), tag, start, end. Parsing one string is far faster than JSON lists of lists; the
    rare morpheme holding a tab or newline is stored as a JSON list instead."""
    rows = [(m.form, "" if m.lemma == m.form else m.lemma, m.tag) for m in morphemes]
    if any("\t" in f or "\n" in f for row in rows for f in row):
        return [[m.form, m.lemma, m.tag, m.start, m.end] for m in morphemes]
    return "\n".join(f"{f}\t{lemma}\t{tag}\t{m.start}\t{m.end}" for (f, lemma, tag), m in zip(rows, morphemes))


def _checked(text: str, stored: object) -> list[Morpheme] | None:
    """``stored`` decoded, when it is an analysis of ``text`` as :func:`_encode` writes one:
    strings for the form, lemma and tag, offsets within the text in order; else ``None``."""
    if isinstance(stored, str):
        if stored and (stored.count("\t") + stored.count("\n") + 1) % 5:
            return None
    elif not isinstance(stored, list) or not all(
        isinstance(row, list)
        and len(row) == 5
        and all(isinstance(f, str) for f in row[:3])
        and all(isinstance(n, int) and not isinstance(n, bool) for n in row[3:])
        for row in stored
    ):
        return None
    try:
        morphemes = _decode(stored)
    except ValueError:
        return None
    if all(0 <= m.start <= m.end <= len(text) for m in morphemes):
        return morphemes
    return None


def _decode(stored: Stored) -> list[Morpheme]:
    if isinstance(stored, list):
        return [Morpheme(str(f), str(lemma), str(tag), int(start), int(end)) for f, lemma, tag, start, end in stored]
    if not stored:
        return []
    fields = iter(stored.replace("\n", "\t").split("\t"))
    return [
        Morpheme(form, lemma or form, tag, int(start), int(end))
        for form, lemma, tag, start, end in zip(fields, fields, fields, fields, fields)
    ]


class CachedAnalyzer:
    """An :class:`~ktr.korean.analyzers.Analyzer` that analyses each distinct sentence once."""

    def __init__(
        self,
        analyzer: Analyzer,
        *,
        directory: str | os.PathLike[str] | None = None,
        progress: Callable[[int, int], None] | None = None,
    ):
        self.inner = analyzer
        self.name = analyzer.name
        self.tagset = analyzer.tagset
        self.version = analyzer.version
        self.concurrent = getattr(analyzer, "concurrent", False)
        self.directory = Path(directory) if directory is not None else cache_dir() / "analyses"
        self.progress = progress  # called with (sentences done, sentences to analyse)
        self.key = f"{FORMAT}|{__version__}|{analyzer.name}|{analyzer.version}|{_code_digest(analyzer)}"
        self._stored: dict[str, Stored] = {}  # text -> encoded analysis
        self._decoded: dict[str, list[Morpheme]] = {}  # decoded on first use
        self._failed: dict[str, str] = {}  # text -> why the analyzer failed on it
        self.analysed = 0  # sentences sent to the analyzer by this object
        self.loaded = 0  # sentences read from disk

    def analyze(self, text: str) -> list[Morpheme]:
        return self.analyze_many([text])[0]

    def analyze_many(self, texts: Iterable[str], label: str | None = None) -> list[list[Morpheme]]:
        return morphemes_or_raise(self.outcomes(texts, label))

    def outcomes(self, texts: Iterable[str], label: str | None = None) -> list[Outcome]:
        """Per text its morphemes, or why the analyzer failed on it (:mod:`ktr.korean.guard` uses this)."""
        texts = list(texts)
        todo = [t for t in dict.fromkeys(texts) if t not in self._stored and t not in self._failed]
        if todo:
            path = self._path(label, texts)
            on_disk = self._read(path)
            for t in todo:
                if t in on_disk:
                    self._stored[t] = on_disk[t]
                    self.loaded += 1
            self._analyse([t for t in todo if t not in self._stored])
            if any(t not in on_disk and t in self._stored for t in texts):
                self._write(path, {t: self._stored[t] for t in texts if t in self._stored})
        return [self._failed[t] if t in self._failed else list(self._morphemes(t)) for t in texts]

    def _morphemes(self, text: str) -> list[Morpheme]:
        found = self._decoded.get(text)
        if found is None:
            found = self._decoded[text] = _decode(self._stored[text])
        return found

    def _analyse(self, texts: list[str]) -> None:
        for start in range(0, len(texts), _BATCH):
            batch = texts[start : start + _BATCH]
            for text, outcome in zip(batch, outcomes(self.inner, batch)):
                if isinstance(outcome, str):
                    self._failed[text] = outcome
                else:
                    self._stored[text] = _encode(outcome)
                    self._decoded[text] = list(outcome)
            self.analysed += len(batch)
            if self.progress:
                self.progress(min(start + _BATCH, len(texts)), len(texts))

    def _path(self, label: str | None, texts: Sequence[str]) -> Path:
        name = label if label is not None else "\n".join(texts)
        digest = hashlib.sha256(f"{self.key}|{name}".encode()).hexdigest()[:24]
        return self.directory / f"{self.name}-{digest}.json"

    def _read(self, path: Path) -> dict[str, Stored]:
        """The analyses stored in ``path`` for this analyzer; none when the file is absent,
        damaged, not a regular file, or holds an analysis that cannot be a text's (another shape,
        offsets outside the text): the texts are analysed again and the file rewritten."""
        doc = read_json(path)
        if not isinstance(doc, dict) or doc.get("key") != self.key:
            return {}
        sentences = doc.get("sentences", {})  # as _write stored them, under the same key
        if not isinstance(sentences, dict):
            return {}
        decoded = {}
        for text, stored in sentences.items():
            morphemes = _checked(text, stored)
            if morphemes is None:
                return {}
            decoded[text] = morphemes
        self._decoded.update(decoded)
        return sentences

    def _write(self, path: Path, sentences: dict[str, Stored]) -> None:
        # a cache that cannot be written only costs time (the analyses are in memory): ktr says
        # so once, and leaves no temporary file (ktr.cache.write_json)
        write_json(path, {"key": self.key, "sentences": sentences}, ensure_ascii=False, separators=(",", ":"))

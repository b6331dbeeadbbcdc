"""Per-line guards around the analyzer: no line can stop a run, and no line is silently lost.

* **Size.** A line longer than ``max_chars`` is analysed in pieces of at most ``max_chars``
  characters, cut at the last space before the limit (at the limit where a piece has no space);
  morpheme offsets are shifted back to the line. Analyzers are sentence-local, so cutting at a
  space changes little, and no backend is handed an input of unbounded size.
* **Failure.** Pieces are analysed in batches (one call for Kiwi's batch API). A batch whose call
  raises is analysed again piece by piece; a piece that raises marks its line as failed, with the
  analyzer's reason, and every other line is unaffected.
* **Streams.** An analyzer that analyses a stream of texts (``analyzer.stream``, Kiwi's batch API)
  is fed lines as it asks for them (:func:`stream_lines`); when the stream raises, the pieces it
  was given and had not answered are analysed one by one, and so is the rest of the input.
* **Time.** An in-process call cannot be interrupted (JVM and C++ code ignore Python), so a
  wall-clock limit needs the analyzer in a child process: an analyzer with an ``outcomes`` method
  (:class:`~ktr.korean.analyzers.process.AnalyzerProcess`) reports timeouts as failures itself.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import NamedTuple, Protocol, runtime_checkable

from ktr.korean.analyzers.base import Analyzer, Morpheme

#: pieces per analyzer call; a raising batch is redone piece by piece, so this bounds the rework
BATCH = 256

#: what analysing one piece gives: its morphemes, or the reason it failed
Outcome = list[Morpheme] | str


@runtime_checkable
class _Reports(Protocol):
    """An analyzer that reports its failures itself (a time limit: ``AnalyzerProcess``)."""

    def outcomes(self, texts: Sequence[str]) -> list[Outcome]: ...


@runtime_checkable
class _Streams(Protocol):
    """An analyzer that analyses a stream of texts (Kiwi's batch API)."""

    def stream(self, texts: Iterable[str]) -> Iterator[list[Morpheme]]: ...


@dataclass(frozen=True)
class LineAnalysis:
    """The morphemes of one line, or why it could not be analysed (then ``morphemes`` is empty)."""

    morphemes: list[Morpheme]
    failed: str | None = None


def pieces(text: str, max_chars: int) -> list[tuple[int, str]]:
    """``text`` cut into (offset, piece) of at most ``max_chars`` characters, at spaces if possible."""
    out: list[tuple[int, str]] = []
    start = 0
    while len(text) - start > max_chars:
        cut = text.rfind(" ", start + 1, start + max_chars + 1)
        end = cut if cut > start else start + max_chars
        out.append((start, text[start:end]))
        start = end
    out.append((start, text[start:]))
    return out


def failure_reason(name: str, exc: BaseException) -> str:
    """One line saying which analyzer failed and how (JVM exceptions carry their Java class)."""
    message = (str(exc).strip().splitlines() or [""])[0]
    kind = type(exc).__name__
    if kind not in message:
        message = f"{kind}: {message}" if message else kind
    if len(message) > 200:
        message = message[:197] + "..."
    return f"{name} raised {message}"


def analyze_one(analyzer: Analyzer, text: str) -> Outcome:
    """The morphemes of ``text``, or the reason the analyzer failed on it."""
    try:
        return analyzer.analyze(text)
    except Exception as exc:  # any failure of third-party code on this input: report, go on
        return failure_reason(analyzer.name, exc)


def outcomes(analyzer: Analyzer, texts: Sequence[str]) -> list[Outcome]:
    """One outcome per text: a batch call first, piece by piece only if the batch raises."""
    if isinstance(analyzer, _Reports):
        return analyzer.outcomes(texts)
    try:
        return list(analyzer.analyze_many(texts))
    except Exception:  # which text failed is found below, one at a time
        return [analyze_one(analyzer, t) for t in texts]


def analyze_lines(analyzer: Analyzer, lines: Sequence[str], max_chars: int) -> list[LineAnalysis]:
    """Analyse every line under the size and failure guards (see the module docstring)."""
    work = [_Piece(n, offset, piece) for n, line in enumerate(lines) for offset, piece in pieces(line, max_chars)]
    results: list[Outcome] = []
    for b in range(0, len(work), BATCH):
        results += outcomes(analyzer, [w.text for w in work[b : b + BATCH]])
    morphemes: list[list[Morpheme]] = [[] for _ in lines]
    failed: list[str | None] = [None] * len(lines)
    for w, result in zip(work, results, strict=True):
        if isinstance(result, str):
            failed[w.line] = failed[w.line] or result
        else:
            morphemes[w.line] += _shifted(result, w.offset)
    return [LineAnalysis([] if f else m, f) for m, f in zip(morphemes, failed)]


class _Piece(NamedTuple):
    line: int  # index of its line
    offset: int  # where it starts in the line
    text: str
    last: bool = True  # the line's last piece


def _shifted(morphemes: list[Morpheme], offset: int) -> list[Morpheme]:
    return [m._replace(start=m.start + offset, end=m.end + offset) for m in morphemes] if offset else morphemes


def stream_lines(analyzer: Analyzer, lines: Iterable[str], max_chars: int) -> Iterator[LineAnalysis]:
    """:func:`analyze_lines` for an analyzer with a ``stream`` method: one analysis per line,
    each given as soon as the analyzer has it, the lines read only as the analyzer asks for them."""
    work = (
        _Piece(n, offset, piece, offset + len(piece) == len(line))
        for n, line in enumerate(lines)
        for offset, piece in pieces(line, max_chars)
    )
    morphemes: list[Morpheme] = []
    failed: str | None = None
    for w, result in _stream_outcomes(analyzer, work):
        if isinstance(result, str):
            failed = failed or result
        else:
            morphemes += _shifted(result, w.offset)
        if w.last:
            yield LineAnalysis([] if failed else morphemes, failed)
            morphemes, failed = [], None


def _stream_outcomes(analyzer: Analyzer, work: Iterator[_Piece]) -> Iterator[tuple[_Piece, Outcome]]:
    """Each piece and its outcome, in order. Blank pieces are not sent (they have no morphemes).
    An error while reading ``work`` (a bad input line) is raised as it is, not taken for the
    analyzer's failure."""
    given: deque[_Piece] = deque()  # pieces read and not yet answered, blank ones included
    reading: list[BaseException] = []

    def feed() -> Iterator[str]:
        while True:
            try:
                w = next(work)
            except StopIteration:
                return
            except BaseException as exc:  # raised again below, once the given pieces are answered
                reading.append(exc)
                return
            given.append(w)
            if w.text.strip():
                yield w.text

    try:
        if not isinstance(analyzer, _Streams):  # callers check; any other is analysed one by one, below
            raise TypeError(f"{analyzer.name} cannot analyse a stream")
        for result in analyzer.stream(feed()):
            while not given[0].text.strip():
                yield given.popleft(), []
            yield given.popleft(), result
    except Exception:  # which piece failed is found one at a time, and so is the rest
        if reading:
            raise reading[0] from None
        for w in chain(given, work):
            yield w, analyze_one(analyzer, w.text)
        return
    for w in given:
        yield w, []  # blank pieces after the last answered one
    if reading:
        raise reading[0]

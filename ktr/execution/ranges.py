"""Line ranges of files that the workers of a cluster read themselves.

The client reads every input file once (:func:`index_file`): it checks it as
:func:`ktr.textio.scan` does (UTF-8, with the line of the first bad byte; line counts), and
notes the byte offset of every ``GRANULE``-th line. A task is then a :class:`Range`: lines
``first`` to ``first + lines`` of the corpus, as byte ranges of the source, each system and
each reference; the worker that runs it reads those bytes (:func:`read_range`) and decodes
them with the same rules. Files are opened with fsspec, so a path is anything every worker can
open: a local or NFS path, ``s3://bucket/key`` where s3fs is installed, ``gs://``... The
offsets cost 8 bytes per ``GRANULE`` lines (12 MB per file of 100 million lines).
"""

from __future__ import annotations

import codecs
import importlib
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from ktr.errors import InputError, KtrError
from ktr.execution.unit import Stretch
from ktr.textio import BLOCK, BOM, TextFile, _checked, _decode, scan

#: lines between two noted offsets; a task's length is a multiple of it
GRANULE = 64
#: lines per task at most: about a second of Kiwi's analysis on one core, so that a task costs
#: the scheduler little next to its work (docs/cluster.md has the measurements), and a worker
#: that dies loses little
TASK_LINES = 1024
#: a shorter corpus is cut into about this many tasks, so that every worker gets several
TASKS = 32
#: granules read at a time when a whole file is read from here (16,384 lines)
READ = 256
#: lines of its first block an indexed file keeps (:attr:`IndexedFile.head`)
HEAD_LINES = 10_000


class CheckedFile(Protocol):
    """An input checked once before anything is scored, read as it is scored: a
    :class:`ktr.textio.TextFile`, an :class:`IndexedFile` or a table's column
    (:class:`ktr.execution.tables.Column`)."""

    @property
    def name(self) -> str: ...

    @property
    def lines(self) -> int: ...

    @property
    def has_text(self) -> bool: ...

    def __iter__(self) -> Iterator[str]: ...


def task_lines(lines: int) -> int:
    """Lines per task for a corpus of ``lines`` lines: a multiple of ``GRANULE``, at most ``TASK_LINES``."""
    per = -(-lines // TASKS)
    return min(TASK_LINES, max(GRANULE, -(-per // GRANULE) * GRANULE))


def _open(name: str) -> Any:
    """An fsspec file to open (fsspec is not typed), or an error saying how to install it."""
    try:
        fsspec = importlib.import_module("fsspec")
    except ImportError:
        raise KtrError('the dask engine needs fsspec: pip install "ktr[dask]"') from None
    return fsspec.open(name, "rb")


def cannot_read(name: str, exc: Exception) -> InputError:
    """The error for a file that could not be read: an OSError's reason, or for a URL whatever its
    store's client raised (botocore's EndpointConnectionError, an unreachable address, is no
    OSError). Any other error of a local file is raised as it is: it is no reading error."""
    if not isinstance(exc, OSError) and not _is_url(name):
        raise exc
    reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
    return InputError(f"{name}: cannot read: {reason}")


def _is_url(name: str) -> bool:
    return "://" in name


@dataclass(frozen=True)
class IndexedFile:
    """A checked input file (as :class:`ktr.textio.TextFile`) and the byte offset of every
    ``GRANULE``-th line (the last entry: the end of the file)."""

    name: str
    lines: int
    has_text: bool
    offsets: array[int] = field(repr=False, compare=False, default_factory=lambda: array("q"))
    #: its first lines (those its first block holds, at most HEAD_LINES), kept when it was checked:
    #: what the language check looks at (ktr.textio.language_warning), without reading it again
    head: tuple[str, ...] = field(repr=False, compare=False, default=())
    held = None

    def __iter__(self) -> Iterator[str]:
        """Its lines, read ``READ`` granules at a time."""
        last = len(self.offsets) - 1
        for k in range(0, last, READ):
            yield from read_lines(self.name, self.offsets[k], self.offsets[min(k + READ, last)], k * GRANULE)

    def span(self, first: int, lines: int) -> tuple[int, int]:
        """Bytes of lines ``first`` to ``first + lines`` (``first`` a multiple of ``GRANULE``)."""
        a = first // GRANULE
        b = (first + lines) // GRANULE if (first + lines) < self.lines else len(self.offsets) - 1
        return self.offsets[a], self.offsets[b]


def index_file(name: str, *, allow_empty: bool = False) -> IndexedFile:
    """Read ``name`` once: its lines counted, its encoding checked, its offsets noted."""
    if not _is_url(name):
        _checked(name)
    decoder = codecs.getincrementaldecoder("utf-8")()
    offsets = array("q")
    lines, position, has_text, last = 0, 0, False, b""
    first_lines: tuple[str, ...] | None = None  # the first block's lines, once it is read
    try:
        with _open(name) as fh:
            head = fh.read(len(BOM))
            position = len(BOM) if head == BOM else 0
            offsets.append(position)
            block = b"" if head == BOM else head
            while block := block + fh.read(BLOCK):
                start = 0
                while (end := block.find(b"\n", start)) >= 0:
                    lines += 1
                    start = end + 1
                    if lines % GRANULE == 0:
                        offsets.append(position + start)
                try:
                    text = decoder.decode(block)
                except UnicodeDecodeError:
                    _bad_line(name)
                has_text = has_text or bool(text) and not text.isspace()
                if first_lines is None:  # the first block: its whole lines (or the start of its first)
                    pieces = text.split("\n")
                    first_lines = tuple(pieces[: min(len(pieces) - 1 or 1, HEAD_LINES)])
                position += len(block)
                last, block = block[-1:], b""
            try:
                decoder.decode(b"", final=True)
            except UnicodeDecodeError:
                _bad_line(name)
    except InputError:
        raise
    except Exception as exc:
        raise cannot_read(name, exc) from None
    lines += last not in (b"", b"\n")
    if offsets[-1] != position:
        offsets.append(position)
    if not lines and not allow_empty:
        raise InputError(f"{name}: file is empty")
    return IndexedFile(name, lines, has_text, offsets, first_lines or ())


def check_file(name: str, *, distributed: bool, allow_empty: bool = False) -> TextFile | IndexedFile:
    """A file checked once before anything is scored: indexed for a cluster's workers to read
    (:func:`index_file`), and so is a URL for any engine (read back a range at a time), or as
    :func:`ktr.textio.scan` checks it to be streamed from here (and always so for standard
    input, ``-``, which is held)."""
    if (distributed or _is_url(name)) and name != "-":
        return index_file(name, allow_empty=allow_empty)
    return scan(name, allow_empty=allow_empty)


def _bad_line(name: str) -> None:
    """Raise the error naming the line of the first invalid byte, as :func:`ktr.textio.scan` does."""
    for _ in read_lines(name, 0, None, 0):
        pass
    raise InputError(f"{name}: invalid UTF-8")


def read_lines(name: str, start: int, end: int | None, first: int) -> Iterator[str]:
    """The lines in bytes ``start`` to ``end`` (None: the end) of file ``name``, line ``first``
    (counted from 0) the first of them, decoded as :mod:`ktr.textio` decodes them."""
    try:  # one ranged read: through a file object, s3fs would fetch its 50 MB read-ahead block
        fs, path = importlib.import_module("fsspec").core.url_to_fs(name)
        data = fs.cat_file(path, start=start, end=end)
    except Exception as exc:
        raise cannot_read(name, exc) from None
    if start == 0 and data.startswith(BOM):
        data = data[len(BOM) :]
    raw = data.split(b"\n")
    if raw and raw[-1] == b"":
        raw.pop()
    for number, line in enumerate(raw, first + 1):
        yield _decode(line, name, number)


class Range(NamedTuple):
    """A task's lines: ``lines`` lines from line ``first`` (counted from 0), as (file, start
    byte, end byte) of the source, of each system (named) and of each reference."""

    first: int
    lines: int
    source: tuple[str, int, int]
    systems: tuple[tuple[str, str | None, int, int], ...]
    references: tuple[tuple[str, int, int], ...] = ()


def ranges(
    source: IndexedFile, systems: dict[str, IndexedFile], references: Sequence[IndexedFile], size: int
) -> Iterator[Range]:
    """The corpus in ranges of ``size`` lines (a multiple of ``GRANULE``)."""
    if size % GRANULE:
        raise ValueError(f"a range's length must be a multiple of {GRANULE}, got {size}")
    for first in range(0, source.lines, size):
        n = min(size, source.lines - first)
        yield Range(
            first,
            n,
            (source.name, *source.span(first, n)),
            tuple((name, f.name, *f.span(first, n)) for name, f in systems.items()),
            tuple((f.name, *f.span(first, n)) for f in references),
        )


def read_range(item: Range) -> Stretch:
    """The stretch a range stands for, read from its files (on a worker)."""

    def read(name: str, start: int, end: int) -> list[str]:
        found = list(read_lines(name, start, end, item.first))
        if len(found) != item.lines:
            raise InputError(f"{name}: lines {item.first + 1}-{item.first + item.lines} changed since it was checked")
        return found

    systems = {name: read(path, a, b) if path is not None else [""] * item.lines for name, path, a, b in item.systems}
    return Stretch(item.first, read(*item.source), systems, [read(*where) for where in item.references])

"""Reading line-aligned text files: one segment per ``\\n``-terminated line.

Only ``\\n`` ends a line (as ``wc -l`` counts); a trailing ``\\r`` (CRLF files) and a UTF-8
byte-order mark are removed. Invalid UTF-8 is an error naming the file, line and byte offset, and
the encoding the file looks like when it looks like one (UTF-16, CP949), with the command that
converts it (:func:`invalid_utf8`).

Inputs are regular files or standard input (``-``): a device, a named pipe or a socket is
refused before it is opened (``/dev/zero`` would never end, a pipe cannot be read twice and may
wait forever for a writer). Standard input, which is held in memory, may not have a line longer
than ``MAX_LINE_BYTES`` (an endless stream without newlines, ``< /dev/zero``, stops there).

Files are either read whole (:func:`read_lines`) or streamed (:func:`scan`, then
:func:`aligned`): a first pass counts the lines and checks the encoding in blocks of
``BLOCK`` bytes, so that a bad file is refused before any work, and the lines are then read a
stretch at a time, in step across files, so memory does not grow with the files' length.

:func:`language_warning` tells when a file is in the other language than the one expected (a
source without Hangul, an output in Korean), and :func:`write_texts` writes the files a command
makes, all or none.
"""

from __future__ import annotations

import codecs
import errno
import os
import re
import shlex
import stat
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import BinaryIO, Protocol

from ktr.errors import InputError

BOM = b"\xef\xbb\xbf"
#: byte-order marks of the encodings a file that is not UTF-8 is most often in (UTF-32's first:
#: UTF-32LE's mark begins with UTF-16LE's)
OTHER_BOMS = (
    (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xff\xfe", "UTF-16"),
    (b"\xfe\xff", "UTF-16"),
)
#: bytes read at a time by :func:`scan`
BLOCK = 1 << 20
#: the longest line standard input may have, in bytes: 16 MiB, thousands of times a long sentence
MAX_LINE_BYTES = 16 << 20
#: what a file that is not a regular file is, by :mod:`stat`'s test
_KINDS = (
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a pipe"),
    (stat.S_ISSOCK, "a socket"),
)


#: the most bytes ktr reads of a file it reads whole: a config, an experiment, a lexicon, judged
#: keywords, a style file (the shipped lexicon: 1.2 MB)
MAX_WHOLE = 256 << 20


def open_regular(path: str | os.PathLike[str]) -> BinaryIO:
    """``path`` opened for reading when it is a regular file; else an OSError saying what it is,
    before anything is read: a device may never end (``/dev/zero``), and opening a named pipe
    would wait for a writer (it is opened without waiting, then refused)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
        if not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, f"is {file_kind(mode)}, expected a regular file")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_whole(path: str | os.PathLike[str], limit: int = MAX_WHOLE) -> bytes:
    """The bytes of a regular file (:func:`open_regular`) of at most ``limit`` bytes; else an
    OSError (``/proc`` files, whose size says 0, are read up to the limit too)."""
    with open_regular(path) as fh:
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"larger than {limit:,} bytes: not a file ktr reads whole")
    return data


def file_kind(mode: int) -> str:
    """What a file of ``mode`` (``os.stat``'s) is, for a message: "a character device", "a pipe"..."""
    return next((what for test, what in _KINDS if test(mode)), "not a regular file")


def split_lines(data: bytes, name: str) -> list[str]:
    """Decode ``data`` as UTF-8 and split it into lines on ``\\n`` only."""
    if data.startswith(BOM):
        data = data[len(BOM) :]
    raw_lines = data.split(b"\n")
    if raw_lines and raw_lines[-1] == b"":
        raw_lines.pop()  # the final newline ends the last line, it does not open a new one
    return [_decode(raw, name, number) for number, raw in enumerate(raw_lines, 1)]


def _decode(raw: bytes, name: str, number: int) -> str:
    """Line ``number`` of file ``name`` (without its ``\\n``), its trailing ``\\r`` removed."""
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(invalid_utf8(name, number, raw, exc.start)) from None


def invalid_utf8(name: str, number: int, raw: bytes, start: int) -> str:
    """The message for line ``number`` of ``name`` (its bytes ``raw``), not UTF-8 from byte ``start``
    on: the file, line, byte offset and byte, and when the file looks like UTF-16 or CP949 (the
    encodings Windows editors save Korean in), which, and the ``iconv`` command that converts it."""
    message = f"{name}:{number}: invalid UTF-8 at byte {start} of the line (byte 0x{raw[start]:02x})"
    looks = _looks_like(raw, start, number)
    if looks is None:
        return message
    what, code = looks
    convert = f"iconv -f {code} -t UTF-8"
    if name == "-":
        return f"{message}; it looks like {what}: convert it by piping it through {convert}"
    return f"{message}; it looks like {what}: convert it with {convert} {shlex.quote(name)} > {shlex.quote(name + '.utf8')}"


def _looks_like(raw: bytes, start: int, number: int) -> tuple[str, str] | None:
    """(what the encoding of a line that is not UTF-8 looks like, iconv's name for it), or None:
    a UTF-16 or UTF-32 byte-order mark at the start of the file; or CP949 (EUC-KR), when the line
    reads as CP949 and its first bad byte is a Hangul syllable's lead byte (0xB0-0xC8) followed by
    a trail byte (0xA1-0xFE)."""
    if number == 1:
        for mark, code in OTHER_BOMS:
            if raw.startswith(mark):
                return f"{code} (a {code} byte-order mark)", code
    if 0xB0 <= raw[start] <= 0xC8 and start + 1 < len(raw) and 0xA1 <= raw[start + 1] <= 0xFE:
        try:
            raw.decode("cp949")
        except UnicodeDecodeError:
            return None
        return "CP949 (EUC-KR) Korean", "CP949"
    return None


def _checked(path: str | os.PathLike[str]) -> Path:
    name, p = str(path), Path(path)
    if not p.exists():
        raise InputError(f"{name}: no such file")
    if p.is_dir():
        raise InputError(f"{name}: is a directory, expected a text file")
    try:
        mode = p.stat().st_mode
    except OSError as exc:
        raise InputError(f"{name}: cannot read: {exc.strerror}") from None
    if not stat.S_ISREG(mode):
        raise InputError(f"{name}: is {file_kind(mode)}, expected a regular file (or - for standard input)")
    return p


def _stdin() -> list[str]:
    """Standard input, read whole, with no line longer than :data:`MAX_LINE_BYTES`."""
    import sys

    return split_lines(_bounded_lines(sys.stdin.buffer, "-"), "-")


def _bounded_lines(stream: BinaryIO, name: str) -> bytes:
    """Everything ``stream`` holds, refused as soon as a line passes :data:`MAX_LINE_BYTES`."""
    blocks: list[bytes] = []
    line, newlines = 0, 0  # bytes of the line being read; the lines before it
    while block := stream.read(BLOCK):
        blocks.append(block)
        first = block.find(b"\n")
        if first >= 0 and line + first <= MAX_LINE_BYTES:  # the line it ends is short enough
            newlines += block.count(b"\n")
            line = len(block) - block.rfind(b"\n") - 1  # a line inside one block is shorter than BLOCK
        else:
            line += len(block) if first < 0 else first + 1
        if line > MAX_LINE_BYTES:
            raise InputError(
                f"{name}:{newlines + 1}: a line longer than {MAX_LINE_BYTES} bytes: expected one sentence per line"
            )
    return b"".join(blocks)


def read_lines(path: str | os.PathLike[str], *, allow_empty: bool = False) -> list[str]:
    """Read a UTF-8 text file as a list of lines; see the module docstring for the rules."""
    name = str(path)
    if name == "-":
        lines = _stdin()
    else:
        try:
            lines = split_lines(_checked(path).read_bytes(), name)
        except OSError as exc:
            raise InputError(f"{name}: cannot read: {exc.strerror}") from None
    if not lines and not allow_empty:
        raise InputError(f"{name}: file is empty")
    return lines


@dataclass(frozen=True)
class TextFile:
    """A checked input file (:func:`scan`): its line count, whether any line has text, and its
    lines on demand (standard input, which cannot be read twice, is held in memory)."""

    name: str
    lines: int
    has_text: bool
    held: tuple[str, ...] | None = None

    def __iter__(self) -> Iterator[str]:
        if self.held is not None:
            return iter(self.held)
        return _stream(self.name)


def _stream(name: str) -> Iterator[str]:
    try:
        with open(name, "rb") as fh:
            for number, raw in enumerate(fh, 1):
                if number == 1 and raw.startswith(BOM):
                    if raw == BOM:  # nothing after it: no line
                        return
                    raw = raw[len(BOM) :]
                yield _decode(raw[:-1] if raw.endswith(b"\n") else raw, name, number)
    except OSError as exc:
        raise InputError(f"{name}: cannot read: {exc.strerror}") from None


def scan(path: str | os.PathLike[str], *, allow_empty: bool = False) -> TextFile:
    """Check a UTF-8 text file without holding it: count its lines, find its first invalid
    byte (an error naming the line, as :func:`read_lines` gives) and whether any line has text."""
    name = str(path)
    if name == "-":
        held = _stdin()
        found = TextFile(name, len(held), any(line.strip() for line in held), tuple(held))
    else:
        found = _scan(_checked(path), name)
    if not found.lines and not allow_empty:
        raise InputError(f"{name}: file is empty")
    return found


def _scan(p: Path, name: str) -> TextFile:
    decoder = codecs.getincrementaldecoder("utf-8")()
    newlines, last, has_text = 0, b"", False
    try:
        with p.open("rb") as fh:
            head = fh.read(len(BOM))
            block = b"" if head == BOM else head
            while block := block + fh.read(BLOCK):
                newlines += block.count(b"\n")
                last = block[-1:]
                try:
                    text = decoder.decode(block)
                    has_text = has_text or bool(text) and not text.isspace()
                except UnicodeDecodeError:
                    break
                block = b""
            else:
                try:
                    decoder.decode(b"", final=True)  # a character cut short at the end
                except UnicodeDecodeError:
                    pass
                else:
                    return TextFile(name, newlines + (last not in (b"", b"\n")), has_text)
    except OSError as exc:
        raise InputError(f"{name}: cannot read: {exc.strerror}") from None
    for _ in _stream(name):  # the decoder failed: reading line by line names the line
        pass
    raise InputError(f"{name}: invalid UTF-8")  # not reached unless the file changed meanwhile


class NamedLines(Protocol):
    """What :func:`aligned` reads: a file's lines and its name (a :class:`TextFile`, or any input
    checked before it is read, :class:`ktr.execution.ranges.CheckedFile`)."""

    @property
    def name(self) -> str: ...

    def __iter__(self) -> Iterator[str]: ...


def aligned(files: Sequence[NamedLines], size: int) -> Iterator[list[list[str]]]:
    """The lines of ``files`` (as many in each: :func:`check_counts`) in step, ``size``
    lines at a time: per stretch, a list of lines per file."""
    streams = [iter(f) for f in files]
    while True:
        stretch = [list(islice(lines, size)) for lines in streams]
        if len({len(part) for part in stretch}) > 1:
            short = min(range(len(files)), key=lambda i: len(stretch[i]))
            raise InputError(f"{files[short].name}: ended early, it changed while it was read")
        if not stretch[0]:
            return
        yield stretch


def check_counts(counts: Sequence[tuple[str, int]]) -> None:
    """Raise InputError unless every (name, line count) has the count of the first (the source)."""
    first, expected = counts[0]
    for name, n in counts[1:]:
        if n != expected:
            raise InputError(f"line counts differ: {first} has {expected} lines, {name} has {n}; nothing was scored")


def check_same_length(named: dict[str, list[str]], reference_name: str) -> None:
    """Raise InputError unless every list in ``named`` has as many lines as ``reference_name``."""
    check_counts([(reference_name, len(named[reference_name])), *((n, len(v)) for n, v in named.items())])


#: lines with letters that :func:`language_warning` looks at, from the start of a file
LANGUAGE_SAMPLE = 1000
_LETTER = re.compile(r"[^\W\d_]")
_HANGUL = re.compile(r"[\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3]")


def language_warning(name: str, lines: Iterable[str], korean: bool) -> str | None:
    """A warning when most of the lines with letters (of the first :data:`LANGUAGE_SAMPLE`) are
    in the other language: without Hangul in a Korean source (``korean``), or mostly Hangul (more
    than half of its letters) in an English output; None otherwise. Either scores near 0."""
    counted = odd = 0
    for line in lines:
        letters = len(_LETTER.findall(line))
        if not letters:
            continue
        hangul = len(_HANGUL.findall(line))
        counted += 1
        odd += hangul == 0 if korean else hangul * 2 > letters
        if counted == LANGUAGE_SAMPLE:
            break
    if odd * 2 <= counted:
        return None
    of = f"{odd} of {'the first ' if counted == LANGUAGE_SAMPLE else ''}{counted} lines with letters"
    if korean:
        return f"{name}: {of} have no Hangul: is this the Korean source? KTR finds its keywords in Korean"
    return f"{name}: {of} are mostly Hangul: is this the English output? KTR matches English words"


def lines_of(path: str | os.PathLike[str]) -> Iterator[str]:
    """The lines of a file, read as they are asked for (as a :class:`TextFile` reads them)."""
    return _stream(str(path))


def write_texts(files: dict[Path, str]) -> None:
    """Write each text (UTF-8) into its file, all or none: each goes into a temporary file beside
    its target (``NAME.tmp``) first, and only when every one is written do they replace their
    targets. On an error (a full disk, a folder that cannot be written) the temporary files are
    removed, the targets are as they were, and an OSError naming the target is raised."""
    temporary: dict[Path, Path] = {}
    try:
        for path, text in files.items():
            tmp = path.with_name(path.name + ".tmp")
            temporary[path] = tmp
            try:
                with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
                    fh.write(text)
            except OSError as exc:
                raise OSError(exc.errno, exc.strerror, str(path)) from None
        for path, tmp in list(temporary.items()):
            try:
                os.replace(tmp, path)
            except OSError as exc:
                raise OSError(exc.errno, exc.strerror, str(path)) from None
            del temporary[path]
    finally:
        for tmp in temporary.values():
            try:
                os.unlink(tmp)
            except OSError:
                pass  # never made, or already gone

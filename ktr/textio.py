"""Reading line-aligned text files: one segment per ``\\n``-terminated line.

Only ``\\n`` ends a line (as ``wc -l`` counts); a trailing ``\\r`` (CRLF files) and a UTF-8
byte-order mark are removed. Invalid UTF-8 is an error naming the file, line and byte offset.
"""
from __future__ import annotations

import os
from pathlib import Path

from .errors import InputError


def split_lines(data: bytes, name: str) -> list[str]:
    """Decode ``data`` as UTF-8 and split it into lines on ``\\n`` only."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    raw_lines = data.split(b"\n")
    if raw_lines and raw_lines[-1] == b"":
        raw_lines.pop()  # the final newline ends the last line, it does not open a new one
    lines = []
    for number, raw in enumerate(raw_lines, 1):
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        try:
            lines.append(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise InputError(
                f"{name}:{number}: invalid UTF-8 at byte {exc.start} of the line "
                f"(byte 0x{raw[exc.start]:02x})"
            ) from None
    return lines


def read_lines(path: str | os.PathLike, *, allow_empty: bool = False) -> list[str]:
    """Read a UTF-8 text file as a list of lines; see the module docstring for the rules."""
    name = str(path)
    p = Path(path)
    if name == "-":
        import sys

        data = sys.stdin.buffer.read()
    else:
        if not p.exists():
            raise InputError(f"{name}: no such file")
        if p.is_dir():
            raise InputError(f"{name}: is a directory, expected a text file")
        try:
            data = p.read_bytes()
        except OSError as exc:
            raise InputError(f"{name}: cannot read: {exc.strerror}") from None
    lines = split_lines(data, name)
    if not lines and not allow_empty:
        raise InputError(f"{name}: file is empty")
    return lines


def check_same_length(named: dict[str, list[str]], reference_name: str) -> None:
    """Raise InputError unless every list in ``named`` has as many lines as ``reference_name``."""
    expected = len(named[reference_name])
    for name, lines in named.items():
        if len(lines) != expected:
            raise InputError(
                f"line counts differ: {reference_name} has {expected} lines, "
                f"{name} has {len(lines)}; nothing was scored"
            )

"""Control characters and terminal escape sequences in the text a user gives.

A line of a file can hold what a terminal obeys instead of showing it: a colour
(``ESC [31m``), a window title (``ESC ]0;title BEL``), a cleared screen (``ESC [2J``). None of
it is words. Both sides of scoring clean it away the same way (:mod:`ktr.korean.normalize` for
the source, :mod:`ktr.english.tokens` for an output): an escape sequence (:data:`ESCAPE`) is
removed whole, and a control character outside one stands for a space (as it separates words).
Each cleaned line is reported (:func:`removed`, :func:`cleaned_note`). Whatever ktr prints or
writes for people shows control characters escaped, as ``\\x1b`` (:func:`shown`), so that no input
can drive the terminal that reads it.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

#: a terminal escape sequence, in its 7-bit form (ESC and what follows) or its 8-bit one (a C1
#: introducer), as ECMA-48 writes them:
#:
#: - a control string (OSC ``ESC ]``, DCS ``ESC P``, SOS ``ESC X``, PM ``ESC ^``, APC ``ESC _``;
#:   U+009D, U+0090, U+0098, U+009E, U+009F) up to its end (BEL, ``ESC \\`` or ST, U+009C), or,
#:   without one, up to the next ESC or the end of the line (a terminal shows none of it);
#: - a control sequence (CSI, ``ESC [`` or U+009B): parameter bytes, intermediate bytes, a final byte;
#: - any other escape sequence: ESC, intermediate bytes, a final byte (``ESC c``, ``ESC ( B``);
#:   not a space after the ESC (``ESC SP F`` is one, but rare beside a stray ESC before a space,
#:   which then leaves the word after the space whole).
#:
#: Each part is a run of one class of characters, so a line is matched in time linear in its length.
ESCAPE = re.compile(
    r"(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]"
    r"|\x1b[\x21-\x2f]*[\x30-\x7e]"
)
#: what starts an escape sequence
_INTRODUCER = re.compile(r"[\x1b\x90\x98\x9b\x9d\x9e\x9f]")
#: what :func:`shown` escapes: C0 and C1 control characters, DEL, and surrogates (which no
#: terminal can be sent)
_UNSHOWN = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")

_NAMES = {"\x00": "NUL", "\x1b": "ESC", "\x7f": "DEL"}


def describe(ch: str) -> str:
    """How a warning names a removed character: ``U+001B ESC``, ``U+0007``."""
    name = _NAMES.get(ch, "")
    return f"U+{ord(ch):04X}{' ' + name if name else ''}"


def strip_escapes(text: str) -> str:
    """``text`` without its escape sequences (:data:`ESCAPE`); control characters outside them stay."""
    return ESCAPE.sub("", text) if _INTRODUCER.search(text) else text


def escape_spans(text: str) -> list[tuple[int, int]]:
    """The (start, end) of each escape sequence in ``text``."""
    return [m.span() for m in ESCAPE.finditer(text)] if _INTRODUCER.search(text) else []


def removed(text: str) -> Counter[str]:
    """What cleaning takes out of ``text``, described (:func:`describe`) and counted: each escape
    sequence once, as its introducer (ESC or the C1 character); each control character outside
    one (tab is whitespace, not counted); each surrogate (``surrogate``)."""
    found: Counter[str] = Counter()
    if text.isprintable():
        return found
    inside = escape_spans(text)
    found.update(describe(text[a]) for a, _ in inside)
    pos = 0
    for a, b in [*inside, (len(text), len(text))]:
        for ch in text[pos:a]:
            cat = unicodedata.category(ch)
            if cat == "Cs":
                found["surrogate"] += 1
            elif cat == "Cc" and ch != "\t":
                found[describe(ch)] += 1
        pos = b
    return found


def cleaned_note(found: Counter[str] | tuple[tuple[str, int], ...], before: str) -> str:
    """The warning for a line cleaned of ``found`` (:func:`removed`) before ``before`` (analysis,
    matching)."""
    items = sorted(found.items()) if isinstance(found, Counter) else list(found)
    what = ", ".join(f"{d} ×{n}" if n > 1 else d for d, n in items)
    return f"cleaned {sum(n for _, n in items)} control or surrogate character(s) before {before} ({what})"


def _escaped(m: re.Match[str]) -> str:
    code = ord(m.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def shown(text: str) -> str:
    """``text`` as it may be shown to a person: each control character (C0, DEL, C1) written as
    ``\\x1b`` and each surrogate as ``\\udc80``, so that a terminal shows it instead of obeying it,
    and a line break in it does not break the line it is printed on. Everything else is kept."""
    return text if text.isprintable() or not _UNSHOWN.search(text) else _UNSHOWN.sub(_escaped, text)


#: the most characters of an error or a warning line ktr prints: a longer one keeps its first
#: :data:`HEAD` and last :data:`TAIL` characters (what went wrong, and what to do), the rest
#: left out and counted, so that a value quoted in it (a 10 MB analyzer name, a line of a file)
#: never makes the line long (ktr's own longest, WordNet missing with the folders it looked in, is
#: about 650)
LONGEST_LINE = 1000
HEAD, TAIL = 400, 400


def bounded(text: str) -> str:
    """``text`` as an error or warning line quotes it: at most :data:`LONGEST_LINE` characters
    as it is, else its start and its end around an ellipsis that says how much was left out."""
    if len(text) <= LONGEST_LINE:
        return text
    return f"{text[:HEAD]}…[{len(text) - HEAD - TAIL:,} characters]…{text[-TAIL:]}"


def columns(text: str) -> int:
    """Columns a text takes in a terminal (East Asian widths, ``unicodedata.east_asian_width``):
    a wide or full-width character (Hangul, CJK ideographs, full-width forms) two, a combining
    mark none, any other one; text tables pad by it, so Korean names line up."""
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def padded(text: str, width: int, right: bool = False) -> str:
    """``text`` padded with spaces to ``width`` terminal columns (:func:`columns`), on the left
    with ``right`` (a number's column)."""
    pad = " " * max(width - columns(text), 0)
    return pad + text if right else text + pad

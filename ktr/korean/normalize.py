"""One normalization of Korean source text before analysis, with a map back to the original.

Analyzers disagree on text that is the same to a reader, and some fail on characters that carry no
words at all (see docs/input-handling.md). Every source line therefore goes through
:func:`normalize_source` first, so each analyzer sees the same, clean spelling:

1. A terminal escape sequence (a colour ``\\x1b[31m``, a window title ``\\x1b]0;…\\x07``, any
   other: :data:`ktr.controls.ESCAPE`) is removed whole and reported once, as its ESC (or C1
   introducer). Other C0 and C1 control characters (NUL, ``\\x0b``, ``\\x85``…) become a space and
   are reported (mecab-ko stops reading at a NUL; KoNLPy's Hannanum drops text after ``\\x0b``).
   Tab is ordinary whitespace and is not reported. Output lines are cleaned the same way
   (:mod:`ktr.english.tokens`).
2. Surrogate code points (only possible through the Python API, e.g. text decoded with
   ``errors="surrogateescape"``) become a space and are reported: they are not text.
3. Every other kind of whitespace (U+2028, no-break and ideographic spaces…) becomes a space;
   invisible format characters (zero-width space and joiner, soft hyphen, a byte-order mark
   inside a line, direction marks) are removed.
4. Emoji, with their skin-tone modifiers, variation selectors and keycaps, become spaces: they
   are never keywords, Komoran raises on them and Hannanum tags them as nouns.
5. Full-width ASCII (``１２３``, ``ＫＴＸ``) becomes ASCII, as the English side's NFKC does.
6. NFC: decomposed (NFD) Hangul is composed into syllables.
7. Hangul jamo: conjoining jamo that NFC could not compose become compatibility jamo
   (``ᄏᄏ`` → ``ㅋㅋ``), then a compatibility consonant followed by a vowel (and an optional
   final consonant) becomes the syllable it spells (``ㅂㅏㅇ`` → ``방``). Jamo that do not spell a
   syllable (``ㅋㅋㅋ``, ``ㅠㅠ``) stay as they are. So NFC, NFD and jamo spellings of a sentence
   give the same keywords and the same scores.

Every character of the normalized text remembers the span of the original it came from, so
keyword offsets can be reported in the user's own text (:meth:`Normalized.original_span`).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass

from ktr.controls import cleaned_note, escape_spans, removed

# Compatibility jamo, in the order of Unicode's syllable formula (initial, medial, final).
_CHO = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"
_JUNG = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ"
_JONG = "ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ"
# modern conjoining jamo -> compatibility jamo
_TO_COMPAT = {
    **{chr(0x1100 + i): c for i, c in enumerate(_CHO)},
    **{chr(0x1161 + i): c for i, c in enumerate(_JUNG)},
    **{chr(0x11A8 + i): c for i, c in enumerate(_JONG)},
}

#: pictographic blocks and the characters that build emoji sequences
_EMOJI_RANGES = (
    (0x1F000, 0x1FAFF),  # mahjong/cards, enclosed alphanumerics/ideographs, pictographs, emoticons…
    (0x2600, 0x27BF),  # miscellaneous symbols, dingbats
    (0x2B00, 0x2BFF),  # arrows and stars used as emoji (⬆ ⭐)
    (0xFE00, 0xFE0F),  # variation selectors (emoji presentation)
    (0x20E3, 0x20E3),  # combining keycap
    (0xE0000, 0xE007F),  # tag characters (flag sequences)
)


_PLAIN = re.compile(r"[ -~\uac00-\ud7a3]*")
#: printable characters that a step above still changes: jamo, full-width ASCII, emoji parts
_CHANGED = re.compile(
    "[\u1100-\u11ff\u3131-\u318e\ua960-\ua97f\ud7b0-\ud7ff\uff01-\uff5e\u20e3"
    "\u2600-\u27bf\u2b00-\u2bff\ufe00-\ufe0f\U0001f000-\U0001faff]"
)


def _is_emoji(code: int) -> bool:
    return any(lo <= code <= hi for lo, hi in _EMOJI_RANGES)


@dataclass(frozen=True)
class Normalized:
    """A normalized line, the line it came from and, per normalized character, its source span."""

    original: str
    text: str
    spans: tuple[tuple[int, int], ...]
    removed: tuple[tuple[str, int], ...] = ()  # reported characters: (description, count)

    @property
    def changed(self) -> bool:
        return self.text != self.original

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """The span of the original line that normalized characters ``[start, end)`` came from."""
        if not self.spans:  # nothing was changed
            return start, end
        if start >= len(self.spans):
            return len(self.original), len(self.original)
        if end <= start:
            return self.spans[start][0], self.spans[start][0]
        return self.spans[start][0], self.spans[end - 1][1]

    def warning(self) -> str | None:
        """What was replaced that the user should hear about, or None."""
        if not self.removed:
            return None
        return cleaned_note(self.removed, "analysis")


def normalize_source(line: str) -> Normalized:
    """Normalize one source line (see the module docstring)."""
    if _PLAIN.fullmatch(line) or (
        line.isprintable() and not _CHANGED.search(line) and unicodedata.is_normalized("NFC", line)
    ):
        return Normalized(line, line, ())  # the common case: nothing to change
    chars, spans, reported = _clean(line)
    chars, spans = _nfc(chars, spans)
    chars = [_TO_COMPAT.get(c, c) for c in chars]
    chars, spans = _compose_jamo(chars, spans)
    return Normalized(line, "".join(chars), tuple(spans), tuple(sorted(reported.items())))


def _clean(line: str) -> tuple[list[str], list[tuple[int, int]], Counter[str]]:
    """Steps 1-5: one character at a time."""
    chars: list[str] = []
    spans: list[tuple[int, int]] = []
    escaped = {i for a, b in escape_spans(line) for i in range(a, b)}
    for i, ch in enumerate(line):
        if i in escaped:
            continue
        code = ord(ch)
        cat = unicodedata.category(ch)
        if ch == "\t" or (cat != "Cc" and ch.isspace()):
            out = " "
        elif cat in ("Cc", "Cs"):
            out = " "
        elif cat == "Cf":
            continue
        elif _is_emoji(code):
            out = " "
        elif 0xFF01 <= code <= 0xFF5E:
            out = chr(code - 0xFEE0)
        else:
            out = ch
        chars.append(out)
        spans.append((i, i + 1))
    return chars, spans, removed(line)


def _starts_segment(ch: str) -> bool:
    """True if NFC cannot join ``ch`` to what precedes it (not a combining mark or medial/final jamo)."""
    code = ord(ch)
    return unicodedata.combining(ch) == 0 and not (0x1160 <= code <= 0x11FF or 0xD7B0 <= code <= 0xD7FF)


def _nfc(chars: list[str], spans: list[tuple[int, int]]) -> tuple[list[str], list[tuple[int, int]]]:
    """Step 6, segment by segment, so each composed character keeps the span of its parts."""
    text = "".join(chars)
    if unicodedata.is_normalized("NFC", text):
        return chars, spans
    bounds = [i for i, c in enumerate(chars) if i == 0 or _starts_segment(c)] + [len(chars)]
    out_chars: list[str] = []
    out_spans: list[tuple[int, int]] = []
    for a, b in zip(bounds, bounds[1:]):
        composed = unicodedata.normalize("NFC", text[a:b])
        span = (spans[a][0], spans[b - 1][1]) if len(composed) != b - a else None
        for k, c in enumerate(composed):
            out_chars.append(c)
            out_spans.append(span or spans[a + k])
    if "".join(out_chars) != unicodedata.normalize("NFC", text):  # a composition across segments
        whole = (spans[0][0], spans[-1][1])
        out_chars = list(unicodedata.normalize("NFC", text))
        out_spans = [whole] * len(out_chars)
    return out_chars, out_spans


def _compose_jamo(chars: list[str], spans: list[tuple[int, int]]) -> tuple[list[str], list[tuple[int, int]]]:
    """Step 7: compatibility consonant + vowel (+ final consonant) → one syllable."""
    out_chars: list[str] = []
    out_spans: list[tuple[int, int]] = []
    i, n = 0, len(chars)
    while i < n:
        if chars[i] in _CHO and i + 1 < n and chars[i + 1] in _JUNG:
            lead, vowel, final, j = _CHO.index(chars[i]), _JUNG.index(chars[i + 1]), 0, i + 2
            if j < n and chars[j] in _JONG and not (j + 1 < n and chars[j + 1] in _JUNG):
                final, j = _JONG.index(chars[j]) + 1, j + 1
            out_chars.append(chr(0xAC00 + (lead * 21 + vowel) * 28 + final))
            out_spans.append((spans[i][0], spans[j - 1][1]))
            i = j
        else:
            out_chars.append(chars[i])
            out_spans.append(spans[i])
            i += 1
    return out_chars, out_spans

"""Number expressions of an English text, for the ``number`` matching stage
(:mod:`ktr.matching.numbers` reads the Korean side): digit tokens (with ``st/nd/rd/th``, scale
words such as "million" and news English's "bn"), number words ("twenty five", "two hundred and
one", "third", "twice"), month names and spans of minutes said without a number ("half an
hour"), each as a token span with its keys: ``n:<value>``, ``m:<1-12>``, ``min:<minutes>``.

A number is read as far as Decimal's context holds it exactly: a run of more than
:data:`MAX_DIGITS` digits is no number (a code, a key, noise: its key was already rounded), and
scale words multiply a number while it is under :data:`MAX_SCALED`, so no line, however long,
makes the arithmetic overflow (``9`` a million times, "5 million million ..." 170,000 times
raised ``decimal.Overflow`` and stopped the run).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

#: the most digits a number is read with: the precision of Decimal's default context, past which
#: its key (:func:`value_key`) was rounded
MAX_DIGITS = 28
#: scale words ("million") multiply a number while it is below this
MAX_SCALED = Decimal(10) ** 60


def read_digits(text: str) -> Decimal | None:
    """The value of a number written in digits (``2.5``, ``1,000``), ``None`` when it is not one
    or has more than :data:`MAX_DIGITS` digits."""
    if sum(map(str.isdigit, text)) > MAX_DIGITS:
        return None
    try:
        return Decimal(text.replace(",", ""))
    except InvalidOperation:
        return None


def value_key(value: Decimal) -> str:
    """The key of a number's value, as both sides write it: ``n:350000000``, ``n:2.5``."""
    text = format(value.normalize(), "f")
    return "n:" + (text.rstrip("0").rstrip(".") if "." in text else text)


_ONES = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
).split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_ORD_ONES = (
    "zeroth first second third fourth fifth sixth seventh eighth ninth tenth eleventh "
    "twelfth thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth "
    "nineteenth"
).split()
_ORD_TENS = "twentieth thirtieth fortieth fiftieth sixtieth seventieth eightieth ninetieth".split()
CARDINALS = {w: i for i, w in enumerate(_ONES)} | {w: 10 * (i + 2) for i, w in enumerate(_TENS)}
ORDINALS = {w: i for i, w in enumerate(_ORD_ONES)} | {w: 10 * (i + 2) for i, w in enumerate(_ORD_TENS)}
SCALES = {"hundred": 100, "thousand": 1000, "million": 10**6, "billion": 10**9, "trillion": 10**12}
ORDINAL_SCALES = {"hundredth": 100, "thousandth": 1000, "millionth": 10**6, "billionth": 10**9}
#: news English's abbreviations of scale words after digits ("$10bn"), never alone
SCALE_ABBREVIATIONS = {"bn": 10**9, "mn": 10**6, "tn": 10**12}
TIMES = {"once": 1, "twice": 2, "thrice": 3}
#: spans of time a phrase says without a number, as minutes ("half an hour" for 30분; none starts
#: with "an", which would make nearly every sentence a candidate of :func:`may_hold_numbers`)
MINUTE_PHRASES = {
    ("half", "an", "hour"): 30,
    ("half", "hour"): 30,
    ("quarter", "of", "an", "hour"): 15,
    ("quarter", "hour"): 15,
    ("hour", "and", "a", "half"): 90,
}
_MINUTE_FIRSTS = frozenset(p[0] for p in MINUTE_PHRASES)
MONTHS = {
    m: i + 1
    for i, m in enumerate(
        "january february march april may june july august september october november december".split()
    )
}
#: the names a day of the month (25일) may be written as
WEEKDAYS = frozenset("monday tuesday wednesday thursday friday saturday sunday".split())
_ORDINAL_SUFFIXES = frozenset({"st", "nd", "rd", "th"})
#: the words a number expression can start with
_NUMBER_WORDS = (
    frozenset(CARDINALS)
    | frozenset(ORDINALS)
    | frozenset(SCALES)
    | frozenset(ORDINAL_SCALES)
    | frozenset(TIMES)
    | frozenset(MONTHS)
    | _MINUTE_FIRSTS
)


@dataclass(frozen=True, slots=True)
class Span:
    start: int
    end: int
    keys: frozenset[str]


_DIGIT = re.compile(r"\d")


def may_hold_numbers(words: Iterable[str]) -> bool:
    """Whether tokens with these words can hold a number expression (a quick test first)."""
    return not _NUMBER_WORDS.isdisjoint(words) or _DIGIT.search("".join(words)) is not None


def english_spans(tokens: Sequence[str]) -> list[Span]:
    """Every number expression in a tokenized English text (see :func:`ktr.english.tokens.tokenize`)."""
    spans: list[Span] = []
    i, n = 0, len(tokens)
    while i < n:
        tok = tokens[i]
        if tok not in _NUMBER_WORDS and not tok[0].isdigit():
            i += 1  # most words
            continue
        minutes = _minutes_at(tokens, i) if tok in _MINUTE_FIRSTS else None
        if minutes:
            spans.append(Span(i, minutes[0], frozenset({f"min:{minutes[1]}"})))
            i = minutes[0]
            continue
        if tok[0].isdigit():
            end, value = _digits_at(tokens, i)
        elif tok in CARDINALS or tok in ORDINALS or tok in SCALES or tok in ORDINAL_SCALES:
            end, value = _words_at(tokens, i)
        elif tok in TIMES:
            end, value = i + 1, Decimal(TIMES[tok])
        elif tok in MONTHS:
            spans.append(Span(i, i + 1, frozenset({f"m:{MONTHS[tok]}"})))
            i += 1
            continue
        else:
            i += 1
            continue
        if value is not None and end > i:
            spans.append(Span(i, end, frozenset({value_key(value)})))
            i = end
        else:
            i += 1
    return spans


def _digits_at(tokens: Sequence[str], i: int) -> tuple[int, Decimal | None]:
    value = read_digits(tokens[i]) if "," not in tokens[i] else None
    if value is None:
        return i + 1, None
    end = i + 1
    if end < len(tokens) and tokens[end] in _ORDINAL_SUFFIXES:
        return end + 1, value
    if end < len(tokens) and tokens[end] in SCALE_ABBREVIATIONS:
        return end + 1, value * SCALE_ABBREVIATIONS[tokens[end]]
    while end < len(tokens) and tokens[end] in SCALES and value < MAX_SCALED:
        value *= SCALES[tokens[end]]
        end += 1
    return end, value


def _minutes_at(tokens: Sequence[str], i: int) -> tuple[int, int] | None:
    """The end and the minutes of a phrase of :data:`MINUTE_PHRASES` at ``i``, the longest."""
    found = None
    for words, minutes in MINUTE_PHRASES.items():
        if tuple(tokens[i : i + len(words)]) == words and (found is None or i + len(words) > found[0]):
            found = (i + len(words), minutes)
    return found


def _words_at(tokens: Sequence[str], i: int) -> tuple[int, Decimal | None]:
    """Parse "two hundred and five thousand", "twenty first", "a hundred" is left to the lexicon."""
    total, current, seen, end = 0, 0, False, i
    while end < len(tokens):
        tok = tokens[end]
        if (
            tok == "and"
            and seen
            and end + 1 < len(tokens)
            and (tokens[end + 1] in CARDINALS or tokens[end + 1] in ORDINALS)
        ):
            end += 1
            continue
        if tok in CARDINALS:
            if seen and current % 10 != 0 and current % 100 != 0:
                break  # "three four": two numbers
            current += CARDINALS[tok]
        elif tok in ORDINALS:
            current += ORDINALS[tok]
            end += 1
            seen = True
            break
        elif tok in SCALES or tok in ORDINAL_SCALES:
            scale = SCALES.get(tok) or ORDINAL_SCALES[tok]
            if scale == 100:
                current = (current or 1) * 100
            else:
                total += (current or 1) * scale
                current = 0
            if tok in ORDINAL_SCALES:
                end += 1
                seen = True
                break
        else:
            break
        seen = True
        end += 1
    return end, (Decimal(total + current) if seen else None)

"""Numbers by value: Korean numerals and digits against English number expressions.

The ``number`` matching stage compares *values*, so ``삼 층`` transfers to "third floor",
"3rd floor" or "3 floors", ``3억 5천만`` to "350 million" or "350,000,000", ``스물다섯`` to
"twenty-five" and ``3월`` to "March". Cardinal and ordinal forms of a value are accepted alike
(Korean often uses a cardinal where English uses an ordinal: 삼 층, 3 층 = third floor).

Source side, :func:`group`: a run of adjacent number keywords (digits, numerals, native number
determiners such as 세) becomes one keyword of tag ``number`` (``2천`` is one number, not two
words), together with a directly following 월 (month), 째 / 번째 (ordinal), counter or, after a
number of 1000 or more, 년 (a year: "in 2019" carries 2019년), and a date with the 지난 or 오는
before it. :func:`korean_keys` gives what a keyword may match: ``n:<value>`` for a number,
``m:<1-12>`` for a month, ``d:<1-31>`` for a day of the month, ``min:<minutes>`` for minutes.

Output side, :mod:`ktr.english.number_expressions`: the number expressions of an English text, each a
token span with its keys.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from decimal import Decimal
from functools import lru_cache
from itertools import accumulate

from ktr.english.number_expressions import read_digits, value_key
from ktr.korean.analyzers.base import Morpheme
from ktr.korean.keywords import Keyword

SINO = {"영": 0, "공": 0, "일": 1, "이": 2, "삼": 3, "사": 4, "오": 5, "육": 6, "륙": 6, "칠": 7, "팔": 8, "구": 9}
NATIVE = {
    "하나": 1,
    "한": 1,
    "둘": 2,
    "두": 2,
    "셋": 3,
    "세": 3,
    "석": 3,
    "서": 3,
    "넷": 4,
    "네": 4,
    "넉": 4,
    "너": 4,
    "다섯": 5,
    "닷": 5,
    "여섯": 6,
    "엿": 6,
    "일곱": 7,
    "여덟": 8,
    "아홉": 9,
    "열": 10,
    "스물": 20,
    "스무": 20,
    "서른": 30,
    "마흔": 40,
    "쉰": 50,
    "예순": 60,
    "일흔": 70,
    "여든": 80,
    "아흔": 90,
    "첫": 1,
}
SMALL_UNITS = {"십": 10, "백": 100, "천": 1000}
LARGE_UNITS = {"만": 10**4, "억": 10**8, "조": 10**12}
_WORDS = {**SINO, **NATIVE}
_VOCAB = sorted([*_WORDS, *SMALL_UNITS, *LARGE_UNITS], key=len, reverse=True)
_DIGITS = re.compile(r"[0-9][0-9,]*(?:\.[0-9]+)?")

#: keyword classes a number can come from (determiners only in their native number forms)
NUMBER_CLASSES = frozenset({"numeral", "digits", "determiner"})


Part = tuple[str, Decimal]


def _tokens(text: str, allow_sino: bool) -> Iterator[tuple[int, Part | None]]:
    """The parts of a Korean number, left to right, each with where it ends in ``text``: ("num",
    value), ("small"|"large", unit); ``None`` (and nothing after it) where the text stops being a
    number. Spaces separate. What a part is depends on its own characters and the next one only."""
    i = 0
    while i < len(text):
        if text[i] == " ":
            i += 1
            continue
        m = _DIGITS.match(text, i)
        if m:
            value = read_digits(m.group())
            yield m.end(), None if value is None else ("num", value)
            if value is None:
                return
            i = m.end()
            continue
        for word in _VOCAB:
            if text.startswith(word, i):
                break
        else:
            yield i + 1, None
            return
        i += len(word)
        if word in SMALL_UNITS or word in LARGE_UNITS:
            yield i, ("small" if word in SMALL_UNITS else "large", Decimal(SMALL_UNITS.get(word) or LARGE_UNITS[word]))
        elif word in SINO and not allow_sino:
            yield i, None
            return
        else:
            yield i, ("num", Decimal(_WORDS[word]))


def _parts(text: str, allow_sino: bool) -> list[Part] | None:
    """Split a Korean number into its parts (:func:`_tokens`); ``None`` when it is not one."""
    out: list[Part] = []
    for _, part in _tokens(text, allow_sino):
        if part is None:
            return None
        out.append(part)
    return out


#: where a number's reading stands after some of its parts: the sum of its finished large
#: units, the section under way (small units), the number not yet multiplied by a unit
State = tuple[Decimal, Decimal, "Decimal | None"]
_START: State = (Decimal(0), Decimal(0), None)


def _step(state: State, part: Part) -> State | None:
    """The reading after one more part; ``None`` when the parts are not one number."""
    total, section, current = state
    kind, value = part
    if kind == "num":
        if current is None:
            current = value
        elif current < 100 and 0 < value < 10 and current % 10 == 0:  # 스물 + 다섯
            current += value
        else:
            return None  # two numbers in a row: "3 5"
    elif kind == "small":
        section += (1 if current is None else current) * value
        current = None
    else:
        if section == 0 and current is None and total == 0:
            current = Decimal(1)
        total += (section + (current or 0)) * value
        section, current = Decimal(0), None
    return total, section, current


def _value(state: State) -> Decimal:
    total, section, current = state
    return total + section + (current or 0)


@lru_cache(maxsize=65_536)
def korean_value(text: str, cls: str = "numeral") -> Decimal | None:
    """The value of a Korean number written with digits, Sino-Korean or native numerals:
    ``2천`` 2000, ``이천십구`` 2019, ``3억5천만`` 350000000, ``스물다섯`` 25, ``세`` 3.

    Sino-Korean syllables (일, 이, 삼 ...) count only for class ``numeral``: as a determiner or
    noun 이 is "this", 일 "work". ``None`` when the text is not a number.
    """
    if text.endswith("째") and len(text) > 1:
        text = text[:-1].removesuffix("번") or text  # 둘째 2, 세번째 3, 첫째 1
    if cls == "determiner" and text not in NATIVE:
        return None
    parts = _parts(text, allow_sino=cls in ("numeral", "digits"))
    if not parts:
        return None
    state = _START
    for part in parts:
        step = _step(state, part)
        if step is None:
            return None
        state = step
    return _value(state)


def korean_keys(keyword: Keyword) -> tuple[str, ...]:
    """What a keyword may match in the number stage (empty when it is not a number): ``n:`` its
    value, ``m:`` a month's number (3월), ``d:`` a day of the month (25일), which news English
    writes as its weekday ("on Friday"), ``min:`` minutes (30분), which English may say without a
    number ("half an hour"). A ``number`` unit keeps its number without the unit
    word in ``base``."""
    if keyword.cls not in NUMBER_CLASSES and keyword.tag != "number":
        return ()
    unit = keyword.tag == "number"
    text = (keyword.base or keyword.lemma) if unit else keyword.lemma
    month = unit and keyword.lemma.endswith("월")
    value = korean_value(text, "numeral" if unit else keyword.cls)
    if value is None:
        return ()
    keys: tuple[str, ...] = (value_key(value),)
    if month and 1 <= value <= 12 and value == int(value):
        keys += (f"m:{int(value)}",)
    if unit and keyword.lemma.endswith("일") and 1 <= value <= 31 and value == int(value):
        keys += (f"d:{int(value)}",)  # a day of the month: news English names its weekday
    if unit and keyword.lemma.endswith("분") and value == int(value):
        keys += (f"min:{int(value)}",)  # minutes: "half an hour" (:data:`MINUTE_PHRASES`)
    return keys


def _is_number(kw: Keyword) -> bool:
    return kw.cls in NUMBER_CLASSES and korean_value(kw.lemma, kw.cls) is not None


class _Reading:
    """:func:`korean_value` (class ``numeral``) of a text read as it grows at its end, in time
    proportional to what is added: the parts of a Korean number are read left to right, and a
    part ending at least four characters before the end (two to spare for a 째 or 번째 cut from
    the end, two for the character after it that decides where it ends) stays what it is however
    the text goes on, so it is read once, into :attr:`state`. Once such a part ends the number
    (``3 5``, a word that is not a number), no longer text is one: :attr:`dead`."""

    def __init__(self) -> None:
        self.tail = ""  # the text after the parts read for good
        self.length = 0  # of the whole text
        self.state: State = _START
        self.parts = 0
        self.dead = False

    def add(self, text: str) -> None:
        self.tail += text
        self.length += len(text)
        settled = len(self.tail) - 4  # a part ending by here stays as it is
        done = 0
        for end, part in _tokens(self.tail, True):
            if end > settled:
                break
            state = None if part is None else _step(self.state, part)
            if state is None:
                self.dead = True
                return
            self.state, self.parts, done = state, self.parts + 1, end
        self.tail = self.tail[done:]

    def value(self) -> Decimal | None:
        """The value of the text read so far, as :func:`korean_value` gives it."""
        if self.dead:
            return None
        tail = self.tail
        if self.length > 1 and tail.endswith("째"):  # the last four characters are always in the tail
            cut = tail[:-1].removesuffix("번")
            if cut or self.length > len(tail):  # korean_value keeps 번째 as it is when nothing precedes it
                tail = cut
        state, parts = self.state, self.parts
        for _, part in _tokens(tail, True):
            step = None if part is None else _step(state, part)
            if step is None:
                return None
            state, parts = step, parts + 1
        return _value(state) if parts else None


def _longest(keywords: Sequence[Keyword], numeric: Sequence[bool], i: int) -> int:
    """Where the longest run of adjacent number keywords from ``i`` that reads as one number ends
    (``i + 1`` when none longer does): "3, 4" or "세 넷" are not one number. Each keyword of the
    run is read once (:class:`_Reading`), and the reading stops where no longer run can be a
    number, so a line's numbers are grouped in time linear in them."""
    reading, best, j = _Reading(), i + 1, i
    while True:
        gap = " " if j > i and keywords[j].start > keywords[j - 1].end else ""
        reading.add(gap + keywords[j].lemma)
        if reading.value() is not None:
            best = j + 1
        j += 1
        if reading.dead or j >= len(keywords) or not numeric[j] or keywords[j].start - keywords[j - 1].end > 1:
            return best


class _Places:
    """Where to find a morpheme of a line by its offset, and how many keywords from one on start
    before an offset, each in logarithmic time (a line's morphemes and keywords come in source
    order; whatever their order, the answers are those of a scan from the start)."""

    def __init__(self, morphemes: Sequence[Morpheme], keywords: Sequence[Keyword]) -> None:
        self.highest = list(accumulate((m.start for m in morphemes), max))  # the first start >= x: here too
        self.first: dict[int, int] = {}
        for x, m in enumerate(morphemes):
            self.first.setdefault(m.start, x)
        self.starts = [k.start for k in keywords]
        self.ordered = all(a <= b for a, b in zip(self.starts, self.starts[1:]))

    def after(self, end: int) -> int:
        """The index of the first morpheme that starts at or after ``end`` (their number if none)."""
        return bisect_left(self.highest, end)

    def starting_before(self, j: int, end: int) -> int:
        """How many keywords from the ``j``-th on start before ``end``."""
        if self.ordered:
            return bisect_left(self.starts, end, j) - j
        return sum(1 for start in self.starts[j:] if start < end)


def group(morphemes: Sequence[Morpheme], keywords: list[Keyword]) -> list[Keyword]:
    """Keywords with each written number collapsed into one ``number`` keyword (see module doc),
    in time linear in a line's keywords and morphemes (with a logarithmic factor)."""
    numeric = [k.cls in NUMBER_CLASSES and _is_number(k) for k in keywords]
    if not any(numeric):
        return keywords  # most sentences: no number to group
    places = _Places(morphemes, keywords)
    out: list[Keyword] = []
    i = 0
    while i < len(keywords):
        if not numeric[i]:
            out.append(keywords[i])
            i += 1
            continue
        j = _longest(keywords, numeric, i)
        run = keywords[i:j]
        lemma = _surface(run)
        value = korean_value(lemma, "numeral")
        end, extra = _suffix(morphemes, places.after(run[-1].end), run[-1].end, value)
        if len(run) == 1 and not extra:
            out.append(run[0])
        else:
            cls = "digits" if any(k.cls == "digits" for k in run) else "numeral"
            start, written = run[0].start, lemma + extra
            if extra in DATE_UNITS and out and (before := _relative(morphemes, places.first, out[-1], start)):
                written, start = f"{before} {written}", out.pop().start  # 지난 25일: a date, as English says it
            out.append(Keyword(written, "number", cls, start, end, base=lemma))
        i = j + places.starting_before(j, end)
    return out


#: the units of a date, and the words before one that place it relative to the day of writing:
#: 지난 25일 is the 25th just past ("on Friday", "on June 25": English says it with the date and
#: its tense), 오는 3월 the March to come
DATE_UNITS = frozenset({"일", "월", "년"})
_RELATIVE = {"지나다": "지난", "오다": "오는"}


def _relative(morphemes: Sequence[Morpheme], first: dict[int, int], keyword: Keyword, start: int) -> str:
    """지난 or 오는 when ``keyword`` is that word (a verb with its adnominal ending) right before the
    date at ``start``, else "" (``first``: the index of the first morpheme at each offset)."""
    if keyword.lemma not in _RELATIVE:
        return ""
    stem = first.get(keyword.start)
    if stem is None or stem + 1 >= len(morphemes):
        return ""
    ending = morphemes[stem + 1]
    return _RELATIVE[keyword.lemma] if ending.tag.upper().startswith("ET") and start - ending.end <= 1 else ""


def _surface(run: Sequence[Keyword]) -> str:
    """The lemmas of a run, with a space where the source had a gap: ``3억 5천만``."""
    return "".join((" " if i and k.start > run[i - 1].end else "") + k.lemma for i, k in enumerate(run))


#: counters (classifiers) and date/time units that English expresses by the number alone
#: ("30 students" for 학생 30명, "September 11" for 9월 11일, "7:30" for 7시 30분): part of the
#: number's keyword
COUNTERS = frozenset("명 개 마리 대 권 장 채 척 벌 켤레 그루 송이 살 세 번 회 차 위 호 일 시 분".split())
#: the English nouns a counter stands for when a translation writes one after the number ("2명" →
#: "two people", "30분" → "30 minutes", "3시" → "three o'clock"; 분 also counts persons, politely): such a noun is no word
#: the translation adds (:mod:`ktr.matching.tracing`)
COUNTED = {
    "명": ("people", "persons", "individuals"),
    "분": ("minute", "minutes", "people", "persons"),
    "시": ("o'clock", "o’clock"),  # 3시 "three o'clock"
}


def _suffix(morphemes: Sequence[Morpheme], k: int, end: int, value: Decimal | None) -> tuple[int, str]:
    """A unit word that belongs to the number just before ``end``: 월, 째/번째, a counter, or
    년 of a year (``k``: the first morpheme at or after ``end``)."""
    after = morphemes[k : k + 2]
    if not after or after[0].start - end > 1 or value is None:
        return end, ""
    first = after[0]
    if first.form == "째":
        return first.end, "째"
    if first.form == "번" and len(after) > 1 and after[1].form == "째" and after[1].start == first.end:
        return after[1].end, "번째"
    if not first.tag.startswith("N"):
        return end, ""
    if first.form == "월" or first.form in COUNTERS:
        return first.end, first.form
    if first.form == "년" and value >= 1000 and first.start == end:
        return first.end, "년"
    return end, ""

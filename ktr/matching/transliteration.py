"""Transliteration: names and loanwords compared by sound (the ``transliteration`` stage).

Proper nouns and loanwords are mostly written in Hangul by sound (클린턴 Clinton, 컴퓨터
computer, 부산 Busan/Pusan), so a lexicon can never list them all. This stage reduces both sides
to a coarse *sound key* and compares the keys:

- the key is the sequence of consonant classes (k/g/c/q → K, t/d → T, p/b/f/v → P, s/sh → S,
  j → J, l/r → L, m → M, n/ng → N, h → H), with a leading ``V`` when the word starts with a
  vowel (or w); repeated classes collapse (클린턴: K L N T N = clinton);
- Hangul: the initial consonant of each syllable (ㅇ silent) and the final as pronounced (ㅇ is
  N; ㅅ, ㅈ, ㅊ, ㅌ, ㅎ are T: 인터넷 = internet);
- English: letters by the rules above, plus the sound changes Korean spelling follows — an r not
  followed by a vowel is silent (computer = 컴퓨터, Carter = 카터), but at the end of a name from
  another language Hangul writes it 르 (Omar = 오마르), so a final r (or re: sphere = 스피어) is an
  *optional* L, and so is any r before a consonant in a word that ends in a, i, o, u or y, as
  Spanish, Italian and Japanese names do (Garcia = 가르시아, Fernando = 페르난도), and so is an l
  before a consonant in such a word, which Portuguese says u (Ronaldo = 호나우두, and 호날두); an h after the first
  letter is an optional H (silent in Sarah, 하 in Nahariya = 나하리야); a final s after another
  letter is an optional S (a plural, or silent: Paris = 파리); gh is silent, but a final gh, as in
  Arabic names, is an optional K (Dabbagh = 다바그); on the Hangul side 츠 is T S (Jets = 제츠); c
  before e/i/y is S, x is K S, vowels and y are no consonant; th, soft g, z and ch are sounds
  Hangul spells two ways and equal either class (th: T or S, 스미스 Smith, 토머스 Thomas; soft g: K or
  J; z: S or J; ch: J or K).

Optional symbols (written in lower case) cost nothing to leave out and match their class when
present. Two keys match when their similarity ``1 - edit distance / longer length`` reaches the
configured threshold (default 0.8; lengths count the symbols that are not optional; keys with
fewer than 3 such symbols must match exactly). The matching
stage compares every output word that is not a function word, and every pair of adjacent ones
("las vegas").
:func:`romanize` gives the Revised Romanization (without sound-change rules) for explanations.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

_BASE, _LAST = 0xAC00, 0xD7A3
_INITIALS = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"
_FINALS = (
    "",
    "ㄱ",
    "ㄲ",
    "ㄳ",
    "ㄴ",
    "ㄵ",
    "ㄶ",
    "ㄷ",
    "ㄹ",
    "ㄺ",
    "ㄻ",
    "ㄼ",
    "ㄽ",
    "ㄾ",
    "ㄿ",
    "ㅀ",
    "ㅁ",
    "ㅂ",
    "ㅄ",
    "ㅅ",
    "ㅆ",
    "ㅇ",
    "ㅈ",
    "ㅊ",
    "ㅋ",
    "ㅌ",
    "ㅍ",
    "ㅎ",
)
_VOWELS_RR = (
    "a",
    "ae",
    "ya",
    "yae",
    "eo",
    "e",
    "yeo",
    "ye",
    "o",
    "wa",
    "wae",
    "oe",
    "yo",
    "u",
    "wo",
    "we",
    "wi",
    "yu",
    "eu",
    "ui",
    "i",
)
_INITIAL_RR = ("g", "kk", "n", "d", "tt", "r", "m", "b", "pp", "s", "ss", "", "j", "jj", "ch", "k", "t", "p", "h")
_FINAL_RR = {
    "": "",
    "ㄱ": "k",
    "ㄲ": "k",
    "ㄳ": "k",
    "ㄴ": "n",
    "ㄵ": "n",
    "ㄶ": "n",
    "ㄷ": "t",
    "ㄹ": "l",
    "ㄺ": "k",
    "ㄻ": "m",
    "ㄼ": "l",
    "ㄽ": "l",
    "ㄾ": "l",
    "ㄿ": "p",
    "ㅀ": "l",
    "ㅁ": "m",
    "ㅂ": "p",
    "ㅄ": "p",
    "ㅅ": "t",
    "ㅆ": "t",
    "ㅇ": "ng",
    "ㅈ": "t",
    "ㅊ": "t",
    "ㅋ": "k",
    "ㅌ": "t",
    "ㅍ": "p",
    "ㅎ": "t",
}

# sound classes of Hangul consonants (initial position; ㅇ is silent there)
_INITIAL_CLASS = dict(zip(_INITIALS, "KKNTTLMPPSS JJJKTPH"))
_FINAL_CLASS = {
    "": "",
    "ㄱ": "K",
    "ㄲ": "K",
    "ㄳ": "K",
    "ㄴ": "N",
    "ㄵ": "N",
    "ㄶ": "N",
    "ㄷ": "T",
    "ㄹ": "L",
    "ㄺ": "K",
    "ㄻ": "M",
    "ㄼ": "L",
    "ㄽ": "L",
    "ㄾ": "L",
    "ㄿ": "P",
    "ㅀ": "L",
    "ㅁ": "M",
    "ㅂ": "P",
    "ㅄ": "P",
    "ㅅ": "T",
    "ㅆ": "T",
    "ㅇ": "N",
    "ㅈ": "T",
    "ㅊ": "T",
    "ㅋ": "K",
    "ㅌ": "T",
    "ㅍ": "P",
    "ㅎ": "T",
}  # finals as pronounced: 인터넷 internet

_ENGLISH_DIGRAPHS = (
    ("sch", "S"),
    ("dz", "J"),
    ("tch", "J"),
    ("ch", "C"),
    ("sh", "S"),
    ("th", "D"),
    ("ph", "P"),
    ("ck", "K"),
    ("gh", ""),
    ("ng", "N"),
    ("qu", "K"),
    ("wh", ""),
)
_ENGLISH_LETTERS = {
    "b": "P",
    "c": "K",
    "d": "T",
    "f": "P",
    "g": "K",
    "h": "H",
    "j": "J",
    "k": "K",
    "l": "L",
    "m": "M",
    "n": "N",
    "p": "P",
    "q": "K",
    "r": "L",
    "s": "S",
    "t": "T",
    "v": "P",
    "x": "KS",
    "z": "Z",
}
# English sounds Hangul spells two ways: th (스미스 Smith, 토머스 Thomas), soft g (조지 George),
# z (지퍼 zipper, 재즈 jazz), ch (찰스 Charles, 크리스 Chris), an r starting a word (리처드 Richard,
# and 호 in Portuguese and Brazilian names, whose initial r is said h: 호날두 Ronaldo, 호마리우 Romario)
_EITHER = {"D": "TS", "G": "KJ", "Z": "SJ", "C": "JK", "R": "LH"}
_VOWEL_LETTERS = frozenset("aeiouy")
_DIGRAPH_CLASS = dict(_ENGLISH_DIGRAPHS)
#: the units an English word is read in: the first digraph that starts at a position, in the
#: order listed, else the letter there
_ENGLISH_UNITS = re.compile("|".join(graph for graph, _ in _ENGLISH_DIGRAPHS) + "|[a-z]")
_NOT_LETTERS = re.compile("[^a-z]+")

DEFAULT_THRESHOLD = 0.8

#: the version of the sound keys and the spellings they allow, in the signature (``tl:0.8/k3``):
#: raised by a change that lets a name match where it did not (2: an initial r as L or H, 르
#: before a consonant as an optional l, short names by how they are spoken; 3: a name in three
#: words written capitalized, Jeon Young-soo, a common noun of four letters or more as a name
#: spelled letter for letter, Typhoon Nari for 나리, an l before a consonant optional in a word
#: ending in a vowel, 호나우두 Ronaldo)
KEYS = 3
_EU = _VOWELS_RR.index("eu")


def _syllables(word: str) -> Iterator[tuple[int, int, int]]:
    for ch in word:
        code = ord(ch)
        if not _BASE <= code <= _LAST:
            raise ValueError(f"not a Hangul syllable: {ch!r}")
        code -= _BASE
        yield code // 588, (code % 588) // 28, code % 28


def is_hangul(word: str) -> bool:
    return bool(word) and all(_BASE <= ord(ch) <= _LAST for ch in word)


def romanize(word: str) -> str:
    """Revised Romanization, syllable by syllable (no assimilation): 클린턴 → keullinteon."""
    return "".join(_INITIAL_RR[i] + _VOWELS_RR[v] + _FINAL_RR[_FINALS[f]] for i, v, f in _syllables(word))


def _collapse(symbols: list[str]) -> str:
    out: list[str] = []
    for s in symbols:
        if s and (not out or out[-1] != s):
            out.append(s)
    return "".join(out)


@lru_cache(maxsize=65_536)
def korean_key(word: str) -> str:
    """Sound key of a Hangul word (see the module doc): 클린턴 → KLNTN, 오바마 → VPM."""
    symbols: list[str] = []
    for n, (i, v, f) in enumerate(_syllables(word)):
        initial = _INITIAL_CLASS[_INITIALS[i]]
        if n == 0 and initial == " ":
            symbols.append("V")
        if _INITIALS[i] == "ㅊ" and v == _EU:
            symbols += ["T", "S"]  # 츠 spells ts/tz: 제츠 Jets, 헤르츠 Hertz
        elif _INITIALS[i] == "ㄹ" and v == _EU and not f and n + 1 < len(word) and _starts_consonant(word[n + 1]):
            symbols.append("l")  # 르 before a consonant: an r English may not say (메르켈 Merkel, 마르크스 Marx)
        else:
            symbols.append(initial.strip())
        symbols.append(_FINAL_CLASS[_FINALS[f]])
    return _collapse(symbols)


def _starts_consonant(syllable: str) -> bool:
    return _INITIALS[(ord(syllable) - _BASE) // 588] != "ㅇ"


def sound_key(word: str) -> str:
    """The key a Hangul keyword is matched by, or ``""`` when it has fewer than two consonant
    sounds: one sound (유엔 VN, 더 T) would match too many English words."""
    key = korean_key(word)
    return key if len(key.removeprefix("V")) >= 2 else ""


@lru_cache(maxsize=262_144)
def english_key(word: str) -> str:
    """Sound key of an English word (see the module doc): clinton → KLNTN, obama → VPM."""
    w = _NOT_LETTERS.sub("", word.lower())
    if not w:
        return ""
    symbols: list[str] = ["V"] if w[0] in _VOWEL_LETTERS or w[0] == "w" else []
    vowel_end = w[-1] in "aiouy"  # Garcia, Fernando: an r before a consonant is sounded
    for unit in _ENGLISH_UNITS.finditer(w):  # a digraph where one starts, else a letter
        c = unit.group()
        if len(c) > 1:
            symbols.append("k" if c == "gh" and unit.end() == len(w) else _DIGRAPH_CLASS[c])
            continue
        i = unit.start()
        nxt = w[i + 1 : i + 2]
        final = not nxt or (nxt == "e" and i + 2 == len(w))  # r or re ending the word
        if c == "r" and i == 0 and nxt in _VOWEL_LETTERS:
            symbols.append("R")  # L, or H as Portuguese says it: 호날두 Ronaldo
        elif c == "r" and (final or nxt not in _VOWEL_LETTERS):
            symbols.append("l" if final or vowel_end else "")  # silent, or optional: 컴퓨터, 오마르 Omar, 가르시아
        elif c == "l" and vowel_end and nxt and nxt not in _VOWEL_LETTERS and nxt != "l":
            symbols.append("l")  # optional: Portuguese says it u (호나우두 Ronaldo)
        elif c == "c" and nxt in ("e", "i", "y"):
            symbols.append("S")
        elif c == "c" and not nxt and w[i - 2 : i] in ("zi", "ji"):
            continue  # -dzic, -jic: the Slavic ć, which Hangul spells 치 after 지 (카라지치 Karadzic)
        elif c == "g" and nxt in ("e", "i", "y"):
            symbols.append("G")
        elif c == "s" and i == len(w) - 1 and i >= 3 and w[i - 1] != "s":
            symbols.append("s")  # optional: a plural (Dakotas 다코타) or silent (Paris 파리)
        elif c == "h" and i > 0:
            symbols.append("h")  # optional: silent (Sarah) or 하 (Nahariya 나하리야)
        else:
            symbols.append(_ENGLISH_LETTERS.get(c, ""))
    return _collapse(symbols)


def required_length(key: str) -> int:
    """Symbols of a key that are not optional (optional ones are lower case)."""
    return sum(1 for s in key if not s.islower())


def _same(a: str, b: str) -> bool:
    a, b = a.upper(), b.upper()
    return a == b or b in _EITHER.get(a, "") or a in _EITHER.get(b, "")


def _cost(symbol: str) -> int:
    """What leaving a symbol out costs: nothing for an optional one."""
    return 0 if symbol.islower() else 1


#: what replacing one symbol by another costs (0: :func:`_same`, else 1), per pair asked
_REPLACE: dict[tuple[str, str], int] = {}


def _distance(a: str, b: str, stop: int | None = None) -> int:
    """The edit distance of two keys (leaving out an optional symbol costs nothing); with ``stop``,
    a value above ``stop`` as soon as every alignment costs more (a row's least cost never falls)."""
    costs_b = [_cost(cb) for cb in b]
    prev = [0]
    for cost in costs_b:
        prev.append(prev[-1] + cost)
    replace = _REPLACE
    for ca in a:
        cost_a = _cost(ca)
        left = prev[0] + cost_a
        cur = [left]
        for j, cb in enumerate(b):
            swap = replace.get((ca, cb))
            if swap is None:
                swap = replace[ca, cb] = 0 if _same(ca, cb) else 1
            left = min(prev[j + 1] + cost_a, left + costs_b[j], prev[j] + swap)
            cur.append(left)
        prev = cur
        if stop is not None and min(prev) > stop:
            return min(prev)
    return prev[-1]


@lru_cache(maxsize=262_144)
def similarity(a: str, b: str) -> float:
    """1 - edit distance / longer length, counting only symbols that are not optional; keys
    with fewer than 3 such symbols must match exactly."""
    return _similarity(a, b)


@lru_cache(maxsize=262_144)
def similarity_reaching(a: str, b: str, threshold: float) -> float:
    """:func:`similarity` of two keys where it reaches ``threshold``, else 0.0 (or, for a threshold
    of 0 or less, the similarity itself): the edit distance is left as soon as it cannot end
    close enough."""
    return _similarity(a, b, threshold) if threshold > 0.0 else similarity(a, b)


def _similarity(a: str, b: str, threshold: float | None = None) -> float:
    """:func:`similarity`; with a ``threshold`` above 0, 0.0 wherever it is below it."""
    la, lb = required_length(a), required_length(b)
    if not la or not lb:
        return 0.0
    stop = None if threshold is None else _largest_distance(la, lb, threshold)
    if stop is not None and stop < 0:
        return 0.0
    distance = _distance(a, b, stop)
    if stop is not None and distance > stop:
        return 0.0
    if min(la, lb) < 3:
        return 1.0 if distance == 0 else 0.0
    return max(0.0, 1.0 - distance / max(la, lb))


def _largest_distance(la: int, lb: int, threshold: float) -> int:
    """The largest edit distance of two keys of ``la`` and ``lb`` required symbols whose
    similarity still reaches ``threshold`` (above 0); -1 where none does."""
    if min(la, lb) < 3:  # must match exactly
        return 0 if threshold <= 1.0 else -1
    longer, stop = max(la, lb), -1
    while stop < longer and 1.0 - (stop + 1) / longer >= threshold:
        stop += 1
    return stop


# -- short names, said with their vowels -----------------------------------------------------
# A name with one consonant sound has no sound key (one sound would match too many words); it is
# compared said with its vowels instead, both sides reduced to the same rough spelling: 야후 and
# Yahoo are both "yahu", 조지 and George "joj", 루이 and Louis "lui" (a final s may be silent).

_SPOKEN_INITIAL = dict(
    zip(_INITIALS, ["k", "k", "n", "t", "t", "l", "m", "p", "p", "s", "s", "", "j", "j", "j", "k", "t", "p", "h"])
)
_SPOKEN_VOWEL = (
    "a", "e", "ya", "ye", "o", "e", "yo", "ye", "o", "wa", "we", "we", "yo", "u", "wo", "we", "wi", "yu", "", "ui", "i",
)  # fmt: skip
_SPOKEN_FINAL = {"ㄱ": "k", "ㄴ": "n", "ㄹ": "l", "ㅁ": "m", "ㅂ": "p", "ㅇ": "n", "ㅅ": "t"}
#: English spellings of the sounds the rough spelling writes, the longest first
_SPOKEN_ENGLISH = (
    ("oo", "u"), ("ou", "u"), ("ew", "u"), ("ee", "i"), ("ea", "i"), ("ai", "e"), ("ay", "e"), ("ei", "e"),
    ("oa", "o"), ("au", "o"), ("aw", "o"), ("ph", "p"), ("sh", "s"), ("ch", "j"), ("ck", "k"), ("qu", "k"),
    ("x", "ks"), ("b", "p"), ("d", "t"), ("f", "p"), ("v", "p"), ("z", "j"), ("q", "k"), ("r", "l"),
)  # fmt: skip
_SPOKEN_UNITS = re.compile("|".join(graph for graph, _ in _SPOKEN_ENGLISH if len(graph) > 1) + "|[a-z]")


@lru_cache(maxsize=65_536)
def spoken_korean(word: str) -> str:
    """A Hangul word's rough spelling with its vowels (야후 → yahu, 조지 → joj, 루이 → lui): a final
    이 after ㅈ or ㅊ, as Hangul writes a final j sound (조지 George, 브리지 bridge), is not said."""
    parts = [
        _SPOKEN_INITIAL[_INITIALS[i]] + _SPOKEN_VOWEL[v] + _SPOKEN_FINAL.get(_FINALS[f], "")
        for i, v, f in _syllables(word)
    ]
    spoken = "".join(parts)
    if spoken.endswith("ji") and len(spoken) > 2:
        spoken = spoken[:-1]
    return _deduplicated(spoken)


@lru_cache(maxsize=262_144)
def spoken_english(word: str) -> str:
    """An English word's rough spelling, as :func:`spoken_korean` writes a Hangul one: the vowel
    digraphs said as one vowel (Yahoo → yahu, Louis → luis), a soft c or g (s, j), an r before a
    consonant or at the end silent, a final e and an e that only softens a g silent (George →
    joj), an h not before a vowel silent, doubled consonants once."""
    w = _NOT_LETTERS.sub("", word.lower())
    out: list[str] = []
    for unit in _SPOKEN_UNITS.finditer(w):
        c, i = unit.group(), unit.start()
        nxt = w[unit.end() : unit.end() + 1]
        if c == "c":
            out.append("s" if nxt in ("e", "i", "y") else "k")
        elif c == "g":
            out.append("j" if nxt in ("e", "i", "y") else "k")
        elif c == "r" and (not nxt or nxt not in _VOWEL_LETTERS):
            continue
        elif c == "e" and (not nxt and i > 1 or nxt in _VOWEL_LETTERS and w[i - 1 : i] in ("g", "c")):
            continue  # silent: at the end, or only softening a g or c (George, ocean)
        elif c == "h" and (not nxt or nxt not in _VOWEL_LETTERS) and i > 0:
            continue
        elif c == "y" and i > 0:
            out.append("i")
        else:
            out.append(dict(_SPOKEN_ENGLISH).get(c, c))
    return _deduplicated("".join(out))


def _deduplicated(text: str) -> str:
    """Letters doubled in a row written once (ll → l)."""
    return "".join(c for n, c in enumerate(text) if not n or c != text[n - 1])

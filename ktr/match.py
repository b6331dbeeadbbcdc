"""Matching keywords against an English output.

Matching stages propose *candidates*: (keyword, equivalent, token span, how). Then one
assignment picks which candidates count, under the rule that an output token credits at most
one keyword, maximising the number of transferred keywords. The stages:

- ``exact``: a lexicon equivalent as written (after tokenization and case folding);
- ``inflection``: an equivalent inflected (waiting → wait, went → go, rooms → room);
- ``synonym``: a WordNet synonym of an equivalent, either way (:mod:`ktr.lexicon.expand`);
- ``idiom``: an English phrase of an idiom unit, either way (:mod:`ktr.lexicon.idioms`);
- ``number``: a number by value (:func:`number_stage`);
- ``transliteration``: a name or loanword by sound (:func:`transliteration_stage`).

Ties between assignments of the same size are broken by preference, keyword by keyword in
source order: an earlier stage beats a later one, then an equivalent listed earlier in the
lexicon, then the leftmost position in the output. The assignment is exact for each group of
keywords that compete for tokens when the group has at most ``EXACT_LIMIT`` keywords; larger
groups (rare: many repeats of the same word) are matched greedily in preference order followed
by augmenting paths, which is still optimal when the competing equivalents are single words.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from itertools import compress, repeat
from operator import attrgetter
from typing import NamedTuple, Sequence

from . import numbers, transliterate
from .english import FUNCTION_WORDS, phrase

#: output tokens never compared by sound: function words and the pieces of contractions
_NOT_NAMES = FUNCTION_WORDS | {"s", "t", "d", "ll", "m", "re", "ve"}

EXACT_LIMIT = 12


class Candidate(NamedTuple):
    keyword: int            # index of the keyword in the sentence
    equivalent: str         # the lexicon equivalent that matched
    start: int              # token span [start, end) in the output
    end: int
    how: str                # stage name
    rank: tuple[int, int, int]  # (stage order, equivalent order, start): lower is preferred


@dataclass(frozen=True, slots=True)
class Targets:
    """What a keyword may match: its lexicon equivalents and their WordNet synonyms, the
    English of an idiom unit, its value as a number, the sound key of a name or loanword."""

    equivalents: tuple[str, ...] = ()
    synonyms: tuple[str, ...] = ()
    idioms: tuple[str, ...] = ()   # English phrases of an idiom unit
    numbers: tuple[str, ...] = ()  # number keys (:func:`ktr.numbers.korean_keys`)
    sound: str = ""                # sound key (:func:`ktr.transliterate.korean_key`)
    name: bool = False             # a proper noun: matches only words written capitalized
    # Derived once, when the source is prepared, so matching never tokenizes a phrase: the
    # phrases of each kind by their first word, and the first words of all of them (a sentence
    # holding none of these, as written or as a base word, matches no phrase).
    by_first: Index = field(init=False, repr=False, compare=False)
    synonyms_by_first: Index = field(init=False, repr=False, compare=False)
    idioms_by_first: Index = field(init=False, repr=False, compare=False)
    firsts: frozenset[str] = field(init=False, repr=False, compare=False)
    #: first words of the equivalents, synonyms and idiom phrases, each on its own
    own_firsts: tuple[frozenset[str], frozenset[str], frozenset[str]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        indexes = [_by_first(self.equivalents), _by_first(self.synonyms), _by_first(self.idioms)]
        for name, index in zip(("by_first", "synonyms_by_first", "idioms_by_first"), indexes):
            object.__setattr__(self, name, index)
        object.__setattr__(self, "own_firsts", tuple(frozenset(index) for index in indexes))
        object.__setattr__(self, "firsts", frozenset().union(*self.own_firsts))


#: first word -> (rank in the list, phrase, its words) of the phrases starting with it
Index = dict[str, list[tuple[int, str, tuple[str, ...]]]]


def _by_first(phrases: Sequence[str]) -> Index:
    index: Index = {}
    for rank, text in enumerate(phrases):
        words = phrase(text)
        if words:
            index.setdefault(words[0], []).append((rank, text, words))
    return index


#: sound keys by length: the different keys of that length, and where each occurs (its position
#: in the list of sounds, its token span)
SoundGroups = dict[int, tuple[list[str], dict[str, list[tuple[int, int, int]]]]]


class SentenceView:
    """An output sentence as the stages see it: its tokens, where each word occurs as written or
    as the base word of an inflected token, and (when a stage first asks) its numbers and sounds."""

    def __init__(self, tokens: Sequence[str], inflections: dict[str, tuple[str, ...]] | None = None,
                 threshold: float = transliterate.DEFAULT_THRESHOLD, names: frozenset[str] | None = None):
        self.tokens = tokens
        self.threshold = threshold      # of the transliteration stage
        self.names = names      # words written capitalized; None: the output has no case
        self.inflections = inflections or {}
        positions: dict[str, list[int]] = {}   # word -> where it occurs as written
        for i, token in enumerate(tokens):
            if token in positions:
                positions[token].append(i)
            else:
                positions[token] = [i]
        self.positions = positions
        self.words = words = frozenset(positions)
        based: dict[str, list[str]] = {}     # base word -> the tokens that inflect it
        if inflections:
            get = inflections.get
            for word in positions:
                for base in get(word, ()):
                    based.setdefault(base, []).append(word)
        self.inflected_forms = based
        #: every token and every base word of a token: where a phrase can start
        self.present = words.union(based) if based else words

    def base_positions(self, word: str) -> list[int]:
        """Where a token that inflects ``word`` occurs."""
        forms = self.inflected_forms.get(word)
        if not forms:
            return []
        if len(forms) == 1:
            return self.positions[forms[0]]
        return sorted(i for form in forms for i in self.positions[form])

    def bases(self, i: int) -> tuple[str, ...]:
        """The base words token ``i`` inflects (may be none)."""
        return self.inflections.get(self.tokens[i], ())

    @cached_property
    def number_spans(self) -> list[numbers.Span]:
        """Number expressions of the output (computed when the number stage first asks)."""
        return numbers.english_spans(self.tokens) if numbers.may_hold_numbers(self.words) else []

    def _sounds(self, names: frozenset[str] | None) -> list[tuple[int, int, str]]:
        """Sound keys of alphabetic tokens other than function words (only those in ``names``
        unless it is None), and of adjacent pairs of them (뉴욕 = "new york")."""
        key, tokens = transliterate.english_key, self.tokens
        ok = [t.isalpha() and t not in _NOT_NAMES and (names is None or t in names) for t in tokens]
        out = [(i, i + 1, key(t)) for i, t in enumerate(tokens) if ok[i]]
        out += [(i, i + 2, key(tokens[i] + tokens[i + 1])) for i in range(len(tokens) - 1) if ok[i] and ok[i + 1]]
        return out

    @staticmethod
    def _by_length(sounds: list[tuple[int, int, str]]) -> SoundGroups:
        out: SoundGroups = {}
        for i, (start, end, key) in enumerate(sounds):
            keys, where = out.setdefault(len(key), ([], {}))
            if key not in where:
                keys.append(key)
                where[key] = []
            where[key].append((i, start, end))
        return out

    @cached_property
    def sounds_by_length(self) -> SoundGroups:
        """The sound keys of the output's words and pairs of words, by length (:data:`SoundGroups`)."""
        return self._by_length(self._sounds(None))

    @cached_property
    def name_sounds_by_length(self) -> SoundGroups:
        """The same of the words written capitalized only: all a proper noun may match (and all
        words when the output has no case)."""
        return self._by_length(self._sounds(self.names)) if self.names is not None else self.sounds_by_length


def _phrases(k: int, index: Index, hits: frozenset[str], v: SentenceView, out: list[Candidate],
             exact: tuple[int, str] | None, inflected: tuple[int, str] | None) -> None:
    """Append to ``out`` where the phrases of ``index`` starting with a word of ``hits`` occur:
    as written, credited to stage ``exact`` (its order and name; None: not wanted), and inflected
    (at least one token an inflected form of its word: ``rooms`` for ``room``, ``went`` for
    ``go``), credited to stage ``inflected``. One pass serves the exact and inflection stages
    together, and the synonym or the idiom stage (both ways credited to it)."""
    tokens, n, positions, forms = v.tokens, len(v.tokens), v.positions, v.inflected_forms
    for first in hits:
        here = positions.get(first, ())
        based = v.base_positions(first) if inflected and first in forms else ()
        for e_rank, equivalent, size_words in index[first]:
            size = len(size_words)
            if size == 1:       # most phrases: a token is the word itself or one of its forms
                if exact and here:
                    order, how = exact
                    out += [Candidate(k, equivalent, s, s + 1, how, (order, e_rank, s)) for s in here]
                if based:
                    order, how = inflected
                    out += [Candidate(k, equivalent, s, s + 1, how, (order, e_rank, s))
                            for s in based if tokens[s] != first]
                continue
            for start in (here if not based else set(here).union(based)):
                end = start + size
                if end > n:
                    continue
                if tokens[start] == first and tuple(tokens[start:end]) == size_words:
                    if exact:
                        order, how = exact
                        out.append(Candidate(k, equivalent, start, end, how, (order, e_rank, start)))
                elif inflected and all(tokens[start + j] == w or w in v.bases(start + j)
                                       for j, w in enumerate(size_words)):
                    order, how = inflected
                    out.append(Candidate(k, equivalent, start, end, how, (order, e_rank, start)))


def number_stage(k: int, targets: Targets, v: SentenceView, order: int) -> list[Candidate]:
    """Numbers by value: 삼 ↔ three / third / 3rd / 3, 3억 5천만 ↔ 350 million (:mod:`ktr.numbers`)."""
    if not targets.numbers:
        return []
    wanted = set(targets.numbers)
    return [Candidate(k, " ".join(v.tokens[s.start:s.end]), s.start, s.end, "number", (order, 0, s.start))
            for s in v.number_spans if not wanted.isdisjoint(s.keys)]


def transliteration_stage(k: int, targets: Targets, v: SentenceView, order: int) -> list[Candidate]:
    """Names and loanwords by sound: 클린턴 ↔ Clinton (:mod:`ktr.transliterate`); closer first.
    A proper noun matches only words the output writes capitalized (unless it has no capitals)."""
    if not targets.sound:
        return []
    found = []
    groups = v.name_sounds_by_length if targets.name else v.sounds_by_length
    sound, threshold, similarity = targets.sound, v.threshold, transliterate.similarity
    length, slack, reaches = len(sound), 1 - threshold, threshold.__le__
    for size, (keys, where) in groups.items():
        if abs(size - length) > slack * max(size, length) + 1e-9:
            continue                      # too different in length to reach the threshold
        for key in compress(keys, map(reaches, map(similarity, repeat(sound), keys))):
            rank = round((1 - similarity(sound, key)) * 1000)
            found += [(i, Candidate(k, " ".join(v.tokens[start:end]), start, end, "transliteration", (order, rank, start)))
                      for i, start, end in where[key]]
    return [c for _, c in sorted(found, key=lambda f: f[0])]   # in the order of the sounds


def _components(cands: dict[int, list[Candidate]]) -> list[list[int]]:
    """Groups of keywords that compete for at least one output token, each in keyword order."""
    parent = {k: k for k in cands}

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    owner: dict[int, int] = {}
    for k, lst in cands.items():
        for c in lst:
            for t in range(c.start, c.end):
                if t in owner:
                    parent[find(k)] = find(owner[t])
                else:
                    owner[t] = k
    groups: dict[int, list[int]] = {}
    for k in cands:
        groups.setdefault(find(k), []).append(k)
    return list(groups.values())


def _exact_assign(group: list[int], cands: dict[int, list[Candidate]]) -> dict[int, Candidate]:
    best: dict[int, Candidate] = {}
    best_size = -1
    chosen: dict[int, Candidate] = {}
    used: set[int] = set()

    def search(i: int) -> None:
        nonlocal best, best_size
        if len(chosen) + (len(group) - i) <= best_size:
            return
        if i == len(group):
            best, best_size = dict(chosen), len(chosen)
            return
        k = group[i]
        for c in cands[k]:
            span = range(c.start, c.end)
            if used.isdisjoint(span):
                chosen[k] = c
                used.update(span)
                search(i + 1)
                used.difference_update(span)
                del chosen[k]
        search(i + 1)

    search(0)
    return best


def _greedy_assign(group: list[int], cands: dict[int, list[Candidate]]) -> dict[int, Candidate]:
    owner: dict[int, int] = {}          # token -> keyword
    chosen: dict[int, Candidate] = {}

    def try_assign(k: int, seen: set[int]) -> bool:
        for c in cands[k]:
            span = range(c.start, c.end)
            blockers = {owner[t] for t in span if t in owner}
            if not blockers:
                _take(k, c)
                return True
            if len(blockers) == 1 and c.end - c.start == 1:
                other = blockers.pop()
                if other in seen:
                    continue
                seen.add(other)
                old = chosen.pop(other)
                for t in range(old.start, old.end):
                    del owner[t]
                _take(k, c)
                if try_assign(other, seen):
                    return True
                _release(k)
                _take(other, old)
        return False

    def _take(k: int, c: Candidate) -> None:
        chosen[k] = c
        for t in range(c.start, c.end):
            owner[t] = k

    def _release(k: int) -> None:
        c = chosen.pop(k)
        for t in range(c.start, c.end):
            del owner[t]

    for k in group:
        try_assign(k, {k})
    return chosen


_RANK = attrgetter("rank")


def assign(cands: dict[int, list[Candidate]]) -> dict[int, Candidate]:
    """Choose at most one candidate per keyword, token-disjoint, maximising the count.
    ``cands``: keyword index → its candidates (none empty), in keyword order."""
    owner: dict[int, int] = {}      # token -> the first keyword with a candidate on it
    contested = False
    for k, lst in cands.items():
        if len(lst) > 1:
            lst.sort(key=_RANK)
        for c in lst:
            for t in range(c.start, c.end):
                contested = owner.setdefault(t, k) != k or contested
    if not contested:       # the usual case: each keyword takes its preferred candidate
        return {k: lst[0] for k, lst in cands.items()}
    result: dict[int, Candidate] = {}
    for group in _components(cands):
        if len(group) == 1:
            result[group[0]] = cands[group[0]][0]
        elif len(group) <= EXACT_LIMIT:
            result.update(_exact_assign(group, cands))
        else:
            result.update(_greedy_assign(group, cands))
    return result


@lru_cache(maxsize=64)
def _stages(stages: tuple[str, ...]) -> tuple[tuple[int, str] | None, ...]:
    """(order, name) of the exact, inflection, synonym, idiom, number and transliteration stages
    (None for a stage not used)."""
    kinds = {name: (order, name) for order, name in enumerate(stages)}
    return tuple(kinds.get(name) for name in ("exact", "inflection", "synonym", "idiom", "number", "transliteration"))


def match_sentence(targets: Sequence[Targets], tokens: Sequence[str],
                   stages: Sequence[str] = ("exact",),
                   inflections: dict[str, tuple[str, ...]] | None = None,
                   threshold: float = transliterate.DEFAULT_THRESHOLD,
                   names: frozenset[str] | None = None) -> dict[int, Candidate]:
    """Match each keyword's targets against ``tokens``; returns keyword index → candidate.

    ``inflections`` (inflected form → base words, :mod:`ktr.inflection`) enables inflected
    matches; ``threshold`` is the transliteration stage's minimum sound-key similarity and
    ``names`` the words the output writes capitalized (:func:`ktr.english.capitalized_words`).
    """
    exact, inflected, synonym, idiom, number, sound = _stages(tuple(stages))
    v = SentenceView(tokens, inflections, threshold, names)
    present = v.present
    lexical = present if inflected else v.words     # where an equivalent can start
    cands: dict[int, list[Candidate]] = {}
    for k, t in enumerate(targets):
        lst: list[Candidate] = []
        if not t.firsts.isdisjoint(present):
            own, synonyms, idioms = t.own_firsts
            if exact or inflected:
                hits = own & lexical
                if hits:
                    _phrases(k, t.by_first, hits, v, lst, exact, inflected)
            if synonym:
                hits = synonyms & present
                if hits:
                    _phrases(k, t.synonyms_by_first, hits, v, lst, synonym, synonym)
            if idiom:
                hits = idioms & present
                if hits:
                    _phrases(k, t.idioms_by_first, hits, v, lst, idiom, idiom)
        if t.numbers and number:
            lst += number_stage(k, t, v, number[0])
        if t.sound and sound:
            lst += transliteration_stage(k, t, v, sound[0])
        if lst:
            cands[k] = lst
    return assign(cands)

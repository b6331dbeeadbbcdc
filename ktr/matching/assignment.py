"""The one-to-one assignment: each keyword's candidates in, at most one chosen per keyword out.

An output token credits at most one keyword, and the assignment maximises the number of
transferred keywords. Among the assignments of that size it prefers one best place per meaning:
the strongest matches (:data:`STRENGTH`: a word as written or a number by value, then an
inflection, a derivation, an idiom or construction, a WordNet synonym, a sound), then one of the
entry's main senses (its first :data:`MAIN_SENSES` equivalents, the earlier first) over a later
one, then the nearest positions (a keyword's place among the source's keywords against a token's
place in the output), then an equivalent listed earlier in the lexicon and the leftmost position.
Keywords are placed in that order of preference (each by its best candidate), so that a strong
match is never given up for a weaker one of another keyword: in "that bear", 곰 (bear) takes
"bear" as written, and 신다 (wear), whose WordNet synonyms include bear, does not.

Placing in that order can leave a keyword out whose match is better than that of the keyword
holding its word; such a keyword then takes the word from its holder when the swap keeps the
size (:func:`_improve`).

The assignment is exact for each group of keywords that compete for tokens when the group has at
most ``EXACT_LIMIT`` keywords; larger groups (rare: many repeats of the same word) are matched
greedily in preference order followed by augmenting paths, which is still optimal in size when
the competing equivalents are single words.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

EXACT_LIMIT = 12


class Candidate(NamedTuple):
    keyword: int  # index of the keyword in the sentence
    equivalent: str  # the lexicon equivalent that matched
    start: int  # token span [start, end) in the output
    end: int
    how: str  # stage name
    rank: tuple[int, int, int]  # (stage order, equivalent order, start): lower is preferred
    confidence: float | None = None  # how sure a stage that weighs evidence is (the semantic stage)


#: the sort key of a candidate (:func:`assign`'s preference): strength, sense, nearness, rank, end, equivalent
Preference = tuple[int, int, float, tuple[int, int, int], int, str]


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


def _exact_assign(group: list[int], cands: dict[int, list[Candidate]], weights: dict[int, int]) -> dict[int, Candidate]:
    best: dict[int, Candidate] = {}
    best_size = -1
    size = 0
    chosen: dict[int, Candidate] = {}
    used: set[int] = set()
    left = [0] * (len(group) + 1)  # the weight of the keywords from i on
    for i in range(len(group) - 1, -1, -1):
        left[i] = left[i + 1] + weights.get(group[i], 1)

    def search(i: int) -> None:
        nonlocal best, best_size, size
        if size + left[i] <= best_size:
            return
        if i == len(group):
            best, best_size = dict(chosen), size
            return
        k = group[i]
        for c in cands[k]:
            span = range(c.start, c.end)
            if used.isdisjoint(span):
                chosen[k] = c
                used.update(span)
                size += weights.get(k, 1)
                search(i + 1)
                size -= weights.get(k, 1)
                used.difference_update(span)
                del chosen[k]
        search(i + 1)

    search(0)
    return best


def _greedy_assign(group: list[int], cands: dict[int, list[Candidate]]) -> dict[int, Candidate]:
    owner: dict[int, int] = {}  # token -> keyword
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


def _improve(
    chosen: dict[int, Candidate],
    group: list[int],
    cands: dict[int, list[Candidate]],
    weights: dict[int, int],
    preference: Callable[[Candidate], Preference],
) -> dict[int, Candidate]:
    """Of assignments of the same size, one best place per meaning: a keyword left out takes a
    token from the keyword holding it when its match is the better one and the holder stands for
    no more keywords (대출, loan, takes "loans" as its first sense from 금융, finance, which
    reached it by its twelfth). Each swap puts a better match in a worse one's place, so it ends."""
    swapped = True
    while swapped:
        swapped = False
        owner = {t: k for k, c in chosen.items() for t in range(c.start, c.end)}
        for u in group:
            if u in chosen:
                continue
            for c in cands[u]:
                holders = {owner[t] for t in range(c.start, c.end) if t in owner}
                if len(holders) != 1:
                    continue
                (k,) = holders
                if weights.get(u, 1) >= weights.get(k, 1) and preference(c) < preference(chosen[k]):
                    del chosen[k]
                    chosen[u] = c
                    swapped = True
                    break
            if swapped:
                break
    return chosen


#: the first equivalents of an entry are its main senses
MAIN_SENSES = 3

#: how strong a match by each stage is, when assignments of the same size compete (lower first)
STRENGTH = {
    "exact": 0,
    "number": 0,
    "inflection": 1,
    "derivation": 2,
    "idiom": 3,
    "construction": 3,
    "synonym": 4,
    "transliteration": 5,
}


def assign(
    cands: dict[int, list[Candidate]], keywords: int = 0, tokens: int = 0, weights: dict[int, int] | None = None
) -> dict[int, Candidate]:
    """Choose at most one candidate per keyword, token-disjoint, maximising the count, then
    preferring strong and near matches (see the module doc). ``cands``: keyword index → its
    candidates (none empty), in keyword order; ``keywords`` and ``tokens``: how many the
    sentence and the output have (0: positions are not compared); ``weights``: how many
    keywords a keyword stands for (a word the source repeats; 1 when not given)."""
    weights = weights or {}

    def preference(c: Candidate) -> Preference:
        near = abs((c.keyword + 0.5) / keywords - (c.start + 0.5) / tokens) if keywords and tokens else 0.0
        # a number by value is not a listed sense: it ranks as the last main sense, so that a
        # word as written ("third" for 삼) is named before it
        sense = MAIN_SENSES - 1 if c.how == "number" else min(c.rank[1], MAIN_SENSES)
        # the span's end and the equivalent last: a total order, so that no tie is left to the
        # order the stages found the candidates in (a set's, which differs between processes)
        return STRENGTH.get(c.how, len(STRENGTH)), sense, near, c.rank, c.end, c.equivalent

    owner: dict[int, int] = {}  # token -> the first keyword with a candidate on it
    contested = False
    for k, lst in cands.items():
        if len(lst) > 1:
            lst.sort(key=preference)
        for c in lst:
            for t in range(c.start, c.end):
                contested = owner.setdefault(t, k) != k or contested
    if not contested:  # the usual case: each keyword takes its preferred candidate
        return {k: lst[0] for k, lst in cands.items()}
    result: dict[int, Candidate] = {}
    for group in _components(cands):
        group.sort(key=lambda k: (preference(cands[k][0]), k))  # the strongest, nearest placed first
        if len(group) == 1:
            result[group[0]] = cands[group[0]][0]
        elif len(group) <= EXACT_LIMIT:
            result.update(_improve(_exact_assign(group, cands, weights), group, cands, weights, preference))
        else:
            result.update(_improve(_greedy_assign(group, cands), group, cands, weights, preference))
    return result

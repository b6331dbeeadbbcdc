"""The one-to-one assignment: each keyword's candidates in, at most one chosen per keyword out.

An output token credits at most one keyword, and the assignment maximises the number of
transferred keywords. Among the assignments of that size it prefers one best place per meaning:
the strongest matches (:func:`strength`, as each stage declares it: a word as written or a number by value, then an
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

Within each group of keywords that compete for tokens (:func:`_components`), the assignment is,
of those of largest weight (a word the source repeats weighs as many keywords as it stands
for), the first in that order: the first keyword's first candidate if it can be, and so on
(:func:`ktr.matching.packing.pack`, a search in polynomial time however large the group, exact
unless phrases that cross other keywords' words can be used in many ways and the search runs
out of its budget; its module doc says how), then the swaps. A heap finds each next swap.
"""

from __future__ import annotations

import heapq
from functools import lru_cache

from ktr.matching.candidate import Candidate
from ktr.matching.packing import pack
from ktr.matching.registry import STAGES
from ktr.matching.stage import stage_class

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


def _improve(
    placed: dict[int, int],
    group: list[int],
    cands: dict[int, list[Candidate]],
    weights: dict[int, int],
    preferences: dict[int, list[Preference]],
) -> dict[int, Candidate]:
    """Of assignments of the same size, one best place per meaning: a keyword left out takes a
    token from the keyword holding it when its match is the better one and the holder stands for
    no more keywords (대출, loan, takes "loans" as its first sense from 금융, finance, which
    reached it by its twelfth). The first such swap in the group's order (the keyword left out,
    then its candidate) is made, then the next first one; each puts a better match in a worse
    one's place, so it ends. A heap holds every swap that may have become possible: all of a
    keyword's candidates when it is left out, and every candidate on a token whose holder changed."""
    place = {k: i for i, k in enumerate(group)}
    index = dict(placed)  # keyword placed -> its candidate's index
    chosen = {k: cands[k][i] for k, i in placed.items()}
    owner = {t: k for k, c in chosen.items() for t in range(c.start, c.end)}
    on: dict[int, list[tuple[int, int]]] = {}  # token -> (keyword's place in the group, candidate) on it
    for k in group:
        for i, c in enumerate(cands[k]):
            for t in range(c.start, c.end):
                on.setdefault(t, []).append((place[k], i))
    heap = [(place[u], i) for u in group if u not in chosen for i in range(len(cands[u]))]
    heapq.heapify(heap)
    while heap:
        p, i = heapq.heappop(heap)
        u = group[p]
        if u in chosen:
            continue
        c = cands[u][i]
        holders = {owner[t] for t in range(c.start, c.end) if t in owner}
        if len(holders) != 1:
            continue
        (k,) = holders
        if weights.get(u, 1) < weights.get(k, 1) or not preferences[u][i] < preferences[k][index[k]]:
            continue
        old = chosen.pop(k)
        del index[k]
        chosen[u], index[u] = c, i
        for t in range(old.start, old.end):
            del owner[t]
        for t in range(c.start, c.end):
            owner[t] = u
        for t in {*range(old.start, old.end), *range(c.start, c.end)}:
            for pair in on.get(t, ()):
                heapq.heappush(heap, pair)
        for j in range(len(cands[k])):
            heapq.heappush(heap, (place[k], j))
    return chosen


#: the first equivalents of an entry are its main senses
MAIN_SENSES = 3


def strength(how: str) -> int:
    """How strong a match by stage ``how`` is, when assignments of the same size compete (lower
    first): what the stage declares (:attr:`ktr.matching.stage.Stage.strength`)."""
    return _declared(how, STAGES.get(how))[0]


@lru_cache(maxsize=64)
def _declared(how: str, where: str | None) -> tuple[int, int | None]:
    """What stage ``how`` (registered as ``where``) declares for the assignment: its strength and
    the sense its matches rank as."""
    stage = stage_class(how)
    return stage.strength, stage.sense


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
        # a stage whose matches are no listed sense ranks them as it says (a number by value as
        # the last main sense, so that a word as written, "third" for 삼, is named before it)
        power, fixed = _declared(c.how, STAGES.get(c.how))
        sense = min(c.rank[1], MAIN_SENSES) if fixed is None else fixed
        # the span's end and the equivalent last: a total order, so that no tie is left to the
        # order the stages found the candidates in (a set's, which differs between processes)
        return power, sense, near, c.rank, c.end, c.equivalent

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
            continue
        picks = pack([[(c.start, c.end) for c in cands[k]] for k in group], [weights.get(k, 1) for k in group])
        placed = {k: i for k, i in zip(group, picks) if i >= 0}
        preferences = {k: [preference(c) for c in cands[k]] for k in group}
        result.update(_improve(placed, group, cands, weights, preferences))
    return result

"""The search behind the assignment: of the packings of largest weight, the first in preference order.

A *packing* places each keyword (they come in order of preference, each with a weight and its
candidate token spans, best first) on at most one of its spans, no two spans sharing a token;
its weight is the sum of the weights of the keywords placed. :func:`pack` returns, of the
packings of largest weight, the first in the order that compares the first keyword's choice
first (its first span before its second, and so on, and being left out last), then the second
keyword's, and so on: the packing a depth-first search in that order keeps when it replaces its
best only by a larger one.

**The search.** That depth-first search, entering a choice only when what the keywords after it
can still add, by a bound, reaches the target weight. With an exact bound and the largest weight
as the target it never backtracks: each keyword takes the first of its choices whose bound
reaches the target, one try per span, each try one alternating path in a matching
(:mod:`ktr.matching.matchings`): ``O((spans + keywords) × edges)`` in all.

**The bound.** Which tokens a span takes matters only where spans of two keywords meet, and only
through the tokens such spans share (:func:`_constraints`, which also leaves out a token every
span on which covers another such token: ``weapon`` in ``nuclear weapon`` where ``nuclear`` is
also a word of its own). When each span has at most one such token the keywords a packing can
place are those a bipartite matching can, and a largest matching is the exact bound.

**Phrases across other keywords' words.** A span with two such tokens or more (``united states``
where ``united`` and ``states`` are other keywords' words) is not an edge of a matching. Up to
:data:`WAYS` ways of using such spans (which are taken, each by which keyword), the bound is the
largest of one matching per way, still exact. Past that (maximum packing with such spans, job
interval selection, is NP-hard) such a span counts as one of its tokens, which bounds from
above: the search backtracks where the bound was too high, and lowers the target to the highest
bound it pruned when no packing reaches it. Every group in the dev sets' matchings is found so
(10 of 19,320 are past :data:`WAYS`, with up to 34 ways; each at its first target). The
search has a budget, :data:`BUDGET` tries per span and keyword and at least :data:`LEAST`;
past it the keywords are placed one after another, each on its choice of highest bound: a
packing, though maybe not the largest (measured on lines of 400 keywords: 3 groups of 120 to
150 keywords in 5 lines, one of which places one keyword fewer than the largest packing).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ktr.matching.matchings import Bounds, Span

#: the most ways of using the spans that cross other keywords' words for which the bound is exact
WAYS = 8

#: tries (a keyword placed on a span or left out, and the bound brought up to date) the search
#: may make per span and keyword of the group when the bound is not exact, and at least
#: :data:`LEAST` (a small group's whole tree, a few milliseconds)
BUDGET = 4
LEAST = 5000


class _OverBudget(Exception):
    pass


def _constraints(spans: Sequence[Sequence[Span]]) -> set[int]:
    """The tokens that make two keywords' spans exclude each other: those the spans of two
    keywords or more cover, less each token whose spans all cover another such token too (a
    packing that keeps that other token to one span keeps this one to one span as well; of two
    tokens covered by the same spans, the first is kept)."""
    keywords: dict[int, int] = {}
    for mine in spans:
        for t in {t for s, e in mine for t in range(s, e)}:
            keywords[t] = keywords.get(t, 0) + 1
    common: dict[int, set[int]] = {}  # token -> the tokens every span on it covers
    for mine in spans:
        for s, e in mine:
            for t in range(s, e):
                if keywords[t] > 1:
                    inside = set(range(s, e))
                    common[t] = common[t] & inside if t in common else inside
    # t goes when every span on it covers u, unless the spans on u all cover t too and t comes first
    return {t for t, inside in common.items() if not any(u != t and (t not in common[u] or u < t) for u in inside)}


def _ways(
    spans: Sequence[Sequence[Span]], nodes_of: list[list[tuple[int, ...]]], limit: int
) -> list[dict[int, Span]] | None:
    """Every way of using the spans with two nodes or more (which are taken, each by which
    keyword, no two overlapping), none taken first; None when there are more than ``limit``."""
    takers: dict[Span, list[int]] = {}
    for k, (mine, per) in enumerate(zip(spans, nodes_of)):
        for span, nodes in zip(mine, per):
            if len(nodes) > 1 and k not in takers.setdefault(span, []):
                takers[span].append(k)
    crossing = sorted(takers)
    if len(crossing) >= limit:  # each alone is a way, besides none
        return None
    ways: list[dict[int, Span]] = []

    def extend(i: int, way: dict[int, Span], used: set[int]) -> bool:
        if i == len(crossing):
            ways.append(dict(way))
            return len(ways) <= limit
        if not extend(i + 1, way, used):
            return False
        s, e = crossing[i]
        if used.isdisjoint(range(s, e)):
            for k in takers[crossing[i]]:
                if k not in way:
                    way[k] = (s, e)
                    ok = extend(i + 1, way, used | set(range(s, e)))
                    del way[k]
                    if not ok:
                        return False
        return True

    return ways if extend(0, {}, set()) else None


def pack(spans: Sequence[Sequence[Span]], weights: Sequence[int], ways: int = WAYS, budget: int = BUDGET) -> list[int]:
    """Per keyword, the index of its span in the first packing of largest weight, or -1 when it is
    left out (see the module doc). ``spans``: each keyword's spans, best first, keywords in order
    of preference; ``weights``: how many keywords each stands for; ``ways`` and ``budget``: the
    limits of :data:`WAYS` and :data:`BUDGET`."""
    kept = _constraints(spans)
    node: dict[int, int] = {}  # a token that makes spans exclude each other -> its node
    nodes_of: list[list[tuple[int, ...]]] = []  # keyword -> its spans' nodes
    count = 0
    for mine in spans:
        private = -1  # the keyword's own node, for its spans that share no token
        per: list[tuple[int, ...]] = []
        for s, e in mine:
            shared = []
            for t in range(s, e):
                if t in kept:
                    if t not in node:
                        node[t] = count
                        count += 1
                    shared.append(node[t])
            if not shared:
                if private < 0:
                    private = count
                    count += 1
                shared.append(private)
            per.append(tuple(shared))
        nodes_of.append(per)
    bounds = Bounds(spans, weights, nodes_of, count, _ways(spans, nodes_of, ways))
    limit = max(LEAST, budget * (sum(map(len, spans)) + len(spans))) if budget else 0
    tries = [0]

    def value(level: int, option: int, size: int) -> int:
        tries[0] += 1
        reach = bounds.place(level, option)
        return -1 if reach < 0 else size + reach + (weights[level] if option < len(spans[level]) else 0)

    target = bounds.best()
    try:
        while True:
            choice, below = _search(
                spans, weights, target, value, bounds, lambda: tries[0] >= limit and not bounds.exact
            )
            if choice is not None:
                return choice
            target = below
    except _OverBudget:
        bounds.rollback(0)
        return _descend(spans, weights, value, bounds)


def _search(
    spans: Sequence[Sequence[Span]],
    weights: Sequence[int],
    target: int,
    value: Callable[[int, int, int], int],
    bounds: Bounds,
    spent: Callable[[], bool],
) -> tuple[list[int] | None, int]:
    """The first packing of weight ``target`` or more, depth first; else None and the highest
    bound pruned (no packing weighs more)."""
    n = len(spans)
    choice = [-1] * n
    used: set[int] = set()
    stack: list[tuple[int, int, int]] = []  # per keyword placed: (its next option, journal mark, size before)
    level, option, size, below = 0, 0, 0, -1
    while level < n:
        mine = spans[level]
        entered = False
        while option <= len(mine):
            o = option
            option += 1
            if o < len(mine) and not used.isdisjoint(range(*mine[o])):
                continue
            if spent():
                raise _OverBudget
            mark = len(bounds.log)
            reach = value(level, o, size)
            if reach >= target:
                stack.append((option, mark, size))
                if o < len(mine):
                    choice[level] = o
                    size += weights[level]
                    used.update(range(*mine[o]))
                level, option, entered = level + 1, 0, True
                break
            below = max(below, reach)
            bounds.rollback(mark)
        if not entered:
            if not stack:
                return None, below
            option, mark, size = stack.pop()
            level -= 1
            if choice[level] >= 0:
                used.difference_update(range(*spans[level][choice[level]]))
                choice[level] = -1
            bounds.rollback(mark)
    return choice, target


def _descend(
    spans: Sequence[Sequence[Span]], weights: Sequence[int], value: Callable[[int, int, int], int], bounds: Bounds
) -> list[int]:
    """Past the budget: each keyword in turn on its option of highest bound, the first of those."""
    choice = [-1] * len(spans)
    used: set[int] = set()
    size = 0
    for level, mine in enumerate(spans):
        best, best_reach = len(mine), -1
        for o in range(len(mine) + 1):
            if o < len(mine) and not used.isdisjoint(range(*mine[o])):
                continue
            mark = len(bounds.log)
            reach = value(level, o, size)
            bounds.rollback(mark)
            if reach > best_reach:
                best, best_reach = o, reach
        value(level, best, size)
        if best < len(mine):
            choice[level] = best
            size += weights[level]
            used.update(range(*mine[best]))
    return choice

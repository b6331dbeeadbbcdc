"""The bound of the assignment's search (:mod:`ktr.matching.packing`): largest matchings kept up to date.

Keywords and *nodes* (the tokens that make spans of two keywords exclude each other, and a node
of its own per keyword for spans that share none): a span with one node is an edge from its
keyword to it, so the sets of keywords a packing of such spans can place are those a bipartite
matching can, the independent sets of a transversal matroid. The greedy algorithm (heaviest
first, each by an augmenting path) finds a largest matching (:class:`LargestMatching`), and the search's
steps change it by one alternating path each: a keyword placed or left out is matroid deletion
(its node goes to the heaviest unmatched keyword that can reach it), a node taken is the
contraction of a stand-in that wants only that node (its keyword moves to a free node, or the
lightest keyword it reaches leaves). Every change is journaled, so that backtracking undoes it.

A span with two nodes or more is not an edge: :class:`Bounds` keeps one matching per way of
using such spans (which are taken, each by which keyword), the largest being the bound; or,
when there are too many ways, one matching where such a span counts as one of its nodes, which
only bounds from above.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

#: a candidate's tokens [start, end)
Span = tuple[int, int]

#: the journal: (array, index, value before)
Log = list[tuple[list[Any], int, Any]]


class LargestMatching:
    """A largest-weight matching of the keywords still to place (``active``) to the nodes still
    free (``alive``), kept up to date as keywords are placed and nodes taken, every change
    journaled in ``log``."""

    def __init__(
        self, adj: list[list[int]], weights: Sequence[int], nodes: int, log: Log, active: list[bool], alive: list[bool]
    ):
        self.adj = adj  # keyword -> its nodes, in the order of its spans
        self.radj: list[list[int]] = [[] for _ in range(nodes)]  # node -> the keywords that may take it
        for k, mine in enumerate(adj):
            for u in mine:
                self.radj[u].append(k)
        self.w = weights
        self.log = log
        self.mk = [-1] * len(adj)  # keyword -> its node in the matching
        self.mt = [-1] * nodes  # node -> its keyword
        self.active = active
        self.alive = alive
        self.total = [0]  # the matching's weight
        for k in sorted(range(len(adj)), key=lambda k: (-weights[k], k)):  # the matroid's greedy
            if active[k]:
                x, u, parent, _ = self._forward(k)
                if x >= 0:
                    self._shift(x, u, parent)
                    self.total[0] += weights[k]
        del log[:]

    def _set(self, array: list[Any], i: int, value: Any) -> None:
        self.log.append((array, i, array[i]))
        array[i] = value

    def _forward(self, h: int) -> tuple[int, int, dict[int, tuple[int, int]], list[int]]:
        """Alternating paths from the unmatched keyword ``h``: (x, u) when keyword x reached can
        take the free node u, else (-1, -1); ``parent``: keyword y reached → (x, y's node), x
        may take y's node; and every keyword reached, ``h`` first."""
        adj, alive, mt = self.adj, self.alive, self.mt
        parent = {h: (-1, -1)}
        queue = [h]
        seen: set[int] = set()
        for x in queue:
            for u in adj[x]:
                if u in seen or not alive[u]:
                    continue
                seen.add(u)
                y = mt[u]
                if y < 0:
                    return x, u, parent, queue
                parent[y] = (x, u)
                queue.append(y)
        return -1, -1, parent, queue

    def _shift(self, x: int, u: int, parent: dict[int, tuple[int, int]]) -> None:
        """Keyword ``x`` takes the free node ``u``, and each keyword on the path back to the root
        takes the node of the one after it."""
        mk, mt = self.mk, self.mt
        while True:
            old = mk[x]
            self._set(mk, x, u)
            self._set(mt, u, x)
            x, u = parent[x][0], old
            if x < 0:
                return

    def delete(self, k: int) -> None:
        """Keyword ``k`` placed or left out: it leaves the matching, and its node goes to the
        heaviest unmatched keyword that can reach it (matroid deletion: B - k + f)."""
        mk, mt, w, active = self.mk, self.mt, self.w, self.active
        self._set(active, k, False)
        v = mk[k]
        if v < 0:
            return
        self._set(mk, k, -1)
        self._set(mt, v, -1)
        self._set(self.total, 0, self.total[0] - w[k])
        via: dict[int, int] = {}  # keyword reached -> the node it would move to
        queue = [v]
        seen = {v}
        best = -1
        for z in queue:
            for y in self.radj[z]:
                if y in via or not active[y]:
                    continue
                via[y] = z
                z2 = mk[y]
                if z2 < 0:
                    if best < 0 or w[y] > w[best]:
                        best = y
                elif z2 not in seen:
                    seen.add(z2)
                    queue.append(z2)
            if best >= 0 and w[best] >= w[k]:  # none weighs more: B - k + f would outweigh B
                break
        if best < 0:
            return
        y = best
        while y >= 0:
            z = via[y]
            holder = mt[z]
            self._set(mk, y, z)
            self._set(mt, z, y)
            y = holder
        self._set(self.total, 0, self.total[0] + w[best])

    def remove(self, u: int) -> None:
        """Node ``u`` taken: its keyword moves along an alternating path to a free node, or, when
        none is reachable, the lightest keyword it reaches leaves the matching (contraction)."""
        mk, mt, w = self.mk, self.mt, self.w
        self._set(self.alive, u, False)
        h = mt[u]
        if h < 0:
            return
        self._set(mt, u, -1)
        self._set(mk, h, -1)
        x, free, parent, reached = self._forward(h)
        if x >= 0:
            self._shift(x, free, parent)
            return
        drop = h
        for y in reached:
            if w[y] < w[drop]:
                drop = y
        self._set(self.total, 0, self.total[0] - w[drop])
        if drop != h:
            v = mk[drop]
            self._set(mk, drop, -1)
            self._set(mt, v, -1)
            self._shift(parent[drop][0], v, parent)

    def place(self, k: int, nodes: tuple[int, ...]) -> None:
        """Keyword ``k`` placed on a span of these nodes."""
        mk, mt = self.mk, self.mt
        v = mk[k]
        if v >= 0:
            # k leaves, its node free: when each node's keyword moves to a free node (k's among
            # them), the matching weighs all but k, which no matching without k can exceed
            mark = len(self.log)
            self._set(self.active, k, False)
            self._set(mk, k, -1)
            self._set(mt, v, -1)
            self._set(self.total, 0, self.total[0] - self.w[k])
            moved = True
            for u in nodes:
                if not self.alive[u]:
                    continue
                self._set(self.alive, u, False)
                h = mt[u]
                if h >= 0:
                    self._set(mt, u, -1)
                    self._set(mk, h, -1)
                    x, free, parent, _ = self._forward(h)
                    if x < 0:
                        moved = False
                        break
                    self._shift(x, free, parent)
            if moved:
                return
            self.rollback(mark)
        self.delete(k)
        for u in nodes:
            if self.alive[u]:
                self.remove(u)

    def rollback(self, mark: int) -> None:
        """Undo every change made after the journal had ``mark`` entries."""
        log = self.log
        while len(log) > mark:
            array, i, old = log.pop()
            array[i] = old


class Bounds:
    """What the keywords still to place can add at most: one matching per way of using the spans
    that cross other keywords' words (``ways``: keyword → its span), the largest of those still
    possible. Without ways (None: too many), one matching where such a span counts as the one of
    its nodes most keywords want (``ways`` is then ``[{}]``)."""

    def __init__(
        self,
        spans: Sequence[Sequence[Span]],
        weights: Sequence[int],
        nodes_of: list[list[tuple[int, ...]]],
        count: int,
        ways: list[dict[int, Span]] | None,
    ):
        self.spans, self.weights, self.nodes_of = spans, weights, nodes_of
        self.exact = ways is not None
        self.ways: list[dict[int, Span]] = ways if ways is not None else [{}]
        self.log: Log = []
        degree = [0] * count  # node -> the keywords with a span on it
        for per in nodes_of:
            for u in {u for nodes in per for u in nodes}:
                degree[u] += 1

        def edge(nodes: tuple[int, ...]) -> tuple[int, ...]:
            """A span's node in the matching: its only one; of a span with more, none when the
            ways are counted, else the one most keywords want (an upper bound either way)."""
            if len(nodes) == 1:
                return nodes
            return () if self.exact else (max(nodes, key=lambda u: degree[u]),)

        self.matchings: list[LargestMatching] = []
        self.pending: list[int] = []  # per way: the weight of its keywords not placed yet
        for way in self.ways:
            adj = [
                [] if k in way else list(dict.fromkeys(u for nodes in per for u in edge(nodes)))
                for k, per in enumerate(nodes_of)
            ]
            alive = [True] * count
            for k, (s, e) in way.items():
                for nodes in (n for n, span in zip(nodes_of[k], spans[k]) if span == (s, e)):
                    for u in nodes:
                        alive[u] = False
            active = [k not in way for k in range(len(spans))]
            self.matchings.append(LargestMatching(adj, weights, count, self.log, active, alive))
            self.pending.append(sum(weights[k] for k in way))
        self.possible = [True] * len(self.ways)

    def _set(self, array: list[Any], i: int, value: Any) -> None:
        self.log.append((array, i, array[i]))
        array[i] = value

    def rollback(self, mark: int) -> None:
        """Undo every change made after the journal had ``mark`` entries."""
        log = self.log
        while len(log) > mark:
            array, i, old = log.pop()
            array[i] = old

    def best(self) -> int:
        return max(
            (m.total[0] + p for m, p, ok in zip(self.matchings, self.pending, self.possible) if ok),
            default=-1,
        )

    def place(self, k: int, option: int) -> int:
        """Keyword ``k`` on its span ``option`` (its number of spans: left out); the bound after."""
        left_out = option == len(self.spans[k])
        span = None if left_out else self.spans[k][option]
        nodes = () if left_out else self.nodes_of[k][option]
        for i, (way, matching) in enumerate(zip(self.ways, self.matchings)):
            if not self.possible[i]:
                continue
            if k in way:
                if way[k] == span:
                    self._set(self.pending, i, self.pending[i] - self.weights[k])
                else:
                    self._set(self.possible, i, False)
            elif left_out:
                matching.delete(k)
            elif self.exact and (len(nodes) > 1 or not matching.alive[nodes[0]]):
                self._set(self.possible, i, False)  # a span of another way, or on one of this way's
            else:
                matching.place(k, nodes)
        return self.best()

"""A stretch's results as plain data, for the way back from a worker process.

Tuples, strings and numbers pickle without a call into Python for each object: several times
faster than sending the result objects themselves. Each keyword's unmatched result is sent once
for all systems, and only the matches of each system beside it. The same data is what a shard
holds, as JSON (``--shards``): :func:`unpack` takes it back with its tuples as lists.
"""

from __future__ import annotations

from math import isfinite
from operator import attrgetter
from typing import Any

from ktr.korean.keywords import Keyword
from ktr.matching.candidate import Refusal
from ktr.scoring.sentences import LINE_FIELDS, KeywordResult, SentenceResult

#: per system, the results of a stretch's lines; and the stretch's input warnings
Results = tuple[dict[str, list[SentenceResult]], list[str]]


#: a line's fields after its index and keywords (:data:`ktr.scoring.sentences.LINE_FIELDS`)
_counts = attrgetter(*LINE_FIELDS)
#: where the added words, (token index, token) pairs, are among them
_ADDED = LINE_FIELDS.index("added")


def pack(part: Results) -> tuple[Any, ...]:
    results, messages = part
    names = list(results)
    keywords = [[(tuple(k.keyword), *k[1:6], k.tried, k.counts) for k in s.keywords] for s in results[names[0]]]
    systems = [
        (
            name,
            [
                (
                    s.index,
                    *_counts(s),
                    [
                        (i, k.matched, k.how, k.span, k.confidence)
                        for i, k in enumerate(s.keywords)
                        if k.matched is not None
                    ],
                    [(i, [tuple(r) for r in k.refused]) for i, k in enumerate(s.keywords) if k.refused],
                )
                for s in results[name]
            ],
        )
        for name in names
    ]
    return keywords, systems, messages


def unpack(packed: tuple[Any, ...] | list[Any]) -> Results:
    """:func:`pack` undone; also of its data read back from JSON (a shard, :mod:`ktr.execution.shards`),
    whose tuples are lists: the results have their tuples again."""
    keywords, systems, messages = packed
    missed = [
        [
            KeywordResult(
                Keyword(*k), tuple(e), tuple(syn), known, entry, via, None, None, None, tuple(tried), None, counts
            )
            for k, e, syn, known, entry, via, tried, counts in row
        ]
        for row in keywords
    ]
    results = {}
    for name, lines in systems:
        out = []
        if not isinstance(name, str) or len(lines) != len(missed):
            raise ValueError("a system without its name or with another number of lines")
        # a line's fields, as pack wrote them: its index, its LINE_FIELDS, the matches of its keywords
        # and the places refused to them
        for row, (index, *rest) in zip(missed, lines, strict=True):
            counts, matches = rest[: len(LINE_FIELDS)], rest[len(LINE_FIELDS)]
            refused = rest[len(LINE_FIELDS) + 1] if len(rest) > len(LINE_FIELDS) + 1 else ()  # not in older shards
            found = list(row)
            for i, matched, how, span, confidence in matches:
                found[i] = row[i].matched_as(matched, how, tuple(span), confidence)
            for i, refusals in refused:
                found[i] = found[i]._replace(refused=tuple(Refusal(*r) for r in refusals))
            counts[_ADDED] = tuple(map(tuple, counts[_ADDED]))
            out.append(_checked(SentenceResult(index, tuple(found), *counts)))
        results[name] = out
    indexes = [[s.index for s in lines] for lines in results.values()]
    first = indexes[0][0] if indexes and indexes[0] else 0
    if any(i != list(range(first, first + len(i))) for i in indexes):
        raise ValueError("lines out of order, or not the same lines for every system")
    if not isinstance(messages, list) or not all(isinstance(m, str) for m in messages):
        raise ValueError("warnings that are not text")
    return results, messages


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _checked(s: SentenceResult) -> SentenceResult:
    """``s`` when every figure is what scoring can give (whole counts, none past what it counts,
    finite weights, confidences from 0 to 1), so that a shard changed by hand or forged with its
    manifest is refused rather than summed into a score (a KTR of 3.66, -26.6 or NaN); else
    ValueError."""
    figures = (s.index, s.counted, s.transferred, s.content, s.traced)
    if not all(_whole(n) for n in figures) or s.transferred > s.counted or s.traced > s.content:
        raise ValueError(f"line {s.index!r}: counts that cannot be")
    if not all(n is None or _whole(n) for n in (s.size, s.not_in_lexicon)):
        raise ValueError(f"line {s.index}: counts that cannot be")
    weights = (s.weight, s.weight_transferred)
    if not all(isinstance(w, (int, float)) and not isinstance(w, bool) and isfinite(w) and w >= 0 for w in weights):
        raise ValueError(f"line {s.index}: weights that cannot be")
    if s.weight_transferred > s.weight * (1 + 1e-9) + 1e-9:
        raise ValueError(f"line {s.index}: weights that cannot be")
    if not (s.failed is None or isinstance(s.failed, str)) or not isinstance(s.empty_hypothesis, bool):
        raise ValueError(f"line {s.index}: a failure that cannot be")
    if not all(len(a) == 2 and _whole(a[0]) and isinstance(a[1], str) for a in s.added):
        raise ValueError(f"line {s.index}: added words that cannot be")
    for k in s.keywords:
        c = k.confidence
        if c is not None and not (isinstance(c, (int, float)) and not isinstance(c, bool) and 0 <= c <= 1):
            raise ValueError(f"line {s.index}: a confidence that cannot be")
        if k.counts is not None and not isinstance(k.counts, bool):
            raise ValueError(f"line {s.index}: a keyword whose counting cannot be")
    return s

"""A stretch's results as plain data, for the way back from a worker process.

Tuples, strings and numbers pickle without a call into Python for each object: several times
faster than sending the result objects themselves. Each keyword's unmatched result is sent once
for all systems, and only the matches of each system beside it. The same data is what a shard
holds, as JSON (``--shards``): :func:`unpack` takes it back with its tuples as lists.
"""

from __future__ import annotations

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
        # a line's fields, as pack wrote them: its index, its LINE_FIELDS, the matches of its keywords
        # and the places refused to them
        for row, (index, *rest) in zip(missed, lines):
            counts, matches = rest[: len(LINE_FIELDS)], rest[len(LINE_FIELDS)]
            refused = rest[len(LINE_FIELDS) + 1] if len(rest) > len(LINE_FIELDS) + 1 else ()  # not in older shards
            found = list(row)
            for i, matched, how, span, confidence in matches:
                found[i] = row[i].matched_as(matched, how, tuple(span), confidence)
            for i, refusals in refused:
                found[i] = found[i]._replace(refused=tuple(Refusal(*r) for r in refusals))
            counts[_ADDED] = tuple(map(tuple, counts[_ADDED]))
            out.append(SentenceResult(index, tuple(found), *counts))
        results[name] = out
    return results, messages

"""Per-line records: what became of each keyword of a line, and the line's statistics.

A :class:`SentenceResult` is one output line scored: its keywords' results (or only their
counts, to save memory) and the counts the corpus scores are built from
(:mod:`ktr.scoring.formula`). Worker processes send them back as plain data
(:mod:`ktr.scoring.transport`), in the order of :data:`LINE_FIELDS`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from typing import Any, NamedTuple

from ktr.korean.keywords import Keyword
from ktr.matching.tracing import NOTHING_TRACED, Trace
from ktr.scoring.formula import Aggregation, LineFigures, line_figures

#: any aggregation: a line's KTR, class-weighted KTR and precision do not depend on it (its F does)
_ANY = Aggregation()


class KeywordResult(NamedTuple):
    """One keyword of one sentence and what became of it (a named tuple: a corpus has many, and
    worker processes send them back to the parent, see :mod:`ktr.scoring.transport`)."""

    keyword: Keyword
    equivalents: tuple[str, ...]
    synonyms: tuple[str, ...]
    in_lexicon: bool
    entry: str | None  # lexicon entry used ("유명하다/adjective"), None for digits/missing
    lookup: str | None  # how the entry was found: entry, other-class, derived, digits
    matched: str | None  # the equivalent found in the output
    how: str | None  # the matching stage that found it
    span: tuple[int, int] | None  # output token span of the match
    tried: tuple[str, ...] = ()  # other targets: "number 3", "month 3", "sound keullinteon"
    confidence: float | None = None  # of a stage that weighs evidence (semantic), else None
    #: whether the keyword counts in its line's score (the missing-in-lexicon policy): always
    #: (True), never (False: no entry, excluded), or only when transferred (None: no entry, but a
    #: number or a name that may still transfer)
    counts: bool | None = True

    @property
    def transferred(self) -> bool:
        return self.matched is not None

    @property
    def counted(self) -> bool:
        """The keyword counts in its line's score (:attr:`counts`, as the line's counts do)."""
        return self.transferred if self.counts is None else self.counts

    def matched_as(
        self, matched: str, how: str, span: tuple[int, int], confidence: float | None = None
    ) -> KeywordResult:
        """This (unmatched) keyword's result once ``matched`` was found at output ``span`` by
        stage ``how`` (with its ``confidence``, if it weighs evidence)."""
        return KeywordResult(
            self.keyword,
            self.equivalents,
            self.synonyms,
            self.in_lexicon,
            self.entry,
            self.lookup,
            matched,
            how,
            span,
            self.tried,
            confidence,
            self.counts,
        )

    def to_dict(self) -> dict[str, Any]:
        k = self.keyword
        return {
            "lemma": k.lemma,
            "tag": k.tag,
            "class": k.cls,
            "start": k.start,
            "end": k.end,
            "equivalents": list(self.equivalents),
            "synonyms": list(self.synonyms),
            "in_lexicon": self.in_lexicon,
            "entry": self.entry,
            "lookup": self.lookup,
            "matched": self.matched,
            "how": self.how,
            "token_span": list(self.span) if self.span else None,
            "also_tried": list(self.tried),
            **({"confidence": round(self.confidence, 4)} if self.confidence is not None else {}),
        }


@dataclass(frozen=True, slots=True)
class SentenceResult:
    """One output line: its keywords and the statistics the corpus score is built from."""

    index: int
    keywords: tuple[KeywordResult, ...]
    counted: int  # keywords in the denominator (depends on the missing-in-lexicon policy)
    transferred: int
    weight: float = 0.0  # class weights of the counted keywords, summed
    weight_transferred: float = 0.0  # ... of the transferred ones
    failed: str | None = None  # why the source line could not be analysed; then no score
    empty_hypothesis: bool = False  # the output line is empty or only whitespace
    #: keywords of the line and how many have no lexicon entry, kept when ``keywords`` is left
    #: empty to save memory (a summary needs only the counts); None: count ``keywords``
    size: int | None = None
    not_in_lexicon: int | None = None
    #: the output's content words, those traced to the source, and the added ones (token index,
    #: token) when keywords' results are kept (:mod:`ktr.matching.tracing`)
    content: int = 0
    traced: int = 0
    added: tuple[tuple[int, str], ...] = ()

    @property
    def keyword_count(self) -> int:
        return len(self.keywords) if self.size is None else self.size

    def figures(self, averaging: Aggregation) -> LineFigures:
        """The line's KTR, class-weighted KTR, precision and F under ``how``
        (:func:`ktr.scoring.formula.line_figures`: the one place they are decided)."""
        return line_figures(self, averaging)

    @property
    def score(self) -> float | None:
        """transferred / counted; ``None`` when no keyword counts or the line failed."""
        return line_figures(self, _ANY).score

    @property
    def precision(self) -> float | None:
        """Traced / content words of the output; ``None`` when it has none or the line failed."""
        return line_figures(self, _ANY).precision

    @property
    def weighted_score(self) -> float | None:
        """Transferred / counted keywords, each weighted by its class; ``None`` without keywords
        (or when every counted keyword weighs 0)."""
        return line_figures(self, _ANY).weighted_score

    @property
    def missing(self) -> int:
        if self.not_in_lexicon is not None:
            return self.not_in_lexicon
        return sum(not k.in_lexicon for k in self.keywords)

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "score": self.score,
            "weighted_score": self.weighted_score,
            "keywords_counted": self.counted,
            "transferred": self.transferred,
            "keywords": [k.to_dict() for k in self.keywords],
            "precision": self.precision,
            "content_words": self.content,
            "traced": self.traced,
            "added": [{"word": word, "token": i} for i, word in self.added],
            "failed": self.failed,
        }


class LineCounts(NamedTuple):
    """What a line's statistics need of its keywords, whatever the output: the weight of each
    keyword that counts (None for one that does not), and the line's totals. Keywords in
    ``if_matched`` (no entry, under ``missing_in_lexicon: exclude``) count only when matched."""

    weights: tuple[float | None, ...]
    counted: int
    weight: float
    size: int
    not_in_lexicon: int
    if_matched: frozenset[int] = frozenset()


def line_counts(
    weights: tuple[float | None, ...], not_in_lexicon: int, if_matched: frozenset[int] = frozenset()
) -> LineCounts:
    """A line's :class:`LineCounts` from each keyword's weight (None: it does not count; in
    ``if_matched``: it counts only when the output transfers it)."""
    counted = [w for k, w in enumerate(weights) if w is not None and k not in if_matched]
    return LineCounts(weights, len(counted), sum(counted), len(weights), not_in_lexicon, if_matched)


def sentence_result(
    index: int,
    counts: LineCounts,
    transferred: Iterable[int],
    results: tuple[KeywordResult, ...] = (),
    traced: Trace = NOTHING_TRACED,
    tokens: Sequence[str] = (),
) -> SentenceResult:
    """A line's result from its counts, the indexes of its transferred keywords and the trace of
    its output; ``results`` (its keywords' results) and ``tokens`` (the output's, to name the
    added words) may be left empty to save memory."""
    weights = counts.weights
    hits = [(k, w) for k in sorted(transferred) if (w := weights[k]) is not None]
    found = [w for _, w in hits]
    late = [w for k, w in hits if k in counts.if_matched]  # counted because they transferred
    added = tuple((i, tokens[i]) for i in traced.added) if tokens else ()
    return SentenceResult(
        index,
        results,
        counts.counted + len(late),
        len(found),
        counts.weight + sum(late),
        sum(found),
        size=counts.size,
        not_in_lexicon=counts.not_in_lexicon,
        content=traced.content,
        traced=traced.traced,
        added=added,
    )


#: a line's fields after its index and keywords, in :class:`SentenceResult`'s order: what a
#: worker sends back of each line (:mod:`ktr.scoring.transport`)
LINE_FIELDS = tuple(f.name for f in fields(SentenceResult))[2:]

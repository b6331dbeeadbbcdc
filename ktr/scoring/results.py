"""Results: per-sentence statistics, corpus aggregation, the signature and the report.

Statistics first, scores last: each sentence yields ``(counted, transferred)`` once; macro and
micro averages (and later bootstrap resampling) are computed from those numbers in one place.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from ktr.korean.keywords import Keyword
from ktr.matching.tracing import NOTHING_TRACED, Trace, f_beta
from ktr.scoring.totals import PerLine, Totals, macro, micro  # noqa: F401 (macro, micro: ktr's API here)

if TYPE_CHECKING:
    from ktr.scoring.frames import Frames
    from ktr.scoring.reference import ReferenceScores
    from ktr.scoring.significance import Estimate


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

    @property
    def transferred(self) -> bool:
        return self.matched is not None

    def matched_as(self, matched: str, how: str, span: tuple[int, int]) -> KeywordResult:
        """This (unmatched) keyword's result once ``matched`` was found at output ``span`` by
        stage ``how``."""
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

    @property
    def score(self) -> float | None:
        """transferred / counted; ``None`` when no keyword counts or the line failed."""
        return self.transferred / self.counted if self.counted and not self.failed else None

    @property
    def precision(self) -> float | None:
        """Traced / content words of the output; ``None`` when it has none or the line failed."""
        return self.traced / self.content if self.content and not self.failed else None

    def f(self, beta: float, weighted: bool = False) -> float | None:
        """F-beta of the sentence's KTR (class-weighted with ``weighted``) and its precision."""
        return f_beta(self.weighted_score if weighted else self.score, self.precision, beta)

    @property
    def weighted_score(self) -> float | None:
        """Transferred / counted keywords, each weighted by its class; ``None`` without keywords
        (or when every counted keyword weighs 0)."""
        return self.weight_transferred / self.weight if self.weight and not self.failed else None

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


@dataclass
class SystemResult:
    """The corpus-level result of one system (one hypothesis file): its figures are computed
    from its sentences, or come from ``totals`` where the sentences were not kept (then
    ``sentences`` is empty, and ``per_line`` holds what a bootstrap needs, if it was asked for)."""

    name: str
    sentences: list[SentenceResult]
    aggregation: str
    no_keywords: str
    bleu: float | None = None
    chrf: float | None = None
    beta: float = 0.5  # of the F score (Config.f_beta, whose default this is)
    totals: Totals | None = None
    per_line: PerLine | None = None

    def figures(self) -> Totals:
        """The corpus figures: the totals kept, or those of the sentences."""
        if self.totals is not None:
            return self.totals
        return Totals.of(self.sentences, self.aggregation, self.no_keywords, self.beta)

    def lines(self) -> PerLine:
        """Each line's counts for a bootstrap: those kept, or those of the sentences."""
        if self.per_line is not None:
            return self.per_line
        if self.totals is not None:
            raise ValueError(f"{self.name}: each line's counts were not kept (score with statistics=True)")
        return PerLine.of(self.sentences, self.aggregation == "weighted")

    @property
    def stats(self) -> list[tuple[int, int]]:
        """(counted, transferred) of every sentence that was analysed (failed ones have no score)."""
        return [(s.counted, s.transferred) for s in self.sentences if s.failed is None]

    @property
    def ktr_macro(self) -> float | None:
        return self.figures().macro.value

    @property
    def ktr_micro(self) -> float | None:
        return self.figures().ktr_micro

    @property
    def ktr_weighted(self) -> float | None:
        """Mean of the class-weighted sentence scores (no_keywords policy as for macro)."""
        return self.figures().weighted.value

    @property
    def ktr(self) -> float | None:
        """KTR by the configured aggregation."""
        value: float | None = getattr(self, f"ktr_{self.aggregation}")  # one of the three above
        return value

    @property
    def precision_macro(self) -> float | None:
        """Mean of the sentence precisions (sentences whose output has content words)."""
        return self.figures().precision.value

    @property
    def precision_micro(self) -> float | None:
        """All traced / all content words of the output."""
        return self.figures().precision_micro

    @property
    def precision(self) -> float | None:
        """Precision by the configured aggregation (weighted: as macro; words have no class)."""
        return self.precision_micro if self.aggregation == "micro" else self.precision_macro

    @property
    def f(self) -> float | None:
        """F-beta of KTR and precision: with micro aggregation of the corpus figures, else the mean
        of the sentences' F (weighted: of their class-weighted KTR)."""
        return self.figures().f_score

    def summary(self) -> dict[str, Any]:
        t = self.figures()
        ktr = {"macro": t.macro.value, "micro": t.ktr_micro, "weighted": t.weighted.value}
        return {
            "name": self.name,
            "ktr": ktr[self.aggregation],
            "ktr_macro": ktr["macro"],
            "ktr_micro": ktr["micro"],
            "ktr_weighted": ktr["weighted"],
            "sentences": t.sentences,
            "sentences_scored": t.scored,
            "sentences_without_keywords": t.without_keywords,
            "sentences_failed": t.failed,
            "hypotheses_empty": t.empty,
            "keywords": t.keywords,
            "keywords_counted": t.counted,
            "transferred": t.transferred,
            "keywords_not_in_lexicon": t.not_in_lexicon,
            "precision": t.precision_micro if self.aggregation == "micro" else t.precision.value,
            "precision_micro": t.precision_micro,
            "f": t.f_score,
            "f_beta": self.beta,
            "content_words": t.content,
            "traced": t.traced,
            "added": t.added,
            "bleu": self.bleu,
            "chrf": self.chrf,
        }


@dataclass(frozen=True)
class Signature:
    """Everything needed to reproduce a score (sacreBLEU-style), in a full and a short form."""

    ktr_version: str
    analyzer: str
    analyzer_version: str
    tagset: str
    lexicons: tuple[str, ...]
    lexicon_hash: str
    classes: tuple[str, ...]
    matching: tuple[str, ...]
    aggregation: str
    no_keywords: str
    missing_in_lexicon: str
    extra: dict[str, str] = field(default_factory=dict)

    def full(self) -> dict[str, Any]:
        return {
            "ktr": self.ktr_version,
            "analyzer": self.analyzer,
            "analyzer_version": self.analyzer_version,
            "tagset": self.tagset,
            "lexicons": list(self.lexicons),
            "lexicon_hash": self.lexicon_hash,
            "classes": list(self.classes),
            "matching": list(self.matching),
            "aggregation": self.aggregation,
            "no_keywords": self.no_keywords,
            "missing_in_lexicon": self.missing_in_lexicon,
            **self.extra,
        }

    def short(self) -> str:
        parts = [
            f"ktr:{self.ktr_version}",
            f"ana:{self.analyzer}@{self.analyzer_version}",
            f"lex:{'+'.join(self.lexicons)}@{self.lexicon_hash[:10]}",
            f"cls:{','.join(self.classes)}",
            f"match:{','.join(self.matching)}",
            f"avg:{self.aggregation}",
            f"nokw:{self.no_keywords}",
            f"oov:{self.missing_in_lexicon}",
        ]
        parts += [f"{k}:{v}" for k, v in self.extra.items()]
        return "|".join(parts)


@dataclass
class Report:
    """Results of scoring one or more systems on one source."""

    signature: Signature
    systems: list[SystemResult]
    sacrebleu: dict[str, str] | None = None
    #: bootstrap estimates per metric, one per system (``ktr score --confidence/--paired-bs``)
    estimates: dict[str, list[Estimate]] | None = None
    warnings: list[str] = field(default_factory=list)  # changed or failed source lines, file:line first
    warnings_not_kept: int = 0  # the warnings after the first KEPT_WARNINGS (ktr.scoring.totals)
    #: BLEU and chrF as scored, with each sentence's statistics if kept (``statistics=True``)
    references: ReferenceScores | None = None
    headline: str = "ktr"  # the score tables lead with (Config.headline)

    def to_pandas(self) -> Frames:
        """Two pandas DataFrames, ``sentences`` (a row per system and sentence) and ``systems`` (a
        row per system, the fields of ``to_dict()``), the signature in their ``attrs``; needs
        pandas (``pip install 'ktr[pandas]'``)."""
        from ktr.scoring.frames import to_pandas

        return to_pandas(self)

    def _repr_html_(self) -> str:
        """A notebook shows the systems table and the signature."""
        from ktr.scoring.frames import as_html

        return as_html(self)

    def to_dict(self, sentences: bool = False) -> dict[str, Any]:
        systems = []
        for i, s in enumerate(self.systems):
            d = s.summary()
            for metric, found in (self.estimates or {}).items():
                d.update(found[i].fields(metric))
            if sentences:
                d["segments"] = [seg.to_dict() for seg in s.sentences]
            systems.append(d)
        return {
            "signature": {"short": self.signature.short(), "full": self.signature.full()},
            "sacrebleu": self.sacrebleu,
            "headline": self.headline,
            "systems": systems,
            "warnings": self.warnings,
            **({"warnings_not_kept": self.warnings_not_kept} if self.warnings_not_kept else {}),
        }

"""Corpus results: a system's figures summed line by line, the system's result, and the report.

:class:`Totals` takes each line's :class:`~ktr.scoring.sentences.SentenceResult` in line order
and keeps only counts and the sums of the lines' statistics (:mod:`ktr.scoring.formula`), so a
corpus need not be held to be scored: every figure of a system's summary comes out of it, the
same to the last bit as from the list of sentences, since the sums are taken in the same order.
A :class:`SystemResult` computes its figures this way from its sentences, or holds the totals of
a run that kept none. :class:`PerLine` is what a bootstrap resamples when the sentences are not
kept: each line's counts in arrays of numbers instead of objects (17 bytes a line per system; 33
with the weighted aggregation, whose class weights are 8-byte floats).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from operator import add
from typing import Any, cast

from ktr.scoring.formula import STATISTICS, Aggregation, Scores, line_statistics, scores
from ktr.scoring.layout import Frames, as_html, frames, sentence_rows
from ktr.scoring.sentences import SentenceResult
from ktr.scoring.signature import Signature


class Totals:
    """A system's corpus figures, from its lines' results added in line order (:meth:`add`): the
    counts of its summary, and the sums of the lines' statistics."""

    def __init__(self, averaging: Aggregation):
        self.averaging = averaging
        self.sentences = self.scored = self.without_keywords = self.failed = self.empty = 0
        self.keywords = self.counted = self.transferred = self.not_in_lexicon = 0
        self.content = self.traced = self.added = 0
        self.sums: list[float] = [0] * len(STATISTICS)

    @classmethod
    def of(cls, sentences: Iterable[SentenceResult], averaging: Aggregation) -> Totals:
        totals = cls(averaging)
        for s in sentences:
            totals.add(s)
        return totals

    def add(self, s: SentenceResult) -> None:
        """The next line's result."""
        size = s.keyword_count
        self.sentences += 1
        self.scored += bool(s.counted)
        self.without_keywords += not size and not s.failed
        self.failed += bool(s.failed)
        self.empty += s.empty_hypothesis
        self.keywords += size
        self.counted += s.counted
        self.transferred += s.transferred
        self.not_in_lexicon += s.missing
        self.content += s.content
        self.traced += s.traced
        self.added += s.content - s.traced
        self.sums = list(map(add, self.sums, line_statistics(s, self.averaging)))

    def scores(self) -> Scores:
        """The corpus scores (:func:`ktr.scoring.formula.scores` of the sums)."""
        return scores(dict(zip(STATISTICS, self.sums)), self.averaging)


class PerLine:
    """Each line's counts for a bootstrap (:mod:`ktr.scoring.significance`) when the sentences
    are not kept, in arrays: the keywords counted and transferred, the output's content words
    and those traced, the class weights of both with the weighted aggregation, and whether the
    line failed."""

    def __init__(self, weighted: bool):
        self.weighted = weighted
        self.columns: dict[str, array[Any]] = {n: array("i") for n in ("counted", "transferred", "content", "traced")}
        if weighted:
            self.columns.update(weight=array("d"), weight_transferred=array("d"))
        self.failed = bytearray()

    @classmethod
    def of(cls, sentences: Iterable[SentenceResult], weighted: bool) -> PerLine:
        lines = cls(weighted)
        for s in sentences:
            lines.add(s)
        return lines

    def add(self, s: SentenceResult) -> None:
        for name, column in self.columns.items():
            column.append(getattr(s, name))
        self.failed.append(s.failed is not None)

    def __len__(self) -> int:
        return len(self.failed)

    def __iter__(self) -> Iterator[SentenceResult]:
        """Each line's counts as a result without keywords: what the formula reads of a line."""
        names = [n for n in ("counted", "transferred", "content", "traced", "weight", "weight_transferred")]
        columns = [self.columns.get(n) or [0.0] * len(self) for n in names]
        for i, (counted, transferred, content, traced, weight, weight_transferred) in enumerate(zip(*columns)):
            failed = "failed" if self.failed[i] else None
            yield SentenceResult(
                i, (), counted, transferred, weight, weight_transferred, failed, content=content, traced=traced
            )


def _figure(name: str, doc: str) -> property:
    """A corpus figure of a :class:`SystemResult`, read from its :meth:`~SystemResult.scores`."""

    def get(self: SystemResult) -> float | None:
        return cast("float | None", getattr(self.scores(), name))

    return property(get, doc=doc)


@dataclass
class SystemResult:
    """The corpus-level result of one system (one hypothesis file): its figures are computed
    from its sentences, or come from ``totals`` where the sentences were not kept (then
    ``sentences`` is empty, and ``per_line`` holds what a bootstrap needs, if it was asked for)."""

    name: str
    sentences: list[SentenceResult]
    averaging: Aggregation = field(default_factory=Aggregation)
    bleu: float | None = None
    chrf: float | None = None
    totals: Totals | None = None
    per_line: PerLine | None = None

    @property
    def aggregation(self) -> str:
        return self.averaging.aggregation

    @property
    def no_keywords(self) -> str:
        return self.averaging.no_keywords

    @property
    def beta(self) -> float:
        """Of the F score (Config.f_beta)."""
        return self.averaging.beta

    def figures(self) -> Totals:
        """The corpus figures: the totals kept, or those of the sentences."""
        if self.totals is not None:
            return self.totals
        return Totals.of(self.sentences, self.averaging)

    def scores(self) -> Scores:
        return self.figures().scores()

    def lines(self) -> Sequence[SentenceResult] | PerLine:
        """Each line's counts for a bootstrap: the sentences, or the counts kept of them."""
        if self.per_line is not None:
            return self.per_line
        if self.totals is not None:
            raise ValueError(f"{self.name}: each line's counts were not kept (score with statistics=True)")
        return self.sentences

    ktr_macro = _figure("ktr_macro", "Mean of the sentence scores (the paper's KTR).")
    ktr_micro = _figure("ktr_micro", "All transferred / all counted keywords.")
    ktr_weighted = _figure(
        "ktr_weighted", "Mean of the class-weighted sentence scores (no_keywords policy as for macro)."
    )
    ktr = _figure("ktr", "KTR by the configured aggregation.")
    precision_macro = _figure("precision_macro", "Mean of the sentence precisions (outputs with content words).")
    precision_micro = _figure("precision_micro", "All traced / all content words of the output.")
    precision = _figure("precision", "Precision by the configured aggregation (weighted: as macro).")
    f = _figure(
        "f",
        "F-beta of KTR and precision: with micro aggregation of the corpus figures, else the mean of "
        "the sentences' F (weighted: of their class-weighted KTR).",
    )

    def summary(self) -> dict[str, Any]:
        t = self.figures()
        s = t.scores()
        return {
            "name": self.name,
            "ktr": s.ktr,
            "ktr_macro": s.ktr_macro,
            "ktr_micro": s.ktr_micro,
            "ktr_weighted": s.ktr_weighted,
            "sentences": t.sentences,
            "sentences_scored": t.scored,
            "sentences_without_keywords": t.without_keywords,
            "sentences_failed": t.failed,
            "hypotheses_empty": t.empty,
            "keywords": t.keywords,
            "keywords_counted": t.counted,
            "transferred": t.transferred,
            "keywords_not_in_lexicon": t.not_in_lexicon,
            "precision": s.precision,
            "precision_micro": s.precision_micro,
            "f": s.f,
            "f_beta": self.beta,
            "content_words": t.content,
            "traced": t.traced,
            "added": t.added,
            "bleu": self.bleu,
            "chrf": self.chrf,
        }


@dataclass(frozen=True)
class Estimate:
    """A corpus score with its bootstrap interval and, against a baseline, its p-value
    (:mod:`ktr.scoring.significance`)."""

    score: float | None
    ci: tuple[float, float] | None = None
    p_value: float | None = None

    def fields(self, metric: str) -> dict[str, list[float] | float | None]:
        """``{metric}_ci`` and ``{metric}_p``, as the JSON reports carry them beside the score."""
        return {f"{metric}_ci": list(self.ci) if self.ci else None, f"{metric}_p": self.p_value}


@dataclass
class Report:
    """Results of scoring one or more systems on one source."""

    signature: Signature
    systems: list[SystemResult]
    sacrebleu: dict[str, str] | None = None
    #: bootstrap estimates per metric, one per system (``ktr score --confidence/--paired-bs``)
    estimates: dict[str, list[Estimate]] | None = None
    warnings: list[str] = field(default_factory=list)  # cleaned or failed lines, file:line first
    warnings_not_kept: int = 0  # the warnings after the first kept ones (ktr.scoring.scorer.KEPT_WARNINGS)
    #: BLEU and chrF as scored, with each sentence's statistics if kept (``statistics=True``);
    #: a :class:`~ktr.scoring.reference.ReferenceScores`
    references: Any = None
    headline: str = "ktr"  # the score tables lead with (Config.headline)

    def to_pandas(self) -> Frames:
        """Two pandas DataFrames, ``sentences`` (a row per system and sentence) and ``systems`` (a
        row per system, the fields of ``to_dict()``), the signature in their ``attrs``; needs
        pandas (``pip install 'ktr[pandas]'``)."""
        rows = [row for s in self.systems for row in sentence_rows(s.name, s.averaging, s.sentences)]
        return frames(rows, self.to_dict()["systems"], self.signature.short())

    def _repr_html_(self) -> str:
        """A notebook shows the systems table and the signature."""
        sentences = self.systems[0].figures().sentences if self.systems else 0
        return as_html([s.summary() for s in self.systems], self.headline, sentences, self.signature.short())

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
            "signature": {
                "short": self.signature.short(),
                "full": self.signature.full(),
                "brief": self.signature.brief(),
            },
            "sacrebleu": self.sacrebleu,
            "headline": self.headline,
            "systems": systems,
            "warnings": self.warnings,
            **({"warnings_not_kept": self.warnings_not_kept} if self.warnings_not_kept else {}),
        }

"""``KTR``, the metric object, in the manner of sacreBLEU's metrics::

    from ktr import KTR
    ktr = KTR()                                           # or KTR(Config(analyzer="mecab"))
    ktr.sentence_score("나는 사과를 먹었다.", "I ate an apple.").score     # 1.0
    result = ktr.corpus_score(sources, hypotheses, references=[refs])
    print(result.format())                                # KTR = 0.8140 ... BLEU = 32.74 ...
    print(ktr.signature().short())

It is built from a :class:`~ktr.config.Config`: the analyzer and the tables (the prepared
:class:`~ktr.scoring.pipeline.Pipeline`) once, and its options of aggregation
(:class:`~ktr.scoring.formula.Aggregation`). A line's statistics are its counts
(:class:`~ktr.scoring.sentences.SentenceResult`); :meth:`KTR.score_from` turns statistics summed
over lines into scores with the one formula (:mod:`ktr.scoring.formula`), and
:meth:`KTR.signature` is derived from the metric's own state. :class:`~ktr.scoring.scorer.Scorer`
drives it over many systems and files, on any engine.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from ktr.config import Config
from ktr.errors import InputWarning
from ktr.execution.unit import Stretch
from ktr.korean.analyzers import Analyzer
from ktr.korean.analyzers.process import build_analyzer
from ktr.lexicon import Lexicon
from ktr.matching.registry import STAGES
from ktr.matching.stage import stage_class
from ktr.matching.tracing import RULES as TRACING
from ktr.scoring.corpus import SystemResult, Totals
from ktr.scoring.formula import Aggregation, Scores
from ktr.scoring.layout import num
from ktr.scoring.lines import checked
from ktr.scoring.pipeline import Pipeline
from ktr.scoring.preflight import check
from ktr.scoring.reference import ReferenceScores
from ktr.scoring.sentences import KeywordResult, SentenceResult
from ktr.scoring.signature import Signature
from ktr.version import __version__

if TYPE_CHECKING:
    from ktr.scoring.resampling import Resampling


@dataclass(frozen=True)
class SentenceScore:
    """One output line's score: KTR (``score``), precision and F, the counts they come from, and
    what became of each keyword."""

    score: float | None  # transferred / counted; None without counted keywords
    precision: float | None
    f: float | None
    counted: int
    transferred: int
    keywords: tuple[KeywordResult, ...]
    added: tuple[str, ...]  # the output's content words not traced to the source

    def __str__(self) -> str:
        return self.format()

    def format(self) -> str:
        """One line, sacreBLEU's way: the scores, then the keywords missed and the words added."""
        missed = " ".join(f"{k.keyword.lemma}/{k.keyword.tag}" for k in self.keywords if not k.transferred)
        text = (
            f"KTR = {num(self.score)} ({self.transferred}/{self.counted} keywords)  "
            f"prec = {num(self.precision)}  F = {num(self.f)}"
        )
        return (
            text
            + (f"  missed: {missed}" if missed else "")
            + (f"  added: {' '.join(self.added)}" if self.added else "")
        )


@dataclass(frozen=True)
class CorpusScore:
    """A corpus's score: a view of the system's result, whose figures are declared once
    (:class:`~ktr.scoring.corpus.SystemResult` and its :meth:`~ktr.scoring.corpus.SystemResult.summary`),
    with the signature (short form). ``score`` is the headline KTR, by the aggregation."""

    system: SystemResult
    signature: str

    @property
    def score(self) -> float | None:
        return cast("float | None", self.system.ktr)

    @property
    def precision(self) -> float | None:
        return cast("float | None", self.system.precision)

    @property
    def f(self) -> float | None:
        return cast("float | None", self.system.f)

    @property
    def ktr_macro(self) -> float | None:
        return cast("float | None", self.system.ktr_macro)

    @property
    def ktr_micro(self) -> float | None:
        return cast("float | None", self.system.ktr_micro)

    @property
    def ktr_weighted(self) -> float | None:
        return cast("float | None", self.system.ktr_weighted)

    @property
    def aggregation(self) -> str:
        return self.system.aggregation

    @property
    def sentences(self) -> int:
        return self.system.figures().sentences

    @property
    def keywords(self) -> int:
        return self.system.figures().keywords

    @property
    def counted(self) -> int:
        return self.system.figures().counted

    @property
    def transferred(self) -> int:
        return self.system.figures().transferred

    @property
    def bleu(self) -> float | None:
        return self.system.bleu

    @property
    def chrf(self) -> float | None:
        return self.system.chrf

    def to_dict(self) -> dict[str, Any]:
        """The system's summary (the JSON report's fields) and the signature."""
        return {**self.system.summary(), "signature": self.signature}

    def __str__(self) -> str:
        """One line, sacreBLEU's way: ``KTR = 0.8140 (macro)  prec = ...  F = ...  69/85
        keywords, 20 sentences``, BLEU and chrF when scored; the signature is :attr:`signature`."""
        text = (
            f"KTR = {num(self.score)} ({self.aggregation})  prec = {num(self.precision)}  F = {num(self.f)}  "
            f"{self.transferred}/{self.counted} keywords, {self.sentences} sentences"
        )
        if self.bleu is not None:
            text += f"  BLEU = {self.bleu:.2f}  chrF = {num(self.chrf, 2)}"
        return text

    def format(self) -> str:
        """:meth:`__str__`, then the signature."""
        return f"{self}  {self.signature}"


class KTR:
    """Keyword transfer rate, the metric: built once from a config, then scores sentences and
    corpora. ``analyzer`` and ``lexicon`` replace what the config would build; ``threads`` are
    the analyzer's own analysis threads (Kiwi)."""

    def __init__(
        self,
        config: Config | None = None,
        *,
        analyzer: Analyzer | None = None,
        lexicon: Lexicon | None = None,
        threads: int = 1,
    ):
        self.config = config = config or Config()
        check(config, analyzer=analyzer is None)
        self.averaging = Aggregation(config.aggregation, config.no_keywords, config.f_beta)
        self.pipeline = Pipeline(config, analyzer or build_analyzer(config.analyzer, config.timeout, threads), lexicon)

    # -- sacreBLEU's interface ----------------------------------------------------------------

    def sentence_score(self, source: str, hypothesis: str) -> SentenceScore:
        """The score of one output line against its Korean source."""
        (line,) = self.score_lines([source], [hypothesis])
        score, weighted, precision, f = line.figures(self.averaging)
        if self.averaging.weighted:
            score = weighted
        added = tuple(word for _, word in line.added)
        return SentenceScore(score, precision, f, line.counted, line.transferred, line.keywords, added)

    def corpus_score(
        self, sources: Sequence[str], hypotheses: Sequence[str], references: Sequence[Sequence[str]] | None = None
    ) -> CorpusScore:
        """The score of a system's output lines against their sources (and BLEU and chrF against
        ``references``, a list of reference streams, when given)."""
        sources, outputs, refs = checked(sources, {"hypotheses": hypotheses}, references, "sources")
        hypotheses = outputs["hypotheses"]
        totals = self.statistics(self.score_lines(sources, hypotheses))
        system = SystemResult("system", [], self.averaging, totals=totals)
        if refs:
            metrics = ReferenceScores()
            metrics.add("system", hypotheses, refs)
            found = metrics.scores("system")
            system.bleu, system.chrf = found["bleu"][0], found["chrf"][0]
        return CorpusScore(system, self.signature().short())

    def signature(self, resampling: Resampling | None = None) -> Signature:
        """Everything that decides this metric's scores (and a bootstrap's resamples and seed)."""
        c, p = self.config, self.pipeline
        return Signature(
            ktr_version=__version__,
            analyzer=p.analyzer.name,
            analyzer_version=p.analyzer.version,
            tagset=p.table.name,
            lexicons=c.lexicons,
            lexicon_hash=p.lexicon.digest,
            classes=c.classes,
            matching=c.matching,
            aggregation=c.aggregation,
            no_keywords=c.no_keywords,
            missing_in_lexicon=c.missing_in_lexicon,
            extra=self._signature_extra(),
            resamples=resampling.resamples if resampling and resampling.intervals else None,
            seed=resampling.seed if resampling else None,
            trials=resampling.trials if resampling else None,
        )

    def _signature_extra(self) -> dict[str, str]:
        c, p = self.config, self.pipeline
        extra = {}
        for name in STAGES:  # each stage on says what decides its matches, in the registry's order
            if name in c.matching:
                extra.update(stage_class(name).fragment(c.options, p.tables.get(name)))
        extra["f"] = f"b{c.f_beta:g}/tr{TRACING}"
        if c.aggregation == "weighted":
            extra["w"] = ",".join(f"{k}={w:g}" for k, w in sorted(c.class_weights.items()))
        return extra

    # -- statistics first, scores last -------------------------------------------------------

    def score_lines(self, sources: Sequence[str], hypotheses: Sequence[str]) -> list[SentenceResult]:
        """Each output line's result (its statistics and its keywords'); input warnings (lines
        changed or not analysed; an output line is named ``hypothesis``) go out through
        :mod:`warnings` (category InputWarning)."""
        sources, outputs, _ = checked(sources, {"hypotheses": hypotheses}, None, "sources")
        hypotheses = outputs["hypotheses"]
        found, messages = self.pipeline.score_stretch(Stretch(0, sources, {"hypothesis": hypotheses}))
        for message in messages:
            warnings.warn(message, InputWarning, stacklevel=3)
        return found["hypothesis"]

    def statistics(self, lines: Iterable[SentenceResult]) -> Totals:
        """Lines' statistics summed, in line order."""
        return Totals.of(lines, self.averaging)

    def score_from(self, totals: Totals) -> Scores:
        """The scores of summed statistics (:func:`ktr.scoring.formula.scores`)."""
        return totals.scores()

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
from typing import TYPE_CHECKING

from ktr import __version__
from ktr.config import Config
from ktr.errors import InputError, InputWarning
from ktr.korean.analyzers import Analyzer
from ktr.korean.analyzers.process import build_analyzer
from ktr.lexicon import Lexicon
from ktr.matching.tracing import RULES as TRACING
from ktr.scoring.corpus import Totals
from ktr.scoring.formula import Aggregation, Scores
from ktr.scoring.layout import num
from ktr.scoring.pipeline import Pipeline, output_warnings
from ktr.scoring.preflight import check
from ktr.scoring.reference import ReferenceScores
from ktr.scoring.sentences import KeywordResult, SentenceResult
from ktr.scoring.signature import Signature

if TYPE_CHECKING:
    from ktr.scoring.significance import Resampling


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
    """A corpus's score: the headline KTR (``score``, by the aggregation), precision and F, the
    other aggregations, the counts, BLEU and chrF with references, and the signature."""

    score: float | None
    precision: float | None
    f: float | None
    ktr_macro: float | None
    ktr_micro: float | None
    ktr_weighted: float | None
    aggregation: str
    sentences: int
    keywords: int
    counted: int
    transferred: int
    signature: str
    bleu: float | None = None
    chrf: float | None = None

    def format(self) -> str:
        """One line: ``KTR = 0.8140 (macro)  prec = ...  F = ...  69/85 keywords, 20 sentences``,
        BLEU and chrF when scored, then the signature."""
        text = (
            f"KTR = {num(self.score)} ({self.aggregation})  prec = {num(self.precision)}  F = {num(self.f)}  "
            f"{self.transferred}/{self.counted} keywords, {self.sentences} sentences"
        )
        if self.bleu is not None:
            text += f"  BLEU = {self.bleu:.2f}  chrF = {num(self.chrf, 2)}"
        return f"{text}  {self.signature}"


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
        self.how = Aggregation(config.aggregation, config.no_keywords, config.f_beta)
        self.pipeline = Pipeline(config, analyzer or build_analyzer(config.analyzer, config.timeout, threads), lexicon)

    # -- sacreBLEU's interface ----------------------------------------------------------------

    def sentence_score(self, source: str, hypothesis: str) -> SentenceScore:
        """The score of one output line against its Korean source."""
        (line,) = self.score_lines([source], [hypothesis])
        score, precision, f = line.score, line.precision, line.f(self.how.beta, self.how.weighted)
        if self.how.weighted:
            score = line.weighted_score
        added = tuple(word for _, word in line.added)
        return SentenceScore(score, precision, f, line.counted, line.transferred, line.keywords, added)

    def corpus_score(
        self, sources: Sequence[str], hypotheses: Sequence[str], references: Sequence[Sequence[str]] | None = None
    ) -> CorpusScore:
        """The score of a system's output lines against their sources (and BLEU and chrF against
        ``references``, a list of reference streams, when given)."""
        refs = [list(r) for r in references or ()]
        if any(len(r) != len(sources) for r in refs):
            raise InputError(f"line counts differ: {len(sources)} sources, references of {[len(r) for r in refs]}")
        totals = self.statistics(self.score_lines(sources, hypotheses))
        s = self.score_from(totals)
        bleu = chrf = None
        if refs:
            metrics = ReferenceScores()
            metrics.add("system", hypotheses, refs)
            found = metrics.scores("system")
            bleu, chrf = found["bleu"][0], found["chrf"][0]
        return CorpusScore(
            s.ktr,
            s.precision,
            s.f,
            s.ktr_macro,
            s.ktr_micro,
            s.ktr_weighted,
            self.how.aggregation,
            totals.sentences,
            totals.keywords,
            totals.counted,
            totals.transferred,
            self.signature().short(),
            bleu,
            chrf,
        )

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
            resamples=resampling.resamples if resampling else None,
            seed=resampling.seed if resampling else None,
        )

    def _signature_extra(self) -> dict[str, str]:
        c, p = self.config, self.pipeline
        extra = {}
        for stage, key in (("synonym", "syn"), ("derivation", "der")):  # both read WordNet's senses
            if stage in c.matching:
                from ktr.english.derivation import RULES
                from ktr.english.wordnet import fingerprint

                extra[key] = (
                    f"wn{fingerprint()}/senses{c.synonym_senses}"
                    + (f"/eq{c.expanded_equivalents}" if c.expanded_equivalents else "")
                    + (f"/drv{RULES}" if stage == "derivation" else "")
                )
        if p.constructions is not None:
            extra["cx"] = f"{'+'.join(c.constructions)}@{p.constructions.digest[:10]}"
        if p.idioms is not None:
            extra["idioms"] = f"{'+'.join(c.idioms)}@{p.idioms.digest[:10]}"
        if "transliteration" in c.matching:
            from ktr.matching.transliteration import KEYS

            extra["tl"] = f"{c.transliteration_threshold:g}/k{KEYS}"
        if "semantic" in c.matching:
            from ktr.embeddings.base import get_embedder
            from ktr.matching.semantic import VERSION

            extra["sem"] = f"{get_embedder(c.embedder).key}/t{c.semantic_threshold:g}/v{VERSION}"
        extra["f"] = f"b{c.f_beta:g}/tr{TRACING}"
        if c.aggregation == "weighted":
            extra["w"] = ",".join(f"{k}={w:g}" for k, w in sorted(c.class_weights.items()))
        return extra

    # -- statistics first, scores last -------------------------------------------------------

    def score_lines(self, sources: Sequence[str], hypotheses: Sequence[str]) -> list[SentenceResult]:
        """Each output line's result (its statistics and its keywords'); input warnings (lines
        changed or not analysed; an output line is named ``hypothesis``) go out through
        :mod:`warnings` (category InputWarning)."""
        if isinstance(sources, str) or isinstance(hypotheses, str):
            raise InputError("sources and hypotheses are lists of lines, not strings")
        if len(sources) != len(hypotheses):
            raise InputError(f"line counts differ: {len(sources)} sources, {len(hypotheses)} hypotheses")
        prepared = self.pipeline.prepare_analysed(self.pipeline.analyse(sources))
        for message in prepared.with_outputs(output_warnings(hypotheses, "hypothesis")):
            warnings.warn(message, InputWarning, stacklevel=3)
        return self.pipeline.match_lines(prepared, hypotheses)

    def statistics(self, lines: Iterable[SentenceResult]) -> Totals:
        """Lines' statistics summed, in line order."""
        return Totals.of(lines, self.how)

    def score_from(self, totals: Totals) -> Scores:
        """The scores of summed statistics (:func:`ktr.scoring.formula.scores`)."""
        return totals.scores()

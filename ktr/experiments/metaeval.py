"""Meta-evaluation: does KTR behave like a translation metric should on *your* parallel text?

From human translations, :mod:`ktr.experiments.variants` builds controlled variants (a mismatched
translation, content words dropped, words shuffled, synonyms, changed numbers, another line's
translation appended) and, from the source's look-ups, a gloss salad. Every variant is
scored with KTR against the source (one analysis of the source shared by all variants) and with
sentence BLEU and chrF against the untouched reference. The report gives, per variant, the mean
sentence score of each metric and the share of the true translation's score it keeps; per metric,
the ROC-AUC of true against mismatched translations and Kendall's tau-b between the share of
content words dropped and the sentence score.

All figures are over the same sentences: those where KTR has a score (at least one keyword that
counts); the others are left out of every figure and their number is reported.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import sqrt
from typing import TYPE_CHECKING, Any

from ktr.english.wordnet import fingerprint
from ktr.errors import InputError
from ktr.experiments import variants as V
from ktr.experiments.statistics import auc, average, kendall_tau_b
from ktr.scoring.reference import sentence_metrics

if TYPE_CHECKING:
    from ktr.lexicon.format import Lookup
    from ktr.scoring.scorer import Scorer
    from ktr.scoring.signature import Signature

METRICS = ("ktr", "f", "bleu", "chrf")
LABELS = {"ktr": "KTR", "f": "F", "bleu": "BLEU", "chrf": "chrF"}
FULL_SCALE = {"ktr": 1.0, "f": 1.0, "bleu": 100.0, "chrf": 100.0}
#: drop level of each variant in the Kendall tau (``true`` drops nothing)
LEVELS = {"true": 0, **V.DROP_LEVELS}


@dataclass
class Variant:
    """One variant of the references: its lines, which lines it changed, its sentence scores."""

    name: str
    lines: list[str]
    changed: list[bool]
    scores: dict[str, Sequence[float | None]]  # metric → one score per line (KTR: None, no keyword)
    credits: Counter[str]  # matching stage → keywords it credited


@dataclass
class MetaEval:
    """The scores of every variant and the statistics computed from them."""

    signature: Signature
    sacrebleu: dict[str, str]
    seed: int
    wordnet: str
    variants: dict[str, Variant]
    evaluated: list[int]  # lines with a KTR score, the sentences of every figure
    failed: int = 0  # lines the analyzer failed on: not scored, left out like lines without keywords

    @property
    def lines(self) -> int:
        return len(self.variants["true"].lines)

    def sentence_scores(self, variant: str, metric: str, among: Sequence[int] | None = None) -> list[float]:
        """Scores of the evaluated lines (or of the lines ``among``): every metric scores those."""
        row = self.variants[variant].scores[metric]
        found = [row[i] for i in (self.evaluated if among is None else among)]
        scores = [v for v in found if v is not None]
        if len(scores) != len(found):  # F and KTR have a score where KTR has one, BLEU and chrF everywhere
            raise ValueError(f"{variant}: {metric} has no score on a line that is evaluated")
        return scores

    def changed(self, variant: str) -> list[int]:
        """Evaluated lines the variant changed."""
        flags = self.variants[variant].changed
        return [i for i in self.evaluated if flags[i]]

    def mean(self, variant: str, metric: str) -> float | None:
        return average(self.sentence_scores(variant, metric))

    def kept(self, variant: str, metric: str) -> float | None:
        """Mean score of ``variant`` / mean score of ``true``, on the lines the variant changed."""
        lines = self.changed(variant)
        true = average(self.sentence_scores("true", metric, lines))
        score = average(self.sentence_scores(variant, metric, lines))
        return score / true if true and score is not None else None

    def auc(self, metric: str) -> float | None:
        return auc(self.sentence_scores("true", metric), self.sentence_scores("mismatch", metric))

    def tau(self, metric: str) -> float | None:
        x = [level for level in LEVELS.values() for _ in self.evaluated]
        y = [s for name in LEVELS for s in self.sentence_scores(name, metric)]
        return kendall_tau_b(x, y)

    def tau_within(self, metric: str) -> tuple[float | None, int]:
        """Mean over sentences of each sentence's own tau-b (its four drop levels), and the
        number of sentences where it is defined (scores not all equal). Unlike :meth:`tau`, this
        ignores how much the sentences' true scores differ from each other."""
        x = list(LEVELS.values())
        taus = [
            t
            for i in self.evaluated
            if (t := kendall_tau_b(x, [self.sentence_scores(name, metric, [i])[0] for name in LEVELS])) is not None
        ]
        return average(taus), len(taus)

    def to_dict(self) -> dict[str, Any]:
        return {
            "signature": {"short": self.signature.short(), "full": self.signature.full()},
            "sacrebleu": self.sacrebleu,
            "seed": self.seed,
            "wordnet": self.wordnet,
            "sentences": self.lines,
            "sentences_evaluated": len(self.evaluated),
            "sentences_failed": self.failed,
            "sentences_without_keywords": self.lines - len(self.evaluated) - self.failed,
            "variants": [
                {
                    "name": name,
                    "changed": len(self.changed(name)),
                    "mean": {m: self.mean(name, m) for m in METRICS},
                    "kept_on_changed": {m: self.kept(name, m) for m in METRICS},
                    "ktr_credits_by_stage": dict(v.credits),
                    "segments": [
                        {"index": i, "text": text, "changed": v.changed[i], **{m: v.scores[m][i] for m in METRICS}}
                        for i, text in enumerate(v.lines)
                    ],
                }
                for name, v in self.variants.items()
            ],
            "auc_true_vs_mismatch": {m: self.auc(m) for m in METRICS},
            "kendall_tau_b_drop": {m: self.tau(m) for m in METRICS},
            "kendall_tau_b_drop_within_sentences": {
                m: dict(zip(("mean", "sentences"), self.tau_within(m))) for m in METRICS
            },
            "reading": reading(self),
        }


def run(
    scorer: Scorer,
    sources: Sequence[str],
    references: Sequence[str],
    seed: int = 1,
    vocab: V.Vocabulary | None = None,
    source_name: str = "source",
) -> MetaEval:
    """Build every variant of ``references`` and score it with KTR, BLEU and chrF. ``source_name``
    names the source in warnings (a line the analyzer failed on: ``source_name:line``)."""
    if len(sources) != len(references):
        raise InputError(
            f"line counts differ: source has {len(sources)} lines, reference has {len(references)}; nothing was scored"
        )
    vocab = vocab or V.Vocabulary()
    prepared = scorer.prepare(sources, source_name)
    built = V.build(references, seed, vocab, glosses(prepared.lookups))
    results: dict[str, Variant] = {}
    signatures: dict[str, str] = {}
    how = scorer.metric.averaging
    for name, lines in built.items():
        sentences = scorer.score_prepared(prepared, name, lines).sentences
        credits = Counter(k.how for s in sentences for k in s.keywords if k.how)
        others = sentence_metrics(lines, references)
        signatures = {m: sig for m, (_, sig) in others.items()}
        scores: dict[str, Sequence[float | None]] = {
            "ktr": [s.score for s in sentences],
            "f": [s.figures(how).f for s in sentences],
            **{m: row for m, (row, _) in others.items()},
        }
        results[name] = Variant(name, lines, [a != b for a, b in zip(lines, references)], scores, credits)
    evaluated = [i for i in range(len(sources)) if all(v.scores["ktr"][i] is not None for v in results.values())]
    failed = sum(1 for why in prepared.failed if why)
    return MetaEval(scorer.signature, signatures, seed, fingerprint(), results, evaluated, failed)


#: equivalents per keyword in the gloss salad: what a word-for-word lookup that lists senses prints
GLOSSES = 3


def glosses(lookups: Sequence[Sequence[Lookup | None]], n: int = GLOSSES) -> list[list[str]]:
    """Per line, each keyword's first ``n`` equivalents, keyword after keyword in source order (a
    construction's marks are already its words: @negation is "not" first); keywords with no
    entry give nothing."""
    return [[e for found in line if found for e in found.equivalents[:n]] for line in lookups]


def percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def four_places(value: float) -> str:
    return f"{value:.4f}"


# --- the reading: what the figures show, in words (part of the result) ---------------------


def _scored(values: dict[str, float | None]) -> dict[str, float]:
    """The metrics that have a value, in :data:`METRICS` order."""
    return {m: v for m in METRICS if (v := values[m]) is not None}


def _ranked(values: dict[str, float | None], reverse: bool = True) -> list[str]:
    scored = _scored(values)
    return sorted(scored, key=scored.__getitem__, reverse=reverse)


def _listing(values: dict[str, float | None], fmt: Callable[[float], str], reverse: bool = True) -> str:
    scored = _scored(values)
    return ", ".join(f"{LABELS[m]} {fmt(scored[m])}" for m in _ranked(values, reverse))


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _sd(values: Sequence[float]) -> float:
    mean = average(values) or 0.0
    return sqrt(sum((v - mean) ** 2 for v in values) / len(values)) if values else 0.0


def reading(result: MetaEval) -> list[str]:
    """A few sentences on what the numbers show; every claim is computed from the numbers it
    states, so the text cannot contradict the table."""
    out = []
    excluded = result.lines - len(result.evaluated) - result.failed
    if excluded:
        out.append(
            f"{excluded} of {result.lines} sentences have no keyword KTR can count; they are left out of every figure."
        )
    if result.failed:
        out.append(
            f"{result.failed} of {result.lines} sentences were not scored (the analyzer failed on them); "
            "they are left out of every figure."
        )
    perfect = [LABELS[m] for m in ("bleu", "chrf") if result.mean("true", m) == FULL_SCALE[m]]
    shuffle = {m: result.kept("shuffle", m) for m in METRICS}
    if _ranked(shuffle):
        best = _ranked(shuffle)[0]
        verdict = (
            "the data bear this out: it keeps the most"
            if best in ("ktr", "f")
            else f"on this data {LABELS[best]} keeps more"
        )
        out.append(
            f"Word order: shuffled translations keep {_listing(shuffle, percent)} of the true "
            f"score. KTR is meant to ignore word order; {verdict}."
        )
    syn = {m: result.kept("synonym", m) for m in METRICS}
    if syn["ktr"] is not None and syn["bleu"] is not None:
        verdict = "more than BLEU, as intended" if syn["ktr"] > syn["bleu"] else "no more than BLEU here"
        credited = [result.variants[v].credits.get("synonym", 0) for v in ("synonym", "true")]
        note = (
            f" {credited[0]} keywords of the synonym variant were credited by KTR's synonym stage, "
            f"which draws on the same WordNet ({credited[1]} in the true translations)."
            if "synonym" in result.signature.matching
            else ""
        )
        out.append(
            f"Synonyms: with content words replaced by WordNet synonyms "
            f"({_count(len(result.changed('synonym')), 'sentence')} changed), the variants keep "
            f"{_listing(syn, percent)}; KTR keeps {verdict}.{note}"
        )
    aucs = {m: result.auc(m) for m in METRICS}
    if _ranked(aucs):
        note = (
            f" {' and '.join(perfect)} compare every variant with the untouched reference, so "
            "the true translation scores 100 by construction; KTR sees only the source."
            if perfect
            else ""
        )
        out.append(
            f"True against mismatched translations (ROC-AUC, 0.5 = chance, 1 = always "
            f"apart): {_listing(aucs, four_places)}.{note}"
        )
    taus = {m: result.tau(m) for m in METRICS}
    within = {m: result.tau_within(m)[0] for m in METRICS}
    if _ranked(taus) and _ranked(within):
        out.append(
            f"Dropped content (Kendall's tau-b between the share of content words dropped "
            f"and the score; more negative = follows the loss more closely): over all "
            f"sentences {_listing(taus, four_places, reverse=False)}; within each sentence (mean) "
            f"{_listing(within, four_places, reverse=False)}."
        )
        gaps = {m: t - w for m in METRICS if (t := taus[m]) is not None and (w := within[m]) is not None}
        if gaps and max(gaps, key=gaps.__getitem__) == "ktr":
            spread = _sd(result.sentence_scores("true", "ktr"))
            out.append(
                f"The two differ most for KTR ({gaps['ktr']:.4f}): its true score varies from "
                f"sentence to sentence (standard deviation {spread:.4f}), "
                "so pooled sentences' drop levels overlap"
                + (f", while {' and '.join(perfect)} start every sentence from 100." if perfect else ".")
            )
    out += _wrong_outputs(result)
    numbers = len(result.changed("numbers"))
    if numbers:
        kept = {m: result.kept("numbers", m) for m in METRICS}
        out.append(
            f"Numbers: {numbers} sentence{'s have' if numbers > 1 else ' has'} digits; "
            f"with them changed, {'they keep' if numbers > 1 else 'it keeps'} "
            f"{_listing(kept, percent)} of the true score."
        )
    else:
        out.append("Numbers: no sentence has digits, so the numbers variant equals the reference.")
    return out


def _wrong_outputs(result: MetaEval) -> list[str]:
    """What the addition and salad variants show: outputs with content the source lacks."""
    out = []
    added = {m: result.kept("addition", m) for m in METRICS}
    if added["ktr"] is not None:
        ktr = "KTR does not go down: it counts only what reached the output" if added["ktr"] >= 1 else "KTR goes down"
        f = "" if added["f"] is None else f"; F, which also counts the added words, keeps {percent(added['f'])}"
        out.append(
            f"Added content: with another line's translation appended, the variants keep "
            f"{_listing(added, percent)} of the true score; {ktr}{f}."
        )
    true, salad = result.sentence_scores("true", "ktr"), result.sentence_scores("salad", "ktr")
    if salad:
        above = sum(s > t for s, t in zip(salad, true))
        others = ", ".join(
            f"{LABELS[m]} {result.mean('salad', m):.2f}"
            for m in ("bleu", "chrf")
            if result.mean("salad", m) is not None
        )
        f_true, f_salad = result.sentence_scores("true", "f"), result.sentence_scores("salad", "f")
        below = sum(s < t for s, t in zip(f_salad, f_true))
        out.append(
            f"Gloss salad (each keyword's first {GLOSSES} lexicon equivalents in source order, no sentence): "
            f"KTR {result.mean('salad', 'ktr'):.4f} against {result.mean('true', 'ktr'):.4f} for the "
            f"true translations, above them on {above} of {len(salad)} sentences; F "
            f"{result.mean('salad', 'f'):.4f} against {result.mean('true', 'f'):.4f}, below them on "
            f"{below} of {len(salad)}" + (f"; with the reference, {others}." if others else ".")
        )
    return out

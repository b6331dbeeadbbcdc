"""BLEU and chrF via sacreBLEU, for reporting beside KTR when references exist."""
from __future__ import annotations

from typing import Sequence

#: reference-based metrics computed with sacreBLEU, by the name ktr reports them under
SACREBLEU_METRICS = ("bleu", "chrf")


def sacrebleu_metric(name: str):
    """A sacreBLEU metric object with sacreBLEU's default settings (so its signature is standard)."""
    from sacrebleu.metrics import BLEU, CHRF

    return {"bleu": BLEU, "chrf": CHRF}[name]()


def reference_metrics(hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> dict[str, tuple[float, str]]:
    """Corpus BLEU and chrF of ``hypotheses`` against one or more reference streams.

    Returns ``{"bleu": (score, signature), "chrf": (score, signature)}``. Lengths must have
    been checked by the caller (sacreBLEU's API does not check them).
    """
    refs = [list(r) for r in references]
    out = {}
    for name in SACREBLEU_METRICS:
        metric = sacrebleu_metric(name)
        score = metric.corpus_score(list(hypotheses), refs)
        out[name] = (round(score.score, 4), str(metric.get_signature()))
    return out


def sentence_metrics(hypotheses: Sequence[str], references: Sequence[str]) -> dict[str, tuple[list[float], str]]:
    """Sentence-level BLEU (effective n-gram order, as sacreBLEU recommends for single
    sentences) and chrF of each hypothesis against its one reference.

    Returns ``{"bleu": (scores, signature), "chrf": (scores, signature)}``.
    """
    from sacrebleu.metrics import BLEU, CHRF

    out = {}
    for name, metric in (("bleu", BLEU(effective_order=True)), ("chrf", CHRF())):
        scores = [round(metric.sentence_score(h, [r]).score, 4) for h, r in zip(hypotheses, references)]
        out[name] = (scores, str(metric.get_signature()))
    return out

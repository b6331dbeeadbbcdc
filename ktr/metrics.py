"""BLEU and chrF via sacreBLEU, for reporting beside KTR when references exist."""
from __future__ import annotations

from typing import Sequence


def reference_metrics(hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> dict[str, tuple[float, str]]:
    """Corpus BLEU and chrF of ``hypotheses`` against one or more reference streams.

    Returns ``{"bleu": (score, signature), "chrf": (score, signature)}``. Lengths must have
    been checked by the caller (sacreBLEU's API does not check them).
    """
    from sacrebleu.metrics import BLEU, CHRF

    refs = [list(r) for r in references]
    out = {}
    for name, metric in (("bleu", BLEU()), ("chrf", CHRF())):
        score = metric.corpus_score(list(hypotheses), refs)
        out[name] = (round(score.score, 4), str(metric.get_signature()))
    return out

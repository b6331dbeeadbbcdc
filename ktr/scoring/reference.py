"""BLEU and chrF via sacreBLEU (and METEOR via NLTK, for ``ktr run``), reported beside KTR when
references exist.

sacreBLEU's corpus scores are computed from per-sentence statistics summed over the corpus.
ktr extracts those statistics ``STRETCH`` lines at a time (:func:`sentence_statistics`,
:class:`ReferenceScores`) and sums them: the same scores as ``corpus_score``, but without the
n-grams of every reference held at once (``corpus_score`` on 50,000 news lines grew ``ktr
score`` to 2.6 GB).
"""

from __future__ import annotations

import logging
from array import array
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, Literal, TypedDict

import numpy as np
import numpy.typing as npt

from ktr.errors import brief

if TYPE_CHECKING:
    from sacrebleu.metrics.base import Metric

MetricName = Literal["bleu", "chrf"]
#: reference-based metrics computed with sacreBLEU, by the name ktr reports them under
SACREBLEU_METRICS: tuple[MetricName, ...] = ("bleu", "chrf")
#: lines whose statistics are extracted at a time
STRETCH = 256
#: sacreBLEU warns when this many output lines end in " ." (tokenized text, a lower BLEU)
TOKENIZED_LINES = 100

#: one sentence's statistics for a sacreBLEU metric (its counts: n-gram matches, totals, lengths)
Statistics = list[int]
#: some lines' statistics for one metric: summed (None: no lines), and each line's (None unless kept)
MetricStatistics = tuple[Statistics | None, list[Statistics] | None]


class SystemStatistics(TypedDict):
    """What :func:`stretch_statistics` gives for some lines of one system (plain data)."""

    tokenized: int  # lines ending in a tokenized period
    references: int  # reference streams
    bleu: MetricStatistics
    chrf: MetricStatistics


def sentence_metrics(hypotheses: Sequence[str], references: Sequence[str]) -> dict[str, tuple[list[float], str]]:
    """Sentence-level BLEU (effective n-gram order, as sacreBLEU recommends for single
    sentences) and chrF of each hypothesis against its one reference.

    Returns ``{"bleu": (scores, signature), "chrf": (scores, signature)}``.
    """
    from sacrebleu.metrics.bleu import BLEU
    from sacrebleu.metrics.chrf import CHRF

    out: dict[str, tuple[list[float], str]] = {}
    for name, metric in (("bleu", BLEU(effective_order=True)), ("chrf", CHRF())):
        scores = [round(metric.sentence_score(h, [r]).score, 4) for h, r in zip(hypotheses, references)]
        out[name] = (scores, str(metric.get_signature()))
    return out


def _extractor(name: str) -> Metric:
    """The metric, with its check for tokenized output made here on all lines (BLEU's
    ``force``): made by sacreBLEU per stretch, it would warn for some stretches and not others."""
    from sacrebleu.metrics.bleu import BLEU
    from sacrebleu.metrics.chrf import CHRF

    return BLEU(force=True) if name == "bleu" else CHRF()


# -- sacreBLEU's sufficient statistics ----------------------------------------------------------
# sacreBLEU computes a corpus score from per-sentence statistics summed over the corpus, but has
# no public way to get them or to score them: these two functions are the only calls into its
# private API (tests/test_reference.py fails if it changes what they rely on).


def extract_statistics(
    metric: Metric, hypotheses: Sequence[str], references: Sequence[Sequence[str]]
) -> list[Statistics]:
    """Each sentence's statistics for ``metric`` (its n-gram matches, totals and lengths)."""
    stats: list[Statistics] = metric._extract_corpus_statistics(hypotheses, references)
    return stats


def score_from_statistics(metric: Metric, stats: Sequence[int | float]) -> float:
    """The score of statistics summed over sentences, as ``metric.corpus_score`` computes it."""
    score: float = metric._compute_score_from_stats(list(stats)).score
    return score


def sentence_statistics(
    name: str, hypotheses: Sequence[str], references: Sequence[Sequence[str]]
) -> tuple[list[Statistics], Metric]:
    """sacreBLEU's statistics of every sentence for metric ``name`` (one of SACREBLEU_METRICS),
    and the metric object that extracted them (its signature knows the number of references)."""
    metric = _extractor(name)
    out: list[Statistics] = []
    for a in range(0, len(hypotheses), STRETCH):
        out += extract_statistics(
            metric, list(hypotheses[a : a + STRETCH]), [list(r[a : a + STRETCH]) for r in references]
        )
    if name == "bleu":
        _warn_if_tokenized(sum(h.endswith(" .") for h in hypotheses))
    return out, metric


def _warn_if_tokenized(lines: int) -> None:
    """sacreBLEU's warning (BLEU's) when many output lines end in a tokenized period."""
    if lines >= TOKENIZED_LINES:
        log = logging.getLogger("sacrebleu")
        log.warning("That's 100 lines that end in a tokenized period ('.')")
        log.warning("It looks like you forgot to detokenize your test data, which may hurt your score.")


def stretch_statistics(
    systems: Mapping[str, Sequence[str]], references: Iterable[Sequence[str]], keep: bool = False
) -> dict[str, SystemStatistics]:
    """What :class:`ReferenceScores` sums of some lines of each system's output and of each
    reference stream: per system, per metric the statistics summed (and each sentence's, with
    ``keep``), and how many lines end in a tokenized period. Plain data: a cluster's worker
    computes it beside the stretch it scores, and the client merges it (:meth:`ReferenceScores.merge`)."""
    refs = [list(r) for r in references]
    out: dict[str, SystemStatistics] = {}
    for system, hypotheses in systems.items():
        lines = list(hypotheses)
        out[system] = {
            "tokenized": sum(h.endswith(" .") for h in hypotheses),
            "references": len(refs),
            "bleu": _metric_statistics("bleu", lines, refs, keep),
            "chrf": _metric_statistics("chrf", lines, refs, keep),
        }
    return out


#: how many numbers a line's statistics hold (sacreBLEU's layout: BLEU's lengths of output and
#: reference, then the n-grams matched and counted for n = 1..4; chrF's n-grams of the output, of
#: the reference and matched, for character n = 1..6)
WIDTHS = {"bleu": 10, "chrf": 18}


def statistics_problem(found: Any, lines: Mapping[str, int]) -> str | None:
    """Why ``found`` is not what :func:`stretch_statistics` gives for the systems of ``lines``
    (each system's number of lines), or None: its shape, whole counts of the width sacreBLEU
    gives, none negative, no more matched than counted, the sum of each line's where they are
    kept. So that statistics read back from a shard (``--resume``) are believed only if scoring
    could have given them."""
    if not isinstance(found, dict) or set(found) != set(lines):
        return "not the statistics of the task's systems"
    for system, by_metric in found.items():
        if not isinstance(by_metric, dict) or set(by_metric) != {"tokenized", "references", "bleu", "chrf"}:
            return f"{brief(system)}: not a system's statistics"
        count, refs = by_metric["tokenized"], by_metric["references"]
        if not (_whole(count) and count <= lines[system] and _whole(refs) and refs >= 1):
            return f"{brief(system)}: counts out of range"
        for name, width in WIDTHS.items():
            stats = by_metric[name]
            if not (isinstance(stats, (list, tuple)) and len(stats) == 2):
                return f"{brief(system)}: {name}: not statistics"
            summed, each = stats
            rows = [summed] if summed is not None else []
            rows += list(each) if isinstance(each, (list, tuple)) else []
            if (summed is None) != (lines[system] == 0) or (each is not None and len(rows) != 1 + lines[system]):
                return f"{brief(system)}: {name}: not the statistics of {lines[system]} lines"
            if not all(_line_statistics(name, row, width) for row in rows):
                return f"{brief(system)}: {name}: statistics no sentence can have"
            if each and [sum(column) for column in zip(*each)] != list(summed):
                return f"{brief(system)}: {name}: the lines' statistics do not add up to their sum"
    return None


def _whole(value: Any) -> bool:
    return type(value) is int and value >= 0


def _line_statistics(name: str, row: Any, width: int) -> bool:
    if not (isinstance(row, (list, tuple)) and len(row) == width and all(_whole(v) for v in row)):
        return False
    if name == "bleu":  # n-grams matched, then counted
        return all(row[2 + n] <= row[6 + n] for n in range(4))
    return all(row[i + 2] <= min(row[i], row[i + 1]) for i in range(0, width, 3))  # matched: in both


def _metric_statistics(name: str, hypotheses: list[str], references: list[list[str]], keep: bool) -> MetricStatistics:
    stats = extract_statistics(_cached_extractor(name), hypotheses, references)
    return (_summed(stats) if stats else None, stats if keep else None)


def _summed(stats: list[Statistics]) -> Statistics:
    """Statistics summed element by element."""
    from sacrebleu.utils import sum_of_lists

    summed: Statistics = sum_of_lists(stats)  # type: ignore[no-untyped-call]  # sacreBLEU leaves it unannotated
    return summed


@cache
def _cached_extractor(name: str) -> Metric:
    return _extractor(name)


class ReferenceScores:
    """BLEU and chrF of each system, fed stretch by stretch (:meth:`add`); with ``keep``, each
    sentence's statistics are kept too (for bootstrap resampling), as 4-byte integers in one
    array per system and metric (BLEU's 10 and chrF's 18 a line: 112 bytes a line)."""

    def __init__(self, keep: bool = False):
        self.keep = keep
        self._metrics: dict[MetricName, Metric] = {name: _extractor(name) for name in SACREBLEU_METRICS}
        self._sums: dict[tuple[str, str], Statistics] = {}
        # the kept statistics one after another, and how many a line has
        self._kept: dict[tuple[str, str], tuple[array[int], int]] = {}
        self._tokenized: dict[str, int] = {}

    def add(self, system: str, hypotheses: Sequence[str], references: Iterable[Sequence[str]]) -> None:
        """The next lines of ``system``'s output and of each reference stream."""
        self.merge(stretch_statistics({system: hypotheses}, references, self.keep))

    def merge(self, found: dict[str, SystemStatistics]) -> None:
        """The statistics of the next lines of each system (:func:`stretch_statistics`), summed in."""
        for system, by_metric in found.items():
            self._tokenized[system] = self._tokenized.get(system, 0) + by_metric["tokenized"]
            for name, metric in self._metrics.items():
                metric.num_refs = by_metric["references"]  # for its signature, as extracting sets it
                total, stats = self._sums.get((system, name)), by_metric[name]
                summed, each = stats
                if summed is None:  # no lines
                    continue
                self._sums[system, name] = summed if total is None else _summed([total, summed])
                if self.keep:
                    if each is None:  # measured by stretch_statistics without keep
                        raise ValueError(f"{system}: the statistics of each sentence were not kept")
                    if each:
                        kept, _ = self._kept.setdefault((system, name), (array("i"), len(each[0])))
                        kept.extend(value for line in each for value in line)

    def scores(self, system: str) -> dict[str, tuple[float, str]]:
        """``{"bleu": (score, signature), "chrf": (score, signature)}``: the corpus scores (rounded
        to 4 places) of every line added for ``system``, and sacreBLEU's signatures."""
        _warn_if_tokenized(self._tokenized.get(system, 0))
        out: dict[str, tuple[float, str]] = {}
        for name, metric in self._metrics.items():
            score = score_from_statistics(metric, self._sums[system, name])
            out[name] = (round(score, 4), str(metric.get_signature()))
        return out

    def statistics(self, system: str, name: str) -> list[Statistics]:
        """The kept statistics of every sentence of ``system`` for metric ``name``."""
        rows: list[Statistics] = self.statistics_array(system, name).tolist()
        return rows

    def statistics_array(self, system: str, name: str) -> npt.NDArray[np.intc]:
        """:meth:`statistics` as an array of integers, a row per sentence."""
        kept, width = self._kept[system, name]
        return np.frombuffer(kept, dtype=np.intc).reshape(-1, width)

    def metric(self, name: MetricName) -> Metric:
        """The sacreBLEU metric object ``name`` (its signature knows the number of references)."""
        return self._metrics[name]


def meteor_signature() -> str:
    import nltk

    from ktr.english.wordnet import fingerprint

    return f"nltk:{nltk.__version__}|wn:{fingerprint()}|tok:ktr|alpha:0.9|beta:3|gamma:0.5"


def meteor_sentences(hypotheses: list[str], references: list[list[str]]) -> list[float]:
    """NLTK's METEOR per sentence, on ktr's English tokens, against every reference."""
    from nltk.translate.meteor_score import meteor_score

    from ktr.english.tokens import tokenize
    from ktr.english.wordnet import load

    wn = load()
    return [
        meteor_score([tokenize(r[i]) for r in references], tokenize(h), wordnet=wn) for i, h in enumerate(hypotheses)
    ]

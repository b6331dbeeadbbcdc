"""BLEU, chrF and METEOR of every system of an experiment: computed once, whatever the variant
(they do not depend on it), with the statistics the bootstrap resamples and each metric's
signature."""

from __future__ import annotations

import numpy as np

from ktr.experiments.experiment import Experiment
from ktr.progress import Progress
from ktr.scoring.reference import meteor_sentences, meteor_signature
from ktr.scoring.significance import Statistic, mean_statistic, sacrebleu_statistic

#: per metric and system: the corpus score (None: METEOR of no line)
MetricScores = dict[str, dict[str, float | None]]
#: per metric and system: the statistic the bootstrap resamples
Statistics = dict[str, dict[str, Statistic]]


def reference_metrics(
    exp: Experiment, outputs: dict[str, list[str]], references: list[list[str]], progress: Progress
) -> tuple[MetricScores, Statistics, dict[str, str]]:
    """Corpus scores and resampling statistics of BLEU, chrF and METEOR, per metric and system."""
    scores: MetricScores = {}
    stats: Statistics = {}
    signatures: dict[str, str] = {}
    wanted = [m for m in exp.metrics if m != "ktr"]
    if not wanted:
        return scores, stats, signatures
    with progress.bar("reference metrics", len(wanted) * len(outputs)) as bar:
        for metric in wanted:
            scores[metric], stats[metric] = {}, {}
            for name, lines in outputs.items():
                if metric == "meteor":
                    values = meteor_sentences(lines, references)
                    scores[metric][name] = round(100 * float(np.mean(values)), 4) if values else None
                    stats[metric][name] = mean_statistic([100 * v for v in values])
                    signatures[metric] = meteor_signature()
                else:
                    score, statistic, obj = sacrebleu_statistic(metric, lines, references)
                    scores[metric][name], stats[metric][name] = round(score, 4), statistic
                    if exp.compare.resamples:
                        obj.n_bootstrap, obj.seed = exp.compare.resamples, exp.compare.seed
                    signatures[metric] = str(obj.get_signature())
                bar.update(1)
    return scores, stats, signatures

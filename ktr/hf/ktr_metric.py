"""KTR as a Hugging Face ``evaluate`` metric, loaded from the installed package:

    import evaluate, ktr.resources
    metric = evaluate.load(str(ktr.resources.evaluate_metric()))
    metric.compute(sources=["나는 사과를 먹었다."], predictions=["I ate an apple."])
    # {'ktr': 1.0, 'precision': 1.0, 'f': 1.0, ...}

``evaluate`` copies this file into its modules cache and imports it from there, so it imports
ktr as an installed package and nothing beside itself. Scoring is ktr's own
(:class:`ktr.scoring.metric.KTR`): the same figures as ``ktr score`` for the same config, and no
download at scoring time. Needs the ``evaluate`` extra (``pip install "ktr[evaluate]"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import datasets
import evaluate

from ktr.config import Config
from ktr.errors import InputError
from ktr.resources import configs_dir
from ktr.scoring.metric import KTR

_DESCRIPTION = """\
KTR (keyword transfer rate): the share of a Korean source's keywords that reach the English
translation, found by a morphological analyzer, a bilingual lexicon and a cascade of matching
stages; reference-free. Precision is the other side (the share of the output's content words
traced to the source) and F combines the two. With references, sacreBLEU's BLEU and chrF too.
"""

_KWARGS_DESCRIPTION = """\
Args:
    sources: the Korean source sentences, one string each.
    predictions: the English translations, one string per source.
    references (optional): the reference translations of each source, a list of strings each
        (every prediction the same number of them): adds BLEU and chrF.
    config (optional): a ktr config: a ktr.Config, a YAML file, or the name of a config shipped
        with ktr ("paper"); the default config without one.
Returns:
    ktr: KTR by the config's aggregation (the headline; None without a keyword counted),
    ktr_micro, ktr_macro, ktr_weighted: KTR by each aggregation,
    precision: content words of the output traced to the source, f: F-beta of KTR and precision,
    keywords, transferred, added: the corpus's counts,
    bleu, chrf: with references only,
    signature: what decided the scores (the short form of ktr's signature).
Examples:
    >>> metric = evaluate.load(str(ktr.resources.evaluate_metric()))
    >>> metric.compute(sources=["나는 사과를 먹었다."], predictions=["I ate an apple."])["ktr"]
    1.0
"""

_CITATION = ""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class KtrMetric(evaluate.Metric):  # type: ignore[misc]
    """KTR, precision and F of translations against their Korean sources (and BLEU and chrF
    against references, when given)."""

    def _info(self) -> evaluate.MetricInfo:
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features(
                {
                    "sources": datasets.Value("string"),
                    "predictions": datasets.Value("string"),
                    "references": datasets.Sequence(datasets.Value("string")),
                }
            ),
            reference_urls=["https://github.com/mjpost/sacrebleu"],
        )

    # references are optional: without them each prediction has none ([]), which evaluate can store
    def add_batch(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> None:
        """Add a batch of sources, predictions and (optionally) references."""
        super().add_batch(predictions=predictions, references=_none_each(predictions, references), **kwargs)

    def add(self, *, prediction: Any = None, reference: Any = None, **kwargs: Any) -> None:
        """Add one source, prediction and (optionally) its references."""
        super().add(prediction=prediction, reference=[] if reference is None else reference, **kwargs)

    def compute(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> dict[str, Any] | None:
        """KTR, precision and F of the predictions against their sources (BLEU and chrF against
        the references, when given): the inputs given here and those added before.
        """
        result: dict[str, Any] | None = super().compute(
            predictions=predictions, references=_none_each(predictions, references), **kwargs
        )
        return result

    def _compute(
        self,
        sources: Sequence[str],
        predictions: Sequence[str],
        references: Sequence[Sequence[str]],
        config: Config | str | Path | None = None,
    ) -> dict[str, Any]:
        streams = _streams(references)
        corpus = _metric(config).corpus_score(list(sources), list(predictions), references=streams)
        found = corpus.to_dict()
        out = {
            "ktr": corpus.score,
            "ktr_micro": corpus.ktr_micro,
            "ktr_macro": corpus.ktr_macro,
            "ktr_weighted": corpus.ktr_weighted,
            "precision": corpus.precision,
            "f": corpus.f,
            "keywords": found["keywords_counted"],
            "transferred": found["transferred"],
            "added": found["added"],
        }
        if streams is not None:
            out.update(bleu=corpus.bleu, chrf=corpus.chrf)
        out["signature"] = corpus.signature
        return out


def _none_each(predictions: Any, references: Any) -> Any:
    """``references``, or no reference for each prediction when none are given."""
    if references is None and predictions is not None:
        return [[] for _ in predictions]
    return references


def _streams(references: Sequence[Sequence[str]]) -> list[list[str]] | None:
    """Each prediction's references as sacreBLEU's reference streams (one list per reference
    position), or None when no prediction has any."""
    counts = {len(r) for r in references}
    if not references or counts == {0}:
        return None
    if len(counts) > 1:
        raise InputError(
            f"references: every prediction needs the same number of references, got {sorted(counts)[0]} "
            f"to {sorted(counts)[-1]}"
        )
    return [list(stream) for stream in zip(*references)]


_METRICS: dict[str, KTR] = {}  # built once per config in a process: building one reads the tables


def _metric(config: Config | str | Path | None) -> KTR:
    if isinstance(config, Config):
        return KTR(config)
    key = "" if config is None else str(config)
    if key not in _METRICS:
        _METRICS[key] = KTR() if config is None else KTR(Config.from_yaml(_config_file(key)))
    return _METRICS[key]


def _config_file(name: str) -> Path:
    """A config's file: ``name`` itself, or a config shipped with ktr by its name (as ``-c``)."""
    shipped = configs_dir() / (name if name.endswith(".yaml") else f"{name}.yaml")
    return shipped if not Path(name).exists() and "/" not in name and shipped.is_file() else Path(name)

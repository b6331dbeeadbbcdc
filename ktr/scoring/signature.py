"""The signature of a score: everything needed to reproduce it, in a full and a short form
(sacreBLEU's practice), and a brief one for a terminal that names the short form by its digest.
A metric derives its own (:meth:`ktr.scoring.metric.KTR.signature`)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any


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
    #: a bootstrap's resample count and seed, when the score comes with intervals
    resamples: int | None = None
    seed: int | None = None
    #: the trials of an approximate randomization test (``--paired-ar``), when one was run
    trials: int | None = None

    def _bootstrap(self) -> dict[str, str]:
        """sacreBLEU's fields of a resampling, in its order: ``bs``, ``ar``, ``seed``."""
        found = {"bs": self.resamples, "ar": self.trials}
        fields = {k: str(v) for k, v in found.items() if v is not None}
        return {**fields, "seed": str(self.seed)} if fields else {}

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
            **self._bootstrap(),
        }

    def __str__(self) -> str:
        """The short form, as sacreBLEU prints a signature."""
        return self.short()

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
        parts += [f"{k}:{v}" for k, v in {**self.extra, **self._bootstrap()}.items()]
        return "|".join(parts)

    def brief(self) -> str:
        """One line that fits a terminal: ktr's version, the analyzer, the lexicons' content hash
        and the averaging, then ``sig:``, the first 10 hex digits of the SHA-256 of the short form
        (:meth:`short`), which stands for everything else: two scores with the same brief
        signature were computed alike (the JSON gives it beside the short form, which ``ktr
        score``'s text output prints wrapped at its fields)."""
        digest = hashlib.sha256(self.short().encode("utf-8")).hexdigest()[:10]
        return (
            f"ktr:{self.ktr_version}|ana:{self.analyzer}|lex:{self.lexicon_hash[:10]}|avg:{self.aggregation}"
            f"|sig:{digest}"
        )

"""Scoring the columns of a pandas DataFrame or a Hugging Face ``datasets.Dataset``: the
sentences' scores become new columns, the corpus scores a Report. Neither library is imported here:
the data is read by column name and written with the table's own method."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ktr.config import Config
from ktr.errors import InputError
from ktr.scoring.corpus import Report
from ktr.scoring.scorer import Scorer


def score_columns(
    data: Any,
    source: str,
    hypotheses: str | Sequence[str],
    references: Sequence[str] = (),
    scorer: Scorer | None = None,
) -> tuple[Any, Report]:
    """Score the hypothesis columns of ``data`` (a pandas DataFrame or a ``datasets.Dataset``)
    against its ``source`` column, adding ``<column>_ktr``, ``<column>_precision`` and
    ``<column>_f`` (the sentences' scores; None or NaN where a line has none) for each.

    A DataFrame gets the columns in place; a Dataset cannot be changed, so a new one is returned.
    Returns (the data with the new columns, the Report with the corpus scores). ``references``
    names reference columns (for BLEU and chrF); ``scorer`` defaults to ``Scorer(Config())``."""
    if isinstance(hypotheses, str):
        hypotheses = [hypotheses]
    names = [source, *hypotheses, *references]
    present = list(data.column_names if hasattr(data, "column_names") else data.columns)
    missing = [n for n in names if n not in present]
    if missing:
        raise InputError(f"no column {', '.join(map(repr, missing))}; the columns are {', '.join(map(str, present))}")
    if scorer is None:
        scorer = Scorer(Config())
    report = scorer.score(
        list(data[source]),
        {h: list(data[h]) for h in hypotheses},
        [list(data[r]) for r in references] or None,
        source_name=f"column {source!r}",
    )
    for system in report.systems:
        for kind, values in (
            ("ktr", [s.score for s in system.sentences]),
            ("precision", [s.precision for s in system.sentences]),
            ("f", [s.figures(system.averaging).f for s in system.sentences]),
        ):
            name = f"{system.name}_{kind}"
            if hasattr(data, "add_column"):  # a datasets.Dataset: a new one, with the column
                data = data.remove_columns(name) if name in data.column_names else data
                data = data.add_column(name, values)
            else:
                data[name] = values
    return data, report

"""The formats of ``ktr score``'s report: a text table for people, JSON for machines, TSV for
spreadsheets (their rows and columns laid out once, in :mod:`ktr.scoring.layout`). The text
table and the TSV show control characters escaped (:func:`ktr.controls.shown`: a system named
after a file whose name holds ``\\x1b`` shows it so); JSON escapes them as JSON does."""

from __future__ import annotations

import json
import re
from typing import Any

from ktr.controls import columns, padded, shown
from ktr.reports.paper_tables import DECIMALS, table
from ktr.reports.run_tables import Table, layout
from ktr.scoring.corpus import Report
from ktr.scoring.layout import TSV_COLUMNS, cell, sentence_rows

_AGGREGATIONS = {
    "macro": "mean of sentence scores",
    "micro": "transferred / keywords",
    "weighted": "mean of class-weighted sentence scores",
}


def as_json(report: Report, sentences: bool = False, extra: dict[str, Any] | None = None) -> str:
    """The report as JSON (:meth:`~ktr.scoring.corpus.Report.to_dict`), with ``extra`` fields
    after its own (where a run ran: ``engine``)."""
    return json.dumps({**report.to_dict(sentences=sentences), **(extra or {})}, ensure_ascii=False, indent=2)


#: the columns of the systems table that count (keywords, words, sentences): the text format
#: lays them out in a second table under the scores, so that each fits a terminal of 100 columns
COUNT_COLUMNS = ("keywords", "transferred", "added", "no-entry", "no-kw sents")
#: the width the text format's notes are wrapped to (at spaces)
TEXT_WIDTH = 100


def as_text(report: Report, sentences: bool = False, decimals: int = DECIMALS, full_signature: bool = False) -> str:
    """The systems table (its 0-1 scores to ``decimals`` places) as two tables, the scores and the
    counts, then the note, the signatures (ktr's brief one, or with ``full_signature`` its short
    form in full), the intervals if any, and with ``sentences`` each sentence's row."""
    header, body = table(report, decimals)
    counts = [i for i, h in enumerate(header) if h in COUNT_COLUMNS]
    scores = [i for i in range(len(header)) if i not in counts]
    lines = []
    for part in (scores, [0, *counts]):
        lines += layout(Table([header[i] for i in part], [[row[i] for i in part] for row in body]))
        lines.append("")
    agg = report.signature.aggregation
    first = report.systems[0].summary()  # the sentences themselves may not have been kept
    lines += packed(
        [
            f"KTR = {_AGGREGATIONS[agg]} ({agg})",
            "prec = content words of the output traced to the source",
            f"F = F-beta of KTR and prec (beta {report.systems[0].beta:g})",
            f"{first['sentences']} sentences",
        ]
    )
    failed = first["sentences_failed"]
    if failed:
        lines.append(
            f"NOT SCORED: {failed} sentence(s) on which the analyzer failed or the time limit ran out (see the warnings)"
        )
    signature = f"signature: {report.signature.short()}"
    lines += [signature] if full_signature else wrapped_fields(signature)
    if report.sacrebleu:
        for name, sig in report.sacrebleu.items():
            lines.append(f"sacrebleu {name}: {sig}")
    if report.estimates:
        lines += ["", *estimates_text(report)]
    if sentences:
        lines += ["", *sentences_text(report)]
    return "\n".join(lines) + "\n"


def packed(clauses: list[str], width: int = TEXT_WIDTH) -> list[str]:
    """Clauses joined by "; " into lines of at most ``width`` columns, a clause never split (one
    longer than ``width`` stands alone)."""
    lines: list[str] = []
    for clause in clauses:
        if lines and columns(lines[-1]) + 2 + columns(clause) <= width:
            lines[-1] += "; " + clause
        else:
            lines.append(clause)
    return lines


#: the columns of ``--sentences`` in the text format: (header, the sentence row's field), numbers
#: right-aligned; the missed keywords and added words last, left-aligned
SENTENCE_COLUMNS = (
    ("line", "index"),
    ("system", "system"),
    ("KTR", "score"),
    ("F", "f"),
    ("prec", "precision"),
    ("keywords", "keywords_counted"),
    ("transferred", "transferred"),
    ("missed", "missed"),
    ("added", "added"),
)
_LEFT = {"system", "missed", "added"}


def sentences_text(report: Report) -> list[str]:
    """``--sentences`` in the text format: a row per sentence and system, aligned in terminal
    columns (line numbers from 1, as an editor counts them); ``-f tsv`` has every column."""
    header = tuple(h for h, _ in SENTENCE_COLUMNS)
    rows = [header]
    for s in report.systems:
        for found in sentence_rows(s.name, s.averaging, s.sentences):
            found = {**found, "index": found["index"] + 1}
            rows.append(tuple(shown(_cell(field, found[field])) for _, field in SENTENCE_COLUMNS))
    widths = [max(columns(r[i]) for r in rows) for i in range(len(header))]
    lines = []
    for n, row in enumerate(rows):
        cells = [padded(c, w, right=h not in _LEFT) for c, w, (h, _) in zip(row, widths, SENTENCE_COLUMNS)]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return lines


def _cell(field: str, value: Any) -> str:
    """A cell of :func:`sentences_text`: a list comma-separated (its items may hold spaces)."""
    return ", ".join(str(v) for v in value) if isinstance(value, list) else cell(field, value)


def as_tsv(report: Report) -> str:
    """One row per sentence and system (:data:`ktr.scoring.layout.TSV_COLUMNS`): index, system,
    score, counts, missed keywords, precision, F, added words."""
    out = ["\t".join(header for header, _ in TSV_COLUMNS)]
    for s in report.systems:
        for row in sentence_rows(s.name, s.averaging, s.sentences):
            out.append("\t".join(shown(cell(name, row[name])) for _, name in TSV_COLUMNS))
    return "\n".join(out) + "\n"


def estimates_text(report: Report) -> list[str]:
    """The table of ``ktr score --confidence/--paired-bs/--paired-ar``: score, 95% CI (unless
    ``--paired-ar`` alone) and p per metric."""
    from ktr.reports.run_tables import metric_cells, metric_header

    estimates = report.estimates or {}
    signature = report.signature
    paired = any(e.p_value is not None for found in estimates.values() for e in found)
    intervals = signature.resamples is not None
    header = ["system"] + [h for metric in estimates for h in metric_header(metric, intervals, paired)]
    rows = []
    for i, s in enumerate(report.systems):
        row = [shown(s.name) + (" (baseline)" if paired and i == 0 else "")]
        for metric, found in estimates.items():
            row += metric_cells(found[i], metric, intervals, paired)
        rows.append(row)
    notes = []
    if intervals:
        notes.append(f"95% confidence intervals from {signature.resamples} bootstrap resamples (seed {signature.seed})")
    if paired:
        test = (
            "paired bootstrap test"
            if signature.trials is None
            else f"paired approximate randomization test ({signature.trials} trials, seed {signature.seed})"
        )
        notes.append(f"p: {test} against {shown(report.systems[0].name)}, * where p < 0.05")
    return ["; ".join(notes), *layout(Table(header, rows))]


#: the widest line of the text output's signature (a terminal of 100 columns)
SIGNATURE_WIDTH = 100


def wrapped_fields(line: str, width: int = SIGNATURE_WIDTH, indent: str = "  ") -> list[str]:
    """A signature wrapped after a ``|`` between its fields (or a ``,`` inside a field too wide
    for a line) so that no line is wider than ``width``, each line after the first indented by
    ``indent``: the lines joined again without the indent are the signature."""
    out: list[str] = []
    current = ""
    for piece in re.findall(r"[^|,]+[|,]?|[|,]", line):
        if current.strip() and len(current) + len(piece) > width:
            out.append(current)
            current = indent
        current += piece
    return [*out, current]

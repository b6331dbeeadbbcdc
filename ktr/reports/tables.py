"""Formatting results: a text table for people, JSON for machines, TSV for spreadsheets."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from ktr.scoring.frames import num, systems_table

if TYPE_CHECKING:
    from ktr.scoring.results import Report

_AGGREGATIONS = {
    "macro": "mean of sentence scores",
    "micro": "transferred / keywords",
    "weighted": "mean of class-weighted sentence scores",
}


def as_json(report: Report, sentences: bool = False) -> str:
    return json.dumps(report.to_dict(sentences=sentences), ensure_ascii=False, indent=2)


def as_text(report: Report, sentences: bool = False) -> str:
    header, body = systems_table(report)
    rows = [header, *body]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for n, row in enumerate(rows):
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:])]
        lines.append("  ".join(cells))
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    agg = report.signature.aggregation
    first = report.systems[0].summary()  # the sentences themselves may not have been kept
    lines.append("")
    lines.append(
        f"KTR = {_AGGREGATIONS[agg]} ({agg}); prec = content words of the output traced to the "
        f"source; F = F-beta of KTR and prec (beta {report.systems[0].beta:g}); "
        f"{first['sentences']} sentences"
    )
    failed = first["sentences_failed"]
    if failed:
        lines.append(f"NOT SCORED: {failed} sentence(s) on which the analyzer failed (see the warnings)")
    lines.append(f"signature: {report.signature.short()}")
    if report.sacrebleu:
        for name, sig in report.sacrebleu.items():
            lines.append(f"sacrebleu {name}: {sig}")
    if report.estimates:
        lines += ["", *estimates_text(report)]
    if sentences:
        lines.append("")
        lines.append(as_tsv(report).rstrip("\n"))
    return "\n".join(lines) + "\n"


def as_tsv(report: Report) -> str:
    """One row per sentence and system: index, system, score, counts, missed keywords."""
    out = [
        "index\tsystem\tscore\tkeywords\ttransferred\tnot_in_lexicon\tmissed\tprecision\tcontent_words\t"
        "traced\tf\tadded"
    ]
    for s in report.systems:
        for seg in s.sentences:
            missed = " ".join(f"{k.keyword.lemma}/{k.keyword.tag}" for k in seg.keywords if not k.transferred)
            added = " ".join(word for _, word in seg.added)
            out.append(
                f"{seg.index}\t{s.name}\t{num(seg.score)}\t{seg.counted}\t{seg.transferred}\t{seg.missing}\t"
                f"{missed}\t{num(seg.precision)}\t{seg.content}\t{seg.traced}\t{num(seg.f(s.beta))}\t{added}"
            )
    return "\n".join(out) + "\n"


def estimates_text(report: Report) -> list[str]:
    """The bootstrap table of ``ktr score --confidence/--paired-bs``: score, 95% CI and p per metric."""
    from ktr.reports.common import Table, layout, metric_cells, metric_header

    estimates = report.estimates or {}
    paired = any(e.p_value is not None for found in estimates.values() for e in found)
    header = ["system"] + [h for metric in estimates for h in metric_header(metric, True, paired)]
    rows = []
    for i, s in enumerate(report.systems):
        row = [s.name + (" (baseline)" if paired and i == 0 else "")]
        for metric, found in estimates.items():
            row += metric_cells(found[i], metric, True, paired)
        rows.append(row)
    extra = report.signature.extra
    note = f"95% confidence intervals from {extra.get('bs')} bootstrap resamples (seed {extra.get('seed')})"
    if paired:
        note += f"; p: paired bootstrap test against {report.systems[0].name}, * where p < 0.05"
    return [note, *layout(Table(header, rows))]

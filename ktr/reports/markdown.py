"""report.md: the tables of the run, readable as plain text and rendered by any Markdown viewer.

Text from the input (a source line, an output line, a reason a line failed) is written as text:
its control characters escaped (``\\x1b``, ``\\x0d``: :func:`ktr.controls.shown`, so a carriage
return cannot split a table row), ``&``, ``<`` and ``>`` as HTML entities (a ``<script>`` in a
line is shown, never run, in a viewer that renders HTML), ``\\`` and ``|`` escaped as Markdown
escapes them.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from ktr.controls import shown
from ktr.reports.run_tables import (
    Table,
    classes_table,
    failed_note,
    method_note,
    num,
    signed,
    systems_table,
    variants_table,
)

if TYPE_CHECKING:
    from ktr.experiments.runner import Run


def _text(text: str) -> str:
    """Text from the input, as Markdown shows it as text (see the module docstring)."""
    return escape(shown(text), quote=False).replace("\\", "\\\\")


def _cell(text: str) -> str:
    return _text(text).replace("|", "\\|")


def _table(table: Table) -> list[str]:
    lines = [
        "| " + " | ".join(_cell(h) for h in table.header) + " |",
        "|" + "|".join("---" if i == 0 else "---:" for i in range(len(table.header))) + "|",
    ]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in table.rows]
    return lines


def markdown(run: Run) -> str:
    exp = run.experiment
    out = [f"# ktr run: {exp.name}", "", method_note(run), ""]
    out += ["## Systems", ""]
    for v in run.variants:
        out += [f"### Variant `{v.name}`", ""] + _table(systems_table(run, v))
        out += ["", f"Signature: `{v.signature.short()}`", ""]
        note = failed_note(v)
        if note:
            out += [f"**{note[0]}**", ""] + [f"- {_text(line)}" for line in note[1:]] + [""]
    if run.metric_signatures:
        out += ["Signatures: " + "; ".join(f"{k} `{s}`" for k, s in run.metric_signatures.items()), ""]
    if len(run.variants) > 1:
        out += [
            "## Variants",
            "",
            "KTR of each system under each variant; in brackets the change from the "
            f"baseline variant `{exp.compare.baseline_variant}` and its paired bootstrap p-value.",
            "",
        ]
        out += _table(variants_table(run)) + [""]
    out += ["## Transfer rate by keyword class", ""]
    for v in run.variants:
        out += [f"### Variant `{v.name}`", ""] + _table(classes_table(run, v)) + [""]
    out += _differences(run)
    return "\n".join(out).rstrip("\n") + "\n"


def _differences(run: Run) -> list[str]:
    top = run.experiment.compare.differences
    if not top or len(run.outputs) < 2:
        return []
    out = [
        "## Where systems differ most",
        "",
        f"Per variant and system, the {top} sentences with the largest KTR difference from the baseline "
        f"system `{run.baseline}` (gained: keywords only the system transferred; lost: only the baseline).",
        "",
    ]
    for v in run.variants:
        for name, diffs in v.differences.items():
            out += [f"### `{name}` vs `{run.baseline}`, variant `{v.name}`", ""]
            if not diffs:
                out += ["No sentence differs.", ""]
                continue
            rows = [
                [
                    str(d.index + 1),
                    num(d.baseline_score),
                    num(d.score),
                    signed(d.delta),
                    run.sources[d.index],
                    run.outputs[run.baseline][d.index],
                    run.outputs[name][d.index],
                    " ".join(d.gained) or "-",
                    " ".join(d.lost) or "-",
                ]
                for d in diffs
            ]
            out += _table(
                Table(
                    [
                        "line",
                        run.baseline,
                        name,
                        "Δ",
                        "source",
                        f"{run.baseline} output",
                        f"{name} output",
                        "gained",
                        "lost",
                    ],
                    rows,
                )
            ) + [""]
    return out

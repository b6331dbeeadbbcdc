"""``ktr score``'s systems table for papers and pages: Markdown (``-f md``) and LaTeX (``-f
latex``, booktabs), the same columns as the text table (:func:`ktr.scoring.layout.systems_table`);
the scores alone (``-b``); and the scores' decimals (``-w``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ktr.controls import shown
from ktr.scoring.corpus import Report
from ktr.scoring.layout import num, systems_table

#: the columns of the systems table that hold a 0-1 score, and the summary key each shows
SCORE_COLUMNS = {"KTR": "ktr", "F": "f", "micro": "ktr_micro", "weighted": "ktr_weighted", "prec": "precision"}
#: the decimals of a 0-1 score unless ``-w`` says otherwise
DECIMALS = 4


def table(report: Report, decimals: int = DECIMALS) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The systems table's header and rows (names shown escaped), its 0-1 scores to ``decimals`` places."""
    summaries = [s.summary() for s in report.systems]
    header, rows = systems_table(summaries, report.headline)
    if decimals != DECIMALS:
        at = {i: SCORE_COLUMNS[h] for i, h in enumerate(header) if h in SCORE_COLUMNS}
        rows = [
            tuple(num(d[at[i]], decimals) if i in at else cell for i, cell in enumerate(row))
            for row, d in zip(rows, summaries)
        ]
    return header, [(shown(row[0]), *row[1:]) for row in rows]


def headline_scores(report: Report, decimals: int = DECIMALS) -> str:
    """``-b``: each system's headline score (KTR, or F with ``headline: f``), a line each, in order."""
    key = "f" if report.headline == "f" else "ktr"
    return "".join(num(s.summary()[key], decimals) + "\n" for s in report.systems)


def _note(report: Report) -> list[str]:
    signatures = [f"signature: {report.signature.short()}"]
    signatures += [f"sacrebleu {name}: {sig}" for name, sig in (report.sacrebleu or {}).items()]
    return signatures


def as_markdown(report: Report, decimals: int = DECIMALS) -> str:
    """A GitHub-flavoured Markdown table (numbers right-aligned), then the signatures as code."""
    header, rows = table(report, decimals)
    lines = [_md_row(header), "|" + "|".join("---" if i == 0 else "---:" for i in range(len(header))) + "|"]
    lines += [_md_row(row) for row in rows]
    lines.append("")
    lines += [f"{line.split(': ', 1)[0]}: `{line.split(': ', 1)[1]}`  " for line in _note(report)]
    return "\n".join(lines).rstrip() + "\n"


def _md_row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(c.replace("\\", "\\\\").replace("|", "\\|") for c in cells) + " |"


_LATEX = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def latex_escaped(text: str) -> str:
    """``text`` with LaTeX's special characters written as text."""
    return "".join(_LATEX.get(c, c) for c in text)


def as_latex(report: Report, decimals: int = DECIMALS) -> str:
    """A LaTeX tabular (booktabs' rules: ``\\usepackage{booktabs}``), the signatures as comments."""
    header, rows = table(report, decimals)
    cells: list[Any] = [header, *rows]
    lines = [f"% {line}" for line in _note(report)]
    lines.append(r"\begin{tabular}{l" + "r" * (len(header) - 1) + "}")
    lines.append(r"\toprule")
    for n, row in enumerate(cells):
        lines.append(" & ".join(latex_escaped(c) for c in row) + r" \\")
        if n == 0:
            lines.append(r"\midrule")
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines) + "\n"

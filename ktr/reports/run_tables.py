"""What every report format shares: the rows of the systems table and how numbers are written.

The tables are built once here from :class:`~ktr.experiments.runner.Run` (as plain strings), and the text,
Markdown and HTML writers only lay them out, so the three always agree. Text from the input in
them (why a line failed) shows its control characters escaped (:func:`ktr.controls.shown`); the
Markdown and HTML writers escape markup.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ktr.controls import columns, padded, shown
from ktr.errors import InputError
from ktr.scoring.layout import num as num  # how every report writes a score (the report modules import it here)
from ktr.textio import write_texts as write_texts_all

if TYPE_CHECKING:
    from ktr.experiments.runner import Run, VariantRun
    from ktr.scoring.corpus import Estimate

#: how metrics are named in tables, and how many decimals they get (KTR is a rate, the rest 0-100)
LABELS = {"ktr": "KTR", "precision": "prec", "f": "F", "bleu": "BLEU", "chrf": "chrF", "meteor": "METEOR"}
DIGITS = {"ktr": 4, "precision": 4, "f": 4, "bleu": 2, "chrf": 2, "meteor": 2}
SIGNIFICANT = 0.05
#: failed source lines listed in a report (results.json lists all)
SHOWN_FAILED = 20


def interval(ci: tuple[float, float] | None, digits: int = 4) -> str:
    return "-" if ci is None else f"[{ci[0]:.{digits}f}, {ci[1]:.{digits}f}]"


def p_value(p: float | None) -> str:
    if p is None:
        return "-"
    return f"{p:.4f}" + ("*" if p < SIGNIFICANT else "")


def signed(x: float, digits: int = 4) -> str:
    return f"{x:+.{digits}f}"


@dataclass
class Table:
    header: list[str]
    rows: list[list[str]]


def metric_cells(estimate: Estimate, metric: str, interval_: bool, paired: bool) -> list[str]:
    """Score, then (when asked) its 95% interval and its p-value against the baseline."""
    d = DIGITS[metric]
    cells = [num(estimate.score, d)]
    if interval_:
        cells.append(interval(estimate.ci, d))
    if paired:
        cells.append(p_value(estimate.p_value))
    return cells


def metric_header(metric: str, interval_: bool, paired: bool) -> list[str]:
    return [LABELS[metric]] + (["95% CI"] if interval_ else []) + (["p"] if paired else [])


def systems_table(run: Run, variant: VariantRun) -> Table:
    """Systems × metrics of one variant: score, 95% CI and p against the baseline system."""
    interval_ = bool(run.experiment.compare.resamples)
    paired = interval_ and len(run.outputs) > 1
    header = ["system"]
    for metric in ["ktr", "f", *run.reference_metrics]:
        header += metric_header(metric, interval_, paired)
        if metric == "ktr":
            header += ["micro", "keywords", "transferred"]
        elif metric == "f":
            header += ["prec", "added"]
    rows = []
    for s in variant.systems:
        name = s.name + (" (baseline)" if paired and s.name == run.baseline else "")
        row = [name] + metric_cells(variant.ktr[s.name], "ktr", interval_, paired)
        d = s.summary()
        row += [num(d["ktr_micro"]), str(d["keywords_counted"]), str(d["transferred"])]
        row += metric_cells(variant.f[s.name], "f", interval_, paired) + [num(d["precision"]), str(d["added"])]
        for metric, by_system in run.reference_metrics.items():
            row += metric_cells(by_system[s.name], metric, interval_, paired)
        rows.append(row)
    return Table(header, rows)


def variants_table(run: Run) -> Table:
    """KTR of every system under every variant, with the change from the baseline variant."""
    base = run.experiment.compare.baseline_variant
    header = ["system"] + [v.name + (" (baseline)" if v.name == base else "") for v in run.variants]
    rows = []
    for name in run.outputs:
        row = [name]
        for v in run.variants:
            cell = num(v.system(name).ktr)
            change = v.vs_baseline_variant.get(name)
            if change is not None:
                cell += (
                    f" ({signed(change[0])}, p {p_value(change[1])})"
                    if change[1] is not None
                    else f" ({signed(change[0])})"
                )
            row.append(cell)
        rows.append(row)
    return Table(header, rows)


def classes_table(run: Run, variant: VariantRun) -> Table:
    """Per keyword class: keywords counted and each system's transfer rate."""
    from ktr.experiments.runner import class_rates

    rates = {s.name: class_rates(s) for s in variant.systems}
    classes = [c for c in rates[variant.systems[0].name]]
    header = ["class", "keywords"] + [s.name for s in variant.systems]
    rows = []
    for c in classes:
        n = rates[variant.systems[0].name][c][0]
        rows.append([c, str(n)] + [num(rates[s.name][c][1] / n) for s in variant.systems])
    return Table(header, rows)


def failed_note(variant: VariantRun) -> list[str]:
    """How many source lines the analyzer failed on, then the first of them with the reason."""
    if not variant.failed:
        return []
    lines = [f"NOT SCORED: {len(variant.failed)} sentence(s) on which the analyzer failed or the time limit ran out:"]
    lines += [f"line {n}: {shown(why)}" for n, why in variant.failed[:SHOWN_FAILED]]
    if len(variant.failed) > SHOWN_FAILED:
        lines.append(f"and {len(variant.failed) - SHOWN_FAILED} more (results.json lists all under failed_lines)")
    return lines


def method_note(run: Run) -> str:
    exp = run.experiment
    n, v = len(run.outputs), len(run.variants)
    parts = [
        f"{len(run.sources)} sentences, {n} system{'s' if n != 1 else ''}, {v} variant{'s' if v != 1 else ''}"
        + (f"; baseline system: {run.baseline}." if n > 1 else ".")
    ]
    if exp.compare.resamples:
        parts.append(
            f"95% confidence intervals from {exp.compare.resamples} bootstrap resamples "
            f"(seed {exp.compare.seed}); p: paired bootstrap test against the baseline "
            f"(as sacreBLEU's --paired-bs), * where p < {SIGNIFICANT}."
        )
    return " ".join(parts)


def layout(table: Table) -> list[str]:
    """A table as aligned plain-text lines (first column left, the rest right)."""
    rows = [table.header, *table.rows]
    widths = [max(columns(r[i]) for r in rows) for i in range(len(table.header))]  # Hangul takes two columns
    lines = []
    for n, row in enumerate(rows):
        lines.append("  ".join([padded(row[0], widths[0])] + [padded(c, w, True) for c, w in zip(row[1:], widths[1:])]))
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return lines


def check_folder(directory: str | Path) -> Path:
    """``directory`` as a Path, or InputError when it exists and is not a folder (checked before
    scoring, so a wrong ``-o`` fails at once)."""
    folder = Path(directory)
    if folder.exists() and not folder.is_dir():
        raise InputError(f"{folder}: exists and is not a directory")
    return folder


def write_texts(folder: Path, files: dict[str, str]) -> list[Path]:
    """Each text into its file in ``folder`` (:func:`write_folder`); an OSError becomes an InputError."""
    try:
        return write_folder(folder, files)
    except OSError as exc:
        raise InputError(f"{exc.filename or folder}: cannot write: {exc.strerror}") from None


def write_folder(folder: Path, files: dict[str, str]) -> list[Path]:
    """Each text into its file in ``folder`` (made if needed), all or none
    (:func:`ktr.textio.write_texts`: a full disk leaves the files as they were and no temporary
    file); the folders made here are removed again when the files cannot be written."""
    made = [p for p in (folder, *folder.parents) if not p.exists()]  # the deepest first
    folder.mkdir(parents=True, exist_ok=True)
    try:
        write_texts_all({folder / name: text for name, text in files.items()})
    except OSError:
        for p in made:
            p.rmdir()  # empty: write_texts leaves nothing behind
        raise
    return [folder / name for name in files]

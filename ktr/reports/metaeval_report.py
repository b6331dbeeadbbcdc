"""The meta-evaluation's report: a reading of the figures, Markdown, a chart, and the files.

The result is computed by :func:`ktr.experiments.metaeval.run`; everything here only formats it.
"""

from __future__ import annotations

from pathlib import Path

from ktr.experiments.metaeval import FULL_SCALE, LABELS, METRICS, MetaEval, four_places, percent, reading
from ktr.reports.run_tables import check_folder, write_texts
from ktr.reports.svg import grouped_bars


def _fmt(value: float | None, metric: str) -> str:
    if value is None:
        return "-"
    return f"{value:.4f}" if FULL_SCALE[metric] == 1 else f"{value:.2f}"


def to_markdown(result: MetaEval, title: str = "Meta-evaluation") -> str:
    n = len(result.evaluated)
    rows = [
        f"# {title}",
        "",
        f"{result.lines} sentences, {n} with a KTR score (the sentences of every figure); seed "
        f"{result.seed}. Mean sentence score per variant, and the share of the true "
        "translation's score kept on the sentences the variant changed:",
        "",
        "| variant | changed | "
        + " | ".join(LABELS[m] for m in METRICS)
        + " | "
        + " | ".join(f"{LABELS[m]} kept" for m in METRICS)
        + " |",
        "|---|---:|" + "---:|" * (2 * len(METRICS)),
    ]
    for name in result.variants:
        means = " | ".join(_fmt(result.mean(name, m), m) for m in METRICS)
        kept = " | ".join("" if name == "true" else percent(result.kept(name, m)) for m in METRICS)
        rows.append(f"| {name} | {len(result.changed(name))} | {means} | {kept} |")
    rows += [
        "",
        "| metric | ROC-AUC true vs mismatch | Kendall tau-b, drop level vs score | the same within sentences (mean) |",
        "|---|---:|---:|---:|",
    ]
    for m in METRICS:
        cells = [result.auc(m), result.tau(m), result.tau_within(m)[0]]
        rows.append(f"| {LABELS[m]} | " + " | ".join("-" if c is None else four_places(c) for c in cells) + " |")
    rows += ["", *[f"- {line}" for line in reading(result)], "", f"KTR signature: `{result.signature.short()}`  "]
    rows += [f"sacrebleu {name} (sentence level): `{sig}`  " for name, sig in result.sacrebleu.items()]
    rows.append(f"variants: seed {result.seed}, WordNet {result.wordnet}")
    return "\n".join(rows) + "\n"


def to_svg(result: MetaEval) -> str:
    names = list(result.variants)
    series = {
        f"{LABELS[m]}" + ("" if FULL_SCALE[m] == 1 else f" ÷ {FULL_SCALE[m]:g}"): [
            None if (v := result.mean(name, m)) is None else v / FULL_SCALE[m] for name in names
        ]
        for m in METRICS
    }
    return grouped_bars(names, series, title="Mean sentence score per variant", y_label="score")


def write(result: MetaEval, directory: str | Path) -> list[Path]:
    """Write ``meta-eval.json``, ``meta-eval.md`` and ``meta-eval.svg`` into ``directory``."""
    import json

    folder = check_folder(directory)
    files = {
        "meta-eval.json": json.dumps(result.to_dict(), ensure_ascii=False, indent=2) + "\n",
        "meta-eval.md": to_markdown(result) + "\n![Mean sentence score per variant](meta-eval.svg)\n",
        "meta-eval.svg": to_svg(result),
    }
    return write_texts(folder, files)

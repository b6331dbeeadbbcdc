"""The style set's figures as Markdown and as files (``ktr meta-eval --style``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ktr.experiments.style import NEAR_MISS, StyleResult
from ktr.reports.run_tables import check_folder, num, write_texts


def to_markdown(result: StyleResult, title: str | None = None) -> str:
    f = result.figures()
    styles = result.styles
    if title is None:
        near = NEAR_MISS in styles
        title = (
            "Literal, fluent, degraded and near-miss translations"
            if near
            else "Literal, fluent and degraded translations"
        )
    rows = [
        f"# {title}",
        "",
        f"{f['lines']} lines, each translated literally (close to word for word), fluently (freely "
        "reworded, nothing dropped or added) and degraded (the fluent one with one content element "
        "dropped or changed)"
        + (
            ", and as a near miss (the fluent one with one content word replaced by a closely related "
            "but different word)"
            if NEAR_MISS in styles
            else ""
        )
        + ". A score that measures meaning puts fluent close to literal, and degraded"
        + (" and near miss" if NEAR_MISS in styles else "")
        + " below fluent.",
        "",
        "| | " + " | ".join(s.replace("_", " ") for s in styles) + " |",
        "|---|" + "---:|" * len(styles),
        "| KTR | " + " | ".join(num(f["ktr"][s]) for s in styles) + " |",
        "| F | " + " | ".join(num(f["f"][s]) for s in styles) + " |",
        "",
        f"- fluent / literal (KTR): {num(f['fluent_over_literal'], 3)}",
        f"- fluent − degraded (KTR): {num(f['fluent_minus_degraded'])}",
        f"- degraded below fluent: {f['degraded_below_fluent']} of {f['scored_pairs']} lines",
    ]
    if NEAR_MISS in styles:
        rows += _near_misses(f["near_miss"], f["lines"])
    rows += ["", f"Signature: `{result.signature}`", ""]
    return "\n".join(rows)


def _share(part: int, whole: int) -> str:
    return f"{part} of {whole} lines ({part / whole:.0%})" if whole else f"{part} of 0 lines"


def _near_misses(n: dict[str, Any], lines: int) -> list[str]:
    """The near-miss figures: overall, by the stage that credits the changed keyword, by kind."""
    stages = ", ".join(f"{stage} {count}" for stage, count in n["changed_keyword_by_stage"].items())
    rows = [
        f"- fluent − near miss (KTR): {num(n['fluent_minus_near_miss'])}",
        f"- near miss below fluent: {_share(n['near_miss_below_fluent'], n['scored_pairs'])}",
        f"- the changed keyword still credited in the near-miss line: {_share(n['changed_keyword_credited'], lines)}"
        + (f" (by stage: {stages})" if stages else ""),
    ]
    if n["changed_keyword_not_a_keyword"]:
        missing = ", ".join(str(line) for line in n["changed_keyword_not_a_keyword"])
        rows.append(f"- lines whose changed lemma is no keyword of the source (not counted as credited): {missing}")
    rows += [
        "",
        "Keywords each matching stage credits, in the fluent and in the near-miss lines, and the "
        "changed keywords it credits:",
        "",
        "| stage | in fluent lines | in near-miss lines | changed keywords |",
        "|---|---:|---:|---:|",
    ]
    rows += [
        f"| {stage} | {c['fluent']} | {c[NEAR_MISS]} | {n['changed_keyword_by_stage'].get(stage, 0)} |"
        for stage, c in n["credits_by_stage"].items()
    ]
    rows += [
        "",
        "| kind of near miss | lines | changed keyword credited | near miss below fluent | fluent − near miss |",
        "|---|---:|---:|---:|---:|",
    ]
    rows += [
        f"| {kind.replace('_', ' ')} | {k['lines']} | {k['changed_keyword_credited']} | "
        f"{k['near_miss_below_fluent']} of {k['scored_pairs']} | {num(k['fluent_minus_near_miss'])} |"
        for kind, k in n["by_kind"].items()
    ]
    return rows


def write(result: StyleResult, directory: str | Path) -> list[Path]:
    """``style.json`` and ``style.md`` into ``directory``."""
    folder = check_folder(directory)
    text = json.dumps(result.to_dict(), ensure_ascii=False, indent=2) + "\n"
    return write_texts(folder, {"style.json": text, "style.md": to_markdown(result)})

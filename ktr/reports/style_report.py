"""The style set's figures as Markdown and as files (``ktr meta-eval --style``)."""

from __future__ import annotations

import json
from pathlib import Path

from ktr.experiments.style import STYLES, StyleResult
from ktr.reports.run_tables import check_folder, num, write_texts


def to_markdown(result: StyleResult, title: str = "Literal, fluent and degraded translations") -> str:
    f = result.figures()
    rows = [
        f"# {title}",
        "",
        f"{f['lines']} lines, each translated literally (close to word for word), fluently (freely "
        "reworded, nothing dropped or added) and degraded (the fluent one with one content element "
        "dropped or changed). A score that measures meaning puts fluent close to literal, and degraded "
        "below fluent.",
        "",
        "| | " + " | ".join(STYLES) + " |",
        "|---|" + "---:|" * len(STYLES),
        "| KTR | " + " | ".join(num(f["ktr"][s]) for s in STYLES) + " |",
        "| F | " + " | ".join(num(f["f"][s]) for s in STYLES) + " |",
        "",
        f"- fluent / literal (KTR): {num(f['fluent_over_literal'], 3)}",
        f"- fluent − degraded (KTR): {num(f['fluent_minus_degraded'])}",
        f"- degraded below fluent: {f['degraded_below_fluent']} of {f['scored_pairs']} lines",
        "",
        f"Signature: `{result.signature}`",
        "",
    ]
    return "\n".join(rows)


def write(result: StyleResult, directory: str | Path) -> list[Path]:
    """``style.json`` and ``style.md`` into ``directory``."""
    folder = check_folder(directory)
    text = json.dumps(result.to_dict(), ensure_ascii=False, indent=2) + "\n"
    return write_texts(folder, {"style.json": text, "style.md": to_markdown(result)})

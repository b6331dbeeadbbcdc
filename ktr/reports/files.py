"""The files ``ktr run`` writes: results.json, segments.tsv, report.md, report.html.

All of them are rendered from one :class:`~ktr.experiments.runner.Run`; nothing is written until every format
has been rendered, and then all are written or none (:func:`ktr.textio.write_texts`), so a failing
run, or a full disk, leaves no half-written folder and no temporary file behind.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from ktr.errors import InputError
from ktr.experiments.experiment import FILES
from ktr.reports.run_tables import failed_note, layout, method_note, systems_table, variants_table, write_folder

if TYPE_CHECKING:
    from ktr.experiments.runner import Run


def render(run: Run, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(run.to_dict(), ensure_ascii=False, indent=2) + "\n"
    if fmt == "tsv":
        return segments_tsv(run)
    if fmt == "md":
        from ktr.reports.markdown import markdown

        return markdown(run)
    from ktr.reports.html import html

    return html(run)


def prepare_output(folder: Path, overwrite: bool) -> None:
    """Refuse to write into a folder that already holds something, unless ``overwrite`` (the rule
    of every command that writes a folder: ``ktr run``, ``ktr meta-eval -o``)."""
    if folder.exists() and not folder.is_dir():
        raise InputError(f"{folder}: exists and is not a folder")
    if folder.is_dir() and any(folder.iterdir()) and not overwrite:
        raise InputError(
            f"{folder}: output folder exists and is not empty; "
            "use --overwrite to replace its report files, or -o to choose another folder"
        )


def write_reports(run: Run, folder: Path, overwrite: bool = False) -> list[Path]:
    """Render every configured format, then write them into ``folder``; returns the files."""
    prepare_output(folder, overwrite)
    rendered = {FILES[fmt]: render(run, fmt) for fmt in run.experiment.output.formats}
    try:
        write_folder(folder, rendered)
    except OSError as exc:
        raise InputError(f"{folder}: cannot write the report: {exc.strerror}") from None
    return [folder / name for name in rendered]


def segments_tsv(run: Run) -> str:
    """One row per sentence × system × variant."""
    out = [
        "variant\tsystem\tindex\tscore\tkeywords\ttransferred\tnot_in_lexicon\ttransferred_keywords\tmissed_keywords\t"
        "precision\tf\tadded"
    ]
    for v in run.variants:
        for s in v.systems:
            for seg in s.sentences:
                hit = " ".join(f"{k.keyword.lemma}/{k.keyword.cls}" for k in seg.keywords if k.transferred)
                missed = " ".join(f"{k.keyword.lemma}/{k.keyword.cls}" for k in seg.keywords if not k.transferred)
                ktr, _, precision, f = seg.figures(s.averaging)
                score = "" if ktr is None else f"{ktr:.4f}"
                out.append(
                    f"{v.name}\t{s.name}\t{seg.index}\t{score}\t{seg.counted}\t{seg.transferred}\t"
                    f"{seg.missing}\t{hit}\t{missed}\t{'' if precision is None else f'{precision:.4f}'}\t"
                    f"{'' if f is None else f'{f:.4f}'}\t{' '.join(word for _, word in seg.added)}"
                )
    return "\n".join(out) + "\n"


def summary_text(run: Run) -> str:
    """What ``ktr run`` prints: the systems table of every variant and the signatures."""
    lines = [method_note(run), ""]
    for v in run.variants:
        lines.append(f"variant {v.name}")
        lines += layout(systems_table(run, v))
        lines.append(f"signature: {v.signature.short()}")
        note = failed_note(v)
        lines += note[:1] + [f"  {line}" for line in note[1:]]
        lines.append("")
    if len(run.variants) > 1:
        lines.append("KTR by variant (change from the baseline variant, paired p)")
        lines += layout(variants_table(run))
        lines.append("")
    for name, sig in run.metric_signatures.items():
        lines.append(f"{name}: {sig}")
    return "\n".join(lines).rstrip("\n") + "\n"

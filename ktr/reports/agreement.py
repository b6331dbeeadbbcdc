"""The judged-keyword agreement as Markdown and as files (``ktr meta-eval --gold``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ktr.experiments.judged import KINDS, Agreement
from ktr.reports.run_tables import check_folder, num, write_texts


def to_markdown(result: Agreement, title: str = "Agreement with judged keywords", examples: int = 5) -> str:
    labels = result.counts()
    k = result.keyword_agreement()
    s = result.sentence_agreement()
    rows = [
        f"# {title}",
        "",
        f"{len(result.lines)} judged lines; words judged T {labels.get('T', 0)}, A {labels.get('A', 0)}, "
        f"G {labels.get('G', 0)}, E {labels.get('E', 0)}.",
        "",
        "**Keywords** (words judged T or A; ktr says *transferred* when it credited the word):",
        "",
        "| judged | accuracy | precision | recall | credited T | credited A | missed T | missed A |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
        f"| {k['judged']} | {num(k['accuracy'])} | {num(k['precision'])} | {num(k['recall'])} | "
        f"{k['true_positive']} | {k['false_positive']} | {k['false_negative']} | {k['true_negative']} |",
        "",
        "**Words judged G (grammar) and E (analyzer error)**, as ktr treats them:",
        "",
        "| label | judged | not a keyword that counts | counted, missed | counted, credited |",
        "|---|---:|---:|---:|---:|",
    ]
    for label, row in result.other_labels().items():
        rows.append(
            f"| {label} | {row['judged']} | {row['not_counted']} | {row['counted_missed']} | "
            f"{row['counted_credited']} |"
        )
    rows += [
        "",
        f"**Sentences** ({s['sentences']} with a judged T or A word and a ktr score): the judged "
        "rate T / (T + A) per sentence against ktr's sentence score.",
        "",
        "| judged rate | ktr | difference | mean absolute difference | Pearson |",
        "|---:|---:|---:|---:|---:|",
        f"| {num(s['gold_rate'])} | {num(s['ktr'])} | {num(s['difference'])} | "
        f"{num(s['mean_absolute_difference'])} | {num(s['pearson'])} |",
        "",
        _ceiling(s),
        "",
        "**Disagreements by kind:**",
        "",
        "| kind | words | what it is | examples |",
        "|---|---:|---|---|",
    ]
    for kind, n in result.disagreements().items():
        shown = [i for i in result.items if i.kind == kind][:examples]
        cells = "; ".join(
            f"{i.judgment.line}: {i.judgment.lemma}"
            + (f" → {i.carried}" if i.carried else "")
            + (f" (ktr: {i.result.matched}, {i.result.how})" if i.result is not None and i.result.matched else "")
            for i in shown
        )
        rows.append(f"| {kind} | {n} | {KINDS[kind]} | {cells.replace('|', '¦')} |")
    rows += ["", f"KTR signature: `{result.signature}`"]
    return "\n".join(rows) + "\n"


def _ceiling(s: dict[str, Any]) -> str:
    """What the lines judged all A say about the AUC of true against mismatched translations."""
    if not s["all_absent"]:
        return (
            "No judged line has every word judged A: the readers' judgements separate the true "
            "translations from mismatched ones (AUC 1 on this sample)."
        )
    low, high = s["auc_ceiling_interval"]
    return (
        f"{s['all_absent']} judged lines have every word judged A (misaligned or untranslated lines, "
        "as a rule). A score that agreed with the readers would tie them with mismatched pairs (judged "
        "all A too), so its AUC of true against mismatched translations would be about "
        f"{num(s['auc_ceiling'])} on this corpus ({num(low)}–{num(high)}, the 95 % interval of the share "
        "of such lines), not 1."
    )


def write(result: Agreement, directory: str | Path, examples: int = 20) -> list[Path]:
    """Write ``agreement.json`` (with up to ``examples`` words per kind of disagreement) and
    ``agreement.md`` into ``directory``."""
    folder = check_folder(directory)
    files = {
        "agreement.json": json.dumps(result.to_dict(examples=examples), ensure_ascii=False, indent=2) + "\n",
        "agreement.md": to_markdown(result),
    }
    return write_texts(folder, files)

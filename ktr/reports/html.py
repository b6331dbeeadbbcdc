"""report.html: one self-contained page (inline CSS, JS and SVG; the data embedded as JSON).

Tables and plots are rendered here, so they show even with scripts off; the sentence browser
is drawn by ``assets/report.js`` from the embedded data: the source with its transferred and
missed keywords marked (keyword character offsets), and each output with the tokens that
credited them (token spans mapped to characters by :func:`ktr.english.tokens.token_spans`).
"""

from __future__ import annotations

import json
from html import escape
from importlib.resources import files
from typing import TYPE_CHECKING, Any

from ktr.controls import shown
from ktr.english.tokens import token_spans
from ktr.experiments.runner import class_rates, histogram
from ktr.reports import svg
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
from ktr.version import __version__

if TYPE_CHECKING:
    from ktr.experiments.runner import Run, VariantRun


def _asset(name: str) -> str:
    return files("ktr.reports").joinpath("assets").joinpath(name).read_text(encoding="utf-8")


def _table(table: Table, cls: str = "") -> str:
    """A table in a box that scrolls sideways when the table is wider than the page (a phone);
    an interval's cell may wrap after its comma."""
    head = "".join(f"<th>{escape(h)}</th>" for h in table.header)
    cis = {i for i, h in enumerate(table.header) if h.endswith("CI")}
    rows = []
    for row in table.rows:
        cells = "".join(
            f'<td class="ci">{escape(c)}</td>' if i in cis else f"<td>{escape(c)}</td>" for i, c in enumerate(row)
        )
        rows.append(f"<tr>{cells}</tr>")
    wide = len(table.header) > 8  # wider than a phone: said there (CSS shows the note on narrow screens)
    return (
        f'<div class="scroll"><table class="{cls}"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody>'
        "</table></div>" + ('<p class="note scroll-note">The table scrolls sideways.</p>' if wide else "")
    )


def _failed(variant: VariantRun) -> str:
    note = failed_note(variant)
    if not note:
        return ""
    items = "".join(f"<li>{escape(line)}</li>" for line in note[1:])
    return f"<p><strong>{escape(note[0])}</strong></p><ul>{items}</ul>"


def browser_data(run: Run) -> dict[str, Any]:
    """The sentence browser's data, compact: texts once, per variant the keywords, per variant
    and system each keyword's outcome as [how, matched, first token, end token, in lexicon], and
    the tokens of the output traced to no keyword (added)."""
    variants = []
    for v in run.variants:
        first = v.systems[0]
        keywords = [
            [[k.keyword.start, k.keyword.end, k.keyword.lemma, k.keyword.cls] for k in s.keywords]
            for s in first.sentences
        ]
        results = {}
        for s in v.systems:
            results[s.name] = {
                "scores": [seg.score for seg in s.sentences],
                "kw": [
                    [[k.how, k.matched, *(k.span or (None, None)), int(k.in_lexicon)] for k in seg.keywords]
                    for seg in s.sentences
                ],
                "added": [[i for i, _ in seg.added] for seg in s.sentences],  # token indexes
            }
        variants.append({"name": v.name, "keywords": keywords, "results": results})
    return {
        "systems": list(run.outputs),
        "baseline": run.baseline,
        "sources": run.sources,
        "outputs": run.outputs,
        "references": run.references,
        "tokenSpans": {name: [token_spans(line) for line in lines] for name, lines in run.outputs.items()},
        "variants": variants,
    }


def _json_script(data: Any) -> str:
    # "<" escaped so no string in the data can close the script element
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


def _plots(run: Run) -> str:
    parts = []
    names = list(run.outputs)
    rows = [
        (
            f"{s.name} · {v.name}" if len(run.variants) > 1 else s.name,
            v.ktr[s.name].score,
            v.ktr[s.name].ci,
            names.index(s.name),
        )
        for v in run.variants
        for s in v.systems
    ]
    parts.append("<h3>KTR with 95% confidence intervals</h3>" + svg.intervals(rows))
    for v in run.variants:
        hists = {s.name: histogram(s) for s in v.systems}
        top = max((max(h) for h in hists.values()), default=0) or 1
        charts = "".join(svg.histogram(h, top, name, names.index(name)) for name, h in hists.items())
        rates = {s.name: class_rates(s) for s in v.systems}
        classes = [(c, n) for c, (n, _) in rates[names[0]].items()]
        frac = {name: {c: t / n for c, (n, t) in r.items()} for name, r in rates.items()}
        parts.append(
            f"<h3>Variant <code>{escape(v.name)}</code></h3>"
            f'<p class="note">Sentence scores (number of sentences per score bin)</p>'
            f'<div class="charts">{charts}</div>'
            f'<p class="note">Transfer rate by keyword class (keywords in brackets)</p>'
            + svg.class_bars(classes, names, frac)
        )
    return "".join(parts)


def _differences(run: Run) -> str:
    out = []
    for v in run.variants:
        for name, diffs in v.differences.items():
            if not diffs:
                continue
            items = "".join(
                f'<li><a href="#" data-goto="{d.index}" data-variant="{escape(v.name)}">line {d.index + 1}</a> '
                f"{escape(run.baseline)} {num(d.baseline_score)} → {escape(name)} {num(d.score)} "
                f"({signed(d.delta)}): {escape(shown(run.sources[d.index]))}"
                + (f' <span class="gain">+ {escape(" ".join(d.gained))}</span>' if d.gained else "")
                + (f' <span class="loss">− {escape(" ".join(d.lost))}</span>' if d.lost else "")
                + "</li>"
                for d in diffs
            )
            out.append(
                f"<details><summary><code>{escape(name)}</code> vs <code>{escape(run.baseline)}</code>, "
                f"variant <code>{escape(v.name)}</code></summary><ol>{items}</ol></details>"
            )
    return "".join(out) or "<p>No sentence differs.</p>"


def html(run: Run) -> str:
    exp = run.experiment
    systems = "".join(
        f"<h3>Variant <code>{escape(v.name)}</code></h3>{_table(systems_table(run, v), 'systems')}"
        f'<p class="sig">signature: <code>{escape(v.signature.short())}</code></p>{_failed(v)}'
        for v in run.variants
    )
    sacre = "".join(
        f'<p class="sig">{escape(k)}: <code>{escape(s)}</code></p>' for k, s in run.metric_signatures.items()
    )
    variants = ""
    if len(run.variants) > 1:
        variants = (
            f'<section><h2>Variants</h2><p class="note">KTR per variant; in brackets the change from '
            f"<code>{escape(exp.compare.baseline_variant)}</code> and its paired bootstrap p-value.</p>"
            f"{_table(variants_table(run), 'variants')}</section>"
        )
    classes = "".join(
        f"<h3>Variant <code>{escape(v.name)}</code></h3>{_table(classes_table(run, v), 'classes')}"
        for v in run.variants
    )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ktr run: {escape(exp.name)}</title>
<style>{_asset("report.css")}</style>
</head><body>
<header><h1>ktr run: {escape(exp.name)}</h1><p>{escape(method_note(run))}</p>
<p class="note">ktr {escape(__version__)} · {escape(str(exp.path))}</p>
<p id="font-note" hidden>Korean shows as empty boxes here: this browser has no font with Hangul. Install one
(Linux: Noto Sans CJK, Debian's and Ubuntu's fonts-noto-cjk; macOS and Windows have one) and reload.</p></header>
<section id="systems"><h2>Systems</h2>{systems}{sacre}</section>
{variants}
<section id="plots"><h2>Plots</h2>{_plots(run)}</section>
<section id="classes"><h2>Transfer rate by keyword class</h2>{classes}</section>
<section id="differences"><h2>Where systems differ most</h2>{_differences(run)}</section>
<section id="browser"><h2>Sentences</h2>
<div class="controls">
<label>variant <select id="variant"></select></label>
<label>order <select id="order"><option value="index">line</option>
<option value="diff">largest difference from the baseline</option><option value="low">lowest baseline score</option></select></label>
<label>find <input id="find" type="search" placeholder="text in source or outputs"></label>
<span class="legend"><mark class="hit">transferred</mark> <mark class="miss">missed</mark>
<mark class="nolex">not in the lexicon</mark> <mark class="added">added (traced to no keyword)</mark></span>
</div>
<div class="browser"><div><p id="list-head" class="note"></p><ol id="list" role="listbox" aria-label="sentences"></ol></div><div id="detail"><p>Choose a sentence.</p></div></div>
</section>
<script type="application/json" id="ktr-data">{_json_script(browser_data(run))}</script>
<script>{_asset("report.js")}</script>
</body></html>
"""

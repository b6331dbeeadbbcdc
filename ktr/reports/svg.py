"""Charts as inline SVG strings: no plotting library, no script, readable in any browser.

The histograms, class bars and intervals of ``ktr run``'s HTML report, and the grouped bar
chart of the meta-evaluation (a standalone ``<svg>`` document with inline attributes only,
embeddable in Markdown)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

#: one colour per system, in order (Okabe-Ito, distinguishable with colour-blindness)
COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")


def colour(i: int) -> str:
    return COLOURS[i % len(COLOURS)]


def _svg(width: int, height: int, body: list[str], label: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(label)}">' + "".join(body) + "</svg>"
    )


def _text(x: float, y: float, text: str, anchor: str = "start", size: int = 11, extra: str = "") -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" {extra}>{escape(text)}</text>'


def histogram(counts: Sequence[int], top: int, name: str, i: int) -> str:
    """One system's sentence scores in bins over [0, 1]; ``top`` is the shared y maximum."""
    w, h, left, bottom = 240, 130, 28, 22
    plot_w, plot_h = w - left - 6, h - bottom - 18
    bar_w = plot_w / len(counts)
    body = [_text(left, 12, name, size=12, extra='font-weight="bold"')]
    for b, n in enumerate(counts):
        bh = plot_h * n / top if top else 0
        x, y = left + b * bar_w, 18 + plot_h - bh
        lo, hi = b / len(counts), (b + 1) / len(counts)
        body.append(
            f'<rect x="{x + 1:.1f}" y="{y:.1f}" width="{bar_w - 2:.1f}" height="{bh:.1f}" '
            f'fill="{colour(i)}"><title>{n} sentences scoring {lo:.1f}–{hi:.1f}</title></rect>'
        )
    base = 18 + plot_h
    body.append(f'<line x1="{left}" y1="{base}" x2="{left + plot_w}" y2="{base}" stroke="#444"/>')
    for t in (0, 0.5, 1):
        body.append(_text(left + t * plot_w, base + 14, f"{t:g}", anchor="middle", size=10))
    body.append(_text(left - 4, 22, str(top), anchor="end", size=10))
    body.append(_text(left - 4, base, "0", anchor="end", size=10))
    return _svg(w, h, body, f"distribution of sentence KTR, {name}")


def class_bars(classes: Sequence[tuple[str, int]], systems: Sequence[str], rates: dict[str, dict[str, float]]) -> str:
    """Grouped horizontal bars: per keyword class, each system's transfer rate (0 to 1)."""
    left, right, bar_h, gap, legend = 150, 50, 12, 10, 18
    plot_w = 360
    group_h = bar_h * len(systems) + gap
    h = 30 + legend + group_h * len(classes)
    w = left + plot_w + right
    body = []
    for i, name in enumerate(systems):  # legend: which colour is which system
        x = left + i * (plot_w + right) / max(len(systems), 1)
        body.append(f'<rect x="{x:.1f}" y="2" width="10" height="10" fill="{colour(i)}"/>')
        body.append(_text(x + 14, 11, name, size=11))
    for t in (0, 0.25, 0.5, 0.75, 1):
        x = left + t * plot_w
        body.append(f'<line x1="{x:.1f}" y1="{18 + legend}" x2="{x:.1f}" y2="{h - 4}" stroke="#ddd"/>')
        body.append(_text(x, 12 + legend, f"{t:g}", anchor="middle", size=10))
    for g, (cls, n) in enumerate(classes):
        y0 = 22 + legend + g * group_h
        body.append(_text(left - 8, y0 + bar_h * len(systems) / 2 + 4, f"{cls} ({n})", anchor="end"))
        for i, name in enumerate(systems):
            rate = rates[name].get(cls)
            if rate is None:
                continue
            y = y0 + i * bar_h
            body.append(
                f'<rect x="{left}" y="{y:.1f}" width="{plot_w * rate:.1f}" height="{bar_h - 2}" '
                f'fill="{colour(i)}"><title>{escape(name)}, {escape(cls)}: {rate:.4f}</title></rect>'
            )
            body.append(_text(left + plot_w * rate + 4, y + bar_h - 3, f"{rate:.2f}", size=9))
    return _svg(w, h, body, "transfer rate by keyword class")


def intervals(rows: Sequence[tuple[str, float | None, tuple[float, float] | None, int]]) -> str:
    """A dot per (label, score, CI, colour index) with its 95% interval as a whisker, on [0, 1];
    the labels' column as wide as the longest label needs (about 6.5 px a character), at most
    200 px, so that the chart, scaled to a phone's width, keeps its text readable."""
    plot_w, row_h = 380, 22
    left = min(200, max(60, round(6.5 * max((len(label) for label, *_ in rows), default=0)) + 16))
    h = 26 + row_h * len(rows)
    body = []
    for t in (0, 0.25, 0.5, 0.75, 1):
        x = left + t * plot_w
        body.append(f'<line x1="{x:.1f}" y1="16" x2="{x:.1f}" y2="{h - 2}" stroke="#ddd"/>')
        body.append(_text(x, 11, f"{t:g}", anchor="middle", size=10))
    for r, (label, score, ci, i) in enumerate(rows):
        y = 28 + r * row_h
        body.append(_text(left - 8, y + 4, label, anchor="end"))
        if ci is not None:
            x0, x1 = left + ci[0] * plot_w, left + ci[1] * plot_w
            body.append(f'<line x1="{x0:.1f}" y1="{y}" x2="{x1:.1f}" y2="{y}" stroke="{colour(i)}" stroke-width="2"/>')
        if score is not None:
            tip = f"{label}: {score:.4f}" + (f" [{ci[0]:.4f}, {ci[1]:.4f}]" if ci else "")
            body.append(
                f'<circle cx="{left + score * plot_w:.1f}" cy="{y}" r="5" fill="{colour(i)}">'
                f"<title>{escape(tip)}</title></circle>"
            )
    return _svg(left + plot_w + 20, h, body, "KTR with 95% confidence intervals")


def grouped_bars(
    categories: Sequence[str],
    series: Mapping[str, Sequence[float | None]],
    *,
    title: str,
    y_label: str,
    y_max: float = 1.0,
    ticks: int = 4,
) -> str:
    """A bar per series within a group per category; ``None`` values leave a gap.

    ``series`` maps a legend label to one value per category, on a scale from 0 to ``y_max``.
    """
    left, right, top, bottom = 60, 20, 50, 60
    bar, gap = 14, 18
    group = bar * len(series) + gap
    width = left + right + group * len(categories)
    height = 320
    plot_h = height - top - bottom

    def y(value: float) -> float:
        return top + plot_h * (1 - min(max(value, 0.0), y_max) / y_max)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="14">{escape(title)}</text>',
        f'<text transform="translate(14 {top + plot_h / 2}) rotate(-90)" text-anchor="middle">{escape(y_label)}</text>',
    ]
    for i in range(ticks + 1):
        tick = y_max * i / ticks
        out.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" '
            f'stroke="#ddd"/><text x="{left - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">'
            f"{tick:g}</text>"
        )
    for c, category in enumerate(categories):
        x0 = left + gap / 2 + c * group
        for s, values in enumerate(series.values()):
            value = values[c]
            if value is None:
                continue
            out.append(
                f'<rect x="{x0 + s * bar:.1f}" y="{y(value):.1f}" width="{bar - 1}" '
                f'height="{top + plot_h - y(value):.1f}" fill="{colour(s)}">'
                f"<title>{escape(category)}, {escape(list(series)[s])}: {value:.4g}</title></rect>"
            )
        out.append(
            f'<text x="{x0 + bar * len(series) / 2:.1f}" y="{top + plot_h + 16}" '
            f'text-anchor="middle">{escape(category)}</text>'
        )
    lx = left
    for s, label in enumerate(series):
        out.append(
            f'<rect x="{lx}" y="{height - 22}" width="10" height="10" fill="{colour(s)}"/>'
            f'<text x="{lx + 14}" y="{height - 13}">{escape(label)}</text>'
        )
        lx += 34 + 7 * len(label)  # about 7 px per character at this font size
    out.append("</svg>")
    return "\n".join(out) + "\n"

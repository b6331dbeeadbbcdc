"""Small self-contained SVG charts for reports (no plotting library needed).

Only what reports use: a grouped bar chart. The output is one standalone ``<svg>`` document
with inline attributes only, readable in any browser and embeddable in Markdown.
"""
from __future__ import annotations

from typing import Mapping, Sequence
from xml.sax.saxutils import escape

#: colour-blind-safe palette (Okabe and Ito), one colour per series in order
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")


def grouped_bars(categories: Sequence[str], series: Mapping[str, Sequence[float | None]], *,
                 title: str, y_label: str, y_max: float = 1.0, ticks: int = 4) -> str:
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

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="14">{escape(title)}</text>',
           f'<text transform="translate(14 {top + plot_h / 2}) rotate(-90)" text-anchor="middle">'
           f'{escape(y_label)}</text>']
    for i in range(ticks + 1):
        value = y_max * i / ticks
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{y(value):.1f}" y2="{y(value):.1f}" '
                   f'stroke="#ddd"/><text x="{left - 6}" y="{y(value) + 4:.1f}" text-anchor="end">'
                   f'{value:g}</text>')
    for c, category in enumerate(categories):
        x0 = left + gap / 2 + c * group
        for s, values in enumerate(series.values()):
            value = values[c]
            if value is None:
                continue
            out.append(f'<rect x="{x0 + s * bar:.1f}" y="{y(value):.1f}" width="{bar - 1}" '
                       f'height="{top + plot_h - y(value):.1f}" fill="{PALETTE[s % len(PALETTE)]}">'
                       f'<title>{escape(category)}, {escape(list(series)[s])}: {value:.4g}</title></rect>')
        out.append(f'<text x="{x0 + bar * len(series) / 2:.1f}" y="{top + plot_h + 16}" '
                   f'text-anchor="middle">{escape(category)}</text>')
    lx = left
    for s, label in enumerate(series):
        out.append(f'<rect x="{lx}" y="{height - 22}" width="10" height="10" fill="{PALETTE[s % len(PALETTE)]}"/>'
                   f'<text x="{lx + 14}" y="{height - 13}">{escape(label)}</text>')
        lx += 34 + 7 * len(label)  # about 7 px per character at this font size
    out.append("</svg>")
    return "\n".join(out) + "\n"

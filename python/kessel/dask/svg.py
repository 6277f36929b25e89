"""Horizontal bar charts as inline SVG: readable without a script or a network, printable."""
from __future__ import annotations

import html
from typing import Sequence, Tuple

_BAR_H, _GAP, _LABEL_W, _PLOT_W, _VALUE_W = 18, 6, 220, 420, 110


def bar_chart(rows: Sequence[Tuple[str, float]], unit: str = "", integer: bool = False) -> str:
    """One bar per (label, value), longest = the largest value; the value is printed after it."""
    if not rows:
        return "<p>No data.</p>"
    top = max(v for _, v in rows) or 1.0
    height = len(rows) * (_BAR_H + _GAP) + _GAP
    width = _LABEL_W + _PLOT_W + _VALUE_W
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'role="img" font-family="system-ui,sans-serif" font-size="12">']
    for i, (label, value) in enumerate(rows):
        y = _GAP + i * (_BAR_H + _GAP)
        w = max(1.0, _PLOT_W * value / top) if value > 0 else 0.0
        shown = f"{int(value)}" if integer else f"{value:.1f}"
        text = html.escape(str(label))
        out.append(f'<text x="{_LABEL_W - 6}" y="{y + 13}" text-anchor="end">{text}</text>'
                   f'<rect x="{_LABEL_W}" y="{y}" width="{w:.1f}" height="{_BAR_H}" fill="#4a7fb5">'
                   f'<title>{text}: {shown}{html.escape(unit)}</title></rect>'
                   f'<text x="{_LABEL_W + w + 4:.1f}" y="{y + 13}">{shown}{html.escape(unit)}</text>')
    out.append("</svg>")
    return "".join(out)

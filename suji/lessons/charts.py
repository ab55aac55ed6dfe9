"""SVG bar charts (pygal) with the exact probabilities beside the simulated frequencies.

Charts carry their own text alternative (an SVG <title> and <desc> listing every value) and a plain style that
prints well in black and white: white background, dark exact bars, hatched-looking light simulated bars.
No JavaScript is attached (pygal's tooltips would need a script from elsewhere; the page's CSP forbids it).
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Sequence
from fractions import Fraction

import pygal
from pygal.style import Style

from suji.lessons.steps import fraction_text, percent_text

PRINT_STYLE = Style(
    background="white",
    plot_background="white",
    foreground="#000000",
    foreground_strong="#000000",
    foreground_subtle="#555555",
    opacity="1",
    opacity_hover="1",
    transition="none",
    colors=("#1b3a5c", "#e0a030", "#6a8f3c", "#9c3d3d"),
    font_family="sans-serif",
    title_font_size=18,
    label_font_size=13,
    major_label_font_size=13,
    legend_font_size=14,
    value_font_size=11,
)


def comparison_chart(
    title: str,
    labels: Sequence[str],
    exact: Sequence[Fraction | None] | None,
    simulated: Sequence[float] | None,
    *,
    exact_label: str,
    simulated_label: str,
    x_title: str = "",
    y_title: str = "",
    percent: bool = True,
) -> str:
    """An SVG bar chart of exact values (and simulated ones beside them), with a text alternative.

    `exact` may be None (a simulation only) or hold None where no exact value is known.
    """
    # Long labels (a sentence per bar) would run into each other under upright bars: lie the bars down.
    horizontal = len(labels) <= 12 and _crowded(labels)
    chart = (pygal.HorizontalBar if horizontal else pygal.Bar)(
        style=PRINT_STYLE,
        js=[],
        disable_xml_declaration=True,
        width=760,
        height=380,
        title=title,
        # Lying down, the category axis is the labels themselves; the value axis needs no title.
        x_title=None if horizontal else x_title or None,
        y_title=y_title or None,
        legend_at_bottom=True,
        show_y_guides=True,
        truncate_label=-1,
        x_label_rotation=0 if len(labels) <= 12 else 45,
        value_formatter=(lambda v: f"{v * 100:.{0 if horizontal else 1}f}%")
        if percent
        else (lambda v: f"{v:.3g}"),
        print_values=False,
        margin=12,
        # pygal measures every character as narrow; wide (CJK) ones need the room it leaves out.
        margin_left=12 + (_extra_width(labels) if horizontal else 0),
    )
    # pygal draws the first category of a horizontal chart at the bottom: reverse so it reads top-down.
    order = list(reversed(range(len(labels)))) if horizontal else list(range(len(labels)))
    chart.x_labels = [labels[i] for i in order]
    if exact is not None:
        # A missing exact value (None) leaves a gap rather than a misleading bar at 0.
        chart.add(exact_label, [None if exact[i] is None else float(exact[i]) for i in order])
    if simulated is not None:
        chart.add(simulated_label, [float(simulated[i]) for i in order])
    svg = chart.render(is_unicode=True)
    return _with_text_alternative(
        svg, title, _describe(labels, exact, simulated, exact_label, simulated_label, percent)
    )


def _crowded(labels: Sequence[str], plot_width: int = 700, char_width: float = 7.5) -> bool:
    """True when some label is wider than its bar's slot, so that level labels would run into each other."""
    if not labels:
        return False
    slot = plot_width / len(labels)
    # Wide (CJK) characters take about two columns.
    widths = [sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in label) for label in labels]
    return max(widths) * char_width > slot


def _extra_width(labels: Sequence[str], font_size: int = 13) -> int:
    """Pixels that the widest label's wide characters need beyond pygal's estimate."""
    wide = [sum(unicodedata.east_asian_width(c) in "WF" for c in label) for label in labels]
    return int(max(wide, default=0) * font_size * 0.5)


def _describe(labels, exact, simulated, exact_label, simulated_label, percent) -> str:
    parts = []
    for i, label in enumerate(labels):
        value = exact[i] if exact is not None else None
        items = []
        if value is not None:
            items.append(
                f"{exact_label} {fraction_text(value)}" + (f" ({percent_text(value)})" if percent else "")
            )
        if simulated is not None:
            sim = simulated[i]
            items.append(f"{simulated_label} {percent_text(sim) if percent else f'{sim:.3g}'}")
        text = f"{label}: " + ", ".join(items)
        parts.append(text)
    return "; ".join(parts)


def _with_text_alternative(svg: str, title: str, desc: str) -> str:
    # pygal always writes a config <script>; it is useless without pygal's tooltips and a CSP would refuse it.
    svg = re.sub(r"<script\b.*?</script>", "", svg, flags=re.S)
    svg = re.sub(r"<!--.*?-->", "", svg, flags=re.S)
    # Screen readers read <title>/<desc> of an SVG with role="img"; pygal writes neither, so add them.
    match = re.search(r'<svg\b[^>]*\bid="([^"]+)"[^>]*>', svg)
    if match is None:  # pragma: no cover - pygal always writes an id
        return svg
    cid = match.group(1)
    head = (
        f'<title id="{cid}-title">{html.escape(title)}</title>'
        f'<desc id="{cid}-desc">{html.escape(desc)}</desc>'
    )
    opening = match.group(0).replace("<svg", f'<svg role="img" aria-labelledby="{cid}-title {cid}-desc"', 1)
    return svg[: match.start()] + opening + head + svg[match.end() :]

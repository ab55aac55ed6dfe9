"""SVG bar charts with the exact probabilities beside the simulated frequencies, for a desk and for a phone.

Two layouts of the same values: `comparison_chart` (pygal, 760 × 380) for wide screens and print, and
`narrow_chart` (drawn here, 340 px wide) for phones, where the wide chart scaled down to fit would leave its labels
about 5 px tall. The narrow chart stacks one category per row (its label above its bars when labels are long),
prints each value at the end of its row and grows downwards instead of sideways, so at 340 px its smallest text
is 13 px. The experiment page picks one with <picture>.

Both carry their own size and text alternative (an SVG <title> and <desc> listing every value) and a plain style
that prints well in black and white: white background, dark exact bars, light simulated bars. No JavaScript is
attached (pygal's tooltips would need a script from elsewhere; the page's CSP forbids it), and the narrow chart
uses presentation attributes only, no <style>, so it looks the same wherever it is opened.
"""

from __future__ import annotations

import hashlib
import html
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import pygal
from pygal.style import Style

from suji.core.decimals import percent_text, significant_text
from suji.lessons.steps import fraction_text

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
WIDE_WIDTH, WIDE_HEIGHT = 760, 380


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
        explicit_size=True,  # width and height of its own, so the image has a size before CSS scales it
        width=WIDE_WIDTH,
        height=WIDE_HEIGHT,
        title=title,
        # Lying down, the category axis is the labels themselves; the value axis needs no title.
        x_title=None if horizontal else x_title or None,
        y_title=y_title or None,
        legend_at_bottom=True,
        # One name a line: pygal's columns are sized by its narrow estimate of each character, and a Japanese name
        # with N in it ran out of the picture (「シミュレーション（」).
        legend_at_bottom_columns=1,
        show_y_guides=True,
        truncate_label=-1,
        x_label_rotation=0 if len(labels) <= 12 else 45,
        value_formatter=(lambda v: percent_text(v, 0 if horizontal else 1))
        if percent
        else significant_text,
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
            items.append(f"{simulated_label} {percent_text(sim) if percent else significant_text(sim)}")
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


# ---- the narrow chart, for phones ---------------------------------------------------------------------------

NARROW_WIDTH = (
    340  # a 360 px phone shows it at about 0.93 of its size (12 px text), a 320 px one at 0.87 (11 px)
)
LABEL_SIZE = 14
TEXT_SIZE = 13  # values, legend and axis title: the smallest text of the chart
PAD = 8
BAR = 12  # height of one bar
EXACT_COLOUR, SIMULATED_COLOUR = PRINT_STYLE.colors[0], PRINT_STYLE.colors[1]
SIDE_LABEL_LIMIT = 84  # px: labels up to this wide stand left of their bars, longer ones above them


@dataclass(frozen=True)
class Chart:
    """An SVG chart and its size in CSS px."""

    svg: str
    width: int
    height: int


def text_width(text: str, size: float) -> float:
    """A generous estimate of the width of `text` in sans-serif at `size` px (wide characters are 1 em)."""
    width = 0.0
    for c in text:
        if unicodedata.east_asian_width(c) in "WF":
            width += 1.0
        elif c in " .,:;'!|()[]ijlrtf/":
            width += 0.4
        elif c.isupper() or c in "mwMW%—–≈≥≤":
            width += 0.8
        else:
            width += 0.64
    return width * size


def wrap(text: str, width: float, size: float) -> list[str]:
    """`text` broken into lines no wider than `width`: at spaces, or anywhere between wide characters."""
    # Tokens: a word with the space after it, or a single wide character (Japanese has no spaces to break at).
    tokens = re.findall(r"[^\s\u3000-\u9fff\uff00-\uffef]+\s*|[\u3000-\u9fff\uff00-\uffef]\s*|\s+", text)
    lines, line = [], ""
    for token in tokens:
        if line and text_width((line + token).rstrip(), size) > width:
            lines.append(line.rstrip())
            line = ""
        while text_width(token.rstrip(), size) > width:  # one word wider than the line: cut it
            cut = 1
            while text_width(token[: cut + 1], size) <= width:
                cut += 1
            lines.append(token[:cut])
            token = token[cut:]
        line += token
    if line.strip() or not lines:
        lines.append(line.rstrip())
    return lines


def narrow_chart(
    title: str,
    labels: Sequence[str],
    exact: Sequence[Fraction | None] | None,
    simulated: Sequence[float] | None,
    *,
    exact_label: str,
    simulated_label: str,
    x_title: str = "",
    percent: bool = True,
) -> Chart:
    """The comparison chart laid out for a phone: one category per row, every value printed at its row's end.

    Takes the same values as `comparison_chart`. Short labels (numbers, "≥ 12") stand left of their bars; long
    ones get a line of their own above the bars, wrapped to the width of the chart.
    """
    width = NARROW_WIDTH
    series = []  # (name, colour, values)
    if exact is not None:
        series.append((exact_label, EXACT_COLOUR, [None if v is None else float(v) for v in exact]))
    if simulated is not None:
        series.append((simulated_label, SIMULATED_COLOUR, [float(v) for v in simulated]))

    def value_text(v: float | None) -> str:
        if v is None:
            return "—"
        return percent_text(v) if percent else significant_text(v)

    texts = [value_text(v) for _, _, values in series for v in values]
    value_column = max((text_width(t, TEXT_SIZE) for t in texts), default=0) + 6
    side = bool(labels) and max(text_width(label, LABEL_SIZE) for label in labels) <= SIDE_LABEL_LIMIT
    label_column = max((text_width(label, LABEL_SIZE) for label in labels), default=0) + 8 if side else 0
    x0 = PAD + label_column
    x1 = width - PAD - value_column
    numbers = [v for _, _, values in series for v in values if v is not None]
    low, high = min([0.0, *numbers]), max([0.0, *numbers])
    if high == low:
        high = low + 1

    def x(v: float) -> float:
        return x0 + (v - low) / (high - low) * (x1 - x0)

    parts: list[str] = []
    y = PAD

    def text(tx: float, ty: float, content: str, size: int, anchor: str = "start", weight: str = "") -> None:
        bold = ' font-weight="700"' if weight else ""
        parts.append(
            f'<text x="{tx:.1f}" y="{ty:.1f}" font-size="{size}" text-anchor="{anchor}"{bold} fill="#000">'
            f"{html.escape(content)}</text>"
        )

    # The legend: a swatch and a name per series, one line each (the names carry N, so they can be long).
    for name, colour, _ in series:
        for i, line in enumerate(wrap(name, width - 2 * PAD - 22, TEXT_SIZE)):
            if i == 0:
                parts.append(
                    f'<rect x="{PAD}" y="{y + 2}" width="14" height="14" fill="{colour}" stroke="#000"/>'
                )
            text(PAD + 22, y + 14, line, TEXT_SIZE)
            y += 19
    y += 6
    if x_title:
        for line in wrap(x_title, width - 2 * PAD, TEXT_SIZE):
            text(PAD, y + 13, line, TEXT_SIZE, weight="bold")
            y += 18
    row_bars = len(series) * (BAR + 3)
    for i, label in enumerate(labels):
        if i:
            parts.append(f'<line x1="{PAD}" x2="{width - PAD}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd"/>')
        y += 5
        if side:
            text(PAD, y + row_bars / 2 + 5, label, LABEL_SIZE)
        else:
            for line in wrap(label, width - 2 * PAD, LABEL_SIZE):
                text(PAD, y + LABEL_SIZE, line, LABEL_SIZE)
                y += LABEL_SIZE + 5
            y += 2
        # The zero line of this row's bars: they start there (and go left of it when a value is negative).
        parts.append(
            f'<line x1="{x(0.0):.1f}" x2="{x(0.0):.1f}" y1="{y - 2:.1f}" y2="{y + row_bars:.1f}" stroke="#555"/>'
        )
        for _, colour, values in series:
            v = values[i]
            if v is not None:
                left, right = sorted((x(0.0), x(v)))
                parts.append(
                    f'<rect x="{left:.1f}" y="{y:.1f}" width="{right - left:.1f}" height="{BAR}" '
                    f'fill="{colour}" stroke="#000" stroke-width="0.5"/>'
                )
            text(width - PAD, y + BAR - 1, value_text(v), TEXT_SIZE, anchor="end")
            y += BAR + 3
        y += 4
    height = int(y + PAD)
    desc = _describe(labels, exact, simulated, exact_label, simulated_label, percent)
    cid = "chart-" + hashlib.sha1((title + desc).encode()).hexdigest()[:12]
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" id="{cid}" role="img" aria-labelledby="{cid}-title {cid}-desc" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif">'
        f'<title id="{cid}-title">{html.escape(title)}</title><desc id="{cid}-desc">{html.escape(desc)}</desc>'
        f'<rect width="{width}" height="{height}" fill="#fff"/>' + "".join(parts) + "</svg>"
    )
    return Chart(svg, width, height)

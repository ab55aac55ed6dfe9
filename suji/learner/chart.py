"""The rating over time as an SVG line chart, drawn on the server (nothing from another host, no script).

One point per answer, left to right in the order answered, the rating as pages show it (1000 + 100·θ); the
x axis names the days (a tick where a new day starts), the y axis round values. The SVG scales with its
container (a viewBox, width 100%), carries a <title> and a <desc> that says the first, last, lowest and highest
rating in words for a screen reader, and uses presentation attributes only (no <style>), as the lessons' narrow
charts do (suji.lessons.charts). The page passes the translated words; nothing here knows a language.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date

WIDTH, HEIGHT = 420, 230
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 12, 34
LINE = "#1b3a5c"
GRID = "#d5dbe3"
TEXT = "#333333"
MAX_POINTS = 400  # the chart shows the latest answers: enough for months of practice, a small SVG


@dataclass(frozen=True)
class Point:
    day: date
    rating: int
    made: bool


def _step(span: float) -> int:
    """A round step for the y axis: 1, 2 or 5 times a power of ten, about four steps over `span`."""
    raw = max(span / 4, 1)
    power = 10 ** math.floor(math.log10(raw))
    for k in (1, 2, 5, 10):
        if raw <= k * power:
            return int(k * power)
    return int(10 * power)  # pragma: no cover - the loop always returns


def rating_chart(points: Sequence[Point], title: str, desc: str, day_label: Callable[[date], str]) -> str:
    """The SVG text of the chart; `day_label(day)` writes a day as the page's language does (e.g. 12/3)."""
    points = list(points)[-MAX_POINTS:]
    esc = html.escape
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" '
        f'role="img" aria-labelledby="rating-chart-title rating-chart-desc" class="rating-chart">',
        f'<title id="rating-chart-title">{esc(title)}</title><desc id="rating-chart-desc">{esc(desc)}</desc>',
        f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
    ]
    if not points:
        parts.append("</svg>")
        return "".join(parts)
    low, high = min(p.rating for p in points), max(p.rating for p in points)
    step = _step(high - low)
    y_min = math.floor(low / step) * step - (step if low == high else 0)
    y_max = math.ceil(high / step) * step + (step if low == high else 0)
    if y_max == y_min:
        y_max = y_min + step
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x_of(i: int) -> float:
        return LEFT + (plot_w * i / (len(points) - 1) if len(points) > 1 else plot_w / 2)

    def y_of(rating: float) -> float:
        return TOP + plot_h * (y_max - rating) / (y_max - y_min)

    value = y_min
    while value <= y_max:
        y = y_of(value)
        parts.append(
            f'<line x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" stroke="{GRID}" stroke-width="1"/>'
        )
        parts.append(
            f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" font-size="14" font-family="sans-serif" '
            f'fill="{TEXT}">{value}</text>'
        )
        value += step
    # A tick and a label where a new day starts (every label at least 60 px from the last one).
    last_x = -100.0
    for i, p in enumerate(points):
        if i == 0 or p.day != points[i - 1].day:
            x = x_of(i)
            parts.append(
                f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{HEIGHT - BOTTOM + 4}" stroke="{GRID}" stroke-width="1"/>'
            )
            if x - last_x >= 44:
                parts.append(
                    f'<text x="{x:.1f}" y="{HEIGHT - BOTTOM + 20}" text-anchor="middle" font-size="14" '
                    f'font-family="sans-serif" fill="{TEXT}">{esc(day_label(p.day))}</text>'
                )
                last_x = x
    path = " ".join(f"{x_of(i):.1f},{y_of(p.rating):.1f}" for i, p in enumerate(points))
    parts.append(
        f'<polyline points="{path}" fill="none" stroke="{LINE}" stroke-width="3" stroke-linejoin="round"/>'
    )
    if len(points) <= 60:  # a dot per answer while they are far enough apart: filled for a goal made
        for i, p in enumerate(points):
            fill = LINE if p.made else "white"
            parts.append(
                f'<circle cx="{x_of(i):.1f}" cy="{y_of(p.rating):.1f}" r="4" fill="{fill}" stroke="{LINE}" stroke-width="2"/>'
            )
    parts.append("</svg>")
    return "".join(parts)

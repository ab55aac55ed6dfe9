"""Charts: valid SVG with a text alternative listing every value, no script; the wide and the phone layout."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from fractions import Fraction

from suji.lessons.charts import NARROW_WIDTH, comparison_chart, narrow_chart, text_width, wrap
from suji.lessons.stats import TrialsError, read_seed, read_trials, wilson_interval

SVG = "{http://www.w3.org/2000/svg}"


def test_chart_has_title_desc_and_no_script():
    svg = comparison_chart("Awake?", ["awake", "asleep"], [Fraction(1, 2), Fraction(1, 2)], [0.47, 0.53],
                           exact_label="exact", simulated_label="simulated")  # fmt: skip
    root = ET.fromstring(svg)
    assert root.get("role") == "img"
    assert root.find(f"{SVG}title").text == "Awake?"
    desc = root.find(f"{SVG}desc").text
    assert "awake: exact 1/2 (50.0%), simulated 47.0%" in desc
    assert "asleep" in desc and "53.0%" in desc
    assert "<script" not in svg
    assert set(root.get("aria-labelledby").split()) == {root.find(f"{SVG}title").get("id"),
                                                         root.find(f"{SVG}desc").get("id")}  # fmt: skip


def test_chart_without_simulation_and_with_values():
    svg = comparison_chart("E", ["good"], [Fraction(7, 2)], None, exact_label="exact", simulated_label="s",
                           percent=False)  # fmt: skip
    desc = ET.fromstring(svg).find(f"{SVG}desc").text
    assert desc == "good: exact 7/2"


def test_wide_chart_has_a_size_of_its_own():
    root = ET.fromstring(comparison_chart("E", ["a", "b"], [Fraction(1, 2)] * 2, None, exact_label="exact",
                                          simulated_label="s"))  # fmt: skip
    assert (root.get("width"), root.get("height")) == ("760", "380")


def test_narrow_chart_text_is_phone_sized_and_fits_its_width():
    """The phone layout: 340 px wide, every text 13 px or more, long labels wrapped inside the chart."""
    labels = [
        "6 students, one on a break and a very long label that must wrap",
        "お題が作れないときだけ数字ダイス5個をふりなおす（−5）",
    ]
    chart = narrow_chart("Title", labels, [Fraction(1, 5), None], [0.21, -0.5], exact_label="exact",
                         simulated_label="simulated (1000 trials)", x_title="case")  # fmt: skip
    root = ET.fromstring(chart.svg)
    assert (root.get("width"), root.get("height")) == (
        str(NARROW_WIDTH),
        str(chart.height),
    ) and chart.height > 100
    assert root.get("role") == "img" and root.find(f"{SVG}title").text == "Title"
    assert "exact 1/5 (20.0%)" in root.find(f"{SVG}desc").text
    texts = root.findall(f"{SVG}text")
    assert min(int(t.get("font-size")) for t in texts) >= 13
    for t in texts:
        size, x = int(t.get("font-size")), float(t.get("x"))
        left = x - text_width(t.text, size) if t.get("text-anchor") == "end" else x
        assert 0 <= left and left + text_width(t.text, size) <= NARROW_WIDTH, t.text
    shown = [t.text for t in texts]
    assert "20.0%" in shown and "—" in shown and "-50.0%" in shown  # a missing exact value is a dash
    assert "<style" not in chart.svg and "<script" not in chart.svg  # presentation attributes only
    # A negative value draws its bar left of the zero line.
    bars = [r for r in root.findall(f"{SVG}rect") if r.get("height") == "12"]
    zero = {float(line.get("x1")) for line in root.findall(f"{SVG}line") if line.get("stroke") == "#555"}
    assert len(zero) == 1 and float(bars[-1].get("x")) + float(bars[-1].get("width")) == zero.pop()


def test_short_labels_stand_beside_their_bars():
    chart = narrow_chart("T", [str(t) for t in range(3, 19)], [Fraction(1, 16)] * 16, None, exact_label="exact",
                         simulated_label="s")  # fmt: skip
    labels = [t for t in ET.fromstring(chart.svg).findall(f"{SVG}text") if re.fullmatch(r"\d+", t.text or "")]
    assert len(labels) == 16 and chart.height < 16 * 30 + 80  # one line per row


def test_wrap_breaks_at_spaces_or_between_wide_characters():
    assert wrap("one two three", 1000, 14) == ["one two three"]
    lines = wrap("one two three four five six", 90, 14)
    assert len(lines) > 1 and " ".join(lines) == "one two three four five six"
    assert all(text_width(line, 14) <= 90 for line in lines)
    assert "".join(wrap("あいうえおかきくけこ", 50, 14)) == "あいうえおかきくけこ"


def test_trials_and_seed_reader():
    assert read_trials("１０００") == 1000
    assert read_trials("") == 1000
    assert read_trials("5", limit=5) == 5
    for bad in ("0", "-3", "abc", "6", "1e3", "9" * 20):
        try:
            read_trials(bad, limit=5)
        except TrialsError as err:
            assert err.code == "bad_trials" and err.limit == 5
        else:
            raise AssertionError(bad)
    assert read_seed("42") == 42


def test_wilson_interval_contains_the_frequency():
    low, high = wilson_interval(30, 100)
    assert low < 0.3 < high
    assert wilson_interval(0, 10)[0] == 0.0

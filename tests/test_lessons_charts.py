"""Charts: valid SVG with a text alternative listing every value, no script, exact and simulated series."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from fractions import Fraction

from suji.lessons.charts import comparison_chart
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

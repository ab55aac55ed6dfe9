"""Shown numbers round half up from the exact value, through one helper (issue 26, item 4)."""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from suji.core.decimals import (
    decimal_text,
    equals_sign,
    exact,
    exact_and_decimal,
    grouped,
    percent_text,
    round_half_up,
    rounded,
    significant_text,
)

ROOT = Path(__file__).resolve().parents[2]


def reference(value: Fraction, digits: int) -> Decimal:
    """Decimal's own ROUND_HALF_UP on the exact quotient, worked out with more digits than any test needs."""
    with localcontext() as ctx:
        ctx.prec = 80
        quotient = Decimal(value.numerator) / Decimal(value.denominator)
        return quotient.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Fraction(5, 16), "31.3%"),  # 31.25: a float f-string says 31.2%
        (Fraction(1, 8), "12.5%"),
        (Fraction(9, 100), "9.0%"),  # a decimal always shown, so 9.0% stands beside 8.4%
        (Fraction(1, 3), "33.3%"),
        (Fraction(2, 3), "66.7%"),
        (Fraction(1), "100.0%"),
        (Fraction(0), "0.0%"),
        (0.3125, "31.3%"),  # a float is read as the decimal it prints as
        (Fraction(1, 4000), "0.0%"),
        (Fraction(1, 2000), "0.1%"),  # 0.05% up
    ],
)
def test_percentages_round_half_up(value, text):
    assert percent_text(value) == text


def test_the_issue_s_example_and_the_old_way():
    assert f"{float(Fraction(5, 16)) * 100:.1f}%" == "31.2%"  # what the pages said
    assert percent_text(Fraction(5, 16)) == "31.3%"
    assert percent_text(Fraction(1, 3), 0) == "33%" and percent_text(Fraction(5, 8), 0) == "63%"
    assert rounded(Fraction(1, 8) * 100) == 13  # round() said 12 (half to even)
    assert rounded(Fraction(5, 16) * 100, 1) == 31.3


@pytest.mark.parametrize(
    ("value", "digits", "trim", "text"),
    [
        (Fraction(7, 8), 2, True, "0.88"),
        (Fraction(7, 8), 3, True, "0.875"),
        (Fraction(1, 2), 2, True, "0.5"),
        (Fraction(1, 2), 2, False, "0.50"),
        (2.675, 2, True, "2.68"),  # the float 2.675 is 2.67499999…: read as written, it rounds up
        (Fraction(-1, 20), 1, True, "-0.1"),  # a half goes away from zero
        (Fraction(-1, 40), 1, True, "0"),
        (Fraction(3), 2, False, "3.00"),
        (Fraction(1759, 1000), 1, False, "1.8"),
    ],
)
def test_decimals(value, digits, trim, text):
    assert decimal_text(value, digits, trim) == text


@given(
    st.fractions(min_value=-10**6, max_value=10**6, max_denominator=10**6),
    st.integers(min_value=0, max_value=6),
)
def test_round_half_up_agrees_with_decimal_s_own_rounding(value, digits):
    assert round_half_up(value, digits) == reference(value, digits)


@given(st.integers(min_value=0, max_value=10**5), st.integers(min_value=1, max_value=10**5))
def test_a_share_of_trials_as_the_live_panel_rounds_it(count, n):
    # static/lessons_live.js rounds count/n with whole numbers: floor((2000·count + n) / (2n)) tenths of a percent.
    tenths = (2000 * count + n) // (2 * n)
    assert percent_text(Fraction(count, n)) == f"{tenths // 10}.{tenths % 10}%"


def test_exact_reads_what_it_is_given():
    assert exact(0.1) == Fraction(1, 10) and exact(Decimal("0.125")) == Fraction(1, 8) and exact(3) == 3
    assert grouped(10000) == "10,000" and grouped(999) == "999"
    assert [significant_text(v) for v in (3.514, 0.012345, 1234.5, 10.5, 9.996, 0)] == [
        "3.51", "0.0123", "1235", "10.5", "10", "0"
    ]  # fmt: skip


# Where the code formats a number for people itself (an f-string's :.1f, :.1%, Python's or Jinja's round, "%.2f",
# toFixed, toLocaleString with fraction digits), it rounds a float half to even or on its binary value. Only these
# may, each for its reason: drawing coordinates, internal and JSON model figures that no page shows as a decimal.
ROUNDING = re.compile(r":\.\d+[fg%]\}|%\.\d+f|toFixed\(|maximumFractionDigits|\bround\(|\|round\b")
ALLOWED = {
    "suji/lessons/charts.py": "SVG coordinates (x=, y=, width=)",
    "suji/learner/chart.py": "SVG coordinates",
    "suji/worksheets/dice_nets/nets.py": "the ruler's whole centimetres on the printed page",
    "suji/web/static/classroom.js": "the clock's whole seconds",
    "suji/web/static/lessons_live.js": "the chart's axis ticks (round numbers); the figures use halfUp",
    "suji/web/practice/api.py": "ratings in the JSON API (logits, 4 places), not shown as decimals",
    "suji/web/practice/answers.py": "the model's expected chance, stored",
    "suji/web/practice/store.py": "the model's predicted chance, stored",
    "suji/solver/odds/facts.py": "facts.json's float beside the exact fraction; counts back to whole numbers",
    "suji/solver/odds/table.py": "the build's seconds in the table's header",
    "suji/learner/simulate.py": "the simulation's JSON report",
    "suji/learner/items.py": "ties of route costs",
    "suji/cli/odds.py": "whole seconds of an estimate",
    "suji/core/decimals.py": "the helper itself",
    "suji/web/serve.py": "whole seconds in a line of the server's log",
    "suji/web/logs.py": "whole seconds in a line of the server's log",
    "suji/web/classes/records.py": "seconds in a class's JSON export, not shown as decimals",
    "templates/lessons/play_gooball.html": "SVG coordinates",
    "templates/_odds_status.html": "whole minutes left, rounded up",
}


def test_every_shown_figure_goes_through_the_helper():
    found = []
    for path in [*ROOT.joinpath("suji").rglob("*.py"), *ROOT.joinpath("suji").rglob("*.js"),
                 *ROOT.joinpath("templates").rglob("*.html")]:  # fmt: skip
        name = path.relative_to(ROOT).as_posix()
        if name.startswith("suji/dev/") or name in ALLOWED:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if ROUNDING.search(line):
                found.append(f"{name}:{number}: {line.strip()}")
    assert found == [], "format shown numbers with suji.core.decimals:\n" + "\n".join(found)


@given(st.fractions(min_value=-1000, max_value=1000, max_denominator=500))
def test_exact_and_decimal_shows_a_decimal_only_beside_a_value_that_is_not_whole(x):
    text = exact_and_decimal(x)
    if x.denominator == 1:
        assert text == str(x.numerator)  # 8, never "8 ≈ 8.00"
    else:
        exact_part, decimal_part = text.split(" ≈ ")
        assert Fraction(exact_part) == x and decimal_part == decimal_text(x, 2, trim=False)
    assert exact_and_decimal(Fraction(905, 54)) == "905/54 ≈ 16.76"


def test_equals_sign_says_whether_the_decimal_shown_is_the_exact_value():
    assert equals_sign(Fraction(1, 2), percent_text(Fraction(1, 2))) == "="  # 50.0%
    assert equals_sign(Fraction(1, 6), percent_text(Fraction(1, 6))) == "≈"  # 16.7%
    assert equals_sign(Fraction(7, 2), decimal_text(Fraction(7, 2))) == "="
    assert equals_sign(Fraction(10, 3), decimal_text(Fraction(10, 3))) == "≈"

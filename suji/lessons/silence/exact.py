"""Silence in Class!, the exact odds: the 3d6 totals, the chance a risk roll escapes, and what risking costs.

Each value counts the 216 equally likely rolls of three dice (the numbers from `rules`); the game shows them
on every choice and its expected-value bot follows them, and the lesson puts them beside its simulations.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from suji.core.caching import computed_once
from suji.lessons.silence.rules import DICE, SIDES
from suji.rules.exact import Value, square_root


@computed_once
def distribution() -> dict[int, Fraction]:
    """P(3d6 total = t) for t = 3..18, by counting all 216 equally likely rolls."""
    counts: dict[int, int] = {}
    for roll in product(range(1, SIDES + 1), repeat=DICE):
        counts[sum(roll)] = counts.get(sum(roll), 0) + 1
    total = SIDES**DICE
    return {t: Fraction(c, total) for t, c in sorted(counts.items())}


def p_success(r: int) -> Fraction:
    """P(3d6 ≥ r): the chance a risk roll with risk value `r` escapes."""
    return sum((p for t, p in distribution().items() if t >= r), Fraction(0))


def expected_risk(m: int, r: int) -> Fraction:
    """Expected minus points of risking: 2m · P(fail)."""
    return 2 * m * (1 - p_success(r))


def risk_variance(m: int, r: int) -> Fraction:
    """Variance of the minus points of risking (0 or 2m): (2m)² · p · (1 − p). Taking m has variance 0."""
    p = p_success(r)
    return (2 * m) ** 2 * p * (1 - p)


def risk_sd(m: int, r: int) -> Value:
    """The exact standard deviation of risking, 2m·√(p(1 − p)) (taking m: 0), as the rules' exact value: the
    lesson prints it with the one pupil spelling (suji.rules.language.printing.pupil_text, 11√15/4)."""
    return square_root(risk_variance(m, r))


def risk_pays(r: int) -> int:
    """Compare risking with taking, for any m: 1 if risking is better on average, 0 if even, −1 if worse."""
    # 2m·P(fail) < m  ⇔  P(fail) < 1/2  ⇔  P(success) > 1/2, whatever m is.
    p = p_success(r)
    return (p > Fraction(1, 2)) - (p < Fraction(1, 2))


def threshold() -> int:
    """The largest risk value where risking still pays on average (10: P(3d6 ≥ 10) = 5/8 > 1/2)."""
    return max(r for r in range(DICE, DICE * SIDES + 1) if risk_pays(r) > 0)

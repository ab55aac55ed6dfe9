"""Gooball, the exact odds: moves, bumps, pushes, reaching the centre, a lone gooball's turns to 15 points.

Each value counts the equally likely faces of one or two d12 (the numbers from `rules`); the game shows some
of them to the student before a choice, and the lesson puts them beside its simulations.
"""

from __future__ import annotations

import math
from fractions import Fraction

from suji.core.caching import bounded
from suji.lessons.gooball.rules import CAREFUL, EXTRA, GOAL, SIDES


def movement_distribution() -> dict[int, Fraction]:
    """P(the longest possible move is m inches), m = 6..17: each 1/12."""
    return {p + EXTRA: Fraction(1, SIDES) for p in range(1, SIDES + 1)}


def bump_outcomes() -> dict[str, Fraction]:
    """P(the mover wins / ties / loses a bump) when both powers are independent d12 rolls."""
    pairs = [(a, b) for a in range(1, SIDES + 1) for b in range(1, SIDES + 1)]
    total = len(pairs)
    return {
        "win": Fraction(sum(a > b for a, b in pairs), total),
        "tie": Fraction(sum(a == b for a, b in pairs), total),
        "lose": Fraction(sum(a < b for a, b in pairs), total),
    }


def p_win_against(power: int) -> Fraction:
    """P(the mover's d12 beats a gooball showing `power`)."""
    return Fraction(SIDES - power, SIDES)


def push_distribution() -> dict[int, Fraction]:
    """P(the push in a bump is k inches), k = 0..11 (0 is a tie: nobody moves)."""
    counts: dict[int, int] = {}
    for a in range(1, SIDES + 1):
        for b in range(1, SIDES + 1):
            counts[abs(a - b)] = counts.get(abs(a - b), 0) + 1
    return {k: Fraction(c, SIDES * SIDES) for k, c in sorted(counts.items())}


def p_reach(distance: float) -> Fraction:
    """P(a gooball `distance` inches from the centre can reach it this turn): P(power + 5 ≥ distance)."""
    need = math.ceil(distance) - EXTRA  # the smallest power that is enough
    return Fraction(min(SIDES, max(0, SIDES - max(need, 1) + 1)), SIDES)


def p_reach_and_win(distance: float, power: int) -> Fraction:
    """P(the mover reaches a gooball `distance` inches away and wins the bump against its face `power`).

    One roll p decides both: the move (p + 5 ≥ distance) and the bump (p > power). The two events are not
    independent (a high roll helps both), so this counts the faces where both hold instead of multiplying.
    """
    need = math.ceil(distance) - EXTRA  # the smallest power that reaches
    return Fraction(sum(1 for p in range(1, SIDES + 1) if p >= need and p > power), SIDES)


@bounded("gooball_turns")
def expected_turns_alone(strategy: str, points: int = 0, distance: int | None = None) -> Fraction:
    """Exact expected turns for a lone gooball to score GOAL points (start: a d12 roll away from the centre).

    Whole inches, the centre a point: a move of L ≥ d passes it (or lands on it) and scores. `careful` stops
    1 inch past the centre, `full` always moves the whole distance. Leaving the centre from on top of it does
    not score. Each state only leads to more points or a smaller distance, so plain recursion terminates.
    """
    if points == GOAL:
        return Fraction(0)
    if distance is None:
        return sum((expected_turns_alone(strategy, 0, d) for d in range(1, SIDES + 1)), Fraction(0)) / SIDES
    total = Fraction(0)
    for power in range(1, SIDES + 1):
        move = power + EXTRA
        if distance == 0:
            total += expected_turns_alone(strategy, points, move)
        elif move >= distance:
            past = 1 if strategy == CAREFUL else move - distance
            total += expected_turns_alone(strategy, points + 1, past)
        else:
            total += expected_turns_alone(strategy, points, distance - move)
    return 1 + total / SIDES

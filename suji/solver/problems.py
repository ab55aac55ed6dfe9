"""Problems certified solvable by the solver: drill and worksheet rolls at levels 1–3.

Level 1: + and − are enough. Level 2: the roll has × ÷ or a constant die, and + − × ÷ ×10 ×11 ×12 are enough.
Level 3: the roll has ² or √, and any operator may be used. Each problem comes with the solver's answer for the
operators of its level (the student may still use every die rolled).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from suji.core.i18n import N_
from suji.rules.dice import Roll, roll_standard
from suji.solver.search import LEVEL_OPERATORS, Solution, solve

LEVELS = (1, 2, 3)
# What each level lets a pupil use, as the drills and the worksheets name it.
LEVEL_NAMES = {
    1: N_("Level 1: + and −"),
    2: N_("Level 2: also × ÷ ×10 ×11 ×12"),
    3: N_("Level 3: also ² and √"),
}
# Each level but the first asks for a die that needs it, so a level-3 roll always shows ² or √.
_NEW_AT_LEVEL = {
    1: frozenset(),
    2: LEVEL_OPERATORS[2] - LEVEL_OPERATORS[1],
    3: LEVEL_OPERATORS[3] - LEVEL_OPERATORS[2],
}
MAX_ATTEMPTS = 500


@dataclass
class Problem:
    """A certified roll and the solver's answer at its level."""

    roll: Roll
    level: int
    solution: Solution


def certified_roll(level: int, seed: int | str | random.Random | None = None) -> Problem:
    """A standard roll that can make a target with the operators of `level`, from a seed (reproducible)."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {LEVELS}")
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    for _ in range(MAX_ATTEMPTS):
        roll = roll_standard(rng)
        if _NEW_AT_LEVEL[level] and not _NEW_AT_LEVEL[level] & set(roll.operator_dice):
            continue
        solution = solve(roll, LEVEL_OPERATORS[level])
        if solution.best:
            return Problem(roll, level, solution)
    raise RuntimeError("no solvable roll found")  # pragma: no cover - every level finds one in a few tries


def problem_set(count: int, level: int, seed: int | str) -> list[Problem]:
    """`count` certified problems from one seed: the same seed gives the same problems."""
    rng = random.Random(f"{seed}/{level}")
    return [certified_roll(level, rng) for _ in range(count)]

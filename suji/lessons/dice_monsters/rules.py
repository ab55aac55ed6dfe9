"""Dice Monsters, the rules as values: the sample monsters, the classroom limits and the monster designer.

RULES.md §2. Classroom monsters: 4 to 6 dice, at most 50 sides in total (a coin is a 2-sided die). Data flows:
the student's text → `design` → a monster (its dice sizes, sorted), or a `DesignError` whose code keys the
message the page shows. Nothing here imports the rest of the package.
"""

from __future__ import annotations

import re

from suji.core.errors import SujiError
from suji.core.i18n import N_
from suji.core.text import whole_number

MONSTERS: dict[str, tuple[int, ...]] = {
    "torchy": (6, 8, 8, 8, 20),
    "drippy": (6, 10, 10, 12, 12),
    "gusty": (4, 4, 6, 6, 10, 20),
    "stoney": (8, 10, 12, 20),
}
MONSTER_NAMES = {"torchy": N_("Torchy"), "drippy": N_("Drippy"), "gusty": N_("Gusty"), "stoney": N_("Stoney")}
STANDARD_SIZES = (2, 4, 6, 8, 10, 12, 20)
MIN_DICE, MAX_DICE, MAX_SIDES = 4, 6, 50
MIN_SIZE, MAX_SIZE = 2, 20  # a coin is a 2-sided die; the table covers 2- to 20-sided dice
ROUNDS_TO_WIN = 3
MAX_ROUNDS = 60  # safety stop: drawn rounds are replayed, but not forever


# ---- the monster designer ----------------------------------------------------------------------------------

DESIGN_ERRORS = {
    "not_numbers": N_(
        "Type the dice sizes as whole numbers separated by spaces or commas, e.g. 4 6 8 10 20."
    ),
    "bad_size": N_("Each die must have from 2 to 20 sides (a coin is a 2-sided die)."),
    "too_few": N_("A monster needs at least 4 dice."),
    "too_many": N_("A monster may have at most 6 dice."),
    "too_many_sides": N_("Too many sides: %(total)s in total, but at most 50 are allowed."),
}


class DesignError(SujiError):
    """A monster outside the classroom limits; `code` keys DESIGN_ERRORS, `total` is the number of sides."""

    MESSAGES = DESIGN_ERRORS

    def __init__(self, code: str, total: int = 0) -> None:
        super().__init__(code, total=total)
        self.total = total


def design(text: str) -> tuple[int, ...]:
    """Read a monster like "4 6 8 10 20" (full-width digits and commas fine) and enforce the limits."""
    parts = re.split(r"[,，、\s]+", str(text).strip())
    sizes = [whole_number(p, 0, 999, digits=3) for p in parts if p]
    if not sizes or len(sizes) > 20 or None in sizes:
        raise DesignError("not_numbers")
    dice = tuple(sorted(sizes))  # type: ignore[type-var]
    if any(not MIN_SIZE <= d <= MAX_SIZE for d in dice):
        raise DesignError("bad_size")
    if len(dice) < MIN_DICE:
        raise DesignError("too_few")
    if len(dice) > MAX_DICE:
        raise DesignError("too_many")
    if sum(dice) > MAX_SIDES:
        raise DesignError("too_many_sides", sum(dice))
    return dice

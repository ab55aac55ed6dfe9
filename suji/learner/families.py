"""Skill families: the kinds of move a formula makes, and which of them one formula uses.

A family is what a pupil has to be able to do to write a formula: add and take away, multiply, divide, use a
×10/×11/×12 die, square, take a root, join digits into a bigger number, read a 6 as 9, and keep four or all five
number dice in one formula (a long formula is a skill of its own: some pupils manage three dice and no more).
The learner model keeps
one rating per family (suji.learner.model) and an item names the families its easiest solution needs
(suji.learner.items). Data flows one way: die faces → `families_of` → a frozenset of family names.

"Fractions on the way" is not a family (no die makes it) but a feature of a formula's difficulty: a ÷ that
leaves a fraction before a later × makes it whole (8÷3×12), which pupils find harder than whole steps.
"""

from __future__ import annotations

from collections.abc import Sequence

from suji.core.i18n import N_
from suji.rules.dice import CONSTANT_FACES, DIVIDE, MINUS, PLUS, ROOT, SQUARE, TIMES
from suji.rules.language.spelling import Face

PLUS_MINUS = "plus_minus"
TIMES_FAMILY = "times"
DIVIDE_FAMILY = "divide"
CONSTANTS = "constants"
SQUARE_FAMILY = "square"
ROOT_FAMILY = "root"
JOINED = "joined"
SIX_AS_NINE = "six_as_nine"
FOUR_DICE = "four_dice"
FIVE_DICE = "five_dice"

# In the order pages list them: the operators in the order of the levels, then the two ways of reading dice.
FAMILIES: tuple[str, ...] = (
    PLUS_MINUS, TIMES_FAMILY, DIVIDE_FAMILY, CONSTANTS, SQUARE_FAMILY, ROOT_FAMILY, JOINED, SIX_AS_NINE,
    FOUR_DICE, FIVE_DICE,
)  # fmt: skip
FAMILY_INDEX = {family: i for i, family in enumerate(FAMILIES)}

# What a page calls each family (English msgids; the Japanese is in translations/).
FAMILY_NAMES = {
    PLUS_MINUS: N_("+ and − (adding and taking away)"),
    TIMES_FAMILY: N_("× (times)"),
    DIVIDE_FAMILY: N_("÷ (dividing)"),
    CONSTANTS: N_("×10 ×11 ×12"),
    SQUARE_FAMILY: N_("² (squaring)"),
    ROOT_FAMILY: N_("√ (square root)"),
    JOINED: N_("Joining digits (2 and 6 make 26)"),
    SIX_AS_NINE: N_("Reading a 6 as 9"),
    FOUR_DICE: N_("Using four number dice"),
    FIVE_DICE: N_("Using all five number dice"),
}

_OPERATOR_FAMILY = {
    PLUS: PLUS_MINUS,
    MINUS: PLUS_MINUS,
    TIMES: TIMES_FAMILY,
    DIVIDE: DIVIDE_FAMILY,
    SQUARE: SQUARE_FAMILY,
    ROOT: ROOT_FAMILY,
    **{face: CONSTANTS for face in CONSTANT_FACES},
}
# The drill level whose operators a family belongs to (joining digits, 6 as 9 and long formulas: every level).
FAMILY_LEVEL = {
    PLUS_MINUS: 1, JOINED: 1, SIX_AS_NINE: 1, FOUR_DICE: 1, FIVE_DICE: 1, TIMES_FAMILY: 2, DIVIDE_FAMILY: 2,
    CONSTANTS: 2, SQUARE_FAMILY: 3, ROOT_FAMILY: 3,
}  # fmt: skip


def families_of(faces: Sequence[Face], nine_is_six: bool = True) -> frozenset[str]:
    """The families a formula of die faces uses.

    A digit 9 is a 6 read as 9 (`nine_is_six`, true for the standard dice, which have no 9); two digits side by
    side are a joined number; four or five digits in all are a long formula.
    """
    found: set[str] = set()
    previous_digit = False
    digits = 0
    for face in faces:
        if type(face) is int:
            digits += 1
            if previous_digit:
                found.add(JOINED)
            if face == 9 and nine_is_six:
                found.add(SIX_AS_NINE)
            previous_digit = True
        else:
            found.add(_OPERATOR_FAMILY[face])
            previous_digit = False
    if digits >= 4:
        found.add(FOUR_DICE)
    if digits >= 5:
        found.add(FIVE_DICE)
    return frozenset(found)


def level_of(families: frozenset[str]) -> int:
    """The lowest drill level (1–3) whose operators cover these families."""
    return max((FAMILY_LEVEL[f] for f in families), default=1)


def mask_of(families: frozenset[str] | set[str]) -> int:
    """The families as bits (FAMILIES order), the compact form the item bank stores."""
    return sum(1 << FAMILY_INDEX[f] for f in families)


def families_of_mask(mask: int) -> frozenset[str]:
    """The families whose bits are set in `mask`."""
    return frozenset(f for i, f in enumerate(FAMILIES) if mask >> i & 1)

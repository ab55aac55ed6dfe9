"""Silence in Class!, the rules as values: the board, the cards, and the risk roll of three dice.

RULES.md §2. The seed gives one card (Cheating 9/11/12); every other card and the board length are labelled
examples. Everything else in the package reads these values; nothing here imports the rest of the package.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from suji.core.i18n import N_

DICE = 3
SIDES = 6
INK_BLOT = 20  # a teacher card comes at every multiple of 20
BOARD_END = 100  # example: the seed's board is not in the text ("Caution, Teacher" space)
HAND = 4


@dataclass(frozen=True)
class Card:
    """A pupil or teacher card: patience points, minus points, risk value (star: detention)."""

    name: str  # msgid
    patience: int
    minus: int
    risk: int
    star: bool = False
    example: bool = True  # not from the seed
    # Teacher cards "Test" and "Inattentive Teacher": the teacher is busy, so no minus points, no patience
    # and no choice to make (the seed: "the pupils are lucky").
    lucky: bool = False


CHEATING = Card(N_("Cheating"), 9, 11, 12, example=False)
PUPIL_CARDS: tuple[Card, ...] = (
    CHEATING,
    Card(N_("Passing notes"), 3, 4, 9),
    Card(N_("Chewing gum"), 2, 3, 8),
    Card(N_("Paper plane"), 6, 8, 11),
    Card(N_("Whispering"), 4, 5, 10),
    Card(N_("Drawing on the desk"), 5, 7, 13),
    Card(N_("Phone in class"), 8, 10, 14),
    Card(N_("Sleeping"), 5, 6, 7),
)
TEACHER_CARDS: tuple[Card, ...] = (
    Card(N_("Pop quiz"), 4, 6, 11),
    Card(N_("Extra homework"), 3, 5, 10, star=True),
    Card(N_("Test"), 0, 0, 0, example=False, lucky=True),
    Card(N_("Inattentive Teacher"), 0, 0, 0, example=False, lucky=True),
    Card(N_("Angry teacher"), 5, 8, 12, star=True),
)

# A card's two answers: take its minus points, or risk a roll.
TAKE, RISK = "take", "risk"


def roll_3d6(rng: random.Random) -> int:
    """One risk roll."""
    return sum(rng.randint(1, SIDES) for _ in range(DICE))

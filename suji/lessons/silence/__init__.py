"""Silence in Class!: 3d6 risk rolls, their exact odds, and a small game where the student takes or risks.

RULES.md §2. Data flows one way through the package, each module reading only the ones before it:

    rules   the board, the pupil and teacher cards, and the risk roll of three dice
      → exact   the odds as fractions: the 3d6 totals, escaping a risk value, the expected cost of risking
      → game    a game played from a seed: the bots, and the odds of each take-or-risk choice offered
      → lesson  seeded trials beside the exact values, the questions and the page (`LESSON`)

`suji.lessons.lessons()` reads `LESSON`; the pages replay the student's game with `replay`. The names other
code imports are all here, so `from suji.lessons.silence import X` does not depend on which module holds X.
"""

from __future__ import annotations

from suji.lessons.silence.exact import (
    distribution,
    expected_risk,
    p_success,
    risk_pays,
    risk_sd,
    risk_variance,
    threshold,
)
from suji.lessons.silence.game import (
    BOTS,
    SilenceGame,
    bot_always_risk,
    bot_always_take,
    bot_expected,
    replay,
)
from suji.lessons.silence.lesson import (
    LESSON,
    LIVE_AT_LEAST,
    LIVE_EXPECTED,
    LIVE_TOTALS,
    TOTALS,
    simulate_risk,
    simulate_strategies,
    simulate_totals,
    steps,
)
from suji.lessons.silence.rules import (
    BOARD_END,
    CHEATING,
    DICE,
    HAND,
    INK_BLOT,
    PUPIL_CARDS,
    RISK,
    SIDES,
    TAKE,
    TEACHER_CARDS,
    Card,
    roll_3d6,
)

__all__ = [
    "BOARD_END",
    "BOTS",
    "CHEATING",
    "DICE",
    "HAND",
    "INK_BLOT",
    "LESSON",
    "LIVE_AT_LEAST",
    "LIVE_EXPECTED",
    "LIVE_TOTALS",
    "PUPIL_CARDS",
    "RISK",
    "SIDES",
    "TAKE",
    "TEACHER_CARDS",
    "TOTALS",
    "Card",
    "SilenceGame",
    "bot_always_risk",
    "bot_always_take",
    "bot_expected",
    "distribution",
    "expected_risk",
    "p_success",
    "replay",
    "risk_pays",
    "risk_sd",
    "risk_variance",
    "roll_3d6",
    "simulate_risk",
    "simulate_strategies",
    "simulate_totals",
    "steps",
    "threshold",
]

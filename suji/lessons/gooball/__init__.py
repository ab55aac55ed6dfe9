"""Gooball: roll a d12, move 6 to 17 inches, bump the others and roll over the centre to score.

RULES.md §2. Data flows one way through the package, each module reading only the ones before it:

    rules   the game as values: a d12 of power, moves of power + 5 inches, 15 points, a gooball 1 inch across
      → exact   the odds as fractions: moves, bumps, pushes, reaching the centre, a lone gooball's turns
      → game    a table of gooballs played from a seed: the bots, and the odds of each aim offered
      → lesson  seeded trials, lone gooballs and bot games beside the exact values, the questions and the
                page (`LESSON`)

`suji.lessons.lessons()` reads `LESSON`; the pages replay the student's game with `replay`. The names other
code imports are all here, so `from suji.lessons.gooball import X` does not depend on which module holds X.
"""

from __future__ import annotations

from suji.lessons.gooball.exact import (
    bump_outcomes,
    expected_turns_alone,
    movement_distribution,
    p_reach,
    p_reach_and_win,
    p_win_against,
    push_distribution,
)
from suji.lessons.gooball.game import Ball, GooballGame, replay
from suji.lessons.gooball.lesson import (
    BUMP_DICE,
    LESSON,
    LIVE_BUMP,
    LIVE_MOVEMENT,
    LIVE_PUSH,
    LIVE_REACH,
    LIVE_TURNS,
    REACH,
    simulate_table_turns,
    simulate_turns_alone,
    steps,
    turns_alone,
)
from suji.lessons.gooball.rules import (
    BOT_NAMES,
    CAREFUL,
    EXTRA,
    FULL,
    GOAL,
    MAX_ROUNDS,
    RADIUS,
    SIDES,
)

__all__ = [
    "BOT_NAMES",
    "BUMP_DICE",
    "CAREFUL",
    "EXTRA",
    "FULL",
    "GOAL",
    "LESSON",
    "LIVE_BUMP",
    "LIVE_MOVEMENT",
    "LIVE_PUSH",
    "LIVE_REACH",
    "LIVE_TURNS",
    "MAX_ROUNDS",
    "RADIUS",
    "REACH",
    "SIDES",
    "Ball",
    "GooballGame",
    "bump_outcomes",
    "expected_turns_alone",
    "movement_distribution",
    "p_reach",
    "p_reach_and_win",
    "p_win_against",
    "push_distribution",
    "replay",
    "simulate_table_turns",
    "simulate_turns_alone",
    "steps",
    "turns_alone",
]

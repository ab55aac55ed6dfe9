"""9am Class: stay awake, get called, look good or make the others look bad — exact odds and simulated games.

RULES.md §2. Data flows one way through the package, each module reading only the ones before it:

    rules   the game as values: 20 points, 12 turns, a d6 status (awake from 4), the professor's n-sided die
      → exact   the odds as fractions, counted over those rules
      → game    a class played turn by turn from a seed: the bots, and the odds shown before each choice
      → lesson  seeded trials and bot games beside the exact values, the questions and the page (`LESSON`)

`suji.lessons.lessons()` reads `LESSON`; the pages replay the student's game with `replay`. The names other
code imports are all here, so `from suji.lessons.nine_am import X` does not depend on which module holds X.
"""

from __future__ import annotations

# The texts the game writes its odds in (with fraction_text): tests compare a decision's numbers with them
# through this package.
from suji.core.decimals import percent_text
from suji.lessons.nine_am.exact import (
    expected_change,
    expected_damage,
    expected_final_grade_all_good,
    mean_die,
    p_awake,
    p_called,
    p_tie_break_win,
)
from suji.lessons.nine_am.game import (
    STRATEGIES,
    STRATEGY_NAMES,
    NineAmGame,
    break_when_known_asleep,
    choose_bad,
    choose_good,
    choose_smart,
    replay,
)
from suji.lessons.nine_am.lesson import (
    CALLED_CASES,
    LESSON,
    LIVE_AWAKE,
    LIVE_CALLED,
    LIVE_CHOICES,
    LIVE_GRADE,
    LIVE_STRATEGIES,
    LIVE_TIES,
    simulate_games,
    simulate_wins,
    steps,
)
from suji.lessons.nine_am.rules import (
    AWAKE_FROM,
    BAD,
    BREAK,
    CHOICE,
    GOOD,
    OVER,
    PROFESSOR,
    ROLL,
    START,
    START_SCORE,
    STAY,
    STUDENT_DIE,
    TURNS,
    VARIANTS,
    is_awake,
)
from suji.lessons.steps import fraction_text

__all__ = [
    "AWAKE_FROM",
    "BAD",
    "BREAK",
    "CALLED_CASES",
    "CHOICE",
    "GOOD",
    "LESSON",
    "LIVE_AWAKE",
    "LIVE_CALLED",
    "LIVE_CHOICES",
    "LIVE_GRADE",
    "LIVE_STRATEGIES",
    "LIVE_TIES",
    "OVER",
    "PROFESSOR",
    "ROLL",
    "START",
    "START_SCORE",
    "STAY",
    "STRATEGIES",
    "STRATEGY_NAMES",
    "STUDENT_DIE",
    "TURNS",
    "VARIANTS",
    "NineAmGame",
    "break_when_known_asleep",
    "choose_bad",
    "choose_good",
    "choose_smart",
    "expected_change",
    "expected_damage",
    "expected_final_grade_all_good",
    "fraction_text",
    "is_awake",
    "mean_die",
    "p_awake",
    "p_called",
    "p_tie_break_win",
    "percent_text",
    "replay",
    "simulate_games",
    "simulate_wins",
    "steps",
]

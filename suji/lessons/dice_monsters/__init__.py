"""Dice Monsters (a classroom Button Men): which die beats which, skill attacks, who starts, who wins.

RULES.md §2. Data flows one way through the package, each module reading only the ones before it:

    rules   the sample monsters, the classroom limits and the designer that reads a student's monster
      → exact   the odds as fractions: a die against a die, a skill attack, who starts
      → game    a match played round by round from a seed: the bots, and the odds of each attack offered
      → lesson  seeded trials and bot matches beside the exact values (and 10,000 stored games a match),
                the questions and the page (`LESSON`)

`suji.lessons.lessons()` reads `LESSON`; the pages replay the student's match with `replay` and the designer
page uses `design` and `design_results`. The names other code imports are all here, so
`from suji.lessons.dice_monsters import X` does not depend on which module holds X.
"""

from __future__ import annotations

from suji.lessons.dice_monsters.exact import beat_table, p_at_least, p_skill_exists, p_starts
from suji.lessons.dice_monsters.game import (
    BOTS,
    Attack,
    MonsterGame,
    Side,
    greedy,
    half_points_text,
    legal_attacks,
    random_bot,
    replay,
)
from suji.lessons.dice_monsters.lesson import (
    LESSON,
    LIVE_BEATS,
    LIVE_MATCHES,
    LIVE_SKILL,
    LIVE_START,
    MATCH_FILE,
    MATCHES,
    PRECOMPUTE_GAMES,
    PRECOMPUTE_SEED,
    SKILL_CASES,
    START_PAIRS,
    _first_mover,  # the start experiment's one roll-off, which a test checks against the exact odds
    design_results,
    monster_from_text,
    precompute_matches,
    precomputed_matches,
    precomputed_rows,
    simulate_match,
    steps,
)
from suji.lessons.dice_monsters.rules import (
    DESIGN_ERRORS,
    MAX_DICE,
    MAX_ROUNDS,
    MAX_SIDES,
    MAX_SIZE,
    MIN_DICE,
    MIN_SIZE,
    MONSTER_NAMES,
    MONSTERS,
    ROUNDS_TO_WIN,
    STANDARD_SIZES,
    DesignError,
    design,
)

__all__ = [
    "BOTS",
    "DESIGN_ERRORS",
    "LESSON",
    "LIVE_BEATS",
    "LIVE_MATCHES",
    "LIVE_SKILL",
    "LIVE_START",
    "MATCHES",
    "MATCH_FILE",
    "MAX_DICE",
    "MAX_ROUNDS",
    "MAX_SIDES",
    "MAX_SIZE",
    "MIN_DICE",
    "MIN_SIZE",
    "MONSTERS",
    "MONSTER_NAMES",
    "PRECOMPUTE_GAMES",
    "PRECOMPUTE_SEED",
    "ROUNDS_TO_WIN",
    "SKILL_CASES",
    "STANDARD_SIZES",
    "START_PAIRS",
    "Attack",
    "DesignError",
    "MonsterGame",
    "Side",
    "_first_mover",
    "beat_table",
    "design",
    "design_results",
    "greedy",
    "half_points_text",
    "legal_attacks",
    "monster_from_text",
    "p_at_least",
    "p_skill_exists",
    "p_starts",
    "precompute_matches",
    "precomputed_matches",
    "precomputed_rows",
    "random_bot",
    "replay",
    "simulate_match",
    "steps",
]

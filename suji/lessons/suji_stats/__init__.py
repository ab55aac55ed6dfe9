"""Sūji de Asobo in numbers: how often a random roll makes a target, the best score, and what re-rolling is worth.

RULES.md §1. Data flows one way through the package, each module reading only the ones before it:

    sample  seeded random rolls → their best scores now and after re-rolling (the solver, the odds table,
            or the 2,000 rolls stored in suji/lessons/data/suji_stats.json) → records → figures, 95% intervals
      → exact   the exact values: counted over the dice's faces, or read from the odds table's stored facts
      → lesson  the experiments (the sample's figures beside the exact values), the questions and the page
                (`LESSON`)

`suji.lessons.lessons()` reads `LESSON`. `python -m suji.lessons.suji_stats` solves the stored sample again.
The names other code imports are all here, so `from suji.lessons.suji_stats import X` does not depend on
which module holds X.
"""

from __future__ import annotations

from suji.lessons.suji_stats.exact import (
    exact_distribution,
    exact_facts,
    exact_histogram,
    exact_mean_after,
    exact_reach,
    expected_target_count,
    p_target_dice_all_different,
    p_target_six,
    p_times_or_divide,
    target_count_distribution,
)
from suji.lessons.suji_stats.lesson import (
    ADVICE_LABELS,
    ADVICE_NO_TABLE,
    ADVICE_NOTE,
    ADVICE_ROLLS,
    ESTIMATE_NOTE,
    EXACT_COSTS,
    LESSON,
    LIVE_TARGETS,
    MAX_ADVICE_ROLLS,
    REACH_LABELS,
    STRATEGY_LABELS,
    TABLE_NOTE,
    _run_advice,  # the two experiments that read the odds table, which tests run with and without one
    _run_reach,
    steps,
)
from suji.lessons.suji_stats.sample import (
    ALL,
    DATA_FILE,
    MIN_STORED_ROLLS,
    NUMBERS,
    REROLLS,
    SCORE_BINS,
    STORED,
    STORED_ROLLS,
    STORED_SEED,
    STRATEGIES,
    TABLE,
    Figures,
    Record,
    best_score,
    figures,
    final_score,
    fresh_or_stored,
    precompute,
    reroll,
    roll_seed,
    sample_records,
    score_histogram,
    simulate,
    simulate_roll,
    stored,
    stored_figures,
    stored_records,
    strategy_score,
    table_record,
    write_stored,
)

# How a roll is made and read (suji.rules.dice): tests check the sample against them through this package.
from suji.rules.dice import random_roll, target_numbers

__all__ = [
    "ADVICE_LABELS",
    "ADVICE_NOTE",
    "ADVICE_NO_TABLE",
    "ADVICE_ROLLS",
    "ALL",
    "DATA_FILE",
    "ESTIMATE_NOTE",
    "EXACT_COSTS",
    "LESSON",
    "LIVE_TARGETS",
    "MAX_ADVICE_ROLLS",
    "MIN_STORED_ROLLS",
    "NUMBERS",
    "REACH_LABELS",
    "REROLLS",
    "SCORE_BINS",
    "STORED",
    "STORED_ROLLS",
    "STORED_SEED",
    "STRATEGIES",
    "STRATEGY_LABELS",
    "TABLE",
    "TABLE_NOTE",
    "Figures",
    "Record",
    "_run_advice",
    "_run_reach",
    "best_score",
    "exact_distribution",
    "exact_facts",
    "exact_histogram",
    "exact_mean_after",
    "exact_reach",
    "expected_target_count",
    "figures",
    "final_score",
    "fresh_or_stored",
    "p_target_dice_all_different",
    "p_target_six",
    "p_times_or_divide",
    "precompute",
    "random_roll",
    "reroll",
    "roll_seed",
    "sample_records",
    "score_histogram",
    "simulate",
    "simulate_roll",
    "steps",
    "stored",
    "stored_figures",
    "stored_records",
    "strategy_score",
    "table_record",
    "target_count_distribution",
    "target_numbers",
    "write_stored",
]

"""Sūji de Asobo in numbers, the exact values: counted over the faces, or read from the odds table's facts.

RULES.md §1. Three target dice (A, B, C) give up to 12 target numbers; five number dice and four operator dice
make a formula. How many targets a roll gives, the chance of a 6 or of a × or ÷ die, are counted here over all
equally likely faces. Whether a roll can make a target, and its best score, need the solver: the odds table
(suji.solver.odds) has solved every roll once, and its exact figures are stored with the package in
suji/solver/odds/facts.json (None here when they are not). The lesson puts both beside its experiments.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from itertools import product

from suji.core.caching import computed_once
from suji.lessons.suji_stats.sample import SCORE_BINS  # the sample's bins: exact and simulated rows line up
from suji.rules.dice import (
    DIVIDE,
    NUMBER_DICE_FACES,
    OPERATOR_DICE_FACES,
    OPERATOR_KINDS,
    TARGET_KINDS,
    TIMES,
    target_numbers,
)
from suji.solver.odds.facts import stored_facts

# ---- counted over the faces of the dice ---------------------------------------------------------------


@computed_once
def target_count_distribution() -> dict[int, Fraction]:
    """P(a roll of the three target dice gives k different target numbers), over all 216 equal outcomes."""
    counts: Counter[int] = Counter()
    faces = [NUMBER_DICE_FACES[k] for k in TARGET_KINDS]
    for dice in product(*faces):
        counts[len(target_numbers(dice))] += 1
    total = math.prod(len(f) for f in faces)
    return {k: Fraction(c, total) for k, c in sorted(counts.items())}


def expected_target_count() -> Fraction:
    """The average number of target numbers of a roll."""
    return sum((k * p for k, p in target_count_distribution().items()), Fraction(0))


def p_target_dice_all_different() -> Fraction:
    """P(the target dice A, B and C show three different faces)."""
    faces = [NUMBER_DICE_FACES[k] for k in TARGET_KINDS]
    outcomes = list(product(*faces))
    return Fraction(sum(len(set(d)) == len(d) for d in outcomes), len(outcomes))


def p_target_six() -> Fraction:
    """P(at least one target die shows a 6, which may also be read as 9)."""
    faces = [NUMBER_DICE_FACES[k] for k in TARGET_KINDS]
    outcomes = list(product(*faces))
    return Fraction(sum(6 in d for d in outcomes), len(outcomes))


def p_times_or_divide() -> Fraction:
    """P(the three operator dice A show at least one × or ÷)."""
    faces = [OPERATOR_DICE_FACES[k] for k in OPERATOR_KINDS if k == "A"]
    outcomes = list(product(*faces))
    return Fraction(sum(TIMES in d or DIVIDE in d for d in outcomes), len(outcomes))


# ---- exact figures from the odds table's facts ---------------------------------------------------------------


def exact_facts() -> dict | None:
    """The exact figures of the whole game at level 3 (every operator), or None when none are stored."""
    facts = stored_facts()
    return facts["levels"]["3"] if facts else None


def exact_distribution() -> dict[int, Fraction] | None:
    """P(the best score of a random roll is s), s = 0 when no target can be made."""
    facts = exact_facts()
    if facts is None:
        return None
    return {int(s): Fraction(v["fraction"]) for s, v in facts["best_score_distribution"].items()}


def exact_reach() -> Fraction | None:
    """P(a random roll can make at least one of its targets), over every equally likely face of all twelve dice.

    Re-rolling all five number dice (or all nine) gives a fresh random roll of those dice, so the chance of a
    target afterwards is this same number.
    """
    facts = exact_facts()
    return Fraction(facts["p_make"]["fraction"]) if facts else None


def exact_mean_after(cost: int) -> Fraction | None:
    """The exact mean points of a fresh roll after `cost` points of re-rolls (never below 0; no target = 0)."""
    distribution = exact_distribution()
    if distribution is None:
        return None
    return sum((p * max(0, s - cost) for s, p in distribution.items()), Fraction(0))


def exact_histogram() -> dict[str, Fraction] | None:
    """The exact chance of no target, and of a best score in each bin of ten points (as score_histogram)."""
    distribution, reach = exact_distribution(), exact_reach()
    if distribution is None or reach is None:
        return None
    found = {"none": 1 - reach}
    for lo, hi in SCORE_BINS:
        found[f"{lo}-{hi}"] = sum((p for s, p in distribution.items() if lo <= s <= hi), Fraction(0))
    found[f"{SCORE_BINS[0][0]}-{SCORE_BINS[0][1]}"] -= (
        1 - reach
    )  # score 0 in the distribution counts "none" too
    return found

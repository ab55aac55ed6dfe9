"""The sum search (suji.solver.sums.find_sums) against a plain one: every multiset of signed terms, no pruning.

find_sums drops branches and partial sums that the dice left cannot bring to a target (DiceCounts.room), and looks
the last term up by the values it would need; a wrong bound or a missed lookup would lose a sum that this plain
enumeration finds.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from suji.rules.dice import Roll
from suji.rules.exact import as_fraction
from suji.solver.dice_counts import DiceCounts
from suji.solver.sums import find_sums
from suji.solver.terms import Terms, terms_for

OPERATORS = ["+", "+", "-", "-", "*", "/", "/", "^2", "sqrt", "x10", "x11", "x12"]


def searched(dice: DiceCounts, terms, targets: set[int]) -> set[tuple]:
    """What find_sums reports, as (target, positive terms, negative terms, sorted signed terms)."""
    found: set[tuple] = set()

    def on_hit(picked, p, q, target):
        assert sum(as_fraction(v) * s for s, _, v in picked) == target
        found.add((target, p, q, tuple(sorted((s, u, as_fraction(v)) for s, u, v in picked))))

    find_sums(dice, terms, targets, on_hit)
    return found


def plainly(dice: DiceCounts, terms, targets: set[int]) -> set[tuple]:
    """Every multiset of signed terms whose dice fit and whose signs the + and − dice allow, added up."""
    items = sorted((u, as_fraction(v)) for u, values in terms.by_usage.items() for v in values)
    most = 1 + dice.plus + dice.minus
    found: set[tuple] = set()

    def fits_signs(p: int, q: int) -> bool:
        return q <= dice.minus and ((p >= 1 and p - 1 <= dice.plus) or (q >= 1 and p <= dice.plus))

    def walk(start: int, usage: int, chosen: list, total: Fraction, p: int, q: int) -> None:
        if chosen and total in targets and fits_signs(p, q):
            found.add((int(total), p, q, tuple(sorted(chosen))))
        if len(chosen) == most:
            return
        for i in range(start, len(items)):
            u, v = items[i]
            if not dice.fits(usage + u):
                continue
            for s in (1, -1):
                chosen.append((s, u, v))
                walk(i, usage + u, chosen, total + s * v, p + (s > 0), q + (s < 0))
                chosen.pop()

    walk(0, 0, [], Fraction(0), 0, 0)
    return found


def seeded_roll(name: str, operators: int, target_dice: tuple[int, int]) -> Roll:
    """A custom roll of 3–4 number dice (1–8), 2 to `operators` operator dice and 1–8 target dice, by name."""
    rng = random.Random(name)
    return Roll.of(
        number_dice=[rng.choice([1, 2, 3, 4, 5, 6, 7, 8]) for _ in range(rng.randint(3, 4))],
        operator_dice=[rng.choice(OPERATORS) for _ in range(rng.randint(2, operators))],
        target_dice=[rng.randint(1, 8) for _ in range(rng.randint(*target_dice))],
    )


@pytest.mark.parametrize("seed", range(80))
def test_find_sums_finds_every_sum_that_lands_on_a_target(seed):
    roll = seeded_roll(f"sums:{seed}", 4, (2, 2))  # two-digit targets: many sums land on them
    dice = DiceCounts(roll, None)
    if dice.mulops["√"] >= 2:  # solved by listing every formula instead
        return
    targets = set(roll.targets)
    terms = terms_for(dice, max(targets))
    assert searched(dice, terms, targets) == plainly(dice, terms, targets)


def test_a_search_with_small_targets_and_a_minus_die_still_finds_large_terms():
    # 32 − 29 = 3: both terms far above the target, brought back by the − die.
    roll = Roll.of(number_dice=[3, 2, 6, 2], operator_dice=["-", "+"], target=3)
    dice = DiceCounts(roll, None)
    terms = terms_for(dice, 3)
    found = searched(dice, terms, {3})
    assert found == plainly(dice, terms, {3})
    assert any([(s, v) for s, _, v in chosen] == [(-1, 29), (1, 32)] for _, _, _, chosen in found)


@pytest.mark.parametrize("seed", range(40))
def test_terms_left_out_by_the_bounds_are_in_no_sum_that_lands_on_a_target(seed):
    # Terms for the largest target leave out numbers, factors and terms beyond what the dice left can bring
    # back (and grow no term from them); every term the dice can make, summed plainly, finds nothing more.
    roll = seeded_roll(f"sums-bounds:{seed}", 3, (1, 2))
    dice = DiceCounts(roll, None)
    if dice.mulops["√"] >= 2:  # solved by listing every formula instead
        return
    targets = set(roll.targets)
    assert searched(dice, terms_for(dice, max(targets)), targets) == plainly(dice, Terms(dice), targets)

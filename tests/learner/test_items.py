"""Items: keys, families, goals, routes and the prior difficulty, from what the solver knows about a roll."""

from __future__ import annotations

import math

import pytest

from suji.learner import items
from suji.learner.families import (
    CONSTANTS,
    DIVIDE_FAMILY,
    FIVE_DICE,
    FOUR_DICE,
    JOINED,
    PLUS_MINUS,
    ROOT_FAMILY,
    SIX_AS_NINE,
    SQUARE_FAMILY,
    TIMES_FAMILY,
    families_of,
    families_of_mask,
    level_of,
    mask_of,
)
from suji.learner.items import (
    Route,
    certify,
    goals_of,
    item_key,
    roll_items,
    roll_of_key,
    route_cost,
    routes_of,
)
from suji.rules.dice import Roll
from suji.solver.search import solve

# The worked example of RULES.md: targets from 4 4 6, 21²+4+1 = 446.
SEED_ROLL = Roll((4, 4, 6), (2, 1, 4, 1, 3), ("+", "+", "²", "−"))


def test_the_families_of_a_formula():
    assert families_of((2, 1, "²", "+", 4, "+", 1)) == {JOINED, SQUARE_FAMILY, PLUS_MINUS, FOUR_DICE}
    assert families_of(("√", 9, "+", 4)) == {ROOT_FAMILY, SIX_AS_NINE, PLUS_MINUS}
    assert families_of((8, "÷", 2, "×11", "×", 1, 2, 3)) == {
        DIVIDE_FAMILY,
        CONSTANTS,
        TIMES_FAMILY,
        JOINED,
        FOUR_DICE,
        FIVE_DICE,
    }
    assert families_of((4, 4, 6)) == {JOINED}  # the target's digits side by side: a formula of its own
    assert level_of(families_of((2, 1, "²", "+", 4))) == 3 and level_of(frozenset({JOINED, PLUS_MINUS})) == 1
    mixed = frozenset({JOINED, ROOT_FAMILY, FIVE_DICE})
    assert families_of_mask(mask_of(mixed)) == mixed


def test_item_keys_name_the_dice_and_the_goal():
    roll = Roll((4, 4, 6), (2, 1, 4, 1, 3), ("+", "+", "²", "−"))
    assert item_key(roll, 0) == "446.21413.++s-.0"
    assert roll_of_key("446.21413.++s-.24") == (roll, 24)
    for bad in ("", "446.21413", "446.21413.++q-.0", "x.y.z.w"):
        with pytest.raises(ValueError):
            roll_of_key(bad)


def test_goals_climb_the_ladder_of_scores_and_never_repeat_any_target():
    assert goals_of([0, 3, 3]) == [0, 3]
    assert goals_of([0]) == [0]  # one score only: "any target" says it all
    assert goals_of(range(0, 11)) == [0, 5, 8, 10]  # half way, four fifths, the top of 1..10
    assert goals_of([5, 12, 40]) == [0, 12, 40]


def test_routes_are_the_pareto_ways_in():
    t = 446  # routes_of takes the solutions as given: their values are the solver's business
    reaching = [
        (t, (4, 4, 7, "−", 1)),  # 4 dice with − and joined digits
        (t, (4, 4, 8, "−", 2)),  # the same families and dice: the same route
        (t, (2, 1, "²", "+", 4, "+", 1)),  # more families and no fewer dice than the first: no way of its own
        (t, (4, 1, "×11")),  # ×11 instead of −, and fewer dice: a way in of its own
        (t, (4, 4, 6, "+", 1, "−", 1)),  # within the first's families but more dice: counted, not a route
    ]
    found = {r.family_set: r for r in routes_of(reaching)}
    minus, times = frozenset({JOINED, PLUS_MINUS, FOUR_DICE}), frozenset({JOINED, CONSTANTS})
    assert set(found) == {minus, times}
    assert found[minus].dice == 4 and found[minus].witness == (4, 4, 7, "−", 1)  # the first in print
    assert found[minus].solutions == 2  # the two with just those families
    assert found[times].solutions == 1 and found[times].dice == 2
    # Joined digits alone with three dice: within the − route's families with fewer dice, so that route goes;
    # ×11 with two dice stays (fewer dice still).
    assert {r.family_set for r in routes_of([*reaching, (t, (4, 4, 6))])} == {frozenset({JOINED}), times}


def test_the_prior_by_hand():
    r = Route(mask_of(frozenset({JOINED, PLUS_MINUS, FOUR_DICE})), 4, False, 6, 2, (4, 4, 7, "−", 1))
    # B + W_dice·(4 − 3) + W_+ + W_joined + W_four − W_sol·ln 6 − W_targets·(2 − 1) + W_goal·12/24
    by_hand = -0.6 + 0.55 * 1 + 0.3 + 0.0 + 0.0 - 0.3 * math.log(6) - 0.2 * 1 + 1.6 * 0.5
    assert route_cost(r, 12, 24) == pytest.approx(by_hand)
    assert route_cost(r, 0, 24) == pytest.approx(by_hand - 0.8)  # any target: no goal term
    fraction = Route(r.families, r.dice, True, r.solutions, r.targets, r.witness)
    assert route_cost(fraction, 12, 24) == pytest.approx(by_hand + 0.8)


def test_a_fraction_on_the_way_is_seen():
    assert items.fraction_on_the_way((8, "÷", 3, "×", 1, 2))
    assert not items.fraction_on_the_way((1, 2, "÷", 3, "×", 8))
    assert not items.fraction_on_the_way((2, 1, "²", "+", 4, "+", 1))


def test_the_items_of_the_seed_roll():
    made = roll_items(solve(SEED_ROLL))
    assert [it.goal for it in made][0] == 0 and len(made) >= 2
    best = max(it.goal for it in made)
    assert best == made[0].best  # the top goal is the roll's best score
    for item in made:
        assert certify(item)  # every route's witness reaches the goal, checked as a pupil's answer
        assert item.costs == tuple(sorted(item.costs)) and item.prior == item.costs[0]
        assert item.requires <= item.needs
    hardest = made[-1]
    assert hardest.prior > made[0].prior  # the whole best score is harder than any target


def test_a_forged_witness_is_not_certified():
    item = roll_items(solve(SEED_ROLL))[-1]
    bad = Route(item.routes[0].families, 3, False, 1, 1, (4, 4, 6))  # a target, but not the goal's points
    forged = items.Item(item.roll, item.goal, item.best, (bad,), (0.0,), 1, 1)
    assert not certify(forged)

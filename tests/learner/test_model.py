"""The learner model's updates against examples worked out by hand (TwoA's formulas with our constants).

The constants these examples use: K_C 0.08, K_UP 4, K_DOWN 0.5, K_CAL 0.35 for the first 30 plays, MAX_PLAY 40,
MAX_DELAY 30 days, FAMILY_SHARE 0.6, FAMILY_CEILING 0.25 (suji.learner.model). The first test pins them, so an
example that fails says the constants moved, not that the arithmetic did.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

import pytest

from suji.learner import model
from suji.learner.families import JOINED, PLUS_MINUS, ROOT_FAMILY, TIMES_FAMILY, mask_of
from suji.learner.items import Item, Route, make_item
from suji.learner.model import ItemRating, Learner, Rating, Skill, best_route, outcome, time_weight, update
from suji.rules.dice import Roll

NOW = datetime(2026, 12, 1, 9, 0)
ROLL = Roll((1, 2, 5), (1, 2, 5, 3, 4), ("+", "−", "×", "²"))


def route(families: set[str], dice: int = 3, solutions: int = 1) -> Route:
    return Route(mask_of(frozenset(families)), dice, False, solutions, 1, (1, 2, 5))


def item_with(*routes: Route, goal: int = 0) -> Item:
    return make_item(ROLL, goal, 20, routes, 1, 1)


def item_of(difficulty: float, families: set[str]) -> Item:
    """An item with one route of the given families and a prior difficulty set by hand."""
    return Item(ROLL, 0, 20, (route(families),), (difficulty,), 1, 1)


def test_the_constants_the_examples_use():
    assert (model.K_C, model.K_UP, model.K_DOWN, model.K_CAL, model.CAL_LENGTH) == (0.08, 4.0, 0.5, 0.35, 30)
    assert (model.MAX_PLAY, model.MAX_DELAY, model.FAMILY_SHARE, model.FAMILY_CEILING) == (40, 30, 0.6, 0.25)


def test_uncertainty_falls_with_each_play_and_grows_with_days_away():
    assert model.new_uncertainty(1.0, 0) == pytest.approx(0.975)  # 1 − 1/40
    assert model.new_uncertainty(0.3, 12) == pytest.approx(0.675)  # 0.3 − 1/40 + 12/30
    assert model.new_uncertainty(0.0, 0) == 0.0  # never below 0
    assert model.new_uncertainty(0.9, 60) == 1.0  # never above 1; days count up to 30 only
    assert model.new_uncertainty(0.1, 45) == model.new_uncertainty(0.1, 30)


def test_the_k_factor_is_scaled_by_both_uncertainties_and_the_calibration():
    # 0.08 × (1 + 4 × 0.975 − 0.5 × 0.975) + 0.35 = 0.08 × 4.4125 + 0.35 = 0.703
    assert model.k_factor(0.975, 0.975, 0) == pytest.approx(0.703)
    # a sure pupil after calibration, against an unsure item: 0.08 × (1 + 0 − 0.5) = 0.04
    assert model.k_factor(0.0, 1.0, 30) == pytest.approx(0.04)


def test_a_first_answer_made_without_hints():
    item = item_with(route({PLUS_MINUS, JOINED}))
    step = update(Learner(), item, ItemRating(), 1.0, NOW, frozenset({PLUS_MINUS, JOINED}))
    e = 1 / (1 + math.exp(item.prior))  # θ 0, no offsets, no correction
    assert step.expected == pytest.approx(e)
    k = 0.703
    assert step.learner.rating.value == pytest.approx(k * (1 - e))
    assert step.learner.skill(PLUS_MINUS).rating.value == pytest.approx(0.6 * k * (1 - e))
    assert step.learner.skill(JOINED).rating.value == pytest.approx(0.6 * k * (1 - e))
    assert step.learner.skill(TIMES_FAMILY).rating.value == 0.0  # not in the formula: untouched
    assert step.item.correction == pytest.approx(-k * (1 - e))
    assert step.learner.rating.uncertainty == pytest.approx(0.975) and step.learner.answered == 1
    assert step.learner.skill(JOINED).made == 1 and step.item.plays == 1 and step.item.made == 1


def test_the_example_in_numbers():
    """θ 0, an item of difficulty −1 (so E = 1/(1 + e^−1) = 0.731059), made: θ rises 0.703 × 0.268941."""
    item = item_of(-1.0, {PLUS_MINUS, JOINED})
    step = update(Learner(), item, ItemRating(), 1.0, NOW, frozenset({PLUS_MINUS, JOINED}))
    assert step.expected == pytest.approx(0.7310586)
    assert step.learner.rating.value == pytest.approx(0.1890658)
    assert step.learner.skill(PLUS_MINUS).rating.value == pytest.approx(0.1134395)
    assert step.item.correction == pytest.approx(-0.1890658)


def test_a_miss_moves_down_the_families_of_the_route_the_model_expected():
    item = item_of(-1.0, {PLUS_MINUS, JOINED})
    step = update(Learner(), item, ItemRating(), 0.0, NOW)  # no formula made: the route is credited
    assert step.learner.rating.value == pytest.approx(-0.703 * 0.7310586)
    assert step.learner.skill(JOINED).rating.value == pytest.approx(-0.6 * 0.703 * 0.7310586)
    assert step.item.correction == pytest.approx(0.703 * 0.7310586)
    assert step.credited == {PLUS_MINUS, JOINED}


def test_a_family_at_its_ceiling_passes_what_it_cannot_take_to_the_overall_rating():
    skills = list(Learner().skills)
    skills[model.FAMILY_INDEX[PLUS_MINUS]] = Skill(Rating(0.2, 0.975 + 1 / 40, 0, None))
    learner = Learner(Rating(), tuple(skills))
    item = item_of(-1.0, {PLUS_MINUS, JOINED})
    step = update(learner, item, ItemRating(), 1.0, NOW, frozenset({PLUS_MINUS, JOINED}))
    e = 1 / (1 + math.exp(-(0.2 + 1.0)))  # θ 0 + s 0.2 − β (−1)
    full = 0.6 * 0.703 * (1 - e)
    assert step.learner.skill(PLUS_MINUS).rating.value == pytest.approx(0.25)  # up to the ceiling only
    assert step.learner.skill(JOINED).rating.value == pytest.approx(full)
    overflow = (full - 0.05) / 2  # what + − could not take, shared over the two families credited
    assert step.learner.rating.value == pytest.approx(0.703 * (1 - e) + overflow)


def test_hints_are_priced_as_in_class_mode_and_anything_else_is_zero():
    assert [outcome(True, h) for h in range(6)] == [1.0, 0.75, 0.5, 0.25, 0.0, 0.0]
    assert outcome(False, 0) == 0.0 and outcome(False, 3) == 0.0


def test_time_weighs_only_when_a_limit_is_set():
    assert time_weight(300.0, None) == 1.0
    assert time_weight(30.0, 120.0) == pytest.approx(0.75)
    assert time_weight(500.0, 120.0) == 0.0
    item = item_with(route({PLUS_MINUS, JOINED}))
    full = update(Learner(), item, ItemRating(), 1.0, NOW)
    half = update(Learner(), item, ItemRating(), 1.0, NOW, weight=0.5)
    assert half.learner.rating.value == pytest.approx(full.learner.rating.value / 2)


def test_days_away_make_the_next_step_larger():
    item = item_with(route({PLUS_MINUS, JOINED}))
    learner = Learner(Rating(0.5, 0.2, 60, NOW - timedelta(days=20)))
    back = update(learner, item, ItemRating(), 1.0, NOW)
    steady = update(Learner(Rating(0.5, 0.2, 60, NOW)), item, ItemRating(), 1.0, NOW)
    assert back.learner.rating.uncertainty == pytest.approx(0.2 - 1 / 40 + 20 / 30)
    assert back.learner.rating.value - 0.5 > steady.learner.rating.value - 0.5 > 0


def test_the_best_route_is_the_one_that_suits_the_pupil():
    plus = route({PLUS_MINUS, JOINED}, dice=5)
    root = route({ROOT_FAMILY, JOINED}, dice=3)
    item = item_with(plus, root)
    fresh = Learner()
    assert best_route(fresh, item)[1] == item.routes[0]  # no offsets: the prior's easiest
    skills = list(fresh.skills)
    skills[model.FAMILY_INDEX[ROOT_FAMILY]] = Skill(Rating(-3.0))
    no_roots = Learner(fresh.rating, tuple(skills))
    assert best_route(no_roots, item)[1] == plus


def test_learners_survive_their_json():
    item = item_with(route({PLUS_MINUS, JOINED}))
    learner = update(Learner(), item, ItemRating(), 1.0, NOW, frozenset({PLUS_MINUS})).learner
    assert Learner.from_dict(learner.to_dict()) == learner
    assert Learner.from_dict({}) == Learner()  # an empty or older record reads as a new pupil


def test_a_miss_is_put_down_to_the_family_with_the_worst_record():
    skills = list(Learner().skills)
    skills[model.FAMILY_INDEX[JOINED]] = Skill(Rating(), 5, (1.0, 1.0, 1.0, 1.0, 1.0))  # always made lately
    skills[model.FAMILY_INDEX[PLUS_MINUS]] = Skill(Rating(), 3, (1.0, 0.0, 1.0, 1.0))  # doubt 0.25
    skills[model.FAMILY_INDEX[ROOT_FAMILY]] = Skill(Rating(), 0, (0.0, 0.0))  # doubt 1: the worst
    learner = Learner(Rating(), tuple(skills))
    item = item_of(-1.0, {PLUS_MINUS, JOINED, ROOT_FAMILY})
    step = update(learner, item, ItemRating(), 0.0, NOW)
    full = -0.6 * 0.703 * 0.7310586  # each family's own K: fresh ratings, as the overall one
    assert step.learner.skill(ROOT_FAMILY).rating.value == pytest.approx(full)
    assert step.learner.skill(PLUS_MINUS).rating.value == pytest.approx(full * 0.25)
    assert step.learner.skill(JOINED).rating.value == 0.0
    assert step.learner.rating.value == pytest.approx(-0.703 * 0.7310586)  # the overall rating takes it all
    made = update(learner, item, ItemRating(), 1.0, NOW, frozenset({PLUS_MINUS, JOINED, ROOT_FAMILY}))
    assert made.learner.skill(JOINED).rating.value > 0  # a goal made credits every family written

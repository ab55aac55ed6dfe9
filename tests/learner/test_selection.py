"""Choosing the next item: TwoA's target chance and difficulty, the nearest item, ties, recency, spaced review."""

from __future__ import annotations

import math
import random
from datetime import date, timedelta
from statistics import mean

import numpy as np
import pytest

from suji.learner import selection
from suji.learner.bank import Bank, load
from suji.learner.families import FAMILY_INDEX, JOINED, PLUS_MINUS, ROOT_FAMILY, mask_of
from suji.learner.items import Item, Route, certify
from suji.learner.mastery import reference
from suji.learner.model import ItemRating, Learner, Rating, Skill
from suji.learner.selection import (
    REVIEW,
    ItemStats,
    after_answer,
    choose,
    predicted_logits,
    target_chance,
    target_difficulty,
)
from suji.rules.dice import Roll

TODAY = date(2026, 12, 1)


def small_bank(difficulties: list[float], root_from: int | None = None) -> Bank:
    """A bank of one-route items of given difficulties, each its own roll; from `root_from` on they need √."""
    found = []
    for i, d in enumerate(difficulties):
        roll = Roll((1, 2, 3), (1 + i % 6, 2, 3, 4, 5), ("+", "−", "×", "√"))
        families = {JOINED, PLUS_MINUS} | (
            {ROOT_FAMILY} if root_from is not None and i >= root_from else set()
        )
        found.append(
            Item(roll, i, 30, (Route(mask_of(frozenset(families)), 3, False, 1, 1, (1, 2, 3)),), (d,), 1, 1)
        )
    return Bank.of(found)


def test_the_target_chance_is_drawn_inside_one_half_to_one():
    rng = random.Random(1)
    draws = [target_chance(rng) for _ in range(5000)]
    assert all(0.5 < p < 1.0 for p in draws)
    assert mean(draws) == pytest.approx(0.75, abs=0.01)  # N(0.75, 0.1), hardly cut at 0.5 and 1
    assert 0.08 < np.std(draws) < 0.1


def test_the_target_difficulty_is_tw0as_formula():
    assert target_difficulty(1.0, 0.75) == pytest.approx(1.0 + math.log(0.25 / 0.75))  # β* = θ − 1.0986
    assert target_difficulty(0.0, 0.5) == 0.0


def test_the_nearest_item_to_the_target_is_served():
    bank = small_bank([-3.0, -1.1, 0.0, 2.0])
    refs = reference(bank)
    seen = set()
    for seed in range(40):
        p = target_chance(random.Random(seed))  # the draw choose makes first with the same generator
        want = target_difficulty(0.0, p)  # θ 0: the item of difficulty nearest β*
        served = choose(
            bank, Learner(), ItemStats.empty(bank), [], random.Random(seed), TODAY, refs
        ).item.prior
        nearest = min(abs(d - want) for d in (-3.0, -1.1, 0.0, 2.0))
        assert abs(served - want) <= nearest + selection.TIE  # the nearest, or one as near within TIE
        seen.add(served)
    assert -1.1 in seen and 2.0 not in seen  # mostly the one at p = 0.75; never the one at p = 0.12
    strong = Learner(Rating(3.1))
    assert choose(bank, strong, ItemStats.empty(bank), [], random.Random(0), TODAY, refs).item.prior == 2.0


def test_ties_go_to_the_least_played_item():
    bank = small_bank([-1.1, -1.1, -1.1])
    stats = ItemStats(np.zeros(3), np.array([4, 1, 2]))
    for seed in range(10):
        assert choose(bank, Learner(), stats, [], random.Random(seed), TODAY, reference(bank)).item.goal == 1


def test_items_and_rolls_seen_lately_are_left_out():
    bank = small_bank([-1.1, -1.0, 3.0])
    refs = reference(bank)
    recent = [bank.items[0].key]
    assert (
        choose(bank, Learner(), ItemStats.empty(bank), recent, random.Random(0), TODAY, refs).item.goal == 1
    )
    everything = [it.key for it in bank.items]  # a pupil who has seen every item lately still gets one
    assert (
        choose(bank, Learner(), ItemStats.empty(bank), everything, random.Random(0), TODAY, refs) is not None
    )


def test_the_correction_learned_for_an_item_moves_it():
    bank = small_bank([-1.1, 0.5])
    stats = ItemStats(
        np.array([1.6, -1.6]), np.zeros(2, dtype=np.int64)
    )  # the first proved hard, the second easy
    assert choose(bank, Learner(), stats, [], random.Random(0), TODAY, reference(bank)).item.goal == 1


def test_a_family_the_pupil_lacks_makes_its_items_look_hard():
    bank = small_bank([-1.1, -1.1, -1.1, -1.1], root_from=2)
    skills = list(Learner().skills)
    skills[FAMILY_INDEX[ROOT_FAMILY]] = Skill(Rating(-4.0))
    no_roots = Learner(Rating(), tuple(skills))
    logits = predicted_logits(bank, no_roots, ItemStats.empty(bank))
    assert logits[0] == logits[1] == pytest.approx(1.1) and logits[2] == logits[3] == pytest.approx(-2.9)
    served = {
        choose(bank, no_roots, ItemStats.empty(bank), [], random.Random(s), TODAY, reference(bank)).item.goal
        for s in range(20)
    }
    assert served <= {0, 1}


def test_a_missed_family_comes_back_tomorrow_and_a_good_review_doubles_the_wait():
    bank = small_bank([-1.1, -1.1, -1.1, -1.1], root_from=2)
    refs = reference(bank)
    root_item = bank.items[2]
    skills = list(Learner().skills)
    skills[FAMILY_INDEX[ROOT_FAMILY]] = Skill(Rating(-1.0))
    learner = Learner(Rating(), tuple(skills))
    missed = after_answer(learner, root_item, False, selection.ADAPTIVE, None, TODAY, refs)
    assert missed.skill(ROOT_FAMILY).due == TODAY + timedelta(days=1)  # the weakest family of the item
    assert missed.skill(JOINED).due is None
    stats = ItemStats.empty(bank)
    # Today it is not due yet: the usual choice. Tomorrow the next item is a review of √, if enough answers passed.
    assert choose(bank, missed, stats, [], random.Random(0), TODAY, refs).mode == selection.ADAPTIVE
    tomorrow = TODAY + timedelta(days=1)
    review = choose(
        bank, missed, stats, [], random.Random(0), tomorrow, refs, since_review=selection.REVIEW_GAP
    )
    assert review.mode == REVIEW and review.family == ROOT_FAMILY and ROOT_FAMILY in review.item.requires
    too_soon = choose(bank, missed, stats, [], random.Random(0), tomorrow, refs, since_review=1)
    assert too_soon.mode == selection.ADAPTIVE
    good = after_answer(missed, review.item, True, REVIEW, ROOT_FAMILY, tomorrow, refs)
    assert (good.skill(ROOT_FAMILY).interval, good.skill(ROOT_FAMILY).due) == (
        2,
        tomorrow + timedelta(days=2),
    )
    again = after_answer(good, review.item, True, REVIEW, ROOT_FAMILY, tomorrow + timedelta(days=2), refs)
    assert again.skill(ROOT_FAMILY).interval == 4
    bad = after_answer(again, review.item, False, REVIEW, ROOT_FAMILY, tomorrow + timedelta(days=6), refs)
    assert (bad.skill(ROOT_FAMILY).interval, bad.skill(ROOT_FAMILY).due) == (1, tomorrow + timedelta(days=7))


def test_every_choice_from_the_real_bank_is_certified():
    bank = load()
    refs = reference(bank)
    rng = random.Random(5)
    for theta in (-3.0, -1.0, 0.0, 1.5, 3.0, 6.0):
        choice = choose(bank, Learner(Rating(theta)), ItemStats.empty(bank), [], rng, TODAY, refs)
        assert certify(choice.item)
        assert 0.0 < choice.predicted < 1.0


def test_stronger_pupils_get_harder_items_from_the_real_bank():
    bank = load()
    refs = reference(bank)
    priors = []
    for theta in (-2.0, 0.0, 2.0, 4.0):
        rng = random.Random(7)
        picks = [
            choose(bank, Learner(Rating(theta)), ItemStats.empty(bank), [], rng, TODAY, refs).item
            for _ in range(30)
        ]
        priors.append(mean(it.prior for it in picks))
    assert priors == sorted(priors)
    assert priors[-1] - priors[0] > 4


def test_item_statistics_of_stored_ratings():
    bank = small_bank([-1.0, 0.0])
    stats = ItemStats.of(
        bank, {bank.items[1].key: ItemRating(Rating(0.7, plays=3)), "nothing.here.+.0": ItemRating()}
    )
    assert list(stats.corrections) == [0.0, 0.7] and list(stats.plays) == [0, 3]


def _met_everything_but_roots(theta: float, root: float = 0.0, plays: int = selection.NEW_AFTER) -> Learner:
    """A pupil past the first answers who has met every family but √ (whose offset is `root`)."""
    skills = [Skill(Rating(0.0, 1.0, 5)) for _ in Learner().skills]
    skills[FAMILY_INDEX[ROOT_FAMILY]] = Skill(Rating(root))
    return Learner(Rating(theta, 1.0, plays), tuple(skills))


def test_a_family_never_met_comes_in_once_its_items_are_within_reach():
    # Two easy items without √ and two a little harder with it: the usual choice is an easy one.
    bank = small_bank([-1.1, -1.1, 0.0, 0.0], root_from=2)
    refs, stats = reference(bank), ItemStats.empty(bank)
    ready = _met_everything_but_roots(0.0)  # a √ item at 50% (≥ NEW_FLOOR)
    new = choose(bank, ready, stats, [], random.Random(0), TODAY, refs, since_review=selection.REVIEW_GAP)
    assert (new.mode, new.family) == (selection.NEW, ROOT_FAMILY) and ROOT_FAMILY in new.item.requires
    # Not between spaced items, not while out of reach, not in a new pupil's first answers, not once met.
    assert choose(bank, ready, stats, [], random.Random(0), TODAY, refs, since_review=1).mode == selection.ADAPTIVE
    far = _met_everything_but_roots(-1.0)  # 27%
    assert choose(bank, far, stats, [], random.Random(0), TODAY, refs).mode == selection.ADAPTIVE
    fresh = _met_everything_but_roots(0.0, plays=selection.NEW_AFTER - 1)
    assert choose(bank, fresh, stats, [], random.Random(0), TODAY, refs).mode == selection.ADAPTIVE
    skills = list(ready.skills)
    skills[FAMILY_INDEX[ROOT_FAMILY]] = Skill(Rating(0.0, 1.0, 1))
    met = Learner(ready.rating, tuple(skills))
    assert choose(bank, met, stats, [], random.Random(0), TODAY, refs).mode == selection.ADAPTIVE
    # Made, it comes back in two days; missed, tomorrow; the spaced count starts again after it.
    made = after_answer(ready, new.item, True, selection.NEW, ROOT_FAMILY, TODAY, refs)
    assert made.skill(ROOT_FAMILY).due == TODAY + timedelta(days=2)
    missed = after_answer(ready, new.item, False, selection.NEW, ROOT_FAMILY, TODAY, refs)
    assert missed.skill(ROOT_FAMILY).due == TODAY + timedelta(days=1)
    assert selection.since_spaced(selection.NEW, 7) == 0 == selection.since_spaced(REVIEW, 3)
    assert selection.since_spaced(selection.ADAPTIVE, 3) == 4

"""Sūji de Asobo in numbers: exact counts derived by hand and with sympy.stats, the stored 2,000 solved rolls
(reproducible, and matched by a fresh independent sample within 3 standard errors), strategies and questions."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
import sympy
from sympy.stats import FiniteRV, P

from suji.lessons import suji_stats as ss
from suji.lessons.stats import standard_error
from suji.lessons.steps import check_answer
from suji.rules.dice import NUMBER_DICE_FACES, random_roll

A = FiniteRV("A", {f: sympy.Rational(1, 6) for f in NUMBER_DICE_FACES["A"]})
B = FiniteRV("B", {f: sympy.Rational(1, 6) for f in NUMBER_DICE_FACES["B"]})
C = FiniteRV("C", {f: sympy.Rational(1, 6) for f in NUMBER_DICE_FACES["C"]})


def _f(value) -> Fraction:
    num, den = sympy.fraction(sympy.nsimplify(value))
    return Fraction(int(num), int(den))


# ---- exact values ------------------------------------------------------------------------------------------


def test_number_of_targets_counted_by_hand():
    # Of the 216 target rolls: 1 1 1, 2 2 2, 3 3 3 give one target. Exactly one pair and no 6 give 3:
    # A=B∈{1,2,3} (C≠: 15), A=C∈{1,2,3} (B≠ and B≠6: 12), A=C∈{4,5} (B≠6: 10), B=C∈{1,2,3} (A≠, A≠6: 12),
    # B=C=8 (A≠6: 5) = 54. A 6 and three different faces give 6 × 2 = 12: A=6 (B∈{1,2,3,8} with C≠B: 20,
    # B=7: 6) + B=6 (A∈{1..5} with C≠A: 25) = 51; A=B=6 gives 3 + 6 + 3 = 12 readings too (6 rolls): 57.
    # Everything else (three different faces without a 6, or a pair with a 6) gives 6: 216 − 3 − 54 − 57 = 102.
    assert ss.target_count_distribution() == {
        1: Fraction(3, 216),
        3: Fraction(54, 216),
        6: Fraction(102, 216),
        12: Fraction(57, 216),
    }
    assert ss.expected_target_count() == Fraction(3 + 3 * 54 + 6 * 102 + 12 * 57, 216) == Fraction(487, 72)


def test_targets_of_three_different_faces():
    assert len(ss.target_numbers((1, 2, 5))) == 6  # no 6: 3 × 2 × 1 orders
    assert len(ss.target_numbers((2, 6, 8))) == 12  # the 6 doubles them
    assert len(ss.target_numbers((4, 4, 6))) == 6  # the seed's 446 464 644 449 494 944


def test_exact_probabilities_match_sympy_stats():
    assert ss.p_target_six() == _f(P(sympy.Or(sympy.Eq(A, 6), sympy.Eq(B, 6), sympy.Eq(C, 6))))
    assert ss.p_target_six() == 1 - Fraction(5, 6) ** 2 == Fraction(11, 36)
    different = sympy.And(sympy.Ne(A, B), sympy.Ne(A, C), sympy.Ne(B, C))
    assert ss.p_target_dice_all_different() == _f(P(different)) == Fraction(2, 3)
    # Inclusion–exclusion by hand: pairs share 4, 5 and 4 faces; all three share 1 2 3.
    assert ss.p_target_dice_all_different() == 1 - (Fraction(4 + 5 + 4, 36) - 2 * Fraction(3, 216))
    assert ss.p_times_or_divide() == 1 - Fraction(2, 3) ** 3 == Fraction(19, 27)


# ---- the stored sample -------------------------------------------------------------------------------------


def test_stored_file_has_at_least_2000_rolls_with_seed_and_n():
    data = ss.stored()
    assert data["n"] >= ss.MIN_STORED_ROLLS >= 2000
    assert isinstance(data["seed"], int)
    assert len(data["rolls"]) == data["n"]
    for record in data["rolls"]:
        assert len(record) == 3
        assert all(v is None or (isinstance(v, int) and v >= 0) for v in record)


def test_stored_rolls_are_reproducible_from_the_seed():
    data = ss.stored()
    for i in (0, 1, 2, data["n"] - 1):
        assert list(ss.simulate_roll(data["seed"], i)) == data["rolls"][i]


def test_a_roll_and_its_rerolls_use_their_own_seeds():
    roll = random_roll(ss.roll_seed(ss.STORED_SEED, 0))
    import random

    numbers = ss.reroll(roll, ss.NUMBERS, random.Random(1))
    every = ss.reroll(roll, ss.ALL, random.Random(1))
    assert numbers.target_dice == every.target_dice == roll.target_dice
    assert numbers.operator_dice == roll.operator_dice  # only the number dice change
    assert numbers.number_dice == every.number_dice  # same generator, number dice first
    assert len(every.operator_dice) == 4


@pytest.mark.slow
def test_a_fresh_sample_agrees_with_the_stored_figures_within_3_standard_errors():
    # 60 new rolls from another seed: independent of the stored ones, so the difference of two estimates has
    # standard error sqrt(se₁² + se₂²).
    fresh = ss.figures(ss.simulate(60, seed=99))
    stored = ss.stored_figures()
    for name in ("reach", "reach_numbers", "reach_all"):
        p, q = getattr(stored, name), getattr(fresh, name)
        se = math.hypot(standard_error(p.value, p.n), standard_error(p.value, q.n))
        assert abs(p.value - q.value) <= 3 * se, name
    for strategy in ss.STRATEGIES:
        mean, low, _ = stored.means[strategy]
        sd = (mean - low) / 1.959963984540054 * math.sqrt(stored.n)  # back from the stored interval
        se = sd * math.sqrt(1 / stored.n + 1 / fresh.n)
        assert abs(mean - fresh.means[strategy][0]) <= 3 * se, strategy


def test_headline_figures_are_sensible():
    f = ss.stored_figures()
    # Most rolls make a target; re-rolling all nine dice never helps on average once its cost is paid.
    assert 0.5 < f.reach.value < 1
    assert f.reach.interval[0] < f.reach.value < f.reach.interval[1]
    assert f.means[ss.ALL][0] < f.means["now"][0]
    # Re-rolling only when stuck can only add points to answering at once.
    assert f.means["numbers-if-stuck"][0] >= f.means["now"][0]
    assert f.stuck == f.reach.n - f.reach.hits == f.rescue_numbers.n


# ---- figures from hand-made records ------------------------------------------------------------------------


def test_strategy_scores_take_off_the_cost_and_never_go_below_zero():
    assert ss.final_score(None) == 0 and ss.final_score(3, 5) == 0 and ss.final_score(30, 9) == 21
    record = (None, 20, 4)
    assert ss.strategy_score(record, "now") == 0
    assert ss.strategy_score(record, ss.NUMBERS) == 15
    assert ss.strategy_score(record, ss.ALL) == 0
    assert ss.strategy_score(record, "numbers-if-stuck") == 15
    assert ss.strategy_score((30, None, 40), "all-if-stuck") == 30  # not stuck: answer at once
    assert ss.strategy_score((30, None, 40), ss.ALL) == 31


def test_figures_of_hand_made_records():
    records = [(10, 20, None), (None, 5, None), (None, None, 30), (0, 0, 0)]
    f = ss.figures(records)
    assert (f.reach.hits, f.reach_numbers.hits, f.reach_all.hits) == (2, 3, 2)
    assert f.stuck == 2 and f.rescue_numbers.hits == 1 and f.rescue_all.hits == 1
    assert f.means["now"][0] == pytest.approx(10 / 4)
    assert f.means["all-if-stuck"][0] == pytest.approx((10 + 0 + 21 + 0) / 4)
    assert ss.score_histogram(records) == {"none": 2, "0-9": 1, "10-19": 1, "20-29": 0, "30-39": 0,
                                           "40-49": 0, "50-1000000": 0}  # fmt: skip


# ---- experiments and questions -----------------------------------------------------------------------------


def test_target_experiment_is_exact_beside_a_simulation_within_3_standard_errors():
    n = 20_000
    outcome = ss.LESSON.experiments[0].run(n, 5, "en")
    assert sum(r.exact for r in outcome.rows) == 1
    for row in outcome.rows:
        assert abs(row.simulated - float(row.exact)) <= 3 * standard_error(row.exact, n)


@pytest.mark.parametrize("key", ["reach", "best", "value"])
def test_stored_experiments_sample_the_stored_rolls(key):
    experiment = next(e for e in ss.LESSON.experiments if e.key == key)
    assert experiment.max_trials == experiment.default_trials == ss.stored()["n"]
    full = experiment.run(experiment.default_trials, 1, "en")
    small = experiment.run(100, 3, "ja")
    assert full.n == ss.stored()["n"] and small.n == 100
    assert small == experiment.run(100, 3, "ja")  # seeded
    assert "推定" in small.note_text("ja") and "estimates" in full.note_text("en")
    for row in full.rows:
        assert row.interval[0] <= row.simulated <= row.interval[1]
        # Exact values come from the odds table's facts; the stored rolls (solved one by one with solve())
        # are an independent sample of the same game, so the two must agree within sampling error.
        if row.exact is not None:
            low, high = row.interval
            margin = 1.5 * (high - low)  # about 3 standard errors
            assert abs(row.simulated - float(row.exact)) <= margin, (row, margin)
    if key == "reach":
        assert [r.exact for r in full.rows[:3]] == [ss.exact_reach()] * 3
    if key == "best":
        assert sum(r.simulated for r in full.rows) == pytest.approx(1)
    if key == "reach":
        assert full.rows[0].simulated == ss.stored_figures().reach.value


def test_samples_are_different_stored_rolls():
    sample = ss.sample_records(50, 8)
    assert len(sample) == 50 and sample != ss.sample_records(50, 9)
    assert ss.sample_records(10**6, 1) == ss.stored_records()


def test_steps_exact_and_read_from_the_stored_rolls():
    steps = {s.key: s for s in ss.steps()}
    assert 4 <= len(steps) <= 6
    assert steps["targets"].answer == 12
    assert steps["six"].answer == Fraction(11, 36)
    assert steps["different"].answer == Fraction(2, 3)
    assert steps["times"].answer == Fraction(19, 27)
    for key in ("targets", "six", "different", "times"):
        assert steps[key].accept is None
        assert check_answer(steps[key], str(steps[key].answer), "en").result == "correct"
    assert check_answer(steps["six"], "0.3", "en").result == "wrong"
    f = ss.stored_figures()
    low, high = steps["reach"].accept
    assert low <= Fraction(f.reach.hits, f.reach.n) <= high and high - low < Fraction(1, 10)
    pct = f"{f.reach.value * 100:.0f}%"
    assert check_answer(steps["reach"], pct, "en").result == "correct"
    assert check_answer(steps["reach"], pct[:-1], "en").result == "close"  # the % sign forgotten
    assert check_answer(steps["reach"], "1%", "en").result == "wrong"
    mean = f.means["now"][0]
    assert check_answer(steps["mean"], f"{mean:.1f}", "ja").result == "correct"
    assert check_answer(steps["mean"], str(round(mean) + 5), "ja").result == "wrong"

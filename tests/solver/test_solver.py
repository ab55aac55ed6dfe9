"""The solver against a plain brute-force reference, and every answer it gives passes `check`."""

from __future__ import annotations

import random

import pytest

from suji.rules.dice import Roll, random_roll
from suji.rules.exact import as_rational
from suji.rules.language.evaluate import evaluate, is_formula
from suji.rules.scoring import check
from suji.solver.listing import all_formulas, reference_solve
from suji.solver.search import LEVEL_OPERATORS, irreducible, is_subsequence, solve

PROOF_ROLLS = 200


def assert_agrees(roll: Roll, allowed=None) -> None:
    """Same reachable targets, best scores and solution counts as brute force; every answer checks."""
    solution = solve(roll, allowed)
    reference = reference_solve(roll, allowed)
    assert sorted(solution.best) == sorted(reference)
    for target, ref in reference.items():
        best = solution.best[target]
        assert best.score == ref.score, (target, best, ref.best)
        assert best.solutions == len(ref.formulas)
        assert set(solution.formulas[target]) == set(ref.formulas)
        assert best.faces in ref.best
        result = check(best.formula, roll)
        assert result.valid and result.target == target
        assert result.score == best.score
        assert result.removed_tokens == []  # the best formula is irreducible


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(PROOF_ROLLS))
def test_solver_agrees_with_brute_force_on_seeded_rolls(seed):
    assert_agrees(random_roll(seed))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(0, 60, 3))
@pytest.mark.parametrize("level", [1, 2])
def test_solver_agrees_with_brute_force_at_drill_levels(seed, level):
    assert_agrees(random_roll(seed), LEVEL_OPERATORS[level])


@pytest.mark.parametrize("seed", range(12))
def test_custom_dice_with_square_and_root_agree_with_brute_force(seed):
    rng = random.Random(seed)
    roll = Roll.of(
        number_dice=[rng.randint(1, 8) for _ in range(4)],
        operator_dice=["√", "²", rng.choice("+-*/"), rng.choice(["+", "-", "x10", "x11"])],
        target=rng.randint(1, 80),
    )
    assert_agrees(roll)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("signs", [(), ("+",)])
def test_two_divide_dice_agree_with_brute_force_with_and_without_a_sign_die(seed, signs):
    # With two ÷ dice, fractions are summed when a sign die joins terms; without one the formula is one term,
    # whole, and only fractions on their way back to a whole number (3÷2÷3×12) are grown.
    rng = random.Random(seed)
    number_dice = [rng.randint(1, 6) for _ in range(4)]
    operator_dice = ["÷", "÷", rng.choice(["×", "x10", "x12", "²"]), *signs]
    unsigned = Roll.of(number_dice=number_dice, operator_dice=operator_dice, target=1)
    values = {as_rational(evaluate(f)) for f in all_formulas(unsigned)}
    whole = sorted(int(v) for v in values if v is not None and v.denominator == 1 and 1 <= v <= 999)
    roll = Roll.of(number_dice=number_dice, operator_dice=operator_dice, target=rng.choice(whole))
    assert_agrees(roll)


def test_a_fraction_divided_again_comes_back_whole():
    # 3÷2÷2×4: 3/2, then 3/4, then 3. No other order of these dice makes 3/4 before the ×.
    roll = Roll.of(number_dice=[3, 2, 2, 4], operator_dice=["÷", "÷", "×"], target=3)
    assert_agrees(roll)
    assert (3, "÷", 2, "÷", 2, "×", 4) in solve(roll).hits[3]


def test_two_fractions_add_up_to_a_whole_number():
    roll = Roll.of(number_dice=[1, 2, 1, 2], operator_dice=["÷", "÷", "+"], target=1)
    assert_agrees(roll)
    assert (1, "÷", 2, "+", 1, "÷", 2) in solve(roll).hits[1]


def test_a_number_times_itself():
    roll = Roll.of(number_dice=[3, 3, 1], operator_dice=["×", "+"], target=10)
    assert_agrees(roll)
    assert set(solve(roll).formulas[10]) == {(1, "+", 3, "×", 3), (3, "×", 3, "+", 1)}


def test_a_divisor_larger_than_the_target_times_the_dice_left():
    # 3×12÷36 = 1: the divisor 36 is more than the target times the largest number the dice left show (3), but
    # the constant die left makes the dividend as large.
    roll = Roll.of(number_dice=[3, 3, 6], operator_dice=["x12", "÷"], target=1)
    assert_agrees(roll)
    assert (3, "×12", "÷", 3, 6) in solve(roll).hits[1]


def test_two_root_dice_use_full_enumeration_and_still_agree():
    # √2×√8 = 4: two irrational roots can multiply to a whole number, which the fast path leaves out.
    roll = Roll.of(number_dice=[2, 8, 1], operator_dice=["√", "√", "×", "+"], target=5)
    assert_agrees(roll)
    assert ("√", 2, "×", "√", 8, "+", 1) in solve(roll).formulas[5]


def test_a_die_showing_nine_agrees():
    roll = Roll.of(number_dice=[9, 6, 1], operator_dice=["+", "−"], target=97)
    assert_agrees(roll)


def test_small_roll_counts_by_hand():
    roll = Roll.of(number_dice=[1, 2], operator_dice=["+"], target=3)
    solution = solve(roll)
    assert solution.best[3].score == 2  # + is 1 point × 2 number dice
    assert set(solution.formulas[3]) == {(1, "+", 2), (2, "+", 1)}


def test_redundant_formulas_are_not_counted():
    # 5, 5+1−1, 5−1+1, 1+5−1 … all make 5, but only "5" has nothing to strip.
    roll = Roll.of(number_dice=[5, 1, 1], operator_dice=["+", "−"], target=5)
    solution = solve(roll)
    assert solution.formulas[5] == [(5,)]
    assert solution.best[5].score == 0
    assert (5, "+", 1, "−", 1) in solution.hits[5]


def test_rules_example_446():
    roll = Roll.of(number_dice=[2, 1, 4, 1, 3], operator_dice=["+", "+", "²", "−"], target_dice=[4, 4, 6])
    solution = solve(roll)
    # 21²+4+1 scores 24; nothing for 446 scores more with these dice.
    assert solution.best[446].score == 24
    assert (2, 1, "²", "+", 4, "+", 1) in solution.formulas[446]


def test_six_read_as_nine_is_a_different_face():
    roll = Roll.of(number_dice=[6, 3], operator_dice=["+"], target=12)
    solution = solve(roll)
    assert set(solution.formulas[12]) == {(3, "+", 9), (9, "+", 3)}


def test_unreachable_targets_are_absent():
    roll = Roll.of(number_dice=[1, 1], operator_dice=["+"], target_dice=[8, 8, 8])
    assert solve(roll).best == {}
    assert solve(roll).top is None


def test_batch_dict_format():
    roll = Roll.of(number_dice=[1, 2], operator_dice=["+"], target=3)
    data = solve(roll).to_dict()
    assert data == {
        "targets": [3],
        "best": {"3": {"score": 2, "formula": "1+2", "tokens": ["1", "+", "2"], "solutions": 2}},
    }


def test_level_operators_limit_the_solver():
    roll = Roll.of(number_dice=[4, 2], operator_dice=["×", "+"], target=8)
    assert solve(roll).best[8].formula == "2×4"
    assert 8 not in solve(roll, LEVEL_OPERATORS[1]).best


def test_is_subsequence_and_irreducible():
    assert is_subsequence((5,), (5, "+", 1, "−", 1))
    assert not is_subsequence((1, 5), (5, "+", 1))
    assert irreducible([(5,), (5, "+", 1, "−", 1), (1, "+", 4)]) == [(5,), (1, "+", 4)]


def test_brute_force_lists_only_valid_distinct_formulas():
    roll = Roll.of(number_dice=[6, 1], operator_dice=["+", "√"], target=7)
    formulas = list(all_formulas(roll))
    assert len(formulas) == len(set(formulas))
    assert all(is_formula(f) for f in formulas)
    assert (6, "+", 1) in formulas and (9, "+", 1) in formulas and ("√", 9, "+", 1) in formulas
    # every sequence of these dice that is a formula is listed (here: checked against all orders)
    from itertools import permutations

    faces = [6, 9, 1, "+", "√"]
    expected = set()
    for k in range(1, 5):
        for seq in permutations(faces, k):
            if (6 in seq and 9 in seq) or not is_formula(seq):
                continue
            expected.add(seq)
    assert set(formulas) == expected
    assert evaluate(("√", 9, "+", 1)) == evaluate((4,))


def test_a_whole_term_made_through_a_fraction_is_found():
    # 7÷2×4 = 14 passes through 7/2: with one ÷ die fractions are never summed, but they are still built on.
    roll = Roll.of(number_dice=[7, 2, 4], operator_dice=["÷", "×", "+"], target=14)
    assert_agrees(roll)
    assert (7, "÷", 2, "×", 4) in solve(roll).formulas[14]


def test_two_fractions_can_add_up_to_a_target():
    # 7÷2+1÷2 = 4 needs both ÷ dice: fractional terms are summed only then.
    roll = Roll.of(number_dice=[7, 2, 1, 2], operator_dice=["÷", "÷", "+"], target=4)
    assert_agrees(roll)
    assert (7, "÷", 2, "+", 1, "÷", 2) in solve(roll).hits[4]  # found (then stripped to 2+2)

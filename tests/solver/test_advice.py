"""Re-roll advice: exact odds of every choice, checked by enumerating the outcomes independently."""

from __future__ import annotations

from fractions import Fraction

import pytest

from suji.rules.dice import NUMBER_DIE_B, OPERATOR_DIE_A, DiceError, Roll, random_roll
from suji.solver.advice import advise, roll_dice
from suji.solver.search import solve

ROLL = Roll.of(number_dice=[2, 1, 3, 1, 4], operator_dice=["+", "+", "−", "²"], target_dice=[4, 4, 6])


def best_or_none(roll: Roll):
    top = solve(roll).top
    return top.score if top else None


def test_kinds_follow_the_standard_set_in_any_order():
    dice = roll_dice(ROLL)
    assert [d.kind for d in dice if d.group == "number"] == ["A", "A", "B", "B", "C"]
    shuffled = Roll.of(number_dice=[7, 1, 3, 6, 8], operator_dice=["²", "+", "×", "÷"], target_dice=[1, 2, 3])
    kinds = {(d.face, d.kind) for d in roll_dice(shuffled)}
    assert (7, "B") in kinds and ("²", "B") in kinds
    with pytest.raises(DiceError):
        roll_dice(Roll.of(number_dice=[7, 7, 7, 1, 1], operator_dice=["+", "+", "+", "²"], target=10))
    with pytest.raises(DiceError):
        roll_dice(Roll.of(number_dice=[1, 2], operator_dice=["+"], target=3))


def test_one_die_rerolls_match_an_independent_enumeration():
    advice = advise(ROLL, max_rerolled=1)
    now = best_or_none(ROLL)
    answer = next(o for o in advice.options if o.kind == "answer")
    assert answer.probability == 1 and answer.expected_score == now
    for option in advice.options:
        if option.kind != "reroll":
            continue
        (die,) = option.dice
        probability, expected = Fraction(0), Fraction(0)
        for face in die.faces:  # each side of the die is 1/6, faces repeated on the die count twice
            numbers, operators = list(ROLL.number_dice), list(ROLL.operator_dice)
            (numbers if die.group == "number" else operators)[die.index] = face
            score = best_or_none(Roll(ROLL.target_dice, tuple(numbers), tuple(operators)))
            if score is not None:
                probability += Fraction(1, 6)
                expected += Fraction(max(0, score - 1), 6)
        assert option.probability == probability, option
        assert option.expected_score == expected, option


def test_set_face_options_cost_five_and_are_certain():
    advice = advise(ROLL, max_rerolled=1)
    sets = [o for o in advice.options if o.kind == "set"]
    assert sets and all(o.cost == 5 and o.probability in (0, 1) for o in sets)
    # every other face of every kind of die is offered once
    b_faces = {o.face for o in sets if o.dice[0].group == "number" and o.dice[0].face == 3}
    assert b_faces == set(NUMBER_DIE_B) - {3}
    a_ops = {o.face for o in sets if o.dice[0].group == "operator" and o.dice[0].face == "+"}
    assert a_ops == set(OPERATOR_DIE_A) - {"+"}


def test_options_are_sorted_best_first_and_costs_already_spent_count():
    advice = advise(ROLL, max_rerolled=1)
    expected = [o.expected_score for o in advice.options]
    assert expected == sorted(expected, reverse=True)
    assert advice.best is advice.options[0]
    spent = advise(ROLL, rerolled=3, max_rerolled=1)
    answer = next(o for o in spent.options if o.kind == "answer")
    assert answer.expected_score == max(0, best_or_none(ROLL) - 3)


@pytest.mark.slow
def test_two_dice_rerolls_are_listed_with_their_odds():
    roll = random_roll(2)
    advice = advise(roll)
    pairs = [o for o in advice.options if o.kind == "reroll" and len(o.dice) == 2]
    assert pairs and all(o.cost == 2 for o in pairs)
    assert all(0 <= o.probability <= 1 for o in advice.options)
    data = advice.to_dict("ja")
    assert data["best"]["label"] and isinstance(data["options"][0]["probability"], str)


def test_unsolvable_roll_advises_a_change():
    roll = random_roll(24)  # 2 2 2 2 2 with ÷ ÷ + √ cannot make 566, 656, 665, 569, 596, 965, …
    assert not solve(roll).best
    advice = advise(roll)
    answer = next(o for o in advice.options if o.kind == "answer")
    assert answer.probability == 0 and answer.expected_score == 0
    assert advice.best.kind != "answer" and advice.best.expected_score > 0

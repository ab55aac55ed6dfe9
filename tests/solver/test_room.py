"""DiceCounts.room and .multiplier, the bounds the solver prunes with, against every formula the brute-force listing
finds."""

from __future__ import annotations

import math
import random

import pytest

from suji.rules.dice import Roll
from suji.rules.language.evaluate import evaluate
from suji.solver.dice_counts import DiceCounts
from suji.solver.listing import all_formulas

OPERATORS = ["+", "-", "*", "/", "^2", "sqrt", "x10", "x11", "x12"]


def magnitude(faces) -> float:
    """|value| of a formula (its terms p/q·√r added up as floats: an upper bound is all the test needs)."""
    value = evaluate(faces)
    assert value is not None or "÷" in faces  # only a division by zero is refused
    return 0.0 if value is None else sum(abs(float(c)) * math.sqrt(r) for r, c in value)


@pytest.mark.parametrize("seed", range(10))
def test_room_bounds_every_formula_of_the_dice(seed):
    # Everything a sum of terms with these dice can reach, read from the listing: no formula is larger.
    rng = random.Random(f"room:{seed}")
    roll = Roll.of(
        number_dice=[rng.choice([1, 2, 3, 4, 5, 6, 7, 8]) for _ in range(rng.randint(2, 4))],
        operator_dice=[rng.choice(OPERATORS) for _ in range(rng.randint(1, 4))],
        target=1,
    )
    largest, divisors = DiceCounts(roll, None).room(0)
    biggest = max(magnitude(f) for f in all_formulas(roll))
    assert biggest <= largest * (1 + 1e-12)
    # Every product of factors (a divisor a ÷ die could take) is within the second bound.
    products = [magnitude(f) for f in all_formulas(roll, frozenset({"×", "²", "√"}))]
    if "÷" in roll.operator_dice:
        assert max(products) <= divisors * (1 + 1e-12)
    else:
        assert divisors == 1


def test_room_reads_a_six_as_nine_and_counts_only_the_dice_left():
    roll = Roll.of(number_dice=[6, 1, 2], operator_dice=["+", "²"], target=1)
    dice = DiceCounts(roll, None)
    assert dice.room(0) == (921 * 921, 1)  # the 6 read as 9, the digits falling: 921, and the ² squares it
    assert dice.room(dice.bit[6] + dice.bit["²"]) == (21, 1)  # the 1 and 2 left: 21 at most


@pytest.mark.parametrize("seed", range(10))
def test_multiplier_bounds_what_the_dice_can_multiply_a_term_by(seed):
    # A term grown by these dice is the term × factors × constants: the listing's formulas that start with a
    # lone 1 (an extra die standing for the term) followed by × ² √ and constant dice only, read off their value.
    rng = random.Random(f"multiplier:{seed}")
    numbers = [rng.choice([1, 2, 3, 4, 5, 6, 7, 8]) for _ in range(rng.randint(1, 3))]
    operators = [
        rng.choice(["*", "*", "^2", "sqrt", "x10", "x11", "x12", "+", "/"]) for _ in range(rng.randint(1, 4))
    ]
    most = DiceCounts(Roll.of(number_dice=numbers, operator_dice=operators, target=1), None).multiplier(0)
    grown = Roll.of(number_dice=[1, *numbers], operator_dice=operators, target=1)
    products = [
        magnitude(f)
        for f in all_formulas(grown, frozenset({"×", "²", "√", "×10", "×11", "×12"}))
        if f[0] == 1 and (len(f) == 1 or type(f[1]) is str)
    ]
    assert max(products) <= most * (1 + 1e-12)
    if "*" not in operators and not any(c in operators for c in ("x10", "x11", "x12")):
        assert most == 1


def test_multiplier_counts_the_times_and_constant_dice_left():
    roll = Roll.of(number_dice=[6, 1], operator_dice=["×", "×11"], target=1)
    dice = DiceCounts(roll, None)
    assert dice.multiplier(0) == 91 * 11  # the 6 read as 9: 91 at most after the × die, then the ×11
    assert dice.multiplier(dice.bit["×"]) == 11  # no × die left: only the constant
    assert dice.multiplier(dice.bit["×"] + dice.bit["×11"]) == 1


@pytest.mark.parametrize("seed", range(20))
def test_the_largest_number_left_is_the_dice_left_in_falling_order(seed):
    # The table DiceCounts builds once, for every set of number dice a usage code can use, against the plain
    # reading: the digits of the dice left sorted in falling order (a 6 read as 9) and joined.
    import itertools

    rng = random.Random(f"largest:{seed}")
    numbers = [rng.randint(1, 8) for _ in range(rng.randint(1, 7))]
    dice = DiceCounts(Roll.of(number_dice=numbers, operator_dice=["+"], target=1), None)
    faces = sorted(dice.numbers)
    for used in itertools.product(*(range(dice.numbers[f] + 1) for f in faces)):
        code = sum(k * dice.bit[f] for k, f in zip(used, faces, strict=True))
        left = [9 if f == 6 else f for f, k in zip(faces, used, strict=True) for _ in range(dice.numbers[f] - k)]
        expected = int("".join(map(str, sorted(left, reverse=True)))) if left else 0
        assert dice.room(code)[0] == expected

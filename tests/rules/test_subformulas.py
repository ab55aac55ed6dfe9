"""suji.rules.language.subformulas: the stripping's term-by-term search, held to the plain search that evaluates
every choice of dice on its own (`has_value`), on random formulas, on seeded formulas full of dice that cancel
(1 and 0 dice, + and −, √ and ²) and on the cases it prunes."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from suji_reference import formulas
from tiers import examples

from suji.rules.language.evaluate import evaluate, is_formula, value_terms
from suji.rules.language.subformulas import equal_sub_formulas, plain_equal_sub_formulas
from suji.rules.scoring import plain_strip_redundant, strip_redundant


def both(faces):  # noqa: ANN001, ANN201
    terms = value_terms(evaluate(faces))
    return equal_sub_formulas(faces, terms), plain_equal_sub_formulas(faces, terms)


@settings(max_examples=examples(300))
@given(formulas(max_len=10))
def test_the_shared_prefixes_find_what_each_choice_evaluated_alone_finds(faces):
    fast, plain = both(faces)
    assert fast == plain
    assert strip_redundant(faces) == plain_strip_redundant(faces)


@settings(max_examples=examples(200))
@given(formulas(max_len=7), st.lists(st.sampled_from([0, 0, 1, 4]), min_size=2, max_size=3))
def test_a_zero_from_custom_dice_prunes_only_what_divides_by_it(faces, digits):
    """Custom dice may show 0: ÷04 is a division by 4, but a choice that keeps its 0 and drops its 4 divides by
    zero, and is dropped with every choice it starts."""
    divided = (*faces, "÷", *digits)
    if evaluate(divided) is None:
        return  # a division by zero itself (÷00): check never strips it
    fast, plain = both(divided)
    assert fast == plain


@pytest.mark.parametrize(
    ("faces", "kept"),
    [
        ((2, 1, "²", "+", 4, "+", 1), []),  # nothing to strip
        ((1, 2, "×", 3, "+", 4, 5, "÷", 9, "−", 6), [(3, 6)]),  # 36+5−6 is 35: the dice 3 and 5
        ((8, "+", 2, "÷", 1, 1, "×11"), [(0, 1, 2)]),  # 8+2
        (("−", 3, "+", "√", 1, 2, "×", "√", 3), [(1,), (8,)]),  # −3+6 is 3: either 3
        ((1, "+", 2, "−", 3, "+", 4), [(6,)]),
        ((5, 2, "×", 3, "−", 1), [(0, 2, 3, 5)]),  # 52×3−1 is 155, 5×31 too
    ],
)
def test_examples_of_the_smallest_matches(faces, kept):
    fast, plain = both(faces)
    assert fast == plain == kept


def seeded_formulas(seed: str, count: int) -> list[tuple]:
    """`count` formulas of up to 10 dice, shuffled from faces that often cancel or repeat (custom dice may show 0);
    several + and − make many choices, √ makes values of two radicands."""
    rng = random.Random(seed)
    operators = ["+", "−", "+", "−", "+", "−", "×", "÷", "×10", "×11", "×12", "²", "√", "√"]
    found: list[tuple] = []
    while len(found) < count:
        faces = [rng.choice([0, 1, 1, 1, 2, 2, 3, 4, 9]) if rng.random() < 0.55 else rng.choice(operators)
                 for _ in range(rng.randint(1, 10))]  # fmt: skip
        for _ in range(30):
            if is_formula(faces):
                if evaluate(faces) is not None:  # not itself a division by zero
                    found.append(tuple(faces))
                break
            rng.shuffle(faces)
    return found


@pytest.mark.parametrize("seed", ["cancel-1", "cancel-2", "cancel-3"])
def test_seeded_formulas_with_dice_that_cancel_match_the_plain_search(seed):
    for faces in seeded_formulas(seed, 1000):  # about a second: the same in the quick tier
        fast, plain = both(faces)
        assert fast == plain, faces


@pytest.mark.parametrize(
    "faces",
    [
        (1, 3, "−", "√", 2, 1, "−", 1, "×12"),  # 13−√21−1×12: a choice after each − looks up a different need
        ("√", 4, "×", 1, "+", 2, "+", "√", 3),  # 2+2+√3, and √4×1 is 2 as well
        ("−", 1, "−", "√", 1, 2, "+", "√", 3),  # a leading − and two radicands
    ],
)
def test_choices_ending_at_each_of_several_plus_and_minus_dice_match_the_plain_search(faces):
    fast, plain = both(faces)
    assert fast == plain


def test_the_search_stops_at_the_first_size_with_a_match_and_keeps_every_one_of_that_size():
    """1×1×1×1×1×1×11 is 11: the two dice of any "11" are its smallest matches, found before longer terms."""
    faces = (1, "×", 1, "×", 1, "×", 1, "×", 1, "×", 1, "×", 1, 1)
    fast, plain = both(faces)
    assert fast == plain
    assert {len(kept) for kept in fast} == {2}
    assert (12, 13) in fast

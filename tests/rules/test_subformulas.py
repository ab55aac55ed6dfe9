"""suji.rules.language.subformulas: the stripping's term-by-term search and its walk in C (subformula_walk.pyx, where
it is built), each held to the plain search that evaluates every choice of dice on its own (`has_value`), on random
formulas, on seeded formulas full of dice that cancel (1 and 0 dice, + and −, √ and ²) and on the cases they prune;
and the walk giving up, to the search, where its 64-bit ints or its arrays would not hold the answer."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from suji_reference import formulas
from tiers import examples

from suji.rules.language.evaluate import evaluate, is_formula, value_terms
from suji.rules.language.subformulas import (
    equal_sub_formulas,
    plain_equal_sub_formulas,
    search_equal_sub_formulas,
    walk_equal_sub_formulas,
)
from suji.rules.scoring import plain_strip_redundant, strip_redundant

needs_walk = pytest.mark.skipif(walk_equal_sub_formulas is None, reason="the walk in C is not built here")


WALKED: list[bool] = []  # for each formula `both` was asked about: whether the walk answered (it may give up)


def both(faces):  # noqa: ANN001, ANN201
    """(what the stripping uses, the plain search), having held the search and the walk (if built) to each other."""
    terms = value_terms(evaluate(faces))
    search = search_equal_sub_formulas(faces, terms)
    if walk_equal_sub_formulas is not None:
        walked = walk_equal_sub_formulas(faces, terms)
        WALKED.append(walked is not None)
        assert walked is None or walked == search, faces
    assert equal_sub_formulas(faces, terms) == search
    return search, plain_equal_sub_formulas(faces, terms)


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
    if walk_equal_sub_formulas is not None:
        assert walk_equal_sub_formulas(faces, value_terms(evaluate(faces))) == kept


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
    WALKED.clear()
    for faces in seeded_formulas(seed, 1000):  # about a second: the same in the quick tier
        fast, plain = both(faces)
        assert fast == plain, faces
    if walk_equal_sub_formulas is not None:  # the walk answered nearly all of them itself (dice of 0 to 9)
        assert WALKED.count(True) >= 990, WALKED.count(False)


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


@needs_walk
def test_the_walk_gives_up_where_64_bits_would_not_hold_a_number_and_the_search_answers():
    """3037000500² is just past 2^63: the walk meets it squaring a kept factor, and answers None, not a wrong match."""
    big = (3, 0, 3, 7, 0, 0, 0, 5, 0, 0)
    faces = (*big, "²", "÷", 5, "²")  # 3037000500² ÷ 25 itself fits in 64 bits
    terms = value_terms(evaluate(faces))
    assert max(abs(n) for n, _ in terms.values()) < 2**63
    assert walk_equal_sub_formulas(faces, terms) is None
    assert equal_sub_formulas(faces, terms) == search_equal_sub_formulas(faces, terms) == plain_equal_sub_formulas(
        faces, terms
    )
    huge = (*big, "²", "+", 1)  # a value beyond 64 bits: the walk does not start
    assert walk_equal_sub_formulas(huge, value_terms(evaluate(huge))) is None
    lowest = ("−", *map(int, str(2**63 - 1)), "−", 1, "×", 1)  # −(2^63 − 1) − 1 has no 64-bit opposite
    assert walk_equal_sub_formulas(lowest, value_terms(evaluate(lowest))) is None
    fine = (2, "÷", 2, 2, 2, 2, 2, "²")  # 2 ÷ 22222² is 1/246908642: compared in 128 bits, the walk answers
    terms = value_terms(evaluate(fine))
    assert walk_equal_sub_formulas(fine, terms) == plain_equal_sub_formulas(fine, terms) == []


@needs_walk
def test_the_walk_gives_up_when_factoring_roots_of_long_numbers_would_take_long():
    """999999999989 is prime: finding its square factors takes a million trial divisions, and each number its digits
    make when some are left out takes a good part of that again. The walk stops at its budget and gives the question
    to the search. The roots a roll's dice can make (eight digits at most) stay well within it."""
    rooted = ("√", *map(int, "999999999989"), "+", 1)
    assert walk_equal_sub_formulas(rooted, value_terms(evaluate(rooted))) is None
    for rolled in [("√", 9, 8, 7, 6, 5, 4, 3, 1, "+", 2), ("√", 1, 2, 3, 4, "×", "√", 5, 6, 7, 8, "+", 9)]:
        terms = value_terms(evaluate(rolled))
        assert walk_equal_sub_formulas(rolled, terms) == search_equal_sub_formulas(rolled, terms) == []


@needs_walk
def test_the_walk_leaves_more_dice_than_it_holds_and_more_matches_than_it_keeps_to_the_search():
    product = (1, "×") * 11 + (1,)  # 1×1×…×1, 23 dice: each 1 alone is a match
    terms = value_terms(evaluate(product))
    assert walk_equal_sub_formulas(product, terms) == [(i,) for i in range(0, 23, 2)]
    longer = (1, "×") * 12 + (1,)  # 25 dice
    assert walk_equal_sub_formulas(longer, terms) is None
    assert len(equal_sub_formulas(longer, terms)) == 13
    total = (1, "+") * 11 + (1,)  # 12: 1+11, 11+1, 1+1+…: far more matches of four dice than the walk keeps
    terms = value_terms(evaluate(total))
    assert walk_equal_sub_formulas(total, terms) is None
    assert len(equal_sub_formulas(total, terms)) > 1024


@needs_walk
@settings(max_examples=examples(300))
@given(st.lists(st.sampled_from([0, 1, 2, 5, 9, "+", "−", "×", "÷", "²", "√", "×10", "×11", "×12"]), max_size=12))
def test_the_walk_answers_as_the_plain_search_on_any_formula_of_the_language(faces):
    """Any faces at all, 0 dice too: the walk follows the automaton's table, so what it keeps is a formula."""
    if not is_formula(faces) or evaluate(faces) is None:
        return
    terms = value_terms(evaluate(faces))
    walked = walk_equal_sub_formulas(faces, terms)
    assert walked is None or walked == plain_equal_sub_formulas(faces, terms)
    if max((abs(n) * d for n, d in terms.values()), default=0) < 10**6 and "÷" not in faces:  # small: answered
        assert walked is not None

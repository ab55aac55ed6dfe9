"""suji.rules.scoring: the dice check, redundancy stripping, points, costs and `check` (RULES.md §1)."""

from __future__ import annotations

import gc
from collections import Counter

import pytest
from grammar_reference import to_sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from suji_reference import formulas, reference_score, reference_strip, reference_value, same_value

from suji.rules.dice import Roll
from suji.rules.language.errors import FormulaError
from suji.rules.language.evaluate import evaluate
from suji.rules.language.printing import format_faces
from suji.rules.language.reader import MAX_FORMULA_LENGTH, parse
from suji.rules.scoring import (
    OPERATOR_POINTS,
    SET_FACE_COST,
    CheckResult,
    apply_costs,
    check,
    check_dice,
    formula_score,
    number_dice_used,
    operator_points,
    strip_redundant,
    value_so_far,
)

SEED_ROLL = Roll.of([2, 1, 4, 1, 3], ["+", "+", "^2", "-"], target_dice=[4, 4, 6])


def roll_for(faces, target: int | None = None) -> Roll:
    """A custom roll with exactly the dice of `faces` (a 9 is rolled as a 6)."""
    numbers = [6 if f == 9 else f for f in faces if isinstance(f, int)]
    operators = [f for f in faces if isinstance(f, str)]
    return Roll.of(numbers or [1], operators, target=target or 1)


# ---- the RULES.md examples --------------------------------------------------------------------------------


def test_seed_example_446_with_three_rerolls_scores_21():
    result = check("21²+4+1", SEED_ROLL, rerolled=3)
    assert result.valid and result.target == 446
    assert (result.operator_points, result.number_dice_used, result.points) == (6, 4, 24)
    assert result.score == 21
    assert result.removed_tokens == []


def test_seed_example_449_scores_4():
    roll = Roll.of([4, 4, 7, 2, 1], ["+", "-", "x", "^2"], target_dice=[4, 4, 6])
    result = check("447+2", roll)
    assert result.target == 449  # the 6 target die read as 9
    assert (result.operator_points, result.number_dice_used, result.score) == (1, 4, 4)


@pytest.mark.parametrize(
    ("text", "numbers", "operators", "target", "scored", "removed", "score"),
    [
        ("5+1−1", [5, 1, 1], ["+", "-"], 5, "5", ["+", "1", "−", "1"], 0),
        ("8+2÷11×11", [8, 2, 1, 1], ["+", "/", "x11"], 10, "8+2", ["÷", "1", "1", "×11"], 2),
        ("5−1²", [5, 1], ["-", "^2"], 4, "5−1", ["²"], 2),
        ("3+√4²", [3, 4], ["+", "sqrt", "^2"], 7, "3+4", ["√", "²"], 2),
    ],
)
def test_redundant_dice_examples(text, numbers, operators, target, scored, removed, score):
    result = check(text, Roll.of(numbers, operators, target=target))
    assert result.valid and result.target == target
    assert result.scored_formula == scored
    assert result.removed_tokens == removed
    assert result.score == score


def test_stripping_prefers_the_highest_score_among_the_shortest():
    # 3÷3×2+4 = 6: 3×2 and 2+4 both keep three dice; 3×2 scores 2×2, 2+4 only 1×2
    kept = strip_redundant((3, "÷", 3, "×", 2, "+", 4))
    assert [(3, "÷", 3, "×", 2, "+", 4)[i] for i in kept] == [3, "×", 2]
    kept = strip_redundant((2, "×", 1, "×", 1, "+", 2))
    assert [(2, "×", 1, "×", 1, "+", 2)[i] for i in kept] == [2, "×", 2]


def test_nothing_to_strip_keeps_every_die():
    assert strip_redundant((2, 1, "²", "+", 4, "+", 1)) == tuple(range(7))
    with pytest.raises(ValueError):
        strip_redundant(("+",))


def test_root_nine_plus_four_with_a_six():
    result = check("√9+4", Roll.of([4, 6], ["+", "sqrt"], target=7))
    assert result.valid and result.target == 7
    assert (result.operator_points, result.number_dice_used, result.score) == (6, 2, 12)


def test_constant_die_or_times_and_two_ones_scores_the_better_reading():
    # 23×11 with both a ×11 die and a × die with two 1 dice: × 1 1 scores 2 × 4 dice, ×11 only 3 × 2 dice
    roll = Roll.of([2, 3, 1, 1], ["x", "x11"], target=253)
    result = check("23×11", roll)
    assert result.scored_tokens == ["2", "3", "×", "1", "1"]
    assert result.score == 8
    only_constant = check("23×11", Roll.of([2, 3], ["x11"], target=253))
    assert only_constant.scored_tokens == ["2", "3", "×11"]
    assert only_constant.score == 6
    assert check("32×11", Roll.of([2, 3], ["x11"], target=352)).score == 6


@pytest.mark.parametrize("text", ["3×112", "2×113"])
def test_no_number_after_the_constant_die(text):
    result = check(text, Roll.of([1, 2, 3], ["x11"], target=336))
    assert not result.valid
    assert (result.error.code, result.error.column) == ("const_then_number", 5)
    assert result.score == 0


def test_two_divided_by_eleven_times_eleven_is_two():
    result = check("2÷11×11", Roll.of([2, 1, 1], ["/", "x11"], target=2))
    assert result.display == "2" and result.target == 2
    assert result.scored_formula == "2"


# ---- points and costs -------------------------------------------------------------------------------------


def test_operator_points_table():
    assert OPERATOR_POINTS == {"+": 1, "−": 1, "×": 2, "÷": 3, "×10": 3, "×11": 3, "×12": 3, "²": 4, "√": 5}
    assert operator_points(("−", 5, "+", 3)) == 2  # the leading sign is a die too
    assert number_dice_used((1, 2, "²", "+", 3)) == 3
    assert formula_score((4, 4, 6)) == 0  # digits only


def test_costs():
    assert apply_costs(24, rerolled=3) == 21
    assert apply_costs(24, set_faces=1) == 24 - SET_FACE_COST == 19
    assert apply_costs(24, rerolled=2, set_faces=2) == 12
    assert apply_costs(24, rerolled=24) == 0
    assert apply_costs(4, rerolled=3, set_faces=5) == 0  # floor at 0


def test_set_face_cost_and_floor_in_check():
    assert check("21²+4+1", SEED_ROLL, set_faces=1).score == 19
    assert check("21²+4+1", SEED_ROLL, rerolled=1, set_faces=4).score == 3
    result = check("21²+4+1", SEED_ROLL, rerolled=10, set_faces=3)
    assert (result.points, result.score) == (24, 0)
    with pytest.raises(ValueError):
        check("21²+4+1", SEED_ROLL, rerolled=-1)


def test_digits_only_scores_zero():
    result = check("446", Roll.of([4, 4, 6], ["+"], target_dice=[4, 4, 6]))
    assert result.valid and result.target == 446
    assert result.score == 0
    assert check("449", Roll.of([4, 4, 6], ["+"], target_dice=[4, 4, 6])).target == 449


def test_wrong_formula_scores_zero():
    result = check("21²+4+3", Roll.of([2, 1, 4, 3], ["+", "+", "^2"], target_dice=[4, 4, 6]))
    assert result.valid and result.display == "448"
    assert result.target is None
    assert (result.points, result.score) == (0, 0)
    assert result.operator_points == 6  # still reported for the stripped form


def test_non_integer_value_misses():
    result = check("1÷3", Roll.of([1, 3], ["/"], target=1))
    assert result.valid and result.target is None and result.value_text == result.display == "1/3"


# ---- the dice check ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "code", "column", "params"),
    [
        ("5+1", "not_rolled", 1, {"face": 5}),
        ("2×1", "not_rolled", 2, {"face": "×"}),
        ("2+2", "used_too_often", 3, {"face": 2, "count": 1}),
        ("2+1+4+1", "used_too_often", 6, {"face": "+", "count": 2}),
        ("21²+4²", "used_too_often", 6, {"face": "²", "count": 1}),
        ("9+1", "nine_needs_six", 1, {}),
    ],
)
def test_dice_errors(text, code, column, params):
    result = check(text, SEED_ROLL)
    assert not result.valid
    assert (result.error.code, result.error.column, result.error.params) == (code, column, params)
    assert result.score == 0 and result.exact is None and result.display is None
    assert result.to_dict()["error"]["code"] == code


def test_constant_die_not_rolled():
    result = check("21×12", Roll.of([2, 1, 4], ["x11", "+"], target=252))
    assert (result.error.code, result.error.column, result.error.params) == ("not_rolled", 3, {"face": "×12"})


def test_nine_is_a_six_turned_over():
    roll = Roll.of([6, 4, 4], ["+"], target=1)
    check_dice(parse("9+44").dice, roll)
    check_dice(parse("6+44").dice, roll)
    with pytest.raises(FormulaError) as info:
        check_dice(parse("96").dice, roll)
    assert (info.value.code, info.value.column, info.value.params) == (
        "used_too_often",
        2,
        {"face": 6, "count": 1},
    )
    with pytest.raises(FormulaError) as info:
        check_dice(parse("99").dice, roll)
    assert (info.value.code, info.value.column, info.value.params) == (
        "used_too_often",
        2,
        {"face": 9, "count": 1},
    )
    check_dice(parse("96").dice, Roll.of([6, 6], [], target=1))


def test_a_minus_die_is_sign_or_minus_but_only_once():
    roll = Roll.of([5, 8], ["-", "+"], target=3)
    assert check("−5+8", roll).target == 3
    assert check("−5−8", roll).error.code == "used_too_often"


# ---- never an exception -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "\x00",
        "5+\x00",
        "😀😀",
        "1" * (MAX_FORMULA_LENGTH + 1),
        "1+" * 10**5,
        "\ud800",
        "((((",
        "ー",
    ],
)
def test_check_never_raises_on_junk(text):
    result = check(text, SEED_ROLL)
    assert not result.valid and result.error is not None
    assert result.to_dict()["valid"] is False
    result.error.message("ja")


def _plain_answer(result: CheckResult, lang: str) -> dict:
    """The answer `to_dict` gives, built plainly from the result's properties and the printers."""
    return {
        "valid": result.valid,
        "error": result.error.to_dict(lang) if result.error else None,
        "value": result.value_text,
        "display": result.display,
        "target": result.target,
        "scored_formula": format_faces([result.dice[i].face for i in result.kept]) if result.valid else None,
        "scored_tokens": [str(result.dice[i].face) for i in result.kept],
        "removed_tokens": [str(d.face) for i, d in enumerate(result.dice) if i not in set(result.kept)],
        "operator_points": result.operator_points,
        "number_dice_used": result.number_dice_used,
        "score": result.score,
    }


@pytest.mark.parametrize(
    ("text", "roll"),
    [
        ("21²+4+1", SEED_ROLL),  # nothing stripped
        ("8+2÷11×11", Roll.of([8, 2, 1, 1], ["+", "/", "x11"], target=10)),  # dice stripped from the middle
        ("3+√4²", Roll.of([3, 4, 1, 2], ["+", "sqrt", "^2"], target=7)),
        ("52×3−1", Roll.of([5, 2, 3, 1, 6], ["×", "−", "+", "²"], target_dice=[1, 5, 2])),  # no target made
        # a surd: the machine and pupil spellings differ
        ("√8÷3−1", Roll.of([8, 3, 1], ["sqrt", "/", "-"], target=1)),
        ("−2÷4", Roll.of([2, 4], ["-", "/"], target=1)),  # a negative fraction
        ("12++3", SEED_ROLL),  # invalid
        ("", SEED_ROLL),
    ],
)
def test_the_answer_has_the_fields_of_the_result(text, roll):
    result = check(text, roll, rerolled=2)
    for lang in ("ja", "en"):
        assert result.to_dict(lang) == _plain_answer(result, lang)
    # A result made by hand (value_so_far makes one) keeps the same rule: dice not kept are the removed ones.
    made = CheckResult(formula="x", valid=False, dice=result.dice, kept=result.kept[:1])
    assert made.to_dict("en") == _plain_answer(made, "en")


@given(formulas(max_len=9))
def test_the_answer_has_the_fields_of_the_result_for_any_formula(faces):
    result = check(format_faces(faces), roll_for(faces, 1))
    assert result.to_dict("en") == _plain_answer(result, "en")


def test_a_check_leaves_nothing_for_the_garbage_collector():
    """An error kept in the answer carries no traceback: its frames (a web request's whole stack) would hold the
    error again, a cycle that lives until the collector's next pass."""
    cases = [
        ("12++3", SEED_ROLL),  # no reading is a formula
        ("8+2÷11×11", Roll.of([8, 2, 1, 1], ["+", "/", "x11"], target=10)),  # one reading valid, one not rolled
        ("21×10", SEED_ROLL),  # the error replaced by the missing constant die's
        ("(1+2)", SEED_ROLL),  # a character no die shows
    ]
    for text, roll in cases:
        check(text, roll)  # warm: first calls may fill module caches
    gc.collect()
    gc.disable()
    try:
        results = [check(text, roll) for text, roll in cases]
        assert gc.collect() == 0
    finally:
        gc.enable()
    assert all(r.error is None or r.error.__traceback__ is None for r in results)
    assert [r.valid for r in results] == [False, True, False, False]


def test_check_accepts_non_strings():
    assert check(b"\xff\x00", SEED_ROLL).valid is False
    assert check(446, Roll.of([4, 4, 6], [], target=446)).target == 446


@given(st.text(max_size=250))
def test_check_never_raises_on_text(text):
    result = check(text, SEED_ROLL)
    assert result.valid == (result.error is None)


@given(st.binary(max_size=250))
def test_check_never_raises_on_bytes(data):
    result = check(data.decode("utf-8", "surrogateescape"), SEED_ROLL)
    assert result.valid == (result.error is None)


# ---- properties -------------------------------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=200)
@given(formulas(max_len=12))  # stripping tries subsets of the dice: exponential in their number
def test_stripping_keeps_the_value_and_never_raises_the_score(faces):
    kept = strip_redundant(faces)
    assert list(kept) == sorted(set(kept))
    sub = [faces[i] for i in kept]
    assert evaluate(sub) == evaluate(faces)
    assert formula_score(sub) <= formula_score(faces)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(formulas(max_len=9))
def test_stripping_agrees_with_the_brute_force_reference(faces):
    size, score, winners = reference_strip(faces)
    kept = strip_redundant(faces)
    assert (len(kept), reference_score([faces[i] for i in kept])) == (size, score)
    assert kept in winners


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(formulas(max_len=11))
def test_check_scores_the_stripped_formula_of_the_dice_played(faces):
    value = reference_value(faces)
    target = int(value) if value.is_Integer and value > 0 else None
    roll = roll_for(faces, target)
    result = check(format_faces(faces), roll)
    assert result.valid, result.error
    assert same_value(to_sympy(result.exact), value)
    assert same_value(to_sympy(evaluate([d.face for d in result.dice])), value)
    played = Counter(d.face for d in result.dice)
    assert played <= Counter(faces)  # only dice of the roll
    kept = [result.dice[i].face for i in result.kept]
    assert same_value(reference_value(tuple(kept)), value)
    assert result.score <= reference_score(faces)
    if target is None:
        assert result.score == 0
    else:
        assert result.target == target
        assert result.score == formula_score(kept) == result.operator_points * result.number_dice_used


def test_a_constant_die_that_was_not_rolled_is_named():
    # Read as × 1 0 the formula needs a 0 die; the pupil meant the ×10 die, which this roll lacks.
    roll = Roll.of(number_dice=[2, 1, 1], operator_dice=["×"], target=210)
    result = check("21×10", roll)
    assert not result.valid
    assert result.error.code == "not_rolled" and result.error.params["face"] == "×10"
    assert result.error.column == 3


def test_dice_in_text_names_the_die_of_each_piece_as_the_checker_reads_it():
    from suji.rules.scoring import dice_in_text

    roll = Roll.of([2, 1, 4, 1, 6], ["+", "×", "×11", "²"], [4, 4, 6])
    used = lambda text: [(text[p["start"] : p["end"]], p["die"]) for p in dice_in_text(text, roll)]  # noqa: E731
    assert used("21²+4") == [("2", "n0"), ("1", "n1"), ("²", "o3"), ("+", "o0"), ("4", "n2")]
    # ×11 is the constant die while it is free; a 9 is the 6 turned over; full-width and spaces read as typed
    assert used("9×11+") == [("9", "n4"), ("×11", "o2"), ("+", "o0")]
    assert used("１ ×11×11") == [("１", "n1"), ("×11", "o2"), ("×", "o1"), ("1", "n3"), ("1", None)]
    # a character no die shows, and a face the roll has no free die for, use none; the rest still count
    assert used("2?1+3") == [("2", "n0"), ("?", None), ("1", "n1"), ("+", "o0"), ("3", None)]
    assert used("") == [] and used("(") == [("(", None)]


def test_an_unfinished_formula_with_a_die_that_was_not_rolled_is_a_mistake_already():
    from suji.rules.scoring import value_so_far

    roll = Roll.of([5, 2, 1, 3, 4], ["÷", "×", "−", "−"], [4, 4, 6])  # no + die
    keep_going = value_so_far("5÷2−", roll, "en")
    assert keep_going["unfinished"] and keep_going["error"] is None
    for text in ("5÷2+", "5＋"):
        data = value_so_far(text, roll, "en")
        assert not data["unfinished"] and data["error"]["code"] == "not_rolled", text
        assert "+" in data["error"]["message"]


def test_the_value_request_reads_the_text_once(monkeypatch):
    """value_so_far scans the formula once: the check, the dice it uses and the better message share the scan."""
    from suji.rules.language import reader

    scans = []
    real = reader.Scanned._scan_now

    def counting(self):  # noqa: ANN001, ANN202
        scans.append(self.text)
        return real(self)

    monkeypatch.setattr(reader.Scanned, "_scan_now", counting)
    roll = Roll.of([2, 1, 4, 1, 3], ["+", "+", "²", "−"], [4, 4, 6])
    for text in ("21^2+4+1", "21×10", "5++", "2+(", "４４７"):
        scans.clear()
        value_so_far(text, roll, "en")
        assert scans == [text], text


@given(formulas(max_len=12))
def test_the_tally_is_the_operator_points_and_the_number_dice(faces):
    from suji.rules.scoring import OPERATOR_POINTS, _tally

    # Held to the plain reading of RULES.md: each operator die's points added up, each digit one number die.
    plain_points = sum(OPERATOR_POINTS[f] for f in faces if isinstance(f, str))
    plain_numbers = sum(1 for f in faces if isinstance(f, int))
    assert _tally(faces) == (plain_points, plain_numbers)
    assert (operator_points(faces), number_dice_used(faces)) == (plain_points, plain_numbers)

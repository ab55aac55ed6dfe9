"""Hints step by step, and "still on track?" compared with a brute-force listing of all formulas."""

from __future__ import annotations

import random

import pytest

from suji.rules.dice import Roll, random_roll
from suji.rules.exact import as_rational
from suji.rules.language.evaluate import evaluate
from suji.rules.scoring import check
from suji.solver.hints import first_number, hints, on_track
from suji.solver.listing import all_formulas
from suji.solver.search import preferred, solve

ROLL_446 = Roll.of(number_dice=[2, 1, 4, 1, 3], operator_dice=["+", "+", "²", "−"], target_dice=[4, 4, 6])


def test_four_hints_each_one_step_further():
    steps = hints(ROLL_446)
    assert [h.level for h in steps] == [1, 2, 3, 4]
    assert steps[0].data["targets"] == "446 944"
    top = solve(ROLL_446).top
    assert steps[1].data == {"target": top.target, "numbers": 5, "operators": "− + ² +"}
    assert steps[2].data["first"] == "−21"
    formula = steps[3].data["formula"]
    result = check(formula, ROLL_446)
    assert result.target == top.target and result.score == steps[3].data["score"] == top.score


def test_hints_for_a_chosen_target():
    steps = hints(ROLL_446, target=446)
    assert steps[3].data["target"] == 446
    assert check(steps[3].data["formula"], ROLL_446).target == 446


def test_no_target_gives_one_hint_in_both_languages():
    roll = Roll.of(number_dice=[1, 1], operator_dice=["+"], target_dice=[8, 8, 8])
    (hint,) = hints(roll)
    assert hint.kind == "none"
    assert "Re-roll" in hint.message("en")
    assert "ふりなおす" in hint.message("ja")  # the app's one spelling: ふりなおす, never 振り直す


def test_first_number():
    solution = solve(ROLL_446)
    assert first_number(solution.best[446]) in {"1", "21"}


def _finishable(roll: Roll, start: tuple) -> set[int]:
    """Brute force: the targets of every formula of the roll that starts with these faces."""
    found = set()
    for faces in all_formulas(roll):
        if faces[: len(start)] == start:
            value = as_rational(evaluate(faces))
            if value is not None and value.denominator == 1 and value.numerator in roll.targets:
                found.add(value.numerator)
    return found


@pytest.mark.parametrize(
    "prefix, faces",
    [
        ("2", (2,)),
        ("21²+", (2, 1, "²", "+")),
        ("3", (3,)),
        ("4+", (4, "+")),
        ("−", ("−",)),
        ("1+3", (1, "+", 3)),
    ],
)
def test_on_track_agrees_with_brute_force(prefix, faces):
    track = on_track(prefix, ROLL_446)
    expected = _finishable(ROLL_446, faces)
    assert track.on_track == bool(expected)
    assert set(track.targets) == expected


@pytest.mark.slow
def test_on_track_on_random_rolls_agrees_with_brute_force():
    for seed in (3, 8):
        roll = random_roll(seed)
        solution = solve(roll)
        for digit in sorted(set(roll.number_dice)):
            assert set(on_track(str(digit), roll, solution).targets) == _finishable(roll, (digit,))


def test_on_track_errors_are_explained():
    assert on_track("(", ROLL_446).error.code == "parentheses"
    assert on_track("", ROLL_446).error.code == "empty"
    track = on_track("9", ROLL_446)
    assert not track.on_track and track.error.code == "nine_needs_six"
    assert "6" in track.message("ja")


def test_on_track_best_finish_checks():
    track = on_track("21²+", ROLL_446)
    assert track.best is not None
    result = check(track.best.formula, ROLL_446)
    assert result.target == track.best.target and result.score == track.best.score
    assert track.best.formula.startswith("21²+")


def test_on_track_answers_the_same_whatever_order_the_formulas_come_in():
    # The solver lists a target's formulas in the order its sets were filled in, which differs between server
    # processes (string hashing): "still on track?" must not change with it.
    for seed in ("track-order:1", "track-order:2", "track-order:3"):
        roll = random_roll(seed)
        solution = solve(roll)
        shuffled = solve(roll)
        rng = random.Random(seed)
        shuffled.formulas = {t: rng.sample(fs, len(fs)) for t, fs in reversed(list(solution.formulas.items()))}
        for digit in sorted(set(roll.number_dice)):
            mine, theirs = on_track(str(digit), roll, solution), on_track(str(digit), roll, shuffled)
            assert mine.best == theirs.best and mine.targets == theirs.targets
            if mine.best is not None:  # the finish shown is the preferred one of its target's with that start
                start = mine.best.faces[:1]
                finishes = [f for f in solution.formulas[mine.best.target] if f[:1] == start]
                assert preferred(finishes) == (mine.best.score, mine.best.faces)

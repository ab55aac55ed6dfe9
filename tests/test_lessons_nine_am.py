"""9am Class: exact odds by hand and with sympy.stats, simulated games within 3 standard errors, the game."""

from __future__ import annotations

import math
import random
import re
from fractions import Fraction

import pytest
import sympy
from sympy.stats import Die, E, P

from suji.lessons import nine_am
from suji.lessons.lesson import render
from suji.lessons.stats import standard_error


def test_exact_values():
    d6 = Die("D", 6)
    assert nine_am.p_awake() == Fraction(1, 2) == Fraction(str(P(d6 >= 4)))
    assert nine_am.mean_die() == Fraction(str(E(d6))) == Fraction(7, 2)
    assert nine_am.expected_change("good") == Fraction(7, 2)
    assert nine_am.expected_change("bad") == 0
    assert nine_am.expected_damage(6) == Fraction(35, 2)
    assert nine_am.p_tie_break_win(3) == Fraction(1, 3)
    assert nine_am.expected_final_grade_all_good() == 20


@pytest.mark.parametrize("n", nine_am.VARIANTS)
def test_called_with_and_without_a_break(n):
    assert nine_am.p_called(n) == Fraction(1, n)
    assert nine_am.p_called(n, 1) == Fraction(1, n - 1)
    assert nine_am.expected_damage(n) == Fraction(7 * (n - 1), 2)


def test_mean_final_grade_within_three_standard_errors():
    ties, grades = nine_am.simulate_games(400, seed=5)
    mean = sum(grades) / len(grades)
    sd = math.sqrt(sum((g - mean) ** 2 for g in grades) / (len(grades) - 1))
    assert abs(mean - 20) < 3 * sd / math.sqrt(len(grades))
    assert 0 < ties < 400


def test_professor_calls_each_desk_one_time_in_n():
    # Count calls of desk 1 in simulated games (no breaks): 12 turns per game, P(called) = 1/6 each turn.
    rng = random.Random(9)
    calls = turns = 0
    for _ in range(300):
        game = nine_am.NineAmGame(rng.getrandbits(32), use_breaks=False)
        calls += sum(1 for e in game.log if e.params.get("s") == 1 and "time" in e.params)
        turns += nine_am.TURNS
    assert abs(calls / turns - 1 / 6) < 3 * standard_error(Fraction(1, 6), turns)


def test_strategy_win_rates_are_frequencies_with_one_winner_per_game():
    n = 300
    total = sum(nine_am.simulate_wins(key, n, seed=2) for key in nine_am.STRATEGIES)
    assert 0 < total < 3 * n
    for seed in range(20):
        game = nine_am.NineAmGame(seed, strategies=("smart", "bad"))
        assert game.winner is not None and game.turn == nine_am.TURNS


def test_called_experiment_rows_converge():
    outcome = nine_am.LESSON.experiments[1].run(4000, 3, "en")
    for row in outcome.rows:
        assert abs(row.simulated - float(row.exact)) < 3 * standard_error(row.exact, 4000)


def test_human_game_break_keeps_you_from_being_called():
    for seed in range(40):
        game = nine_am.replay(seed, [])
        if game.decision() is None or game.stage != "break":
            continue
        before = len(game.log)
        game.play("break")
        called_now = [e for e in game.log[before:] if "time" in e.params and e.params.get("time") == "9:10"]
        assert all(e.params["s"] != 1 for e in called_now)
        assert game.break_used[0]
        return
    pytest.fail("no game offered a break")


def test_human_game_replays_and_refuses_bad_choices():
    rng = random.Random(4)
    game = nine_am.replay(8, [])
    moves = []
    while (decision := game.decision()) is not None:
        key = rng.choice(decision.options).key
        moves.append(key)
        game.play(key)
    assert game.winner is not None
    assert nine_am.replay(8, moves).scores == game.scores
    with pytest.raises(ValueError):
        nine_am.replay(8, ["jump"])


def test_steps_answers():
    expected = [
        Fraction(1, 2),
        Fraction(1, 6),
        Fraction(1, 5),
        Fraction(7, 2),
        Fraction(35, 2),
        Fraction(1, 3),
    ]
    assert [s.answer for s in nine_am.steps()] == expected
    assert sympy.Rational(35, 2) == 5 * sympy.Rational(7, 2)


@pytest.mark.parametrize(("n", "word"), [(1, "point"), (2, "points"), (0, "points")])
def test_log_messages_take_the_singular_for_one_point(n, word):
    game = nine_am.NineAmGame(5, strategies=("bad", "good"))  # bots only: a whole class to the end
    plural = [e for e in game.log if isinstance(e.message, tuple)]
    assert plural  # every score message is a singular/plural pair
    for event in plural:
        text = render(event.message, {**event.params, "n": n}, "en")
        assert re.search(rf"\b{n} {word}\b", text), text
        assert "点" in render(event.message, {**event.params, "n": n}, "ja")

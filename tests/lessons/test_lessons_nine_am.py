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


# ---- the bathroom break is announced before the status roll (seed: "When the player returns next turn, he rolls
# for status") ----------------------------------------------------------------------------------------------------


def test_bots_announce_breaks_before_anyone_rolls(monkeypatch):
    """A bot leaves only when it already knows it would sleep: called last turn, its kept die shows 1–3."""
    seen = []
    take_break = nine_am.NineAmGame._take_break

    def spy(game, i):
        seen.append((game.stage, game.last_called == i, game.statuses[i]))
        take_break(game, i)

    monkeypatch.setattr(nine_am.NineAmGame, "_take_break", spy)
    for seed in range(60):
        nine_am.NineAmGame(seed, strategies=("smart", "good", "bad"))
    assert seen
    for stage, called_last_turn, status in seen:
        assert stage == nine_am.START and called_last_turn and status <= 3


def _at_break_decision(seed, called_last_turn):
    """A human game stopped at the break question, in a turn where the student was (or was not) called before."""
    rng = random.Random(seed)
    game = nine_am.replay(seed, [])
    while (decision := game.decision()) is not None:
        if game.stage == nine_am.BREAK and game.turn > 1 and (game.last_called == 0) == called_last_turn:
            return game
        game.play(rng.choice([o.key for o in decision.options if o.key != nine_am.BREAK]))
    return None


def test_the_student_chooses_a_break_before_the_roll_and_rolls_on_coming_back():
    game = next(g for s in range(200) if (g := _at_break_decision(s, called_last_turn=False)) is not None)
    decision = game.decision()
    assert "before the dice are rolled" in decision.prompt and "{status}" not in decision.prompt
    assert all(game.rolls_this_turn(i) for i in range(6) if i not in game.on_break)
    # P(called while asleep) = P(called) × 1/2: the roll is still to come.
    stay = next(o for o in decision.options if o.key == nine_am.STAY)
    assert stay.params["q"] == nine_am.fraction_text(nine_am.p_called(6, len(game.on_break)) / 2)
    break_time, turn, before = game.clock(), game.turn, len(game.log)
    game.play(nine_am.BREAK)
    # Out of the room for that turn: no roll; back next turn, the student rolls for status first thing.
    rolls = [
        e.params["time"]
        for e in game.log[before:]
        if e.message == "%(time)s: your die shows %(status)s (%(state)s)."
    ]
    assert break_time not in rolls
    minutes = 9 * 60 + 10 * (turn + 1)
    assert not rolls or rolls[0] == f"{minutes // 60}:{minutes % 60:02d}"


def test_staying_the_roll_comes_after_the_choice():
    for seed in range(20):
        game = nine_am.replay(seed, [])
        if game.stage != nine_am.BREAK:
            continue
        assert not any(e.message.startswith("%(time)s: your die shows") for e in game.log)
        game.play(nine_am.STAY)
        assert game.log[0].message == "%(time)s: your die shows %(status)s (%(state)s)."
        assert game.log[0].params["status"] == game.statuses[0] or game.called == 0
        return
    pytest.fail("no game asked about a break")


def test_a_student_called_last_turn_knows_the_kept_die_when_choosing():
    game = next(g for s in range(300) if (g := _at_break_decision(s, called_last_turn=True)) is not None)
    decision = game.decision()
    assert "not rolled again" in decision.prompt and decision.params["status"] == game.statuses[0]
    assert not game.rolls_this_turn(0)
    stay = next(o for o in decision.options if o.key == nine_am.STAY)
    asleep = game.statuses[0] <= 3
    assert stay.params["q"] == (stay.params["p"] if asleep else "0")


def test_the_expected_grade_says_nobody_takes_a_break():
    grade = next(e for e in nine_am.LESSON.experiments if e.key == "grade")
    assert "nobody takes a break" in grade.title
    row = grade.run(20, 1, "en").rows[0]
    assert row.exact == 20 and "nobody takes a break" in row.label
    rules = " ".join(nine_am.LESSON.rules)
    assert "before the dice are rolled" in rules and "roll for status" in rules

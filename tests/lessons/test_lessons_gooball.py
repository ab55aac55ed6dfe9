"""Gooball: movement, bump and push odds counted by hand and with sympy.stats, simulations, the table game."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from sympy import And
from sympy.stats import Die, P, density

from suji.lessons import gooball
from suji.lessons.lesson import render
from suji.lessons.stats import standard_error
from suji.lessons.steps import fraction_text

A, B = Die("A", 12), Die("B", 12)


def test_movement_is_uniform_from_6_to_17():
    dist = gooball.movement_distribution()
    assert sorted(dist) == list(range(6, 18))
    assert set(dist.values()) == {Fraction(1, 12)}


def test_bump_odds():
    out = gooball.bump_outcomes()
    assert out["win"] == Fraction(11, 24) == Fraction(str(P(A > B)))
    assert out["tie"] == Fraction(1, 12)
    assert out["lose"] == Fraction(11, 24)
    assert gooball.p_win_against(9) == Fraction(1, 4)


def test_push_distribution():
    push = gooball.push_distribution()
    assert sum(push.values()) == 1
    assert push[0] == Fraction(1, 12)
    for k in range(1, 12):
        assert push[k] == Fraction(2 * (12 - k), 144)


@pytest.mark.parametrize("d", range(0, 20))
def test_reach_the_centre(d):
    expected = Fraction(min(12, max(0, 18 - d)), 12) if d > 6 else Fraction(1)
    assert gooball.p_reach(d) == expected
    assert gooball.p_reach(10) == Fraction(2, 3)


def test_expected_turns_alone():
    # By hand: 14 sure turns after the first point; the first takes 1 + 21/144 on average.
    assert gooball.expected_turns_alone("careful") == 15 + Fraction(21, 144) == Fraction(727, 48)
    full = gooball.expected_turns_alone("full")
    assert full > gooball.expected_turns_alone("careful")


@pytest.mark.parametrize("strategy", ["careful", "full"])
def test_simulated_turns_within_three_standard_errors(strategy):
    sims = gooball.simulate_turns_alone(strategy, 3000, seed=1)
    mean = sum(sims) / len(sims)
    sd = math.sqrt(sum((t - mean) ** 2 for t in sims) / (len(sims) - 1))
    assert (
        abs(mean - float(gooball.expected_turns_alone(strategy)))
        < 3 * max(sd, 1e-9) / math.sqrt(len(sims)) + 1e-9
    )


def test_bump_simulation_within_three_standard_errors():
    n = 20_000
    outcome = gooball.LESSON.experiments[2].run(n, 5, "en")
    for row in outcome.rows:
        assert abs(row.simulated - float(row.exact)) < 3 * standard_error(row.exact, n)


def test_table_game_reaches_fifteen_points_and_replays():
    rng = random.Random(2)
    game = gooball.replay(6, [])
    moves = []
    while (decision := game.decision()) is not None:
        key = rng.choice(decision.options).key
        moves.append(key)
        game.play(key)
    assert game.winner is not None
    assert game.balls[game.winner].points >= gooball.GOAL
    again = gooball.replay(6, moves)
    assert [b.points for b in again.balls] == [b.points for b in game.balls]
    with pytest.raises(ValueError):
        gooball.replay(6, ["bump-9"])


def test_a_bump_pushes_the_weaker_gooball_by_the_difference():
    game = gooball.GooballGame(1, players=3)
    a, b = game.balls[0], game.balls[1]
    a.pos, b.pos, a.power, b.power = complex(-5, 0), complex(5, 0), 9, 4
    game._bump(0, 1, complex(1, 0))
    assert b.pos == complex(10, 0) and a.pos == complex(-5, 0)
    a.power = b.power = 4
    game._bump(0, 1, complex(1, 0))  # tie: our rule, nobody moves
    assert b.pos == complex(10, 0)


# ---- one roll sets both the distance and the power: "reach and win" is counted, not multiplied ----------------


@pytest.mark.parametrize("e", [0.5, 3.4, 6.6, 7.9, 9.0, 11.2, 14.5, 17.0, 18.2])
@pytest.mark.parametrize("q", [1, 4, 7, 9, 12])
def test_reach_and_win_is_one_roll_counted_against_sympy(e, q):
    both = gooball.p_reach_and_win(e, q)
    assert both == Fraction(str(P(And(A + 5 >= math.ceil(e), A > q))))
    assert both <= min(gooball.p_reach(e), gooball.p_win_against(q))


def test_reach_and_win_is_not_the_product():
    # The review's case: 6.6 inches to a gooball showing 7. Rolls 2..12 reach, 8..12 win: both hold for 8..12.
    assert gooball.p_reach(6.6) == Fraction(11, 12) and gooball.p_win_against(7) == Fraction(5, 12)
    assert gooball.p_reach_and_win(6.6, 7) == Fraction(5, 12) != Fraction(55, 144)


def test_the_decision_shows_the_counted_both_odds():
    game = gooball.replay(4, ["centre"])
    options = {o.key: o for o in game.decision().options}
    bump = options["bump-1"]
    assert (bump.params["p"], bump.params["w"], bump.params["b"]) == ("11/12", "5/12", "5/12")
    me = game.balls[0]
    for key, option in options.items():
        if key.startswith("bump-"):
            ball = game.balls[int(key[5:])]
            e = abs(ball.pos - me.pos) - 2 * gooball.RADIUS
            assert option.params["b"] == fraction_text(gooball.p_reach_and_win(e, ball.power))


@pytest.mark.parametrize("d", range(0, 20))
def test_reach_matches_sympy(d):
    assert gooball.p_reach(d) == Fraction(str(P(A + 5 >= d)))


def test_push_matches_sympy():
    dens = density(abs(A - B))
    assert gooball.push_distribution() == {k: Fraction(str(dens[k])) for k in range(12)}


def test_log_uses_singular_and_plural():
    game = gooball.GooballGame(1, players=3)
    a, b = game.balls[0], game.balls[1]
    a.pos, b.pos, a.power, b.power, b.points = complex(-5, 0), complex(5, 0), 5, 4, 0
    game._bump(0, 1, complex(1, 0))  # pushed 1 inch
    game._score(1, complex(-3, 0), complex(3, 0))  # first point
    texts = [render(e.message, e.params, "en") for e in game.log[-2:]]
    assert texts == [
        "Bump! 5 against 4: gooball 2 is pushed 1 inch.",
        "Gooball 2 passes over the centre and now has 1 point.",
    ]
    game._score(1, complex(3, 0), complex(-3, 0))
    assert render(game.log[-1].message, game.log[-1].params, "en").endswith("now has 2 points.")
    assert "1インチ" in render(game.log[-3].message, game.log[-3].params, "ja")

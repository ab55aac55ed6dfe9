"""Dice Monsters: beat and skill odds against sympy.stats, who starts (exact), the seed's example, matches."""

from __future__ import annotations

import random
import re
from fractions import Fraction

import pytest
from sympy import Eq, Ne
from sympy.stats import Die, P

from suji.lessons import dice_monsters as dm
from suji.lessons.lesson import render
from suji.lessons.stats import standard_error


@pytest.mark.parametrize("x", [2, 3, 4, 6, 8, 10, 12, 20])
@pytest.mark.parametrize("y", [2, 5, 6, 12, 20])
def test_at_least_matches_sympy(x, y):
    assert dm.p_at_least(x, y) == Fraction(str(P(Die("X", x) >= Die("Y", y))))


def test_at_least_hand_values():
    assert dm.p_at_least(6, 6) == Fraction(7, 12)
    assert dm.p_at_least(4, 8) == Fraction(5, 16)
    assert dm.p_at_least(20, 6) == Fraction(7, 8)
    table = dm.beat_table(tuple(range(2, 21)))
    assert len(table) == 19 and all(len(row) == 19 for row in table)
    for i in range(19):
        for j in range(19):
            # P(X ≥ Y) + P(Y ≥ X) = 1 + P(X = Y) = 1 + 1/max(x, y)
            assert table[i][j] + table[j][i] == 1 + Fraction(1, max(i + 2, j + 2))


def test_skill_attack_odds():
    x, y, z = Die("X", 4), Die("Y", 4), Die("Z", 6)
    assert dm.p_skill_exists((4, 4), 6) == Fraction(13, 96) == Fraction(str(P(Eq(x + y, z))))
    assert dm.p_skill_exists((4, 4), 8) == Fraction(1, 8)  # every sum 2..8 hits exactly one face of the d8


def test_who_starts():
    assert dm.p_starts((4,), (6,)) == (Fraction(7, 10), Fraction(3, 10))
    torchy, drippy = dm.MONSTERS["torchy"], dm.MONSTERS["drippy"]
    assert dm.p_starts(torchy, torchy) == (Fraction(1, 2), Fraction(1, 2))
    a, b = dm.p_starts(torchy, drippy)
    assert a + b == 1
    assert dm.p_starts(drippy, torchy) == (b, a)
    rng = random.Random(4)
    n = 20_000
    hits = sum(dm._first_mover(rng, torchy, drippy) == 0 for _ in range(n))
    assert abs(hits / n - float(a)) < 3 * standard_error(a, n)


def test_seed_example_attacks():
    # Sarah 2 2 6 9 13 against Bill 2 4 5 13 18 (sizes do not matter for the attacks).
    sarah = dm.Side([20] * 5, [2, 2, 6, 9, 13])
    bill = dm.Side([20] * 5, [2, 4, 5, 13, 18])
    attacks = dm.legal_attacks(sarah, bill)
    on_13 = {tuple(sarah.values[i] for i in a.using) for a in attacks if bill.values[a.target] == 13}
    assert (13,) in on_13 and (2, 2, 9) in on_13
    assert not [a for a in attacks if bill.values[a.target] == 18]
    assert sorted(sarah.values) < sorted(bill.values)  # Sarah starts: the 2s cancel, then 2 < 4


@pytest.mark.parametrize(
    ("text", "code"),
    [("4 6 8", "too_few"), ("4 4 4 4 4 4 4", "too_many"), ("20 20 10 2", "too_many_sides"), ("1 4 6 "
        "8", "bad_size"),
     ("21 4 4 4", "bad_size"), ("four", "not_numbers"), ("", "not_numbers")],
)  # fmt: skip
def test_designer_limits(text, code):
    with pytest.raises(dm.DesignError) as err:
        dm.design(text)
    assert err.value.code == code


def test_designer_accepts_the_samples_and_full_width():
    for dice in dm.MONSTERS.values():
        assert dm.design(" ".join(map(str, dice))) == tuple(sorted(dice))
    assert dm.design("２０，１０、８ ２") == (2, 8, 10, 20)


def test_stored_matches_have_ten_thousand_games_and_agree_with_a_fresh_run():
    stored = dm.precomputed_matches()
    assert set(stored) == {f"{x}-{y}" for x, y in dm.MATCHES}
    assert all(item["n"] >= 10_000 for item in stored.values())
    n = 300
    item = stored["torchy-drippy"]
    p = item["wins"] / item["n"]
    wins = dm.simulate_match(dm.MONSTERS["torchy"], dm.MONSTERS["drippy"], n, seed=99)
    assert abs(wins / n - p) < 3 * standard_error(p, n)


def test_human_game_replays_and_refuses_illegal_attacks():
    rng = random.Random(3)
    game = dm.replay(5, dm.MONSTERS["gusty"], dm.MONSTERS["stoney"], [])
    moves = []
    while (decision := game.decision()) is not None:
        key = rng.choice(decision.options).key
        moves.append(key)
        game.play(key)
    assert game.winner is not None and max(game.wins) == 3
    assert dm.replay(5, dm.MONSTERS["gusty"], dm.MONSTERS["stoney"], moves).wins == game.wins
    with pytest.raises(ValueError):
        dm.replay(5, dm.MONSTERS["gusty"], dm.MONSTERS["stoney"], ["0t99"])


def test_who_starts_tiny_monsters_against_sympy():
    # d4 against d6, equal dice roll again: P(X < Y | X ≠ Y).
    x, y = Die("X", 4), Die("Y", 6)
    assert dm.p_starts((4,), (6,))[0] == Fraction(7, 10) == Fraction(str(P(x < y, Ne(x, y))))


def test_who_starts_default_run_covers_the_exact_values():
    # The first view (default N and seed): every interval contains the exact value, and N is at least 10,000.
    experiment = next(e for e in dm.LESSON.experiments if e.key == "start")
    assert experiment.default_trials >= 10_000
    outcome = experiment.run(experiment.default_trials, experiment.default_seed, "en")
    for row in outcome.rows:
        low, high = row.interval
        assert low <= float(row.exact) <= high
        assert abs(row.simulated - float(row.exact)) < 3 * standard_error(row.exact, outcome.n)


@pytest.mark.parametrize(("score2", "text"), [(106, "53"), (107, "53.5"), (0, "0"), (1, "0.5")])
def test_round_points_are_written_plainly(score2, text):
    assert dm.half_points_text(score2) == text


def test_the_log_says_you_and_the_bot():
    game = dm.replay(3, dm.MONSTERS["gusty"], dm.MONSTERS["stoney"], [])
    while (decision := game.decision()) is not None:
        game.play(decision.options[0].key)
    texts = [render(e.message, e.params, "en") for e in game.log]
    assert not any("Monster" in t or "monster" in t for t in texts)
    assert any(t.startswith(("You ", "Your ")) for t in texts) and any(t.startswith("The bot") for t in texts)
    assert any(t.startswith("Round over. Points: you ") for t in texts)
    assert not any(re.search(r"\d\.0\b", t) for t in texts)  # 53, not 53.0
    ja = [render(e.message, e.params, "ja") for e in game.log]
    assert any("あなた" in t for t in ja) and any("コンピューター" in t for t in ja)

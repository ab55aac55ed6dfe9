"""Silence in Class!: 3d6 odds against sympy.stats, simulations within 3 standard errors, the game."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
import sympy
from sympy.stats import Bernoulli, Die, P, density, std

from suji.lessons import silence
from suji.lessons.stats import standard_error
from suji.lessons.steps import check_answer

X, Y, Z = Die("X", 6), Die("Y", 6), Die("Z", 6)


def _f(value) -> Fraction:
    return Fraction(int(sympy.fraction(value)[0]), int(sympy.fraction(value)[1]))


def test_distribution_matches_sympy():
    dens = density(X + Y + Z)
    assert silence.distribution() == {t: _f(dens[t]) for t in range(3, 19)}
    assert silence.distribution()[10] == Fraction(1, 8)


@pytest.mark.parametrize("r", range(3, 19))
def test_p_success_matches_sympy(r):
    assert silence.p_success(r) == _f(P(X + Y + Z >= r))


def test_key_values():
    assert silence.p_success(11) == Fraction(1, 2)  # the totals are symmetric around 10.5
    assert silence.p_success(12) == Fraction(3, 8)
    assert silence.p_success(10) == Fraction(5, 8)
    assert silence.expected_risk(11, 12) == 22 * Fraction(5, 8) == Fraction(55, 4)
    assert silence.threshold() == 10
    assert silence.risk_pays(11) == 0 and silence.risk_pays(10) == 1 and silence.risk_pays(12) == -1
    assert silence.risk_variance(5, 11) == 25  # (2m)² p (1 − p) = 100 / 4


@pytest.mark.parametrize("m", [1, 7, 11])
def test_risking_pays_exactly_below_eleven(m):
    for r in range(3, 19):
        assert (silence.expected_risk(m, r) < m) == (r <= 10)


def test_simulated_frequencies_within_three_standard_errors():
    n = 20_000
    counts = silence.simulate_totals(n, seed=7)
    for r in (6, 10, 11, 12, 15):
        hits = sum(c for t, c in counts.items() if t >= r)
        p = silence.p_success(r)
        assert abs(hits / n - float(p)) < 3 * standard_error(p, n)


def test_simulated_risk_mean_within_three_standard_errors():
    n, m, r = 20_000, 11, 12
    sims = silence.simulate_risk(m, r, n, seed=3)
    sd = math.sqrt(silence.risk_variance(m, r))
    assert abs(sum(sims) / n - float(silence.expected_risk(m, r))) < 3 * sd / math.sqrt(n)


def test_steps_have_the_exact_answers():
    answers = {s.key: s.answer for s in silence.steps()}
    assert answers["cheating"] == Fraction(81, 216)
    assert answers["even"] == 11 and answers["threshold"] == 10 and answers["spread"] == 5
    assert 4 <= len(answers) <= 6
    for step in silence.steps():
        assert check_answer(step, str(step.answer), "en").result == "correct"


def test_game_plays_to_the_end_and_replays_identically():
    rng = random.Random(1)
    game = silence.SilenceGame(11)
    choices = []
    while (decision := game.decision()) is not None:
        key = rng.choice(decision.options).key
        choices.append(key)
        game.play(key)
    assert game.over and game.winners
    again = silence.replay(11, choices)
    assert again.minus == game.minus and again.marker == game.marker
    with pytest.raises(ValueError):
        silence.replay(11, ["9-take"])


def test_every_card_but_cheating_is_an_example():
    assert [c for c in silence.PUPIL_CARDS if not c.example] == [silence.CHEATING]
    assert (silence.CHEATING.patience, silence.CHEATING.minus, silence.CHEATING.risk) == (9, 11, 12)


# ---- the seed's lucky teacher cards, the spread of each choice, the board's end -------------------------------


def test_lucky_teacher_cards_are_the_seeds_and_offer_no_choice():
    lucky = {c.name for c in silence.TEACHER_CARDS if c.lucky}
    assert lucky == {"Test", "Inattentive Teacher"}
    for card in silence.TEACHER_CARDS:
        if card.lucky:
            assert (card.patience, card.minus, card.example) == (0, 0, False)
            game = silence.SilenceGame(3)
            minus, marker = list(game.minus), game.marker
            game._teacher_card(card)
            assert game.pending_teacher is None
            assert game.decision().prompt.startswith("Your turn: play a card")
            assert game.minus == minus and game.marker == marker
            assert game.log[-1].message == "The teacher is busy: no minus points for anybody this time."


def test_games_never_ask_about_a_lucky_teacher_card():
    seen_lucky = 0
    for seed in range(40):
        rng = random.Random(seed)
        game = silence.SilenceGame(seed)
        while (decision := game.decision()) is not None:
            if game.pending_teacher is not None:
                assert not game.pending_teacher.lucky
                assert game.pending_teacher.name in decision.params["card"]
            game.play(rng.choice(decision.options).key)
        seen_lucky += any(e.message.startswith("The teacher is busy") for e in game.log)
        assert game.marker <= silence.BOARD_END  # the marker display stops at the end
    assert seen_lucky > 0


def _sympy(value) -> sympy.Expr:
    """A suji.rules.exact Value as a SymPy number (the lesson itself never calls SymPy)."""
    return sum((sympy.Rational(c.numerator, c.denominator) * sympy.sqrt(r) for r, c in value), sympy.Integer(0))


def test_spread_of_risking_matches_sympy_stats():
    for card in silence.PUPIL_CARDS:
        m, p = card.minus, silence.p_success(card.risk)
        fail = Bernoulli("F", sympy.Rational(1 - p))
        sd = _sympy(silence.risk_sd(m, card.risk))
        assert sympy.simplify(sd - std(2 * m * fail)) == 0
        assert sympy.simplify(sd - 2 * m * sympy.sqrt(sympy.Rational(p * (1 - p)))) == 0
    assert _sympy(silence.risk_sd(11, 12)) == 11 * sympy.sqrt(15) / 4


@pytest.mark.parametrize("r", range(3, 19))
def test_every_spread_the_table_can_show_is_sympys_printed_for_pupils(r):
    """The card table's spread for any m and r: SymPy's exact root in the pupil's spelling, and its rounding."""
    from suji.lessons.silence.lesson import spread_text

    for m in range(1, 21):
        exact = sympy.sqrt(sympy.Rational(silence.risk_variance(m, r)))
        sympy_text = str(exact).replace("sqrt(", "√").replace(")", "").replace("*", "")  # the old printer
        text = spread_text(m, r)
        if exact.is_Integer:
            assert text == sympy_text
        else:
            assert text == f"{sympy_text} ≈ {float(exact.evalf(30)):.2f}"
    assert spread_text(11, 12) == "11√15/4 ≈ 10.65"
    assert spread_text(5, 11) == "5"


def test_rules_say_each_player_chooses_for_a_teacher_card():
    """The seed: a teacher card hits everybody, "unless each player individually chooses to make a risk roll"."""
    rules = " ".join(silence.LESSON.rules)
    assert "the same way" not in rules and "each player chooses for themselves" in rules
    # The game agrees: every player settles the card their own way (the bot that takes, the one that risks).
    game = silence.SilenceGame(3, bots=("risk", "take"))
    before = len(game.log)
    game._teacher_choices(silence.TEACHER_CARDS[0], student_choice=silence.TAKE)
    settled = [e for e in game.log[before:] if "player" in e.params]
    assert [e.message.split(" ")[2] for e in settled[:3]] == ["takes", "risks", "takes"]

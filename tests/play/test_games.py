"""The game rules of suji.play.games: costs and their floor at 0, re-rolls and set faces, turn order, ties, the daily
puzzle's seeds and names."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import date

import pytest

from suji.core.nicknames import NicknameError, clean_nickname
from suji.play import games
from suji.play.games import GameError, Hand
from suji.rules.dice import (
    NUMBER_DICE_FACES,
    NUMBER_KINDS,
    OPERATOR_DICE_FACES,
    OPERATOR_KINDS,
    target_numbers,
)
from suji.solver.search import solve

# Target dice 4 4 6 (446, 449, …) with the seed's example dice: 21²+4+1 = 446 scores (1+1+4) × 4 = 24.
SEED_HAND = Hand(target_dice=(4, 4, 6), number_dice=(2, 1, 4, 1, 5), operator_dice=("+", "+", "−", "²"))


def test_answer_scores_the_seed_example_without_costs():
    hand, result = games.answer(SEED_HAND, "21²+4+1")
    assert result.target == 446
    assert (hand.status, hand.points, hand.score) == (games.ANSWERED, 24, 24)
    assert (
        hand.best_points >= 24 and hand.best_score == hand.best_points
    )  # no costs: best after costs is the same


def test_reroll_costs_one_point_a_die_and_set_face_five():
    hand = games.reroll(SEED_HAND, ["n4", "o2", "n3"], random.Random(1))
    assert (hand.rerolled, hand.rerolls_made, hand.cost) == (3, 1, 3)
    hand = games.set_face(hand, "n0", 2 if hand.number_dice[0] != 2 else 1)
    assert (hand.set_faces, hand.cost) == (1, 8)


def test_costs_come_off_the_score_as_in_the_seed_example():
    # The seed: three dice re-rolled, 24 points → 21.
    hand, _ = games.answer(replace(SEED_HAND, rerolled=3), "21²+4+1")
    assert (hand.points, hand.cost, hand.score) == (24, 3, 21)


def test_score_never_goes_below_zero():
    hand = SEED_HAND
    for face in (3, 4, 5, 6, 1, 2):  # six set faces (30 points of costs), and the die is back at 2
        hand = games.set_face(hand, "n0", face)
    assert hand.number_dice == SEED_HAND.number_dice
    hand, result = games.answer(hand, "21²+4+1")
    assert result.target == 446 and hand.points == 24
    assert hand.cost == 30 and hand.score == 0 and hand.best_score == max(0, hand.best_points - 30)


def test_a_wrong_value_is_a_final_answer_worth_zero_and_a_bad_formula_is_handed_back():
    hand, result = games.answer(SEED_HAND, "2+1")
    assert result.valid and result.target is None
    assert (hand.status, hand.score) == (games.ANSWERED, 0)
    with pytest.raises(GameError) as bad:
        games.answer(SEED_HAND, "9×9")  # no 9 nor × among the dice
    assert bad.value.code == "invalid_formula"
    assert (
        bad.value.message("en")
        == "That formula cannot be used: A 9 needs a die showing 6 (turned upside down)."
    )
    with pytest.raises(GameError) as empty:
        games.answer(SEED_HAND, "   ")
    assert empty.value.code == "empty_formula"


def test_give_up_scores_zero_but_shows_the_best():
    hand = games.give_up(SEED_HAND)
    best = solve(SEED_HAND.roll).top
    assert hand.status == games.GAVE_UP and hand.score == 0
    assert hand.best_points == best.score and hand.best_formula == best.formula


def test_a_closed_hand_accepts_no_more_moves():
    closed = games.give_up(SEED_HAND)
    for move in (
        lambda: games.reroll(closed, ["n0"], random.Random()),
        lambda: games.set_face(closed, "n0", 3),
        lambda: games.answer(closed, "21²+4+1"),
        lambda: games.give_up(closed),
    ):
        with pytest.raises(GameError) as error:
            move()
        assert error.value.code == "finished"


@pytest.mark.parametrize("die", ["n5", "o4", "x1", "n", "n-1", "0", "", "n01", "<script>", None, 3])
def test_forged_die_ids_are_refused(die):
    with pytest.raises(GameError) as error:
        games.reroll(SEED_HAND, [die], random.Random())
    assert error.value.code == "no_such_die"
    assert error.value.message("en") == "There is no such die."


def test_reroll_needs_distinct_dice():
    with pytest.raises(GameError, match="no_dice_chosen"):
        games.reroll(SEED_HAND, [], random.Random())
    with pytest.raises(GameError, match="same_die_twice"):
        games.reroll(SEED_HAND, ["n1", "n1"], random.Random())


def test_reroll_changes_only_the_chosen_dice_and_uses_each_dies_own_faces():
    rng = random.Random(7)
    hand = SEED_HAND
    for _ in range(200):
        new = games.reroll(hand, ["n2", "o3"], rng)
        assert new.number_dice[:2] == hand.number_dice[:2] and new.number_dice[3:] == hand.number_dice[3:]
        assert new.operator_dice[:3] == hand.operator_dice[:3]
        assert new.number_dice[2] in NUMBER_DICE_FACES[NUMBER_KINDS[2]]  # a B die: 1 2 3 6 7 8
        assert new.operator_dice[3] in OPERATOR_DICE_FACES[OPERATOR_KINDS[3]]  # the B operator die
        hand = new


def test_set_face_only_to_a_face_of_that_die_and_not_the_same():
    with pytest.raises(GameError, match="bad_face"):
        games.set_face(SEED_HAND, "n4", 6)  # the C die has 1 2 3 4 5 8
    with pytest.raises(GameError, match="bad_face"):
        games.set_face(SEED_HAND, "o0", "²")  # ² is on the B operator die only
    with pytest.raises(GameError, match="bad_face"):
        games.set_face(SEED_HAND, "n0", "x")
    with pytest.raises(GameError, match="same_face"):
        games.set_face(SEED_HAND, "n0", 2)
    assert games.set_face(SEED_HAND, "o3", "sqrt").operator_dice[3] == "√"


def test_new_hand_rolls_every_die_of_its_kind():
    hand = games.new_hand(random.Random(3))
    assert len(hand.target_dice) == 3 and len(hand.number_dice) == 5 and len(hand.operator_dice) == 4
    assert hand.roll.targets == target_numbers(hand.target_dice)
    assert (hand.status, hand.cost, hand.score) == (games.OPEN, 0, 0)


def test_totals_and_best_totals():
    a = games.answer(SEED_HAND, "21²+4+1")[0]
    b = games.give_up(SEED_HAND)
    assert games.total([a, b]) == 24
    assert games.best_total([a, b, SEED_HAND]) == 2 * a.best_score  # the open hand does not count yet


def test_pass_and_play_turn_order():
    assert games.turn_order(3, 2) == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]
    assert games.next_turn(3, 2, (0, 2)) == (1, 0)
    assert games.next_turn(3, 2, (1, 1)) == (1, 2)
    assert games.next_turn(3, 2, (1, 2)) is None
    assert games.next_turn(2, 1, (0, 0)) == (0, 1)


def test_a_match_moves_turn_by_turn_and_finishes_after_the_last_answer():
    answered = games.answer(SEED_HAND, "21²+4+1")[0]
    given_up = games.give_up(SEED_HAND)
    match = games.Match(players=2, rounds=2)
    with pytest.raises(GameError) as error:
        match.answered(SEED_HAND)  # an open hand is not an answer yet
    assert error.value.code == "not_answered"
    seen = [match.turn]
    new_rounds = []
    for hand in (answered, given_up, answered, given_up):
        match = match.answered(hand)
        if match.finished:
            break
        match, new_round = match.advanced()
        seen.append(match.turn)
        new_rounds.append(new_round)
    assert seen == games.turn_order(2, 2) and new_rounds == [False, True, False]
    assert match.finished and (match.total, match.best_total) == (
        48,
        2 * answered.best_score + 2 * given_up.best_score,
    )
    with pytest.raises(GameError) as error:
        match.advanced()
    assert error.value.code == "game_over"


def test_score_table_counts_answered_hands_per_seat_and_names_the_winners():
    answered = games.answer(SEED_HAND, "21²+4+1")[0]
    rounds = [("4 4 6", {0: answered, 1: games.give_up(SEED_HAND)}), ("4 4 6", {0: SEED_HAND})]
    table = games.score_table(["Aki", "Ben"], rounds)
    assert table.totals == (24, 0) and table.winner_names == ["Aki"]
    assert [row.number for row in table.rows] == [1, 2] and table.rows[1].cells == (SEED_HAND, None)
    tie = games.score_table(["Aki", "Ben"], [("4 4 6", {0: answered, 1: answered})])
    assert tie.winners == (0, 1) and tie.winner_names == ["Aki", "Ben"]


def test_winners_and_ties():
    assert games.winners({"Aki": 30, "Ben": 12}) == ["Aki"]
    assert games.winners({"Aki": 30, "Ben": 30, "Chie": 5}) == ["Aki", "Ben"]
    assert games.winners([0, 0]) == [0, 1]
    assert games.winners([4, 9, 9]) == [1, 2]
    assert games.winners([]) == []


def test_daily_roll_comes_from_the_date_alone():
    day = date(2025, 3, 14)
    assert games.daily_hand(day) == games.daily_hand(date(2025, 3, 14))
    days = {games.daily_hand(date(2025, 3, d)).roll for d in range(1, 29)}
    assert len(days) > 20  # different days, different puzzles


def test_daily_rerolls_are_seeded_by_date_choice_and_count():
    day = date(2025, 3, 14)
    hand = games.daily_hand(day)
    first = games.daily_reroll(hand, day, ["o1", "n0"])
    again = games.daily_reroll(hand, day, ["n0", "o1"])  # the same choice in another order
    assert first == again
    second = games.daily_reroll(first, day, ["n0", "o1"])
    assert second.rerolls_made == 2
    rolls = {
        games.daily_reroll(hand, date(2025, 3, d), ["n0", "n1", "n2", "o0", "o1"]).roll for d in range(1, 29)
    }
    assert len(rolls) > 20  # the date is part of the seed


@pytest.mark.parametrize(
    ("name", "clean"),
    [("たろう", "たろう"), ("  Ann  Lee ", "Ann Lee"), ("ユウキ_2", "ユウキ_2"), ("山田\u3000花子", "山田 花子"),
     ("a-b", "a-b"), ("x" * 20, "x" * 20), ("ＡＢＣ１２", "ＡＢＣ１２"), ("ゆうきー", "ゆうきー")],
)  # fmt: skip
def test_good_nicknames(name, clean):
    assert clean_nickname(name) == clean


@pytest.mark.parametrize(
    ("name", "code"),
    [("", "nickname_length"), ("   ", "nickname_length"), ("x" * 21, "nickname_length"),
     ("<b>hi</b>", "nickname_chars"), ("a&b", "nickname_chars"), ("a\x00b", "nickname_chars"),
     ("😀", "nickname_chars"), ("a.b", "nickname_chars"), ('"x"', "nickname_chars"), (None, "nickname_length"),
     ("\u3164\u3164\u3164", "nickname_chars"), ("a\u115fb", "nickname_chars")],
)  # fmt: skip
def test_bad_nicknames(name, code):
    with pytest.raises(NicknameError) as error:
        clean_nickname(name)
    assert error.value.code == code


def test_players_of_a_pass_and_play_game():
    assert games.clean_players(["Aki", "", " Ben "]) == ["Aki", "Ben"]
    with pytest.raises(GameError, match="players_count"):
        games.clean_players(["Aki"])
    with pytest.raises(GameError, match="players_count"):
        games.clean_players([f"P{i}" for i in range(7)])
    with pytest.raises(GameError, match="same_name"):
        games.clean_players(["Aki", "aki"])


def test_counts_from_forms():
    assert games.check_count("", 1, 10, 5) == 5
    assert games.check_count("7", 1, 10) == 7
    assert games.check_count("１０", 1, 10) == 10  # full-width digits, as every reader of a number takes them
    for bad in ("0", "11", "-1", "2.5", "x", "１１", "٣"):
        with pytest.raises(GameError, match="bad_count"):
            games.check_count(bad, 1, 10)

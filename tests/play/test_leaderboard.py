"""suji.play.leaderboard: shared ranks and the marks that tell equal nicknames apart, without a database."""

from __future__ import annotations

from suji.play.leaderboard import Place, places, player_tag


def test_equal_scores_share_a_rank_and_the_next_place_counts_them():
    board = places([("a", 30, 1, "Aki"), ("b", 30, 2, "Ben"), ("c", 20, 3, "Cho"), ("d", 20, 4, None),
                    ("e", 5, 5, "Eri")])  # fmt: skip
    assert [p.rank for p in board] == [1, 1, 3, 3, 5]
    assert [p.entry for p in board] == ["a", "b", "c", "d", "e"]
    assert board[3] == Place(3, "d", None, "")


def test_only_a_name_two_players_chose_gets_their_marks():
    board = places([("a", 9, 11, "Aki"), ("b", 8, 12, "Aki"), ("c", 7, 13, "Ben"), ("d", 6, 14, None),
                    ("e", 5, 15, None)])  # fmt: skip
    assert [p.tag for p in board] == [player_tag(11), player_tag(12), "", "", ""]
    assert board[0].tag != board[1].tag


def test_a_tag_is_short_stable_and_hides_the_id():
    tag = player_tag(42)
    assert tag == player_tag(42) and tag.startswith("#") and len(tag) == 4
    assert not set(tag[1:]) & set("01IO")  # no look-alikes in the mark
    assert len({player_tag(n) for n in range(200)}) > 190


def test_an_empty_day_has_an_empty_board():
    assert places([]) == []

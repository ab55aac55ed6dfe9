"""Game pages: solo games, the daily puzzle and pass-and-play, kept in the database (suji.web.models).

    common    the blueprint, the player behind a request (a cookie), form fields, messages, the day
    moves     the one way a move changes a stored hand, and what a re-roll changed
    player    /games/: the ways to play, the nickname, deleting the history
    matches   solo and pass-and-play: the current hand, its moves, the solver's advice
    daily     the daily puzzle and its leaderboard (ranked by suji.play.leaderboard)

The rules are in suji.play.games; this package stores hands, checks who may act, and turns every bad request
into a message on the page. The server rolls every die: forms name dice by position only ("n0", "o3"), never
faces to trust. Each action form carries the hand's version ("step"); an old or repeated request no longer
matches and changes nothing, and two requests at once cannot both succeed (the rows' version counters).
"""

from __future__ import annotations

from suji.web.games import daily, matches, player  # noqa: F401  (their views join the blueprint)
from suji.web.games.common import bp, daily_zone, local_day, next_puzzle_at, today
from suji.web.games.daily import leaderboard
from suji.web.games.matches import ADVICE_SHOWN

__all__ = ["ADVICE_SHOWN", "bp", "daily_zone", "leaderboard", "local_day", "next_puzzle_at", "today"]

"""The games' front page and the player's own things: the three ways to play, the nickname, the history.

A player is anonymous (a cookie); the nickname is optional and only shown on the daily leaderboard. Deleting the
history deletes the player with every game and daily answer, and forgets the cookie.
"""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from flask_babel import lazy_gettext
from sqlalchemy import select
from werkzeug.wrappers import Response

from suji.core.nicknames import NicknameError, clean_nickname
from suji.play import games
from suji.web.extensions import db
from suji.web.games.common import PLAYER_COOKIE, bp, current_player, fail, lang
from suji.web.models import Game
from suji.web.redirects import safe_next

NICKNAME_SAVED = lazy_gettext("Your name is saved.")
HISTORY_DELETED = lazy_gettext("Your history is deleted.")
NOTHING_TO_DELETE = lazy_gettext("There is no history to delete.")


@bp.get("/")
def index() -> str:
    """The three ways to play, the player's nickname and their best and recent games."""
    player = current_player()
    best, recent = [], []
    if player is not None:
        best = db.session.scalars(
            select(Game).where(Game.player_id == player.id, Game.mode == games.SOLO, Game.status == games.FINISHED)
            .order_by(Game.total.desc(), Game.finished_at).limit(5)
        ).all()  # fmt: skip
        recent = db.session.scalars(
            select(Game)
            .where(Game.player_id == player.id)
            .order_by(Game.created_at.desc(), Game.id.desc())
            .limit(10)
        ).all()
    return render_template(
        "games/index.html", player=player, best=best, recent=recent, default_targets=games.DEFAULT_TARGETS,
        max_targets=games.MAX_TARGETS, summary=game_summary,
    )  # fmt: skip


def game_summary(game: Game) -> dict:
    """A line of history: the solo total and best, or the pass-and-play winners."""
    if game.mode == games.SOLO:
        return {"total": game.total, "best_total": game.best_total}
    table = game.score_table()
    return {"winners": table.winner_names, "top": max(table.totals, default=0)}


@bp.post("/nickname")
def nickname() -> Response:
    """Set or change the player's nickname (shown on the daily leaderboard)."""
    back = _safe_back(request.form.get("next", ""))
    try:
        name = clean_nickname(request.form.get("nickname", ""))
    except NicknameError as error:
        return fail(error.message(lang()), back)
    player = current_player(create=True)
    assert player is not None
    player.nickname = name
    db.session.commit()
    flash(str(NICKNAME_SAVED), "info")
    return redirect(back, code=303)


def _safe_back(target: object) -> str:
    """Only pages of this blueprint are places to go back to (suji.web.redirects: no other host, no control
    characters: a CR or LF in `next` broke the Location header, a 500)."""
    return safe_next(target, within=url_for("games.index"))


@bp.get("/history/delete")
def delete_confirm() -> str:
    """Ask before deleting the player's history."""
    return render_template("games/delete.html", player=current_player())


@bp.post("/history/delete")
def delete_history() -> Response:
    """Delete the player, their games, daily answers and nickname, and forget the cookie."""
    player = current_player()
    if player is None:
        flash(str(NOTHING_TO_DELETE), "info")
    else:
        db.session.delete(player)
        db.session.commit()
        flash(str(HISTORY_DELETED), "info")
    response = redirect(url_for("games.index"), code=303)
    response.delete_cookie(PLAYER_COOKIE, httponly=True, samesite="Lax")
    return response

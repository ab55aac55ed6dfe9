"""The lessons' games, replayed from a seed and the pupil's moves on every request, and the Dice Monsters
designer (a monster within the classroom limits: who starts, exactly, and simulated win rates).
"""

from __future__ import annotations

import secrets

from flask import abort, render_template, request
from flask_babel import gettext

from suji.lessons import dice_monsters
from suji.lessons.stats import MAX_SEED, TRIAL_ERRORS, TrialsError, read_seed, read_trials
from suji.web.lessons import (
    DESIGNER_GAMES,
    DESIGNER_MAX_GAMES,
    MAX_MOVE_LENGTH,
    MAX_MOVES,
    bp,
    gettext_lib,
    lesson_or_404,
)

# ---- games -------------------------------------------------------------------------------------------------


def _read_moves(text: str) -> list[str] | None:
    moves = [m for m in text.split(",") if m] if text else []
    if len(moves) > MAX_MOVES or any(len(m) > MAX_MOVE_LENGTH for m in moves):
        return None
    return moves


@bp.route("/<slug>/play", methods=["GET", "POST"])
def play(slug: str) -> tuple[str, int]:
    """Play the lesson's game against bots: the student makes the decision the lesson is about."""
    lesson = lesson_or_404(slug)
    if lesson.replay is None:
        abort(404)
    args = request.form if request.method == "POST" else request.args
    error = None
    status = 200
    try:
        seed = read_seed(args.get("seed"), default=secrets.randbelow(MAX_SEED))
    except TrialsError as err:
        seed, error, status = (
            secrets.randbelow(MAX_SEED),
            gettext_lib(TRIAL_ERRORS[err.code], limit=err.limit),
            400,
        )
    moves = _read_moves(args.get("moves", "")[: MAX_MOVES * (MAX_MOVE_LENGTH + 1)])
    if moves is None:
        moves, error, status = [], gettext("That game could not be read, so a new one has started."), 400
    try:
        game = lesson.replay(seed, moves, args)
    except ValueError:
        moves, error, status = [], gettext("That game could not be read, so a new one has started."), 400
        game = lesson.replay(seed, moves, args)
    seen = len(game.log)  # type: ignore[attr-defined]
    choice = args.get("choice") if request.method == "POST" else None
    if choice is not None:
        try:
            game.play(choice[:MAX_MOVE_LENGTH])  # type: ignore[attr-defined]
            moves.append(choice)
        except ValueError:
            error, status = gettext("That choice is not possible now. Please choose one of the buttons."), 400
    # What happened since the player's last choice; on a new game, what happened before their first (the Dice
    # Monsters bot may start, and its first capture was shown nowhere but the closed log).
    new_events = game.log[seen:] if choice else (game.log if not moves else [])  # type: ignore[attr-defined]
    html = render_template(
        f"lessons/play_{slug.replace('-', '_')}.html", lesson=lesson, game=game, seed=seed,
        moves=",".join(moves), decision=game.decision(), new_events=new_events,
        error=error, args=args, monsters=dice_monsters.MONSTERS, monster_names=dice_monsters.MONSTER_NAMES,
    )  # fmt: skip
    return html, status


# ---- the Dice Monsters designer ----------------------------------------------------------------------------


@bp.get("/dice-monsters/designer")
def designer() -> tuple[str, int]:
    """Design a monster within the classroom limits; see who starts (exact) and simulated win rates."""
    lesson = lesson_or_404("dice-monsters")
    text = request.args.get("dice", "")[:100]
    error = dice = None
    results = []
    status = 200
    try:
        # Each game of the designer's matches takes 6.6 ms (four matches): 60 keep the page under 0.5 s.
        n = read_trials(request.args.get("n"), DESIGNER_MAX_GAMES, DESIGNER_GAMES)
    except TrialsError as err:
        n, error, status = DESIGNER_GAMES, gettext_lib(TRIAL_ERRORS[err.code], limit=err.limit), 400
    if text.strip():
        try:
            dice = dice_monsters.design(text)
        except dice_monsters.DesignError as err:
            error, status = gettext_lib(dice_monsters.DESIGN_ERRORS[err.code], total=err.total), 400
    if dice is not None and error is None:
        results = dice_monsters.design_results(dice, n)
    return render_template(
        "lessons/designer.html",
        lesson=lesson,
        text=text,
        dice=dice,
        error=error,
        n=n,
        max_games=DESIGNER_MAX_GAMES,
        results=results,
        monsters=dice_monsters.MONSTERS,
        monster_names=dice_monsters.MONSTER_NAMES,
    ), status

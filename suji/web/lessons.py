"""Lesson pages: probability lessons from four dice games (and Sūji de Asobo), in Japanese and English.

Thin over suji.lessons: the library holds the games, exact values, simulations and questions; this module
reads the student's input (answers, N, seeds, moves), checks answers on the server and renders the pages.
A game in progress lives in the page itself as a seed plus the student's moves, replayed on every request.
"""

from __future__ import annotations

import secrets
from functools import lru_cache
from types import ModuleType

from flask import Blueprint, Response, abort, render_template, request, session
from flask_babel import gettext

from suji.i18n import N_
from suji.lessons import LESSON_SLUGS, dice_monsters, gooball, nine_am, silence
from suji.lessons.charts import comparison_chart
from suji.lessons.lesson import Experiment, Lesson, Outcome, render
from suji.lessons.stats import MAX_SEED, TRIAL_ERRORS, TrialsError, read_seed, read_trials
from suji.lessons.steps import Step, check_answer, decimal_text, fraction_text, percent_text, shown
from suji.web.i18n import select_locale

bp = Blueprint("lessons", __name__, url_prefix="/lessons")

MAX_MOVES = 400
MAX_MOVE_LENGTH = 24
MAX_ANSWER_FIELD = 200
DESIGNER_GAMES, DESIGNER_MAX_GAMES = 40, 60
PROGRESS_KEY = "lessons_done"
EXACT = N_("exact")
SIMULATED = N_("simulated ({n} trials)")


def _modules() -> dict[str, ModuleType]:
    modules: dict[str, ModuleType] = {m.LESSON.slug: m for m in (nine_am, dice_monsters, silence, gooball)}
    try:
        from suji.lessons import suji_stats
    except ImportError:  # the solver lesson needs suji.solver, written elsewhere
        return modules
    modules[suji_stats.LESSON.slug] = suji_stats
    return modules


def _lesson_or_404(slug: str) -> tuple[Lesson, ModuleType]:
    module = _modules().get(slug)
    if module is None:
        abort(404)
    return module.LESSON, module


def _experiment_or_404(lesson: Lesson, key: str) -> Experiment:
    for experiment in lesson.experiments:
        if experiment.key == key:
            return experiment
    abort(404)


def _lang() -> str:
    return select_locale()


@bp.app_template_global()
def lesson_text(message: str | tuple[str, str], params: dict | None = None) -> str:
    """Translate a library msgid (with its parameters) into the page's language."""
    return render(message, params or {}, _lang())


@bp.app_template_filter("fraction")
def _fraction_filter(value) -> str:  # type: ignore[no-untyped-def]
    return fraction_text(value)


@bp.app_template_filter("percent")
def _percent_filter(value) -> str:  # type: ignore[no-untyped-def]
    return percent_text(value)


@bp.app_template_filter("decimal")
def _decimal_filter(value, digits: int = 3) -> str:  # type: ignore[no-untyped-def]
    return decimal_text(value, digits)


# ---- index and lesson pages --------------------------------------------------------------------------------


@bp.get("/")
def index() -> str:
    """The list of lessons."""
    modules = _modules()
    lessons = [modules[slug].LESSON for slug in LESSON_SLUGS if slug in modules]
    return render_template(
        "lessons/index.html",
        lessons=lessons,
        missing=[s for s in LESSON_SLUGS if s not in modules],
        done=_progress(),
    )


def _progress() -> dict[str, list[str]]:
    done = session.get(PROGRESS_KEY)
    return done if isinstance(done, dict) else {}


def _mark_done(slug: str, key: str) -> None:
    done = _progress()
    keys = [k for k in done.get(slug, []) if isinstance(k, str)]
    if key not in keys:
        done[slug] = [*keys, key]
        session[PROGRESS_KEY] = done


def _render_lesson(
    lesson: Lesson,
    module: ModuleType,
    results: dict | None = None,
    answers: dict | None = None,
    status: int = 200,
) -> tuple[str, int]:
    extra = {}
    if lesson.slug == "dice-monsters":
        sizes = tuple(range(2, 21)) if request.args.get("all") == "1" else dice_monsters.STANDARD_SIZES
        extra = {
            "beat_sizes": sizes,
            "beat_table": dice_monsters.beat_table(sizes),
            "monsters": dice_monsters.MONSTERS,
            "monster_names": dice_monsters.MONSTER_NAMES,
        }
    if lesson.slug == "silence":
        extra = {
            "cards": silence.PUPIL_CARDS,
            "expected_risk": silence.expected_risk,
            "p_success": silence.p_success,
            "risk_sd": silence.risk_sd,
            "sd_text": silence.sd_text,
        }
    if lesson.slug == "suji":
        extra = {"figures": module.stored_figures(), "stored": module.stored(), "suji": module}
    html = render_template(
        "lessons/lesson.html", lesson=lesson, steps=lesson.steps(), results=results or {},
        answers=answers or {}, done=_progress().get(lesson.slug, []), **extra,
    )  # fmt: skip
    return html, status


@bp.get("/<slug>")
def lesson(slug: str) -> tuple[str, int]:
    """One lesson: rules, questions, experiments and a link to play."""
    lesson, module = _lesson_or_404(slug)
    return _render_lesson(lesson, module)


def _step_or_404(lesson: Lesson, key: str) -> Step:
    step = next((s for s in lesson.steps() if s.key == key), None)
    if step is None:
        abort(404)
    return step


@bp.post("/<slug>/step/<key>")
def answer(slug: str, key: str) -> tuple[str, int]:
    """Check one answer on the server and show the lesson again with the verdict.

    A right answer also shows the explanation; a wrong or close one shows a hint instead, so that trying again
    still means something (the student can ask for the answer with `show`).
    """
    lesson, module = _lesson_or_404(slug)
    step = _step_or_404(lesson, key)
    text = request.form.get("answer", "")[:MAX_ANSWER_FIELD]
    result = check_answer(step, text, _lang())
    if result.result == "correct":
        _mark_done(slug, key)
    return _render_lesson(lesson, module, {key: result}, {key: text})


@bp.post("/<slug>/step/<key>/show")
def show(slug: str, key: str) -> tuple[str, int]:
    """The student gives up on a step: show its explanation and exact answer (the step is not marked done)."""
    lesson, module = _lesson_or_404(slug)
    _step_or_404(lesson, key)
    text = request.form.get("answer", "")[:MAX_ANSWER_FIELD]
    return _render_lesson(lesson, module, {key: shown(_lang())}, {key: text})


# ---- experiments -------------------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _run(slug: str, key: str, n: int, seed: int, lang: str) -> Outcome:
    lesson, _ = _lesson_or_404(slug)
    return _experiment_or_404(lesson, key).run(n, seed, lang)


def _read_experiment_args(experiment: Experiment) -> tuple[int, int, str | None]:
    """(n, seed, error message) from the query string; only the value in error falls back to its default.

    N and the seed are read separately, so a bad N keeps the student's seed (and a bad seed keeps N).
    """
    errors = []
    try:
        n = read_trials(request.args.get("n"), experiment.max_trials, experiment.default_trials)
    except TrialsError as err:
        n = experiment.default_trials
        errors.append(gettext_lib(TRIAL_ERRORS[err.code], limit=err.limit))
    try:
        seed = read_seed(request.args.get("seed"))
    except TrialsError as err:
        seed = 1
        errors.append(gettext_lib(TRIAL_ERRORS[err.code], limit=err.limit))
    return n, seed, " ".join(errors) or None


def gettext_lib(message: str, **params: object) -> str:
    """Translate a library msgid for the current page."""
    return render(message, params, _lang())


@bp.get("/<slug>/experiment/<key>")
def experiment(slug: str, key: str) -> tuple[str, int]:
    """Exact values beside a seeded simulation of N trials (N and the seed chosen by the student)."""
    lesson, module = _lesson_or_404(slug)
    exp = _experiment_or_404(lesson, key)
    n, seed, error = _read_experiment_args(exp)
    outcome = _run(slug, key, n, seed, _lang())
    extra = {}
    if slug == "dice-monsters" and key == "matches":
        extra["precomputed"] = _precomputed_rows()
    html = render_template(
        "lessons/experiment.html",
        lesson=lesson,
        experiment=exp,
        outcome=outcome,
        n=n,
        seed=seed,
        error=error,
        max_seed=MAX_SEED,
        **extra,
    )
    return html, 400 if error else 200


def _precomputed_rows() -> list[dict]:
    from suji.lessons.stats import wilson_interval

    rows = []
    stored = dice_monsters.precomputed_matches()
    for x, y in dice_monsters.MATCHES:
        item = stored.get(f"{x}-{y}")
        if item:
            rows.append(
                {
                    "a": dice_monsters.MONSTER_NAMES[x],
                    "b": dice_monsters.MONSTER_NAMES[y],
                    "rate": item["wins"] / item["n"],
                    "n": item["n"],
                    "interval": wilson_interval(item["wins"], item["n"]),
                }
            )
    return rows


@bp.get("/<slug>/experiment/<key>/chart.svg")
def chart(slug: str, key: str) -> Response:
    """The experiment as an SVG bar chart (exact beside simulated), with its own text alternative."""
    lesson, module = _lesson_or_404(slug)
    exp = _experiment_or_404(lesson, key)
    n, seed, _ = _read_experiment_args(exp)
    svg = _chart_svg(slug, key, n, seed, _lang())
    return Response(svg, mimetype="image/svg+xml")


@lru_cache(maxsize=64)
def _chart_svg(slug: str, key: str, n: int, seed: int, lang: str) -> str:
    lesson, _ = _lesson_or_404(slug)
    exp = _experiment_or_404(lesson, key)
    outcome = _run(slug, key, n, seed, lang)
    rows = outcome.rows
    has_exact = any(r.exact is not None for r in rows)
    return comparison_chart(
        render(exp.title, {}, lang),
        [r.label_text(lang) for r in rows],
        [r.exact for r in rows] if has_exact else None,
        [r.simulated or 0.0 for r in rows] if exp.simulated else None,
        exact_label=render(exp.exact_label or EXACT, {}, lang),
        simulated_label=render(SIMULATED, {"n": n}, lang),
        x_title=render(exp.x_title, {}, lang) if exp.x_title else "",
        percent=outcome.percent,
    )  # fmt: skip


# ---- games -------------------------------------------------------------------------------------------------


def _read_moves(text: str) -> list[str] | None:
    moves = [m for m in text.split(",") if m] if text else []
    if len(moves) > MAX_MOVES or any(len(m) > MAX_MOVE_LENGTH for m in moves):
        return None
    return moves


def _new_game(slug: str, seed: int, moves: list[str], args) -> object:  # type: ignore[no-untyped-def]
    if slug == "nine-am":
        return nine_am.replay(seed, moves)
    if slug == "silence":
        return silence.replay(seed, moves)
    if slug == "gooball":
        return gooball.replay(seed, moves)
    if slug == "dice-monsters":
        mine, theirs = _monster(args.get("mine"), "torchy"), _monster(args.get("theirs"), "drippy")
        return dice_monsters.replay(seed, mine, theirs, moves)
    abort(404)


def _monster(text: object, default: str) -> tuple[int, ...]:
    """A sample monster by name or a designed one ("4 6 8 10 20"); bad text means the default monster."""
    if not isinstance(text, str) or not text:
        return dice_monsters.MONSTERS[default]
    if text in dice_monsters.MONSTERS:
        return dice_monsters.MONSTERS[text]
    try:
        return dice_monsters.design(text[:60])
    except dice_monsters.DesignError:
        return dice_monsters.MONSTERS[default]


@bp.route("/<slug>/play", methods=["GET", "POST"])
def play(slug: str) -> tuple[str, int]:
    """Play the lesson's game against bots: the student makes the decision the lesson is about."""
    lesson, module = _lesson_or_404(slug)
    if slug not in ("nine-am", "silence", "gooball", "dice-monsters"):
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
        game = _new_game(slug, seed, moves, args)
    except ValueError:
        moves, error, status = [], gettext("That game could not be read, so a new one has started."), 400
        game = _new_game(slug, seed, moves, args)
    seen = len(game.log)  # type: ignore[attr-defined]
    choice = args.get("choice") if request.method == "POST" else None
    if choice is not None:
        try:
            game.play(choice[:MAX_MOVE_LENGTH])  # type: ignore[attr-defined]
            moves.append(choice)
        except ValueError:
            error, status = gettext("That choice is not possible now. Please choose one of the buttons."), 400
    html = render_template(
        f"lessons/play_{slug.replace('-', '_')}.html", lesson=lesson, game=game, seed=seed,
        moves=",".join(moves), decision=game.decision(), new_events=game.log[seen:] if choice else [],  # type: ignore[attr-defined]
        error=error, args=args, monsters=dice_monsters.MONSTERS, monster_names=dice_monsters.MONSTER_NAMES,
    )  # fmt: skip
    return html, status


# ---- the Dice Monsters designer ----------------------------------------------------------------------------


@bp.get("/dice-monsters/designer")
def designer() -> tuple[str, int]:
    """Design a monster within the classroom limits; see who starts (exact) and simulated win rates."""
    lesson, _ = _lesson_or_404("dice-monsters")
    text = request.args.get("dice", "")[:100]
    error = dice = None
    results = []
    status = 200
    try:
        # Each game of the designer's matches takes 6.6 ms (four matches): 60 keep the page under 0.5 s.
        n = read_trials(request.args.get("n"), DESIGNER_MAX_GAMES, DESIGNER_GAMES)
    except TrialsError as err:
        n, error, status = 200, gettext_lib(TRIAL_ERRORS[err.code], limit=err.limit), 400
    if text.strip():
        try:
            dice = dice_monsters.design(text)
        except dice_monsters.DesignError as err:
            error, status = gettext_lib(dice_monsters.DESIGN_ERRORS[err.code], total=err.total), 400
    if dice is not None and error is None:
        results = _design_results(dice, n)
    return render_template(
        "lessons/designer.html",
        lesson=lesson,
        text=text,
        dice=dice,
        error=error,
        n=n,
        results=results,
        monsters=dice_monsters.MONSTERS,
        monster_names=dice_monsters.MONSTER_NAMES,
    ), status


@lru_cache(maxsize=32)
def _design_results(dice: tuple[int, ...], n: int) -> list[dict]:
    from suji.lessons.stats import wilson_interval

    rows = []
    for key, other in dice_monsters.MONSTERS.items():
        start = dice_monsters.p_starts(dice, other)[0]
        wins = dice_monsters.simulate_match(dice, other, n, 7)
        rows.append({"key": key, "start": start, "wins": wins, "n": n, "interval": wilson_interval(wins, n)})
    return rows

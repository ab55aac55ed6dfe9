"""Lesson pages: probability lessons from four dice games (and Sūji de Asobo), in Japanese and English.

Thin over suji.lessons: the library holds the games, exact values, simulations and questions; this module
reads the student's input (answers, N, seeds, moves), checks answers on the server and renders the pages.
A game in progress lives in the page itself as a seed plus the student's moves, replayed on every request.

Answers: each question's form posts one answer. The text (and whether the student asked to see the answer) is kept
in the session per lesson, and the lesson page checks every kept answer again when it is drawn, so each question
keeps its own verdict through other answers, reloads and a change of language. Without JavaScript the post is
answered with 303 to the lesson page (Back never offers to send the form again); lessons.js posts the same form
with fetch, asking for JSON, and gets back that one question drawn again.
"""

from __future__ import annotations

import secrets
from fractions import Fraction

from flask import Blueprint, Response, abort, jsonify, redirect, render_template, request, session, url_for
from flask_babel import gettext

from suji.core.caching import bounded
from suji.core.decimals import decimal_text, grouped, percent_text
from suji.core.i18n import N_
from suji.core.text import whole_number
from suji.lessons import dice_monsters, lessons
from suji.lessons.answers import MAX_ANSWER_LENGTH
from suji.lessons.charts import WIDE_HEIGHT, WIDE_WIDTH, Chart, comparison_chart, narrow_chart
from suji.lessons.lesson import Experiment, Lesson, Msg, Outcome, render
from suji.lessons.live import chunk_trials
from suji.lessons.stats import MAX_SEED, TRIAL_ERRORS, TrialsError, read_seed, read_trials
from suji.lessons.steps import CORRECT, Check, Step, check_answer, fraction_text, shown
from suji.web.errors import error_response
from suji.web.i18n import select_locale

bp = Blueprint("lessons", __name__, url_prefix="/lessons")

MAX_MOVES = 400
MAX_MOVE_LENGTH = 24
MAX_ANSWER_FIELD = 200
DESIGNER_GAMES, DESIGNER_MAX_GAMES = 40, 60
PROGRESS_KEY = "lessons_done"
ANSWERS_KEY = "lesson_answers"  # slug -> {step key: [answer text, shown]}; see _stored_answers
# The session is a signed cookie (4 KB at most, shared with the drills): when the kept answers of all lessons
# grow past this many characters, the other lessons' answers go first. Answers are short ("3/8"), so in
# practice every lesson keeps them.
MAX_STORED_ANSWER_CHARS = 900
EXACT = N_("exact")
SIMULATED = N_("simulated (%(n)s trials)")
NARROW = "narrow"  # the chart layout for phones (see suji.lessons.charts)


def _lesson_or_404(slug: str) -> Lesson:
    lesson = lessons().get(slug)
    if lesson is None:
        abort(404)
    return lesson


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


# Every page's shares and decimals go through suji.core.decimals: rounded half up from the exact value.
@bp.app_template_filter("percent")
def _percent_filter(value, digits: int = 1) -> str:  # type: ignore[no-untyped-def]
    return percent_text(value, digits)


@bp.app_template_filter("decimal")
def _decimal_filter(value, digits: int = 3, trim: bool = True) -> str:  # type: ignore[no-untyped-def]
    """`digits` decimals; `trim` false keeps trailing zeros (a column of figures lines up)."""
    return decimal_text(value, digits, trim)


@bp.app_template_filter("grouped")
def _grouped_filter(value: int) -> str:
    return grouped(value)


# ---- index and lesson pages --------------------------------------------------------------------------------


@bp.get("/")
def index() -> str:
    """The list of lessons."""
    return render_template("lessons/index.html", lessons=list(lessons().values()), done=_progress())


def _progress() -> dict[str, list[str]]:
    done = session.get(PROGRESS_KEY)
    return done if isinstance(done, dict) else {}


def _mark_done(slug: str, key: str) -> None:
    done = _progress()
    keys = [k for k in done.get(slug, []) if isinstance(k, str)]
    if key not in keys:
        done[slug] = [*keys, key]
        session[PROGRESS_KEY] = done


def _stored_answers(slug: str) -> dict[str, tuple[str, bool]]:
    """The kept answers of one lesson: step key -> (text as typed, whether the answer was shown)."""
    stored = session.get(ANSWERS_KEY)
    lesson = stored.get(slug) if isinstance(stored, dict) else None
    if not isinstance(lesson, dict):
        return {}
    kept = {}
    for key, item in lesson.items():
        if isinstance(key, str) and isinstance(item, list) and len(item) == 2 and isinstance(item[0], str):
            kept[key] = (item[0], bool(item[1]))
    return kept


def _store_answer(slug: str, key: str, text: str, was_shown: bool) -> None:
    """Keep one answer of `slug` in the session (replacing the step's earlier one)."""
    stored = session.get(ANSWERS_KEY)
    stored = dict(stored) if isinstance(stored, dict) else {}
    lesson = {k: list(v) for k, v in _stored_answers(slug).items()}
    # One character past the limit is enough for the answer to be "too long" again when it is checked again.
    lesson[key] = [text[: MAX_ANSWER_LENGTH + 1], was_shown]
    stored.pop(slug, None)

    def size(answers: object) -> int:
        return sum(len(k) + len(v[0]) for k, v in answers.items()) if isinstance(answers, dict) else 0

    # The current lesson always stays; the largest of the others go first when the cookie would grow too big.
    others = sorted(stored, key=lambda s: size(stored[s]))
    while others and size(lesson) + sum(size(stored[s]) for s in others) > MAX_STORED_ANSWER_CHARS:
        stored.pop(others.pop())
    stored[slug] = lesson
    session[ANSWERS_KEY] = stored


def _verdicts(lesson: Lesson, steps: list[Step]) -> tuple[dict[str, Check], dict[str, str]]:
    """(verdict, text) of every kept answer of `lesson`, checked again in the page's language."""
    kept = _stored_answers(lesson.slug)
    results, answers = {}, {}
    for step in steps:
        if step.key in kept:
            text, was_shown = kept[step.key]
            results[step.key] = shown(_lang()) if was_shown else check_answer(step, text, _lang())
            answers[step.key] = text
    return results, answers


def _render_lesson(lesson: Lesson) -> str:
    extra = lesson.extras(request.args)
    steps = lesson.steps()
    results, answers = _verdicts(lesson, steps)
    return render_template(
        "lessons/lesson.html", lesson=lesson, steps=steps, results=results, answers=answers,
        done=_progress().get(lesson.slug, []), **extra,
    )  # fmt: skip


@bp.get("/<slug>")
def lesson(slug: str) -> str:
    """One lesson: rules, questions (with the answers kept so far), experiments and a link to play."""
    lesson = _lesson_or_404(slug)
    return _render_lesson(lesson)


def _step_or_404(lesson: Lesson, key: str) -> Step:
    step = next((s for s in lesson.steps() if s.key == key), None)
    if step is None:
        abort(404)
    return step


def _answered(lesson: Lesson, step: Step, text: str, result: Check) -> Response:
    """The reply to an answer post: that question drawn again as JSON (fetch), otherwise 303 to the lesson."""
    if request.accept_mimetypes.best_match(("text/html", "application/json")) == "application/json":
        html = render_template(
            "lessons/step.html", lesson=lesson, step=step, result=result, answer=text,
            done=step.key in _progress().get(lesson.slug, []),
        )  # fmt: skip
        return jsonify(result=result.result, html=html)
    # Redirect after POST: Back and reload then show the lesson page, never "confirm form resubmission".
    return redirect(url_for("lessons.lesson", slug=lesson.slug, _anchor=f"step-{step.key}"), code=303)


@bp.post("/<slug>/step/<key>")
def answer(slug: str, key: str) -> Response:
    """Check one answer on the server and keep it in the session with the lesson's other answers.

    A right answer also shows the explanation; a wrong or close one shows a hint instead, so that trying again
    still means something (the student can ask for the answer with `show`).
    """
    lesson = _lesson_or_404(slug)
    step = _step_or_404(lesson, key)
    text = request.form.get("answer", "")[:MAX_ANSWER_FIELD]
    result = check_answer(step, text, _lang())
    if result.result == CORRECT:
        _mark_done(slug, key)
    _store_answer(slug, key, text, was_shown=False)
    return _answered(lesson, step, text[: MAX_ANSWER_LENGTH + 1], result)


@bp.post("/<slug>/step/<key>/show")
def show(slug: str, key: str) -> Response:
    """The student gives up on a step: show its explanation and exact answer (the step is not marked done)."""
    lesson = _lesson_or_404(slug)
    step = _step_or_404(lesson, key)
    text = request.form.get("answer", "")[:MAX_ANSWER_FIELD]
    _store_answer(slug, key, text, was_shown=True)
    return _answered(lesson, step, text[: MAX_ANSWER_LENGTH + 1], shown(_lang()))


# ---- experiments -------------------------------------------------------------------------------------------


@bounded("lesson_run")
def _run(slug: str, key: str, n: int, seed: int, lang: str) -> Outcome:
    lesson = _lesson_or_404(slug)
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
        seed = read_seed(request.args.get("seed"), default=experiment.default_seed)
    except TrialsError as err:
        seed = experiment.default_seed
        errors.append(gettext_lib(TRIAL_ERRORS[err.code], limit=err.limit))
    return n, seed, " ".join(errors) or None


def gettext_lib(message: str, **params: object) -> str:
    """Translate a library msgid for the current page."""
    return render(message, params, _lang())


@bp.get("/<slug>/experiment/<key>")
def experiment(slug: str, key: str) -> tuple[str, int]:
    """Exact values beside a seeded simulation of N trials (N and the seed chosen by the student)."""
    lesson = _lesson_or_404(slug)
    exp = _experiment_or_404(lesson, key)
    n, seed, error = _read_experiment_args(exp)
    outcome = _run(slug, key, n, seed, _lang())
    extra = exp.extras() if exp.extras is not None else {}
    # The page gives each layout's size, so the picture keeps its place while it loads.
    narrow = _narrow_chart(slug, key, n, seed, _lang())
    html = render_template(
        "lessons/experiment.html",
        lesson=lesson,
        experiment=exp,
        outcome=outcome,
        n=n,
        seed=seed,
        error=error,
        max_seed=MAX_SEED,
        narrow=narrow,
        wide=(WIDE_WIDTH, WIDE_HEIGHT),
        live=live_settings(exp, outcome, _lang()),
        **extra,
    )
    return html, 400 if error else 200


@bp.get("/<slug>/experiment/<key>/live.json")
def live_chunk(slug: str, key: str) -> Response:
    """One chunk of a live run (suji.lessons.live): each trial's values and dice, as the page's simulation drew them.

    Bounded: one chunk is the experiment's chunk of trials, and a run has at most its `max_trials` of them.
    """
    exp = _experiment_or_404(_lesson_or_404(slug), key)
    if exp.live is None:
        abort(404)
    try:
        seed = read_seed(request.args.get("seed"))
    except TrialsError as err:
        return error_response(err.to_dict(_lang()), 400)
    chunk = whole_number(request.args.get("chunk", "0"), 0, (exp.live.max_trials - 1) // exp.live.chunk, digits=9)
    if chunk is None:
        abort(404)
    trials = chunk_trials(exp.live, seed, chunk)
    return jsonify(chunk=chunk, values=[t[0] for t in trials], dice=[t[1] for t in trials])


def _exact_text(value: Fraction | None, percent: bool) -> str | None:
    if value is None:
        return None
    return percent_text(value) if percent else decimal_text(value, 3, trim=False)


def live_settings(experiment: Experiment, outcome: Outcome, lang: str) -> dict | None:
    """What the page's live run needs, for its data attributes (None: the experiment has no live run)."""
    if experiment.live is None:
        return None
    return {
        # A reference that is not an exact value (a fair share) is drawn without the 95% band around it.
        "reference": bool(experiment.exact_label),
        "exact_label": render(experiment.exact_label or EXACT, {}, lang),
        "x_title": render(experiment.x_title, {}, lang) if experiment.x_title else "",
        "table_max": experiment.max_trials,
        "labels": [row.label_text(lang) for row in outcome.rows],
        "exact": [float(row.exact) if row.exact is not None else None for row in outcome.rows],
        # The exact values as the static table rounds them (suji.core.decimals), so the two never differ.
        "exact_text": [_exact_text(row.exact, outcome.percent) for row in outcome.rows],
        "percent": outcome.percent,
        "dice": list(experiment.live.dice),
        "dice_labels": [
            render(label, {}, lang) if isinstance(label, Msg) else label
            for label in experiment.live.dice_labels
        ],
        "chunk": experiment.live.chunk,
        "max": experiment.live.max_trials,
    }


@bp.get("/<slug>/experiment/<key>/chart.svg")
def chart(slug: str, key: str) -> Response:
    """The experiment as an SVG bar chart (exact beside simulated), with its own text alternative.

    ``layout=narrow`` gives the phone layout (one row per category, 340 px wide); anything else the wide one.
    """
    lesson = _lesson_or_404(slug)
    exp = _experiment_or_404(lesson, key)
    n, seed, _ = _read_experiment_args(exp)
    if request.args.get("layout") == NARROW:
        svg = _narrow_chart(slug, key, n, seed, _lang()).svg
    else:
        svg = _chart_svg(slug, key, n, seed, _lang())
    return Response(svg, mimetype="image/svg+xml")


def _chart_values(slug: str, key: str, n: int, seed: int, lang: str) -> tuple[tuple, dict]:
    """The arguments both chart layouts take, for one run of an experiment."""
    lesson = _lesson_or_404(slug)
    exp = _experiment_or_404(lesson, key)
    outcome = _run(slug, key, n, seed, lang)
    rows = outcome.rows
    has_exact = any(r.exact is not None for r in rows)
    args = (
        render(exp.title, {}, lang),
        [r.label_text(lang) for r in rows],
        [r.exact for r in rows] if has_exact else None,
        [r.simulated or 0.0 for r in rows] if exp.simulated else None,
    )
    options = {
        "exact_label": render(exp.exact_label or EXACT, {}, lang),
        "simulated_label": render(SIMULATED, {"n": n}, lang),
        "x_title": render(exp.x_title, {}, lang) if exp.x_title else "",
        "percent": outcome.percent,
    }
    return args, options


@bounded("lesson_chart")
def _chart_svg(slug: str, key: str, n: int, seed: int, lang: str) -> str:
    args, options = _chart_values(slug, key, n, seed, lang)
    return comparison_chart(*args, **options)


@bounded("lesson_narrow_chart")
def _narrow_chart(slug: str, key: str, n: int, seed: int, lang: str) -> Chart:
    args, options = _chart_values(slug, key, n, seed, lang)
    return narrow_chart(*args, **options)


# ---- games -------------------------------------------------------------------------------------------------


def _read_moves(text: str) -> list[str] | None:
    moves = [m for m in text.split(",") if m] if text else []
    if len(moves) > MAX_MOVES or any(len(m) > MAX_MOVE_LENGTH for m in moves):
        return None
    return moves


@bp.route("/<slug>/play", methods=["GET", "POST"])
def play(slug: str) -> tuple[str, int]:
    """Play the lesson's game against bots: the student makes the decision the lesson is about."""
    lesson = _lesson_or_404(slug)
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
    lesson = _lesson_or_404("dice-monsters")
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

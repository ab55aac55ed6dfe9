"""A lesson's experiments: the page (N and a seed read from the query), the live run's chunks and the charts,
each a pure function of (lesson, experiment, N, seed, language), kept in the bounded caches.
"""

from __future__ import annotations

from fractions import Fraction

from flask import Response, abort, jsonify, render_template, request

from suji.core.caching import bounded
from suji.core.decimals import decimal_text, percent_text
from suji.core.text import whole_number
from suji.lessons.charts import WIDE_HEIGHT, WIDE_WIDTH, Chart, comparison_chart, narrow_chart
from suji.lessons.lesson import Experiment, Message, Msg, Outcome, render
from suji.lessons.live import chunk_trials
from suji.lessons.stats import MAX_SEED, TRIAL_ERRORS, TrialsError, read_seed, read_trials
from suji.web.errors import error_response
from suji.web.lessons import (
    EXACT,
    NARROW,
    SIMULATED,
    bp,
    experiment_or_404,
    gettext_lib,
    lesson_or_404,
    page_lang,
)

# ---- experiments -------------------------------------------------------------------------------------------


@bounded("lesson_run")
def _run(slug: str, key: str, n: int, seed: int, lang: str) -> Outcome:
    lesson = lesson_or_404(slug)
    return experiment_or_404(lesson, key).run(n, seed, lang)


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


@bp.get("/<slug>/experiment/<key>")
def experiment(slug: str, key: str) -> tuple[str, int]:
    """Exact values beside a seeded simulation of N trials (N and the seed chosen by the student)."""
    lesson = lesson_or_404(slug)
    exp = experiment_or_404(lesson, key)
    n, seed, error = _read_experiment_args(exp)
    outcome = _run(slug, key, n, seed, page_lang())
    extra = exp.extras() if exp.extras is not None else {}
    # The page gives each layout's size, so the picture keeps its place while it loads.
    narrow = _narrow_chart(slug, key, n, seed, page_lang())
    html = render_template(
        "lessons/experiment.html",
        lesson=lesson,
        experiment=exp,
        outcome=outcome,
        n=n,
        seed=seed,
        error=error,
        # A value refused stays in its box (the page runs the default meanwhile), so the pupil sees what to mend.
        typed_n=request.args.get("n", str(n))[:12] if error else n,
        typed_seed=request.args.get("seed", str(seed))[:12] if error else seed,
        max_seed=MAX_SEED,
        narrow=narrow,
        wide=(WIDE_WIDTH, WIDE_HEIGHT),
        live=live_settings(exp, outcome, page_lang()),
        **extra,
    )
    return html, 400 if error else 200


@bp.get("/<slug>/experiment/<key>/live.json")
def live_chunk(slug: str, key: str) -> Response:
    """One chunk of a live run (suji.lessons.live): each trial's values and dice, as the page's simulation drew them.

    Bounded: one chunk is the experiment's chunk of trials, and a run has at most its `max_trials` of them.
    """
    exp = experiment_or_404(lesson_or_404(slug), key)
    if exp.live is None:
        abort(404)
    try:
        seed = read_seed(request.args.get("seed"))
    except TrialsError as err:
        return error_response(err.to_dict(page_lang()), 400)
    chunk = whole_number(
        request.args.get("chunk", "0"), 0, (exp.live.max_trials - 1) // exp.live.chunk, digits=9
    )
    if chunk is None:
        abort(404)
    trials = chunk_trials(exp.live, seed, chunk)
    return jsonify(chunk=chunk, values=[t[0] for t in trials], dice=[t[1] for t in trials])


def _exact_text(value: Fraction | None, percent: bool) -> str | None:
    if value is None:
        return None
    return percent_text(value) if percent else decimal_text(value, 3, trim=False)


def _case_name(message: Message, label: str, lang: str) -> str:
    """One row named by the experiment's words for it, singular or plural by a label that is a whole number."""
    return render(message, {"value": label, "n": int(label) if label.isdigit() else 2}, lang)


def live_settings(experiment: Experiment, outcome: Outcome, lang: str) -> dict | None:
    """What the page's live run needs, for its data attributes (None: the experiment has no live run)."""
    if experiment.live is None:
        return None
    return {
        # A reference that is not an exact value (a fair share) is drawn without the 95% band around it.
        "reference": bool(experiment.exact_label),
        "exact_label": render(experiment.exact_label or EXACT, {}, lang),
        "x_title": render(experiment.x_title, {}, lang) if experiment.x_title else "",
        # each row's own name when the experiment gives one ("4 inches"), else "<x_title> <label>" on the page
        "case_names": [_case_name(experiment.case_name, row.label_text(lang), lang) for row in outcome.rows]
        if experiment.case_name else [],
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
    lesson = lesson_or_404(slug)
    exp = experiment_or_404(lesson, key)
    n, seed, _ = _read_experiment_args(exp)
    if request.args.get("layout") == NARROW:
        svg = _narrow_chart(slug, key, n, seed, page_lang()).svg
    else:
        svg = _chart_svg(slug, key, n, seed, page_lang())
    return Response(svg, mimetype="image/svg+xml")


def _chart_values(slug: str, key: str, n: int, seed: int, lang: str) -> tuple[tuple, dict]:
    """The arguments both chart layouts take, for one run of an experiment."""
    lesson = lesson_or_404(slug)
    exp = experiment_or_404(lesson, key)
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

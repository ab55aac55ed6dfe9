"""Lesson pages: probability lessons from four dice games (and Sūji de Asobo), in Japanese and English.

The package: this module holds the blueprint, the limits and the helpers the pages share; `pages` the index,
the lesson pages and their answers; `experiments` the experiments, their live runs and charts; `play` the
lessons' games and the Dice Monsters designer.

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

from flask import Blueprint, abort

from suji.core.decimals import decimal_text, exact_and_decimal, grouped, percent_text
from suji.core.i18n import N_
from suji.lessons import lessons
from suji.lessons.lesson import Experiment, Lesson, render
from suji.lessons.steps import fraction_text
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


def lesson_or_404(slug: str) -> Lesson:
    lesson = lessons().get(slug)
    if lesson is None:
        abort(404)
    return lesson


def experiment_or_404(lesson: Lesson, key: str) -> Experiment:
    for experiment in lesson.experiments:
        if experiment.key == key:
            return experiment
    abort(404)


def page_lang() -> str:
    return select_locale()


@bp.app_template_global()
def lesson_text(message: str | tuple[str, str], params: dict | None = None) -> str:
    """Translate a library msgid (with its parameters) into the page's language."""
    return render(message, params or {}, page_lang())


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


@bp.app_template_filter("exact_and_decimal")
def _exact_and_decimal_filter(value) -> str:  # type: ignore[no-untyped-def]
    """905/54 ≈ 16.76, and a whole number alone."""
    return exact_and_decimal(value)


@bp.app_template_filter("grouped")
def _grouped_filter(value: int) -> str:
    return grouped(value)


def gettext_lib(message: str, **params: object) -> str:
    """Translate a library msgid for the current page."""
    return render(message, params, page_lang())


# The pages register their routes on `bp` (last, once bp and the helpers above exist).
from suji.web.lessons import experiments, pages, play  # noqa: E402, F401

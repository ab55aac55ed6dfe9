"""The lessons' index and lesson pages, and each question's answer: kept in the session, checked again on every
drawing of the page (see the package's docstring).
"""

from __future__ import annotations

from flask import Response, abort, jsonify, redirect, render_template, request, session, url_for

from suji.lessons import lessons
from suji.lessons.answers import MAX_ANSWER_LENGTH
from suji.lessons.lesson import Lesson
from suji.lessons.steps import CORRECT, Check, Step, check_answer, shown
from suji.web.furigana import annotated_fragment
from suji.web.lessons import (
    ANSWERS_KEY,
    MAX_ANSWER_FIELD,
    MAX_STORED_ANSWER_CHARS,
    PROGRESS_KEY,
    bp,
    lesson_or_404,
    page_lang,
)

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
            results[step.key] = shown(page_lang()) if was_shown else check_answer(step, text, page_lang())
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
    lesson = lesson_or_404(slug)
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
        return jsonify(result=result.result, html=annotated_fragment(html))  # the ruby the page has
    # Redirect after POST: Back and reload then show the lesson page, never "confirm form resubmission".
    return redirect(url_for("lessons.lesson", slug=lesson.slug, _anchor=f"step-{step.key}"), code=303)


@bp.post("/<slug>/step/<key>")
def answer(slug: str, key: str) -> Response:
    """Check one answer on the server and keep it in the session with the lesson's other answers.

    A right answer also shows the explanation; a wrong or close one shows a hint instead, so that trying again
    still means something (the student can ask for the answer with `show`).
    """
    lesson = lesson_or_404(slug)
    step = _step_or_404(lesson, key)
    text = request.form.get("answer", "")[:MAX_ANSWER_FIELD]
    result = check_answer(step, text, page_lang())
    if result.result == CORRECT:
        _mark_done(slug, key)
    _store_answer(slug, key, text, was_shown=False)
    return _answered(lesson, step, text[: MAX_ANSWER_LENGTH + 1], result)


@bp.post("/<slug>/step/<key>/show")
def show(slug: str, key: str) -> Response:
    """The student gives up on a step: show its explanation and exact answer (the step is not marked done)."""
    lesson = lesson_or_404(slug)
    step = _step_or_404(lesson, key)
    text = request.form.get("answer", "")[:MAX_ANSWER_FIELD]
    _store_answer(slug, key, text, was_shown=True)
    return _answered(lesson, step, text[: MAX_ANSWER_LENGTH + 1], shown(page_lang()))

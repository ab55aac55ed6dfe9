"""Lesson steps: a question with one exact answer, checked against the student's text, and an explanation.

Questions and explanations are English msgids marked with `N_`; `params` fill their ``{placeholders}`` after
translation. Exact answers are Fractions computed by the game modules, never typed in by hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from suji.core.i18n import N_, translate
from suji.lessons.answers import AnswerError, parse_answer

CORRECT = "correct"
CLOSE = "close"
WRONG = "wrong"
ERROR = "error"
SHOWN = "shown"  # the student asked to see the answer

# Nudges for a wrong or close answer when the step has no hint of its own: what form the answer takes.
GENERIC_HINTS: dict[str, str] = {
    "estimate": N_("Hint: look for this value in the table of estimates on this page."),
    "probability": N_(
        "Hint: the answer is a probability, a number between 0 and 1. A fraction like 3/8 is best."
    ),
    "whole": N_("Hint: the answer is a whole number."),
    "fraction": N_("Hint: the answer is not a whole number. Give it as a fraction like 7/2 or as a decimal."),
}

# Neutral on purpose: "close" is its own verdict, so a wrong answer is not called nearly right.
WRONG_MESSAGE = N_("Not quite: you wrote %(value)s. Try again, or press “Show the answer”.")

# A rounded decimal within half a percent (of 1, or of the answer when it is bigger) counts as "close".
CLOSE_TOLERANCE = Fraction(1, 200)


@dataclass(frozen=True)
class Step:
    """One question of a lesson; `answer` is exact.

    The `explanation` (which gives the answer away) is shown only after a right answer or when the student asks
    to see the answer; a wrong or close answer gets the `hint` instead (or a generic nudge, see `hint_text`).
    """

    key: str
    question: str
    answer: Fraction
    explanation: str
    params: Mapping[str, object] = field(default_factory=dict)
    # For an answer read from a simulation: any value from low to high (inclusive) is correct.
    accept: tuple[Fraction, Fraction] | None = None
    hint: str = ""  # msgid: a nudge that does not give the answer away

    def hint_text(self, lang: str) -> str:
        """The step's hint in `lang`, or a generic nudge saying what form the answer takes."""
        if self.hint:
            return translate(self.hint, lang, **self.params)
        return translate(GENERIC_HINTS[answer_form(self)], lang)

    def question_text(self, lang: str) -> str:
        """The question in `lang`."""
        return translate(self.question, lang, **self.params)

    def explanation_text(self, lang: str) -> str:
        """The explanation in `lang`, ending with the answer as a fraction and a percentage."""
        return translate(self.explanation, lang, **self.params)


@dataclass(frozen=True)
class Check:
    """The verdict on one answer: `result` is correct, close, wrong or error; `message` is translated."""

    result: str
    message: str
    value: Fraction | None = None


def check_answer(step: Step, text: object, lang: str) -> Check:
    """Read `text` safely and compare it exactly with the step's answer."""
    try:
        value = parse_answer(text)
    except AnswerError as err:
        return Check(ERROR, err.message(lang))
    if step.accept is not None:
        return _check_range(step.accept, value, str(text).strip(), lang)
    if value == step.answer:
        return Check(
            CORRECT,
            translate(N_("Correct! %(answer)s is exactly right."), lang, answer=fraction_text(step.answer)),
            value,
        )
    if abs(value - step.answer) <= CLOSE_TOLERANCE * max(1, abs(step.answer)):
        return Check(
            CLOSE, translate(N_("Very close, but not exact. Can you give it as a fraction?"), lang), value
        )
    # Echo the answer as the student typed it ("12%", not the 3/25 it was read as): it is theirs to recognise.
    return Check(WRONG, translate(WRONG_MESSAGE, lang, value=str(text).strip()), value)


def answer_form(step: Step) -> str:
    """What kind of number the step wants (a key of GENERIC_HINTS), judged from its exact answer."""
    if step.accept is not None:
        return "estimate"
    if 0 < step.answer < 1:
        return "probability"
    return "whole" if step.answer.denominator == 1 else "fraction"


def shown(lang: str) -> Check:
    """The verdict when the student asks to see the answer (the page then shows the explanation)."""
    return Check(SHOWN, translate(N_("Here is the answer. Try the next question on your own!"), lang))


def _check_range(accept: tuple[Fraction, Fraction], value: Fraction, text: str, lang: str) -> Check:
    """The verdict on an answer read from a simulation, where any value in `accept` is right."""
    low, high = accept
    if low <= value <= high:
        return Check(
            CORRECT,
            translate(N_("Correct! %(value)s is within the range of the estimate."), lang, value=text),
            value,
        )
    if high <= 1 and low <= value / 100 <= high:
        # "71" typed for a percentage: right number, missing % sign.
        return Check(
            CLOSE, translate(N_("Did you mean %(value)s%%? Type the “%%” too."), lang, value=text), value
        )
    return Check(WRONG, translate(WRONG_MESSAGE, lang, value=text), value)


def fraction_text(value: Fraction) -> str:
    """`value` as "3/8" (or "2" for a whole number)."""
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"



"""Class mode's refusals: one error class whose codes name every thing a teacher or a pupil is refused.

Raised by the pure rules (settings, codes, grading, the clock) and by the web layer's guards alike, translated at
the edge in the reader's language (`message(lang)`); `field` names the form field an error is about.
"""

from __future__ import annotations

from suji.core.errors import SujiError
from suji.core.i18n import N_
from suji.core.nicknames import NicknameError

MESSAGES = {
    "count": N_("The number of problems must be a whole number from %(low)s to %(high)s."),
    "version": N_("The worksheet version must be one of %(labels)s."),
    "time_limit": N_(
        "The time limit must be a whole number of minutes from 1 to %(high)s, or empty for none."
    ),
    "yes_no": N_("Choose yes or no."),
    "no_code": N_("Type the class code from the board."),
    "bad_code": N_("A class code is %(length)s letters and digits, like %(example)s."),
    "unknown_code": N_("There is no class with the code %(given)s. Check the code on the board."),
    "ended": N_("This class session has ended."),
    "name_taken": N_(
        "The name “%(name)s” is already used in this class. Choose another name, or, if it is yours and you are on "
        "another device, ask your teacher to let you join again."
    ),
    "class_number": N_("A class number (出席番号) is a whole number from 1 to %(high)s, or empty."),
    **NicknameError.MESSAGES,
    "too_many_tries": N_("Too many wrong codes from this device. Wait %(minutes)s minutes and try again."),
    "not_started": N_("The class has not started yet. Wait for your teacher."),
    "paused": N_("The class is paused. Wait for your teacher."),
    "time_up": N_("Time is up. You cannot answer any more."),
    "empty_formula": N_("Write a formula first."),
    "problem_done": N_("This problem is already finished."),
    "not_current": N_("That problem is not your current one. Here is where you are."),
    "stale": N_("That was already done (the page may have been sent twice). Here is where you are."),
    "no_hints": N_("Your teacher has turned hints off for this class."),
    "no_more_hints": N_("There are no more hints for this problem."),
    "not_joined": N_("You have not joined this class on this device. Join with the code and your name."),
    "moved": N_(
        "Your teacher let your name join again on another device, so this one is no longer in the class. "
        "Carry on there, or join here again with your name."
    ),
    "not_teacher": N_(
        "This page needs the teacher's private link. Open the link you bookmarked when you made the class."
    ),
    "no_session": N_("There is no such class session. It may have been deleted."),
    "roster_only": N_("This live lesson is for the pupils of %(name)s. Sign in with your sign-in card first, then join."),
    "not_step": N_("“step” must be a whole number from 0 to %(limit)s."),
    "not_json": N_("Send one JSON object (Content-Type: application/json)."),
}


class ClassError(SujiError):
    """Something class mode refuses; `code` names it, `field` the form field it is about (if any)."""

    MESSAGES = MESSAGES

    def __init__(self, code: str, field: str | None = None, **params: object) -> None:
        super().__init__(code, **params)
        self.field = field

    def message(self, lang: str = "en") -> str:
        if self.code == "sheet":  # a level or seed refused by the worksheet's reader, in its own words
            return str(self.message_params(lang)["text"])
        return super().message(lang)

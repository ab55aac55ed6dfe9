"""Every refusal of the classes a teacher keeps for a year: rosters, homework, accommodations, reports.

Raised by the pure rules (suji.play.school) and the web layer alike and translated at the edge in the reader's
language (`message(lang)`); `field` names the form field an error is about, `line` the roster line.
"""

from __future__ import annotations

from suji.core.errors import SujiError
from suji.core.i18n import N_, sentences
from suji.core.nicknames import NicknameError

MESSAGES = {
    "class_name": N_("A class name has 1 to %(high)s characters, like “4年2組” or “Year 4 Maple”."),
    "school_year": N_("The school year is the year it starts in, from %(low)s to %(high)s."),
    "year_end": N_("The last day of the school year must be a date after its start, within two years."),
    "leaderboard": N_("Choose shown, anonymous or off."),
    "number": N_("A class number (出席番号) is a whole number from 1 to %(high)s, or empty."),
    "number_taken": N_("Class number %(number)s is already %(name)s's."),
    "name_taken": N_(
        "There is already a pupil called “%(name)s” in this class. Add something to tell them apart."
    ),
    "roster_empty": N_(
        "Type at least one pupil: a name or nickname on each line, a class number before it if you like."
    ),
    "roster_line": N_("Line %(line)s (“%(text)s”): %(reason)s"),
    "roster_size": N_("A class has at most %(high)s pupils."),
    "extra_time": N_("Choose the time: as for everyone, 1.5 times, twice, or no time limit."),
    "yes_no": N_("Choose yes or no."),
    **NicknameError.MESSAGES,
}


class SchoolError(SujiError):
    """Something a class, its roster or its homework refuses; `field` is the form field it is about."""

    MESSAGES = MESSAGES

    def __init__(self, code: str, field: str | None = None, **params: object) -> None:
        super().__init__(code, **params)
        self.field = field

    def message(self, lang: str = "en") -> str:
        if self.code == "roster_line":  # the reason is an error of its own, said in the same language
            reason = self.params["reason"]
            reason_text = reason.message(lang) if isinstance(reason, SujiError) else str(reason)
            from suji.core.i18n import translate

            text = translate(MESSAGES["roster_line"], lang, line=self.params["line"], text=self.params["text"],
                             reason=reason_text)  # fmt: skip
            # Every other bad line of the list after it, each a sentence of its own.
            more = [error.message(lang) for error in self.params.get("more", ())]
            return sentences(lang, text, *more)
        return super().message(lang)

"""A class that lasts the school year: its name and year, its pupils, and what each pupil is allowed.

    form fields ──parse_class──▶ ClassInfo                              (stored with the teacher's class)
    roster text ──parse_roster──▶ RosterLine…  ("12 佐藤はな" a line)   (one pupil row each)
    form fields ──parse_pupil──▶ PupilInfo (name, 出席番号, extra time, free hints)
    a school year and its last day ──data_kept_until──▶ the day the class's data is deleted
    a live session's end + the pupil's extra time ──extended_end──▶ when their time runs out (or never)

A pupil is a name or a nickname the teacher types (the leaderboard's rules: letters of any script, digits,
spaces, - and _, 1–20 characters; no email and no real name needed) and an optional class number (出席番号).
A school year is named by the year it starts in: in Japan 2026 runs from April 2026 to 31 March 2027, the
default last day; a school elsewhere sets its own.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from suji.core.nicknames import NicknameError, clean_nickname
from suji.core.text import whole_number
from suji.play.school.errors import SchoolError

MAX_CLASS_NAME = 40
MIN_YEAR, MAX_YEAR = 2000, 2100
MAX_NUMBER = 99  # 出席番号
MAX_PUPILS = 60
YEAR_END = (3, 31)  # Japan's school year ends on 31 March of the year after it starts
DEFAULT_KEEP_DAYS = 90  # a class's data is deleted this many days after its school year ends

# Extra time for one pupil: the factor on a time limit, None for no limit at all.
EXTRA_TIME = {"1": 1.0, "1.5": 1.5, "2": 2.0, "untimed": None}
LEADERBOARD = ("off", "anonymous", "shown")  # the daily puzzle's leaderboard for the class; off by default


@dataclass(frozen=True)
class ClassInfo:
    """What the teacher named a class: its name, the year it starts in, its last day, the leaderboard."""

    name: str
    school_year: int
    ends_on: date
    leaderboard: str = "off"


@dataclass(frozen=True)
class RosterLine:
    """One pupil typed into the roster: the name and, when given, the class number."""

    name: str
    number: int | None = None


@dataclass(frozen=True)
class PupilInfo:
    """One pupil's details: the name, the class number, extra time (a key of EXTRA_TIME) and free hints."""

    name: str
    number: int | None = None
    extra_time: str = "1"
    free_hints: bool = False

    @property
    def time_factor(self) -> float | None:
        """The factor on time limits for this pupil (None: no time limit)."""
        return EXTRA_TIME[self.extra_time]


def default_year_end(school_year: int, end: tuple[int, int] = YEAR_END) -> date:
    """The last day of a school year starting in `school_year`: 31 March of the next year by default."""
    month, day = end
    return date(school_year + 1, month, day) if month < 8 else date(school_year, month, day)


def current_school_year(today: date, end: tuple[int, int] = YEAR_END) -> int:
    """The school year `today` is in (in Japan: April 2026 – March 2027 is 2026)."""
    return today.year - 1 if today <= default_year_end(today.year - 1, end) else today.year


def data_kept_until(ends_on: date, keep_days: int = DEFAULT_KEEP_DAYS) -> date:
    """The last day a class's data is kept: `keep_days` after its school year's last day."""
    return ends_on + timedelta(days=keep_days)


def name_key(name: str) -> str:
    """What two pupils' names are compared by: case and width folded (Ｓａｔｏ, sato and SATO are one)."""
    return unicodedata.normalize("NFKC", name).casefold()


def clean_class_name(text: object) -> str:
    name = " ".join(unicodedata.normalize("NFC", str(text or "")[:200]).split())
    if not 1 <= len(name) <= MAX_CLASS_NAME or any(unicodedata.category(ch)[0] == "C" for ch in name):
        raise SchoolError("class_name", "name", high=MAX_CLASS_NAME)
    return name


def parse_class(form: Mapping[str, object], today: date, end: tuple[int, int] = YEAR_END) -> ClassInfo:
    """A class's name, school year, last day and leaderboard from the form (all strings), or SchoolError."""
    name = clean_class_name(form.get("name"))
    raw_year = str(form.get("school_year") or "").strip()
    year = current_school_year(today, end) if not raw_year else whole_number(raw_year, MIN_YEAR, MAX_YEAR)
    if year is None:
        raise SchoolError("school_year", "school_year", low=MIN_YEAR, high=MAX_YEAR)
    raw_end = str(form.get("ends_on") or "").strip()
    ends_on = default_year_end(year, end)
    if raw_end:
        try:
            ends_on = date.fromisoformat(unicodedata.normalize("NFKC", raw_end)[:10])
        except ValueError:
            raise SchoolError("year_end", "ends_on") from None
        if not date(year, 1, 1) < ends_on <= date(year + 2, 12, 31):
            raise SchoolError("year_end", "ends_on")
    board = str(form.get("leaderboard") or "off").strip()
    if board not in LEADERBOARD:
        raise SchoolError("leaderboard", "leaderboard")
    return ClassInfo(name, year, ends_on, board)


def clean_number(text: object) -> int | None:
    """A class number as typed (full-width digits too), None when empty, or SchoolError."""
    raw = str(text if text is not None else "").strip()
    if not raw:
        return None
    number = whole_number(raw, 1, MAX_NUMBER)
    if number is None:
        raise SchoolError("number", "number", high=MAX_NUMBER)
    return number


def clean_pupil_name(text: object) -> str:
    try:
        return clean_nickname(text)
    except NicknameError as error:
        raise SchoolError(error.code, "name") from None


def _split_line(line: str) -> tuple[str, str]:
    """A roster line's leading number (if any) and the rest: "12 佐藤", "１２　佐藤", "12, Sato", "12.Sato"."""
    text = unicodedata.normalize("NFKC", line).strip()
    digits = ""
    while text[len(digits) : len(digits) + 1].isdigit() and text[len(digits)].isascii():
        digits += text[len(digits)]
    rest = text[len(digits) :]
    if digits and (not rest or rest[0] in " \t,.、。:：)番"):
        return digits, rest.lstrip(" \t,.、。:：)番")
    return "", text


def parse_roster(text: object, already: int = 0) -> tuple[RosterLine, ...]:
    """The pupils of a pasted list, one a line ("12 佐藤はな", "Ken", "3, Mia"), or SchoolError naming every bad
    line with its reason (the first as the error's own line, the others in `more`), so that a teacher mends the
    list once. Empty lines are skipped; a name or number twice in the list is refused (the store refuses those
    already in the class)."""
    lines = [(i, line) for i, line in enumerate(str(text or "")[:20_000].splitlines(), 1) if line.strip()]
    if not lines:
        raise SchoolError("roster_empty", "roster")
    if already + len(lines) > MAX_PUPILS:
        raise SchoolError("roster_size", "roster", high=MAX_PUPILS)
    found: list[RosterLine] = []
    names: set[str] = set()
    numbers: dict[int, str] = {}  # a number → the name of the first line that has it
    bad: list[SchoolError] = []
    for i, line in lines:
        shown = line.strip()[:40]
        digits, rest = _split_line(line)
        try:
            number = clean_number(digits)
            name = clean_pupil_name(rest)
            if name_key(name) in names:
                raise SchoolError("name_taken", name=name)
            if number is not None and number in numbers:
                raise SchoolError("number_taken", number=number, name=numbers[number])
        except SchoolError as error:
            bad.append(SchoolError("roster_line", "roster", line=i, text=shown, reason=error))
            continue
        names.add(name_key(name))
        if number is not None:
            numbers[number] = name
        found.append(RosterLine(name, number))
    if bad:
        first = bad[0]
        raise SchoolError("roster_line", "roster", **first.params, more=tuple(bad[1:]))
    return tuple(found)


def parse_pupil(form: Mapping[str, object]) -> PupilInfo:
    """One pupil's details from the roster's edit form, or SchoolError."""
    name = clean_pupil_name(form.get("name"))
    number = clean_number(form.get("number"))
    extra = str(form.get("extra_time") or "1").strip()
    if extra not in EXTRA_TIME:
        raise SchoolError("extra_time", "extra_time")
    hints = str(form.get("free_hints") or "no").strip().lower()
    if hints not in ("yes", "no"):
        raise SchoolError("yes_no", "free_hints")
    return PupilInfo(name, number, extra, hints == "yes")


def extended_end(ends_at: datetime | None, time_limit: int | None, extra_time: str) -> datetime | None:
    """When a live session's time runs out for one pupil: the class's end (pauses and "+5 minutes" included) plus
    the extra share of the time limit (`time_limit` minutes × 0.5 or × 1), or None (no limit) when untimed."""
    factor = EXTRA_TIME.get(extra_time, 1.0)
    if ends_at is None or factor is None or not time_limit:
        return None if factor is None else ends_at
    return ends_at + timedelta(minutes=time_limit * (factor - 1.0))


def timed(limit_seconds: float | None, extra_time: str) -> float | None:
    """A time limit as it applies to one pupil: ×1.5, ×2, or none at all (`extra_time` a key of EXTRA_TIME)."""
    factor = EXTRA_TIME.get(extra_time, 1.0)
    if limit_seconds is None or factor is None:
        return None
    return limit_seconds * factor

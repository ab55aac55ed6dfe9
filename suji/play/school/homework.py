"""Homework: work a teacher sets with an opening time and a due date, done at each pupil's own pace.

    form fields ──parse_homework──▶ Homework ──problems──▶ ClassProblem…     (a fixed set, stored when made)
    Homework + now ──window──▶ not open yet / open / late                 (late work is marked, never refused)
    Homework + a pupil's start + their extra time ──deadline──▶ when a timed set stops taking answers
    a problem's Progress + the first attempt's score ──counted──▶ what the problem scores in the report
    Homework + now + the pupil's work ──pupil_status──▶ not open yet / open / due / late / done (the pupil's list)

Two kinds. A fixed problem set is a worksheet's: the same count, level, seed and version give exactly the
printed sheet's problems (suji.play.classroom.choose_problems, as a live class session chooses them), answered
as in class mode (three tries a problem, hints as the teacher allows, suji.play.classroom.grade). Adaptive
practice is N items or N minutes of the learner model's practice (suji.learner), each item chosen for the
pupil. "Only the first attempt counts": the pupil may still use the other tries to learn, but the problem
scores what the first try made (0 if it missed). Times are naive UTC, as everything stored.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta, tzinfo

from suji.core.i18n import N_
from suji.core.text import whole_number
from suji.play.classroom import (
    ClassError,
    ClassProblem,
    ClassSettings,
    Progress,
    choose_problems,
    parse_settings,
)
from suji.play.school.errors import SchoolError
from suji.play.school.roster import EXTRA_TIME

FIXED, ADAPTIVE = "fixed", "adaptive"
ITEMS, MINUTES = "items", "minutes"
MAX_ITEMS, MAX_MINUTES = 50, 120
MAX_TIME_LIMIT = 180
MAX_TITLE = 60
NOT_OPEN, OPEN, LATE = "not_open", "open", "late"
DUE, DONE = "due", "done"  # the pupil's list adds these: due within DUE_SOON, and finished
DUE_SOON = timedelta(hours=24)
MAX_AHEAD = timedelta(days=400)
MAX_ITEM_SECONDS = 600.0  # adaptive practice counts at most this much time for one item (a tab left open)

MESSAGES = {
    "title": N_("A title has 1 to %(high)s characters."),
    "kind": N_("Choose a problem set or adaptive practice."),
    "amount": N_(
        "Adaptive practice is a number of items from 1 to %(items)s, or of minutes from 1 to %(minutes)s."
    ),
    "when": N_("Type the date and time like 2026-05-20 15:00."),
    "due_before_open": N_("The due date must be after the opening time."),
    "too_far": N_("The due date must be within a year from now."),
}


class HomeworkError(SchoolError):
    """A refusal of the homework form; "class_setting" wraps class mode's refusal of a shared setting."""

    MESSAGES = {**SchoolError.MESSAGES, **MESSAGES, "class_setting": "%(error)s"}

    def message(self, lang: str = "en") -> str:
        if self.code == "class_setting":  # the count, level, seed, version or hints, in class mode's words
            return self.params["error"].message(lang)
        return super().message(lang)


@dataclass(frozen=True)
class Homework:
    """What the teacher set: the kind and its size, the problems' choice, the time, the hints, the window."""

    title: str
    kind: str = FIXED
    opens_at: datetime | None = None  # None: open at once
    due_at: datetime | None = None
    # a fixed set, chosen as a worksheet's
    count: int = 5
    level: object = 1
    seed: str = ""
    version: int = 0
    time_limit: int | None = None  # minutes from the pupil's start; None: untimed
    hints: bool = True
    hint_cost: bool = True
    first_attempt_only: bool = False
    # adaptive practice
    amount_kind: str = ITEMS
    amount: int = 10

    def class_settings(self) -> ClassSettings:
        """The settings a fixed set shares with a live class session (problems, hints)."""
        return ClassSettings(self.count, self.level, self.seed, self.version, self.time_limit, self.hints,  # type: ignore[arg-type]
                             self.hint_cost)  # fmt: skip

    def to_dict(self) -> dict:
        return {
            "title": self.title, "kind": self.kind, "count": self.count, "level": self.level, "seed": self.seed,
            "version": self.version, "time_limit": self.time_limit, "hints": self.hints, "hint_cost": self.hint_cost,
            "first_attempt_only": self.first_attempt_only, "amount_kind": self.amount_kind, "amount": self.amount,
        }  # fmt: skip

    @classmethod
    def from_dict(cls, data: Mapping, opens_at: datetime | None, due_at: datetime | None) -> Homework:
        fields = {k: data[k] for k in cls("x").to_dict() if k in data}
        return cls(**{**fields, "opens_at": opens_at, "due_at": due_at})


def read_moment(text: object, zone: tzinfo) -> datetime | None:
    """A date and time as a form sends it ("2026-05-20T15:00", "2026-05-20 15:00", or a date alone for the end
    of that day) in the school's time zone, as naive UTC; None when empty; HomeworkError when unreadable."""
    raw = unicodedata.normalize("NFKC", str(text or "")[:40]).strip()
    if not raw:
        return None
    try:
        if len(raw) == 10:
            local = datetime.fromisoformat(raw).replace(hour=23, minute=59)
        else:
            local = datetime.fromisoformat(raw.replace(" ", "T"))
    except ValueError:
        raise HomeworkError("when") from None
    if local.tzinfo is None:
        local = local.replace(tzinfo=zone)
    return local.astimezone(UTC).replace(tzinfo=None, second=0, microsecond=0)


def parse_homework(
    form: Mapping[str, object], now: datetime, zone: tzinfo
) -> tuple[Homework, list[SchoolError]]:
    """The teacher's homework form (all strings) as a Homework and every refusal, each naming its field."""
    errors: list[SchoolError] = []
    title = _title(form, errors)
    kind = str(form.get("kind") or FIXED)
    if kind not in (FIXED, ADAPTIVE):
        errors.append(HomeworkError("kind", "kind"))
        kind = FIXED
    values: dict[str, object] = {"title": title, "kind": kind}
    fields = {k: form[k] for k in ("count", "level", "seed", "version", "hints", "hint_cost") if k in form}
    if kind == FIXED:
        settings, class_errors = parse_settings({k: str(v) for k, v in fields.items()})
        errors += [_from_class(e) for e in class_errors]
        values.update(count=settings.count, level=settings.level, seed=settings.seed, version=settings.version,
                      hints=settings.hints, hint_cost=settings.hint_cost)  # fmt: skip
        raw = str(form.get("time_limit") or "").strip()
        if raw:
            minutes = whole_number(raw, 1, MAX_TIME_LIMIT)
            if minutes is None:
                errors.append(_from_class(ClassError("time_limit", "time_limit", high=MAX_TIME_LIMIT)))
            values["time_limit"] = minutes
        first = str(form.get("first_attempt_only") or "no").strip().lower()
        if first not in ("yes", "no"):
            errors.append(HomeworkError("yes_no", "first_attempt_only"))
        values["first_attempt_only"] = first == "yes"
    else:
        amount_kind = str(form.get("amount_kind") or ITEMS)
        high = MAX_ITEMS if amount_kind == ITEMS else MAX_MINUTES
        amount = whole_number(form.get("amount"), 1, high) if amount_kind in (ITEMS, MINUTES) else None
        if amount is None:
            errors.append(HomeworkError("amount", "amount", items=MAX_ITEMS, minutes=MAX_MINUTES))
        else:
            values.update(amount_kind=amount_kind, amount=amount)
    try:
        opens_at = read_moment(form.get("opens_at"), zone)
    except HomeworkError as error:
        errors.append(replace_field(error, "opens_at"))
        opens_at = None
    due_at = _due(form, now, zone, opens_at, errors)
    return Homework(**values, opens_at=opens_at, due_at=due_at), errors  # type: ignore[arg-type]


def parse_schedule(
    form: Mapping[str, object], now: datetime, zone: tzinfo, opens_at: datetime | None
) -> tuple[str, datetime | None, list[SchoolError]]:
    """A homework's new title and due date (the teacher's "Change" form), with the rules of a new homework's:
    (title, due date, every refusal naming its field)."""
    errors: list[SchoolError] = []
    title = _title(form, errors)
    return title, _due(form, now, zone, opens_at, errors), errors


def _title(form: Mapping[str, object], errors: list[SchoolError]) -> str:
    title = " ".join(str(form.get("title") or "").split())[:200]
    if not 1 <= len(title) <= MAX_TITLE:
        errors.append(HomeworkError("title", "title", high=MAX_TITLE))
    return title[:MAX_TITLE]


def _due(form: Mapping[str, object], now: datetime, zone: tzinfo, opens_at: datetime | None,
         errors: list[SchoolError]) -> datetime | None:  # fmt: skip
    try:
        due_at = read_moment(form.get("due_at"), zone)
        if due_at is None:
            raise HomeworkError("when")
    except HomeworkError as error:
        errors.append(replace_field(error, "due_at"))
        return None
    if opens_at is not None and due_at <= opens_at:
        errors.append(HomeworkError("due_before_open", "due_at"))
    if due_at > now + MAX_AHEAD:
        errors.append(HomeworkError("too_far", "due_at"))
    return due_at


def replace_field(error: SchoolError, field: str) -> SchoolError:
    error.field = field
    return error


def _from_class(error: ClassError) -> SchoolError:
    """A class-mode refusal of a shared setting (count, level, seed, version, hints), kept in its own words."""
    return HomeworkError("class_setting", error.field, error=error)


def problems(homework: Homework) -> tuple[ClassProblem, ...]:
    """A fixed set's problems: the printed worksheet's (count, level, seed, version), as a class session's."""
    return choose_problems(homework.class_settings())


def window(homework: Homework, now: datetime) -> str:
    """NOT_OPEN before the opening time, OPEN until the due date, LATE after it (work still taken, marked late)."""
    if homework.opens_at is not None and now < homework.opens_at:
        return NOT_OPEN
    if homework.due_at is not None and now > homework.due_at:
        return LATE
    return OPEN


def pupil_status(homework: Homework, now: datetime, finished: bool) -> str:
    """Where an assignment stands for one pupil: DONE once finished (late or not), else NOT_OPEN before the opening
    time, LATE after the due date, DUE within DUE_SOON of it, OPEN otherwise."""
    if finished:
        return DONE
    state = window(homework, now)
    if state == OPEN and homework.due_at is not None and homework.due_at - now <= DUE_SOON:
        return DUE
    return state


def adaptive_done(homework: Homework, items_done: int, seconds: float) -> bool:
    """Whether adaptive practice is complete: N items answered, or N minutes of practice counted."""
    if homework.amount_kind == MINUTES:
        return seconds >= homework.amount * 60
    return items_done >= homework.amount


def item_seconds(served_at: datetime, answered_at: datetime) -> float:
    """The practice time one adaptive item counts: from showing it to the answer, at most MAX_ITEM_SECONDS."""
    return max(0.0, min(MAX_ITEM_SECONDS, (answered_at - served_at).total_seconds()))


def deadline(homework: Homework, started_at: datetime | None, extra_time: str) -> datetime | None:
    """When a timed set stops taking one pupil's answers: the time limit from their start, ×1.5 or ×2 with extra
    time; None when untimed (no limit, not started, or the pupil's accommodation is "untimed")."""
    if homework.kind != FIXED or homework.time_limit is None or started_at is None:
        return None
    factor = EXTRA_TIME.get(extra_time, 1.0)
    if factor is None:
        return None
    return started_at + timedelta(minutes=homework.time_limit * factor)


def counted(progress: Progress | None, first_score: int | None, first_attempt_only: bool) -> int:
    """What one problem scores in the report: the final score, or with "only the first attempt counts" the
    first try's (a miss on the first try is 0 however the later tries went)."""
    if progress is None or not progress.done:
        return 0
    if first_attempt_only:
        return first_score or 0
    return progress.score


def with_seed(homework: Homework) -> Homework:
    """A fixed set with a seed (a new one when the teacher gave none), so its problems can be printed again."""
    from suji.play.classroom import with_seed as class_with_seed

    if homework.kind != FIXED:
        return homework
    return replace(homework, seed=class_with_seed(homework.class_settings()).seed)

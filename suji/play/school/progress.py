"""A class's skills over the weeks, and one pupil's report for a parents' meeting: what a teacher prints.

    each answer (practice, homework, a live lesson) ──skills──▶ Answered(day, made, skills)
    a pupil's answers + the learner model's levels + the weeks ──pupil_progress──▶ PupilProgress (one grid row)
    PupilProgress + the pupil's homework and lessons + alerts ──PupilReport──▶ the printed page, pupil_csv

Pure functions of stored values (suji.web.classes.progress reads the rows). An answer's skills are the learner
model's families (suji.learner.families): a practice item's are the ones its easiest way in needs, as the item
bank names them; a formula sent to a fixed set or a live lesson has those of what the pupil wrote, when it reads
as dice. A skipped problem, or a text that does not read, asks for no skill: it counts only as activity. The
level of a skill is the learner model's mastery level now (suji.learner.mastery). Every CSV is written by
suji.core.spreadsheet.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from fractions import Fraction

from suji.core.caching import bounded
from suji.core.decimals import rounded
from suji.core.i18n import N_, translate
from suji.core.spreadsheet import csv_bytes
from suji.learner.families import FAMILIES, families_of
from suji.learner.mastery import FAMILIAR, LEVELS, NOT_STARTED
from suji.play.school.reports import TEXTS, Alert, Answered, WeekCell, period_ends, skill_weeks
from suji.rules.language.errors import FormulaError
from suji.rules.language.reader import MAX_FORMULA_LENGTH, parse

# Column heads of the grid: short, the full name (suji.learner.families.FAMILY_NAMES) beside it for a reader.
SHORT_NAMES = {
    "plus_minus": N_("+ −"),
    "times": N_("×"),
    "divide": N_("÷"),
    "constants": N_("×10 ×11 ×12"),
    "square": N_("²"),
    "root": N_("√"),
    "joined": N_("26 (joined)"),
    "six_as_nine": N_("6 as 9"),
    "four_dice": N_("4 dice"),
    "five_dice": N_("5 dice"),
}
# The grid's mark of each level (the level's name beside it for a reader, and in the legend): a school's △ ○ ◎.
LEVEL_MARKS = {"not_started": "·", "attempted": "△", "familiar": "○", "proficient": "◎", "mastered": "★"}


@bounded("formula_skills")
def formula_skills(printed: str) -> frozenset[str]:
    """The skills of a formula as kept in print (21²+4+1): its families, or none when it does not read."""
    if not printed or len(printed) > MAX_FORMULA_LENGTH:
        return frozenset()
    try:
        return families_of(parse(printed).faces)
    except FormulaError:
        return frozenset()


def activity_weeks(answers: Iterable[Answered], starts: Sequence[date],
                   ends: Sequence[date] | None = None) -> tuple[WeekCell, ...]:  # fmt: skip
    """Every answer a period (with a skill or not), made of answered: a week from each Monday of `starts`, or
    from each start to its `ends`."""
    counts = [[0, 0] for _ in starts]
    bounds = list(zip(starts, period_ends(starts, ends), strict=True))
    for answer in answers:
        for i, (start, end) in enumerate(bounds):
            if start <= answer.day < end:
                counts[i][0] += answer.times
                counts[i][1] += answer.times if answer.made else 0
    return tuple(WeekCell(a, m) for a, m in counts)


@dataclass(frozen=True)
class PupilProgress:
    """One row of the class's grid: the pupil, each skill's level now and its weeks, and every answer a week."""

    pupil_id: str
    name: str
    number: int | None
    levels: Mapping[str, str]  # skill → suji.learner.mastery level
    weeks: Mapping[str, tuple[WeekCell, ...]]  # skill → one cell a week, oldest first
    activity: tuple[WeekCell, ...]

    def total(self, skill: str) -> WeekCell:
        """The skill's answers over all the weeks shown."""
        cells = self.weeks.get(skill, ())
        return WeekCell(sum(c.answered for c in cells), sum(c.made for c in cells))

    @property
    def answered(self) -> int:
        return sum(c.answered for c in self.activity)

    @property
    def made(self) -> int:
        return sum(c.made for c in self.activity)

    @property
    def active_weeks(self) -> int:
        return sum(1 for c in self.activity if c.answered)


def pupil_progress(pupil_id: str, name: str, number: int | None, levels: Mapping[str, str],
                   answers: Sequence[Answered], starts: Sequence[date],
                   ends: Sequence[date] | None = None) -> PupilProgress:  # fmt: skip
    """A pupil's row of the grid from their answers of the weeks (or months: `ends`) shown and the learner
    model's levels."""
    return PupilProgress(pupil_id, name, number, {s: levels.get(s, NOT_STARTED) for s in FAMILIES},
                         skill_weeks(answers, starts, FAMILIES, ends), activity_weeks(answers, starts, ends))  # fmt: skip


def at_least(rows: Iterable[PupilProgress], skill: str, level: str = FAMILIAR) -> int:
    """How many pupils are at `level` or above in `skill` (the grid's foot: "Familiar or better")."""
    floor = LEVELS.index(level)
    return sum(1 for row in rows if LEVELS.index(row.levels.get(skill, NOT_STARTED)) >= floor)


# ---- one pupil's report ----


@dataclass(frozen=True)
class WorkLine:
    """One homework or live lesson on a pupil's report, with the class's figures beside it (no names)."""

    title: str
    kind: str  # fixed, adaptive, live (suji.web.classes.models)
    when: datetime | None  # the due date (homework) or the lesson's time
    status: str  # suji.play.school.reports: not_started, working, finished, finished_late
    score: int | None  # None: not started
    best: int | None  # the best possible (None for adaptive practice: items made of items done)
    done: int = 0  # adaptive practice: items done
    late: bool = False
    class_finished: int = 0
    class_pupils: int = 0
    class_mean: Fraction | None = None  # over the pupils who finished, exact


@dataclass(frozen=True)
class PupilReport:
    """Everything the printed page says about one pupil."""

    progress: PupilProgress
    starts: tuple[date, ...]
    homework: tuple[WorkLine, ...]
    lessons: tuple[WorkLine, ...]
    alerts: tuple[Alert, ...]
    mistake: str | None  # the checker's error code the pupil's formulas ran into most often
    mistake_count: int = 0
    days_streak: int = 0
    days_longest: int = 0
    strong: tuple[str, ...] = field(default=())  # skills at Proficient or Mastered
    to_practise: tuple[str, ...] = field(default=())  # skills tried but not yet Familiar, and those of the alerts


def strengths(levels: Mapping[str, str], alerts: Iterable[Alert]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The skills to praise (Proficient or Mastered) and those to practise (Attempted, or missed in a row)."""
    strong = tuple(s for s in FAMILIES if LEVELS.index(levels.get(s, NOT_STARTED)) >= LEVELS.index("proficient"))
    missed = {a.params.get("skill") for a in alerts if a.kind == "misses"}
    weak = tuple(s for s in FAMILIES if levels.get(s) == "attempted" or s in missed)
    return strong, tuple(s for s in weak if s not in strong)


REPORT_TEXTS = {
    "part": N_("Part"),
    "skills": N_("Skills"),
    "work": N_("Homework and lessons"),
    "title": N_("Title"),
    "when": N_("Due or held"),
    "class_mean": N_("Class average"),
    "lesson": N_("Live lesson"),
}


def pupil_csv(report: PupilReport, lang: str, skill_name: Callable[[str, str], str],
              level_name: Callable[[str, str], str], status_name: Callable[[str, str], str],
              when_text: Callable[[datetime], str]) -> bytes:  # fmt: skip
    """One pupil's report as CSV (UTF-8 with a BOM): a block of skills (the level now and each week's answers
    made and answered), an empty line, then a block of homework and live lessons."""
    t = {k: translate(v, lang) for k, v in {**TEXTS, **REPORT_TEXTS}.items() if k != "problem"}
    progress = report.progress
    weeks = [translate(N_("Week of %(day)s: made"), lang, day=d.isoformat()) for d in report.starts]
    weeks += [translate(N_("Week of %(day)s: answered"), lang, day=d.isoformat()) for d in report.starts]
    lines: list[list[object]] = [[t["number"], t["name"], t["part"], translate(N_("Skill"), lang),
                                  translate(N_("Level now"), lang), *weeks]]  # fmt: skip
    number = progress.number if progress.number is not None else ""
    for skill in FAMILIES:
        cells = progress.weeks.get(skill, ())
        lines.append([number, progress.name, t["skills"], skill_name(skill, lang),
                      level_name(progress.levels.get(skill, NOT_STARTED), lang),
                      *[c.made for c in cells], *[c.answered for c in cells]])  # fmt: skip
    lines.append([])
    lines.append([t["number"], t["name"], t["part"], t["title"], t["status"], t["when"], t["score"], t["best"],
                  t["items"], t["late"], t["class_mean"]])  # fmt: skip
    for line in (*report.homework, *report.lessons):
        lines.append([number, progress.name, t["work"], line.title or t["lesson"], status_name(line.status, lang),
                      when_text(line.when) if line.when else "", "" if line.score is None else line.score,
                      "" if line.best is None else line.best, line.done if line.kind == "adaptive" else "",
                      t["yes"] if line.late else t["no"],
                      "" if line.class_mean is None else rounded(line.class_mean, 1)])  # fmt: skip
    return csv_bytes(lines)

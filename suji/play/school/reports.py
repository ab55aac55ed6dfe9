"""What a teacher reads about a class: per assignment who finished and how, the alerts, and every report as CSV.

    problems + each pupil's work + every attempt's mistake ──assignment_report──▶ AssignmentReport ──csv──▶ bytes
    the roster's last activity + the homework due + each pupil's answers by skill ──alerts──▶ Alert…

Pure functions of the stored values (suji.web.classes reads the rows): no Flask, no database. The most common
mistake is the checker's error code counted most often (ties to the first in alphabetical order, so every
server shows the same one), named in the teacher's language by class mode's names (suji.play.classroom).
Every CSV is written by suji.core.spreadsheet, whose guard quotes a cell that could be read as a formula.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from fractions import Fraction

from suji.core.decimals import rounded
from suji.core.i18n import N_, NP_, translate, translate_plural
from suji.core.spreadsheet import csv_bytes
from suji.learner.families import FAMILY_INDEX as FAMILY_ORDER
from suji.play.classroom import SKIPPED, ClassProblem, Progress, mistake_name, results
from suji.play.classroom.results import ProblemColumn

NOT_STARTED, WORKING, FINISHED, FINISHED_LATE = "not_started", "working", "finished", "finished_late"
STATUS_NAMES = {
    NOT_STARTED: N_("Not started"),
    WORKING: N_("Working on it"),
    FINISHED: N_("Finished"),
    FINISHED_LATE: N_("Finished late"),
}
# A pupil sees the class's mean score only once this many have finished: with two, the second one to finish
# would know the first one's score from the mean and their own.
MEAN_MIN_GROUP = 5
INACTIVE_DAYS = 7
NOT_STARTED_DAYS = 2
MISSES_IN_A_ROW = 3

TEXTS = {
    "number": N_("No."),
    "name": N_("Name"),
    "status": N_("Status"),
    "score": N_("Score"),
    "best": N_("Best possible"),
    "late": N_("Late"),
    "started": N_("Started"),
    "finished": N_("Finished at"),
    "items": N_("Items done"),
    "made": N_("Items made"),
    "minutes": N_("Minutes"),
    "problem": N_("Problem %(number)s"),
    "yes": N_("yes"),
    "no": N_("no"),
}


@dataclass(frozen=True)
class PupilWork:
    """One pupil's work on an assignment as stored: None fields when not started."""

    name: str
    number: int | None
    started_at: datetime | None = None
    finished_at: datetime | None = None
    finished_late: bool = False
    cells: Mapping[int, Progress] = None  # type: ignore[assignment]
    first_scores: Mapping[int, int | None] = None  # type: ignore[assignment]
    late_problems: frozenset[int] = frozenset()
    items_done: int = 0
    items_made: int = 0
    seconds: float = 0.0


@dataclass(frozen=True)
class ReportRow:
    name: str
    number: int | None
    status: str
    score: int
    cells: tuple[Progress | None, ...]
    late: bool
    work: PupilWork
    counted: tuple[int, ...] = ()  # what each problem counts (the first try's score when only that counts)


@dataclass(frozen=True)
class AssignmentReport:
    """Everyone on the roster with their status and counted score, and per problem how the class did."""

    problems: tuple[ClassProblem, ...]
    rows: tuple[ReportRow, ...]
    columns: tuple[ProblemColumn, ...]
    first_attempt_only: bool
    mistake: str | None  # the most common mistake over the whole assignment
    mistake_count: int

    @property
    def best_total(self) -> int:
        return sum(p.best_score for p in self.problems)

    def count(self, status: str) -> int:
        return sum(1 for r in self.rows if r.status == status)

    @property
    def finished(self) -> int:
        return self.count(FINISHED) + self.count(FINISHED_LATE)


def _status(work: PupilWork) -> str:
    if work.started_at is None:
        return NOT_STARTED
    if work.finished_at is None:
        return WORKING
    return FINISHED_LATE if work.finished_late else FINISHED


def assignment_report(
    problems: Sequence[ClassProblem],
    pupils: Sequence[PupilWork],
    mistakes: Iterable[tuple[int, str, int]],
    first_attempt_only: bool = False,
) -> AssignmentReport:
    """The report of one assignment from its stored work (`mistakes` as (problem index, code, times))."""
    from suji.play.school.homework import counted

    # A skipped problem is not a mistake of a formula: the grid shows it ("→ 0"); the mistakes are what to teach.
    mistakes = [m for m in mistakes if m[1] != SKIPPED]
    grid = results(problems, [(p.name, 0, dict(p.cells or {})) for p in pupils], mistakes)
    rows = []
    for work, grid_row in zip(pupils, grid.rows, strict=True):
        firsts = work.first_scores or {}
        by_problem = tuple(counted(c, firsts.get(i), first_attempt_only) for i, c in enumerate(grid_row.cells))
        score = sum(by_problem) if problems else work.items_made  # adaptive practice: items made
        late = work.finished_late or bool(work.late_problems)
        rows.append(ReportRow(work.name, work.number, _status(work), score, grid_row.cells, late, work, by_problem))
    overall = Counter()
    for _, code, times in mistakes:
        overall[code] += times
    ranked = sorted(overall.items(), key=lambda item: (-item[1], item[0]))
    return AssignmentReport(tuple(problems), tuple(rows), grid.columns, first_attempt_only,
                            ranked[0][0] if ranked else None, ranked[0][1] if ranked else 0)  # fmt: skip


def class_mean(scores: Sequence[int]) -> float | None:
    """The mean a pupil may see of the finished pupils' scores: None below MEAN_MIN_GROUP of them."""
    return sum(scores) / len(scores) if len(scores) >= MEAN_MIN_GROUP else None


def report_csv(report: AssignmentReport, lang: str) -> bytes:
    """One assignment's report as CSV (UTF-8 with a BOM): a row per pupil, a column per problem's score."""
    t = {k: translate(v, lang) for k, v in TEXTS.items() if k != "problem"}
    header = [t["number"], t["name"], t["status"], t["score"], t["best"], t["late"]]
    if report.problems:
        header += [translate(TEXTS["problem"], lang, number=p.number) for p in report.problems]
    else:
        header += [t["items"], t["made"], t["minutes"]]
    lines: list[list[object]] = [header]
    for row in report.rows:
        line: list[object] = [row.number if row.number is not None else "", row.name,
                              translate(STATUS_NAMES[row.status], lang), row.score,
                              report.best_total if report.problems else "", t["yes"] if row.late else t["no"]]  # fmt: skip
        if report.problems:
            line += [row.counted[i] if c is not None and c.done else "" for i, c in enumerate(row.cells)]
        else:
            line += [row.work.items_done, row.work.items_made, rounded(Fraction(row.work.seconds) / 60, 1)]
        lines.append(line)
    return csv_bytes(lines)


# ---- alerts ----

ALERT_TEXTS = {
    "misses": N_("%(name)s missed %(count)s in a row on %(skill)s."),
    "inactive": N_("%(name)s has not practised for %(days)s days."),
    "never_active": N_("%(name)s has not signed in yet."),
    "not_started": N_("%(name)s has not started “%(title)s”, due %(due)s."),
}


# The same alert for many pupils, as one line of the class page (the CSV keeps a line a pupil).
GROUPED_TEXTS = {
    "not_started": NP_(
        "%(num)s pupil has not started “%(title)s”, due %(due)s.",
        "%(num)s pupils have not started “%(title)s”, due %(due)s.",
    ),
    "inactive": NP_("%(num)s pupil has not practised for a week or more.",
                    "%(num)s pupils have not practised for a week or more."),
    "never_active": NP_("%(num)s pupil has not signed in yet.", "%(num)s pupils have not signed in yet."),
}  # fmt: skip
GROUP_FROM = 3  # this many pupils with the same alert make one line


@dataclass(frozen=True)
class Alert:
    """Something the teacher should look at: its kind (a key of ALERT_TEXTS), the pupil, what it is about; or,
    with `pupils` above 1, the same for that many pupils (`grouped`: no pupil named)."""

    kind: str
    pupil: str
    params: Mapping[str, object]
    pupil_id: str = ""  # the pupil's public id, for a link to their report
    pupils: int = 1

    def message(self, lang: str, translate_param=None) -> str:  # noqa: ANN001 - a callable (name, lang) → text
        params = dict(self.params)
        if translate_param is not None:
            params = {k: translate_param(k, v, lang) for k, v in params.items()}
        if self.pupils > 1:
            return translate_plural(*GROUPED_TEXTS[self.kind], self.pupils, lang, num=self.pupils, **params)
        return translate(ALERT_TEXTS[self.kind], lang, name=self.pupil, **params)


def grouped(alerts: Sequence[Alert], at_least: int = GROUP_FROM) -> list[Alert]:
    """The alerts as the class page lists them: those of one kind about the same thing (the same homework) for at
    least `at_least` pupils as one line in the place of the first, the others as they are."""
    key = lambda a: (a.kind, tuple(sorted(a.params.items())) if a.kind == "not_started" else ())  # noqa: E731
    counts = Counter(key(a) for a in alerts if a.kind in GROUPED_TEXTS)
    out: list[Alert] = []
    done: set[tuple] = set()
    for alert in alerts:
        k = key(alert)
        if alert.kind not in GROUPED_TEXTS or counts[k] < at_least:
            out.append(alert)
        elif k not in done:
            done.add(k)
            params = alert.params if alert.kind == "not_started" else {}
            out.append(Alert(alert.kind, "", params, "", counts[k]))
    return out


def misses_in_a_row(answers: Sequence[tuple[bool, frozenset[str]]], limit: int = MISSES_IN_A_ROW) -> dict[str, int]:
    """The skills a pupil's latest answers (oldest first: made or not, the skills each asked for) missed at least
    `limit` times in a row, with how many: a made answer that asks for a skill ends that skill's run."""
    runs: dict[str, int] = {}
    for made, skills in answers:
        for skill in skills:
            runs[skill] = 0 if made else runs.get(skill, 0) + 1
    return {skill: n for skill, n in runs.items() if n >= limit}


def inactive(last_active: datetime | None, added: datetime, now: datetime, days: int = INACTIVE_DAYS) -> str | None:
    """"inactive" when a pupil last worked more than `days` ago, "never_active" when they were added that long
    ago and have never worked; None otherwise."""
    if last_active is None:
        return "never_active" if now - added > timedelta(days=days) else None
    return "inactive" if now - last_active > timedelta(days=days) else None


def not_started_soon(opens_at: datetime | None, due_at: datetime, started: bool, now: datetime,
                     days: int = NOT_STARTED_DAYS) -> bool:  # fmt: skip
    """Whether an open assignment is due within `days` and the pupil has not started it."""
    is_open = opens_at is None or opens_at <= now
    return is_open and not started and now <= due_at <= now + timedelta(days=days)


def mistake_text(code: str | None, lang: str) -> str:
    return mistake_name(code, lang)


ALERT_ORDER = ("misses", "not_started", "inactive", "never_active")  # what a teacher can act on first


@dataclass(frozen=True)
class PupilFacts:
    """What the alerts read of one pupil: when added, last active, and their latest answers, oldest first, each
    as (made, the skills it asked for)."""

    pupil_id: str
    name: str
    added: datetime
    last_active: datetime | None
    answers: Sequence[tuple[bool, frozenset[str]]] = ()


@dataclass(frozen=True)
class DueWork:
    """An assignment the alerts look at: its title, window, and the pupils (public ids) who have started it."""

    title: str
    opens_at: datetime | None
    due_at: datetime
    started: frozenset[str]


def class_alerts(pupils: Sequence[PupilFacts], homework: Sequence[DueWork], now: datetime) -> list[Alert]:
    """Every alert of a class: misses in a row on a skill, homework not started two days before it is due, no
    activity for a week; by kind (ALERT_ORDER), then in the roster's order, then by skill or due date."""
    found: list[tuple[int, int, object, Alert]] = []
    for place, pupil in enumerate(pupils):
        runs = misses_in_a_row(pupil.answers)
        for skill in sorted(runs, key=lambda s: FAMILY_ORDER.get(s, len(FAMILY_ORDER))):
            alert = Alert("misses", pupil.name, {"count": runs[skill], "skill": skill}, pupil.pupil_id)
            found.append((0, place, FAMILY_ORDER.get(skill, 0), alert))
        for work in sorted(homework, key=lambda w: w.due_at):
            if not_started_soon(work.opens_at, work.due_at, pupil.pupil_id in work.started, now):
                alert = Alert("not_started", pupil.name, {"title": work.title, "due": work.due_at}, pupil.pupil_id)
                found.append((1, place, work.due_at, alert))
        idle = inactive(pupil.last_active, pupil.added, now)
        if idle is not None:
            days = (now - pupil.last_active).days if pupil.last_active is not None else INACTIVE_DAYS
            found.append((ALERT_ORDER.index(idle), place, 0, Alert(idle, pupil.name, {"days": days}, pupil.pupil_id)))
    found.sort(key=lambda f: (f[0], f[1]))  # stable: within one pupil and kind, the order of the loop above
    return [f[3] for f in found]


# ---- skills over weeks ----

WEEKS = 6  # the grid shows this many weeks, the current one last


@dataclass(frozen=True)
class Answered:
    """One answer as the reports read it, from practice, homework or a live lesson: when (the school's day),
    whether it made its goal, and the skills its problem asks for."""

    day: object  # a datetime.date
    made: bool
    skills: frozenset[str]
    times: int = 1  # how many such answers this stands for (a month's, counted by the database)


@dataclass(frozen=True)
class WeekCell:
    answered: int = 0
    made: int = 0

    @property
    def share(self) -> float | None:
        return self.made / self.answered if self.answered else None

    @property
    def band(self) -> str:
        """How the week went, for the grid's colour: none, low (under half), mid (under 80%) or high."""
        share = self.share
        if share is None:
            return "none"
        return "low" if share < 0.5 else "mid" if share < 0.8 else "high"


def week_starts(today, weeks: int = WEEKS) -> list:  # noqa: ANN001 - datetime.date
    """The Mondays of the last `weeks` weeks, oldest first (the week of `today` last)."""
    monday = today - timedelta(days=today.weekday())
    return [monday - timedelta(weeks=weeks - 1 - i) for i in range(weeks)]


def month_periods(first, last) -> tuple[list, list]:  # noqa: ANN001 - datetime.date
    """The months from `first` to `last` (a school year so far): each one's first day (`first` itself for the
    first month) and the day after its last (`last`'s next day for the last month), oldest first."""
    starts, ends = [], []
    start = first
    while start <= last:
        following = date(start.year + start.month // 12, start.month % 12 + 1, 1)
        starts.append(start)
        ends.append(min(following, last + timedelta(days=1)))
        start = following
    return starts, ends


def period_ends(starts: Sequence, ends: Sequence | None) -> Sequence:
    """The day after each period's last: `ends` when given, else a week after each start."""
    return ends if ends is not None else [start + timedelta(days=7) for start in starts]


def skill_weeks(answers: Iterable[Answered], starts: Sequence, skills: Sequence[str],
                ends: Sequence | None = None) -> dict[str, tuple[WeekCell, ...]]:  # fmt: skip
    """Per skill, one cell a period (a week from each Monday of `starts`, or from each start to its `ends`): how
    many answers asked for it, how many made."""
    counts = {s: [[0, 0] for _ in starts] for s in skills}
    bounds = list(zip(starts, period_ends(starts, ends), strict=True))
    for answer in answers:
        week = None
        for i, (start, end) in enumerate(bounds):
            if start <= answer.day < end:
                week = i
        if week is None:
            continue
        for skill in answer.skills:
            if skill in counts:
                counts[skill][week][0] += answer.times
                counts[skill][week][1] += answer.times if answer.made else 0
    return {s: tuple(WeekCell(a, m) for a, m in cells) for s, cells in counts.items()}


def skills_csv(rows: Sequence[tuple[str, int | None, Mapping[str, str], Mapping[str, Sequence[WeekCell]]]],
               skills: Sequence[str], starts: Sequence, skill_name, level_name, lang: str,  # noqa: ANN001
               months: bool = False) -> bytes:  # fmt: skip
    """The pupil × skill grid as CSV: one line per pupil and skill, with the level now and each week's (or
    month's) answers made of answered. `rows` holds (name, number, {skill: level}, {skill: week cells})."""
    header = [translate(TEXTS["number"], lang), translate(TEXTS["name"], lang), translate(N_("Skill"), lang),
              translate(N_("Level now"), lang)]  # fmt: skip
    if months:
        header += [translate(N_("%(month)s: made"), lang, month=f"{d:%Y-%m}") for d in starts]
        header += [translate(N_("%(month)s: answered"), lang, month=f"{d:%Y-%m}") for d in starts]
    else:
        header += [translate(N_("Week of %(day)s: made"), lang, day=d.isoformat()) for d in starts]
        header += [translate(N_("Week of %(day)s: answered"), lang, day=d.isoformat()) for d in starts]
    lines: list[list[object]] = [header]
    for name, number, levels, weeks in rows:
        for skill in skills:
            cells = weeks.get(skill, ())
            lines.append([number if number is not None else "", name, skill_name(skill, lang),
                          level_name(levels.get(skill, ""), lang) if levels.get(skill) else "",
                          *[c.made for c in cells], *[c.answered for c in cells]])  # fmt: skip
    return csv_bytes(lines)


def alerts_csv(alerts: Sequence[Alert], lang: str, message) -> bytes:  # noqa: ANN001 - Alert → text
    header = [translate(TEXTS["name"], lang), translate(N_("Alert"), lang)]
    return csv_bytes([header, *([alert.pupil, message(alert)] for alert in alerts)])

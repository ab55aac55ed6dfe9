"""Class mode, the pure part: a teacher's settings, the problems, join codes, grading and the results grid.

No Flask and no database here. The web app (suji.web.classroom) keeps sessions, students and answers in its
database and calls these functions; data flows one way:

    form fields ──parse_settings──▶ ClassSettings ──choose_problems──▶ ClassProblem…   (stored with the session)
    formula + ClassProblem + Progress ──grade──▶ new Progress + Attempt                (stored per student)
    problems + every student's Progress + every Attempt ──results──▶ Results ──results_csv──▶ CSV bytes

Problems are chosen exactly as a worksheet chooses them (suji.worksheets.sheet): a class with seed S and version
V is the printed sheet's version V of seed S, problem for problem, so a printed and an online sheet can match.
Answers are checked with the one checker, `suji.rules.scoring.check`; the browser only sends text.
"""

from __future__ import annotations

import csv
import io
import math
import secrets
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from suji.core.errors import SujiError
from suji.core.i18n import N_, translate
from suji.core.nicknames import NicknameError, clean_nickname
from suji.rules.dice import Roll
from suji.rules.formula import format_faces
from suji.rules.scoring import check
from suji.solver.hints import Hint, hints
from suji.solver.search import Solution, solve, solve_at_level
from suji.worksheets import sheet

# Join codes: 6 characters from an alphabet without look-alikes (no 0/O, 1/I/L, 5/S, 2/Z, 8/B), so that a code
# read from the board is typed right. 25 characters: 25⁶ ≈ 244 million codes.
CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"
CODE_LENGTH = 6
# What a pupil may type for a code: lower case, full-width letters and digits, spaces or dashes between groups.
_CODE_INPUT = str.maketrans(
    "０１２３４５６７８９ＡＢＣＤＥＦＧＨＩＪＫＬＭＮＯＰＱＲＳＴＵＶＷＸＹＺ",
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ",
)
MAX_CODE_INPUT = 40

MIN_COUNT, MAX_COUNT = sheet.MIN_COUNT, 20  # a lesson's worth; a worksheet may have up to 40
MAX_TIME_LIMIT = 180  # minutes
MAX_ATTEMPTS = 3  # tries at one problem before it counts as missed
HINT_STEPS = 4  # suji.solver.hints gives four, the last one the whole formula
DEFAULT_RETENTION_DAYS = 30
NOT_TARGET = "not_target"  # the mistake of a valid formula whose value is not a target
SKIPPED = "skipped"  # a problem the pupil moved past without making a target

# Phases of a session as pupils see them.
WAITING, RUNNING, PAUSED, ENDED = "waiting", "running", "paused", "ended"
PHASES = (WAITING, RUNNING, PAUSED, ENDED)

MESSAGES = {
    "count": N_("The number of problems must be a whole number from %(low)s to %(high)s."),
    "version": N_("The worksheet version must be one of %(labels)s."),
    "time_limit": N_(
        "The time limit must be a whole number of minutes from 1 to %(high)s, or empty for none."
    ),
    "yes_no": sheet.ERROR_MESSAGES["yes_no"],
    "no_code": N_("Type the class code from the board."),
    "bad_code": N_("A class code is %(length)s letters and digits, like %(example)s."),
    "unknown_code": N_("There is no class with the code %(given)s. Check the code on the board."),
    "ended": N_("This class session has ended."),
    "name_taken": N_(
        "The name “%(name)s” is already used in this class. Choose another name, or, if it is yours and you are on "
        "another device, ask your teacher to let you join again."
    ),
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
    "not_step": N_("“step” must be a whole number from 0 to %(limit)s."),
    "not_json": N_("Send one JSON object (Content-Type: application/json)."),
}

# The most common mistake on a problem, by the checker's error code, as the dashboard names it.
MISTAKE_NAMES = {
    NOT_TARGET: N_("The value is not a target"),
    SKIPPED: N_("Skipped"),
    "empty": N_("Empty formula"),
    "too_long": N_("Formula too long"),
    "unknown_char": N_("A sign that is on no die"),
    "parentheses": N_("Parentheses"),
    "equals": N_("Wrote “=”"),
    "adjacent_operators": N_("Two operators side by side"),
    "starts_with_operator": N_("Starts with an operator"),
    "ends_with_operator": N_("Ends with an operator"),
    "const_then_number": N_("A number right after ×10, ×11 or ×12"),
    "const_misplaced": N_("×10, ×11 or ×12 in the wrong place"),
    "square_misplaced": N_("² in the wrong place"),
    "root_misplaced": N_("√ in the wrong place"),
    "number_after_square": N_("A number right after ²"),
    "syntax": N_("Cannot be read"),
    "zero": N_("Used a 0"),
    "not_rolled": N_("Used a die that was not rolled"),
    "used_too_often": N_("Used a die twice"),
    "nine_needs_six": N_("A 9 without a 6 die"),
    "division_by_zero": N_("Division by zero"),
}
OTHER_MISTAKE = N_("Another mistake")

# The CSV's and the summary's column names.
TEXTS = {
    "nickname": N_("Name"),
    "total": N_("Total"),
    "best_total": N_("Best score"),
    "problem_score": N_("Problem %(number)s score"),
    "problem_best": N_("Problem %(number)s best possible"),
    "problem_attempts": N_("Problem %(number)s attempts"),
    "problem_hints": N_("Problem %(number)s hints"),
    "problem_solved": N_("Problem %(number)s solved"),
    "problem_formula": N_("Problem %(number)s formula"),
    "yes": N_("yes"),
    "no": N_("no"),
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


# ---- settings and problems ----


@dataclass(frozen=True)
class ClassSettings:
    """What the teacher chose: the problems (as a worksheet's), the time limit and the hints."""

    count: int = 5
    level: sheet.Level = 1  # 1, 2, 3 or sheet.MIXED
    seed: str = ""  # empty: a new seed is chosen when the session is made
    version: int = 0  # the worksheet version (0 is A) whose problems these are
    time_limit: int | None = None  # minutes from the start (pauses not counted); None: no limit
    hints: bool = True
    hint_cost: bool = True  # each hint takes a quarter of the problem's best possible score

    @property
    def version_label(self) -> str:
        return sheet.VERSION_LABELS[self.version]

    def to_dict(self) -> dict:
        return {
            "count": self.count, "level": self.level, "seed": self.seed, "version": self.version,
            "time_limit": self.time_limit, "hints": self.hints, "hint_cost": self.hint_cost,
        }  # fmt: skip

    @classmethod
    def from_dict(cls, data: Mapping) -> ClassSettings:
        return cls(**{k: data[k] for k in cls().to_dict() if k in data})


def _whole(value: str, low: int, high: int) -> int | None:
    text = value.strip().translate(_CODE_INPUT)
    if not text.isascii() or not text.isdigit() or len(text) > 4:
        return None
    number = int(text)
    return number if low <= number <= high else None


def parse_settings(params: Mapping[str, object]) -> tuple[ClassSettings, list[ClassError]]:
    """Read the teacher's form (all strings; missing fields keep their defaults) into settings and errors.

    The level and the seed are read by the worksheet's own reader, so they accept and refuse exactly what the
    worksheet form does (a seed the PDF cannot print is refused here too: the same seed may be printed).
    """
    values: dict[str, object] = {}
    errors: list[ClassError] = []

    def get(name: str) -> str | None:
        value = params.get(name)
        return None if value is None else str(value)[:200]

    raw = get("count")
    if raw is not None:
        count = _whole(raw, MIN_COUNT, MAX_COUNT)
        if count is None:
            errors.append(ClassError("count", "count", low=MIN_COUNT, high=MAX_COUNT))
        else:
            values["count"] = count
    sheet_params = {name: value for name in ("level", "seed") if (value := get(name)) is not None}
    parsed, sheet_errors = sheet.parse_settings(sheet_params)
    errors += [ClassError("sheet", error.field, text=error.message) for error in sheet_errors]
    if "level" in sheet_params and not any(e.field == "level" for e in sheet_errors):
        values["level"] = parsed.level
    if "seed" in sheet_params and not any(e.field == "seed" for e in sheet_errors):
        values["seed"] = parsed.seed
    raw = get("version")
    if raw is not None and raw.strip():
        label = raw.strip().upper()
        if len(label) == 1 and label in sheet.VERSION_LABELS:
            values["version"] = sheet.VERSION_LABELS.index(label)
        else:
            errors.append(ClassError("version", "version", labels=" ".join(sheet.VERSION_LABELS)))
    raw = get("time_limit")
    if raw is not None and raw.strip():
        minutes = _whole(raw, 1, MAX_TIME_LIMIT)
        if minutes is None:
            errors.append(ClassError("time_limit", "time_limit", high=MAX_TIME_LIMIT))
        else:
            values["time_limit"] = minutes
    for name in ("hints", "hint_cost"):
        raw = get(name)
        if raw is not None:
            if raw.strip().lower() in sheet.YES_NO:
                values[name] = raw.strip().lower() == "yes"
            else:
                errors.append(ClassError("yes_no", name))
    return replace(ClassSettings(), **values), errors  # type: ignore[arg-type]


@dataclass(frozen=True)
class ClassProblem:
    """One problem of a class: its number (from 1), level, dice and the best score with every die rolled."""

    number: int
    level: int
    roll: Roll
    best_score: int
    best_formula: str

    def to_dict(self) -> dict:
        return {
            "number": self.number, "level": self.level, "target_dice": list(self.roll.target_dice),
            "number_dice": list(self.roll.number_dice), "operator_dice": list(self.roll.operator_dice),
            "best_score": self.best_score, "best_formula": self.best_formula,
        }  # fmt: skip

    @classmethod
    def from_dict(cls, data: Mapping) -> ClassProblem:
        roll = Roll(tuple(data["target_dice"]), tuple(data["number_dice"]), tuple(data["operator_dice"]))
        return cls(
            int(data["number"]), int(data["level"]), roll, int(data["best_score"]), data["best_formula"]
        )

    def dice(self) -> dict:
        """The dice as the value endpoint (/api/value) takes them: public, the pupil sees them anyway."""
        return {
            "target_dice": list(self.roll.target_dice),
            "number_dice": list(self.roll.number_dice),
            "operator_dice": list(self.roll.operator_dice),
        }


def with_seed(settings: ClassSettings) -> ClassSettings:
    """The settings with a seed: a new random one (6 digits, as a worksheet's) when the teacher gave none."""
    return settings if settings.seed else replace(settings, seed=sheet.new_seed())


def choose_problems(settings: ClassSettings) -> tuple[ClassProblem, ...]:
    """The problems of the worksheet with the same count, level and seed, version `settings.version`.

    The worksheet's key has the best score with the operators of each problem's level; a pupil may use every
    die rolled, so the class compares with the best score of the whole roll, which can be higher.
    """
    if not settings.seed:
        raise ValueError("choose_problems needs a seed (see with_seed)")
    worksheet = sheet.build_worksheet(
        sheet.Settings(count=settings.count, level=settings.level, seed=settings.seed,
                       versions=settings.version + 1, key=False)
    )  # fmt: skip
    problems = []
    for problem in worksheet.versions[settings.version].problems:
        top = solve(problem.roll).top
        assert top is not None  # certified: the level's operators already make a target
        problems.append(ClassProblem(problem.number, problem.level, problem.roll, top.score, top.formula))
    return tuple(problems)


def level_solution(roll: Roll, level: int | None = None) -> Solution:
    """The solver's answer for the roll: with every die (the default, what a class scores against), or with the
    operators of a level only."""
    return solve_at_level(roll, level)


def problem_hints(problem: ClassProblem) -> list[Hint]:
    """The hints of a problem, one step further each. They lead to the best answer with every die rolled, the
    one the class's "best possible" and the hints' price are taken from, so four hints give the whole of it."""
    return hints(problem.roll, level_solution(problem.roll))


def hint_price(problem: ClassProblem, settings: ClassSettings) -> int:
    """Points one hint costs: a quarter of the best possible score (rounded up), or 0 when hints are free.

    Four hints end with the whole best formula, so four hints leave nothing of the best score.
    """
    return math.ceil(problem.best_score / HINT_STEPS) if settings.hint_cost else 0


# ---- join codes and names ----


def new_code(taken: Iterable[str] = ()) -> str:
    """A random join code not in `taken` (the caller's database also refuses duplicates)."""
    used = set(taken)
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if code not in used:
            return code


def clean_code(text: object) -> str:
    """A code as typed (any case, full-width, spaces or dashes) in its stored form, or ClassError."""
    raw = unicodedata.normalize("NFKC", str(text or "")[:MAX_CODE_INPUT]).translate(_CODE_INPUT)
    code = "".join(ch for ch in raw.upper() if ch not in " -_\u3000ー")
    if not code:
        raise ClassError("no_code", "code")
    if len(code) != CODE_LENGTH or not code.isascii() or not code.isalnum():
        raise ClassError("bad_code", "code", length=CODE_LENGTH, example="KM47TQ")
    if any(ch not in CODE_ALPHABET for ch in code):  # the right shape, but no class ever gets such a code
        raise ClassError("unknown_code", "code", given=code)
    return code


def clean_name(name: object) -> str:
    """A pupil's nickname by the leaderboard's rules (suji.core.nicknames), or ClassError."""
    try:
        return clean_nickname(str(name or "")[:200])
    except NicknameError as error:
        raise ClassError(error.code, "nickname") from None


def name_key(name: str) -> str:
    """What two names must not share in one class: "Ken" and "ken" are the same pupil to a teacher."""
    return unicodedata.normalize("NFKC", name).casefold()


# ---- one pupil's go at one problem ----


@dataclass(frozen=True)
class Progress:
    """A pupil's work on one problem so far."""

    attempts: int = 0
    hints_used: int = 0
    solved: bool = False
    done: bool = False  # solved, skipped, or out of attempts: the pupil moves on
    score: int = 0
    formula: str = ""  # the last formula sent

    @property
    def skipped(self) -> bool:
        """Moved past without a target while tries were left (a miss uses them all up)."""
        return self.done and not self.solved and self.attempts < MAX_ATTEMPTS


@dataclass(frozen=True)
class Attempt:
    """One formula sent, as the dashboard counts it: the mistake's code (None when a target was made)."""

    number: int  # 1 for the first attempt at the problem
    formula: str
    error_code: str | None
    score: int
    message_code: str | None = None  # the checker's error, for the pupil (None: made or not a target)
    result: object = field(default=None, compare=False, repr=False)  # the CheckResult


def grade(
    formula: str, problem: ClassProblem, progress: Progress, settings: ClassSettings
) -> tuple[Progress, Attempt]:
    """Check one formula against the problem and move the pupil's progress on.

    A made target ends the problem with its score less the hints' price (never below 0). A formula that cannot
    be used or misses the targets uses up one of MAX_ATTEMPTS tries; after the last, the problem scores 0.
    Raises ClassError for an empty formula or a problem already done (nothing is counted then).
    """
    if progress.done:
        raise ClassError("problem_done")
    text = str(formula)[:200]
    if not text.strip():
        raise ClassError("empty_formula")
    result = check(text, problem.roll)
    number = progress.attempts + 1
    # A formula that reads is kept in print (２１^2 + 4 → 21²+4), as the teacher's grid and the CSV show it; one
    # that does not is kept as typed, mistake and all.
    shown = format_faces([d.face for d in result.dice]) if result.valid else text
    if result.valid and result.target is not None:
        score = max(0, result.score - progress.hints_used * hint_price(problem, settings))
        after = replace(progress, attempts=number, solved=True, done=True, score=score, formula=shown)
        return after, Attempt(number, shown, None, score, result=result)
    code = result.error.code if result.error is not None else NOT_TARGET
    after = replace(progress, attempts=number, done=number >= MAX_ATTEMPTS, score=0, formula=shown)
    return after, Attempt(number, shown, code, 0, message_code=code, result=result)


def skip(progress: Progress) -> Progress:
    """Move past a problem without a target: it scores 0."""
    if progress.done:
        raise ClassError("problem_done")
    return replace(progress, done=True, score=0)


def take_hint(
    problem: ClassProblem, progress: Progress, settings: ClassSettings, step: int
) -> tuple[Progress, Hint]:
    """Hint `step` (0 first): a new hint is counted (and priced), one already shown is shown again for free."""
    if not settings.hints:
        raise ClassError("no_hints")
    if progress.done:
        raise ClassError("problem_done")
    shown = problem_hints(problem)
    if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step < len(shown):
        raise ClassError("not_step", limit=len(shown) - 1)
    if step > progress.hints_used:  # hints come in order: the next one, or one seen before
        raise ClassError("not_step", limit=min(progress.hints_used, len(shown) - 1))
    if step == progress.hints_used:
        progress = replace(progress, hints_used=step + 1)
    return progress, shown[step]


# ---- the results grid ----


@dataclass(frozen=True)
class StudentRow:
    """One pupil's line of the grid: a cell per problem (None: not reached), their total and the best possible."""

    name: str
    cells: tuple[Progress | None, ...]
    total: int
    best_total: int
    position: int = 0  # the problem the pupil is on (0-based; the number of problems when finished)

    @property
    def answered(self) -> int:
        return sum(1 for c in self.cells if c is not None and c.attempts)


@dataclass(frozen=True)
class ProblemColumn:
    """One problem's column: how many tried it, solved it, and the most common mistake."""

    problem: ClassProblem
    tried: int
    solved: int
    students: int
    attempts: int
    mistake: str | None  # an error code, NOT_TARGET or SKIPPED; None when nobody went wrong
    mistake_count: int

    @property
    def share_solved(self) -> float:
        """Solved by this share of the class's pupils (0 when nobody has joined)."""
        return self.solved / self.students if self.students else 0.0

    @property
    def percent_solved(self) -> int:
        return round(100 * self.share_solved)


@dataclass(frozen=True)
class Results:
    """The whole grid: pupils in joining order, problems in order, and the counts the dashboard shows."""

    problems: tuple[ClassProblem, ...]
    rows: tuple[StudentRow, ...]
    columns: tuple[ProblemColumn, ...]

    @property
    def attempts(self) -> int:
        return sum(c.attempts for row in self.rows for c in row.cells if c is not None)

    @property
    def best_total(self) -> int:
        return sum(p.best_score for p in self.problems)


def mistake_name(code: str | None, lang: str) -> str:
    """The dashboard's words for a mistake code, in `lang`."""
    if code is None:
        return ""
    return translate(MISTAKE_NAMES.get(code, OTHER_MISTAKE), lang)


def results(
    problems: Sequence[ClassProblem],
    students: Sequence[tuple[str, int, Mapping[int, Progress]]],
    mistakes: Iterable[tuple[int, str, int]],
) -> Results:
    """The grid from the stored data: each pupil as (name, position, {problem index: progress}); `mistakes` as
    (problem index, code, how many times) over the attempts that missed and the problems skipped.

    The most common mistake of a problem is the code counted most often; ties go to the code first in
    alphabetical order, so that every app server shows the same one.
    """
    best_total = sum(p.best_score for p in problems)
    rows = []
    for name, position, work in students:
        cells = tuple(work.get(i) for i in range(len(problems)))
        total = sum(c.score for c in cells if c is not None and c.done)
        rows.append(StudentRow(name, cells, total, best_total, position))
    counted: dict[int, Counter] = {}
    for index, code, times in mistakes:
        counted.setdefault(index, Counter())[code] += times
    columns = []
    for i, problem in enumerate(problems):
        cells_i = [row.cells[i] for row in rows if row.cells[i] is not None]
        ranked = sorted(counted.get(i, Counter()).items(), key=lambda item: (-item[1], item[0]))
        columns.append(ProblemColumn(
            problem, tried=sum(1 for c in cells_i if c.attempts or c.done),
            solved=sum(1 for c in cells_i if c.solved), students=len(rows),
            attempts=sum(c.attempts for c in cells_i),
            mistake=ranked[0][0] if ranked else None, mistake_count=ranked[0][1] if ranked else 0,
        ))  # fmt: skip
    return Results(tuple(problems), tuple(rows), tuple(columns))


def _cell_text(text: str) -> str:
    """A spreadsheet cell that cannot be read as a formula: a name starting with - (allowed) gets a quote mark."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


def results_csv(grid: Results, lang: str) -> bytes:
    """The grid as CSV in UTF-8 with a byte-order mark (so a spreadsheet reads Japanese names right).

    One row per pupil: name, total, best possible, then per problem the score, the attempts, the hints used,
    whether it was solved (or skipped) and the last formula sent. A problem not reached is left empty.
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    header = [translate(TEXTS[k], lang) for k in ("nickname", "total", "best_total")]
    for p in grid.problems:
        header += [translate(TEXTS[k], lang, number=p.number)
                   for k in ("problem_score", "problem_best", "problem_attempts", "problem_hints",
                             "problem_solved", "problem_formula")]  # fmt: skip
    writer.writerow(header)
    yes, no = translate(TEXTS["yes"], lang), translate(TEXTS["no"], lang)
    skipped = translate(MISTAKE_NAMES[SKIPPED], lang)  # moved on with tries left, apart from a miss
    for row in grid.rows:
        line: list[object] = [_cell_text(row.name), row.total, row.best_total]
        for problem, cell in zip(grid.problems, row.cells, strict=True):
            if cell is None:
                line += ["", problem.best_score, "", "", "", ""]
            else:
                solved = yes if cell.solved else skipped if cell.skipped else no
                line += [cell.score if cell.done else "", problem.best_score, cell.attempts, cell.hints_used,
                         solved, _cell_text(cell.formula)]  # fmt: skip
        writer.writerow(line)
    return "\ufeff".encode() + out.getvalue().encode("utf-8")

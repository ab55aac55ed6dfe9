"""The results grid of a class: pupils × problems, each pupil's total, and per problem the share solved and the
most common mistake; and the same grid as CSV for a spreadsheet.

    problems + every pupil's Progress + every Attempt's mistake ──results──▶ Results ──results_csv──▶ CSV bytes
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from suji.core.decimals import round_half_up
from suji.core.i18n import N_, translate
from suji.core.spreadsheet import csv_bytes
from suji.play.classroom.grading import NOT_TARGET, SKIPPED, Progress
from suji.play.classroom.misses import MissSummary, summarize
from suji.play.classroom.settings import ClassProblem

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
    "number": N_("No."),
    "nickname": N_("Name"),
    "total": N_("Total"),
    "best_total": N_("Best score"),
    "problem_score": N_("Problem %(number)s score"),
    "problem_best": N_("Problem %(number)s best possible"),
    "problem_attempts": N_("Problem %(number)s attempts"),
    "problem_hints": N_("Problem %(number)s hints"),
    "problem_solved": N_("Problem %(number)s solved"),
    "problem_outcome": N_("Problem %(number)s outcome"),
    "outcome_made": N_("made a target"),
    "outcome_missed": N_("no target in the tries"),
    "problem_formula": N_("Problem %(number)s formula"),
    "yes": N_("yes"),
    "no": N_("no"),
    "solved": N_("solved"),  # ○ in Japanese, as a school marks it
    "not_solved": N_("not solved"),  # ×
}


@dataclass(frozen=True)
class StudentRow:
    """One pupil's line of the grid: a cell per problem (None: not reached), their total and the best possible."""

    name: str
    cells: tuple[Progress | None, ...]
    total: int
    best_total: int
    position: int = 0  # the problem the pupil is on (0-based; the number of problems when finished)
    number: int | None = None  # the class number (出席番号), when the pupil gave one or the roster has it

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
    misses: MissSummary | None = None  # what the not-target tries made and left out (suji.play.classroom.misses)

    def mistake_lines(self, lang: str) -> list[str]:
        """What the grid writes under the most common mistake: for "not a target", what was made instead."""
        if self.mistake == NOT_TARGET and self.misses is not None:
            return self.misses.lines(lang)
        return []

    @property
    def share_solved(self) -> Fraction:
        """Solved by this share of the class's pupils (0 when nobody has joined), exact."""
        return Fraction(self.solved, self.students) if self.students else Fraction(0)

    @property
    def percent_solved(self) -> int:
        """The share as a whole percentage, rounded half up (1 of 8 is 13%)."""
        return int(round_half_up(100 * self.share_solved))


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
    students: Sequence[tuple[str, int, Mapping[int, Progress]] | tuple[str, int, Mapping[int, Progress], int | None]],
    mistakes: Iterable[tuple[int, str, int]],
    not_targets: Mapping[int, Sequence[str]] | None = None,
) -> Results:
    """The grid from the stored data: each pupil as (name, position, {problem index: progress}[, class number]),
    in the order they joined, the pupils with a class number first in its order; `mistakes` as
    (problem index, code, how many times) over the attempts that missed and the problems skipped;
    `not_targets` the formulas sent that made no target, by problem index (what those pupils made instead).

    The most common mistake of a problem is the code counted most often; ties go to the code first in
    alphabetical order, so that every app server shows the same one.
    """
    best_total = sum(p.best_score for p in problems)
    rows = []
    for name, position, work, *number in students:
        cells = tuple(work.get(i) for i in range(len(problems)))
        total = sum(c.score for c in cells if c is not None and c.done)
        rows.append(StudentRow(name, cells, total, best_total, position, number[0] if number else None))
    rows.sort(key=lambda row: (row.number is None, row.number or 0))  # stable: otherwise in the order they joined
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
            misses=summarize(problem.roll, (not_targets or {}).get(i, ())),
        ))  # fmt: skip
    return Results(tuple(problems), tuple(rows), tuple(columns))


def results_csv(grid: Results, lang: str) -> bytes:
    """The grid as CSV in UTF-8 with a byte-order mark (so a spreadsheet reads Japanese names right).

    One row per pupil: their class number (出席番号, when given), name, total, best possible, then
    per problem the score, the best possible, the attempts, the hints used, whether it was solved (○ or ×: one
    of two values, for a spreadsheet to count), how it ended (made a target, no target in the tries, or
    skipped) and the last formula sent. A problem not reached, or not finished, is left empty there.
    """
    header = [translate(TEXTS[k], lang) for k in ("number", "nickname", "total", "best_total")]
    for p in grid.problems:
        header += [translate(TEXTS[k], lang, number=p.number)
                   for k in ("problem_score", "problem_best", "problem_attempts", "problem_hints",
                             "problem_solved", "problem_outcome", "problem_formula")]  # fmt: skip
    lines: list[list[object]] = [header]
    yes, no = translate(TEXTS["solved"], lang), translate(TEXTS["not_solved"], lang)
    outcomes = {"made": translate(TEXTS["outcome_made"], lang), "missed": translate(TEXTS["outcome_missed"], lang),
                "skipped": translate(MISTAKE_NAMES[SKIPPED], lang)}  # fmt: skip
    for row in grid.rows:
        line: list[object] = ["" if row.number is None else row.number, row.name, row.total, row.best_total]
        for problem, cell in zip(grid.problems, row.cells, strict=True):
            if cell is None:
                line += ["", problem.best_score, "", "", "", "", ""]
            else:
                outcome = "made" if cell.solved else "skipped" if cell.skipped else "missed"
                line += [cell.score if cell.done else "", problem.best_score, cell.attempts, cell.hints_used,
                         (yes if cell.solved else no) if cell.done else "",
                         outcomes[outcome] if cell.done else "", cell.formula]  # fmt: skip
        lines.append(line)
    return csv_bytes(lines)  # every text cell guarded against formulas (suji.core.spreadsheet)

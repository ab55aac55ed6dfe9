"""One pupil's go at one problem: tries, hints and the score, as frozen values and pure moves.

    formula + ClassProblem + Progress ──grade──▶ new Progress + Attempt      (stored per pupil and problem)
    Progress ──skip / take_hint──▶ new Progress

Answers are checked with the one checker, `suji.rules.scoring.check`; the browser only sends text. A made target
scores the check's score less the hints' price (never below 0); MAX_ATTEMPTS misses end the problem at 0. A formula
the checker refuses (a typo, a die not rolled or used twice) is no try, as in practice: its FormulaError is raised
and nothing is counted, so a slip of the finger never costs a pupil one of three tries (nor, where only the first
try counts, the problem).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from suji.core.i18n import N_, sentences, translate
from suji.play.classroom.errors import ClassError
from suji.play.classroom.settings import ClassProblem, ClassSettings
from suji.rules.dice import Roll
from suji.rules.language.errors import FormulaError
from suji.rules.language.printing import format_faces
from suji.rules.language.reader import formula_field
from suji.rules.scoring import check
from suji.solver.hints import Hint, hints
from suji.solver.search import Solution, solve_at_level

MAX_ATTEMPTS = 3  # tries at one problem before it counts as missed
HINT_STEPS = 4  # suji.solver.hints gives four, the last one the whole formula
NOT_TARGET = "not_target"  # the mistake of a valid formula whose value is not a target
SKIPPED = "skipped"  # a problem the pupil moved past without making a target
# Said after the checker's message when a formula it refuses was sent: the pupil's tries are as they were.
NOT_A_TRY = N_("Mend it and send it again: this did not use up a try.")


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
    """One try, as the dashboard counts it: None when a target was made, else NOT_TARGET (older rows of the
    database may hold a checker's code from before such formulas stopped counting as tries)."""

    number: int  # 1 for the first attempt at the problem
    formula: str
    error_code: str | None
    score: int
    result: object = field(default=None, compare=False, repr=False)  # the CheckResult


def grade(
    formula: str, problem: ClassProblem, progress: Progress, settings: ClassSettings
) -> tuple[Progress, Attempt]:
    """Check one formula against the problem and move the pupil's progress on.

    A made target ends the problem with its score less the hints' price (never below 0). A formula whose value
    misses the targets uses up one of MAX_ATTEMPTS tries; after the last, the problem scores 0. Raises ClassError
    for an empty formula or a problem already done, and the checker's FormulaError for a formula it refuses
    (nothing is counted then: the pupil mends it and sends it again).
    """
    if progress.done:
        raise ClassError("problem_done")
    text = formula_field(formula)
    if not text.strip():
        raise ClassError("empty_formula")
    result = check(text, problem.roll)
    if result.error is not None:
        raise result.error
    number = progress.attempts + 1
    shown = format_faces([d.face for d in result.dice])  # in print (２１^2 + 4 → 21²+4), as the grid and CSV show it
    if result.target is not None:
        score = max(0, result.score - progress.hints_used * hint_price(problem, settings))
        after = replace(progress, attempts=number, solved=True, done=True, score=score, formula=shown)
        return after, Attempt(number, shown, None, score, result=result)
    after = replace(progress, attempts=number, done=number >= MAX_ATTEMPTS, score=0, formula=shown)
    return after, Attempt(number, shown, NOT_TARGET, 0, result=result)


def not_a_try(error: FormulaError, lang: str) -> str:
    """What a pupil reads when the checker refused the formula sent: its message, and that no try was used."""
    return sentences(lang, error.message(lang), translate(NOT_A_TRY, lang))


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

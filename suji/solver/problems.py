"""Problems certified solvable by the solver: drill, worksheet and class rolls at levels 1–3.

Level 1: + and − are enough. Level 2: the roll has × ÷ or a constant die, and + − × ÷ ×10 ×11 ×12 are enough.
Level 3: the roll has ² or √, and any operator may be used. Each problem comes with the solver's answer for the
operators of its level (the student may still use every die rolled).

The problem choice that worksheets and class sessions share: version k (0 for A) of seed S draws its rolls from
``random.Random(f"{S}/v{k+1}")`` (`version_seed`, `version_problems`), so a printed sheet and a class with the same
count, level, seed and version have the same problems. On a mixed set the same stream picks each problem's level.
Rolls whose best score is 0 (a bare number is a target) are skipped: nothing to practise.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass

from suji.core.caching import bounded
from suji.core.errors import SujiError
from suji.core.i18n import N_
from suji.core.text import FULL_WIDTH_DIGITS, clean_line, quoted_chars, unprintable_chars
from suji.rules.dice import Roll, roll_standard
from suji.solver.levels import LEVEL_OPERATORS, LEVELS
from suji.solver.search import Solution, keep_solution, solve

MIXED = "mixed"  # the level of a set whose problems each get a level 1, 2 or 3 from the seed
Level = int | str  # 1, 2, 3 or MIXED
VERSION_LABELS = "ABCDEF"  # one letter per version of a problem set (a sheet's, a class's)
MAX_SEED_LENGTH = 40
# What each level lets a pupil use, as the drills and the worksheets name it.
LEVEL_NAMES = {
    1: N_("Level 1: + and −"),
    2: N_("Level 2: also × ÷ ×10 ×11 ×12"),
    3: N_("Level 3: also ² and √"),
}
# Each level but the first asks for a die that needs it, so a level-3 roll always shows ² or √.
_NEW_AT_LEVEL = {
    1: frozenset(),
    2: LEVEL_OPERATORS[2] - LEVEL_OPERATORS[1],
    3: LEVEL_OPERATORS[3] - LEVEL_OPERATORS[2],
}
MAX_ATTEMPTS = 500


@dataclass
class Problem:
    """A certified roll and the solver's answer at its level."""

    roll: Roll
    level: int
    solution: Solution


def certified_roll(level: int, seed: int | str | random.Random | None = None) -> Problem:
    """A standard roll that can make a target with the operators of `level`, from a seed (reproducible).

    The solution it was certified with is kept as the solver's answer at that level (`solve_at_level`), so the
    drill that shows the roll does not solve it again.
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {LEVELS}")
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    for _ in range(MAX_ATTEMPTS):
        roll = roll_standard(rng)
        if _NEW_AT_LEVEL[level] and not _NEW_AT_LEVEL[level] & set(roll.operator_dice):
            continue
        solution = solve(roll, LEVEL_OPERATORS[level])
        if solution.best:
            keep_solution(solution, level)
            return Problem(roll, level, solution)
    raise RuntimeError("no solvable roll found")  # pragma: no cover - every level finds one in a few tries


def problem_set(count: int, level: int, seed: int | str) -> list[Problem]:
    """`count` certified problems from one seed: the same seed gives the same problems."""
    rng = random.Random(f"{seed}/{level}")
    return [certified_roll(level, rng) for _ in range(count)]


# What a bad level or seed is told, by a worksheet's form and a class's alike.
CHOICE_MESSAGES = {
    "level": N_("The level must be 1, 2, 3 or mixed."),
    "seed": N_("The seed must be at most %(high)s characters, without control characters."),
    "seed_font": N_("The PDF cannot print %(chars)s in the seed. Please use other characters."),
}


class ChoiceError(SujiError):
    """A setting of a problem set that cannot be used: `field` names the form field, `code` keys MESSAGES."""

    MESSAGES = CHOICE_MESSAGES

    def __init__(self, field: str, code: str | None = None, **params: object) -> None:
        super().__init__(code or field, **params)
        self.field = field

    def message_params(self, lang: str) -> dict:
        params = super().message_params(lang)
        if "chars" in params:
            params["chars"] = quoted_chars(params["chars"], lang)  # type: ignore[arg-type]
        return params


def read_seed(text: str) -> str:
    """A seed as typed (outer spaces off, NFC): at most MAX_SEED_LENGTH characters, none that is a control
    character or that the printed sheet cannot draw (the same seed may be printed). Raises ChoiceError."""
    seed = clean_line(text)
    if seed is None or len(seed) > MAX_SEED_LENGTH:
        raise ChoiceError("seed", high=MAX_SEED_LENGTH)
    if bad := unprintable_chars(seed):
        # Refused rather than dropped: the teacher sees at once what will not print.
        raise ChoiceError("seed", "seed_font", chars=bad)
    return seed


def read_level(text: str) -> Level | None:
    """A level as a form or the command line gives it: 1, 2 or 3 (full-width digits too) or "mixed"; else None."""
    folded = str(text).strip().translate(FULL_WIDTH_DIGITS)
    if folded.lower() == MIXED:
        return MIXED
    if folded.isascii() and folded.isdigit() and len(folded) <= 4 and int(folded) in LEVELS:
        return int(folded)
    return None


def new_seed() -> str:
    """A fresh random seed, short enough to copy from paper (6 digits)."""
    return f"{secrets.randbelow(900000) + 100000}"


def version_seed(seed: str, index: int) -> str:
    """The seed of version `index` (0 for A): each version rolls its own dice, all from the set's seed."""
    return f"{seed}/v{index + 1}"


@dataclass(frozen=True)
class NumberedProblem:
    """One problem of a set: its number (from 1) and the certified problem (roll, level, solution)."""

    number: int
    problem: Problem

    @property
    def roll(self) -> Roll:
        return self.problem.roll

    @property
    def level(self) -> int:
        return self.problem.level


@bounded("version_problems")
def version_problems(count: int, level: Level, seed: str) -> tuple[NumberedProblem, ...]:
    """`count` certified problems of one version (`seed` is the version's, see `version_seed`), each with a best
    score above 0 at its level; on a MIXED set each problem's level comes from the same stream as its dice."""
    rng = random.Random(seed)
    problems: list[NumberedProblem] = []
    while len(problems) < count:
        problem_level = rng.choice(LEVELS) if level == MIXED else int(level)
        problem = certified_roll(problem_level, rng)
        top = problem.solution.top
        assert top is not None  # certified: at least one target is reachable at this level
        if top.score == 0:
            # Only a bare number makes a target (236 from 2 3 6): nothing to practise, so roll again.
            continue
        problems.append(NumberedProblem(len(problems) + 1, problem))
    return tuple(problems)

"""A class session's settings and problems: what the teacher chose, read from the form, and the problems it gives.

    form fields ──parse_settings──▶ ClassSettings ──with_seed, choose_problems──▶ ClassProblem…   (stored)

Problems are chosen exactly as a worksheet chooses them (suji.solver.problems.version_problems): a class with
seed S and version V is the printed sheet's version V of seed S, problem for problem.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from suji.core.text import whole_number
from suji.play.classroom.errors import ClassError
from suji.rules.dice import OPERATOR_FACES, Roll
from suji.solver.problems import (
    VERSION_LABELS,
    ChoiceError,
    Level,
    new_seed,
    read_level,
    read_seed,
    version_problems,
    version_seed,
)
from suji.solver.search import LEVEL_OPERATORS, solve

EVERY_OPERATOR = frozenset(OPERATOR_FACES)

MIN_COUNT, MAX_COUNT = 1, 20  # a lesson's worth; a worksheet may have up to 40
MAX_TIME_LIMIT = 180  # minutes
DEFAULT_RETENTION_DAYS = 30  # sessions are deleted this long after they were made (the app may set another)
YES_NO = ("yes", "no")


def _sheet_error(error: ChoiceError) -> ClassError:
    """A level or seed refused as the worksheet's form refuses it, in its words."""
    return ClassError("sheet", error.field, text=error.message)


@dataclass(frozen=True)
class ClassSettings:
    """What the teacher chose: the problems (as a worksheet's), the time limit and the hints."""

    count: int = 5
    level: Level = 1  # 1, 2, 3 or MIXED
    seed: str = ""  # empty: a new seed is chosen when the session is made
    version: int = 0  # the worksheet version (0 is A) whose problems these are
    time_limit: int | None = None  # minutes from the start (pauses not counted); None: no limit
    hints: bool = True
    hint_cost: bool = True  # each hint takes a quarter of the problem's best possible score

    @property
    def version_label(self) -> str:
        return VERSION_LABELS[self.version]

    def to_dict(self) -> dict:
        return {
            "count": self.count, "level": self.level, "seed": self.seed, "version": self.version,
            "time_limit": self.time_limit, "hints": self.hints, "hint_cost": self.hint_cost,
        }  # fmt: skip

    @classmethod
    def from_dict(cls, data: Mapping) -> ClassSettings:
        return cls(**{k: data[k] for k in cls().to_dict() if k in data})


def parse_settings(params: Mapping[str, object]) -> tuple[ClassSettings, list[ClassError]]:
    """Read the teacher's form (all strings; missing fields keep their defaults) into settings and errors.

    The level and the seed are read as a worksheet's form reads them (suji.solver.problems), so they accept and
    refuse exactly what the worksheet form does (a seed the PDF cannot print is refused here too: the same seed
    may be printed).
    """
    values: dict[str, object] = {}
    errors: list[ClassError] = []

    def get(name: str) -> str | None:
        value = params.get(name)
        return None if value is None else str(value)[:200]

    raw = get("count")
    if raw is not None:
        count = whole_number(raw, MIN_COUNT, MAX_COUNT)
        if count is None:
            errors.append(ClassError("count", "count", low=MIN_COUNT, high=MAX_COUNT))
        else:
            values["count"] = count
    raw = get("level")
    if raw is not None:
        level = read_level(raw)
        if level is None:
            errors.append(_sheet_error(ChoiceError("level")))
        else:
            values["level"] = level
    raw = get("seed")
    if raw is not None:
        try:
            values["seed"] = read_seed(raw)
        except ChoiceError as error:
            errors.append(_sheet_error(error))
    raw = get("version")
    if raw is not None and raw.strip():
        label = raw.strip().upper()
        if len(label) == 1 and label in VERSION_LABELS:
            values["version"] = VERSION_LABELS.index(label)
        else:
            errors.append(ClassError("version", "version", labels=" ".join(VERSION_LABELS)))
    raw = get("time_limit")
    if raw is not None and raw.strip():
        minutes = whole_number(raw, 1, MAX_TIME_LIMIT)
        if minutes is None:
            errors.append(ClassError("time_limit", "time_limit", high=MAX_TIME_LIMIT))
        else:
            values["time_limit"] = minutes
    for name in ("hints", "hint_cost"):
        raw = get(name)
        if raw is not None:
            if raw.strip().lower() in YES_NO:
                values[name] = raw.strip().lower() == "yes"
            else:
                errors.append(ClassError("yes_no", name))
    return replace(ClassSettings(), **values), errors  # type: ignore[arg-type]


@dataclass(frozen=True)
class ClassProblem:
    """One problem of a class: its number (from 1), level, dice and the best score with every die rolled.

    `key_score` is the best score the printed worksheet's key gives: with the operators of the problem's level
    only, so it can be lower (None for a session made before it was kept).
    """

    number: int
    level: int
    roll: Roll
    best_score: int
    best_formula: str
    key_score: int | None = None

    @property
    def key_differs(self) -> bool:
        """Whether the printed key's best is lower than the class's (a level 1 or 2 problem, other dice help)."""
        return self.key_score is not None and self.key_score != self.best_score

    def to_dict(self) -> dict:
        return {
            "number": self.number, "level": self.level, "target_dice": list(self.roll.target_dice),
            "number_dice": list(self.roll.number_dice), "operator_dice": list(self.roll.operator_dice),
            "best_score": self.best_score, "best_formula": self.best_formula, "key_score": self.key_score,
        }  # fmt: skip

    @classmethod
    def from_dict(cls, data: Mapping) -> ClassProblem:
        roll = Roll(tuple(data["target_dice"]), tuple(data["number_dice"]), tuple(data["operator_dice"]))
        key = data.get("key_score")
        return cls(
            int(data["number"]), int(data["level"]), roll, int(data["best_score"]), data["best_formula"],
            None if key is None else int(key),
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
    return settings if settings.seed else replace(settings, seed=new_seed())


def choose_problems(settings: ClassSettings) -> tuple[ClassProblem, ...]:
    """The problems of the worksheet with the same count, level and seed, version `settings.version`.

    The worksheet's key has the best score with the operators of each problem's level; a pupil may use every
    die rolled, so the class compares with the best score of the whole roll, which can be higher.
    """
    if not settings.seed:
        raise ValueError("choose_problems needs a seed (see with_seed)")
    chosen = version_problems(settings.count, settings.level, version_seed(settings.seed, settings.version))
    problems = []
    for problem in chosen:
        # At level 3 every operator counts already: the level's solution is the whole roll's (no second solve).
        whole = problem.problem.solution if LEVEL_OPERATORS[problem.level] >= EVERY_OPERATOR else solve(problem.roll)
        top, key = whole.top, problem.problem.solution.top
        assert top is not None and key is not None  # certified: the level's operators already make a target
        problems.append(
            ClassProblem(problem.number, problem.level, problem.roll, top.score, top.formula, key.score)
        )
    return tuple(problems)

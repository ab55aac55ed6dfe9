"""Class mode, the pure part: a teacher's settings, the problems, join codes, grading, the clock and the results.

No Flask and no database here. The web app (suji.web.classroom) keeps sessions, pupils and answers in its
database and calls these functions; data flows one way, each module reading only the ones before it:

    errors    ClassError: every refusal of class mode, translated at the edge
      → settings  form fields ──parse_settings──▶ ClassSettings ──choose_problems──▶ ClassProblem…  (stored)
      → codes     the join code and the pupil's name as typed, in their stored forms
      → grading   formula + ClassProblem + Progress ──grade──▶ new Progress + Attempt       (stored per pupil)
      → clock     Clock + now ──start, pause, more_time, end──▶ Clock; phase, seconds left, time up
      → results   problems + every Progress + every Attempt ──results──▶ Results ──results_csv──▶ CSV bytes

Problems are chosen exactly as a worksheet chooses them (suji.solver.problems): a class with seed S and version V
is the printed sheet's version V of seed S, problem for problem. Answers are checked with the one checker,
`suji.rules.scoring.check`; the browser only sends text. The names other code imports are all here.
"""

from __future__ import annotations

from suji.play.classroom import clock
from suji.play.classroom.clock import ENDED, EXTRA_MINUTES, PAUSED, PHASES, RUNNING, WAITING, Clock
from suji.play.classroom.codes import (
    CODE_ALPHABET,
    CODE_LENGTH,
    MAX_CLASS_NUMBER,
    MAX_CODE_INPUT,
    clean_class_number,
    clean_code,
    clean_name,
    name_key,
    new_code,
)
from suji.play.classroom.errors import MESSAGES, ClassError
from suji.play.classroom.grading import (
    HINT_STEPS,
    MAX_ATTEMPTS,
    NOT_TARGET,
    SKIPPED,
    Attempt,
    Progress,
    grade,
    hint_price,
    level_solution,
    not_a_try,
    problem_hints,
    skip,
    take_hint,
)
from suji.play.classroom.results import (
    MISTAKE_NAMES,
    OTHER_MISTAKE,
    TEXTS,
    ProblemColumn,
    Results,
    StudentRow,
    mistake_name,
    results,
    results_csv,
)
from suji.play.classroom.settings import (
    DEFAULT_RETENTION_DAYS,
    MAX_COUNT,
    MAX_TIME_LIMIT,
    MIN_COUNT,
    ClassProblem,
    ClassSettings,
    choose_problems,
    parse_settings,
    with_seed,
)

__all__ = [
    "CODE_ALPHABET", "CODE_LENGTH", "DEFAULT_RETENTION_DAYS", "ENDED", "EXTRA_MINUTES", "HINT_STEPS",
    "MAX_ATTEMPTS", "MAX_CLASS_NUMBER", "MAX_CODE_INPUT", "MAX_COUNT", "MAX_TIME_LIMIT", "MESSAGES", "MIN_COUNT", "MISTAKE_NAMES",
    "NOT_TARGET", "OTHER_MISTAKE", "PAUSED", "PHASES", "RUNNING", "SKIPPED", "TEXTS", "WAITING", "Attempt",
    "ClassError", "ClassProblem", "ClassSettings", "Clock", "ProblemColumn", "Progress", "Results", "StudentRow",
    "choose_problems", "clean_class_number", "clean_code", "clean_name", "clock", "grade", "hint_price", "level_solution",
    "mistake_name", "not_a_try", "name_key", "new_code", "parse_settings", "problem_hints", "results", "results_csv", "skip",
    "take_hint", "with_seed",
]  # fmt: skip

"""Hints from the solver, one step further each, and "still on track?" for a formula being written."""

from __future__ import annotations

from dataclasses import dataclass, field

from suji.core.i18n import N_, translate
from suji.rules.dice import Roll
from suji.rules.language.errors import FormulaError
from suji.rules.language.reader import prefix_readings
from suji.rules.scoring import check_dice
from suji.solver.search import Best, Solution, preferred, solve

HINT_TEXT = {
    "none": N_("No target can be made with these dice. Re-roll some dice or set a face."),
    "targets": N_("These targets can be made: %(targets)s."),
    "shape": N_(
        "The best answer makes %(target)s with %(numbers)s number dice and these operators: %(operators)s."
    ),
    "shape_no_ops": N_("The best answer makes %(target)s with %(numbers)s number dice and no operator."),
    "first_number": N_("The best answer starts with %(first)s."),
    "formula": N_("A best answer: %(formula)s = %(target)s (%(score)s points)."),
}
TRACK_TEXT = {
    "on_track": N_("Still on track: the dice left can finish this to %(targets)s."),
    "off_track": N_("Off track: the dice left cannot finish this to any target."),
    "empty": N_("Start writing a formula, then ask again."),
}
MAX_HINT_LEVEL = 4


@dataclass
class Hint:
    """One hint: `level` 1 (which targets) to 4 (the whole best formula), with its data and text."""

    level: int
    kind: str
    data: dict = field(default_factory=dict)

    def message(self, lang: str = "en") -> str:
        return translate(HINT_TEXT[self.kind], lang, **self.data)

    def to_dict(self, lang: str = "en") -> dict:
        return {"level": self.level, "kind": self.kind, "data": self.data, "message": self.message(lang)}


def first_number(best: Best) -> str:
    """The first number of a formula, with a leading − or √ if it has one (e.g. 21 in 21²+4+1)."""
    text = ""
    for face in best.faces:
        if type(face) is int:
            text += str(face)
        elif text:
            break
        else:
            text += str(face)
    return text


def hints(roll: Roll, solution: Solution | None = None, target: int | None = None) -> list[Hint]:
    """The four hints for a roll, each one step further (or a single "none" hint).

    They follow the best answer overall, or the best answer for `target` when it is given and reachable.
    """
    solution = solution or solve(roll)
    best = solution.best.get(target) if target is not None else None
    best = best or solution.top
    if best is None:
        return [Hint(1, "none")]
    operators = [str(f) for f in best.faces if type(f) is str]
    numbers = sum(1 for f in best.faces if type(f) is int)
    shape = (
        Hint(2, "shape", {"target": best.target, "numbers": numbers, "operators": " ".join(operators)})
        if operators
        else Hint(2, "shape_no_ops", {"target": best.target, "numbers": numbers})
    )
    return [
        Hint(1, "targets", {"targets": " ".join(map(str, solution.reachable))}),
        shape,
        Hint(3, "first_number", {"first": first_number(best)}),
        Hint(4, "formula", {"formula": best.formula, "target": best.target, "score": best.score}),
    ]


@dataclass
class Track:
    """Whether the start of a formula can still be finished to a target with the dice left."""

    prefix: str
    on_track: bool
    targets: list[int]
    best: Best | None = None  # the best irreducible finish (solutions: how many finishes for its target)
    error: FormulaError | None = None

    def message(self, lang: str = "en") -> str:
        if self.error is not None:
            return self.error.message(lang)
        if self.on_track:
            return translate(TRACK_TEXT["on_track"], lang, targets=" ".join(map(str, self.targets)))
        return translate(TRACK_TEXT["off_track"], lang)

    def to_dict(self, lang: str = "en") -> dict:
        return {
            "prefix": self.prefix,
            "on_track": self.on_track,
            "targets": self.targets,
            "best": self.best.to_dict() | {"target": self.best.target} if self.best else None,
            "error": self.error.to_dict(lang) if self.error else None,
            "message": self.message(lang),
        }


def on_track(prefix: str, roll: Roll, solution: Solution | None = None) -> Track:
    """Can the dice left still finish `prefix` (the start of a formula) to some target, and to which?"""
    constants = sum(1 for f in roll.operator_dice if f.startswith("×1"))
    try:
        if not prefix.strip():
            raise FormulaError("empty")
        readings = prefix_readings(prefix, constant_dice=constants)
    except FormulaError as error:
        return Track(prefix, False, [], error=error)
    solution = solution or solve(roll)
    first_error = None
    targets: set[int] = set()
    best: Best | None = None
    for dice in readings:
        try:
            check_dice(dice, roll)
        except FormulaError as error:
            first_error = first_error or error
            continue
        start = tuple(d.face for d in dice)
        n = len(start)
        for target, hits in solution.hits.items():
            if any(h[:n] == start for h in hits):
                targets.add(target)
        # The same answer whatever order the solver listed the formulas in (it follows the order sets are
        # filled in, which differs between server processes): the preferred finish, the smallest target on a tie.
        for target in sorted(solution.formulas):
            finishes = [f for f in solution.formulas[target] if f[:n] == start]
            if finishes:
                score, faces = preferred(finishes)
                if best is None or score > best.score:
                    best = Best(target, score, faces, len(finishes))
    if not targets and first_error is not None:
        return Track(prefix, False, [], error=first_error)
    return Track(prefix, bool(targets), sorted(targets), best)

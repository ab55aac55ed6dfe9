"""Scoring a formula against a roll: the dice check, redundancy stripping, points and re-roll costs.

`check` is the rules engine's front door: text in, a CheckResult out, never an exception for bad input.

    text ──scan once (suji.rules.language.reader)──▶ readings ──check_dice, evaluate──▶ the value
         ──strip_redundant (sub-formulas found term by term)──▶ the scored dice ──▶ points, costs ──▶ CheckResult
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from suji.core.i18n import N_, translate
from suji.rules.dice import CONSTANT_FACES, DIVIDE, MINUS, PLUS, ROOT, SQUARE, TIMES, Roll, faces_for_digit
from suji.rules.exact import Value, as_rational
from suji.rules.language.errors import FormulaError
from suji.rules.language.evaluate import evaluate, value_terms
from suji.rules.language.printing import format_faces, machine_text, pupil_text
from suji.rules.language.reader import Reading, Scanned, UsedDie, readings, scan
from suji.rules.language.spelling import Face, constant_die
from suji.rules.language.subformulas import equal_sub_formulas, plain_equal_sub_formulas

# Operator points (RULES.md §1 "Score"); a leading − is a die too and scores like any −.
OPERATOR_POINTS: dict[str, int] = {PLUS: 1, MINUS: 1, TIMES: 2, DIVIDE: 3, SQUARE: 4, ROOT: 5}
OPERATOR_POINTS.update({face: 3 for face in CONSTANT_FACES})
REROLL_COST = 1
SET_FACE_COST = 5


def _tally(faces: Sequence[Face]) -> tuple[int, int]:
    """(operator points, number dice used) of a formula in one pass: the two figures its score multiplies, and
    the one home of how they are counted (a check's answer shows both)."""
    points = numbers = 0
    for face in faces:
        if type(face) is str:
            points += OPERATOR_POINTS[face]
        elif type(face) is int:
            numbers += 1
    return points, numbers


def operator_points(faces: Sequence[Face]) -> int:
    """The sum of the operator dice's points in a formula."""
    return _tally(faces)[0]


def number_dice_used(faces: Sequence[Face]) -> int:
    """How many number dice a formula uses (one per digit)."""
    return _tally(faces)[1]


def formula_score(faces: Sequence[Face]) -> int:
    """Operator points × number dice, before any costs (a formula of digits only scores 0)."""
    points, numbers = _tally(faces)
    return points * numbers


def costs(rerolled: int = 0, set_faces: int = 0) -> int:
    """What re-rolling `rerolled` dice and setting `set_faces` dice to a face cost (RULES.md "Rerolls")."""
    return REROLL_COST * rerolled + SET_FACE_COST * set_faces


def apply_costs(points: int, rerolled: int = 0, set_faces: int = 0) -> int:
    """Take off the costs of re-rolls and set faces; a result of 0 or less is 0."""
    return max(0, points - costs(rerolled, set_faces))


def _counts(faces: Sequence[Face]) -> dict[Face, int]:
    """How many dice show each face (a plain dict: a Counter costs more than the whole count of a few dice)."""
    counts: dict[Face, int] = {}
    for face in faces:
        counts[face] = counts.get(face, 0) + 1
    return counts


def check_dice(dice: Sequence[UsedDie], roll: Roll) -> None:
    """Raise FormulaError unless every die in the formula was rolled, each used at most once.

    A 9 is a die showing 6 turned over (or, with custom dice, a die showing 9, which is used first).
    """
    numbers = _counts(roll.number_dice)
    operators = _counts(roll.operator_dice)
    for die in dice:
        face = die.face
        if type(face) is str:
            left = operators.get(face, 0)
            if left > 0:
                operators[face] = left - 1
                continue
            if face not in roll.operator_dice:
                raise FormulaError("not_rolled", die.column, face=face)
            raise FormulaError("used_too_often", die.column, face=face, count=roll.operator_dice.count(face))
        for supplier in faces_for_digit(face):
            left = numbers.get(supplier, 0)
            if left > 0:
                numbers[supplier] = left - 1
                break
        else:  # no free die gives this digit
            if face == 9:
                count = sum(roll.number_dice.count(f) for f in faces_for_digit(9))
                if not count:
                    raise FormulaError("nine_needs_six", die.column)
                raise FormulaError("used_too_often", die.column, face=9, count=count)
            if face not in roll.number_dice:
                raise FormulaError("not_rolled", die.column, face=face)
            raise FormulaError("used_too_often", die.column, face=face, count=roll.number_dice.count(face))


def strip_redundant(faces: Sequence[Face], value: Value | None = None) -> tuple[int, ...]:
    """The indexes of the dice kept after stripping redundant dice (RULES.md "Redundant dice").

    The scored form is the valid sub-formula (the other dice in the same order) with the same exact value that
    uses the fewest dice; among several, the one with the highest score (the first in index order on a tie).
    Returns all indexes when nothing can go. `value` is the formula's value when the caller has it already
    (`check` does), so it is not worked out twice. The sub-formulas are found term by term, each term worked out
    once (suji.rules.language.subformulas); `plain_strip_redundant` is the same rule, each one evaluated alone.
    """
    return _strip(faces, value, equal_sub_formulas)


def plain_strip_redundant(faces: Sequence[Face], value: Value | None = None) -> tuple[int, ...]:
    """`strip_redundant` by the plain reference: every choice of dice evaluated on its own, fewest dice first."""
    return _strip(faces, value, plain_equal_sub_formulas)


def _strip(faces: Sequence[Face], value: Value | None, matches: Callable) -> tuple[int, ...]:
    if value is None:
        value = evaluate(faces)
    if value is None:
        raise ValueError("not a valid formula")
    best: tuple[int, ...] | None = None
    best_score = -1
    for kept in matches(faces, value_terms(value)):
        score = formula_score([faces[i] for i in kept])
        if score > best_score:
            best, best_score = kept, score
    return best if best is not None else tuple(range(len(faces)))


@dataclass
class CheckResult:
    """What `check` found: validity, the exact value, the target made and the score of the stripped formula."""

    formula: str
    valid: bool
    error: FormulaError | None = None
    exact: Value | None = None  # the exact value (suji.rules.exact), printed by `value_text` and `display`
    target: int | None = None
    dice: tuple[UsedDie, ...] = ()
    kept: tuple[int, ...] = ()
    operator_points: int = 0
    number_dice_used: int = 0
    points: int = 0  # operator points × number dice, before costs; 0 when no target is made
    score: int = 0
    rerolled: int = 0
    set_faces: int = 0

    def _tokens(self) -> tuple[list[str], list[str]]:
        """(the scored dice's texts, the removed dice's texts), each die's text made once."""
        texts = [die.text for die in self.dice]
        kept = self.kept
        if len(kept) == len(texts):  # nothing stripped (or no dice): every die scored, in order
            return texts, []
        kept_set = set(kept)
        return [texts[i] for i in kept], [text for i, text in enumerate(texts) if i not in kept_set]

    @property
    def scored_tokens(self) -> list[str]:
        return self._tokens()[0]

    @property
    def removed_tokens(self) -> list[str]:
        return self._tokens()[1]

    @property
    def scored_formula(self) -> str:
        return "".join(self._tokens()[0])  # format_faces of the kept faces: a die's text is its face printed

    @property
    def printed_formula(self) -> str | None:
        """The formula as read, in print (３＋５６x８ → 3+56×8), or None when it could not be read."""
        return format_faces([d.face for d in self.dice]) if self.valid else None

    @property
    def value_text(self) -> str | None:
        """The value in machine form, as SymPy prints it (446, 1/3, 2*sqrt(2)), or None without one."""
        return machine_text(self.exact) if self.exact is not None else None

    @property
    def display(self) -> str | None:
        """The value as a pupil reads it everywhere (446, 1/3, 2√2, 3+√2), or None without one."""
        return pupil_text(self.exact) if self.exact is not None else None

    def to_dict(self, lang: str = "en") -> dict:
        """Exactly the object `suji check --json` prints: `value` in machine form, `display` the pupil's.

        The same fields as the properties above give (tests hold the two to each other), each die's text made
        once: every /api/check answer is built here.
        """
        scored, removed = self._tokens()
        return {
            "valid": self.valid,
            "error": self.error.to_dict(lang) if self.error else None,
            "value": self.value_text,
            "display": self.display,
            "target": self.target,
            "scored_formula": "".join(scored) if self.valid else None,  # as scored_formula
            "scored_tokens": scored,
            "removed_tokens": removed,
            "operator_points": self.operator_points,
            "number_dice_used": self.number_dice_used,
            "score": self.score,
        }


def _score_reading(text: str, reading: Reading, roll: Roll, rerolled: int, set_faces: int) -> CheckResult:
    check_dice(reading.dice, roll)
    exact = evaluate(reading.faces)
    if exact is None:  # the dice form a formula (the reading says so), so only a division by zero is left
        raise FormulaError("division_by_zero")
    rational = as_rational(exact)
    made = rational is not None and rational.denominator == 1 and int(rational) in roll.targets
    target = int(rational) if made else None  # type: ignore[arg-type]
    kept = strip_redundant(reading.faces, exact)
    operators, numbers = _tally([reading.faces[i] for i in kept])
    points = operators * numbers if target is not None else 0  # formula_score, from the two figures shown
    return CheckResult(
        formula=text,
        valid=True,
        exact=exact,
        target=target,
        dice=reading.dice,
        kept=kept,
        operator_points=operators,
        number_dice_used=numbers,
        points=points,
        score=apply_costs(points, rerolled, set_faces),
        rerolled=rerolled,
        set_faces=set_faces,
    )


def check(formula: str | Scanned, roll: Roll, rerolled: int = 0, set_faces: int = 0) -> CheckResult:
    """Check a formula text (or its scan) against a roll and score it; bad input gives an invalid result, never an
    exception.

    Text that can be read more than one way (23×11: the ×11 die, or × and two 1 dice) is tried every way that
    the roll allows, and the best-scoring valid reading counts. When none is valid, the error shown is that of
    the first reading tried (the constant die first when the roll has one).
    """
    scanned = (
        formula
        if isinstance(formula, Scanned)
        else scan(formula if isinstance(formula, str) else str(formula))
    )
    text = scanned.text
    if rerolled < 0 or set_faces < 0:
        raise ValueError("costs cannot be negative")
    constants = 0  # the roll's constant dice (a loop: a generator costs more than counting a few dice)
    for face in roll.operator_dice:
        if face in CONSTANT_FACES:
            constants += 1
    best: CheckResult | None = None
    first_error: FormulaError | None = None
    try:
        for reading in readings(scanned, constant_dice=constants):
            try:
                if isinstance(reading, FormulaError):
                    raise reading
                result = _score_reading(text, reading, roll, rerolled, set_faces)
            except FormulaError as error:
                first_error = first_error or _kept(error)
                continue
            if best is None or (result.target is not None, result.points) > (
                best.target is not None,
                best.points,
            ):
                best = result
    except FormulaError as error:
        first_error = _kept(error)
    if best is not None:
        return best
    assert first_error is not None
    if first_error.code == "zero" and constants == 0:
        first_error = _missing_constant_die(scanned, roll) or first_error
    return CheckResult(formula=text, valid=False, error=first_error, rerolled=rerolled, set_faces=set_faces)


def _kept(error: FormulaError) -> FormulaError:
    """An error kept as the answer's data, without its traceback: the traceback holds this call's frame (and, by
    their f_back, its callers': a web request's whole stack), whose locals hold the error again, and such a cycle
    lives until the garbage collector's next pass."""
    return error.with_traceback(None)


def _missing_constant_die(scanned: Scanned, roll: Roll) -> FormulaError | None:
    """For "21×10" and a roll without a ×10 die: "there is no ×10 die" says more than "no die shows 0"."""
    for reading in readings(scanned, constant_dice=None):
        if isinstance(reading, Reading):
            try:
                check_dice(reading.dice, roll)
            except FormulaError as error:
                if error.code == "not_rolled" and error.params.get("face") in CONSTANT_FACES:
                    return _kept(error)
    return None


# ---- what the formula box shows while a formula is being built ----

UNFINISHED = N_("Keep going: the formula is not finished yet.")


def value_so_far(formula: str, roll: Roll, lang: str) -> dict:
    """What the formula box shows while a formula is built: its exact value, a mistake, or "keep going".

    A formula that only lacks its next die (it ends with an operator or a √) is unfinished, not wrong. The text is
    scanned once; the check and the dice it uses both read that scan.
    """
    scanned = scan(formula)
    result = check(scanned, roll)
    dice = dice_in_text(scanned, roll)
    if result.error is not None and result.error.unfinished_in(formula):
        # Unfinished only if the dice so far were rolled: "5÷2+" without a + die is a mistake already.
        try:
            check_dice([UsedDie(p["face"], p["start"] + 1) for p in dice if p["face"] is not None], roll)
        except FormulaError as error:
            result = CheckResult(formula=formula, valid=False, error=_kept(error))
    data = result.to_dict(lang)
    unfinished = result.error is not None and result.error.unfinished_in(formula)
    return {
        "valid": data["valid"], "value": data["value"], "display": data["display"],
        "target": data["target"], "error": None if unfinished else data["error"],
        "unfinished": unfinished, "message": translate(UNFINISHED, lang) if unfinished else None,
        "dice": [{"start": p["start"], "end": p["end"], "die": p["die"]} for p in dice],
    }  # fmt: skip


def dice_in_text(text: str | Scanned, roll: Roll) -> list[dict]:
    """Which rolled die each piece of a formula being written stands for, as the checker would read it.

    [{"start", "end", "die", "face"}] with die "n0"… (the roll's number dice in order) or "o0"… (its operator
    dice), or None when no free die shows that face; `face` is the face the piece reads as (None: no die's). "×1d" is a constant die while the roll has one free; a 9 takes a
    free 9 (custom dice) or else a 6 turned over. The page greys out the dice named here: it never reads the
    formula itself.
    """
    free_numbers = list(enumerate(roll.number_dice))
    free_operators = list(enumerate(roll.operator_dice))

    def take(free: list[tuple[int, Face]], face: Face) -> int | None:
        for at, (index, shown) in enumerate(free):
            if shown == face:
                del free[at]
                return index
        return None

    found = (text if isinstance(text, Scanned) else scan(text)).pieces
    out = []
    i = 0
    while i < len(found):
        piece = found[i]
        face = constant_die(*(p.face for p in found[i : i + 3])) if i + 2 < len(found) else None
        if face is not None:
            constant = take(free_operators, face)
            if constant is not None:
                out.append(
                    {"start": piece.start, "end": found[i + 2].end, "die": f"o{constant}", "face": face}
                )
                i += 3
                continue
        die = None
        if isinstance(piece.face, int):
            index = next(
                (got for f in faces_for_digit(piece.face) if (got := take(free_numbers, f)) is not None), None
            )
            die = None if index is None else f"n{index}"
        elif piece.face is not None:
            index = take(free_operators, piece.face)
            die = None if index is None else f"o{index}"
        out.append({"start": piece.start, "end": piece.end, "die": die, "face": piece.face})
        i += 1
    return out

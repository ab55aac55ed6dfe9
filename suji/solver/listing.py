"""A plain brute-force reference for the solver: try every formula the dice allow, evaluate it, strip it.

Slow on purpose and simple enough to trust; the tests and `suji bench` compare the solver with it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from suji.rules.dice import Roll, face_readings, faces_for_digit
from suji.rules.exact import as_rational
from suji.rules.language.automaton import ACCEPTING, DIGIT, START, TRANSITIONS
from suji.rules.language.evaluate import evaluate
from suji.rules.language.spelling import Face
from suji.rules.scoring import formula_score, plain_strip_redundant


def _take_digit(numbers: Counter, digit: int) -> int | None:
    """Which die face supplies `digit` (suji.rules.dice.faces_for_digit), or None."""
    return next((face for face in faces_for_digit(digit) if numbers[face] > 0), None)


def all_formulas(roll: Roll, allowed: frozenset[str] | None = None) -> Iterator[tuple[Face, ...]]:
    """Every distinct valid formula (as a face sequence) that the roll's dice can make, each die used once.

    Dice with the same face are not told apart; a 6 read as 9 gives a different face. `allowed` limits the
    operator faces that may be used.
    """
    numbers = Counter(roll.number_dice)
    operators = Counter(f for f in roll.operator_dice if allowed is None or f in allowed)
    digits = sorted({digit for face in numbers for digit in face_readings(face)})
    faces: list[Face] = []

    def place_digit(state: int) -> Iterator[tuple[Face, ...]]:
        for d in digits:
            die = _take_digit(numbers, d)
            if die is None:
                continue
            numbers[die] -= 1
            faces.append(d)
            yield from walk(state)
            faces.pop()
            numbers[die] += 1

    def place_op(face: str, state: int) -> Iterator[tuple[Face, ...]]:
        if operators[face] > 0:
            operators[face] -= 1
            faces.append(face)
            yield from walk(state)
            faces.pop()
            operators[face] += 1

    def walk(state: int) -> Iterator[tuple[Face, ...]]:
        # The formula language's own automaton (suji.rules.language.automaton) says which die may come next.
        if state in ACCEPTING:
            yield tuple(faces)
        for move, nxt in TRANSITIONS[state].items():
            if move == DIGIT:
                yield from place_digit(nxt)
            else:
                yield from place_op(move, nxt)

    yield from walk(START)


@dataclass
class ReferenceBest:
    """The reference's answer for one target."""

    score: int
    formulas: list[tuple[Face, ...]]  # every irreducible formula making the target
    best: list[tuple[Face, ...]]  # those with the best score


def reference_solve(roll: Roll, allowed: frozenset[str] | None = None) -> dict[int, ReferenceBest]:
    """For every reachable target: the best score and all irreducible formulas, by brute force."""
    targets = set(roll.targets)
    found: dict[int, ReferenceBest] = {}
    for faces in all_formulas(roll, allowed):
        value = as_rational(evaluate(faces))
        if value is None or value.denominator != 1 or int(value) not in targets:
            continue
        if len(plain_strip_redundant(faces)) != len(faces):
            continue
        score = formula_score(faces)
        entry = found.setdefault(int(value), ReferenceBest(-1, [], []))
        entry.formulas.append(faces)
        if score > entry.score:
            entry.score, entry.best = score, [faces]
        elif score == entry.score:
            entry.best.append(faces)
    return found

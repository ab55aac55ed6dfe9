"""The space of rolls the odds table covers: every multiset of faces the standard dice can show, with weights.

Data flows: the dice of RULES.md §1 → the 696 number sets (dice A A B B C), the 100 operator sets (dice A A A B)
and the 672 target numbers (target dice A B C, a 6 read as 6 or 9) → row and column indexes of the table.

The best score of a roll depends only on the multisets of its number and operator faces (the solver counts
dice, never their order). A drill level uses only some operators: the roll with the other operator dice left
out is another row (fewer operator dice), so the table adds the 26 operator sets that levels 1 and 2 leave, and
every question at every level is a lookup. Weights count the ordered outcomes of the physical dice that show a
multiset, so sums over rows weighted by them are exact probabilities over equally likely faces.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import product

from suji.core.caching import computed_once
from suji.rules.dice import (
    NUMBER_DICE_FACES,
    NUMBER_KINDS,
    OPERATOR_DICE_FACES,
    OPERATOR_KINDS,
    TARGET_KINDS,
    target_numbers,
)
from suji.rules.scoring import OPERATOR_POINTS
from suji.solver.levels import FULL_LEVEL, LEVEL_OPERATORS, LEVELS  # noqa: F401 - read from here by the table

# Bump when the solver's definition of "best score" changes in a way the rules fingerprint cannot see.
SOLVER_EDITION = 1

NumberSet = tuple[int, ...]
OperatorSet = tuple[str, ...]


def _weighted_multisets(faces_per_die: Sequence[Sequence]) -> dict[tuple, int]:
    """Every sorted multiset of faces the dice can show, with how many ordered outcomes show it."""
    counts: Counter[tuple] = Counter()
    for outcome in product(*faces_per_die):
        counts[tuple(sorted(outcome, key=_face_order))] += 1
    return dict(sorted(counts.items(), key=lambda kv: [_face_order(f) for f in kv[0]]))


def _face_order(face: int | str) -> tuple[int, int | str]:
    # Digits before operators, operators in the order of the dice (+ − × ÷ ×10 ×11 ×12 ² √).
    if type(face) is int:
        return (0, face)
    return (1, list(OPERATOR_POINTS).index(face) if face in OPERATOR_POINTS else 99)


@computed_once
def number_sets() -> dict[NumberSet, int]:
    """The 696 multisets of five digits that number dice A A B B C can show, each with its outcome count."""
    return _weighted_multisets([NUMBER_DICE_FACES[k] for k in NUMBER_KINDS])


@computed_once
def full_operator_sets() -> dict[OperatorSet, int]:
    """The 100 multisets of operator faces that dice A A A B can show (two ² faces count twice)."""
    return _weighted_multisets([OPERATOR_DICE_FACES[k] for k in OPERATOR_KINDS])


def level_operators(operators: Iterable[str], level: int) -> OperatorSet:
    """The operator dice of a roll that a level lets a student use, as a sorted multiset."""
    allowed = LEVEL_OPERATORS[level]
    return tuple(sorted((f for f in operators if f in allowed), key=_face_order))


def sorted_operators(operators: Iterable[str]) -> OperatorSet:
    return tuple(sorted(operators, key=_face_order))


@computed_once
def operator_sets() -> tuple[OperatorSet, ...]:
    """Every operator set a row of the table is for: the 100 full sets, then those levels 1 and 2 leave."""
    found = list(full_operator_sets())
    seen = set(found)
    for level in (2, 1):
        for ops in full_operator_sets():
            reduced = level_operators(ops, level)
            if reduced not in seen:
                seen.add(reduced)
                found.append(reduced)
    return tuple(found)


@computed_once
def target_list() -> tuple[int, ...]:
    """The 672 target numbers that target dice A B C can ask for (111 to 998), in increasing order."""
    found: set[int] = set()
    for dice in product(*(NUMBER_DICE_FACES[k] for k in TARGET_KINDS)):
        found.update(target_numbers(dice))
    return tuple(sorted(found))


@computed_once
def target_dice_outcomes() -> dict[tuple[int, ...], int]:
    """The distinct sets of target numbers the target dice give, each with how many of the 216 rolls give it."""
    counts: Counter[tuple[int, ...]] = Counter()
    for dice in product(*(NUMBER_DICE_FACES[k] for k in TARGET_KINDS)):
        counts[target_numbers(dice)] += 1
    return dict(counts)


@computed_once
def _number_index() -> dict[NumberSet, int]:
    return {numbers: i for i, numbers in enumerate(number_sets())}


@computed_once
def _operator_index() -> dict[OperatorSet, int]:
    return {ops: i for i, ops in enumerate(operator_sets())}


@computed_once
def _target_index() -> dict[int, int]:
    return {t: i for i, t in enumerate(target_list())}


def number_index(numbers: Iterable[int]) -> int | None:
    """The index of a number set (any order), or None when dice A A B B C cannot show it."""
    return _number_index().get(tuple(sorted(numbers)))


def operator_index(operators: Iterable[str]) -> int | None:
    """The index of an operator set (any order), or None when it is not a row of the table."""
    return _operator_index().get(sorted_operators(operators))


def target_index(target: int) -> int | None:
    return _target_index().get(target)


def row_count() -> int:
    return len(number_sets()) * len(operator_sets())


@computed_once
def rules_fingerprint() -> str:
    """A short hash of everything a table's numbers depend on: dice, levels, points, targets, solver edition.

    A table built under other rules names another fingerprint and is refused as stale.
    """
    parts = [
        sorted(NUMBER_DICE_FACES.items()),
        sorted(OPERATOR_DICE_FACES.items()),
        NUMBER_KINDS,
        OPERATOR_KINDS,
        TARGET_KINDS,
        sorted(OPERATOR_POINTS.items()),
        sorted((k, sorted(v)) for k, v in LEVEL_OPERATORS.items()),
        SOLVER_EDITION,
    ]
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]

"""The formula language die by die: the grammar of grammar/suji.lark as an automaton over die faces.

Text is read by the Lark grammar (suji.rules.formula); code that walks faces rather than text reads this
automaton instead, so every such walk speaks the same language: the exact evaluator (suji.rules.exact follows its
moves and does the arithmetic each move asks for), the stripping of redundant dice (a kept sub-formula starts and
ends where a formula may) and the enumeration of every formula of a roll (suji.solver.listing).

    faces ──TRANSITIONS──▶ states ──ACCEPTING?──▶ a formula or not
"""

from __future__ import annotations

from collections.abc import Sequence

from suji.rules.dice import CONSTANT_FACES, DIVIDE, MINUS, PLUS, ROOT, SQUARE, TIMES

Face = int | str

# The grammar of grammar/suji.lark read one die at a time, for code that walks faces rather than text: the
# enumeration of every formula (suji.solver.listing), the stripping of redundant dice (a kept sub-formula starts
# and ends where a formula may) and `accepts`. tests/rules/test_language.py checks that it accepts exactly the face
# sequences the reference parser reads. Each state's moves are in the order the enumeration tries them.
START, SIGN, ROOTED, DIGITS, SQUARED, CONSTANT, OPERATOR = range(7)
DIGIT = "digit"  # the class of every number face
_ADD_MUL = {PLUS: OPERATOR, MINUS: OPERATOR, TIMES: OPERATOR, DIVIDE: OPERATOR}
_CONSTANTS = dict.fromkeys(CONSTANT_FACES, CONSTANT)
TRANSITIONS: dict[int, dict[str, int]] = {
    START: {ROOT: ROOTED, DIGIT: DIGITS, MINUS: SIGN},  # a − at the very start is the sign
    SIGN: {ROOT: ROOTED, DIGIT: DIGITS},
    OPERATOR: {ROOT: ROOTED, DIGIT: DIGITS},
    ROOTED: {DIGIT: DIGITS},  # √ roots the number right after it
    DIGITS: {DIGIT: DIGITS, SQUARE: SQUARED, **_CONSTANTS, **_ADD_MUL},
    SQUARED: {**_CONSTANTS, **_ADD_MUL},  # ² squares the number before it, once
    CONSTANT: dict(_ADD_MUL),  # a constant die stands after a factor, never after another
}
ACCEPTING = frozenset({DIGITS, SQUARED, CONSTANT})
MAY_START = frozenset(TRANSITIONS[START])
MAY_END = frozenset(c for moves in TRANSITIONS.values() for c, state in moves.items() if state in ACCEPTING)


def face_class(face: Face) -> str:
    """What the automaton reads for a face: DIGIT for every number, the operator itself otherwise."""
    return DIGIT if type(face) is int else face  # type: ignore[return-value]


def accepts(faces: Sequence[Face]) -> bool:
    """Whether the faces, in this order, are a formula of the language (the grammar's, die by die)."""
    state = START
    for face in faces:
        found = TRANSITIONS[state].get(face_class(face))
        if found is None:
            return False
        state = found
    return state in ACCEPTING

"""The formula language die by die: the grammar of grammar/suji.lark as an automaton over die faces.

Everything that reads the language walks this automaton: the reader (a text's dice are a formula, or the
automaton says where and why not), the evaluator (suji.rules.language.evaluate follows its moves and does the
arithmetic each move asks for), the stripping of redundant dice (a kept sub-formula starts and ends where a
formula may) and the enumeration of every formula of a roll (suji.solver.listing). tests/rules/test_language.py
holds it to the grammar: it accepts exactly the face sequences the grammar's LALR parser reads, and refuses the
others at the die where that parser stops.

    faces ──TRANSITIONS──▶ states ──ACCEPTING?──▶ a formula, or `refusal`: the first die it cannot take
"""

from __future__ import annotations

from collections.abc import Sequence

from suji.rules.language.spelling import CONSTANT_FACES, DIVIDE, MINUS, PLUS, ROOT, SQUARE, TIMES, Face

# Each state's moves are in the order the enumeration tries them.
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


def refusal(faces: Sequence[Face]) -> int | None:
    """Where the faces stop being a formula: the index of the first die the automaton cannot take, len(faces)
    when they end too soon, or None when they are a formula. Every state can still reach a formula, so this is
    the first die no formula could go on with, as for the grammar's LALR parser."""
    state = START
    for index, face in enumerate(faces):
        found = TRANSITIONS[state].get(DIGIT if type(face) is int else face)  # face_class, inline: a hot loop
        if found is None:
            return index
        state = found
    return None if state in ACCEPTING else len(faces)


_BINARY = frozenset({PLUS, MINUS, TIMES, DIVIDE})


def mistake(before: Face | None, refused: Face | None) -> tuple[str, str | None, Face | None]:
    """Name the mistake when the automaton refuses `refused` after `before` (None: the start; the end).

    Returns (code, where, token): `where` is "before" or "refused" (whose column the message points at), or
    None for no column; `token` the face the message quotes. Only the two faces decide it, as they do for the
    grammar's parser; the codes are FormulaError's (suji.rules.language.errors).
    """
    if refused is None:  # the formula ends too soon
        if before is None:
            return "empty", None, None
        if before == ROOT:
            return "root_misplaced", "before", None
        return "ends_with_operator", "before", before
    if refused in _BINARY:
        if before is None:
            return "starts_with_operator", "refused", refused
        if before == ROOT:
            return "root_misplaced", "before", None
        return "adjacent_operators", "refused", refused
    if refused in CONSTANT_FACES:
        return "const_misplaced", "refused", refused
    if type(refused) is int and before in CONSTANT_FACES:
        return "const_then_number", "refused", before
    if type(refused) is int and before == SQUARE:
        return "number_after_square", "refused", None
    if refused == SQUARE:
        return "square_misplaced", "refused", None
    if refused == ROOT:
        return "root_misplaced", "refused", None
    return "syntax", "refused", refused  # pragma: no cover - every refusal of the automaton is named above

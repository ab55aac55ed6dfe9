"""The drill levels, in one home: which operators each allows. Level 1: + and −; 2: also × ÷ ×10 ×11 ×12; 3: also
² and √ (every operator: the game itself). The solver, the problem choice, the odds table, the command line, the
API and the pages read the levels from here."""

from __future__ import annotations

from suji.rules.dice import CONSTANT_FACES, DIVIDE, MINUS, PLUS, ROOT, SQUARE, TIMES

LEVEL_OPERATORS: dict[int, frozenset[str]] = {
    1: frozenset({PLUS, MINUS}),
    2: frozenset({PLUS, MINUS, TIMES, DIVIDE, *CONSTANT_FACES}),
    3: frozenset({PLUS, MINUS, TIMES, DIVIDE, *CONSTANT_FACES, SQUARE, ROOT}),
}
LEVELS = tuple(LEVEL_OPERATORS)  # (1, 2, 3)
FULL_LEVEL = LEVELS[-1]  # the level that allows every operator

"""Independent references for the tests: an evaluator, a brute-force stripper and Hypothesis strategies.

Written from RULES.md alone, without suji.rules.exact or the Lark grammar, so the tests compare two implementations.
The evaluator is a precedence-climbing pass over the faces with SymPy numbers: + − at level 1, the leading
sign at level 1½ (it negates the first term only), × ÷ and the postfix constant dice ×10 ×11 ×12 at level 2,
√ and ² bound to their number.
"""

from __future__ import annotations

from functools import lru_cache

import sympy
from hypothesis import assume
from hypothesis import strategies as st

from suji.rules.dice import MAX_NUMBER_DICE, MAX_OPERATOR_DICE

DIGITS = tuple(range(1, 10))
BINARY = {"+": 1, "−": 1, "×": 2, "÷": 2}
CONSTANTS = {"×10": 10, "×11": 11, "×12": 12}
UNARY = ("²", "√")
OPERATORS = (*BINARY, *CONSTANTS, *UNARY)
POINTS = {"+": 1, "−": 1, "×": 2, "÷": 3, "×10": 3, "×11": 3, "×12": 3, "²": 4, "√": 5}


class _Invalid(Exception):
    pass


class _Climber:
    def __init__(self, faces: tuple) -> None:
        self.faces = faces
        self.i = 0

    def peek(self):
        return self.faces[self.i] if self.i < len(self.faces) else None

    def take(self):
        face = self.peek()
        self.i += 1
        return face

    def primary(self) -> sympy.Expr:
        root = self.peek() == "√"
        if root:
            self.take()
        digits = []
        while isinstance(self.peek(), int):
            digits.append(self.take())
        if not digits:
            raise _Invalid
        value = sympy.Integer(int("".join(map(str, digits))))
        if self.peek() == "²":
            self.take()
            value = value**2
        return sympy.sqrt(value) if root else value

    def climb(self, level: int, lhs: sympy.Expr | None = None) -> sympy.Expr:
        if lhs is None:
            lhs = self.primary()
        while True:
            face = self.peek()
            if face in CONSTANTS and level <= 2:
                # a constant die stands right after a number (or its ²), never after another constant
                if not (isinstance(self.faces[self.i - 1], int) or self.faces[self.i - 1] == "²"):
                    raise _Invalid
                self.take()
                lhs = lhs * CONSTANTS[face]
            elif face in BINARY and BINARY[face] >= level:
                self.take()
                rhs = self.climb(BINARY[face] + 1)
                lhs = {"+": lhs + rhs, "−": lhs - rhs, "×": lhs * rhs}.get(face) if face != "÷" else lhs / rhs
            else:
                return lhs


@lru_cache(maxsize=200_000)
def reference_value(faces: tuple) -> sympy.Expr | None:
    """The exact value of a face sequence, or None when it is not a formula."""
    parser = _Climber(tuple(faces))
    try:
        if parser.peek() == "−":  # the sign: negates the first term, then + − continue at level 1
            parser.take()
            first = -parser.climb(2)
            value = parser.climb(1, first)
        else:
            value = parser.climb(1)
    except _Invalid:
        return None
    if parser.i != len(faces):
        return None
    return value


def same_value(a: sympy.Expr, b: sympy.Expr) -> bool:
    return sympy.expand(a - b) == 0


def reference_score(faces) -> int:
    return sum(POINTS[f] for f in faces if isinstance(f, str)) * sum(1 for f in faces if isinstance(f, int))


def reference_strip(faces: tuple) -> tuple[int, int, set[tuple[int, ...]]]:
    """Every subset of the dice kept in order: the valid ones with the same value, fewest dice, highest score.

    Returns (dice kept, score, every kept-index tuple reaching both).
    """
    faces = tuple(faces)
    n = len(faces)
    value = reference_value(faces)
    assert value is not None
    best: tuple[int, int] | None = None
    winners: set[tuple[int, ...]] = set()
    for mask in range(1, 1 << n):
        kept = tuple(i for i in range(n) if mask >> i & 1)
        sub = tuple(faces[i] for i in kept)
        sub_value = reference_value(sub)
        if sub_value is None or not same_value(sub_value, value):
            continue
        key = (len(kept), -reference_score(sub))
        if best is None or key < best:
            best, winners = key, {kept}
        elif key == best:
            winners.add(kept)
    assert best is not None  # the whole formula always qualifies
    return best[0], -best[1], winners


# ---- Hypothesis strategies -------------------------------------------------------------------------------


@st.composite
def factors(draw, max_digits: int = 3) -> list:
    faces: list = []
    root = draw(st.integers(0, 4)) == 0
    if root:
        faces.append("√")
    faces += draw(st.lists(st.sampled_from(DIGITS), min_size=1, max_size=max_digits))
    if draw(st.integers(0, 4)) == 0:
        faces.append("²")
    return faces


@st.composite
def formulas(draw, max_terms: int = 3, max_factors: int = 3, max_digits: int = 3, max_len: int | None = None):
    """A valid formula as a tuple of faces (digits 1–9), built from the grammar of RULES.md."""
    faces: list = []
    if draw(st.integers(0, 3)) == 0:
        faces.append("−")
    for t in range(draw(st.integers(1, max_terms))):
        if t:
            faces.append(draw(st.sampled_from(["+", "−"])))
        for k in range(draw(st.integers(1, max_factors))):
            if k:
                faces.append(draw(st.sampled_from(["×", "÷"])))
            faces += draw(factors(max_digits))
            if draw(st.integers(0, 4)) == 0:
                faces.append(draw(st.sampled_from(list(CONSTANTS))))
    if max_len is not None:
        faces = faces[:max_len]
        while faces and isinstance(faces[-1], str) and faces[-1] not in ("²", *CONSTANTS):
            faces.pop()  # cut at a place where a formula may end
        if not faces or reference_value(tuple(faces)) is None:
            faces = [draw(st.sampled_from(DIGITS))]
    # A roll holds at most MAX_NUMBER_DICE number dice and MAX_OPERATOR_DICE operator dice.
    assume(sum(isinstance(f, int) for f in faces) <= MAX_NUMBER_DICE)
    assume(sum(isinstance(f, str) for f in faces) <= MAX_OPERATOR_DICE)
    return tuple(faces)


def face_sequences(max_size: int = 9):
    """Any sequence of faces, valid or not (digits weighted so that valid ones are common)."""
    face = st.one_of(st.sampled_from(DIGITS), st.sampled_from(DIGITS), st.sampled_from(OPERATORS))
    return st.lists(face, min_size=0, max_size=max_size).map(tuple)

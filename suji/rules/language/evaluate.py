"""The one evaluator: a formula of die faces to its exact value, walking the language's automaton once, and able
to record its steps (the working a pupil reads is this record, not a second evaluation).

    faces ──automaton moves (suji.rules.language.automaton)──▶ sums of p/q·√r ──▶ Value
                                        └── with a Trace: every step, its operands, result and span of faces

The faces are read by the automaton the reader, the stripping and the enumeration of formulas walk; this module
only does the arithmetic each move asks for, with the numbers of suji.rules.exact (the one arithmetic). `check`
takes its value from here, the stripping compares thousands of sub-formulas with it (`has_value`), the solver's
listing evaluates every formula of a roll with it, and the working records it. tests/rules/test_exact.py holds
every value to SymPy's, built by the independent reference evaluator of the tests.

In a formula without parentheses every term is a product of factors, and every factor is n, n², √n or √n², so a
term is always a single monomial p/q·√r. Only the sum mixes radicands.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from suji.rules.exact import Value, monomial, squarefree_split, sum_value
from suji.rules.language.automaton import (
    ACCEPTING,
    CONSTANT,
    DIGIT,
    ROOTED,
    SIGN,
    SQUARED,
    START,
    TRANSITIONS,
)
from suji.rules.language.spelling import CONSTANT_FACES, DIVIDE, MINUS, PLUS, ROOT, SQUARE, TIMES, Face

NUMBER = "number"  # the op of a step that joins digits into one number (every other op is a die face)
# The phases of RULES.md §1 "Formula" in the order a pupil works them (the order of `Trace.in_order`).
PHASES = ("number", "power", "product", "sign", "sum")


@dataclass(frozen=True)
class Step:
    """One operation of an evaluation: `op` (a die face, or NUMBER) on exact `operands` gives `result`.

    `span` is the stretch of the faces this step's result stands for (start inclusive, end exclusive); the spans
    of the steps nest, so the steps are the formula's tree, each node with its span. Operands: "number" the
    digits; ², √, the leading − and ×10/×11/×12 the one value they act on; + − × ÷ the values left and right.
    """

    op: str
    phase: str
    operands: tuple[Value, ...]
    result: Value
    span: tuple[int, int]


class Trace:
    """The steps of one evaluation, recorded as the evaluator makes them (left to right, factor by factor)."""

    def __init__(self, faces: Sequence[Face]) -> None:
        self.faces = tuple(faces)
        self.steps: list[Step] = []
        self._term: tuple[int, Value] | None = None  # where the term being built starts, and its value so far
        self._total: Value | None = None

    def in_order(self) -> list[Step]:
        """The steps in the order of RULES.md: numbers, ² and √, × ÷ and the constant dice, the sign, + and −;
        left to right within each (the evaluator met them left to right)."""
        return sorted(self.steps, key=lambda s: PHASES.index(s.phase))

    def _add(
        self, op: str, phase: str, operands: Sequence[Value], result: Value, span: tuple[int, int]
    ) -> None:
        self.steps.append(Step(op, phase, tuple(operands), result, span))

    def factor(self, start: int, end: int, op: str, p2: int, r2: int, p: int, q: int, r: int) -> None:
        """The factor [√] digits [²] ending before `end`, worth p2√r2, has joined the term that starts at `start`
        (by `op`, × or ÷, unless it is the term's first factor), which is now p/q·√r: its number, square and root
        steps, and the product step."""
        value = self._factor(end, p2, r2)
        self._joined(start, end, op if self._term is not None else None, value, p, q, r)

    def constant(self, start: int, end: int, face: str, p: int, q: int, r: int) -> None:
        """A constant die ending before `end` has multiplied the term from `start`: it is now p/q·√r."""
        self._joined(start, end, face, None, p, q, r)

    def _factor(self, end: int, p: int, r: int) -> Value:
        faces = self.faces
        k = end
        square = k - 1 if faces[k - 1] == SQUARE else None
        k = square if square is not None else k
        digits_end = k
        while k > 0 and type(faces[k - 1]) is int:
            k -= 1
        digits_start = k
        root = k - 1 if k > 0 and faces[k - 1] == ROOT else None
        number = int("".join(str(f) for f in faces[digits_start:digits_end]))
        value = monomial(number, 1, 1)
        if digits_end - digits_start > 1:
            digits = [monomial(int(f), 1, 1) for f in faces[digits_start:digits_end]]  # type: ignore[arg-type]
            self._add(NUMBER, "number", digits, value, (digits_start, digits_end))
        if square is not None:
            squared = monomial(number * number, 1, 1)
            self._add(SQUARE, "power", [value], squared, (digits_start, end))
            value = squared
        if root is not None:
            rooted = monomial(p, 1, r)
            self._add(ROOT, "power", [value], rooted, (root, end))
            value = rooted
        return value

    def _joined(
        self, start: int, end: int, op: str | None, right: Value | None, p: int, q: int, r: int
    ) -> None:
        value = monomial(p, q, r)
        if op is not None and self._term is not None:
            operands = [self._term[1]] if right is None else [self._term[1], right]
            self._add(op, "product", operands, value, (start, end))
        self._term = (start, value)

    def term(self, end: int, sign: int, sums: dict[int, list[int]], op: str) -> None:
        """A term ends before `end` (after the + or − `op`, unless it is the first); `sums` is the running total
        with it, the sign already applied."""
        assert self._term is not None
        value = self._term[1]
        if self._total is None:  # the first term: only the leading sign acts on it
            if sign < 0:
                negated = tuple((r, -c) for r, c in value)
                self._add(MINUS, "sign", [value], negated, (0, end))
                value = negated
            self._total = value
        else:
            total = sum_value(sums)
            self._add(op, "sum", [self._total, value], total, (0, end))
            self._total = total
        self._term = None


def _walk(faces: Sequence[Face], trace: Trace | None = None) -> dict[int, list[int]] | None:
    """The value of a formula as unreduced sums {radicand: [numerator, denominator]}, or None if invalid.

    Each move is looked up in the automaton and the arithmetic here only follows the moves. A factor
    `[√] digits [²]` is complete when a constant die, × ÷ or + − follows it (or the formula ends) and joins the
    term p/q·√r; a term is complete at + − or the end. A `trace` is told every step with its place.
    """
    moves = TRANSITIONS
    sums: dict[int, list[int]] = {}
    state = START
    sign = 1
    p = q = r = 0  # the term so far, p/q·√r
    started = False  # whether the term has a factor yet
    op = TIMES  # how the next factor joins the term
    root = squared = False
    number = 0
    index = -1  # the face being read (for a trace)
    term_start = 0  # where the term being built starts (for a trace)
    add_op = PLUS  # the + or − before it
    for index, face in enumerate(faces):
        if type(face) is int:
            nxt = moves[state].get(DIGIT)
            if nxt is None:
                return None
            number = number * 10 + face
            state = nxt
            continue
        nxt = moves[state].get(face)
        if nxt is None:
            return None
        if nxt == ROOTED:
            root = True
        elif nxt == SQUARED:
            squared = True
        elif nxt == SIGN:
            sign = -1
            term_start = 1
        else:  # a constant die, × ÷ or + −: the factor before it is complete (unless a constant closed it)
            if state != CONSTANT:
                # the factor √n, n² or n as p2/1·√r2, joined to the term
                if root and not squared and number:
                    p2, r2 = squarefree_split(number)
                else:
                    p2, r2 = (number * number if squared and not root else number), 1
                if not started:
                    p, q, r, started = p2, 1, r2, True
                else:
                    if op == TIMES:
                        p *= p2
                    else:
                        if p2 == 0:
                            return None
                        q *= p2 * r2  # divide by p2·√r2: multiply by √r2/(p2·r2)
                    if r2 != 1:
                        a, r = squarefree_split(r * r2)
                        p *= a
                if trace is not None:
                    trace.factor(term_start, index, op, p2, r2, p, q, r)
                root = squared = False
                number = 0
            if nxt == CONSTANT:
                p *= CONSTANT_FACES[face]
                if trace is not None:
                    trace.constant(term_start, index + 1, face, p, q, r)
            elif face == TIMES or face == DIVIDE:
                op = face
            else:  # + or −: the term is complete
                acc = sums.get(r)
                if acc is None:
                    sums[r] = [sign * p, q]
                else:
                    acc[0], acc[1] = acc[0] * q + sign * p * acc[1], acc[1] * q
                if trace is not None:
                    trace.term(index, sign, sums, add_op)
                    add_op = face
                    term_start = index + 1
                sign = 1 if face == PLUS else -1
                started, op = False, TIMES
        state = nxt
    if state not in ACCEPTING:
        return None
    # The end closes the last factor and term as a + would. Written out again rather than looped over a sentinel
    # or called as a helper: either made this hot loop 1.5× slower (measured on the stripping's sub-formulas).
    end = index + 1
    if state != CONSTANT:
        if root and not squared and number:
            p2, r2 = squarefree_split(number)
        else:
            p2, r2 = (number * number if squared and not root else number), 1
        if not started:
            p, q, r = p2, 1, r2
        else:
            if op == TIMES:
                p *= p2
            else:
                if p2 == 0:
                    return None
                q = q * p2 * r2
            if r2 != 1:
                a, r = squarefree_split(r * r2)
                p *= a
        if trace is not None:
            trace.factor(term_start, end, op, p2, r2, p, q, r)
    acc = sums.get(r)
    if acc is None:
        sums[r] = [sign * p, q]
    else:
        acc[0], acc[1] = acc[0] * q + sign * p * acc[1], acc[1] * q
    if trace is not None:
        trace.term(end, sign, sums, add_op)
    return sums


def evaluate(faces: Sequence[Face], trace: Trace | None = None) -> Value | None:
    """The exact value of a formula of die faces, or None if the faces do not form a valid formula.

    Division by zero (only possible with custom dice showing 0) also gives None. A `trace` records the steps.
    """
    sums = _walk(faces, trace)
    return None if sums is None else sum_value(sums)


def traced(faces: Sequence[Face]) -> tuple[Value, list[Step]] | None:
    """The value of a formula and its steps in the order a pupil works them, or None if it is not a formula."""
    trace = Trace(faces)
    value = evaluate(faces, trace)
    return None if value is None else (value, trace.in_order())


def is_formula(faces: Sequence[Face]) -> bool:
    """Whether the faces form a valid formula (the language of grammar/suji.lark)."""
    return _walk(faces) is not None


def value_terms(value: Value) -> dict[int, tuple[int, int]]:
    """A value as {radicand: (numerator, denominator)}, the form `has_value` compares against."""
    return {r: (c.numerator, c.denominator) for r, c in value}


def has_value(faces: Sequence[Face], terms: dict[int, tuple[int, int]]) -> bool:
    """Whether the faces form a valid formula whose value has these `value_terms` (as `evaluate(faces) == value`).

    The stripping of redundant dice asks this of every sub-formula; comparing the unreduced sums by
    cross-multiplication skips building a Fraction for each, which is most of an evaluation's cost.
    """
    sums = _walk(faces)
    if sums is None:
        return False
    found = 0
    for r, (num, den) in sums.items():
        if num == 0:
            continue
        found += 1
        wanted = terms.get(r)
        if wanted is None or num * wanted[1] != wanted[0] * den:
            return False
    return found == len(terms)

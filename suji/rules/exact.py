"""Fast exact evaluation of formulas given as sequences of die faces (ints for digits, strings for operators).

The rules engine uses SymPy as the checker of record; this module is the hot-loop twin used where thousands of
sub-formulas are tried (redundancy stripping, the solver). It is exact: every value is a sum of rational
multiples of square roots of squarefree integers, kept as ints. Tests check it against SymPy.

In a formula without parentheses every term is a product of factors, and every factor is n, n², √n or √n², so a
term is always a single monomial p/q·√r. Only the sum mixes radicands.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache

from suji.rules.dice import CONSTANT_FACES, DIVIDE, MINUS, PLUS, ROOT, SQUARE, TIMES

Face = int | str
# A value: ((radicand, coefficient), ...) sorted by radicand, no zero coefficients; radicand 1 is the rational part.
Value = tuple[tuple[int, Fraction], ...]


@lru_cache(maxsize=4096)
def squarefree_split(n: int) -> tuple[int, int]:
    """Return (a, b) with n = a²·b and b squarefree, so √n = a√b."""
    a, b = 1, n
    k = 2
    while k * k <= b:
        while b % (k * k) == 0:
            b //= k * k
            a *= k
        k += 1
    return a, b


def rational_value(x: int | Fraction) -> Value:
    """The Value of a rational number."""
    return ((1, Fraction(x)),) if x else ()


def as_rational(value: Value) -> Fraction | None:
    """The value as a Fraction when it has no surd part, else None."""
    if not value:
        return Fraction(0)
    if len(value) == 1 and value[0][0] == 1:
        return value[0][1]
    return None


def _factor(faces: Sequence[Face], i: int, n: int) -> tuple[int, int, int, int] | None:
    """Read `[√] digits [²]` at i: return (p, q, r, next index) for the monomial p/q·√r, or None."""
    root = False
    if i < n and faces[i] == ROOT:
        root = True
        i += 1
    number = 0
    start = i
    while i < n and type(faces[i]) is int:
        number = number * 10 + faces[i]
        i += 1
    if i == start:
        return None
    square = i < n and faces[i] == SQUARE
    if square:
        i += 1
    if root and not square:
        a, b = squarefree_split(number)
        return a, 1, b, i
    if square and not root:
        return number * number, 1, 1, i
    return number, 1, 1, i


def _sums(faces: Sequence[Face]) -> dict[int, list[int]] | None:
    """The value of a formula as unreduced sums {radicand: [numerator, denominator]}, or None if invalid."""
    n = len(faces)
    if n == 0:
        return None
    sums: dict[int, list[int]] = {}  # radicand -> [numerator, denominator]
    i = 0
    sign = 1
    if faces[0] == MINUS:
        sign = -1
        i = 1
    while True:
        f = _factor(faces, i, n)
        if f is None:
            return None
        p, q, r, i = f
        if i < n and faces[i] in CONSTANT_FACES:
            p *= CONSTANT_FACES[faces[i]]
            i += 1
        while i < n and (faces[i] == TIMES or faces[i] == DIVIDE):
            op = faces[i]
            f = _factor(faces, i + 1, n)
            if f is None:
                return None
            p2, q2, r2, i = f
            if op == TIMES:
                p, q = p * p2, q * q2
            else:
                if p2 == 0:
                    return None
                # divide by p2/q2·√r2: multiply by q2/(p2·r2)·√r2
                p, q = p * q2, q * p2 * r2
            if r2 != 1:
                a, r = squarefree_split(r * r2)
                p *= a
            if i < n and faces[i] in CONSTANT_FACES:
                p *= CONSTANT_FACES[faces[i]]
                i += 1
        acc = sums.get(r)
        if acc is None:
            sums[r] = [sign * p, q]
        else:
            acc[0], acc[1] = acc[0] * q + sign * p * acc[1], acc[1] * q
        if i == n:
            break
        op = faces[i]
        if op == PLUS:
            sign = 1
        elif op == MINUS:
            sign = -1
        else:
            return None
        i += 1
    return sums


def evaluate(faces: Sequence[Face]) -> Value | None:
    """The exact value of a formula of die faces, or None if the faces do not form a valid formula.

    Division by zero (only possible with custom dice showing 0) also gives None.
    """
    sums = _sums(faces)
    if sums is None:
        return None
    return tuple((r, Fraction(num, den)) for r, (num, den) in sorted(sums.items()) if num != 0)


def value_terms(value: Value) -> dict[int, tuple[int, int]]:
    """A value as {radicand: (numerator, denominator)}, the form `has_value` compares against."""
    return {r: (c.numerator, c.denominator) for r, c in value}


def has_value(faces: Sequence[Face], terms: dict[int, tuple[int, int]]) -> bool:
    """Whether the faces form a valid formula whose value has these `value_terms` (as `evaluate(faces) == value`).

    The stripping of redundant dice asks this of every sub-formula; comparing the unreduced sums by
    cross-multiplication skips building a Fraction for each, which is most of an evaluation's cost.
    """
    sums = _sums(faces)
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


def is_formula(faces: Sequence[Face]) -> bool:
    """Whether the faces form a valid formula (same language as grammar/suji.lark)."""
    return evaluate(faces) is not None


def value_text(value: Value) -> str:
    """The value printed the way SymPy prints it: 446, 1/3, 2*sqrt(2), 1 + sqrt(2)."""
    import sympy

    return str(to_sympy(value, sympy))


def to_sympy(value: Value, sympy_module=None):  # noqa: ANN001, ANN201 - sympy is imported lazily
    """The value as a SymPy expression."""
    if sympy_module is None:
        import sympy as sympy_module
    total = sympy_module.Integer(0)
    for r, c in value:
        total += sympy_module.Rational(c.numerator, c.denominator) * sympy_module.sqrt(r)
    return total

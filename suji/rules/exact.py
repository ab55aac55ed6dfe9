"""Exact values: the one arithmetic of the rules engine, for formulas given as die faces (ints for digits,
strings for operators).

    faces ──automaton moves (suji.rules.language)──▶ sums of p/q·√r ──▶ Value ──▶ text (SymPy's print), SymPy

The faces are read by the formula language's automaton, the same one the checker, the stripping and the
enumeration of formulas walk; this module only does the arithmetic each move asks for. `check` takes its value
from here, the stripping compares thousands of sub-formulas with it, and the solver's hot loops use the rationals
below. It is exact: every value is a sum of rational multiples of square roots of squarefree integers, kept as
ints. SymPy is the independent check: tests hold every value here to SymPy's, built from the grammar's parse tree
(suji.rules.formula.Reading.sympy_value) and by the plain reference evaluator; SymPy also prints surds.

In a formula without parentheses every term is a product of factors, and every factor is n, n², √n or √n², so a
term is always a single monomial p/q·√r. Only the sum mixes radicands.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from math import gcd

from suji.core.caching import bounded
from suji.rules.dice import CONSTANT_FACES, DIVIDE, PLUS, TIMES
from suji.rules.language import ACCEPTING, CONSTANT, DIGIT, ROOTED, SIGN, SQUARED, START, TRANSITIONS

Face = int | str
# A value: ((radicand, coefficient), ...) sorted by radicand, no zero coefficients; radicand 1 is the rational part.
Value = tuple[tuple[int, Fraction], ...]


@bounded("squarefree")
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


def _sums(faces: Sequence[Face]) -> dict[int, list[int]] | None:
    """The value of a formula as unreduced sums {radicand: [numerator, denominator]}, or None if invalid.

    The faces are read by the language's own automaton (suji.rules.language): each move is looked up there,
    and the arithmetic here only follows the moves. A factor `[√] digits [²]` is complete when a constant die,
    × ÷ or + − follows it (or the formula ends) and joins the term p/q·√r; a term is complete at + − or the end.
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
    for face in faces:
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
                root = squared = False
                number = 0
            if nxt == CONSTANT:
                p *= CONSTANT_FACES[face]
            elif face == TIMES or face == DIVIDE:
                op = face
            else:  # + or −: the term is complete
                acc = sums.get(r)
                if acc is None:
                    sums[r] = [sign * p, q]
                else:
                    acc[0], acc[1] = acc[0] * q + sign * p * acc[1], acc[1] * q
                sign = 1 if face == PLUS else -1
                started, op = False, TIMES
        state = nxt
    if state not in ACCEPTING:
        return None
    # The end closes the last factor and term as a + would. Written out again rather than looped over a sentinel
    # or called as a helper: either made this hot loop 1.5× slower (measured on the stripping's sub-formulas).
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
    acc = sums.get(r)
    if acc is None:
        sums[r] = [sign * p, q]
    else:
        acc[0], acc[1] = acc[0] * q + sign * p * acc[1], acc[1] * q
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


# ---- rationals for hot loops --------------------------------------------------------------------------------
# The solver adds and multiplies millions of rational values of terms without surds (suji.solver.search); it keeps
# them in this form of the same exact arithmetic.

# Exact rationals kept cheap: an int, or a reduced pair (numerator, denominator > 1). Fraction objects are exact
# too but hashing and building them dominated the solver's time.
Rational = int | tuple[int, int]


def q_mul(v: Rational, k: int) -> Rational:
    """v × k, reduced."""
    if type(v) is int:
        return v * k
    n, d = v
    g = gcd(k, d)
    d //= g
    return n * (k // g) if d == 1 else (n * (k // g), d)


def q_div(v: Rational, k: int) -> Rational:
    """v ÷ k (k ≠ 0), reduced; a pair keeps its denominator above 1 only when it has one (7 ÷ 2 is (7, 2))."""
    if type(v) is int:
        if v % k == 0:
            return v // k
        g = gcd(v, k)
        return (v // g, k // g)
    n, d = v
    g = gcd(n, k)
    return (n // g, d * (k // g))


def q_add(a: Rational, b: Rational) -> Rational:
    """a + b, reduced."""
    if type(a) is int and type(b) is int:
        return a + b
    n1, d1 = (a, 1) if type(a) is int else a
    n2, d2 = (b, 1) if type(b) is int else b
    n, d = n1 * d2 + n2 * d1, d1 * d2
    g = gcd(n, d)
    n, d = n // g, d // g
    return n if d == 1 else (n, d)


def q_neg(v: Rational) -> Rational:
    """−v."""
    return -v if type(v) is int else (-v[0], v[1])


def q_float(v: Rational) -> float:
    """v as a float (for bounds only, never for a decision that must be exact)."""
    return v if type(v) is int else v[0] / v[1]


def multiply_all(values: set[Rational], factors: Iterable[int], add: Callable[[Rational], None]) -> None:
    """add(v × f) for every value and factor (the hottest loop of the solver, hence written out)."""
    for v in values:
        if type(v) is int:
            for f in factors:
                add(v * f)
        else:
            n, d = v
            for f in factors:
                g = gcd(f, d)
                add(n * (f // g) if g == d else (n * (f // g), d // g))


def divide_all(values: set[Rational], factors: Iterable[int], add: Callable[[Rational], None]) -> None:
    """add(v ÷ f) for every value and factor (exact, reduced; see multiply_all)."""
    for v in values:
        if type(v) is int:
            for f in factors:
                if v % f == 0:
                    add(v // f)
                else:
                    g = gcd(v, f)
                    add((v // g, f // g))
        else:
            n, d = v
            for f in factors:
                g = gcd(n, f)
                add((n // g, d * (f // g)))


def as_fraction(v: Rational) -> Fraction:
    """A hot-loop rational as a Fraction."""
    return Fraction(v) if type(v) is int else Fraction(*v)


def is_formula(faces: Sequence[Face]) -> bool:
    """Whether the faces form a valid formula (same language as grammar/suji.lark)."""
    return evaluate(faces) is not None


def value_text(value: Value) -> str:
    """The value printed the way SymPy prints it: 446, 1/3, 2*sqrt(2), 1 + sqrt(2).

    A rational value (most are) is printed by Fraction, which writes it as SymPy does; only surds go to SymPy.
    """
    rational = as_rational(value)
    if rational is not None:
        return str(rational)
    return str(to_sympy(value))


def to_sympy(value: Value, sympy_module=None):  # noqa: ANN001, ANN201 - sympy is imported lazily
    """The value as a SymPy expression."""
    if sympy_module is None:
        import sympy as sympy_module
    total = sympy_module.Integer(0)
    for r, c in value:
        total += sympy_module.Rational(c.numerator, c.denominator) * sympy_module.sqrt(r)
    return total

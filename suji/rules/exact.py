"""Exact values: the one arithmetic of the rules engine.

    ints ──squarefree_split, monomial──▶ p/q·√r ──sum_value──▶ Value (sums of rational multiples of surds)
    ints ──q_mul, q_div, q_add…──▶ Rational (the solver's hot loops: ints and reduced pairs)

Every value a formula can have is a sum of rational multiples of square roots of squarefree integers, kept as
ints and Fractions: the evaluator (suji.rules.language.evaluate) builds its values from these pieces, the solver
adds and multiplies its rationals with the functions below, and suji.rules.language.printing prints both. Tests
hold every value to SymPy's, built by the independent reference evaluator of the tests; SymPy is never called
by the package.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable
from fractions import Fraction
from math import gcd

from suji.core.caching import bounded

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


def monomial(p: int, q: int, r: int) -> Value:
    """The Value of p/q·√r (r squarefree, q ≠ 0)."""
    return ((r, Fraction(p, q)),) if p else ()


def square_root(x: int | Fraction) -> Value:
    """The Value of √x for a rational x ≥ 0: √(a/b) = √(ab)/b = (s/b)·√t with ab = s²·t, t squarefree."""
    x = Fraction(x)
    if x < 0:
        raise ValueError("the square root of a negative number is not a Value")
    if not x:
        return ()
    s, t = squarefree_split(x.numerator * x.denominator)
    return monomial(s, x.denominator, t)


def value_float(value: Value) -> float:
    """The value as a float, for what is shown rounded (never for a decision that must be exact)."""
    return sum(float(c) * math.sqrt(r) if r != 1 else float(c) for r, c in value)


def sum_value(sums: dict[int, list[int]]) -> Value:
    """The Value of unreduced sums {radicand: [numerator, denominator]} (what the evaluator adds up)."""
    return tuple((r, Fraction(num, den)) for r, (num, den) in sorted(sums.items()) if num != 0)


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


def multiply_all(values: Iterable[Rational], factors: Iterable[int], into: set[Rational]) -> None:
    """Add v × f to `into` for every value and factor (the hottest loop of the solver, hence written out: whole
    values by a set comprehension, fractions one by one)."""
    factors = tuple(factors)
    whole = [v for v in values if type(v) is int]
    into.update({v * f for v in whole for f in factors})
    if len(whole) == len(values):  # type: ignore[arg-type]
        return
    for v in values:
        if type(v) is not int:
            n, d = v
            for f in factors:
                g = gcd(f, d)
                into.add(n * (f // g) if g == d else (n * (f // g), d // g))


def multiply_within(fractions: Iterable[tuple[int, int]], factors: Collection[int], into: set[Rational], bound: float,
                    most: int) -> None:  # fmt: skip
    """Add n/d × f to `into` for every fraction and factor whose product is at most `bound` and keeps a
    denominator of at most `most` (reduced; see multiply_all): the solver keeps no other."""
    for n, d in fractions:
        for f in factors:
            g = gcd(f, d)
            x, d_left = n * (f // g), d // g
            if d_left == 1:
                if x <= bound:
                    into.add(x)
            elif d_left <= most and x <= bound * d_left:
                into.add((x, d_left))


def divide_all(values: Iterable[Rational], factors: Iterable[int], into: set[Rational]) -> None:
    """Add v ÷ f to `into` for every value and factor (exact, reduced; see multiply_all)."""
    factors = tuple(factors)
    for v in values:
        if type(v) is int:
            for f in factors:
                if v % f == 0:
                    into.add(v // f)
                else:
                    g = gcd(v, f)
                    into.add((v // g, f // g))
        else:
            n, d = v
            for f in factors:
                g = gcd(n, f)
                into.add((n // g, d * (f // g)))


def divide_within(fractions: Iterable[tuple[int, int]], factors: Collection[int], into: set[Rational],
                  most: int) -> None:  # fmt: skip
    """Add n/d ÷ f to `into` for every fraction and factor whose quotient keeps a denominator of at most `most`
    (reduced; a fraction divided is never whole)."""
    for n, d in fractions:
        for f in factors:
            g = gcd(n, f)
            if d * (f // g) <= most:
                into.add((n // g, d * (f // g)))


def at_most(values: Iterable[Rational], bound: int) -> set[Rational]:
    """The values (all positive) that are at most `bound`."""
    return {v for v in values if (v <= bound if type(v) is int else v[0] <= bound * v[1])}  # type: ignore[operator,index]


def as_fraction(v: Rational) -> Fraction:
    """A hot-loop rational as a Fraction."""
    return Fraction(v) if type(v) is int else Fraction(*v)

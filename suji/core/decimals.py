"""Numbers shown to people as decimals and percentages: rounded half up from the exact value, in one place.

Data flows: a value (a Fraction or an int, exact; a float is read as the shortest decimal that prints it, so 0.3125
is 5/16 and 0.1 is 1/10) → the exact rational → a Decimal rounded half up (ROUND_HALF_UP: a half goes away from
zero, as pupils learn it) → text. Python's round() and f-strings round a binary float half to even, so 5/16
printed as "31.2%" where a pupil, a teacher and this module say 31.3%.

Every page, lesson, game, class result and command that shows a share or a decimal calls these; the live lesson
panel (static/lessons_live.js) rounds its running counts the same way with whole numbers.
"""

from __future__ import annotations

import numbers
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

Number = Fraction | int | float | Decimal


def exact(value: Number) -> Fraction:
    """`value` as an exact fraction (a float as the decimal it prints as: 0.1 is 1/10, not 3602879701896397/2**55)."""
    if isinstance(value, Decimal):
        return Fraction(value)
    if isinstance(value, numbers.Rational):  # int, Fraction, numpy's integers: plain ints inside
        return Fraction(int(value.numerator), int(value.denominator))
    return Fraction(repr(float(value)))  # a float (numpy's too: their repr names the type)


def round_half_up(value: Number, digits: int = 0) -> Decimal:
    """`value` rounded half up (away from zero) to `digits` decimals, worked out exactly."""
    q = exact(value) * 10**digits
    whole, rest = divmod(abs(q.numerator), q.denominator)
    if 2 * rest >= q.denominator:
        whole += 1
    sign = -1 if q < 0 and whole else 1
    return (Decimal(sign * whole) / Decimal(10) ** digits).quantize(Decimal(1).scaleb(-digits), ROUND_HALF_UP)


def rounded(value: Number, digits: int = 0) -> float | int:
    """The same as a JSON number: an int for `digits` 0, else a float (3 decimals: 0.313)."""
    r = round_half_up(value, digits)
    return int(r) if digits == 0 else float(r)


def decimal_text(value: Number, digits: int = 3, trim: bool = True) -> str:
    """`value` with `digits` decimals ("0.88"), trailing zeros dropped unless `trim` is false ("0.880")."""
    text = f"{round_half_up(value, digits):f}"
    if trim and "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def exact_and_decimal(value: Number, digits: int = 2) -> str:
    """An exact value and, unless it is whole, its decimal beside it: 905/54 ≈ 16.76, but 8 (never 8 ≈ 8.00)."""
    v = exact(value)
    if v.denominator == 1:
        return str(v.numerator)
    return f"{v.numerator}/{v.denominator} ≈ {decimal_text(v, digits, trim=False)}"


def equals_sign(value: Number, shown: str) -> str:
    """"=" when `shown` (a decimal, or a percentage ending in %) is exactly `value`, else "≈": 1/2 = 50.0%, but
    1/6 ≈ 16.7%."""
    number = Fraction(shown[:-1]) / 100 if shown.endswith("%") else Fraction(shown)
    return "=" if number == exact(value) else "≈"


def significant_text(value: Number, figures: int = 3) -> str:
    """`value` to `figures` significant figures, never in exponent form, trailing zeros dropped: 3.51, 0.0123,
    1235 (a whole number keeps its digits)."""
    v = exact(value)
    if v == 0:
        return "0"
    magnitude = (Decimal(abs(v.numerator)) / Decimal(v.denominator)).adjusted()  # 10**magnitude ≤ |v|
    return decimal_text(v, max(figures - 1 - magnitude, 0))


def percent_text(value: Number, digits: int = 1) -> str:
    """A share as a percentage with `digits` decimals, always shown ("31.3%", "9.0%"), so that a column lines up."""
    return f"{round_half_up(exact(value) * 100, digits):f}%"


def grouped(value: int) -> str:
    """A whole number with a comma every three digits ("10,000"), as both languages write counts."""
    return f"{value:,}"

"""The one printer family: formulas and exact values as text.

    faces ──format_faces──▶ 21²+4+1        the printed form of a formula (what the dice show, no spaces)
    Value ──machine_text──▶ 6*sqrt(2)      the JSON `value` and every machine-read answer: SymPy's own spelling
    Value ──pupil_text────▶ 6√2            everything a person reads: pages, messages, the command line's verdict

`machine_text` writes what SymPy's str() writes for the same number, without SymPy (tests compare the two on
many values), so the JSON contract stays what it was. `pupil_text` is the one pupil spelling: the rational part
first, then the surds by increasing radicand, no spaces, the dice's symbols and a true minus (−), and a
fraction with a surd written 3√2/2, never (3/2)√2: read by the game's own rules (√ roots only the number after
it, left to right) 3√2/2 is 3×√2÷2, the right value, and needs no brackets.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from suji.rules.exact import Value, as_rational
from suji.rules.language.spelling import MINUS, OPERATOR_FACES, PLUS, Face


def format_faces(faces: Sequence[Face]) -> str:
    """The printed form of a formula: digits and + − × ÷ ×10 ×11 ×12 ² √, no spaces."""
    try:  # each face's text made once (the solver prints many formulas to break ties)
        return "".join(map(_FACE_TEXT.__getitem__, faces))
    except (KeyError, TypeError):  # anything else, printed as str() prints it
        return "".join(map(str, faces))


_FACE_TEXT: dict[Face, str] = {face: str(face) for face in (*range(10), *OPERATOR_FACES)}


# ---- the machine's spelling (SymPy's) ----------------------------------------------------------------------


def _machine_term(r: int, c: Fraction) -> str:
    """One term as SymPy's str() prints it: 3/2, sqrt(2), -sqrt(2), 6*sqrt(2), 3*sqrt(2)/2, -sqrt(2)/3."""
    if r == 1:
        return str(c)
    sign = "-" if c < 0 else ""
    p, q = abs(c.numerator), c.denominator
    text = f"sqrt({r})" if p == 1 else f"{p}*sqrt({r})"
    return f"{sign}{text}" if q == 1 else f"{sign}{text}/{q}"


def machine_text(value: Value) -> str:
    """The value as SymPy prints it: 446, 1/3, 2*sqrt(2), 1 + sqrt(2), -1 + sqrt(5), 48 - 12*sqrt(3).

    SymPy orders the terms of a sum of numbers by their size, smallest first, except that a positive rational
    and one negative surd with a coefficient print as "a - b" (sympy.Expr.as_ordered_terms); then the first
    term carries its own sign and the others " + " or " - ".
    """
    rational = as_rational(value)
    if rational is not None:
        return str(rational)
    terms = list(value)
    if len(terms) == 2 and terms[0][0] == 1 and terms[0][1] > 0 and terms[1][1] < 0:
        ordered = terms  # a − b: a positive rational and a negative surd (the radicand 1 sorts first)
    else:
        ordered = sorted(terms, key=lambda t: float(t[1]) * math.sqrt(t[0]))
    parts = []
    for k, (r, c) in enumerate(ordered):
        text = _machine_term(r, c)
        if k == 0:
            parts.append(text)
        elif text.startswith("-"):
            parts.append(f" - {text[1:]}")
        else:
            parts.append(f" + {text}")
    return "".join(parts)


# ---- the pupil's spelling -------------------------------------------------------------------------------------


def _pupil_term(r: int, c: Fraction) -> str:
    """|c|·√r without its sign: 7/2, √2, 2√2, 3√2/2 (the denominator last, as a pupil writes it)."""
    p, q = abs(c.numerator), c.denominator
    if r == 1:
        text = str(p)
    else:
        text = f"√{r}" if p == 1 else f"{p}√{r}"
    return text if q == 1 else f"{text}/{q}"


def pupil_text(value: Value) -> str:
    """A value as a pupil reads it everywhere: 14, 7/2, 2√2, 3√2/2, 3+√2, −7/2, 1−√2 (no spaces, the dice's
    symbols, the rational part first and then the surds by increasing radicand)."""
    if not value:
        return "0"
    parts = []
    for k, (r, c) in enumerate(value):
        if c.numerator < 0:  # the sign of c (its denominator is positive), without Fraction's comparison
            parts.append(MINUS)
        elif k:
            parts.append(PLUS)
        parts.append(_pupil_term(r, c))
    return "".join(parts)

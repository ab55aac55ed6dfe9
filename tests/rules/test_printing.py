"""suji.rules.language.printing: the machine's spelling is SymPy's own, the pupil's one spelling, formulas in print."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
import sympy
from grammar_reference import to_sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from suji_reference import formulas
from tiers import examples

from suji.rules.exact import squarefree_split
from suji.rules.language.evaluate import evaluate
from suji.rules.language.printing import format_faces, machine_text, pupil_text

RADICANDS = [r for r in range(1, 120) if squarefree_split(r)[0] == 1]


def random_values(count: int, seed: int) -> list:
    rng = random.Random(seed)
    values = []
    for _ in range(count):
        radicands = sorted(rng.sample(RADICANDS, rng.randint(1, 4)))
        value = []
        for r in radicands:
            numerator = rng.choice([-1, 1]) * rng.randint(1, rng.choice([3, 30, 10**6]))
            value.append((r, Fraction(numerator, rng.choice([1, 1, 2, 3, 7, 28, 261, 3025]))))
        values.append(tuple(value))
    return values


def test_the_machine_spelling_is_what_sympy_prints_on_many_values():
    """Sums of up to four surds and a rational, signs and sizes of every kind: SymPy orders and signs them so."""
    for value in random_values(3000, 23):
        assert machine_text(value) == str(to_sympy(value)), value


@settings(max_examples=examples(300))
@given(formulas())
def test_the_machine_spelling_of_formula_values_is_sympys(faces):
    value = evaluate(faces)
    assert machine_text(value) == str(to_sympy(value))


@pytest.mark.parametrize(
    ("value", "machine", "pupil"),
    [
        ((), "0", "0"),
        (((1, Fraction(446)),), "446", "446"),
        (((1, Fraction(-7, 2)),), "-7/2", "−7/2"),
        (((2, Fraction(6)),), "6*sqrt(2)", "6√2"),
        (((2, Fraction(3, 2)),), "3*sqrt(2)/2", "3√2/2"),
        (((2, Fraction(-1, 3)),), "-sqrt(2)/3", "−√2/3"),
        (((1, Fraction(1)), (2, Fraction(1))), "1 + sqrt(2)", "1+√2"),
        (((1, Fraction(-1)), (5, Fraction(1))), "-1 + sqrt(5)", "−1+√5"),
        (((1, Fraction(48)), (3, Fraction(-12))), "48 - 12*sqrt(3)", "48−12√3"),
        (((1, Fraction(82)), (5, Fraction(1))), "sqrt(5) + 82", "82+√5"),
    ],
)
def test_machine_and_pupil_spellings(value, machine, pupil):
    assert machine_text(value) == machine == str(to_sympy(value))
    assert pupil_text(value) == pupil


@settings(max_examples=examples(300))
@given(st.lists(st.integers(0, 3), min_size=1, max_size=4), st.data())
def test_the_pupil_spelling_reads_back_to_the_value(kinds, data):
    """Read by the game's own rules (√ roots the number after it, left to right), the pupil's text of a value is
    that value: 3√2/2 is 3×√2÷2."""
    value = data.draw(st.sampled_from(random_values(200, sum(kinds))))
    text = pupil_text(value)
    assert "*" not in text and "-" not in text and " " not in text
    readable = text.replace("√", "*sqrt(").replace("−", "-")
    expression = ""
    opened = False
    for ch in readable:
        if opened and not ch.isdigit():
            expression += ")"
            opened = False
        expression += ch
        if expression.endswith("sqrt("):
            opened = True
    expression += ")" if opened else ""
    expression = expression.replace("(*sqrt", "(sqrt").lstrip("*").replace("+*", "+").replace("-*", "-")
    assert sympy.simplify(sympy.sympify(expression) - to_sympy(value)) == 0, (text, expression)


def test_formulas_print_as_the_dice_show_them():
    assert format_faces((2, 1, "²", "+", 4, "+", 1)) == "21²+4+1"
    assert format_faces(("√", 9, "×11")) == "√9×11"


def test_format_faces_prints_each_face_as_str_does():
    # The printer keeps each face's text made once; held to the plain join of str() on every face of the dice
    # and on random formulas of them, and anything else falls back to str() (a die name the table lacks).
    from suji.rules.language.spelling import OPERATOR_FACES

    faces = [*range(10), *OPERATOR_FACES]
    rng = random.Random("format_faces")
    for _ in range(2000):
        formula = tuple(rng.choice(faces) for _ in range(rng.randint(1, 12)))
        assert format_faces(formula) == "".join(str(f) for f in formula)
    assert format_faces((1, "×13", 2)) == "1×132"
    assert format_faces([12, "+", 3]) == "12+3"

"""suji.rules.exact and the one evaluator (suji.rules.language.evaluate): exact values, checked against examples
and the independent reference evaluator; the machine's printer against SymPy's."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from grammar_reference import to_sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from suji_reference import face_sequences, formulas, reference_value, same_value
from tiers import examples

from suji.rules.exact import (
    as_fraction,
    as_rational,
    at_most,
    divide_all,
    divide_within,
    multiply_all,
    multiply_within,
    q_add,
    q_div,
    q_float,
    q_mul,
    q_neg,
    rational_value,
    square_root,
    squarefree_split,
    value_float,
)
from suji.rules.language.evaluate import evaluate, has_value, is_formula, value_terms
from suji.rules.language.printing import machine_text as value_text


@pytest.mark.parametrize(
    ("faces", "value"),
    [
        ((5,), 5),
        ((5, "+", 1, "−", 1), 5),
        ((2, 1, "²", "+", 4, "+", 1), 446),  # 21² is 441: ² squares only the number before it
        ((2, "÷", 1, 1, "×11"), 2),  # (2÷11)×11, left to right
        ((2, "÷", 1, 1, "×", 1, 1), 2),
        ((8, "+", 2, "÷", 1, 1, "×11"), 10),
        (("√", 9, "+", 4), 7),
        ((3, "+", "√", 4, "²"), 7),
        ((5, "−", 1, "²"), 4),
        (("−", 5, "+", 8), 3),
        (("−", 2, "²"), -4),  # the sign is not part of the squared number
        ((2, 3, "×11"), 253),
        ((3, 2, "×12", "÷", 4), 96),
        ((2, "×", 3, "²", "×10"), 180),
        ((1, "÷", 3), Fraction(1, 3)),
    ],
)
def test_rational_examples(faces, value):
    assert evaluate(faces) == rational_value(value)
    assert as_rational(evaluate(faces)) == value


@pytest.mark.parametrize(
    ("faces", "text"),
    [
        (("√", 8), "2*sqrt(2)"),
        (("√", 2, "+", 1), "1 + sqrt(2)"),
        (("√", 2, "×", "√", 3), "sqrt(6)"),
        ((1, "÷", "√", 2), "sqrt(2)/2"),
        (("√", 1, 2, "÷", "√", 3), "2"),
        (("√", 2, "−", "√", 8), "-sqrt(2)"),
        (("√", 2, "−", "√", 2), "0"),
        ((3, "÷", 9), "1/3"),
    ],
)
def test_surds_and_value_text(faces, text):
    assert value_text(evaluate(faces)) == text


def test_value_representation():
    assert evaluate(("√", 8)) == ((2, Fraction(2)),)
    assert evaluate(("√", 2, "−", "√", 2)) == ()
    assert as_rational(()) == 0
    assert as_rational(evaluate(("√", 2))) is None
    assert rational_value(0) == ()
    assert to_sympy(evaluate(("√", 8, "+", 1))) == 1 + 2 * sympy.sqrt(2)


@pytest.mark.parametrize(
    ("n", "split"), [(1, (1, 1)), (8, (2, 2)), (12, (2, 3)), (72, (6, 2)), (30, (1, 30))]
)
def test_squarefree_split(n, split):
    assert squarefree_split(n) == split


@given(st.fractions(min_value=0, max_value=10**6, max_denominator=10**4))
@settings(max_examples=examples(300))
def test_square_root_is_sympys_and_its_float_is_close(x):
    root = square_root(x)
    assert same_value(to_sympy(root), sympy.sqrt(sympy.Rational(x.numerator, x.denominator)))
    assert value_float(root) == pytest.approx(float(x) ** 0.5, rel=1e-12)


def test_square_root_of_a_negative_number_is_refused():
    with pytest.raises(ValueError):
        square_root(Fraction(-1, 4))


@pytest.mark.parametrize(
    "faces",
    [
        (),
        ("+", 5),
        (5, "+"),
        (5, "+", "×", 3),
        (5, "×10", 3),  # no number right after a constant die
        (5, "×10", "×11"),
        ("×10", 5),
        ("²", 5),
        (5, "²", "²"),
        (5, "²", 3),
        (5, "√"),
        (5, "√", 4),
        ("√", "√", 4),
        ("−", "−", 5),
        ("−",),
        ("√",),
    ],
)
def test_not_formulas(faces):
    assert evaluate(faces) is None
    assert not is_formula(faces)


@pytest.mark.slow
@settings(max_examples=300)
@given(formulas())
def test_evaluate_matches_the_reference(faces):
    expected = reference_value(faces)
    assert expected is not None
    value = evaluate(faces)
    assert value is not None
    assert same_value(to_sympy(value), expected)
    # the representation is canonical: sorted squarefree radicands, no zero coefficients
    radicands = [r for r, _ in value]
    assert radicands == sorted(set(radicands))
    assert all(c != 0 and squarefree_split(r)[0] == 1 for r, c in value)


@settings(max_examples=100)  # SymPy prints slowly; the full run's reference tests cover more values
@given(formulas())
def test_value_text_prints_as_sympy_prints_the_value(faces):
    value = evaluate(faces)
    assert value_text(value) == str(to_sympy(value))  # and to_sympy(value) is the reference's (above)


@settings(max_examples=examples(500))
@given(face_sequences())
def test_validity_matches_the_reference(faces):
    assert is_formula(faces) == (reference_value(faces) is not None)


@pytest.mark.slow  # 300 pairs of formulas (2 s): the full run has it
@settings(max_examples=300)
@given(formulas(), face_sequences())
def test_has_value_is_evaluate_then_compare(faces, other):
    """The stripping's fast comparison says what evaluating both and comparing the values says."""
    terms = value_terms(evaluate(faces))
    assert has_value(other, terms) == (evaluate(other) == evaluate(faces))
    assert has_value(faces, terms)
    for cut in range(1, len(faces)):  # sub-formulas of the formula itself, as the stripping tries them
        sub = faces[:cut] + faces[cut + 1 :]
        assert has_value(sub, terms) == (evaluate(sub) == evaluate(faces))


def test_a_zero_from_custom_dice_is_zero_under_a_root_and_no_divisor():
    # Standard dice never show 0; custom ones may. √0 is 0, and dividing by it (or by 0) is no value at all.
    assert evaluate(["√", 0, "+", 1]) == rational_value(1)
    assert evaluate([8, "÷", "√", 0]) is None and evaluate([8, "÷", 0]) is None
    assert evaluate([8, "×", "√", 0, "+", 2]) == rational_value(2)


# ---- rationals for hot loops: the same arithmetic as Fraction -------------------------------------------------

hot_rationals = st.one_of(
    st.integers(-(10**6), 10**6),
    st.tuples(st.integers(-(10**6), 10**6), st.integers(2, 10**4)).map(lambda nd: _reduced(*nd)),
)


def _reduced(n: int, d: int):
    value = Fraction(n, d)
    return value.numerator if value.denominator == 1 else (value.numerator, value.denominator)


def _is_reduced(v) -> bool:
    return type(v) is int or (v[1] > 1 and Fraction(*v).denominator == v[1])


@settings(max_examples=examples(300))
@given(hot_rationals, hot_rationals, st.integers(1, 2000))
def test_hot_loop_rationals_compute_as_fractions(a, b, k):
    fa, fb = as_fraction(a), as_fraction(b)
    for got, want in [(q_add(a, b), fa + fb), (q_neg(a), -fa), (q_mul(a, k), fa * k), (q_div(a, k), fa / k)]:
        assert as_fraction(got) == want and _is_reduced(got)
    assert q_float(a) == float(fa)
    grown, shrunk = set(), set()
    multiply_all({a, b}, [k, 3], grown)
    divide_all({a, b}, [k, 3], shrunk)
    assert {as_fraction(v) for v in grown} == {x * f for x in (fa, fb) for f in (k, 3)}
    assert {as_fraction(v) for v in shrunk} == {x / f for x in (fa, fb) for f in (k, 3)}
    assert all(_is_reduced(v) for v in grown | shrunk)
    positive = {v for v in grown | shrunk if as_fraction(v) > 0}
    assert at_most(positive, k) == {v for v in positive if as_fraction(v) <= k}


@settings(max_examples=examples(300))
@given(
    st.lists(st.tuples(st.integers(1, 10**4), st.integers(2, 200)).map(lambda nd: _reduced(*nd)), max_size=6),
    st.lists(st.integers(1, 300), min_size=1, max_size=4),
    st.integers(1, 10**5),
    st.integers(1, 60),
)
def test_the_solvers_bounded_fraction_loops_compute_as_fractions(values, factors, bound, most):
    # Only fractions go in (the solver makes whole products and quotients itself).
    fractions = [v for v in values if type(v) is not int]
    grown, shrunk = set(), set()
    multiply_within(fractions, factors, grown, bound, most)
    divide_within(fractions, factors, shrunk, most)
    exact = [as_fraction(v) for v in fractions]
    assert {as_fraction(v) for v in grown} == {
        x * f for x in exact for f in factors if x * f <= bound and (x * f).denominator <= most
    }
    assert {as_fraction(v) for v in shrunk} == {x / f for x in exact for f in factors if (x / f).denominator <= most}
    assert all(_is_reduced(v) for v in grown | shrunk)

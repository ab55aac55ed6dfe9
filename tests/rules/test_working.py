"""suji.rules.working: the steps of a formula in the order of RULES.md §1, checked against examples and references."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
import sympy
from grammar_reference import to_sympy
from hypothesis import given, settings
from suji_reference import formulas, reference_value, same_value

from suji.core.i18n import LANGUAGES
from suji.rules.dice import Roll
from suji.rules.language.evaluate import evaluate
from suji.rules.language.printing import format_faces, pupil_text
from suji.rules.language.reader import parse
from suji.rules.scoring import check
from suji.rules.working import NUMBER, PHASES, REASONS, Working, checked_working, working


def summary(w: Working) -> list[tuple]:
    """(op, operands, result, span) of every step, values in the pupil's spelling."""
    return [(s.op, [pupil_text(v) for v in s.operands], pupil_text(s.result), s.span) for s in w.steps]


# ---- worked examples --------------------------------------------------------------------------------------


def test_times_before_plus():
    w = working((2, "+", 3, "×", 4))
    assert summary(w) == [("×", ["3", "4"], "12", (2, 5)), ("+", ["2", "12"], "14", (0, 5))]
    assert w.lines == ["2+3×4", "2+12", "14"]
    assert [s.text for s in w.steps] == ["3 × 4 = 12", "2 + 12 = 14"]
    assert to_sympy(w.value) == 14
    # the new part of each line is the step's result
    first = w.steps[0]
    assert [p.text for p in first.parts] == ["2", "+", "12"]
    assert first.changed == 2 and to_sympy(first.parts[2].value) == 12 and first.parts[2].span == (2, 5)


def test_digits_join_first():
    w = working((2, 6, "+", 1))
    assert summary(w) == [(NUMBER, ["2", "6"], "26", (0, 2)), ("+", ["26", "1"], "27", (0, 4))]
    assert w.steps[0].text == "2 6 → 26"
    assert [p.text for p in w.start] == ["2", "6", "+", "1"]  # before: one part a die
    assert [p.text for p in w.steps[0].parts] == ["26", "+", "1"]


def test_division_is_exact_and_left_to_right():
    w = working((7, "÷", 2, "×", 4))
    assert summary(w) == [("÷", ["7", "2"], "7/2", (0, 3)), ("×", ["7/2", "4"], "14", (0, 5))]
    assert to_sympy(w.steps[0].result) == sympy.Rational(7, 2)
    assert w.lines == ["7÷2×4", "7/2×4", "14"]


def test_root_of_eight_is_two_root_two():
    w = working(("√", 8))
    assert summary(w) == [("√", ["8"], "2√2", (0, 2))]
    assert to_sympy(w.value) == 2 * sympy.sqrt(2)
    assert w.steps[0].text == "√8 = 2√2"


def test_seed_example_446():
    w = working((2, 1, "²", "+", 4, "+", 1))
    assert summary(w) == [
        (NUMBER, ["2", "1"], "21", (0, 2)),
        ("²", ["21"], "441", (0, 3)),  # ² squares only the number before it
        ("+", ["441", "4"], "445", (0, 5)),
        ("+", ["445", "1"], "446", (0, 7)),
    ]
    assert w.lines == ["21²+4+1", "21²+4+1", "441+4+1", "445+1", "446"]


def test_constant_die_multiplies_left_to_right():
    w = working((8, "+", 2, "÷", 1, 1, "×11"))  # (2÷11)×11 = 2, RULES.md §1 rule 4
    assert summary(w) == [
        (NUMBER, ["1", "1"], "11", (4, 6)),
        ("÷", ["2", "11"], "2/11", (2, 6)),
        ("×11", ["2/11"], "2", (2, 7)),
        ("+", ["8", "2"], "10", (0, 7)),
    ]
    assert w.steps[2].text == "2/11 × 11 = 2"
    assert w.lines[1:] == ["8+2÷11×11", "8+2/11×11", "8+2", "10"]


def test_square_on_the_subtracted_number():
    w = working((5, "−", 1, "²"))
    assert summary(w) == [("²", ["1"], "1", (2, 4)), ("−", ["5", "1"], "4", (0, 4))]


def test_leading_sign_negates_the_first_term_only():
    w = working(("−", 3, "+", 5))
    assert summary(w) == [("−", ["3"], "−3", (0, 2)), ("+", ["−3", "5"], "2", (0, 4))]
    assert w.steps[0].phase == "sign" and w.steps[1].phase == "sum"
    assert w.steps[0].text == "−(3) = −3"
    # the sign waits for its term's × and ÷, and the sign is not part of a squared number
    assert summary(working(("−", 2, "²", "×", 3))) == [
        ("²", ["2"], "4", (1, 3)),
        ("×", ["4", "3"], "12", (1, 5)),
        ("−", ["12"], "−12", (0, 5)),
    ]


def test_root_of_a_square_squares_first():
    w = working((3, "+", "√", 4, "²"))
    assert summary(w) == [
        ("²", ["4"], "16", (3, 5)),
        ("√", ["16"], "4", (2, 5)),
        ("+", ["3", "4"], "7", (0, 5)),
    ]
    assert w.lines == ["3+√4²", "3+√16", "3+4", "7"]


def test_several_terms_with_spans():
    # 1 2 ÷ 8 × √ 3  −  4 ² ×10  +  √ 2 7 × 5
    faces = (1, 2, "÷", 8, "×", "√", 3, "−", 4, "²", "×10", "+", "√", 2, 7, "×", 5)
    w = working(faces)
    assert summary(w) == [
        (NUMBER, ["1", "2"], "12", (0, 2)),
        (NUMBER, ["2", "7"], "27", (13, 15)),
        ("√", ["3"], "√3", (5, 7)),
        ("²", ["4"], "16", (8, 10)),
        ("√", ["27"], "3√3", (12, 15)),
        ("÷", ["12", "8"], "3/2", (0, 4)),
        ("×", ["3/2", "√3"], "3√3/2", (0, 7)),
        ("×10", ["16"], "160", (8, 11)),
        ("×", ["3√3", "5"], "15√3", (12, 17)),
        ("−", ["3√3/2", "160"], "−160+3√3/2", (0, 11)),
        ("+", ["−160+3√3/2", "15√3"], "−160+33√3/2", (0, 17)),
    ]
    assert w.lines[-3:] == ["3√3/2−160+15√3", "−160+3√3/2+15√3", "−160+33√3/2"]
    assert w.steps[-1].text == "(−160+3√3/2) + 15√3 = −160+33√3/2"
    assert same_value(to_sympy(w.value), reference_value(faces))


def test_division_by_a_surd_is_bracketed_in_the_line():
    w = working((2, "÷", "√", 8))
    assert w.lines == ["2÷√8", "2÷(2√2)", "√2/2"]  # not 2÷2√2, which the game would read as 2÷2×√2
    assert w.steps[1].text == "2 ÷ (2√2) = √2/2"


def test_single_digit_has_no_steps():
    w = working([5])
    assert w.steps == () and to_sympy(w.value) == 5 and w.lines == ["5"]
    assert w.to_dict()["steps"] == [] and w.to_dict()["value"] == "5"


@pytest.mark.parametrize(
    "faces",
    [
        (),
        ("+", 5),
        (5, "+"),
        (5, "×10", 3),
        (5, "²", "²"),
        ("√",),
        (5, "√", 4),
        ("−", "−", 5),
        (5, "×10", "×11"),
    ],
)
def test_not_a_formula(faces):
    with pytest.raises(ValueError, match="not a formula"):
        working(faces)


@pytest.mark.parametrize("faces", [(0,), (10,), (True,), ("*", 2), (2, "/", 3), (2, "-", 1), (2.0,)])
def test_not_die_faces(faces):
    with pytest.raises(ValueError, match="not a die face"):
        working(faces)


# ---- printing ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (sympy.Integer(14), "14"),
        (sympy.Integer(0), "0"),
        (sympy.Rational(7, 2), "7/2"),
        (sympy.Rational(-7, 2), "−7/2"),
        (sympy.sqrt(8), "2√2"),
        (sympy.sqrt(2), "√2"),
        (-sympy.sqrt(2), "−√2"),
        (sympy.Rational(3, 2) * sympy.sqrt(2), "3√2/2"),
        (sympy.sqrt(2) / 2, "√2/2"),
        (3 + sympy.sqrt(2), "3+√2"),
        (1 - sympy.sqrt(2), "1−√2"),
        (-1 + sympy.sqrt(5) - sympy.Rational(2, 3) * sympy.sqrt(3), "−1−2√3/3+√5"),
        (5, "5"),
        (Fraction(-1, 3), "−1/3"),
    ],
)
def test_values_in_the_pupils_spelling(value, text):
    assert pupil_text(value_of(value)) == text
    assert not any(ch in text for ch in "*-")


def value_of(number) -> tuple:
    """A SymPy number Σ q·√r (or an int or Fraction) as a suji.rules.exact Value."""
    from suji.rules.exact import squarefree_split

    found: dict[int, Fraction] = {}
    for term in sympy.Add.make_args(sympy.sympify(number)):
        coeff, rest = term.as_coeff_Mul()
        radicand = 1 if rest == 1 else int(rest.base)
        k, r = squarefree_split(radicand)
        found[r] = found.get(r, Fraction(0)) + Fraction(int(coeff.p), int(coeff.q)) * k
    return tuple((r, c) for r, c in sorted(found.items()) if c)


# ---- data for a page -------------------------------------------------------------------------------------


def test_to_dict_shape_and_json():
    data = working((2, "+", 3, "×", 4)).to_dict()
    json.dumps(data)  # JSON-ready
    assert data["formula"] == "2+3×4" and data["value"] == "14" and data["value_sympy"] == "14"
    assert data["lines"] == ["2+3×4", "2+12", "14"]
    assert [p["text"] for p in data["start_parts"]] == ["2", "+", "3", "×", "4"]
    first = data["steps"][0]
    assert {k: first[k] for k in ("op", "operands", "result", "span", "line", "text", "phase")} == {
        "op": "×",
        "operands": ["3", "4"],
        "result": "12",
        "span": [2, 5],
        "line": "2+12",
        "text": "3 × 4 = 12",
        "phase": "product",
    }
    assert first["line_parts"] == [
        {"kind": "value", "text": "2", "span": [0, 1], "changed": False},
        {"kind": "operator", "text": "+", "span": [1, 2], "changed": False},
        {"kind": "value", "text": "12", "span": [2, 5], "changed": True},
    ]
    assert first["changed_part"] == 2
    assert first["reason"] == REASONS["product"]
    surd = working(("√", 8)).to_dict()
    assert surd["value"] == "2√2" and surd["value_sympy"] == "2*sqrt(2)"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_reasons_translate(lang):
    w = working(("−", 2, 6, "²", "×", 3, "+", 1))
    for step in w.steps:
        assert step.reason(lang)  # the catalog may not have them yet: English falls through
        assert step.to_dict(lang)["reason"] == step.reason(lang)
    assert [s.phase for s in w.steps] == ["number", "power", "product", "sign", "sum"]


def test_parsed_text_gives_the_same_working():
    assert working(parse("21²+4+1").faces).lines[-1] == "446"


# ---- properties ----------------------------------------------------------------------------------------------


def roll_with(faces) -> Roll:
    """A roll that holds exactly the dice of `faces` (a 9 is a custom die showing 9)."""
    return Roll(
        target_dice=(1,),
        number_dice=tuple(f for f in faces if isinstance(f, int)),
        operator_dice=tuple(f for f in faces if isinstance(f, str)),
    )


@pytest.mark.slow
@settings(max_examples=200)
@given(formulas())
def test_working_matches_every_evaluator(faces):
    w = working(faces)
    expected = reference_value(faces)
    assert same_value(to_sympy(w.value), expected)
    assert w.value == evaluate(faces)
    if w.steps:
        assert w.steps[-1].result == w.value
        assert w.steps[-1].parts == (w.steps[-1].parts[0],)  # the last line is the value alone
    result = check(format_faces(faces), roll_with(faces))
    assert result.valid and result.exact == w.value

    # one step per number of several dice and one per operator die
    digit_runs, run = 0, 0
    for face in (*faces, "+"):
        if isinstance(face, int):
            run += 1
        else:
            digit_runs += run > 1
            run = 0
    assert len(w.steps) == digit_runs + sum(isinstance(f, str) for f in faces)

    for step in w.steps:
        start, end = step.span
        assert 0 <= start < end <= len(faces)
        # the changed part is the result and covers the step's span; the line's parts tile the formula
        assert step.parts[step.changed].value == step.result and step.parts[step.changed].span == step.span
        assert [p.span[0] for p in step.parts] == [0, *(p.span[1] for p in step.parts[:-1])]
        assert step.parts[-1].span[1] == len(faces)
        assert "*" not in step.line and "sqrt" not in step.line and "-" not in step.line
    assert [s.phase for s in w.steps] == sorted((s.phase for s in w.steps), key=PHASES.index)


@pytest.mark.slow
@settings(max_examples=200)
@given(formulas())
def test_each_line_keeps_the_value(faces):
    # Every line of the working, read with the precedence of RULES.md (its values as they stand), has the value
    # of the formula: no step changes what the line is worth.
    w = working(faces)
    assert same_value(_line_value(w.start), to_sympy(w.value))
    for step in w.steps:
        assert same_value(_line_value(step.parts), to_sympy(w.value))


def _line_value(parts) -> sympy.Expr:
    """The value of a line: exact values and operator dice, digits side by side still one number."""
    items: list = []
    for part in parts:
        value = to_sympy(part.value) if part.value is not None else None
        if value is not None and items and not isinstance(items[-1], str):
            items[-1] = items[-1] * 10 + value  # digits not joined yet
        else:
            items.append(value if value is not None else part.face)
    while "²" in items:
        k = items.index("²")
        items[k - 1 : k + 1] = [items[k - 1] ** 2]
    while "√" in items:
        k = items.index("√")
        items[k : k + 2] = [sympy.sqrt(items[k + 1])]
    sign, i = (-1, 1) if items[0] == "−" else (1, 0)
    total = sympy.Integer(0)
    add = sign
    while True:
        value, i = items[i], i + 1
        while i < len(items) and items[i] not in ("+", "−"):
            op = items[i]
            if op in ("×10", "×11", "×12"):
                value, i = value * int(op[1:]), i + 1
            else:
                value, i = (value * items[i + 1] if op == "×" else value / items[i + 1]), i + 2
        total += add * value
        if i == len(items):
            return total
        add, i = (1 if items[i] == "+" else -1), i + 1


# ---- the working where people see it: the command line and the API ------------------------------------------


def test_suji_check_steps_prints_and_returns_the_working(capsys):
    from suji.cli import main

    args = ["check", "8+2÷11×11", "--target", "10", "--number-dice", "8", "2", "1", "1",
            "--operator-dice", "+", "/", "x11", "--lang", "en"]  # fmt: skip
    assert main([*args, "--steps"]) == 0
    out = capsys.readouterr().out
    assert "2/11 × 11 = 2" in out and "The scored formula, worked out:" in out and "8 + 2 = 10" in out
    assert main([*args, "--steps", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["steps"]["formula"]["lines"][-1] == "10"
    assert data["steps"]["scored_formula"]["formula"] == "8+2"
    assert main([*args, "--json"]) == 0
    assert "steps" not in json.loads(capsys.readouterr().out)


def test_the_api_gives_the_working_when_asked(client):
    body = {
        "formula": "2+3×4",
        "target": 14,
        "number_dice": [2, 3, 4],
        "operator_dice": ["+", "×"],
        "lang": "ja",
    }
    data = client.post("/api/check", json={**body, "steps": True}).get_json()
    assert (
        data["steps"]["formula"]["lines"] == ["2+3×4", "2+12", "14"]
        and data["steps"]["scored_formula"] is None
    )
    assert "steps" not in client.post("/api/check", json=body).get_json()
    assert client.post("/api/check", json={**body, "steps": "yes"}).status_code == 400
    invalid = client.post("/api/check", json={**body, "formula": "2++3", "steps": True}).get_json()
    assert invalid["steps"] is None


def test_the_working_says_when_a_6_was_read_as_9():
    from suji.rules.dice import Roll
    from suji.rules.scoring import check

    roll = Roll.of([6, 2, 3, 3, 1], ["+", "−", "×", "+"], [1, 2, 5])
    assert checked_working(check("92+33", roll), "en", roll)["six_as_nine"]
    assert not checked_working(check("62+33", roll), "en", roll)["six_as_nine"]
    custom = Roll.of([9, 2, 3, 3, 1], ["+"], target=125)
    assert not checked_working(check("92+33", custom), "en", custom)["six_as_nine"]

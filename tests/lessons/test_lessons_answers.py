"""The lesson answer reader: fractions, decimals, percentages, full-width and Japanese forms; never eval."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from suji.lessons.answers import AnswerError, parse_answer
from suji.lessons.steps import CLOSE, CORRECT, ERROR, WRONG, Step, check_answer


@pytest.mark.parametrize(
    "text",
    ["3/8", "0.375", ".375", "37.5%", "37.5 %", "３/８", "３／８", "０．３７５", "３７．５％", " 3 / 8 ",
     "8分の3", "８分の３", "37.5パーセント", "6/16"],
)  # fmt: skip
def test_three_eighths_in_every_form(text):
    assert parse_answer(text) == Fraction(3, 8)


@pytest.mark.parametrize(
    ("text", "value"),
    [("1/2", Fraction(1, 2)), ("50%", Fraction(1, 2)), ("2", Fraction(2)), ("17.5", Fraction(35, 2)),
     ("-1/2", Fraction(-1, 2)), ("−3.5", Fraction(-7, 2)), ("1 1/2", Fraction(3, 2)), ("100%", Fraction(1))],
)  # fmt: skip
def test_other_values(text, value):
    assert parse_answer(text) == value


@pytest.mark.parametrize(
    ("text", "code"),
    [("", "empty"), ("   ", "empty"), ("1/0", "zero_denominator"), ("0分の3", "zero_denominator"),
     ("abc", "not_a_number"), ("__import__('os').system('true')", "not_a_number"), ("1e5", "not_a_number"),
     ("2**10", "not_a_number"), ("1/2/3", "not_a_number"), ("9" * 41, "too_long"), ("1" * 13, "not_a_number"),
     ("3/8%", "not_a_number"), (None, "not_a_number")],
)  # fmt: skip
def test_bad_answers_give_an_error_code(text, code):
    with pytest.raises(AnswerError) as err:
        parse_answer(text)
    assert err.value.code == code


@given(st.integers(0, 10**6), st.integers(1, 10**6))
def test_any_typed_fraction_reads_back(num, den):
    assert parse_answer(f"{num}/{den}") == Fraction(num, den)


@given(st.text(max_size=60))
def test_any_text_is_a_fraction_or_an_answer_error(text):
    try:
        assert isinstance(parse_answer(text), Fraction)
    except AnswerError as err:
        assert err.code in {"empty", "too_long", "not_a_number", "zero_denominator"}


STEP = Step("t", "q", Fraction(1, 6), "e")


@pytest.mark.parametrize(
    ("text", "result"),
    [("1/6", CORRECT), ("2/12", CORRECT), ("0.1667", CLOSE), ("16.7%", CLOSE), ("1/5", WRONG), ("x", ERROR)],
)
def test_check_answer_is_exact(text, result):
    assert check_answer(STEP, text, "en").result == result


def test_check_messages_are_translated():
    assert check_answer(STEP, "", "en").message != check_answer(STEP, "", "ja").message


# ---- commas: thousands separators, or a decimal comma as many pupils write it ----------------------------------


@pytest.mark.parametrize("text", ["0,375", ",375", "37,5%", "０，３７５", "３７，５％", "0,375 "])
def test_a_decimal_comma_is_a_decimal_point(text):
    assert parse_answer(text) == Fraction(3, 8)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1,000", 1000),
        ("12,345", 12345),
        ("1,234,567", 1234567),
        ("1,000.5", Fraction(2001, 2)),
        ("12,5", Fraction(25, 2)),
    ],
)
def test_thousands_separators_are_dropped(text, value):
    assert parse_answer(text) == value


@pytest.mark.parametrize("text", ["1,2,3", "0,375,1", "1,,5", "3,/8", "1,000,5"])
def test_other_commas_are_refused(text):
    with pytest.raises(AnswerError) as err:
        parse_answer(text)
    assert err.value.code == "not_a_number"


def test_a_decimal_comma_answer_is_checked_as_its_value():
    step = Step("t", "q", Fraction(3, 8), "e")
    check = check_answer(step, "0,375", "en")
    assert check.result == CORRECT and "375" not in check.message.replace("3/8", "")


# ---- a wrong answer: neutral words and a hint, never the explanation ------------------------------------------


def test_wrong_answer_message_is_neutral_in_japanese():
    wrong = check_answer(STEP, "1/5", "ja").message
    assert "おしい" not in wrong and "ちがいます" in wrong and "1/5" in wrong
    assert check_answer(STEP, "0.1667", "ja").result == CLOSE  # "close" stays its own verdict
    assert "explanation" not in check_answer(STEP, "1/5", "en").message


@pytest.mark.parametrize(
    ("answer", "accept", "words"),
    [(Fraction(1, 6), None, "probability"), (Fraction(11), None, "whole number"),
     (Fraction(7, 2), None, "not a whole number"), (Fraction(1, 2), (Fraction(1, 3), Fraction(2, 3)), "estimates")],
)  # fmt: skip
def test_generic_hint_says_what_form_the_answer_takes(answer, accept, words):
    step = Step("t", "q", answer, "e", accept=accept)
    assert words in step.hint_text("en")
    assert step.hint_text("ja") != step.hint_text("en")
    assert Step("t", "q", answer, "e", hint="Hint: count.").hint_text("en") == "Hint: count."


@pytest.mark.parametrize("text", ["12%", "３／２５", "0.12", " 12 % ", "25分の3"])
def test_a_wrong_answer_is_echoed_as_typed_not_as_read(text):
    """ "you wrote 3/25" after "12%" makes the student doubt what they typed: echo their own text."""
    check = check_answer(STEP, text, "en")
    assert check.result == WRONG
    assert f"you wrote {text.strip()}." in check.message and "3/25" not in check.message.replace(text, "")

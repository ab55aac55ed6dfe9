"""Read a student's numeric answer ("3/8", "0.375", "0,375", "37.5%", "３／８", "8分の3") as an exact Fraction.

The reader is a small hand-written parser over a fixed set of shapes: it never evaluates the text as code.
Problems are reported as an `AnswerError` whose `code` the lessons translate for the page.
"""

from __future__ import annotations

import re
import unicodedata
from fractions import Fraction

from suji.core.errors import SujiError
from suji.core.i18n import N_

MAX_ANSWER_LENGTH = 40
# Fractions with huge parts are never the answer to a lesson question; refusing them keeps the work bounded.
MAX_DIGITS = 12

# Error codes, each with its message (AnswerError.MESSAGES).
EMPTY = "empty"
TOO_LONG = "too_long"
NOT_A_NUMBER = "not_a_number"
ZERO_DENOMINATOR = "zero_denominator"


ANSWER_ERRORS: dict[str, str] = {
    "empty": N_("Please type an answer, for example 3/8, 0.375 or 37.5%%."),
    "too_long": N_("That answer is too long. Type just the number, for example 3/8."),
    "not_a_number": N_(
        "That is not a number we can read. Try a fraction like 3/8, a decimal like 0.375 "
        "or a percentage like 37.5%%."
    ),
    "zero_denominator": N_("A fraction cannot have 0 below the line."),
}


class AnswerError(SujiError):
    """An answer text that cannot be read as a number; `code` says why (`text` is kept for the log)."""

    MESSAGES = ANSWER_ERRORS

    def __init__(self, code: str, text: str = "") -> None:
        super().__init__(code)
        self.text = text


_D = MAX_DIGITS
_NUMBER = rf"[+-]?(?:\d{{1,{_D}}}(?:\.\d{{0,{_D}}})?|\.\d{{1,{_D}}})"
_INTEGER = rf"\d{{1,{_D}}}"
_DECIMAL_RE = re.compile(rf"({_NUMBER})")
_PERCENT_RE = re.compile(rf"({_NUMBER})%")
_FRACTION_RE = re.compile(rf"([+-]?)({_INTEGER})/({_INTEGER})")
_JAPANESE_FRACTION_RE = re.compile(rf"([+-]?)({_INTEGER})分の({_INTEGER})")
_MIXED_RE = re.compile(rf"([+-]?)({_INTEGER}) ({_INTEGER})/({_INTEGER})")

_MINUS_SIGNS = str.maketrans({"−": "-", "–": "-", "‐": "-"})
# Commas: "1,000" and "12,345" are thousands separators (the first group never starts with 0); any other single
# comma between digits is a decimal comma, as many pupils write it ("0,375", "37,5%"). Other commas stay, so
# "1,2,3" is refused instead of read as 123.
_THOUSANDS_RE = re.compile(r"(?<![\d.,])[1-9]\d{0,2}(?:,\d{3})+(?![\d,])")
_DECIMAL_COMMA_RE = re.compile(r"(?<![\d,.])(\d*),(\d+)(?![\d,.])")


def _normalise(text: str) -> str:
    # NFKC turns full-width digits, "／", "％", "．" and "，" into ASCII; Japanese words are left alone.
    text = unicodedata.normalize("NFKC", text).replace("パーセント", "%").replace("percent", "%")
    text = text.translate(_MINUS_SIGNS)
    text = _THOUSANDS_RE.sub(lambda m: m.group().replace(",", ""), text)
    text = _DECIMAL_COMMA_RE.sub(r"\1.\2", text)
    text = re.sub(r"\s*/\s*", "/", text.strip())
    text = re.sub(r"\s*%$", "%", text)
    return re.sub(r"\s+", " ", text)


def parse_answer(text: object) -> Fraction:
    """Return the exact value of `text`, or raise `AnswerError` with a code from this module."""
    if not isinstance(text, str):
        raise AnswerError(NOT_A_NUMBER, str(text))
    if len(text) > MAX_ANSWER_LENGTH:
        raise AnswerError(TOO_LONG, text[:MAX_ANSWER_LENGTH])
    s = _normalise(text)
    if not s:
        raise AnswerError(EMPTY, text)
    if m := _FRACTION_RE.fullmatch(s):
        sign, num, den = m.groups()
        return _fraction(sign, int(num), int(den), text)
    if m := _JAPANESE_FRACTION_RE.fullmatch(s):
        # "8分の3" is three eighths: the denominator comes first in Japanese.
        sign, den, num = m.groups()
        return _fraction(sign, int(num), int(den), text)
    if m := _MIXED_RE.fullmatch(s):
        sign, whole, num, den = m.groups()
        value = int(whole) + _fraction("", int(num), int(den), text)
        return -value if sign == "-" else value
    if m := _PERCENT_RE.fullmatch(s):
        return Fraction(m.group(1)) / 100
    if m := _DECIMAL_RE.fullmatch(s):
        return Fraction(m.group(1))
    raise AnswerError(NOT_A_NUMBER, text)


def _fraction(sign: str, num: int, den: int, text: str) -> Fraction:
    if den == 0:
        raise AnswerError(ZERO_DENOMINATOR, text)
    value = Fraction(num, den)
    return -value if sign == "-" else value

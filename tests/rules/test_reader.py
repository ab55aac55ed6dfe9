"""suji.rules.language.reader: the spellings, errors with code and column, readings, held to the grammar of record
(grammar/suji.lark through Lark's lexer and LALR parser, and each parse tree's value built by SymPy)."""

from __future__ import annotations

import re

import grammar_reference as grammar
import pytest
import sympy
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from suji_reference import CONSTANTS, face_sequences, formulas, reference_value, same_value
from tiers import examples

import suji.rules.language.reader
from suji.rules.language.errors import MESSAGES, FormulaError
from suji.rules.language.evaluate import evaluate, is_formula
from suji.rules.language.printing import format_faces
from suji.rules.language.reader import MAX_FORMULA_LENGTH, Reading, parse, readings


def faces_of(text: str) -> tuple:
    return parse(text).faces


def error_of(text: str) -> FormulaError:
    with pytest.raises(FormulaError) as info:
        parse(text)
    return info.value


def valid_readings(text: str, constant_dice: int | None = None) -> list[tuple]:
    return [r.faces for r in readings(text, constant_dice) if isinstance(r, Reading)]


def grammar_value(reading: Reading) -> sympy.Expr:
    """The reading's value as SymPy builds it from the grammar's own parse of its printed faces."""
    for tokens in grammar.token_readings(grammar.lark_tokens(format_faces(reading.faces))):
        if tuple(grammar.face(t) for t in tokens) == reading.faces:
            tree = grammar.parse_tokens(tokens)
            assert not isinstance(tree, tuple), tree
            found = grammar.sympy_value(tree)
            assert same_value(found, grammar.to_sympy(evaluate(reading.faces)))  # and the evaluator's
            return found
    raise AssertionError(f"the grammar cannot read {reading.faces}")


# ---- the RULES.md examples --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "faces", "value"),
    [
        ("5+1−1", (5, "+", 1, "−", 1), 5),
        ("21²+4+1", (2, 1, "²", "+", 4, "+", 1), 446),
        ("447+2", (4, 4, 7, "+", 2), 449),
        ("√9+4", ("√", 9, "+", 4), 7),
        ("21²", (2, 1, "²"), 441),
        ("5−1²", (5, "−", 1, "²"), 4),
        ("3+√4²", (3, "+", "√", 4, "²"), 7),
        ("2÷11×11", (2, "÷", 1, 1, "×11"), 2),  # (2÷11)×11 = 2, left to right
        ("8+2÷11×11", (8, "+", 2, "÷", 1, 1, "×11"), 10),
        ("23×11", (2, 3, "×11"), 253),
        ("32×11", (3, 2, "×11"), 352),
    ],
)
def test_rules_examples(text, faces, value):
    reading = parse(text)
    assert reading.faces == faces
    assert grammar_value(reading) == value


def test_two_one_dice_after_a_times_are_also_a_number():
    # 2÷11×11 can also be read with a plain × die and two 1 dice: same value, other dice
    assert valid_readings("2÷11×11") == [(2, "÷", 1, 1, "×11"), (2, "÷", 1, 1, "×", 1, 1)]
    assert valid_readings("2÷11×11", constant_dice=0) == [(2, "÷", 1, 1, "×", 1, 1)]
    for reading in readings("2÷11×11"):
        assert grammar_value(reading) == 2


def test_a_constant_die_cannot_be_followed_by_a_number():
    # 3×112 and 2×113 are not allowed with the ×11 die; read with a × die they are 3×112 and 2×113
    for text, plain in (("3×112", (3, "×", 1, 1, 2)), ("2×113", (2, "×", 1, 1, 3))):
        results = list(readings(text, constant_dice=1))
        assert isinstance(results[0], FormulaError)
        assert (results[0].code, results[0].column) == ("const_then_number", 5)
        assert [r.faces for r in results[1:]] == [plain]


def test_readings_never_use_more_constant_dice_than_rolled():
    assert valid_readings("2×11×12", constant_dice=1) == [(2, "×11", "×", 1, 2), (2, "×", 1, 1, "×12")] + [
        (2, "×", 1, 1, "×", 1, 2)
    ]
    assert valid_readings("2×11×12", constant_dice=0) == [(2, "×", 1, 1, "×", 1, 2)]


def test_parse_prefers_the_constant_die():
    assert faces_of("2×11") == (2, "×11")
    assert faces_of("5×10") == (5, "×10")  # the plain reading would need a 0 die


# ---- spellings --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "21²",
        "21^2",
        "21**2",
        "21 ^ 2",
        "21 ** 2",
        "212乗",
        "21 2 乗",
        "２１２乗",
        "２１２　乗",
        "２１＾２",
        "２１＊＊２",
    ],
)
def test_square_spellings(text):
    reading = parse(text)
    assert reading.faces == (2, 1, "²")
    assert grammar_value(reading) == 441


@pytest.mark.parametrize(
    "text", ["√9", "sqrt9", "SQRT 9", "Sqrt9", "root9", "平方根9", "ルート9", "ルート９"]
)
def test_root_spellings(text):
    reading = parse(text)
    assert reading.faces == ("√", 9)
    assert grammar_value(reading) == 3


@pytest.mark.parametrize("times", ["×", "x", "X", "*", "＊", "✕", "ｘ"])
@pytest.mark.parametrize("n", [10, 11, 12])
def test_constant_spellings(times, n):
    assert faces_of(f"5{times}{n}") == (5, f"×{n}")
    assert faces_of(f"5 {times} {n}") == (5, f"×{n}")


@pytest.mark.parametrize(
    ("symbols", "face"),
    [("+＋", "+"), ("-−－–ー", "−"), ("*xX×＊✕ｘ", "×"), ("/÷／", "÷")],
)
def test_binary_operator_spellings(symbols, face):
    for symbol in symbols:
        reading = parse(f"8{symbol}2")
        assert reading.faces == (8, face, 2)
        assert grammar_value(reading) == {"+": 10, "−": 6, "×": 16, "÷": 4}[face]


def test_full_width_digits_and_spaces_anywhere():
    assert faces_of("４４７＋２") == (4, 4, 7, "+", 2)
    assert faces_of("  4 4\t7 +\u30002  ") == (4, 4, 7, "+", 2)
    assert faces_of("－ ５ ＊ ３") == ("−", 5, "×", 3)
    assert grammar_value(parse("1 ÷ 3")) == sympy.Rational(1, 3)


def test_a_leading_minus_is_the_sign():
    reading = parse("−5+8")
    assert reading.faces == ("−", 5, "+", 8)
    assert grammar_value(reading) == 3
    assert grammar_value(parse("-2²")) == -4


# ---- errors -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "code", "column", "params"),
    [
        ("5++4", "adjacent_operators", 3, {"token": "+"}),
        ("5+×4", "adjacent_operators", 3, {"token": "×"}),
        ("５＋＋４", "adjacent_operators", 3, {"token": "+"}),
        ("5 - - 3", "adjacent_operators", 5, {"token": "−"}),
        ("−−5", "adjacent_operators", 2, {"token": "−"}),
        ("+5", "starts_with_operator", 1, {"token": "+"}),
        ("÷5", "starts_with_operator", 1, {"token": "÷"}),
        ("5+", "ends_with_operator", 2, {"token": "+"}),
        ("5×10 3", "const_then_number", 6, {"token": "×10"}),
        ("5×103", "const_then_number", 5, {"token": "×10"}),
        ("×10 5", "const_misplaced", 1, {"token": "×10"}),
        ("5+×12", "const_misplaced", 3, {"token": "×12"}),
        ("²5", "square_misplaced", 1, {}),
        ("5²²", "square_misplaced", 3, {}),
        ("√²", "square_misplaced", 2, {}),
        ("5²3", "number_after_square", 3, {}),
        ("5√4", "root_misplaced", 2, {}),
        ("5√", "root_misplaced", 2, {}),
        ("5+√", "root_misplaced", 3, {}),
        ("√√4", "root_misplaced", 2, {}),
        ("√+4", "root_misplaced", 1, {}),
        ("(5+4)", "parentheses", 1, {}),
        ("5+（4）", "parentheses", 3, {}),
        ("5×[2]", "parentheses", 3, {}),
        ("5+4=9", "equals", 4, {}),
        ("5+a", "unknown_char", 3, {"char": "a"}),
        ("5+4.", "unknown_char", 4, {"char": "."}),
        ("5+\x004", "unknown_char", 3, {"char": "U+0000"}),
        ("5+😀", "unknown_char", 3, {"char": "😀"}),
        ("10+5", "zero", 2, {}),
    ],
)
def test_errors_have_code_and_column(text, code, column, params):
    error = error_of(text)
    assert (error.code, error.column, error.params) == (code, column, params)
    assert error.to_dict() == {"code": code, "message": error.message("en"), "column": column}


@pytest.mark.parametrize("text", ["", " ", "\t", "\u3000\u3000"])
def test_empty(text):
    error = error_of(text)
    assert (error.code, error.column) == ("empty", None)
    assert error.caret(text) == text


def test_over_200_characters_is_refused_before_parsing(monkeypatch):
    longest = "1+" * 99 + "12"
    assert len(longest) == MAX_FORMULA_LENGTH
    assert grammar_value(parse(longest)) == 99 + 12

    def no_scanning(*args):
        raise AssertionError("a formula over the limit was scanned past the limit")

    monkeypatch.setattr(suji.rules.language.reader, "scanner", no_scanning)
    for text in (longest + "3", "(" * 201, "1" * 10**6):
        error = error_of(text)
        assert (error.code, error.column, error.params) == ("too_long", None, {"limit": 200})
        assert "200" in error.message("en") and "200" in error.message("ja")


def test_caret_points_at_the_column_counting_full_width_as_two():
    assert error_of("5++4").caret("5++4") == "5++4\n  ^"
    assert error_of("５＋＋４").caret("５＋＋４") == "５＋＋４\n    ^"


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_every_error_message_in_both_languages(code):
    error = FormulaError(code, 1, token="+", char="a", face=5, count=1, limit=200)
    english, japanese = error.message("en"), error.message("ja")
    assert "%(" not in english and "%(" not in japanese  # every placeholder filled
    assert english != japanese
    assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", japanese), japanese


# ---- properties -------------------------------------------------------------------------------------------

_SPELLINGS = {
    "+": ["+", "＋"],
    "−": ["-", "−", "－", "–", "ー"],
    "×": ["*", "x", "X", "×", "＊"],
    "÷": ["/", "÷", "／"],
    "²": ["²", "^2", "**2", "2乗", "２乗", "^ 2", "＾２", "＊＊２"],
    "√": ["√", "sqrt", "SQRT", "平方根", "ルート"],
    **{c: [c, c.replace("×", "x"), c.replace("×", "*"), c.replace("×", "＊")] for c in CONSTANTS},
}


def _has_constant_spot(faces: tuple) -> bool:
    """Whether the printed faces contain × 1 0/1/2, which can also be read as a constant die."""
    return any(
        faces[i] == "×" and faces[i + 1] == 1 and faces[i + 2] in (0, 1, 2) for i in range(len(faces) - 2)
    ) or any(f in CONSTANTS for f in faces)


@given(formulas())
def test_canonical_print_then_parse_gives_the_same_tokens(faces):
    text = format_faces(faces)
    assert faces in valid_readings(text)
    constants = sum(f in CONSTANTS for f in faces)
    assert faces in valid_readings(text, constant_dice=constants)
    if not _has_constant_spot(faces):
        assert parse(text).faces == faces
        assert format_faces(parse(text).faces) == text


@given(formulas(), st.data())
def test_any_spelling_with_spaces_parses_to_the_same_tokens(faces, data):
    pieces = []
    for face in faces:
        if isinstance(face, int):
            piece = data.draw(st.sampled_from([str(face), chr(ord("０") + face)]))
        else:
            piece = data.draw(st.sampled_from(_SPELLINGS[face]))
        pieces.append(piece)
        pieces.append(data.draw(st.sampled_from(["", "", " ", "\u3000", "\t"])))
    text = "".join(pieces)
    assume(len(text) <= MAX_FORMULA_LENGTH)
    assert faces in valid_readings(text)
    if not _has_constant_spot(faces):
        assert parse(text).faces == faces


@pytest.mark.slow
@settings(max_examples=200)
@given(formulas())
def test_sympy_value_matches_the_reference_and_exact(faces):
    expected = reference_value(faces)
    for reading in readings(format_faces(faces)):
        if isinstance(reading, Reading):
            assert same_value(grammar_value(reading), expected)  # every reading has the same value


@settings(max_examples=examples(500))
@given(face_sequences())
def test_is_formula_agrees_with_the_grammar(faces):
    text = format_faces(faces)
    if not faces:
        with pytest.raises(FormulaError):
            list(readings(text))
        return
    constants = sum(f in CONSTANTS for f in faces)
    by_grammar = faces in valid_readings(text, constant_dice=constants)
    assert is_formula(faces) == by_grammar


def _never_raises_but_formula_error(text: str) -> None:
    try:
        for reading in readings(text):
            if isinstance(reading, Reading):
                assert evaluate(reading.faces) is not None
    except FormulaError:
        pass


@given(st.text(max_size=300))
def test_any_text_gives_readings_or_formula_errors(text):
    _never_raises_but_formula_error(text)


@given(st.binary(max_size=300))
def test_binary_junk_gives_readings_or_formula_errors(data):
    _never_raises_but_formula_error(data.decode("utf-8", "surrogateescape"))
    _never_raises_but_formula_error(data.decode("latin-1"))


@given(
    st.lists(st.sampled_from(["1", "×", "1", "0", "2", "x", " ", "²", "√", "+"]), max_size=200).map("".join)
)
def test_many_constant_spots_are_bounded(text):
    results = list(readings(text)) if text.strip() else []
    assert len(results) <= suji.rules.language.reader.MAX_READINGS
    _never_raises_but_formula_error(text)


LEXER_PIECES = [
    "1",
    "2",
    "0",
    "９",
    "６",
    "×",
    "x",
    "*",
    "**",
    "^",
    "2乗",
    "２ 乗",
    "²",
    "√",
    "sqrt",
    "Root",
    "平方根",
    "ルート",
    "+",
    "＋",
    "-",
    "−",
    "ー",
    "÷",
    "/",
    " ",
    "\t",
    "\u3000",
    "\n",
    "(",
    "=",
    "é",
    "乗",
    "s",
    "sq",
    "Square",
    "squ",
    "SQRT",
    "times",
    "plus",
    "Minus",
    "div",
    "root",
    "r",
    "t",
]


def _lark_lexes(text: str) -> list | int:
    """Lark's own lexer on the grammar file: every token's (type, text, start, end), or the bad column."""
    found = grammar.lark_tokens(text)
    if isinstance(found, int):
        return found
    return [(t.type, str(t), t.start_pos, t.end_pos) for t in found]


def _our_lexes(text: str) -> list | int:
    """The reader's scan: (terminal, text, start, end) of every piece, or the column of the first bad character."""
    from suji.rules.language.reader import scan
    from suji.rules.language.spelling import TERMINAL_OF_FACE

    scanned = scan(text)
    if scanned.bad is not None:
        return scanned.bad + 1
    kind = lambda f: "DIGIT" if type(f) is int else TERMINAL_OF_FACE[f]  # noqa: E731
    return [(kind(p.face), text[p.start : p.end], p.start, p.end) for p in scanned.pieces]


@pytest.mark.parametrize(
    "text",
    ["21²+4+1", "８＋２÷１１×１１", "√4²+3×12−5", "12 + 3", "5(4)", "7=7", "x", "2\n+1", "2 times 3 div sqrt4 sq"],
)
def test_the_scanner_lexes_as_lark_does(text):
    """The spelling table's pattern splits a text as Lark's own lexer splits it with the grammar file."""
    assert _our_lexes(text) == _lark_lexes(text)


@settings(max_examples=examples(400))
@given(st.lists(st.sampled_from(LEXER_PIECES), max_size=12).map("".join))
def test_the_scanner_lexes_any_text_as_lark_does(text):
    assert _our_lexes(text) == _lark_lexes(text)


# ---- the character-at-a-time scan, held to the pattern's ----


def _both_scans(text: str) -> tuple:
    from suji.rules.language.reader import MAX_FORMULA_LENGTH, Scanned

    scanned = Scanned(text)
    return scanned._scan_now(), scanned._scan_pattern(text[:MAX_FORMULA_LENGTH])


def test_each_single_character_is_its_spelling_alone_and_after_any_other():
    """Every pair of the table's characters: the character-at-a-time scan and the pattern agree (a longer
    spelling would have to begin with one of them and go on with another)."""
    from suji.rules.language.spelling import single_characters

    table = single_characters()
    assert "*" not in table and "＊" not in table and "乗" not in table
    assert table["x"] == "×" and table["２"] == 2 and table["\u3000"] is None
    for first in table:
        fast, plain = _both_scans(first)
        assert fast == plain
        for second in table:
            fast, plain = _both_scans(first + second)
            assert fast == plain, first + second


@settings(max_examples=examples(400))
@given(
    st.lists(
        st.sampled_from(
            ["1", "2", "６", "0", "×", "x", "X", "ｘ", "✕", "²", "√", "+", "＋", "-", "−", "ー", "–", "÷", "/", "／",
             " ", "\u3000", "\t", "*", "**", "乗", "^", "sq", "s", "(", "\n"]
        ),  # fmt: skip
        max_size=80,
    ).map("".join)
)
def test_the_character_at_a_time_scan_is_the_patterns(text):
    fast, plain = _both_scans(text)
    assert fast == plain

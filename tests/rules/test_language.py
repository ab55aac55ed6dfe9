"""suji.rules.language: the spelling table, the automaton and the reader's mistakes, held to the grammar of record
(grammar/suji.lark through Lark's LALR parser) and to the independent reference parser of the tests."""

from __future__ import annotations

import grammar_reference as grammar
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lark import Token
from suji_reference import face_sequences, reference_value
from tiers import examples

from suji.rules.dice import DiceError, parse_operator_face
from suji.rules.language import spelling
from suji.rules.language.automaton import MAY_END, MAY_START, accepts, refusal
from suji.rules.language.errors import FormulaError
from suji.rules.language.reader import Reading, readings
from suji.rules.language.spelling import SPELLINGS, grammar_terminals, operator_face

TOKEN_OF_FACE = {face: name for name, face in grammar.FACE_OF_TYPE.items()}


def tokens_of(faces: tuple) -> list[Token]:
    """Lark tokens for a face sequence, one a die, each at its own column (a formula of one-character dice)."""
    found = []
    for k, f in enumerate(faces):
        kind = "DIGIT" if type(f) is int else "CONST" if f in grammar.CONSTANTS else TOKEN_OF_FACE[f]
        found.append(Token(kind, str(f), k, 1, k + 1, 1, k + 2, k + 1))
    return found


# ---- one spelling table ----------------------------------------------------------------------------------


def test_the_grammar_file_has_the_terminals_the_spelling_table_writes():
    """grammar/suji.lark stays the grammar's file; its terminals are written from the one table."""
    text = grammar.grammar_text()
    begin, end = text.index(spelling.GRAMMAR_BEGIN), text.index(spelling.GRAMMAR_END)
    block = text[begin : end + len(spelling.GRAMMAR_END)]
    expected = grammar_terminals()
    assert block == expected, f"grammar/suji.lark is out of date; its terminals should read:\n{expected}"


@pytest.mark.parametrize("entry", SPELLINGS, ids=lambda s: s.name)
def test_every_spelling_of_an_operator_names_that_die_and_writes_it_in_a_formula(entry):
    """A formula and a die name speak one set of spellings: ✕ ｘ ＾２ name dice, times plus sq read in formulas."""
    if entry.face is None:
        return
    spellings = [*entry.symbols, *entry.words, *(w.upper() for w in entry.words), *(w.title() for w in entry.words)]
    extra = {"²": ["2乗", "２乗", "^2", "＾２", "**2", "＊＊２", "^ 2", "2 乗"]}.get(entry.face, [])
    for written in [*spellings, *extra]:
        assert parse_operator_face(written) == entry.face, written
        assert [r.faces for r in readings(f"4{written}1") if isinstance(r, Reading)] in (
            [(4, entry.face, 1)],
            [],  # √ and ² cannot stand there: the reading is refused, but as that die
        ), written
        found = grammar.lark_tokens(f"4{written}1")
        assert not isinstance(found, int) and [t.type for t in found][1] == entry.name, written


@pytest.mark.parametrize(
    ("name", "face"),
    [("x10", "×10"), ("X11", "×11"), ("*12", "×12"), ("✕10", "×10"), ("ｘ１２", "×12"), ("times 11", "×11"),
     ("sqrt", "√"), ("Root", "√"), ("sq", "²"), ("square", "²"), ("＾２", "²"), ("ー", "−"), ("div", "÷")],
)  # fmt: skip
def test_die_names(name, face):
    assert operator_face(name) == face


@pytest.mark.parametrize("name", ["", "++", "5", "x13", "x1", "√2", "sqr", "plus1", "2"])
def test_not_die_names(name):
    with pytest.raises(DiceError):
        parse_operator_face(name)


def test_sqrt_is_never_read_as_sq_then_rt():
    assert [r.faces for r in readings("sqrt9")] == [("√", 9)]
    assert [r.faces for r in readings("3sq")] == [(3, "²")]


# ---- the automaton is the grammar die by die --------------------------------------------------------------


@settings(max_examples=examples(500))
@given(face_sequences())
def test_the_automaton_accepts_what_the_reference_parser_reads(faces):
    """The language die by die (listing, stripping) is the grammar's: the independent reference decides."""
    assert accepts(faces) == (reference_value(faces) is not None)


_FACE = st.one_of(
    st.sampled_from(range(1, 10)),
    st.sampled_from(range(1, 10)),
    st.sampled_from(["+", "−", "×", "÷", "²", "√", "×10", "×11", "×12"]),
)


@settings(max_examples=examples(800))
@given(st.lists(_FACE, max_size=9).map(tuple))
def test_the_automaton_stops_where_the_lalr_parser_stops(faces):
    """Accepted by the automaton exactly when the grammar's LALR parser parses it; refused at the same die."""
    parsed = grammar.parse_tokens(tokens_of(faces))
    stop = refusal(faces)
    if not isinstance(parsed, tuple):
        assert stop is None
        return
    code, column, _ = parsed
    assert stop is not None
    if code == "empty":
        assert faces == ()
    elif column is not None:
        assert column - 1 in (stop, stop - 1)  # the die refused, or the one before it (the message says which)


LEXER_PIECES = ["1", "2", "0", "６", "+", "−", "-", "×", "x", "＊", "÷", "/", "²", "^2", "√", "sqrt", " ", "ー", "1 0"]


@settings(max_examples=examples(800))
@given(st.lists(st.sampled_from(LEXER_PIECES), min_size=1, max_size=10).map("".join))
def test_the_reader_names_the_mistake_the_lalr_parser_meets(text):
    """Every reading's error (code, column and the die quoted) is the one the grammar's parser meets."""
    tokens = grammar.lark_tokens(text)
    assert not isinstance(tokens, int)
    if not tokens:
        return
    ours = list(readings(text))
    theirs = grammar.token_readings(tokens)[: len(ours)]
    assert len(ours) == len(theirs)
    for reading, merged in zip(ours, theirs, strict=True):
        parsed = grammar.parse_tokens(merged)
        if isinstance(reading, Reading):
            assert not isinstance(parsed, tuple)
            assert reading.faces == tuple(grammar.face(t) for t in merged)
            continue
        if reading.code == "zero":  # a 0 is read, then refused: no die shows it
            assert not isinstance(parsed, tuple) and 0 in [grammar.face(t) for t in merged]
            continue
        code, column, token = parsed
        assert (reading.code, reading.column, reading.params.get("token")) == (code, column, token)


def test_a_formula_may_start_and_end_only_where_the_grammar_lets_it():
    assert MAY_START == {"digit", "√", "−"}
    assert MAY_END == {"digit", "²", "×10", "×11", "×12"}


def test_the_automaton_refuses_at_the_die():
    assert refusal((5, "+", "+", 4)) == 2
    assert refusal((5, "+")) == 2
    assert refusal((5, "+", 4)) is None
    (error,) = readings("5++4")
    assert isinstance(error, FormulaError) and (error.code, error.column) == ("adjacent_operators", 3)


def test_the_usual_die_names_are_read_as_the_scanner_reads_them():
    """`die_names` is a lookup before the scanner: each of its names, read by the scanner, is the same die."""
    from suji.rules.language.spelling import die_names, scan_faces

    names = die_names()
    assert len(names) > 50
    for name, face in names.items():
        faces = scan_faces(name)
        assert faces is not None and (faces == [face] or "".join(map(str, faces)) == face), name
        assert operator_face(f" {name} ") == face  # with spaces around, the scanner reads it the same

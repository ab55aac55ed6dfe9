"""suji.rules.language: the formula language die by die, checked against the independent reference parser."""

from __future__ import annotations

from hypothesis import given, settings
from suji_reference import face_sequences, reference_value
from tiers import examples

from suji.rules.language import MAY_END, MAY_START, accepts


@settings(max_examples=examples(500))
@given(face_sequences())
def test_the_automaton_accepts_what_the_reference_parser_reads(faces):
    """The language die by die (listing, stripping) is the grammar's: the independent reference decides."""
    assert accepts(faces) == (reference_value(faces) is not None)


def test_a_formula_may_start_and_end_only_where_the_grammar_lets_it():
    assert MAY_START == {"digit", "√", "−"}
    assert MAY_END == {"digit", "²", "×10", "×11", "×12"}

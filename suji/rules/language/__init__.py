"""The formula language of Sūji de Asobo, in one home: how it is spelled, read, evaluated and printed.

    text ──spelling (one table of every way to write a die)──▶ pieces with their place in the text
         ──reader (the ×1d readings; the automaton decides)──▶ Reading: the dice of a formula, or a FormulaError
    faces ──automaton (the grammar of grammar/suji.lark, die by die)──▶ a formula or where it stops being one
          ──evaluate (one walk of the automaton, the arithmetic of suji.rules.exact)──▶ Value, and its steps
    Value ──printing──▶ machine text (the JSON `value`), the pupil's text (everything a person reads)

Modules: `spelling` (the faces and their spellings; the grammar file's terminals and the die names come from
it), `automaton`, `errors` (FormulaError), `reader`, `evaluate`, `printing`. The grammar file is the reference:
tests hold the spellings, the automaton and the reader's errors to its LALR parser, and the values to SymPy's.
Nothing here imports Lark or SymPy.
"""

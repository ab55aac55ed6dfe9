"""The rules of RULES.md, each in one home: the dice and 6-as-9 (`dice`), the formula language (`language`: its
spellings, reader, automaton, evaluator and printers), exact values (`exact`, the one arithmetic), scoring,
stripping and costs (`scoring`), and the working of a value step by step (`working`, the evaluator's record).
Everything above (the solver, the features, the interfaces) calls these; they call nothing above.

Data flows one way: text → `language.reader` (the dice of each reading) → `language.evaluate` values →
`scoring.check` (the target, the stripped formula, the score) → `language.printing` (what a person reads).
"""

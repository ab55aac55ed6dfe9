"""The rules of RULES.md, each in one home: the dice and 6-as-9 (`dice`), the formula language (`formula`),
exact values (`exact`), scoring, stripping and costs (`scoring`), and the working of a value step by step
(`working`). Everything above (the solver, the features, the interfaces) calls these; they call nothing above.

Data flows one way: text → `formula.readings` (tokens, each reading of the dice) → `exact` values →
`scoring.check` (the target, the stripped formula, the score).
"""

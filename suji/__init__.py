"""suji: a bilingual maths trainer built around the dice game Sūji de Asobo (すうじであそぼ).

The public API, for Python users (the command line and the web app stand on the same):

    >>> from suji import Roll, check
    >>> result = check("21²+4+1", Roll.of([2, 1, 4, 1, 3], ["+", "+", "²", "−"], [4, 4, 6]), rerolled=3)
    >>> result.target, result.score
    (446, 21)

Names are imported on first use (PEP 562), so `import suji` stays light for the command line.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__version__ = "0.1.0"

# name -> the module that is its one home
_HOMES = {
    # the rules: dice, the formula language, exact values, scoring and costs
    "Roll": "suji.dice",
    "DiceError": "suji.dice",
    "random_roll": "suji.dice",
    "FormulaError": "suji.formula",
    "check": "suji.scoring",
    "CheckResult": "suji.scoring",
    "strip_redundant": "suji.scoring",
    "apply_costs": "suji.scoring",
    "working": "suji.working",
    # the solver: best answers, hints, re-roll advice, the odds table
    "solve": "suji.solver",
    "Solution": "suji.solver",
    "Best": "suji.solver",
    "best_score_by_target": "suji.solver",
    "hints": "suji.hints",
    "advise": "suji.advice",
    "Advice": "suji.advice",
    "best_by_target": "suji.odds",
    "open_table": "suji.odds",
    "TableError": "suji.odds",
}

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'suji' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])

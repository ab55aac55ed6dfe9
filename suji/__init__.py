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
from pathlib import Path
from typing import Any

from suji.core import native

__version__ = "0.1.0"

# The hot modules' compiled twins, where they were built from the present text (suji.core.native).
native.install(Path(__file__).parent)

# name -> the module that is its one home
_HOMES = {
    # the rules: dice, the formula language, exact values, scoring and costs
    "Roll": "suji.rules.dice",
    "DiceError": "suji.rules.dice",
    "random_roll": "suji.rules.dice",
    "FormulaError": "suji.rules.language.errors",
    "check": "suji.rules.scoring",
    "CheckResult": "suji.rules.scoring",
    "strip_redundant": "suji.rules.scoring",
    "apply_costs": "suji.rules.scoring",
    "working": "suji.rules.working",
    # the solver: best answers, hints, re-roll advice, the odds table
    "solve": "suji.solver.search",
    "Solution": "suji.solver.search",
    "Best": "suji.solver.search",
    "best_score_by_target": "suji.solver.search",
    "hints": "suji.solver.hints",
    "advise": "suji.solver.advice",
    "Advice": "suji.solver.advice",
    "best_by_target": "suji.solver.odds",
    "open_table": "suji.solver.odds",
    "TableError": "suji.solver.odds",
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

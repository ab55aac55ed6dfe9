"""The exact odds of Sūji de Asobo: every roll solved once, so advice and odds become lookups.

Data flows: the dice (space) → the solver's best score of all 672 target numbers for each of the 87,696 rows
(build: 696 number sets × 126 operator sets, those of levels 1 and 2 included) → one checked file (table) →
lookups here, in the advice and in the lessons; the exact facts of the whole game (facts) come from the table.

When there is no usable table, every question is answered by the live solver instead (`source` says which).
"""

from __future__ import annotations

from collections.abc import Iterable

from suji.solver.odds import space
from suji.solver.odds.space import FULL_LEVEL, LEVELS, level_operators, target_list
from suji.solver.odds.table import (
    NOT_MAKEABLE,
    OddsTable,
    TableError,
    default_path,
    open_table,
    table_or_none,
)
from suji.solver.search import best_score_by_target

TABLE, LIVE = "table", "live"


def best_by_target(
    numbers: Iterable[int],
    operators: Iterable[str],
    level: int = FULL_LEVEL,
    targets: Iterable[int] | None = None,
    table: OddsTable | None = None,
) -> tuple[dict[int, int], str]:
    """The best score of every makeable target number (all 672, or `targets`), and where it came from.

    From `table` when it covers the roll, else from the live solver (custom dice, other targets, no table, or
    a table whose file stopped reading: it is checked again on the next `open_table`).
    """
    numbers, operators = tuple(numbers), tuple(operators)
    wanted = tuple(targets) if targets is not None else target_list()
    if table is not None and table.covers(numbers, space.sorted_operators(operators), wanted):
        try:
            return table.best(numbers, operators, wanted, level), TABLE
        except TableError:
            pass
    usable = level_operators(operators, level) if level != FULL_LEVEL else operators
    return best_score_by_target(numbers, usable, wanted), LIVE


__all__ = [
    "FULL_LEVEL",
    "LEVELS",
    "LIVE",
    "NOT_MAKEABLE",
    "TABLE",
    "OddsTable",
    "TableError",
    "best_by_target",
    "default_path",
    "open_table",
    "table_or_none",
    "target_list",
]

"""Sūji de Asobo in numbers, the sample: seeded random rolls, their best scores, and the figures of a sample.

Data flows: (seed, index) → `roll_seed` → a random roll and its two re-rolls (each from its own seeded
generator) → the best score of each, from the solver (`simulate_roll`) or looked up in the odds table
(`table_record`) → a `Record` per roll → `figures` (proportions and means with their 95% intervals) and
`score_histogram`. Without an odds table, `fresh_or_stored` falls back to 2,000 rolls solved in advance by
`precompute` (run ``python -m suji.lessons.suji_stats``) and stored in suji/lessons/data/suji_stats.json; the
student's N then picks a seeded sample of them.

Re-rolling (RULES.md "Rerolls"): each re-rolled die costs 1 point, and a score after costs is never below 0.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from suji.core.caching import computed_once
from suji.lessons.stats import Estimate, mean_interval
from suji.rules.dice import (
    NUMBER_DICE_FACES,
    NUMBER_KINDS,
    OPERATOR_DICE_FACES,
    OPERATOR_KINDS,
    Roll,
    random_roll,
)
from suji.rules.scoring import costs
from suji.solver.odds import TableError, table_or_none
from suji.solver.odds.table import OddsTable
from suji.solver.search import solve

# The stored sample stays in suji/lessons/data/, beside the package, where the wheel has always carried it.
DATA_FILE = Path(__file__).parent.with_name("data") / "suji_stats.json"
STORED_SEED = 2024
STORED_ROLLS = 2000
MIN_STORED_ROLLS = 2000

NUMBERS, ALL = "numbers", "all"
REROLLS: dict[str, int] = {NUMBERS: len(NUMBER_KINDS), ALL: len(NUMBER_KINDS) + len(OPERATOR_KINDS)}

# ---- simulation with the solver ----------------------------------------------------------------------------


def roll_seed(seed: int, index: int, what: str = "roll") -> str:
    """The seed of one generator: roll `index` of the sample `seed`, or one of its re-rolls."""
    return f"suji-stats:{seed}:{index}:{what}"


def reroll(roll: Roll, what: str, rng: random.Random) -> Roll:
    """`roll` with its five number dice (NUMBERS) or all nine number and operator dice (ALL) rolled again."""
    numbers = tuple(rng.choice(NUMBER_DICE_FACES[k]) for k in NUMBER_KINDS)
    operators = roll.operator_dice
    if what == ALL:
        operators = tuple(rng.choice(OPERATOR_DICE_FACES[k]) for k in OPERATOR_KINDS)
    return Roll(roll.target_dice, numbers, operators)


def best_score(roll: Roll) -> int | None:
    """The best score the solver finds over all targets of `roll`, or None when no target can be made."""
    top = solve(roll).top
    return top.score if top is not None else None


Record = tuple[int | None, int | None, int | None]
"""One simulated roll: the best score now, after re-rolling the number dice, after re-rolling all nine."""


def simulate_roll(seed: int, index: int) -> Record:
    """Roll `index` of sample `seed`: its best score now and after each re-roll (None: no target)."""
    roll = random_roll(roll_seed(seed, index))
    after = [best_score(reroll(roll, what, random.Random(roll_seed(seed, index, what)))) for what in REROLLS]
    return (best_score(roll), after[0], after[1])


def simulate(n: int, seed: int, processes: int = 1) -> list[Record]:
    """Rolls 0 … n−1 of sample `seed`; the same (n, seed) always gives the same records."""
    if processes <= 1:
        return [simulate_roll(seed, i) for i in range(n)]
    from multiprocessing import Pool

    with Pool(processes) as pool:
        return pool.starmap(simulate_roll, [(seed, i) for i in range(n)], chunksize=20)


def precompute(n: int = STORED_ROLLS, seed: int = STORED_SEED, processes: int = 1) -> dict:
    """The stored sample as JSON-ready data: seed, N, how it was made, and one record per roll."""
    return {
        "seed": seed,
        "n": n,
        "method": (
            "random_roll(roll_seed(seed, i)) for i < n; best score by suji.solver.search.solve now, after "
            "re-rolling the 5 number dice and after re-rolling all 9 number and operator dice "
            "(generators seeded with roll_seed(seed, i, 'numbers'|'all')); null = no target"
        ),
        "rolls": [list(r) for r in simulate(n, seed, processes)],
    }


def write_stored(data: dict, path: Path = DATA_FILE) -> None:
    """Write the stored sample, one roll per line so that diffs stay readable."""
    path.parent.mkdir(parents=True, exist_ok=True)
    head = {k: v for k, v in data.items() if k != "rolls"}
    lines = [json.dumps(r) for r in data["rolls"]]
    body = json.dumps(head, ensure_ascii=False, indent=1)[:-2]
    path.write_text(body + ',\n "rolls": [\n  ' + ",\n  ".join(lines) + "\n ]\n}\n", encoding="utf-8")


@computed_once
def stored() -> dict:
    """The stored sample (see `precompute`)."""
    return json.loads(DATA_FILE.read_text(encoding="utf-8"))


def stored_records() -> list[Record]:
    """The stored rolls as records."""
    return [tuple(r) for r in stored()["rolls"]]  # type: ignore[misc]


def sample_records(n: int, seed: int) -> list[Record]:
    """`n` different stored rolls picked by `seed` (all of them, in order, when n is the stored N)."""
    records = stored_records()
    if n >= len(records):
        return records
    return random.Random(seed).sample(records, n)


def table_record(seed: int, index: int, table: OddsTable) -> Record:
    """Roll `index` of sample `seed` (as simulate_roll rolls it), its best scores looked up in the odds table."""
    roll = random_roll(roll_seed(seed, index))
    rolls = [roll] + [reroll(roll, what, random.Random(roll_seed(seed, index, what))) for what in REROLLS]
    return tuple(table.best_score(r.number_dice, r.operator_dice, r.targets) for r in rolls)  # type: ignore[return-value]


TABLE, STORED = "table", "stored"


def fresh_or_stored(n: int, seed: int) -> tuple[list[Record], str]:
    """`n` fresh seeded rolls looked up in the odds table when there is one, else `n` of the stored rolls."""
    table = table_or_none()
    if table is not None:
        try:
            return [table_record(seed, i, table) for i in range(n)], TABLE
        except TableError:
            pass  # the file stopped reading (replaced or damaged): the stored rolls answer
    return sample_records(n, seed), STORED


# ---- figures from records ----------------------------------------------------------------------------------


def final_score(score: int | None, cost: int = 0) -> int:
    """What a roll is worth after `cost` points of re-rolls: no target is 0, and a score never drops below 0."""
    return 0 if score is None else max(0, score - cost)


STRATEGIES: tuple[str, ...] = ("now", NUMBERS, ALL, "numbers-if-stuck", "all-if-stuck")


def strategy_score(record: Record, strategy: str) -> int:
    """The points one roll brings with `strategy` (re-roll always, only when no target, or never)."""
    now, numbers, every = record
    if strategy == "now" or (strategy.endswith("-if-stuck") and now is not None):
        return final_score(now)
    if strategy.startswith(NUMBERS):
        return final_score(numbers, costs(REROLLS[NUMBERS]))
    return final_score(every, costs(REROLLS[ALL]))


@dataclass(frozen=True)
class Figures:
    """The headline estimates of a sample of rolls, each with its 95% confidence interval."""

    n: int
    reach: Estimate  # rolls that can make at least one target
    reach_numbers: Estimate  # … after re-rolling the number dice
    reach_all: Estimate  # … after re-rolling all nine dice
    stuck: int  # rolls with no target now
    rescue_numbers: Estimate  # of the stuck rolls: a target after re-rolling the number dice
    rescue_all: Estimate
    means: dict[str, tuple[float, float, float]]  # strategy → (mean, low, high) of the points
    best_mean: tuple[float, float, float]  # the best score now, among rolls that make a target


def figures(records: Sequence[Record]) -> Figures:
    """Estimates with 95% intervals (Wilson for proportions, normal for means) from `records`."""
    n = len(records)
    stuck = [r for r in records if r[0] is None]
    made = [float(r[0]) for r in records if r[0] is not None]
    return Figures(
        n=n,
        reach=Estimate(n - len(stuck), n),
        reach_numbers=Estimate(sum(r[1] is not None for r in records), n),
        reach_all=Estimate(sum(r[2] is not None for r in records), n),
        stuck=len(stuck),
        rescue_numbers=Estimate(sum(r[1] is not None for r in stuck), len(stuck)),
        rescue_all=Estimate(sum(r[2] is not None for r in stuck), len(stuck)),
        means={s: mean_interval([float(strategy_score(r, s)) for r in records]) for s in STRATEGIES},
        best_mean=mean_interval(made) if made else (0.0, 0.0, 0.0),
    )


@computed_once
def stored_figures() -> Figures:
    """The figures of all stored rolls."""
    return figures(stored_records())


SCORE_BINS: tuple[tuple[int, int], ...] = ((0, 9), (10, 19), (20, 29), (30, 39), (40, 49), (50, 10**6))


def score_histogram(records: Sequence[Record]) -> dict[str, int]:
    """How many rolls have no target, or a best score in each bin of ten points."""
    counts = {"none": 0, **{f"{lo}-{hi}": 0 for lo, hi in SCORE_BINS}}
    for now, _, _ in records:
        if now is None:
            counts["none"] += 1
            continue
        lo, hi = next(b for b in SCORE_BINS if b[0] <= now <= b[1])
        counts[f"{lo}-{hi}"] += 1
    return counts

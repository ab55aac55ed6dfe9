"""Exact facts of the whole game, counted over every equally likely face of all twelve dice, from the table.

Data flows: the odds table → for each level, a matrix of best scores (number set × operator set × target
number) → sums of integer outcome counts (space's weights: 7,776 number outcomes × 1,296 operator outcomes ×
216 target outcomes) → exact fractions → `facts.json` in the package, which the lessons read on a fresh
install. `python -m suji odds facts --write` (or `suji odds facts --write`) makes it again from a complete table.

The file also keeps a few seeded rolls with every best score the table gave them, so a test can solve those
rolls live and compare: the figures are only as good as the table they came from.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import numpy as np

from suji.core.caching import computed_once
from suji.solver.odds import space
from suji.solver.odds.table import NOT_MAKEABLE, OddsTable

FACTS_FILE = Path(__file__).with_name("facts.json")
SAMPLE_SEED = "odds-facts-sample"
SAMPLE_ROLLS = 24


def _fraction(value: Fraction) -> dict:
    return {"fraction": f"{value.numerator}/{value.denominator}", "decimal": round(float(value), 6)}


def _level_matrix(table: OddsTable, level: int) -> np.ndarray:
    """Best scores as int16 (−1 where not makeable): number set × full operator set × target number."""
    numbers = list(space.number_sets())
    operators = list(space.full_operator_sets())
    matrix = np.empty((len(numbers), len(operators), len(space.target_list())), dtype=np.int16)
    for i, n in enumerate(numbers):
        for j, ops in enumerate(operators):
            matrix[i, j] = np.frombuffer(table.row(n, ops, level), dtype=np.uint8)
    matrix[matrix == NOT_MAKEABLE] = -1
    return matrix


def level_facts(table: OddsTable, level: int) -> dict:
    """The exact figures of one level: P(make a target), the best score's distribution and mean, and P(each target)."""
    matrix = _level_matrix(table, level)
    weights = np.outer(
        np.array(list(space.number_sets().values()), dtype=np.int64),
        np.array(list(space.full_operator_sets().values()), dtype=np.int64),
    )
    roll_total = int(weights.sum())
    target_outcomes = space.target_dice_outcomes()
    target_total = sum(target_outcomes.values())
    index = {t: i for i, t in enumerate(space.target_list())}

    made = 0
    by_score: dict[int, int] = {}
    for targets, count in target_outcomes.items():
        best = matrix[:, :, [index[t] for t in targets]].max(axis=2)
        made += count * int(weights[best >= 0].sum())
        scores, inverse = np.unique(np.maximum(best, 0), return_inverse=True)
        sums = np.bincount(inverse.ravel(), weights=weights.ravel().astype(np.float64))
        # bincount adds in floating point; the weights are exact integers far below 2^53, so the sums are too.
        for score, total in zip(scores.tolist(), sums.tolist(), strict=True):
            by_score[score] = by_score.get(score, 0) + count * int(round(total))
    total = roll_total * target_total
    distribution = {s: Fraction(c, total) for s, c in sorted(by_score.items())}
    mean = sum((s * p for s, p in distribution.items()), Fraction(0))
    per_target = {}
    for t, i in index.items():
        per_target[str(t)] = _fraction(Fraction(int(weights[matrix[:, :, i] >= 0].sum()), roll_total))
    return {
        "p_make": _fraction(Fraction(made, total)),
        "mean_best_score": _fraction(mean),
        "best_score_distribution": {str(s): _fraction(p) for s, p in distribution.items()},
        "target_odds": per_target,
    }


def sample_rolls() -> list[tuple[tuple[int, ...], tuple[str, ...], int]]:
    """The seeded rolls whose table rows the facts file keeps (number set, operator set, level)."""
    rng = random.Random(SAMPLE_SEED)
    numbers = list(space.number_sets())
    operators = list(space.full_operator_sets())
    return [
        (rng.choice(numbers), rng.choice(operators), space.LEVELS[i % len(space.LEVELS)])
        for i in range(SAMPLE_ROLLS)
    ]


def compute_facts(table: OddsTable) -> dict:
    """Every figure of the facts file, from a complete table."""
    return {
        "rules": space.rules_fingerprint(),
        "outcomes": {
            "number_dice": sum(space.number_sets().values()),
            "operator_dice": sum(space.full_operator_sets().values()),
            "target_dice": sum(space.target_dice_outcomes().values()),
        },
        "levels": {str(level): level_facts(table, level) for level in space.LEVELS},
        "sample": [
            {
                "number_dice": list(n),
                "operator_dice": list(ops),
                "level": level,
                "best": {str(t): s for t, s in table.best(n, ops, level=level).items()},
            }
            for n, ops, level in sample_rolls()
        ],
    }


def write_facts(facts: dict, path: Path = FACTS_FILE) -> None:
    path.write_text(json.dumps(facts, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")


@computed_once
def stored_facts() -> dict | None:
    """The facts shipped with the package, or None when the file is missing or made under other rules."""
    try:
        facts = json.loads(FACTS_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return facts if facts.get("rules") == space.rules_fingerprint() else None


def hardest_and_easiest(
    level_data: dict, count: int = 10
) -> tuple[list[tuple[int, dict]], list[tuple[int, dict]]]:
    """The `count` target numbers least and most often makeable by a random roll at a level."""
    ranked = sorted(
        ((int(t), v) for t, v in level_data["target_odds"].items()),
        key=lambda tv: (Fraction(tv[1]["fraction"]), tv[0]),
    )
    return ranked[:count], ranked[::-1][:count]

"""Dice Monsters, the exact odds: which die beats which, when a skill attack exists, who starts.

Each value counts every equally likely roll of the dice named (the sizes from `rules`); the lesson puts them
beside its simulations and asks about them. The caches keep what a page asks again and again (each monster
pair's start odds enumerate every roll of both monsters).
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations, product

from suji.core.caching import bounded
from suji.lessons.dice_monsters.rules import STANDARD_SIZES


@bounded("monster_beats")
def p_at_least(x: int, y: int) -> Fraction:
    """P(a dX shows at least as much as a dY): the chance dX can power-capture dY."""
    return Fraction(sum(min(a, y) for a in range(1, x + 1)), x * y)


def beat_table(sizes: Sequence[int] = STANDARD_SIZES) -> list[list[Fraction]]:
    """P(row die ≥ column die) for each pair of `sizes`."""
    return [[p_at_least(x, y) for y in sizes] for x in sizes]


def _skill_sums(values: Sequence[int]) -> set[int]:
    """All sums of two or more of `values`."""
    sums: set[int] = set()
    for k in range(2, len(values) + 1):
        for combo in combinations(values, k):
            sums.add(sum(combo))
    return sums


@bounded("monster_skill")
def p_skill_exists(attackers: tuple[int, ...], target: int) -> Fraction:
    """P(some two or more of the `attackers` dice sum exactly to a d`target`), by enumerating every roll."""
    hits = 0
    for roll in product(*(range(1, s + 1) for s in attackers)):
        sums = _skill_sums(roll)
        hits += sum(1 for v in range(1, target + 1) if v in sums)
    total = target
    for s in attackers:
        total *= s
    return Fraction(hits, total)


def _sorted_rolls(dice: Sequence[int], keep: int) -> list[tuple[tuple[int, ...], int]]:
    """The distribution of the `keep` lowest faces of `dice`, sorted: (faces, number of rolls)."""
    counts: Counter[tuple[int, ...]] = Counter()
    for roll in product(*(range(1, s + 1) for s in dice)):
        counts[tuple(sorted(roll)[:keep])] += 1
    return sorted(counts.items())


@bounded("monster_starts")  # the designer asks with a ?dice= of any pupil's choosing
def p_starts(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[Fraction, Fraction]:
    """Exact P(monster a starts), P(monster b starts); a roll where every compared die ties is re-rolled."""
    keep = min(len(a), len(b))
    rolls_a, rolls_b = _sorted_rolls(a, keep), _sorted_rolls(b, keep)
    keys_b = [faces for faces, _ in rolls_b]
    cum_b = [0]
    for _, c in rolls_b:
        cum_b.append(cum_b[-1] + c)
    total_b = cum_b[-1]
    a_first = ties = 0
    for faces, c in rolls_a:
        # a starts when its sorted faces are lexicographically smaller (lowest die first, ties go on).
        lo = bisect_right(keys_b, faces)
        equal = c * (cum_b[lo] - cum_b[lo - 1]) if lo and keys_b[lo - 1] == faces else 0
        ties += equal
        a_first += c * (total_b - cum_b[lo])
    total_a = sum(c for _, c in rolls_a)
    decided = total_a * total_b - ties
    return Fraction(a_first, decided), Fraction(decided - a_first, decided)

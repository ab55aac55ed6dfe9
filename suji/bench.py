"""`suji bench`: time the rules engine (and, later, the solver) on seeded standard rolls.

Benchmarks live in BENCHMARKS, name → function(rolls, seed) → list of Timing rows; add one with
``@register("name")``. `suji bench --only NAME` runs those whose name contains NAME. Each benchmark times its
subject and a baseline in the same run, on the same inputs, so the figures compare on one machine.

    suji bench                 # every benchmark, 200 rolls
    suji bench --only check --rolls 500 --seed 3

The figures are wall-clock times of single calls (time.perf_counter_ns), so they vary with the machine's load;
the median is the figure to quote, p95 shows the slow tail.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from suji.dice import Roll, random_roll
from suji.exact import Face, evaluate, is_formula

# The goal the rules engine is held to (issue 2): check() on a typical 9-dice answer, median on a 2-core machine.
CHECK_GOAL_MS = 5.0


@dataclass
class Timing:
    """The times of one benchmark row, in seconds."""

    name: str
    seconds: list[float] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.seconds)

    @property
    def median_ms(self) -> float:
        return percentile(self.seconds, 50) * 1000

    @property
    def p95_ms(self) -> float:
        return percentile(self.seconds, 95) * 1000


def percentile(values: Sequence[float], pct: float) -> float:
    """The nearest-rank percentile (the smallest value with at least pct % of the values at or below it)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    if pct == 50 and len(ordered) % 2 == 0:  # the median of an even count: the mean of the middle two
        mid = len(ordered) // 2
        return (ordered[mid - 1] + ordered[mid]) / 2
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return ordered[rank - 1]


Benchmark = Callable[[int, int], list[Timing]]
BENCHMARKS: dict[str, Benchmark] = {}


def register(name: str) -> Callable[[Benchmark], Benchmark]:
    """Add a benchmark under `name` (a function (rolls, seed) → Timing rows)."""

    def add(function: Benchmark) -> Benchmark:
        BENCHMARKS[name] = function
        return function

    return add


def time_calls(name: str, function: Callable[..., object], inputs: Iterable[tuple]) -> Timing:
    """Time `function(*args)` once for each args tuple."""
    timing = Timing(name)
    clock = time.perf_counter_ns
    for args in inputs:
        start = clock()
        function(*args)
        timing.seconds.append((clock() - start) / 1e9)
    return timing


# ---- typical answers -------------------------------------------------------------------------------------


def typical_answer(roll: Roll, rng: random.Random, tries: int = 20_000) -> tuple[Face, ...] | None:
    """A random valid formula using every die of the roll (each 6 read as 6 or 9 at random), or None."""
    faces: list[Face] = [
        *(rng.choice((6, 9)) if d == 6 else d for d in roll.number_dice),
        *roll.operator_dice,
    ]
    for _ in range(tries):
        rng.shuffle(faces)
        if is_formula(faces):
            return tuple(faces)
    return None


def typical_answers(rolls: int, seed: int) -> list[tuple[str, Roll]]:
    """(formula text, roll) for `rolls` seeded standard rolls: all 5 number dice and all 4 operator dice."""
    from suji.formula import format_faces

    answers = []
    for i in range(rolls):
        roll = random_roll(f"bench:{seed}:{i}")
        faces = typical_answer(roll, random.Random(f"bench-answer:{seed}:{i}"))
        if faces is not None:
            answers.append((format_faces(faces), roll))
    return answers


# ---- baselines: the same check with a naive stripper -----------------------------------------------------


def bruteforce_strip(faces: Sequence[Face], value_of: Callable[[Sequence[Face]], object]) -> tuple[int, ...]:
    """Stripping by the definition: every subset of the dice in order, the valid ones with the same value,
    fewest dice, then highest score. `value_of` gives a comparable exact value or None."""
    from suji.scoring import formula_score

    n = len(faces)
    value = value_of(faces)
    best: tuple[int, int] | None = None
    best_kept: tuple[int, ...] = tuple(range(n))
    for mask in range(1, 1 << n):
        kept = tuple(i for i in range(n) if mask >> i & 1)
        sub = [faces[i] for i in kept]
        sub_value = value_of(sub)
        if sub_value is None or sub_value != value:
            continue
        key = (len(kept), -formula_score(sub))
        if best is None or key < best:
            best, best_kept = key, kept
    return best_kept


def sympy_value_of(faces: Sequence[Face]):  # noqa: ANN201 - a SymPy expression or None
    """The SymPy value of a face sequence through the Lark grammar (the checker of record), or None."""
    from suji.formula import FormulaError, Reading, format_faces, readings

    try:
        for reading in readings(format_faces(faces)):
            if isinstance(reading, Reading) and reading.faces == tuple(faces):
                return reading.sympy_value()
    except FormulaError:
        pass
    return None


def check_with(strip: Callable[[Sequence[Face]], tuple[int, ...]]) -> Callable[[str, Roll], object]:
    """`suji.scoring.check` with another stripper in place of strip_redundant."""
    from suji import scoring

    def run(text: str, roll: Roll) -> object:
        saved = scoring.strip_redundant
        scoring.strip_redundant = strip
        try:
            return scoring.check(text, roll)
        finally:
            scoring.strip_redundant = saved

    return run


@register("check")
def bench_check(rolls: int, seed: int) -> list[Timing]:
    """check() on typical 9-dice answers, against check() with brute-force stripping (exact and SymPy)."""
    from suji.scoring import check

    answers = typical_answers(rolls, seed)
    if answers:
        check(*answers[0])  # build the parser and warm the caches before timing
    rows = [time_calls("check", check, answers)]
    exact_strip = check_with(lambda faces: bruteforce_strip(faces, evaluate))
    rows.append(time_calls("check, baseline: brute-force strip (exact)", exact_strip, answers))
    # The SymPy baseline is some 100 times slower: time it on a tenth of the answers.
    sympy_strip = check_with(lambda faces: bruteforce_strip(faces, sympy_value_of))
    few = answers[: max(1, len(answers) // 10)] if answers else []
    rows.append(time_calls("check, baseline: brute-force strip (SymPy)", sympy_strip, few))
    return rows


# ---- the command -----------------------------------------------------------------------------------------


def report(rows: Sequence[Timing]) -> str:
    """The table `suji bench` prints."""
    width = max([len("benchmark"), *(len(r.name) for r in rows)])
    lines = [f"{'benchmark':<{width}}  {'count':>6}  {'median ms':>10}  {'p95 ms':>10}"]
    for r in rows:
        lines.append(f"{r.name:<{width}}  {r.count:>6}  {r.median_ms:>10.3f}  {r.p95_ms:>10.3f}")
    return "\n".join(lines)


def main(args: argparse.Namespace) -> int:
    """Run the benchmarks named by args.only (all when None) on args.rolls rolls from args.seed."""
    selected = [name for name in BENCHMARKS if args.only is None or args.only in name]
    if not selected:
        print(
            f"suji bench: no benchmark matches {args.only!r} (have: {', '.join(BENCHMARKS)})", file=sys.stderr
        )
        return 2
    if args.rolls < 1:
        print("suji bench: --rolls must be at least 1", file=sys.stderr)
        return 2
    rows: list[Timing] = []
    for name in selected:
        rows.extend(BENCHMARKS[name](args.rolls, args.seed))
    print(f"suji bench: {args.rolls} seeded rolls (seed {args.seed})")
    print(report(rows))
    for row in rows:
        if row.name == "check":
            verdict = "met" if row.median_ms <= CHECK_GOAL_MS else "NOT met"
            print(f"goal: check median ≤ {CHECK_GOAL_MS:g} ms — {verdict}")
    return 0

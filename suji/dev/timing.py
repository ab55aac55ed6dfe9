"""What every benchmark of `suji bench` is made of: its rows of timings and the register of benchmarks.

    a benchmark (rolls, seed) ──time_calls──▶ Timing rows (seconds per call) ──▶ median and p95 in ms

Kept apart from suji.dev.bench so that the benchmarks of other modules (bench_heavy, bench_practice) register
here and suji.dev.bench imports them, with no import running back up.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field


@dataclass
class Timing:
    """The times of one benchmark row, in seconds; `key` names the row in `suji bench --json`."""

    name: str
    seconds: list[float] = field(default_factory=list)
    key: str = ""

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

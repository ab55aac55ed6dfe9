"""Live experiments: one trial function per experiment, shared by the page's simulation and the browser's live run.

An experiment that can run live says what one trial is: `trial(rng) -> (values, dice)`, one value per row of its
table (1 or 0 for a probability row, a number for a mean) and the dice the trial rolled (shown as they roll).
Trials come in chunks (CHUNK, or fewer for an experiment whose trial plays whole games), each drawn from its own
seeded generator (`chunk_rng`), so any chunk of a run can be worked out alone, in well under a second:

    (seed, chunk) ──chunk_rng──▶ rng ──trial × CHUNK──▶ [(values, dice), …]
        ├─▶ `totals(live, n, seed)`: the sums of the first n trials, which the page's table shows
        └─▶ `chunk_trials(live, seed, chunk)`: the same trials one by one, for the browser's live run

so the browser's running counts after n trials are exactly the page's simulation of that seed and N.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

CHUNK = 500  # trials per chunk: one request of the live run, ~5 ms of work
MAX_LIVE_TRIALS = 100_000

Values = tuple[float, ...]
Dice = tuple[int, ...]


@dataclass(frozen=True)
class Live:
    """What one trial of an experiment is, for the page's simulation and the browser's live run.

    `trial` returns a value for each row of the experiment's table and the faces of the dice it rolled;
    `dice` gives each of those dice's highest face (a d6: 6; Sūji's target die B: 8). A trial that plays whole
    games takes milliseconds: such an experiment has smaller chunks and a lower `max_trials`, so one request
    stays well under half a second and a whole run within a few seconds of the server's time.
    """

    trial: Callable[[random.Random], tuple[Values, Dice]]
    dice: tuple[int, ...] = ()
    # What the page writes under each die: a size ("d20") or a msgid (suji.lessons.lesson.Msg, translated)
    dice_labels: tuple[str, ...] = ()
    chunk: int = CHUNK
    max_trials: int = MAX_LIVE_TRIALS


def chunk_rng(seed: int, chunk: int) -> random.Random:
    """The generator of one chunk of a run: a readable seed, the same on every server."""
    return random.Random(f"live/{seed}/{chunk}")


def chunk_trials(live: Live, seed: int, chunk: int, count: int | None = None) -> list[tuple[Values, Dice]]:
    """The first `count` trials (all, by default) of chunk `chunk` (trials chunk·live.chunk …) of the run."""
    rng = chunk_rng(seed, chunk)
    return [live.trial(rng) for _ in range(live.chunk if count is None else min(count, live.chunk))]


def totals(live: Live, n: int, seed: int) -> list[float]:
    """The sum of each row's values over the first `n` trials of the run with `seed`."""
    sums: list[float] = []
    for chunk in range((n + live.chunk - 1) // live.chunk):
        for values, _ in chunk_trials(live, seed, chunk, n - chunk * live.chunk):
            if not sums:
                sums = [0] * len(values)
            for i, v in enumerate(values):
                sums[i] += v
    return sums


def one_hot(index: int, size: int) -> Values:
    """A 1 at `index` among `size` values: the trial fell in that row."""
    return tuple(1 if i == index else 0 for i in range(size))


def at_least(value: int, thresholds: Sequence[int]) -> Values:
    """1 for each threshold the value reaches."""
    return tuple(1 if value >= t else 0 for t in thresholds)

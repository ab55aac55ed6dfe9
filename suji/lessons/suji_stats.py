"""Sūji de Asobo in numbers: how often a random roll makes a target, the best score, and what re-rolling is worth.

RULES.md §1. Three target dice (A, B, C) give up to 12 target numbers; five number dice and four operator dice
make a formula. The exact parts (how many targets, the chance of a 6 or of a × or ÷ die) are counted over all
equally likely faces. Whether a roll can make a target, and its best score, need the solver: the odds table
(suji.solver.odds) has solved every roll once, so its exact figures (stored with the package in suji/solver/odds/facts.json)
stand beside the experiments, and each experiment rolls N fresh seeded rolls and looks each one up. Without a
table (it is built on first use, see suji.solver.odds) the experiments fall back to 2,000 rolls solved in advance by
`precompute` (run ``python -m suji.lessons.suji_stats``) and stored in data/suji_stats.json; the student's N
then picks a seeded sample of them.

Re-rolling (RULES.md "Rerolls"): each re-rolled die costs 1 point, and a score after costs is never below 0.
The lesson compares answering at once with re-rolling all five number dice (cost 5) and re-rolling all nine
number and operator dice (cost 9), each simulated with its own seeded generator per roll.
"""

from __future__ import annotations

import json
import math
import random
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product
from pathlib import Path

from suji.core.i18n import N_
from suji.lessons.lesson import Experiment, Lesson, Msg, Outcome, Row
from suji.lessons.live import Live, totals
from suji.lessons.stats import Estimate, mean_interval, wilson_interval
from suji.lessons.steps import Step, fraction_text, percent_text
from suji.rules.dice import (
    DIVIDE,
    NUMBER_DICE_FACES,
    NUMBER_KINDS,
    OPERATOR_DICE_FACES,
    OPERATOR_KINDS,
    TARGET_KINDS,
    TIMES,
    Roll,
    random_roll,
    target_numbers,
)
from suji.rules.scoring import REROLL_COST, costs
from suji.solver.odds import table_or_none
from suji.solver.odds.facts import stored_facts
from suji.solver.odds.table import OddsTable
from suji.solver.search import solve

DATA_FILE = Path(__file__).with_name("data") / "suji_stats.json"
STORED_SEED = 2024
STORED_ROLLS = 2000
MIN_STORED_ROLLS = 2000

NUMBERS, ALL = "numbers", "all"
REROLLS: dict[str, int] = {NUMBERS: len(NUMBER_KINDS), ALL: len(NUMBER_KINDS) + len(OPERATOR_KINDS)}


# ---- exact values ------------------------------------------------------------------------------------------


@cache
def target_count_distribution() -> dict[int, Fraction]:
    """P(a roll of the three target dice gives k different target numbers), over all 216 equal outcomes."""
    counts: Counter[int] = Counter()
    faces = [NUMBER_DICE_FACES[k] for k in TARGET_KINDS]
    for dice in product(*faces):
        counts[len(target_numbers(dice))] += 1
    total = math.prod(len(f) for f in faces)
    return {k: Fraction(c, total) for k, c in sorted(counts.items())}


def expected_target_count() -> Fraction:
    """The average number of target numbers of a roll."""
    return sum((k * p for k, p in target_count_distribution().items()), Fraction(0))


def p_target_dice_all_different() -> Fraction:
    """P(the target dice A, B and C show three different faces)."""
    faces = [NUMBER_DICE_FACES[k] for k in TARGET_KINDS]
    outcomes = list(product(*faces))
    return Fraction(sum(len(set(d)) == len(d) for d in outcomes), len(outcomes))


def p_target_six() -> Fraction:
    """P(at least one target die shows a 6, which may also be read as 9)."""
    faces = [NUMBER_DICE_FACES[k] for k in TARGET_KINDS]
    outcomes = list(product(*faces))
    return Fraction(sum(6 in d for d in outcomes), len(outcomes))


def p_times_or_divide() -> Fraction:
    """P(the three operator dice A show at least one × or ÷)."""
    faces = [OPERATOR_DICE_FACES[k] for k in OPERATOR_KINDS if k == "A"]
    outcomes = list(product(*faces))
    return Fraction(sum(TIMES in d or DIVIDE in d for d in outcomes), len(outcomes))


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


@cache
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
        return [table_record(seed, i, table) for i in range(n)], TABLE
    return sample_records(n, seed), STORED


# ---- exact figures from the odds table's facts ---------------------------------------------------------------


def exact_facts() -> dict | None:
    """The exact figures of the whole game at level 3 (every operator), or None when none are stored."""
    facts = stored_facts()
    return facts["levels"]["3"] if facts else None


def exact_distribution() -> dict[int, Fraction] | None:
    """P(the best score of a random roll is s), s = 0 when no target can be made."""
    facts = exact_facts()
    if facts is None:
        return None
    return {int(s): Fraction(v["fraction"]) for s, v in facts["best_score_distribution"].items()}


def exact_reach() -> Fraction | None:
    """P(a random roll can make at least one of its targets), over every equally likely face of all twelve dice.

    Re-rolling all five number dice (or all nine) gives a fresh random roll of those dice, so the chance of a
    target afterwards is this same number.
    """
    facts = exact_facts()
    return Fraction(facts["p_make"]["fraction"]) if facts else None


def exact_mean_after(cost: int) -> Fraction | None:
    """The exact mean points of a fresh roll after `cost` points of re-rolls (never below 0; no target = 0)."""
    distribution = exact_distribution()
    if distribution is None:
        return None
    return sum((p * max(0, s - cost) for s, p in distribution.items()), Fraction(0))


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


@cache
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


if __name__ == "__main__":  # pragma: no cover - a maintenance command
    workers = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    write_stored(precompute(processes=workers))
    print(stored_figures())


# ---- the lesson --------------------------------------------------------------------------------------------

REACH_LABELS: dict[str, str] = {
    "now": N_("a target with the roll as it is"),
    NUMBERS: N_("a target after re-rolling the 5 number dice"),
    ALL: N_("a target after re-rolling all 9 dice"),
    "rescue-numbers": N_("no target, rescued by re-rolling the 5 number dice"),
    "rescue-all": N_("no target, rescued by re-rolling all 9 dice"),
}
STRATEGY_LABELS: dict[str, str] = {
    "now": N_("answer at once"),
    NUMBERS: N_("always re-roll the 5 number dice (−5)"),
    ALL: N_("always re-roll all 9 dice (−9)"),
    "numbers-if-stuck": N_("re-roll the 5 number dice only when there is no target (−5)"),
    "all-if-stuck": N_("re-roll all 9 dice only when there is no target (−9)"),
}
ESTIMATE_NOTE = N_(
    "These are estimates, not exact values: %(n)s rolls picked with seed %(seed)s from %(stored)s seeded rolls that "
    "the solver worked out in advance. The intervals are confidence intervals (95%%)."
)
TABLE_NOTE = N_(
    "Simulated: %(n)s fresh random rolls from seed %(seed)s, each looked up in the odds table, where every roll of "
    "the game is solved. Exact: counted over every equally likely face of all twelve dice."
)


def _estimate_note(n: int, seed: int, source: str = STORED) -> dict:
    """The note under a table of estimates (msgid and parameters, translated by the page)."""
    if source == TABLE:
        return {"note": TABLE_NOTE, "note_params": {"n": n, "seed": seed}}
    return {"note": ESTIMATE_NOTE, "note_params": {"n": n, "seed": seed, "stored": stored()["n"]}}


def _row(label: str, estimate: Estimate, exact: Fraction | None = None) -> Row:
    return Row(Msg(label), exact, estimate.value, estimate.interval)


def _targets_trial(rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """One roll of the three target dice: how many target numbers it gives (a row of the distribution)."""
    dice = tuple(rng.choice(NUMBER_DICE_FACES[k]) for k in TARGET_KINDS)
    count = len(target_numbers(dice))
    return tuple(int(count == k) for k in target_count_distribution()), dice


# The other experiments of this lesson look rolls up in the odds table (or, before it is built, in the stored
# sample) and have rows that are shares of the stuck rolls only: they show the page's result, not a live run.
LIVE_TARGETS = Live(_targets_trial, dice=tuple(max(NUMBER_DICE_FACES[k]) for k in TARGET_KINDS))


def _run_targets(n: int, seed: int, lang: str) -> Outcome:
    counts = totals(LIVE_TARGETS, n, seed)
    return Outcome(
        [
            Row(str(k), p, c / n)
            for (k, p), c in zip(target_count_distribution().items(), counts, strict=True)
        ],
        n,
        seed,
    )


def _run_reach(n: int, seed: int, lang: str) -> Outcome:
    records, source = fresh_or_stored(n, seed)
    f = figures(records)
    exact = exact_reach()
    rows = [
        _row(REACH_LABELS["now"], f.reach, exact),
        _row(REACH_LABELS[NUMBERS], f.reach_numbers, exact),
        _row(REACH_LABELS[ALL], f.reach_all, exact),
        _row(REACH_LABELS["rescue-numbers"], f.rescue_numbers),
        _row(REACH_LABELS["rescue-all"], f.rescue_all),
    ]
    return Outcome(rows, f.n, seed, **_estimate_note(f.n, seed, source))


def _bin_label(key: str) -> str | Msg:
    if key == "none":
        return Msg(N_("no target"))
    lo, hi = key.split("-")
    return f"{lo}+" if int(hi) == SCORE_BINS[-1][1] else f"{lo}–{hi}"


def exact_histogram() -> dict[str, Fraction] | None:
    """The exact chance of no target, and of a best score in each bin of ten points (as score_histogram)."""
    distribution, reach = exact_distribution(), exact_reach()
    if distribution is None or reach is None:
        return None
    found = {"none": 1 - reach}
    for lo, hi in SCORE_BINS:
        found[f"{lo}-{hi}"] = sum((p for s, p in distribution.items() if lo <= s <= hi), Fraction(0))
    found[f"{SCORE_BINS[0][0]}-{SCORE_BINS[0][1]}"] -= (
        1 - reach
    )  # score 0 in the distribution counts "none" too
    return found


def _run_best(n: int, seed: int, lang: str) -> Outcome:
    records, source = fresh_or_stored(n, seed)
    total = len(records)
    exact = exact_histogram() or {}
    rows = [
        Row(_bin_label(key), exact.get(key), hits / total, wilson_interval(hits, total))
        for key, hits in score_histogram(records).items()
    ]
    return Outcome(rows, total, seed, **_estimate_note(total, seed, source))


# Strategies whose mean has an exact value: a fresh roll, after a fixed cost.
EXACT_COSTS = {"now": 0, NUMBERS: costs(REROLLS[NUMBERS]), ALL: costs(REROLLS[ALL])}


def _run_value(n: int, seed: int, lang: str) -> Outcome:
    records, source = fresh_or_stored(n, seed)
    f = figures(records)
    rows = [
        Row(Msg(STRATEGY_LABELS[s]), exact_mean_after(EXACT_COSTS[s]) if s in EXACT_COSTS else None,
            f.means[s][0], f.means[s][1:])
        for s in STRATEGIES
    ]  # fmt: skip
    return Outcome(rows, f.n, seed, percent=False, **_estimate_note(f.n, seed, source))


ADVICE_ROLLS = 40
MAX_ADVICE_ROLLS = 50  # each roll's advice is a few thousand lookups (8.5 ms): 0.4 s at the cap
ADVICE_LABELS = {
    "now": N_("answer at once"),
    "advice": N_("follow the solver's advice once"),
}
ADVICE_NOTE = N_(
    "For each of %(n)s fresh random rolls (seed %(seed)s) the solver's advice was worked out from the odds table: "
    "its expected score is exact for that roll (the chance of every outcome of the re-roll it suggests, after "
    "the cost). The means of those numbers estimate what following the advice is worth."
)
ADVICE_NO_TABLE = N_(
    "This experiment needs the odds table, which is not ready yet (it is built the first time the app runs). "
    "Until then only the exact value of answering at once is shown."
)


def _run_advice(n: int, seed: int, lang: str) -> Outcome:
    from suji.solver.advice import advise

    exact_now = exact_mean_after(0)
    table = table_or_none()
    if table is None:
        row = Row(Msg(ADVICE_LABELS["now"]), exact_now, None, None)
        return Outcome([row], 0, seed, percent=False, note=ADVICE_NO_TABLE)
    now_points, advice_points = [], []
    for i in range(n):
        roll = random_roll(roll_seed(seed, i))
        best = advise(roll, table=table).best
        now = table.best_score(roll.number_dice, roll.operator_dice, roll.targets)
        now_points.append(float(final_score(now)))
        advice_points.append(float(best.expected_score))
    rows = [
        Row(Msg(ADVICE_LABELS["now"]), exact_now, *_mean_and_interval(now_points)),
        Row(Msg(ADVICE_LABELS["advice"]), None, *_mean_and_interval(advice_points)),
    ]
    return Outcome(rows, n, seed, percent=False, note=ADVICE_NOTE, note_params={"n": n, "seed": seed})


def _mean_and_interval(values: list[float]) -> tuple[float, tuple[float, float]]:
    mean, low, high = mean_interval(values)
    return mean, (low, high)


def _accept_percent(estimate: Estimate) -> tuple[Fraction, Fraction]:
    # The 95% interval widened to whole percents: a student reading "71.3%" may type 71% or 71.3%.
    low, high = estimate.interval
    return Fraction(math.floor(low * 100), 100), Fraction(math.ceil(high * 100), 100)


def _accept_mean(mean: tuple[float, float, float]) -> tuple[Fraction, Fraction]:
    return Fraction(math.floor(mean[1])), Fraction(math.ceil(mean[2]))


def steps() -> list[Step]:
    """The questions: four exact answers counted over equally likely faces, two read from the stored rolls."""
    f = stored_figures()
    reach_low, reach_high = _accept_percent(f.reach)
    mean_low, mean_high = _accept_mean(f.means["now"])
    return [
        Step(
            "targets",
            N_("The target dice show 2, 6 and 8. How many different target numbers do they give?"),
            Fraction(len(target_numbers((2, 6, 8)))),
            N_(
                "Three different dice can be put in 3 × 2 × 1 = 6 orders: 268, 286, 628, 682, 826, 862. The 6 "
                "may also be read as 9, which gives 6 more: 298, 289, 928, 982, 829, 892. That makes 12."
            ),
        ),
        Step(
            "six",
            N_("What is the probability that at least one of the three target dice shows a 6?"),
            p_target_six(),
            N_(
                "Die A shows 6 with probability 1/6, die B too, and die C has no 6. No 6 at all: "
                "5/6 × 5/6 × 1 = 25/36. So at least one 6: 1 − 25/36 = 11/36, about 30.6%%."
            ),
        ),
        Step(
            "different",
            N_(
                "Target die A has 1 2 3 4 5 6, die B has 1 2 3 6 7 8 and die C has 1 2 3 4 5 8. What is the "
                "probability that the three target dice show three different numbers?"
            ),
            p_target_dice_all_different(),
            N_(
                "There are 6 × 6 × 6 = 216 rolls. A and B share 1 2 3 6, so A = B in 4 × 6 = 24 rolls; A and C "
                "share 1 2 3 4 5 (30 rolls); B and C share 1 2 3 8 (24 rolls). The rolls 1 1 1, 2 2 2 and 3 3 3 "
                "were counted three times instead of once, so 24 + 30 + 24 − 2 × 3 = 72 rolls have a pair. "
                "216 − 72 = 144 rolls are all different: 144/216 = 2/3."
            ),
        ),
        Step(
            "times",
            N_(
                "Each of the three operator dice A shows + + − − × ÷. What is the probability that at least "
                "one of them shows × or ÷?"
            ),
            p_times_or_divide(),
            N_(
                "One die shows × or ÷ with probability 2/6 = 1/3, so neither with 2/3. None of the three: "
                "2/3 × 2/3 × 2/3 = 8/27. At least one: 1 − 8/27 = 19/27, about 70.4%%."
            ),
        ),
        Step(
            "reach",
            N_(
                "Open the experiment “Can a roll make a target?” with N = %(n)s. About what percentage of the "
                "rolls can make at least one target? Type a percentage, for example 50%%."
            ),
            Fraction(f.reach.hits, f.reach.n),
            N_(
                "In the %(n)s stored rolls, %(hits)s could make a target: %(pct)s. This is an estimate from a "
                "sample: with a confidence of 95%%, the true value is between %(low)s and %(high)s, so any answer from "
                "%(accept_low)s to %(accept_high)s counts."
            ),
            {
                "n": f.n,
                "hits": f.reach.hits,
                "pct": percent_text(f.reach.value),
                "low": percent_text(f.reach.interval[0]),
                "high": percent_text(f.reach.interval[1]),
                "accept_low": percent_text(reach_low, 0),
                "accept_high": percent_text(reach_high, 0),
            },
            accept=(reach_low, reach_high),
        ),
        Step(
            "mean",
            N_(
                "Open the experiment “What is re-rolling worth?” with N = %(n)s. How many points does a roll "
                "bring on average if you answer at once (a roll with no target brings 0)?"
            ),
            Fraction(f.means["now"][0]).limit_denominator(1000),
            N_(
                "The %(n)s stored rolls bring %(mean)s points on average when you answer at once; the confidence "
                "interval (95%%) is %(low)s to %(high)s, so any answer from %(accept_low)s to %(accept_high)s "
                "counts. Re-rolling every time costs more points than it wins on average; re-rolling only a "
                "roll with no target is the best of the strategies in the table."
            ),
            {
                "n": f.n,
                "mean": f"{f.means['now'][0]:.2f}",
                "low": f"{f.means['now'][1]:.2f}",
                "high": f"{f.means['now'][2]:.2f}",
                "accept_low": fraction_text(mean_low),
                "accept_high": fraction_text(mean_high),
            },
            accept=(mean_low, mean_high),
        ),
    ]


def _page_extras(args: Mapping[str, str]) -> dict:
    """The stored figures of the whole game for the lesson page."""
    return {"figures": stored_figures(), "stored": stored(), "suji": sys.modules[__name__]}


LESSON = Lesson(
    slug="suji",
    title=N_("Sūji de Asobo in numbers"),
    summary=N_(
        "How often can a random roll make a target, how many points is the best formula worth, and when "
        "does re-rolling pay?"
    ),
    rules=(
        N_(
            "Three target dice give the target numbers: any 3-digit number made from their faces in any "
            "order. A 6 may be read as 9."
        ),
        N_(
            "Five number dice and four operator dice make a formula whose value must be one of the targets. "
            "Score = operator points × number dice used."
        ),
        N_("Before answering you may re-roll dice: each re-rolled die costs %(reroll)s point."),
        N_(
            "Whether a roll can make a target is worked out by the solver, a program that tries every "
            "formula. The lesson uses it on many random rolls."
        ),
    ),
    steps=steps,
    rule_params={"reroll": REROLL_COST},
    page_extras=_page_extras,
    experiments=(
        Experiment(
            "targets",
            N_("How many target numbers does a roll give?"),
            _run_targets,
            max_trials=30_000,  # 0.013 ms a roll: 0.4 s at the cap
            x_title=N_("number of targets"),
            live=LIVE_TARGETS,
        ),
        Experiment(
            "reach",
            N_("Can a roll make a target?"),
            _run_reach,
            default_trials=STORED_ROLLS,
            max_trials=STORED_ROLLS,
        ),
        Experiment(
            "best",
            N_("The best score of a roll"),
            _run_best,
            default_trials=STORED_ROLLS,
            max_trials=STORED_ROLLS,
            x_title=N_("best score"),
        ),
        Experiment(
            "value",
            N_("What is re-rolling worth?"),
            _run_value,
            default_trials=STORED_ROLLS,
            max_trials=STORED_ROLLS,
            x_title=N_("strategy"),
        ),
        Experiment(
            "advice",
            N_("What is the solver's advice worth?"),
            _run_advice,
            default_trials=ADVICE_ROLLS,
            max_trials=MAX_ADVICE_ROLLS,
            x_title=N_("strategy"),
        ),
    ),
    notes=(
        N_(
            "The exact answers are counted over all equally likely faces of all twelve dice, with the odds "
            "table, where the solver has worked out every possible roll once. The experiments roll fresh "
            "random dice and put their frequencies, with confidence intervals (95%%), beside the exact values."
        ),
    ),
)

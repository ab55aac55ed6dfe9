"""Sūji de Asobo in numbers, the lesson: sampled rolls beside the exact values, the questions and the page.

Each experiment rolls N fresh seeded rolls and looks each one up in the odds table (or, before the table is
built, picks N of the stored rolls: `sample.fresh_or_stored`), then puts the figures beside the exact values
(`exact`). The lesson compares answering at once with re-rolling all five number dice (cost 5) and re-rolling
all nine number and operator dice (cost 9), each simulated with its own seeded generator per roll. `steps`
asks four questions with exact answers and two read from the stored rolls; `LESSON` is what the pages read.
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Mapping
from fractions import Fraction

from suji.core.decimals import decimal_text, percent_text
from suji.core.i18n import N_
from suji.lessons.lesson import Experiment, Lesson, Msg, Outcome, Row
from suji.lessons.live import Live, totals
from suji.lessons.stats import Estimate, mean_interval, wilson_interval
from suji.lessons.steps import Step, fraction_text
from suji.lessons.suji_stats.exact import (
    exact_histogram,
    exact_mean_after,
    exact_reach,
    p_target_dice_all_different,
    p_target_six,
    p_times_or_divide,
    target_count_distribution,
)
from suji.lessons.suji_stats.sample import (
    ALL,
    NUMBERS,
    REROLLS,
    SCORE_BINS,
    STORED,
    STORED_ROLLS,
    STRATEGIES,  # also read by the page's figures, through `_page_extras`
    TABLE,
    figures,
    final_score,
    fresh_or_stored,
    roll_seed,
    score_histogram,
    stored,
    stored_figures,
)
from suji.rules.dice import NUMBER_DICE_FACES, TARGET_KINDS, random_roll, target_numbers
from suji.rules.scoring import REROLL_COST, costs
from suji.solver.odds import TableError, table_or_none

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
    now_points, advice_points = [], []
    try:
        for i in range(n if table is not None else 0):
            roll = random_roll(roll_seed(seed, i))
            best = advise(roll, table=table).best
            now = table.best_score(roll.number_dice, roll.operator_dice, roll.targets)  # type: ignore[union-attr]
            now_points.append(float(final_score(now)))
            advice_points.append(float(best.expected_score))
    except TableError:
        table = None  # the file stopped reading (replaced or damaged): as without a table
    if table is None:
        row = Row(Msg(ADVICE_LABELS["now"]), exact_now, None, None)
        return Outcome([row], 0, seed, percent=False, note=ADVICE_NO_TABLE)
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
                "mean": decimal_text(f.means["now"][0], 2, trim=False),
                "low": decimal_text(f.means["now"][1], 2, trim=False),
                "high": decimal_text(f.means["now"][2], 2, trim=False),
                "accept_low": fraction_text(mean_low),
                "accept_high": fraction_text(mean_high),
            },
            accept=(mean_low, mean_high),
        ),
    ]


def _page_extras(args: Mapping[str, str]) -> dict:
    """The stored figures of the whole game for the lesson page."""
    # The template reads the labels and STRATEGIES from this module, under the name `suji`.
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

"""Silence in Class!, the lesson: simulated rolls beside the exact odds, the questions and the page.

Data flows: seeded trials (`Live`, shared with the browser's live run) → counts → `Outcome` rows beside the
exact values (`exact`); `steps` asks the questions, `_page_extras` gives the page its table of cards, and
`LESSON` is what the pages read.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from fractions import Fraction

from suji.core.decimals import decimal_text, exact_and_decimal
from suji.core.i18n import N_
from suji.lessons.lesson import Experiment, Lesson, Outcome, Row
from suji.lessons.live import Live, at_least, one_hot, totals
from suji.lessons.silence.exact import (
    distribution,
    expected_risk,
    p_success,
    risk_pays,
    risk_sd,
    risk_variance,
    threshold,
)
from suji.lessons.silence.game import BOTS, replay
from suji.lessons.silence.rules import CHEATING, DICE, PUPIL_CARDS, SIDES, TAKE, roll_3d6
from suji.lessons.steps import Step
from suji.rules.exact import as_rational, value_float
from suji.rules.language.printing import pupil_text

# ---- simulations -------------------------------------------------------------------------------------------


TOTALS = tuple(range(DICE, DICE * SIDES + 1))


def _totals_trial(rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """One roll of three dice: which total it made."""
    dice = tuple(rng.randint(1, SIDES) for _ in range(DICE))
    return one_hot(sum(dice) - DICE, len(TOTALS)), dice


def _at_least_trial(rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The same roll of three dice: which risk values it reaches."""
    dice = tuple(rng.randint(1, SIDES) for _ in range(DICE))
    return at_least(sum(dice), TOTALS), dice


LIVE_TOTALS = Live(_totals_trial, dice=(SIDES,) * DICE)
LIVE_AT_LEAST = Live(_at_least_trial, dice=(SIDES,) * DICE)


def simulate_totals(n: int, seed: int) -> dict[int, int]:
    """Counts of each 3d6 total in `n` seeded rolls (the trials of the live run with that seed)."""
    return (
        dict(zip(TOTALS, (int(c) for c in totals(LIVE_TOTALS, n, seed)), strict=True))
        if n
        else dict.fromkeys(TOTALS, 0)
    )


def simulate_risk(m: int, r: int, n: int, seed: int) -> list[int]:
    """Minus points of `n` seeded risk rolls (each 0 or 2m)."""
    rng = random.Random(seed)
    return [0 if roll_3d6(rng) >= r else 2 * m for _ in range(n)]


def simulate_strategies(n: int, seed: int) -> dict[str, float]:
    """Mean minus points per risk decision for each bot over the example pupil cards (n cards each)."""
    rng = random.Random(seed)
    totals = dict.fromkeys(BOTS, 0)
    for _ in range(n):
        card = rng.choice(PUPIL_CARDS)
        total = roll_3d6(rng)
        for name, bot in BOTS.items():
            if bot(card) == TAKE:
                totals[name] += card.minus
            elif total < card.risk:
                totals[name] += 2 * card.minus
    return {name: t / n for name, t in totals.items()}


# ---- the lesson --------------------------------------------------------------------------------------------


def _run_distribution(n: int, seed: int, lang: str) -> Outcome:
    counts = simulate_totals(n, seed)
    return Outcome([Row(str(t), p, counts[t] / n) for t, p in distribution().items()], n, seed)


def _run_at_least(n: int, seed: int, lang: str) -> Outcome:
    hits = totals(LIVE_AT_LEAST, n, seed)
    return Outcome([Row(f"≥ {r}", p_success(r), hits[i] / n) for i, r in enumerate(TOTALS)], n, seed)


def _expected_trial(rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """One risk roll for the seed's card (m = 11): the minus points it costs at each risk value r."""
    dice = tuple(rng.randint(1, SIDES) for _ in range(DICE))
    m = CHEATING.minus
    return tuple(0 if sum(dice) >= r else 2 * m for r in TOTALS), dice


LIVE_EXPECTED = Live(_expected_trial, dice=(SIDES,) * DICE)


def _run_expected(n: int, seed: int, lang: str) -> Outcome:
    # The seed's card (m = 11): expected minus points of risking for each r, against taking 11.
    sums = totals(LIVE_EXPECTED, n, seed)
    m = CHEATING.minus
    return Outcome([Row(f"r = {r}", expected_risk(m, r), s / n) for r, s in zip(TOTALS, sums, strict=True)], n, seed,
                   percent=False)  # fmt: skip


def steps() -> list[Step]:
    """The questions of the lesson, answers computed here."""
    c = CHEATING
    return [
        Step(
            "p10",
            N_("Three dice are rolled. What is the probability that the total is exactly 10?"),
            distribution()[10],
            N_(
                "There are 6 × 6 × 6 = 216 equally likely rolls, and 27 of them add up to 10. So "
                "the probability "
                "is 27/216 = 1/8 = 12.5%%."
            ),
            hint=N_(
                "Hint: there are 216 rolls. For each number on the first die, count the pairs of the other two that make the rest of 10."
            ),
        ),
        Step(
            "cheating",
            N_("The card Cheating has risk value 12. What is the probability of escaping, P(3d6 ≥ 12)?"),
            p_success(c.risk),
            N_("81 of the 216 rolls give 12 or more, so P(3d6 ≥ 12) = 81/216 = 3/8 = 37.5%%."),
            hint=N_(
                "Hint: the totals are symmetric, so P(total ≥ 12) is the same as P(total ≤ 9). Count the small totals."
            ),
        ),
        Step(
            "expected",
            N_(
                "Cheating: take 11 minus points, or risk (12 or more escapes, less costs 22). What "
                "is the expected number of minus points if you risk?"
            ),
            expected_risk(c.minus, c.risk),
            N_(
                "The expected value is the average over many tries. You fail with probability "
                "5/8 and then "
                "get 22, so on average 22 × 5/8 = 55/4 = 13.75 minus points. That is more than 11: take the "
                "points."
            ),
            hint=N_(
                "Hint: escaping costs 0. Multiply what a failed roll costs by the probability of failing."
            ),
        ),
        Step(
            "even",
            N_(
                "For which risk value r is P(3d6 ≥ r) exactly 1/2, so that risking and taking are "
                "equally good on average? Type r."
            ),
            Fraction(min(r for r in range(3, 19) if risk_pays(r) == 0)),
            N_(
                "The totals 3 to 18 are symmetric around 10.5, so exactly half of the rolls are 11 or more: "
                "P(3d6 ≥ 11) = 1/2 and risking costs 2m × 1/2 = m, the same as taking."
            ),
            hint=N_("Hint: the totals 3 to 18 are symmetric around their middle."),
        ),
        Step(
            "threshold",
            N_("What is the largest risk value r for which risking is better than taking on average?"),
            Fraction(threshold()),
            N_(
                "Risking costs 2m × P(fail) on average, which is less than m exactly when P(fail) < "
                "1/2, i.e. when "
                "P(3d6 ≥ r) > 1/2. P(3d6 ≥ 10) = 5/8 > 1/2 but P(3d6 ≥ 11) = 1/2, so the answer is 10."
            ),
            hint=N_("Hint: risking costs 2m × P(fail) on average. When is that less than m?"),
        ),
        Step(
            "spread",
            N_(
                "A card with 5 minus points and risk value 11. Risking gives 0 or 10 minus points. "
                "What is the standard deviation (the typical spread) of the minus points?"
            ),
            Fraction(
                math.isqrt(risk_variance(5, 11).numerator), math.isqrt(risk_variance(5, 11).denominator)
            ),
            N_(
                "Both results, 0 and 10, have probability 1/2, so the result is always 5 away from "
                "the average "
                "of 5: the standard deviation is 5. Taking always gives exactly 5 (spread 0): same "
                "average, but "
                "risking is a gamble."
            ),
            hint=N_(
                "Hint: the two results, 0 and 10, are equally likely. How far is each one from the average?"
            ),
        ),
    ]


def spread_text(m: int, r: int) -> str:
    """The standard deviation of risking as the card table shows it: exact in the one pupil spelling, and rounded
    to two decimals beside it unless it is whole (√6335/36 ≈ 2.21, 5)."""
    sd = risk_sd(m, r)
    rational = as_rational(sd)
    if rational is not None:
        return exact_and_decimal(rational)
    # An irrational value is never halfway between two decimals, so its float rounds as the exact value does.
    return f"{pupil_text(sd)} ≈ {decimal_text(value_float(sd), 2, trim=False)}"


def _page_extras(args: Mapping[str, str]) -> dict:
    """The pupil cards with their risks, for the lesson page's table."""
    return {"cards": PUPIL_CARDS, "expected_risk": expected_risk, "p_success": p_success, "spread_text": spread_text}


LESSON = Lesson(
    slug="silence",
    title=N_("Silence in Class!"),
    summary=N_("Take the minus points, or risk a roll of three dice? Find out when the gamble pays."),
    rules=(
        N_("Each pupil card shows patience points, minus points m and a risk value r."),
        N_("Play a card: the teacher's patience marker moves on by its patience points."),
        N_(
            "Then choose: take the m minus points, or roll three dice (3d6). A total of r or more escapes; "
            "less costs double, 2m."
        ),
        N_(
            "When the patience marker reaches or passes 20, 40, 60 …, a teacher card hits everybody: each "
            "player chooses for themselves to take its minus points or to risk a roll of their own. A star "
            "means detention: anyone on an ink-blot space moves on to the next one."
        ),
        N_("When the marker or a piece reaches the end of the board, the fewest minus points wins."),
    ),
    steps=steps,
    page_extras=_page_extras,
    replay=lambda seed, moves, args: replay(seed, moves),
    experiments=(
        Experiment(
            "totals", N_("The total of three dice"), _run_distribution, x_title=N_("total"), live=LIVE_TOTALS
        ),
        Experiment(
            "at-least",
            N_("P(3d6 ≥ r): the chance to escape"),
            _run_at_least,
            x_title=N_("risk value"),
            live=LIVE_AT_LEAST,
        ),
        Experiment(
            "expected",
            N_("Cheating (m = 11): expected minus points of risking, by risk value (taking costs 11)"),
            _run_expected,
            default_trials=500,
            max_trials=20_000,
            x_title=N_("risk value"),
            live=LIVE_EXPECTED,
        ),
    ),
    notes=(
        N_(
            "Only the card Cheating (patience 9, minus 11, risk 12) is from the rulebook; the other "
            "cards, the "
            "teacher cards and the board length of 100 are examples."
        ),
    ),
)

"""Silence in Class!: 3d6 risk rolls, their exact odds, and a small game where the student takes or risks.

RULES.md §2: play a pupil card (patience p, minus points m, risk value r), move the patience marker by p, then
take m minus points or roll 3d6: a total ≥ r escapes, less costs 2m. Teacher cards come when the marker
reaches or passes a multiple of 20 and hit everybody, but each player chooses for themselves to take the card's
minus points or to risk their own roll (the seed: "unless each player individually chooses to make a risk roll");
a star sends anyone on an ink-blot space to the next one.
The seed gives one card (Cheating 9/11/12); every other card and the board length are labelled examples.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from itertools import product

import sympy

from suji.core.i18n import N_
from suji.lessons.lesson import Decision, Event, Experiment, Lesson, Msg, Option, Outcome, Row
from suji.lessons.live import Live, at_least, one_hot, totals
from suji.lessons.steps import Step, fraction_text, percent_text

DICE = 3
SIDES = 6
INK_BLOT = 20  # a teacher card comes at every multiple of 20
BOARD_END = 100  # example: the seed's board is not in the text ("Caution, Teacher" space)
HAND = 4


@dataclass(frozen=True)
class Card:
    """A pupil or teacher card: patience points, minus points, risk value (star: detention)."""

    name: str  # msgid
    patience: int
    minus: int
    risk: int
    star: bool = False
    example: bool = True  # not from the seed
    # Teacher cards "Test" and "Inattentive Teacher": the teacher is busy, so no minus points, no patience
    # and no choice to make (the seed: "the pupils are lucky").
    lucky: bool = False


CHEATING = Card(N_("Cheating"), 9, 11, 12, example=False)
PUPIL_CARDS: tuple[Card, ...] = (
    CHEATING,
    Card(N_("Passing notes"), 3, 4, 9),
    Card(N_("Chewing gum"), 2, 3, 8),
    Card(N_("Paper plane"), 6, 8, 11),
    Card(N_("Whispering"), 4, 5, 10),
    Card(N_("Drawing on the desk"), 5, 7, 13),
    Card(N_("Phone in class"), 8, 10, 14),
    Card(N_("Sleeping"), 5, 6, 7),
)
TEACHER_CARDS: tuple[Card, ...] = (
    Card(N_("Pop quiz"), 4, 6, 11),
    Card(N_("Extra homework"), 3, 5, 10, star=True),
    Card(N_("Test"), 0, 0, 0, example=False, lucky=True),
    Card(N_("Inattentive Teacher"), 0, 0, 0, example=False, lucky=True),
    Card(N_("Angry teacher"), 5, 8, 12, star=True),
)


# ---- exact values ------------------------------------------------------------------------------------------


@cache
def distribution() -> dict[int, Fraction]:
    """P(3d6 total = t) for t = 3..18, by counting all 216 equally likely rolls."""
    counts: dict[int, int] = {}
    for roll in product(range(1, SIDES + 1), repeat=DICE):
        counts[sum(roll)] = counts.get(sum(roll), 0) + 1
    total = SIDES**DICE
    return {t: Fraction(c, total) for t, c in sorted(counts.items())}


def p_success(r: int) -> Fraction:
    """P(3d6 ≥ r): the chance a risk roll with risk value `r` escapes."""
    return sum((p for t, p in distribution().items() if t >= r), Fraction(0))


def expected_risk(m: int, r: int) -> Fraction:
    """Expected minus points of risking: 2m · P(fail)."""
    return 2 * m * (1 - p_success(r))


def risk_variance(m: int, r: int) -> Fraction:
    """Variance of the minus points of risking (0 or 2m): (2m)² · p · (1 − p). Taking m has variance 0."""
    p = p_success(r)
    return (2 * m) ** 2 * p * (1 - p)


def risk_sd(m: int, r: int) -> sympy.Expr:
    """The exact standard deviation of risking, 2m·√(p(1 − p)), as a SymPy expression (taking m: 0)."""
    variance = risk_variance(m, r)
    return sympy.sqrt(sympy.Rational(variance.numerator, variance.denominator))


def sd_text(value: sympy.Expr) -> str:
    """An exact square-root expression written for pupils: 11*sqrt(15)/4 → "11√15/4"."""
    return str(value).replace("sqrt(", "√").replace(")", "").replace("*", "")


def risk_pays(r: int) -> int:
    """Compare risking with taking, for any m: 1 if risking is better on average, 0 if even, −1 if worse."""
    # 2m·P(fail) < m  ⇔  P(fail) < 1/2  ⇔  P(success) > 1/2, whatever m is.
    p = p_success(r)
    return (p > Fraction(1, 2)) - (p < Fraction(1, 2))


def threshold() -> int:
    """The largest risk value where risking still pays on average (10: P(3d6 ≥ 10) = 5/8 > 1/2)."""
    return max(r for r in range(DICE, DICE * SIDES + 1) if risk_pays(r) > 0)


# ---- simulation --------------------------------------------------------------------------------------------


def roll_3d6(rng: random.Random) -> int:
    """One risk roll."""
    return sum(rng.randint(1, SIDES) for _ in range(DICE))


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


# ---- the game ----------------------------------------------------------------------------------------------

TAKE, RISK = "take", "risk"


def bot_always_take(card: Card) -> str:
    """Never roll."""
    return TAKE


def bot_always_risk(card: Card) -> str:
    """Always roll."""
    return RISK


def bot_expected(card: Card) -> str:
    """Roll when risking costs fewer minus points on average (risk value 10 or less)."""
    return RISK if risk_pays(card.risk) > 0 else TAKE


BOTS = {"take": bot_always_take, "risk": bot_always_risk, "expected": bot_expected}


@dataclass
class SilenceGame:
    """A game of Silence in Class! for the student (player 0) and bots; replayable from seed and choices."""

    seed: int
    bots: tuple[str, ...] = ("expected", "take")
    rng: random.Random = field(init=False)
    minus: list[int] = field(init=False)
    hands: list[list[Card]] = field(init=False)
    marker: int = 0
    turn: int = 0  # whose turn (player index)
    pending_teacher: Card | None = None
    blots_seen: int = 0
    winners: list[int] = field(default_factory=list)
    log: list[Event] = field(default_factory=list)
    over: bool = False

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.minus = [0] * (1 + len(self.bots))
        self.hands = [[self._draw() for _ in range(HAND)] for _ in self.minus]
        self._run_bots()

    @property
    def players(self) -> int:
        """Number of players, the student included."""
        return len(self.minus)

    def _draw(self) -> Card:
        return self.rng.choice(PUPIL_CARDS)

    def decision(self) -> Decision | None:
        """What the student must decide now (None when the game is over)."""
        if self.over:
            return None
        if self.pending_teacher is not None:
            card = self.pending_teacher
            return Decision(
                N_(
                    "The teacher card %(card)s hits everybody: take %(m)s minus points or risk (3d6 ≥ %(r)s)?"
                ),
                [*_options(card, "")],
                {"card": Msg(card.name), "m": card.minus, "r": card.risk},
            )
        options = []
        for i, card in enumerate(self.hands[0]):
            options.extend(_options(card, f"{i}-"))
        return Decision(N_("Your turn: play a card, then take its minus points or risk a roll."), options)

    def play(self, key: str) -> None:
        """Apply the student's choice `key` (from `decision().options`); ValueError if it is not offered."""
        decision = self.decision()
        if decision is None or key not in {o.key for o in decision.options}:
            raise ValueError(key)
        if self.pending_teacher is not None:
            card, self.pending_teacher = self.pending_teacher, None
            self._teacher_choices(card, student_choice=key)
        else:
            index, choice = key.split("-")
            card = self.hands[0].pop(int(index))
            self._play_card(0, card, choice)
            self.hands[0].append(self._draw())
            self._after_turn(0)
        self._run_bots()

    def _run_bots(self) -> None:
        while not self.over and self.pending_teacher is None and self.turn != 0:
            player = self.turn
            hand = self.hands[player]
            card = hand.pop(0)
            self._play_card(player, card, BOTS[self.bots[player - 1]](card))
            hand.append(self._draw())
            self._after_turn(player)

    def _play_card(self, player: int, card: Card, choice: str) -> None:
        # The marker stops at the end of the board: the lesson is over there ("Caution, Teacher").
        self.marker = min(self.marker + card.patience, BOARD_END)
        self.log.append(
            Event(
                N_("Player %(player)s plays %(card)s: patience marker moves %(p)s to %(marker)s."),
                {"player": player + 1, "card": Msg(card.name), "p": card.patience, "marker": self.marker},
            )
        )
        self._settle(player, card, choice)

    def _settle(self, player: int, card: Card, choice: str) -> None:
        if choice == TAKE:
            self.minus[player] += card.minus
            self.log.append(
                Event(
                    N_("Player %(player)s takes %(m)s minus points."), {"player": player + 1, "m": card.minus}
                )
            )
            return
        total = roll_3d6(self.rng)
        if total >= card.risk:
            self.log.append(
                Event(
                    N_("Player %(player)s risks and rolls %(total)s (needed %(r)s): no minus points!"),
                    {"player": player + 1, "total": total, "r": card.risk},
                )
            )
        else:
            self.minus[player] += 2 * card.minus
            self.log.append(
                Event(
                    N_("Player %(player)s risks and rolls %(total)s (needed %(r)s): %(m2)s minus points."),
                    {"player": player + 1, "total": total, "r": card.risk, "m2": 2 * card.minus},
                )
            )

    def _after_turn(self, player: int) -> None:
        if self._check_end():
            return
        self.turn = (player + 1) % self.players
        # A teacher card comes when the marker has reached or passed a new multiple of 20 this turn.
        if self.marker // INK_BLOT > self.blots_seen:
            self.blots_seen = self.marker // INK_BLOT
            self._teacher_card(self.rng.choice(TEACHER_CARDS))

    def _teacher_card(self, card: Card) -> None:
        """Turn up teacher card `card`: a lucky card is only logged, any other waits for the choices."""
        self.log.append(
            Event(N_("The patience thread snaps: teacher card %(card)s!"), {"card": Msg(card.name)})
        )
        if card.lucky:
            # The seed: the teacher is too busy to hand out minus points, and patience is not strained either.
            self.log.append(Event(N_("The teacher is busy: no minus points for anybody this time.")))
            return
        self.pending_teacher = card

    def _teacher_choices(self, card: Card, student_choice: str) -> None:
        self.marker = min(self.marker + card.patience, BOARD_END)
        for player in range(self.players):
            choice = student_choice if player == 0 else BOTS[self.bots[player - 1]](card)
            self._settle(player, card, choice)
        if card.star:
            for player in range(self.players):
                if self.minus[player] and self.minus[player] % INK_BLOT == 0:
                    self.minus[player] += INK_BLOT
                    self.log.append(
                        Event(
                            N_("Detention! Player %(player)s moves on to %(pos)s."),
                            {"player": player + 1, "pos": self.minus[player]},
                        )
                    )
        self.blots_seen = max(self.blots_seen, self.marker // INK_BLOT)
        self._check_end()

    def _check_end(self) -> bool:
        if self.marker >= BOARD_END or max(self.minus) >= BOARD_END:
            self.over = True
            best = min(self.minus)
            self.winners = [i + 1 for i, m in enumerate(self.minus) if m == best]
            self.log.append(
                Event(
                    N_("The lesson is over. Fewest minus points: player %(players)s."),
                    {"players": ", ".join(map(str, self.winners))},
                )
            )
        return self.over


def _options(card: Card, prefix: str) -> list[Option]:
    p = p_success(card.risk)
    params = {
        "card": Msg(card.name),
        "m": card.minus,
        "r": card.risk,
        "m2": 2 * card.minus,
        "p": fraction_text(p),
        "pct": percent_text(p),
        "e": fraction_text(expected_risk(card.minus, card.risk)),
        "ed": f"{float(expected_risk(card.minus, card.risk)):.2f}",
    }
    return [
        Option(prefix + TAKE, N_("%(card)s: take %(m)s"), N_("surely %(m)s minus points"), params),
        Option(
            prefix + RISK,
            N_("%(card)s: risk (need %(r)s+)"),
            N_("P(escape) = %(p)s (%(pct)s); expected %(e)s ≈ %(ed)s minus points (0 or %(m2)s)"),
            params,
        ),
    ]


def replay(seed: int, choices: list[str]) -> SilenceGame:
    """The game after the student's `choices`, replayed from `seed` (ValueError on a choice not offered)."""
    game = SilenceGame(seed)
    for key in choices:
        game.play(key)
    return game


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
                "The expected value (期待値) is the average over many tries. You fail with probability "
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


def _page_extras(args: Mapping[str, str]) -> dict:
    """The pupil cards with their risks, for the lesson page's table."""
    return {"cards": PUPIL_CARDS, "expected_risk": expected_risk, "p_success": p_success, "risk_sd": risk_sd,
            "sd_text": sd_text}  # fmt: skip


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

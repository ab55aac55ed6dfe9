"""Gooball: roll a d12, move 6 to 17 inches, bump the others and roll over the centre to score.

RULES.md §2. Readings this lesson chooses where the seed is silent (shown on the page):
- equal powers in a bump: nobody is pushed, the mover just stops;
- a gooball is a disc 1 inch across: a bump happens when two centres come within 1 inch, and a gooball
  passes over the centre when its middle comes within 1/2 inch of it after starting further away;
- a pushed gooball slides straight through the others (no chain bumps).
The bumped gooball's power is the face its die shows from its own last roll, so before the mover rolls,
both its face and the odds are known.
"""

from __future__ import annotations

import cmath
import math
import random
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache

from suji.core.i18n import N_, NP_
from suji.lessons.lesson import Decision, Event, Experiment, Lesson, Msg, Option, Outcome, Row
from suji.lessons.live import Live, at_least, one_hot, totals
from suji.lessons.stats import wilson_interval
from suji.lessons.steps import Step, fraction_text, percent_text

SIDES = 12
EXTRA = 5  # move up to power + 5 inches
GOAL = 15
RADIUS = 0.5  # inches: half a die
MAX_ROUNDS = 200  # a safety stop for simulated games (never reached in practice)

CAREFUL, FULL = "careful", "full"
BOT_NAMES = {CAREFUL: N_("stop just past the centre"), FULL: N_("always move the full distance")}


# ---- exact values ------------------------------------------------------------------------------------------


def movement_distribution() -> dict[int, Fraction]:
    """P(the longest possible move is m inches), m = 6..17: each 1/12."""
    return {p + EXTRA: Fraction(1, SIDES) for p in range(1, SIDES + 1)}


def bump_outcomes() -> dict[str, Fraction]:
    """P(the mover wins / ties / loses a bump) when both powers are independent d12 rolls."""
    pairs = [(a, b) for a in range(1, SIDES + 1) for b in range(1, SIDES + 1)]
    total = len(pairs)
    return {
        "win": Fraction(sum(a > b for a, b in pairs), total),
        "tie": Fraction(sum(a == b for a, b in pairs), total),
        "lose": Fraction(sum(a < b for a, b in pairs), total),
    }


def p_win_against(power: int) -> Fraction:
    """P(the mover's d12 beats a gooball showing `power`)."""
    return Fraction(SIDES - power, SIDES)


def push_distribution() -> dict[int, Fraction]:
    """P(the push in a bump is k inches), k = 0..11 (0 is a tie: nobody moves)."""
    counts: dict[int, int] = {}
    for a in range(1, SIDES + 1):
        for b in range(1, SIDES + 1):
            counts[abs(a - b)] = counts.get(abs(a - b), 0) + 1
    return {k: Fraction(c, SIDES * SIDES) for k, c in sorted(counts.items())}


def p_reach(distance: float) -> Fraction:
    """P(a gooball `distance` inches from the centre can reach it this turn): P(power + 5 ≥ distance)."""
    need = math.ceil(distance) - EXTRA  # the smallest power that is enough
    return Fraction(min(SIDES, max(0, SIDES - max(need, 1) + 1)), SIDES)


def p_reach_and_win(distance: float, power: int) -> Fraction:
    """P(the mover reaches a gooball `distance` inches away and wins the bump against its face `power`).

    One roll p decides both: the move (p + 5 ≥ distance) and the bump (p > power). The two events are not
    independent (a high roll helps both), so this counts the faces where both hold instead of multiplying.
    """
    need = math.ceil(distance) - EXTRA  # the smallest power that reaches
    return Fraction(sum(1 for p in range(1, SIDES + 1) if p >= need and p > power), SIDES)


@cache
def expected_turns_alone(strategy: str, points: int = 0, distance: int | None = None) -> Fraction:
    """Exact expected turns for a lone gooball to score GOAL points (start: a d12 roll away from the centre).

    Whole inches, the centre a point: a move of L ≥ d passes it (or lands on it) and scores. `careful` stops
    1 inch past the centre, `full` always moves the whole distance. Leaving the centre from on top of it does
    not score. Each state only leads to more points or a smaller distance, so plain recursion terminates.
    """
    if points == GOAL:
        return Fraction(0)
    if distance is None:
        return sum((expected_turns_alone(strategy, 0, d) for d in range(1, SIDES + 1)), Fraction(0)) / SIDES
    total = Fraction(0)
    for power in range(1, SIDES + 1):
        move = power + EXTRA
        if distance == 0:
            total += expected_turns_alone(strategy, points, move)
        elif move >= distance:
            past = 1 if strategy == CAREFUL else move - distance
            total += expected_turns_alone(strategy, points + 1, past)
        else:
            total += expected_turns_alone(strategy, points, distance - move)
    return 1 + total / SIDES


def turns_alone(strategy: str, rng: random.Random) -> int:
    """Turns one lone gooball needs to GOAL points, by the same model as `expected_turns_alone`."""
    distance, points, turns = rng.randint(1, SIDES), 0, 0
    while points < GOAL:
        turns += 1
        move = rng.randint(1, SIDES) + EXTRA
        if distance == 0:
            distance = move
        elif move >= distance:
            points += 1
            distance = 1 if strategy == CAREFUL else move - distance
        else:
            distance -= move
    return turns


def simulate_turns_alone(strategy: str, n: int, seed: int) -> list[int]:
    """Turns to GOAL points for `n` seeded lone gooballs."""
    rng = random.Random(seed)
    return [turns_alone(strategy, rng) for _ in range(n)]


# ---- the table game ----------------------------------------------------------------------------------------


@dataclass
class Ball:
    """A gooball: where it is, the face it shows (its power) and its points."""

    pos: complex
    power: int
    points: int = 0


def _first_contact(start: complex, direction: complex, length: float, other: complex) -> float | None:
    """How far along the path the mover touches `other` (centres 2·RADIUS apart), or None."""
    rel = other - start
    along = (rel * direction.conjugate()).real
    across2 = abs(rel) ** 2 - along**2
    reach2 = (2 * RADIUS) ** 2 - across2
    if reach2 < 0:
        return None
    t = along - math.sqrt(reach2)
    if t < -1e-9 and abs(rel) > 2 * RADIUS - 1e-9:
        return None  # behind us
    t = max(t, 0.0)
    return t if t <= length else None


def _passes_centre(start: complex, end: complex) -> bool:
    """Does a move from `start` to `end` pass over (or onto) the centre, starting off it?"""
    if abs(start) <= RADIUS:
        return False
    seg = end - start
    if abs(seg) == 0:
        return False
    t = max(0.0, min(1.0, (-start * seg.conjugate()).real / abs(seg) ** 2))
    return abs(start + t * seg) <= RADIUS + 1e-9


@dataclass
class GooballGame:
    """Three or more gooballs; ball 0 is the human's when `human=True`. Replayable from seed and choices."""

    seed: int
    players: int = 3
    human: bool = False
    bots: tuple[str, ...] = ()
    rng: random.Random = field(init=False)
    balls: list[Ball] = field(init=False)
    turn: int = 0  # whose turn
    turns_taken: list[int] = field(init=False)
    log: list[Event] = field(default_factory=list)
    winner: int | None = None

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.bots = tuple(self.bots) + (CAREFUL,) * (self.players - len(self.bots))
        self.balls = []
        for _ in range(self.players):
            d = self.rng.randint(1, SIDES)
            self.balls.append(Ball(cmath.rect(d, self.rng.uniform(0, 2 * math.pi)), d))
        self.turns_taken = [0] * self.players
        self._run_bots()

    def decision(self) -> Decision | None:
        """The human's choice of where to aim, with the odds of each choice."""
        if self.winner is not None or not self.human or self.turn != 0:
            return None
        me = self.balls[0]
        d = abs(me.pos)
        params = {"d": f"{d:.1f}", "p": fraction_text(p_reach(d)), "pct": percent_text(p_reach(d))}
        options = [
            Option(
                "centre",
                N_("Aim at the centre, stop 1 inch past it"),
                N_("%(d)s inches away: P(reach) = %(p)s (%(pct)s) if nothing is in the way"),
                params,
            ),
            Option(
                "centre-full",
                N_("Aim at the centre, move the full distance"),
                N_("%(d)s inches away: P(reach) = %(p)s (%(pct)s); you end further away"),
                params,
            ),
        ]
        for j, ball in enumerate(self.balls[1:], start=1):
            e = abs(ball.pos - me.pos) - 2 * RADIUS
            win = p_win_against(ball.power)
            both = p_reach_and_win(e, ball.power)  # one roll sets both: count, never multiply
            options.append(
                Option(
                    f"bump-{j}",
                    N_("Bump gooball %(j)s (showing %(q)s)"),
                    N_(
                        "%(e)s inches away: P(reach) = %(p)s, P(win the bump) = %(w)s (%(wpct)s), both = %(b)s (%(bpct)s)"
                    ),
                    {
                        "j": j + 1,
                        "q": ball.power,
                        "e": f"{e:.1f}",
                        "p": fraction_text(p_reach(e)),
                        "w": fraction_text(win),
                        "wpct": percent_text(win),
                        "b": fraction_text(both),
                        "bpct": percent_text(both),
                    },
                )
            )
        return Decision(
            NP_(
                "Your turn: you have %(n)s point. Where do you aim?",
                "Your turn: you have %(n)s points. Where do you aim?",
            ),
            options,
            {"n": me.points},
        )

    def play(self, key: str) -> None:
        """Apply the human's choice; ValueError if it is not offered."""
        decision = self.decision()
        if decision is None or key not in {o.key for o in decision.options}:
            raise ValueError(key)
        if key.startswith("bump-"):
            self._move(0, self.balls[int(key[5:])].pos - self.balls[0].pos, full=True)
        else:
            self._move(0, -self.balls[0].pos, full=key == "centre-full")
        self._end_turn()
        self._run_bots()

    def _run_bots(self) -> None:
        while self.winner is None and not (self.human and self.turn == 0):
            me = self.balls[self.turn]
            self._move(self.turn, -me.pos, full=self.bots[self.turn] == FULL)
            self._end_turn()

    def _end_turn(self) -> None:
        self.turns_taken[self.turn] += 1
        leaders = [i for i, b in enumerate(self.balls) if b.points >= GOAL]
        if leaders:
            self.winner = leaders[0] if self.balls[self.turn].points < GOAL else self.turn
            self.log.append(
                Event(
                    N_("Gooball %(i)s reaches %(goal)s points and wins!"),
                    {"i": self.winner + 1, "goal": GOAL},
                )
            )
            return
        if sum(self.turns_taken) >= MAX_ROUNDS * self.players:
            self.winner = max(range(self.players), key=lambda i: self.balls[i].points)
            return
        self.turn = (self.turn + 1) % self.players

    def _move(self, i: int, aim: complex, full: bool) -> None:
        me = self.balls[i]
        if abs(aim) < 1e-9:  # sitting on the centre: head anywhere (away from it)
            aim = cmath.rect(1, self.rng.uniform(0, 2 * math.pi))
        direction = aim / abs(aim)
        me.power = self.rng.randint(1, SIDES)
        length = me.power + EXTRA
        if not full and abs(me.pos) > RADIUS:
            # Stop 1 inch past the centre when the centre is on the path and within reach.
            along = (-me.pos * direction.conjugate()).real
            if 0 < along + 1 <= length:
                length = along + 1
        hit, t_hit = None, length
        for j, other in enumerate(self.balls):
            if j != i:
                t = _first_contact(me.pos, direction, length, other.pos)
                if t is not None and t < t_hit:
                    hit, t_hit = j, t
        start, me.pos = me.pos, me.pos + direction * t_hit
        self.log.append(
            Event(
                N_("Gooball %(i)s rolls %(p)s and moves %(x)s inches."),
                {"i": i + 1, "p": me.power, "x": f"{t_hit:.1f}"},
            )
        )
        self._score(i, start, me.pos)
        if hit is not None:
            self._bump(i, hit, direction)

    def _bump(self, mover: int, other: int, direction: complex) -> None:
        a, b = self.balls[mover], self.balls[other]
        if a.power == b.power:
            self.log.append(Event(N_("Bump! Equal powers (%(p)s): nobody is pushed."), {"p": a.power}))
            return
        loser, push = (b, direction) if a.power > b.power else (a, -direction)
        k = abs(a.power - b.power)
        start = loser.pos
        loser.pos = loser.pos + push * k
        self.log.append(
            Event(
                NP_(
                    "Bump! %(a)s against %(b)s: gooball %(loser)s is pushed %(n)s inch.",
                    "Bump! %(a)s against %(b)s: gooball %(loser)s is pushed %(n)s inches.",
                ),
                {"a": a.power, "b": b.power, "loser": self.balls.index(loser) + 1, "n": k},
            )
        )
        self._score(self.balls.index(loser), start, loser.pos)

    def _score(self, i: int, start: complex, end: complex) -> None:
        if _passes_centre(start, end):
            self.balls[i].points += 1
            self.log.append(
                Event(
                    NP_(
                        "Gooball %(i)s passes over the centre and now has %(n)s point.",
                        "Gooball %(i)s passes over the centre and now has %(n)s points.",
                    ),
                    {"i": i + 1, "n": self.balls[i].points},
                )
            )


def replay(seed: int, choices: list[str]) -> GooballGame:
    """The human's game after `choices`, replayed from `seed` (ValueError on a choice not offered)."""
    game = GooballGame(seed, human=True, bots=(CAREFUL, FULL, CAREFUL))
    for key in choices:
        game.play(key)
    return game


def simulate_table_turns(n: int, seed: int, players: int = 3) -> list[int]:
    """Turns the winner took in `n` seeded bot games (everyone stops just past the centre)."""
    rng = random.Random(seed)
    results = []
    for _ in range(n):
        game = GooballGame(rng.getrandbits(32), players)
        results.append(game.turns_taken[game.winner])
    return results


# ---- the lesson --------------------------------------------------------------------------------------------


REACH = tuple(range(4, 19))  # distances to the centre the reach experiment asks about


def _power_trial(rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """One power roll: how far it lets the ball move (power + 5 inches)."""
    power = rng.randint(1, SIDES)
    return one_hot(power - 1, SIDES), (power,)


def _reach_trial(rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """One power roll: which distances it reaches."""
    power = rng.randint(1, SIDES)
    return at_least(power + EXTRA, REACH), (power,)


def _bump_trial(rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """One bump: the mover's and the other ball's power; win, tie or lose."""
    a, b = rng.randint(1, SIDES), rng.randint(1, SIDES)
    return (int(a > b), int(a == b), int(a < b)), (a, b)


def _push_trial(rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """One bump: how far the loser is pushed (0 on a tie)."""
    a, b = rng.randint(1, SIDES), rng.randint(1, SIDES)
    return one_hot(abs(a - b), SIDES), (a, b)


LIVE_MOVEMENT = Live(_power_trial, dice=(SIDES,))
LIVE_REACH = Live(_reach_trial, dice=(SIDES,))
BUMP_DICE = (Msg(N_("mover")), Msg(N_("the other")))
LIVE_BUMP = Live(_bump_trial, dice=(SIDES, SIDES), dice_labels=BUMP_DICE)
LIVE_PUSH = Live(_push_trial, dice=(SIDES, SIDES), dice_labels=BUMP_DICE)


def _run_movement(n: int, seed: int, lang: str) -> Outcome:
    counts = totals(LIVE_MOVEMENT, n, seed)
    moves = movement_distribution()
    return Outcome([Row(str(m), p, counts[i] / n) for i, (m, p) in enumerate(moves.items())], n, seed)


def _run_bump(n: int, seed: int, lang: str) -> Outcome:
    counts = totals(LIVE_BUMP, n, seed)
    names = {"win": N_("the mover wins"), "tie": N_("tie: nobody is pushed"), "lose": N_("the mover loses")}
    return Outcome(
        [
            Row(Msg(names[k]), p, counts[i] / n, wilson_interval(int(counts[i]), n))
            for i, (k, p) in enumerate(bump_outcomes().items())
        ],
        n,
        seed,
    )


def _run_push(n: int, seed: int, lang: str) -> Outcome:
    counts = totals(LIVE_PUSH, n, seed)
    return Outcome([Row(str(k), p, counts[k] / n) for k, p in push_distribution().items()], n, seed)


def _run_reach(n: int, seed: int, lang: str) -> Outcome:
    hits = totals(LIVE_REACH, n, seed)
    return Outcome(
        [Row(str(d), p_reach(d), hits[i] / n, wilson_interval(int(hits[i]), n)) for i, d in enumerate(REACH)],
        n,
        seed,
    )


def _turns_trial(rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A lone gooball of each strategy, and a 3-player bot game: the turns to 15 points (the winner's)."""
    careful, full = turns_alone(CAREFUL, rng), turns_alone(FULL, rng)
    game = GooballGame(rng.getrandbits(32), 3)
    return (careful, full, game.turns_taken[game.winner]), ()


# A 3-player game in every trial (0.5 ms): small chunks, and 20,000 trials at most live.
LIVE_TURNS = Live(_turns_trial, chunk=100, max_trials=20_000)


def _run_turns(n: int, seed: int, lang: str) -> Outcome:
    careful, full, table = totals(LIVE_TURNS, n, seed)
    rows = [
        Row(Msg(BOT_NAMES[CAREFUL]), expected_turns_alone(CAREFUL), careful / n),
        Row(Msg(BOT_NAMES[FULL]), expected_turns_alone(FULL), full / n),
        Row(Msg(N_("winner of a 3-player game (simulated)")), None, table / n),
    ]
    return Outcome(
        rows,
        n,
        seed,
        percent=False,
        note=N_("A lone gooball, whole inches. The 3-player games include bumps; they have no exact value."),
    )


def steps() -> list[Step]:
    """The questions of the lesson."""
    return [
        Step(
            "move",
            N_(
                "You roll a 12-sided die and may move up to the roll plus 5 inches. What is the "
                "probability that you can move 17 inches?"
            ),
            movement_distribution()[17],
            N_(
                "Only a roll of 12 gives 12 + 5 = 17 inches, and each face has probability 1/12. "
                "The moves 6 to "
                "17 are all equally likely."
            ),
            hint=N_("Hint: which roll gives exactly 17 inches?"),
        ),
        Step(
            "reach",
            N_("You are 10 inches from the centre. What is the probability that you can reach it this turn?"),
            p_reach(10),
            N_("You need power + 5 ≥ 10, so a roll of 5 to 12: 8 of the 12 faces. P = 8/12 = 2/3."),
            hint=N_("Hint: which rolls make power + 5 at least 10?"),
        ),
        Step(
            "bump",
            N_(
                "You bump into another gooball. Both powers are rolls of a 12-sided die. What is the "
                "probability that your power is higher (you win the bump)?"
            ),
            bump_outcomes()["win"],
            N_(
                "Of the 144 equally likely pairs, 12 are ties and the other 132 split evenly: 66 "
                "where you are "
                "higher. 66/144 = 11/24. On a tie (our rule) nobody is pushed."
            ),
            hint=N_("Hint: of the 144 pairs of rolls, take away the ties and split the rest evenly."),
        ),
        Step(
            "push",
            N_("In a bump, what is the probability that the loser is pushed exactly 1 inch?"),
            push_distribution()[1],
            N_("A difference of 1 comes from 11 pairs like (2, 1) and 11 like (1, 2): 22/144 = 11/72."),
            hint=N_(
                "Hint: list the pairs of rolls that differ by exactly 1, in both orders. There are 144 pairs."
            ),
        ),
        Step(
            "known",
            N_(
                "The gooball you aim at shows 9 (its power). What is the probability that your roll beats it?"
            ),
            p_win_against(9),
            N_(
                "You win with 10, 11 or 12: 3/12 = 1/4. Its face is visible before you roll, so you "
                "can choose "
                "a weaker target!"
            ),
            hint=N_("Hint: which faces of your d12 are higher than 9?"),
        ),
        Step(
            "turns",
            N_(
                "A lone gooball that always stops just past the centre. How many turns does it need on "
                "average to score 15 points? (Its first distance is a roll of the d12.)"
            ),
            expected_turns_alone(CAREFUL),
            N_(
                "After the first point it starts 1 inch from the centre and scores every turn: 14 "
                "more turns. The "
                "first point takes 1 turn from 6 inches or less, and from d = 7 … 12 one extra turn with "
                "probability (d − 6)/12. On average 1 + 21/144 turns, so 15 + 7/48 = 727/48 ≈ 15.15."
            ),
            hint=N_(
                "Hint: after its first point the gooball starts 1 inch from the centre and scores every turn. How long does the first point take?"
            ),
        ),
    ]


LESSON = Lesson(
    slug="gooball",
    title=N_("Gooball"),
    summary=N_("Roll your gooey die across the table: how far can you go, and who wins a bump?"),
    rules=(
        N_(
            "Each player has a 12-sided die on the table. It starts as many inches from the centre as its "
            "first roll."
        ),
        N_(
            "On your turn choose a direction, then roll: the roll is your power. Move up to power + 5 inches "
            "(6 to 17)."
        ),
        N_(
            "If you hit another gooball you stop; the one with lower power is pushed away by the difference, "
            "along your path."
        ),
        N_("Every time a gooball passes over the centre it scores 1 point. The first to 15 points wins."),
    ),
    steps=steps,
    replay=lambda seed, moves, args: replay(seed, moves),
    experiments=(
        Experiment(
            "movement",
            N_("How far can you move? (power + 5 inches)"),
            _run_movement,
            x_title=N_("inches"),
            live=LIVE_MOVEMENT,
        ),
        Experiment(
            "reach",
            N_("P(you can reach the centre) from d inches away"),
            _run_reach,
            x_title=N_("inches"),
            live=LIVE_REACH,
        ),
        Experiment("bump", N_("Who wins a bump?"), _run_bump, live=LIVE_BUMP),
        Experiment(
            "push", N_("How far is the loser pushed?"), _run_push, x_title=N_("inches"), live=LIVE_PUSH
        ),
        Experiment(
            # 0.063 ms a game: 0.4 s at the cap
            "turns",
            N_("Expected turns to 15 points"),
            _run_turns,
            default_trials=500,
            max_trials=700,  # 0.55 ms a trial (a 3-player game in each): 0.4 s at the cap
            live=LIVE_TURNS,
        ),
    ),
    notes=(
        N_(
            "Our rules where the original is silent: on equal powers nobody is pushed; a gooball is "
            "a disc 1 inch "
            "across; a pushed gooball does not bump others on its way."
        ),
    ),
)

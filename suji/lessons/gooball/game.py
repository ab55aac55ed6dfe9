"""Gooball, the table game: gooballs on a plane, moved and bumped from a seed, ball 0 the human's.

RULES.md §2. Readings this lesson chooses where the seed is silent (shown on the page):
- equal powers in a bump: nobody is pushed, the mover just stops;
- a gooball is a disc 1 inch across: a bump happens when two centres come within 1 inch, and a gooball
  passes over the centre when its middle comes within 1/2 inch of it after starting further away;
- a pushed gooball slides straight through the others (no chain bumps).
The bumped gooball's power is the face its die shows from its own last roll, so before the mover rolls,
both its face and the odds are known.

Data flows: (seed, the student's choices) → `replay` → a `GooballGame` whose `log` and `decision()` the page
shows; each aim offered carries its exact odds (from `exact`). The bots move everyone else.
"""

from __future__ import annotations

import cmath
import math
import random
from dataclasses import dataclass, field

from suji.core.decimals import decimal_text, percent_text
from suji.core.i18n import N_, NP_
from suji.lessons.gooball.exact import p_reach, p_reach_and_win, p_win_against
from suji.lessons.gooball.rules import CAREFUL, EXTRA, FULL, GOAL, MAX_ROUNDS, RADIUS, SIDES
from suji.lessons.lesson import Decision, Event, Option
from suji.lessons.steps import fraction_text


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
        params = {"d": decimal_text(d, 1, trim=False), "p": fraction_text(p_reach(d)), "pct": percent_text(p_reach(d))}
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
                        "e": decimal_text(e, 1, trim=False),
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
                {"i": i + 1, "p": me.power, "x": decimal_text(t_hit, 1, trim=False)},
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

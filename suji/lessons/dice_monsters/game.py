"""Dice Monsters, the game: two monsters play rounds from a seed, the human's side against a bot.

RULES.md §2. Roll all dice; the lowest single die starts (ties compare the next lowest; if every compared die
ties, both re-roll: our reading). On a turn you must attack if you can: a power attack (one die ≥ the captured
die; re-roll it) or a skill attack (two or more dice summing exactly to the captured die; re-roll them). When
both pass in a row the round ends: captured dice score their size, your own kept dice half their size.
First to three rounds; a drawn round is replayed.

Data flows: (seed, the two monsters, the student's attacks) → `replay` → a `MonsterGame` whose `log` and
`decision()` the page shows; each attack offered carries the chance that a re-rolled die is captured next.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations

from suji.core.decimals import percent_text
from suji.core.i18n import N_
from suji.lessons.dice_monsters.rules import MAX_ROUNDS, ROUNDS_TO_WIN
from suji.lessons.lesson import Decision, Event, Msg, Option
from suji.lessons.steps import fraction_text


@dataclass(frozen=True)
class Attack:
    """Dice `using` (indices into the attacker's dice) capture the defender's die `target`."""

    using: tuple[int, ...]
    target: int

    @property
    def key(self) -> str:
        """A short text form, e.g. "0.2t3": dice 0 and 2 capture (take) die 3."""
        return ".".join(map(str, self.using)) + "t" + str(self.target)


@dataclass
class Side:
    """One player's monster in a round: its dice (sizes), their faces and the sizes it captured."""

    sizes: list[int]
    values: list[int]
    captured: list[int] = field(default_factory=list)

    def score2(self) -> int:
        """Twice the round score (whole numbers): 2 × captured sizes + own kept sizes."""
        return 2 * sum(self.captured) + sum(self.sizes)


def half_points_text(score2: int) -> str:
    """A round score given as twice its value, written plainly: 106 → "53", 107 → "53.5"."""
    whole, half = divmod(score2, 2)
    return f"{whole}.5" if half else str(whole)


def legal_attacks(me: Side, them: Side) -> list[Attack]:
    """Every power and skill attack `me` can make on `them`."""
    attacks = []
    for t, value in enumerate(them.values):
        for i, mine in enumerate(me.values):
            if mine >= value:
                attacks.append(Attack((i,), t))
        for k in range(2, len(me.values) + 1):
            for combo in combinations(range(len(me.values)), k):
                if sum(me.values[i] for i in combo) == value:
                    attacks.append(Attack(combo, t))
    return attacks


def greedy(me: Side, them: Side, attacks: list[Attack], rng: random.Random) -> Attack:
    """Capture the biggest die; among those, use the fewest dice and then the smallest attacking die."""
    return max(
        attacks, key=lambda a: (them.sizes[a.target], -len(a.using), -sum(me.sizes[i] for i in a.using))
    )


def random_bot(me: Side, them: Side, attacks: list[Attack], rng: random.Random) -> Attack:
    """Any legal attack, at random."""
    return rng.choice(attacks)


BOTS = {"greedy": greedy, "random": random_bot}


def _exposure(me: Side, them: Side, attack: Attack) -> Fraction:
    """P(the opponent could power-capture one of the re-rolled dice right after this attack)."""
    rest = [v for t, v in enumerate(them.values) if t != attack.target]
    top = max(rest, default=0)
    safe = Fraction(1)
    for i in attack.using:
        size = me.sizes[i]
        safe *= 1 - Fraction(min(top, size), size)
    return 1 - safe


@dataclass
class MonsterGame:
    """A game between two monsters; side 0 is the human's when `human=True`. Replayable from seed "
    "and choices."""

    seed: int
    dice: tuple[tuple[int, ...], tuple[int, ...]]
    human: bool = False
    bots: tuple[str, str] = ("greedy", "greedy")
    rng: random.Random = field(init=False)
    sides: list[Side] = field(init=False)
    wins: list[int] = field(default_factory=lambda: [0, 0])
    rounds: int = 0
    to_move: int = 0
    passes: int = 0
    log: list[Event] = field(default_factory=list)
    winner: int | None = None

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self._new_round()
        self._run()

    def _roll(self, size: int) -> int:
        return self.rng.randint(1, size)

    def _new_round(self) -> None:
        self.rounds += 1
        while True:
            self.sides = [Side(list(d), [self._roll(s) for s in d]) for d in self.dice]
            a, b = (sorted(s.values) for s in self.sides)
            keep = min(len(a), len(b))
            if a[:keep] != b[:keep]:
                break  # every compared die tied: roll again (our reading)
        self.to_move = 0 if a[:keep] < b[:keep] else 1
        self.passes = 0
        starts = (
            N_("Round %(r)s: you rolled the lowest die and start."),
            N_("Round %(r)s: the bot rolled the lowest die and starts."),
        )
        self.log.append(Event(starts[self.to_move], {"r": self.rounds}))

    def decision(self) -> Decision | None:
        """The human's attack choices (each with the points gained and the risk to the re-rolled dice)."""
        if self.winner is not None or not self.human or self.to_move != 0:
            return None
        me, them = self.sides
        options = []
        for attack in legal_attacks(me, them):
            using = " + ".join(f"d{me.sizes[i]}:{me.values[i]}" for i in attack.using)
            risk = _exposure(me, them, attack)
            target = {"size": them.sizes[attack.target], "value": them.values[attack.target]}
            options.append(
                Option(
                    attack.key,
                    N_("%(using)s captures d%(size)s:%(value)s"),
                    N_("+%(size)s points, chance of losing it %(p)s (%(pct)s)"),
                    {"using": using, **target, "p": fraction_text(risk), "pct": percent_text(risk)},
                    # The attacks on one die together: a phone lists the dice to capture, each opened to its ways.
                    group=N_("Capture d%(size)s:%(value)s (+%(size)s points)"),
                    group_params=target,
                )
            )
        # The chance is explained once, under the question: a phone shows many attacks, each on two short lines.
        return Decision(
            N_("Your turn. Choose an attack."), options,
            note=N_("The chance of losing it: the probability that a die you re-roll can be power-captured next turn."),
        )  # fmt: skip

    def play(self, key: str) -> None:
        """Apply the human's attack; ValueError if it is not a legal attack now."""
        decision = self.decision()
        if decision is None or key not in {o.key for o in decision.options}:
            raise ValueError(key)
        me, them = self.sides
        attack = next(a for a in legal_attacks(me, them) if a.key == key)
        self._attack(0, attack)
        self._run()

    def _run(self) -> None:
        while self.winner is not None or True:
            if self.winner is not None:
                return
            me, them = self.sides[self.to_move], self.sides[1 - self.to_move]
            attacks = legal_attacks(me, them)
            if not attacks:
                passes = (N_("You cannot attack and pass."), N_("The bot cannot attack and passes."))
                self.log.append(Event(passes[self.to_move]))
                self.passes += 1
                if self.passes >= 2:
                    self._end_round()
                else:
                    self.to_move = 1 - self.to_move
                continue
            if self.human and self.to_move == 0:
                return
            self._attack(self.to_move, BOTS[self.bots[self.to_move]](me, them, attacks, self.rng))

    def _attack(self, player: int, attack: Attack) -> None:
        me, them = self.sides[player], self.sides[1 - player]
        size, value = them.sizes.pop(attack.target), them.values.pop(attack.target)
        me.captured.append(size)
        for i in attack.using:
            me.values[i] = self._roll(me.sizes[i])
        kind = N_("power attack") if len(attack.using) == 1 else N_("skill attack")
        captures = (
            N_("Your %(kind)s captures the bot's d%(size)s showing %(value)s."),
            N_("The bot's %(kind)s captures your d%(size)s showing %(value)s."),
        )
        self.log.append(Event(captures[player], {"kind": Msg(kind), "size": size, "value": value}))
        self.passes = 0
        self.to_move = 1 - player

    def _end_round(self) -> None:
        s0, s1 = (s.score2() for s in self.sides)
        self.log.append(
            Event(
                N_("Round over. Points: you %(a)s, the bot %(b)s."),
                {"a": half_points_text(s0), "b": half_points_text(s1)},
            )
        )
        if s0 != s1:
            self.wins[0 if s0 > s1 else 1] += 1
        if max(self.wins) >= ROUNDS_TO_WIN or self.rounds >= MAX_ROUNDS:
            self.winner = 0 if self.wins[0] >= self.wins[1] else 1
            wins = (
                N_("You win the game, %(a)s rounds to %(b)s."),
                N_("The bot wins the game, %(a)s rounds to %(b)s."),
            )
            self.log.append(
                Event(wins[self.winner], {"a": self.wins[self.winner], "b": self.wins[1 - self.winner]})
            )
            return
        self._new_round()


def replay(seed: int, mine: tuple[int, ...], theirs: tuple[int, ...], choices: list[str]) -> MonsterGame:
    """The human's game after `choices`, replayed from `seed` (ValueError on a choice not offered)."""
    game = MonsterGame(seed, (mine, theirs), human=True)
    for key in choices:
        game.play(key)
    return game

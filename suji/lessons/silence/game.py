"""Silence in Class!, the game: the student (player 0) and bots take or risk, from a seed.

RULES.md §2: play a pupil card (patience p, minus points m, risk value r), move the patience marker by p, then
take m minus points or roll 3d6: a total ≥ r escapes, less costs 2m. Teacher cards come when the marker
reaches or passes a multiple of 20 and hit everybody, but each player chooses for themselves to take the
card's minus points or to risk their own roll (the seed: "unless each player individually chooses to make a
risk roll"); a star sends anyone on an ink-blot space to the next one.

Data flows: (seed, the student's choices) → `replay` → a `SilenceGame` whose `log` and `decision()` the page
shows; each option carries its exact odds (from `exact`). The bots play everyone else.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from suji.core.decimals import exact_and_decimal, percent_text
from suji.core.i18n import N_
from suji.lessons.lesson import Decision, Event, Msg, Option
from suji.lessons.silence.exact import expected_risk, p_success, risk_pays
from suji.lessons.silence.rules import (
    BOARD_END,
    HAND,
    INK_BLOT,
    PUPIL_CARDS,
    RISK,
    TAKE,
    TEACHER_CARDS,
    Card,
    roll_3d6,
)
from suji.lessons.steps import fraction_text


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
        "e": exact_and_decimal(expected_risk(card.minus, card.risk)),
    }
    return [
        Option(prefix + TAKE, N_("%(card)s: take %(m)s"), N_("surely %(m)s minus points"), params),
        Option(
            prefix + RISK,
            N_("%(card)s: risk (need %(r)s+)"),
            N_("P(escape) = %(p)s (%(pct)s); expected %(e)s minus points (0 or %(m2)s)"),
            params,
        ),
    ]


def replay(seed: int, choices: list[str]) -> SilenceGame:
    """The game after the student's `choices`, replayed from `seed` (ValueError on a choice not offered)."""
    game = SilenceGame(seed)
    for key in choices:
        game.play(key)
    return game

"""9am Class, the game: one class played turn by turn from a seed, with the bots that play the other students.

A turn goes: bathroom breaks are announced, the students in the room roll for status (all but the one called
last turn), the professor rolls. The seed has the break "announced at the beginning of a turn before the
professor rolls" and the student who comes back "rolls for status" next turn, so a break is chosen before this
turn's status is known: only the student called last turn, whose die is not re-rolled, knows it already.
Readings this lesson chooses where the seed is loose (shown on the page):
- a student on a break is out of the room: not called and not hurt by "make everyone else look bad";
- a die that is not re-rolled keeps its face, so the called student's next status is whatever the die shows.

Data flows: (seed, the student's choices) → `replay` → a `NineAmGame` whose `log` and `decision()` the page
shows; each decision carries its exact odds (from `exact`). The bots decide for everyone else, and for
everyone in the lesson's simulated games.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from suji.core.decimals import percent_text
from suji.core.i18n import N_, NP_
from suji.lessons.lesson import Decision, Event, Msg, Option
from suji.lessons.nine_am.exact import mean_die, p_awake, p_called
from suji.lessons.nine_am.rules import (
    BAD,
    BREAK,
    CHOICE,
    GOOD,
    OVER,
    PROFESSOR,
    ROLL,
    START,
    START_SCORE,
    STAY,
    STUDENT_DIE,
    TURNS,
    is_awake,
)
from suji.lessons.steps import fraction_text

# ---- bots --------------------------------------------------------------------------------------------------


def choose_good(game: NineAmGame, me: int) -> str:
    """Always make yourself look good."""
    return GOOD


def choose_bad(game: NineAmGame, me: int) -> str:
    """Always make everyone else look bad."""
    return BAD


def choose_smart(game: NineAmGame, me: int) -> str:
    """Look bad when your strongest rival is awake (they lose 4–6), otherwise look good (+3.5 on average)."""
    rivals = [i for i in range(game.students) if i != me and i not in game.on_break]
    if not rivals:
        return GOOD
    rival = max(rivals, key=lambda i: game.scores[i])
    return BAD if game.statuses[rival] > mean_die() else GOOD


STRATEGIES = {GOOD: choose_good, BAD: choose_bad, "smart": choose_smart}
STRATEGY_NAMES = {
    GOOD: N_("always look good"),
    BAD: N_("always make the others look bad"),
    "smart": N_("look bad when the leading rival is awake"),
}


def break_when_known_asleep(game: NineAmGame, me: int) -> bool:
    """Take the one bathroom break when you already know you would be asleep this turn.

    Breaks are announced before anyone rolls, so only the student called last turn knows their status: their die
    is not re-rolled. Anyone else gains nothing from leaving now rather than later (their roll is still to come).
    """
    return game.last_called == me and not is_awake(game.statuses[me])


# ---- the game ----------------------------------------------------------------------------------------------


@dataclass
class NineAmGame:
    """One class of 9am Class. Student 0 may be the human (`human=True`); the others are bots."""

    seed: int
    students: int = 6
    strategies: tuple[str, ...] = ()  # one per student; missing ones are "good"
    human: bool = False
    use_breaks: bool = True
    rng: random.Random = field(init=False)
    scores: list[int] = field(init=False)
    statuses: list[int] = field(init=False)
    break_used: list[bool] = field(init=False)
    on_break: set[int] = field(default_factory=set)
    turn: int = 0
    last_called: int | None = None
    called: int | None = None
    # start (breaks announced) → break (the human's) → roll → professor → choice (the human's) → start … → over
    stage: str = START
    log: list[Event] = field(default_factory=list)
    winner: int | None = None
    tie: bool = False

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.scores = [START_SCORE] * self.students
        self.statuses = [self._d6() for _ in range(self.students)]
        self.break_used = [False] * self.students
        self.strategies = tuple(self.strategies) + (GOOD,) * (self.students - len(self.strategies))
        self._advance()

    def _d6(self) -> int:
        return self.rng.randint(1, STUDENT_DIE)

    # -- the student's decisions --

    def decision(self) -> Decision | None:
        """What the human student must decide now, with the odds of each choice (None if nothing)."""
        n = self.students
        if self.stage == BREAK:
            p = p_called(n, len(self.on_break))
            kept = (
                self.last_called == 0
            )  # called last turn: the die is not re-rolled, so you know your status
            asleep = (0 if is_awake(self.statuses[0]) else 1) if kept else 1 - p_awake()
            params = {
                "p": fraction_text(p),
                "pct": percent_text(p),
                "q": fraction_text(p * asleep),
                "qpct": percent_text(p * asleep),
                "status": self.statuses[0],
                "state": Msg(N_("awake") if is_awake(self.statuses[0]) else N_("asleep")),
                "time": self.clock(),
            }
            prompt = (
                N_(
                    "%(time)s: you were called last turn, so your die is not rolled again: it shows %(status)s "
                    "(%(state)s). Stay, or use your one bathroom break?"
                )
                if kept
                else N_(
                    "%(time)s: a new turn. Stay, or use your one bathroom break? You choose before the dice are rolled."
                )
            )
            return Decision(
                prompt,
                [
                    Option(
                        STAY,
                        N_("Stay in class"),
                        N_("P(called) = %(p)s (%(pct)s); P(called while asleep) = %(q)s (%(qpct)s)"),
                        params,
                    ),
                    Option(
                        BREAK,
                        N_("Bathroom break"),
                        N_("P(called) = 0: the professor re-rolls on your desk"),
                        params,
                    ),
                ],
                params,
            )
        if self.stage == CHOICE:
            damage = sum(self.statuses[i] for i in self._present() if i != 0)
            params = {"e": fraction_text(mean_die()), "n": damage, "time": self.clock()}
            return Decision(
                N_("%(time)s: the professor calls you and you are awake! Choose."),
                [
                    Option(
                        GOOD,
                        N_("Make yourself look good"),
                        N_("roll a die and gain it: +%(e)s points on average; that roll is your next status"),
                        params,
                    ),
                    Option(
                        BAD,
                        N_("Make everyone else look bad"),
                        NP_(
                            "your score stays; the others lose their statuses: %(n)s point in total now",
                            "your score stays; the others lose their statuses: %(n)s points in total now",
                        ),
                        params,
                    ),
                ],
                params,
            )
        return None

    def play(self, key: str) -> None:
        """Apply the human's choice; ValueError if it is not one of the options offered."""
        decision = self.decision()
        if decision is None or key not in {o.key for o in decision.options}:
            raise ValueError(key)
        if self.stage == BREAK:
            if key == BREAK:
                self._take_break(0)
            self.stage = ROLL
        else:
            self._answer(0, key)
            self.stage = START
        self._advance()

    def rolls_this_turn(self, i: int) -> bool:
        """True while student `i` waits to roll for status this turn (the breaks are being announced)."""
        return self.stage == BREAK and i not in self.on_break and i != self.last_called

    # -- the turn --

    def clock(self) -> str:
        """The time of the current turn, 9:10 to 11:00."""
        minutes = 9 * 60 + 10 * self.turn
        return f"{minutes // 60}:{minutes % 60:02d}"

    def _present(self) -> list[int]:
        return [i for i in range(self.students) if i not in self.on_break]

    def _take_break(self, i: int) -> None:
        self.on_break.add(i)
        self.break_used[i] = True
        self.log.append(Event(N_("Student %(s)s takes a bathroom break."), {"s": i + 1}))

    def _advance(self) -> None:
        while self.stage != OVER:
            if self.stage == START:
                if self.turn == TURNS:
                    self._finish()
                    return
                self.turn += 1
                self.on_break.clear()
                # Breaks are announced at the beginning of the turn, before anyone rolls for status.
                for i in range(1 if self.human else 0, self.students):
                    if self.use_breaks and not self.break_used[i] and break_when_known_asleep(self, i):
                        self._take_break(i)
                self.stage = BREAK if self.human and not self.break_used[0] else ROLL
                if self.stage == BREAK:
                    return
            elif self.stage == ROLL:
                # Everyone in the room rolls except last turn's called student; a student on a break rolls on
                # coming back next turn.
                for i in self._present():
                    if i != self.last_called:
                        self.statuses[i] = self._d6()
                if self.human and 0 not in self.on_break and self.last_called != 0:
                    state = N_("awake") if is_awake(self.statuses[0]) else N_("asleep")
                    self.log.append(
                        Event(
                            N_("%(time)s: your die shows %(status)s (%(state)s)."),
                            {"time": self.clock(), "status": self.statuses[0], "state": Msg(state)},
                        )
                    )
                self.stage = PROFESSOR
            elif self.stage == PROFESSOR:
                present = self._present()
                if not present:
                    self.last_called, self.stage = None, START
                    continue
                # The professor re-rolls on the desk of a student who is out: a uniform choice among the rest.
                while (desk := self.rng.randint(1, self.students) - 1) in self.on_break:
                    pass
                self.called = desk
                self.last_called = desk
                if not is_awake(self.statuses[desk]):
                    loss = self._d6()
                    self.scores[desk] -= loss
                    self.statuses[desk] = loss
                    self.log.append(
                        Event(
                            NP_(
                                "%(time)s: student %(s)s is called while asleep and loses %(n)s point.",
                                "%(time)s: student %(s)s is called while asleep and loses %(n)s points.",
                            ),
                            {"time": self.clock(), "s": desk + 1, "n": loss},
                        )
                    )
                    self.stage = START
                elif self.human and desk == 0:
                    self.stage = CHOICE
                    return
                else:
                    self._answer(desk, STRATEGIES[self.strategies[desk]](self, desk))
                    self.stage = START

    def _answer(self, desk: int, choice: str) -> None:
        if choice == GOOD:
            gain = self._d6()
            self.scores[desk] += gain
            self.statuses[desk] = gain
            self.log.append(
                Event(
                    NP_(
                        "%(time)s: student %(s)s is called, awake, looks good and gains %(n)s point.",
                        "%(time)s: student %(s)s is called, awake, looks good and gains %(n)s points.",
                    ),
                    {"time": self.clock(), "s": desk + 1, "n": gain},
                )
            )
        else:
            hit = 0
            for i in self._present():
                if i != desk:
                    self.scores[i] -= self.statuses[i]
                    hit += self.statuses[i]
            self.log.append(
                Event(
                    NP_(
                        "%(time)s: student %(s)s is called, awake, and makes everyone else look bad: "
                        "%(n)s point lost in total.",
                        "%(time)s: student %(s)s is called, awake, and makes everyone else look bad: "
                        "%(n)s points lost in total.",
                    ),
                    {"time": self.clock(), "s": desk + 1, "n": hit},
                )
            )

    def _finish(self) -> None:
        self.stage = OVER
        best = max(self.scores)
        tied = [i for i in range(self.students) if self.scores[i] == best]
        self.tie = len(tied) > 1
        if self.tie:
            self.log.append(
                Event(
                    N_("Tie for first between students %(who)s: tie-break!"),
                    {"who": ", ".join(str(i + 1) for i in tied)},
                )
            )
        while len(tied) > 1:
            # Tied students roll for status; the professor calls one (re-rolling other desks): awake wins.
            statuses = {i: self._d6() for i in tied}
            pick = tied[self.rng.randrange(len(tied))]
            if is_awake(statuses[pick]):
                tied = [pick]
            else:
                tied.remove(pick)
        self.winner = tied[0]
        self.log.append(
            Event(
                NP_(
                    "Class is over. Student %(s)s wins with %(n)s point.",
                    "Class is over. Student %(s)s wins with %(n)s points.",
                ),
                {"s": self.winner + 1, "n": self.scores[self.winner]},
            )
        )


def replay(seed: int, choices: list[str], students: int = 6) -> NineAmGame:
    """The human's game after `choices`, replayed from `seed` (ValueError on a choice not offered)."""
    game = NineAmGame(seed, students, strategies=("good",) + ("smart", GOOD) * 10, human=True)
    for key in choices:
        game.play(key)
    return game

"""9am Class: stay awake, get called, look good or make the others look bad — exact odds and simulated games.

RULES.md §2. A turn goes: bathroom breaks are announced, the students in the room roll for status (all but the one
called last turn), the professor rolls. The seed has the break "announced at the beginning of a turn before the
professor rolls" and the student who comes back "rolls for status" next turn, so a break is chosen before this
turn's status is known: only the student called last turn, whose die is not re-rolled, knows it already.
Readings this lesson chooses where the seed is loose (shown on the page):
- a student on a break is out of the room: not called and not hurt by "make everyone else look bad";
- a die that is not re-rolled keeps its face, so the called student's next status is whatever the die shows.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction

from suji.core.i18n import N_, NP_
from suji.lessons.lesson import Decision, Event, Experiment, Lesson, Msg, Option, Outcome, Row
from suji.lessons.live import Live, totals
from suji.lessons.stats import wilson_interval
from suji.lessons.steps import Step, fraction_text, percent_text

START_SCORE = 20
TURNS = 12  # 9:10 to 11:00
STUDENT_DIE = 6
VARIANTS = (4, 6, 8, 10, 12, 20)  # the professor die has as many sides as there are students
AWAKE_FROM = 4  # 4–6 awake, 1–3 asleep

GOOD, BAD = "good", "bad"
STAY, BREAK = "stay", "break"
START, ROLL, PROFESSOR, CHOICE, OVER = "start", "roll", "professor", "choice", "over"  # stages of a turn


def is_awake(status: int) -> bool:
    """4, 5 and 6 are awake; 1, 2 and 3 are asleep."""
    return status >= AWAKE_FROM


# ---- exact values ------------------------------------------------------------------------------------------


def p_awake() -> Fraction:
    """P(a student die shows 4, 5 or 6)."""
    return Fraction(sum(1 for face in range(1, STUDENT_DIE + 1) if is_awake(face)), STUDENT_DIE)


def p_called(students: int, on_break: int = 0) -> Fraction:
    """P(a given student present is called in a turn) when `on_break` others are out (the professor "
    "re-rolls)."""
    return Fraction(1, students - on_break)


def mean_die() -> Fraction:
    """The average face of a d6: (1 + … + 6)/6 = 7/2."""
    return Fraction(sum(range(1, STUDENT_DIE + 1)), STUDENT_DIE)


def expected_change(choice: str) -> Fraction:
    """Expected change of the called awake student's own score: look good +7/2, look bad 0."""
    return mean_die() if choice == GOOD else Fraction(0)


def expected_damage(students: int) -> Fraction:
    """Expected total points the others lose when an awake student makes everyone else look bad."""
    # Each of the other students' statuses is a fresh d6 roll, so each loses 7/2 on average.
    return (students - 1) * mean_die()


def p_tie_break_win(tied: int) -> Fraction:
    """P(a given one of `tied` students wins the tie-break): the procedure treats them all alike."""
    return Fraction(1, tied)


def expected_final_grade_all_good() -> Fraction:
    """Expected final grade when everyone always looks good and nobody takes a bathroom break.

    Each call is +d6 or −d6 with equal chance. (A student who takes a break when they know their die shows
    asleep avoids some −d6 calls, so with breaks this is no longer the whole story.)
    """
    per_call = p_awake() * mean_die() - (1 - p_awake()) * mean_die()
    return START_SCORE + TURNS * per_call  # per_call is 0, so the grade stays 20 on average


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


# ---- simulations -------------------------------------------------------------------------------------------


def simulate_wins(strategy: str, n: int, seed: int, students: int = 6) -> int:
    """Games (out of `n`) won by student 1 playing `strategy` against students who always look good."""
    rng = random.Random(seed)
    wins = 0
    for _ in range(n):
        game = NineAmGame(rng.getrandbits(32), students, strategies=(strategy,))
        wins += game.winner == 0
    return wins


def simulate_games(n: int, seed: int, students: int = 6) -> tuple[int, list[int]]:
    """(ties for first, final grades of student 1) over `n` games where everyone looks good and nobody takes a
    bathroom break."""
    rng = random.Random(seed)
    ties, grades = 0, []
    for _ in range(n):
        game = NineAmGame(rng.getrandbits(32), students, use_breaks=False)
        ties += game.tie
        grades.append(game.scores[0])
    return ties, grades


# ---- the lesson --------------------------------------------------------------------------------------------


def _awake_trial(rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """One status roll of the student die: awake or asleep."""
    face = rng.randint(1, STUDENT_DIE)
    awake = int(is_awake(face))
    return (awake, 1 - awake), (face,)


CALLED_CASES = tuple((students, out) for students in VARIANTS for out in (0, 1))


def _called_trial(rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """One turn in each class size, with and without a student on a break: is desk 1 (ours) called?"""
    hits = []
    for students, out in CALLED_CASES:
        # Desk 1 is ours; with one student out, desk 2 is empty and the professor re-rolls on it.
        while (desk := rng.randint(1, students)) == 2 and out:
            pass
        hits.append(int(desk == 1))
    return tuple(hits), ()


def _choices_trial(rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """One turn of each choice: looking good (d6 up), the damage of looking bad (5d6 down), called asleep."""
    good = rng.randint(1, 6)
    damage = [rng.randint(1, 6) for _ in range(5)]
    asleep = rng.randint(1, 6)
    return (good, 0, sum(damage), -asleep), (good, *damage, asleep)


LIVE_AWAKE = Live(_awake_trial, dice=(STUDENT_DIE,))
LIVE_CALLED = Live(_called_trial)
LIVE_CHOICES = Live(_choices_trial, dice=(6,) * 7)


def _run_awake(n: int, seed: int, lang: str) -> Outcome:
    awake, asleep = (int(c) for c in totals(LIVE_AWAKE, n, seed))
    return Outcome(
        [
            Row(Msg(N_("awake")), p_awake(), awake / n, wilson_interval(awake, n)),
            Row(Msg(N_("asleep")), 1 - p_awake(), asleep / n, wilson_interval(asleep, n)),
        ],
        n,
        seed,
    )


def _run_called(n: int, seed: int, lang: str) -> Outcome:
    hits = totals(LIVE_CALLED, n, seed)
    rows = []
    for (students, out), h in zip(CALLED_CASES, hits, strict=True):
        label = N_("%(n)s students") if not out else N_("%(n)s students, one on a break")
        rows.append(
            Row(Msg(label), p_called(students, out), h / n, wilson_interval(int(h), n), {"n": students})
        )
    return Outcome(rows, n, seed)


def _run_choices(n: int, seed: int, lang: str) -> Outcome:
    good, bad, damage, asleep = totals(LIVE_CHOICES, n, seed)
    rows = [
        Row(Msg(N_("look good: your change")), expected_change(GOOD), good / n),
        Row(Msg(N_("look bad: your change")), expected_change(BAD), bad / n),
        Row(Msg(N_("look bad: the 5 others lose in total")), expected_damage(6), damage / n),
        Row(Msg(N_("called while asleep: your change")), -mean_die(), asleep / n),
    ]
    return Outcome(rows, n, seed, percent=False)


def _grade_trial(rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """One game of six where everyone looks good and nobody takes a break: student 1's final grade."""
    return (NineAmGame(rng.getrandbits(32), 6, use_breaks=False).scores[0],), ()


def _strategies_trial(rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """One game for each strategy of student 1 against five who always look good: did student 1 win?"""
    return tuple(
        int(NineAmGame(rng.getrandbits(32), 6, strategies=(key,)).winner == 0) for key in STRATEGIES
    ), ()


def _ties_trial(rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """One game in each class size (everyone looks good, no breaks): a tie for first?"""
    return tuple(
        int(NineAmGame(rng.getrandbits(32), students, use_breaks=False).tie) for students in VARIANTS
    ), ()


# Whole games a trial: small chunks keep one request near 0.05 s, and the caps a run near 10 s of the server.
LIVE_GRADE = Live(_grade_trial, chunk=200, max_trials=100_000)
LIVE_STRATEGIES = Live(_strategies_trial, chunk=100, max_trials=20_000)
LIVE_TIES = Live(_ties_trial, chunk=50, max_trials=10_000)


def _run_grade(n: int, seed: int, lang: str) -> Outcome:
    (grades,) = totals(LIVE_GRADE, n, seed)
    return Outcome(
        [
            Row(
                Msg(N_("final grade of student 1 (everyone looks good, nobody takes a break)")),
                expected_final_grade_all_good(),
                grades / n,
            )
        ],
        n,
        seed,
        percent=False,
    )


def _run_strategies(n: int, seed: int, lang: str) -> Outcome:
    wins = totals(LIVE_STRATEGIES, n, seed)
    rows = [
        Row(Msg(STRATEGY_NAMES[key]), Fraction(1, 6), w / n, wilson_interval(int(w), n))
        for key, w in zip(STRATEGIES, wins, strict=True)
    ]
    return Outcome(
        rows,
        n,
        seed,
        note=N_(
            "Student 1 plays the strategy, the other five always look good. The "
            "dark bar is a fair share, 1/6: no exact value is known."
        ),
    )


def _run_ties(n: int, seed: int, lang: str) -> Outcome:
    ties = totals(LIVE_TIES, n, seed)
    rows = [
        Row(Msg(N_("%(n)s students")), None, t / n, wilson_interval(int(t), n), {"n": students})
        for students, t in zip(VARIANTS, ties, strict=True)
    ]
    return Outcome(
        rows,
        n,
        seed,
        note=N_(
            "Everyone always looks good and nobody takes a bathroom break. No exact value: these are "
            "simulated games with confidence intervals (95%%)."
        ),
    )


def steps() -> list[Step]:
    """The questions of the lesson."""
    return [
        Step(
            "awake",
            N_("Your die shows your status: 4, 5 or 6 is awake. What is the probability that you are awake?"),
            p_awake(),
            N_("Three of the six faces (4, 5, 6) mean awake, so P(awake) = 3/6 = 1/2 = 50%%."),
            hint=N_("Hint: count the faces that mean awake, out of all 6 faces."),
        ),
        Step(
            "called",
            N_(
                "There are 6 students and the professor rolls a six-sided die. What is the probability "
                "that you are called in one turn?"
            ),
            p_called(6),
            N_(
                "The professor's die has 6 equally likely faces and one of them is your desk: 1/6 ≈ "
                "16.7%%. With "
                "n students and an n-sided die it is 1/n."
            ),
            hint=N_("Hint: how many desks can the professor's die pick, and how many of them are yours?"),
        ),
        Step(
            "break",
            N_(
                "6 students. Another student is on a bathroom break, so the professor re-rolls when "
                "their desk comes up. What is the probability that you are called?"
            ),
            p_called(6, 1),
            N_(
                "Re-rolling on the empty desk means the professor picks one of the 5 students in "
                "the room, each "
                "equally likely: 1/5 = 20%%."
            ),
            hint=N_(
                "Hint: when the empty desk comes up the professor rolls again, so only the students in the room count."
            ),
        ),
        Step(
            "good",
            N_(
                "You are called and awake and make yourself look good: you roll a die and gain that many "
                "points. How many points do you gain on average (the expected value)?"
            ),
            expected_change(GOOD),
            N_(
                "The expected value (期待値) is the average over many tries: "
                "(1+2+3+4+5+6)/6 = 21/6 = 7/2 = 3.5 points."
            ),
            hint=N_("Hint: add up the six faces of a die, then share the total equally among the six faces."),
        ),
        Step(
            "bad",
            N_(
                "Instead you make everyone else look bad: each of the other 5 students loses points equal "
                "to their status, a fresh die roll. How many points do they lose in total on average?"
            ),
            expected_damage(6),
            N_(
                "Each one loses 7/2 on average, and 5 × 7/2 = 35/2 = 17.5. Your score does not "
                "change, but against "
                "each rival you gain 7/2 on average, the same as looking good! For winning, what "
                "matters is whom "
                "you hurt: hurting an awake leader is worth the most."
            ),
            hint=N_("Hint: first find what one student loses on average, then think of all 5 of them."),
        ),
        Step(
            "tie",
            N_("Three students tie for first place. What is the probability that you win the tie-break?"),
            p_tie_break_win(3),
            N_(
                "The tie-break treats the three students exactly alike, so each has the same chance and the "
                "chances add up to 1: 1/3."
            ),
            hint=N_("Hint: the tie-break treats all three students in exactly the same way."),
        ),
    ]


LESSON = Lesson(
    slug="nine-am",
    title=N_("9am Class"),
    summary=N_(
        "Stay awake in a boring lecture! Learn the chance of being called and whether to look good or "
        "make the others look bad."
    ),
    rules=(
        N_(
            "Six students, each with a die, and a professor die. A die showing 4, 5 or 6 means "
            "awake; 1, 2 or 3 "
            "means asleep. Everyone starts with 20 points; there are 12 turns (9:10 to 11:00)."
        ),
        N_(
            "Each turn everyone except the student called last turn re-rolls; the professor die picks a desk."
        ),
        N_(
            "Called while asleep: roll a die and lose that many points. Called while awake: look "
            "good (roll and "
            "gain that many; the roll is your next status) or make everyone else look bad (each "
            "other student "
            "loses points equal to their status)."
        ),
        N_(
            "Each student has one bathroom break. It is announced at the beginning of a turn, before the "
            "dice are rolled: you sit out that turn and the professor re-rolls on your empty desk. When you "
            "come back next turn, you roll for status."
        ),
        N_(
            "Highest score at 11:00 wins. Tied students roll for status and the professor calls "
            "one: awake wins, "
            "asleep is out, repeat. Variants: 4, 8, 10, 12 or 20 students with a professor die of that size."
        ),
    ),
    steps=steps,
    replay=lambda seed, moves, args: replay(seed, moves),
    experiments=(
        Experiment("awake", N_("Awake or asleep?"), _run_awake, live=LIVE_AWAKE),
        Experiment(
            "called",
            N_("P(you are called in a turn), by class size"),
            _run_called,
            live=LIVE_CALLED,
            max_trials=60_000,  # 6.3 µs a trial (twelve class sizes): 0.4 s at the cap
        ),
        Experiment(
            "choices", N_("Expected change of score for each choice"), _run_choices, live=LIVE_CHOICES
        ),
        Experiment(
            "grade",
            N_("Expected final grade when everyone looks good and nobody takes a break"),
            _run_grade,
            default_trials=200,
            max_trials=5000,
            live=LIVE_GRADE,
        ),
        Experiment(
            "strategies",
            N_("P(win) of each strategy, from simulated games"),
            _run_strategies,
            default_trials=500,
            max_trials=1500,  # 0.27 ms a game: 0.4 s at the cap
            exact_label=N_("fair share"),
            live=LIVE_STRATEGIES,
        ),
        Experiment(
            "ties",
            N_("Chance of a tie for first, by class size (simulated)"),
            _run_ties,
            default_trials=500,
            max_trials=700,  # 0.58 ms a trial (six class sizes): 0.4 s at the cap
            live=LIVE_TIES,
        ),
    ),
    notes=(
        N_(
            "Our reading of the rules: a bathroom break is announced before anyone rolls for status, so you "
            "do not know yet whether you would be asleep (unless you were called last turn: your die is not "
            "re-rolled). A student on a break is out of the room (not called and not made to look bad); a die "
            "that is not re-rolled keeps its face."
        ),
    ),
)

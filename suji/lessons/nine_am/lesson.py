"""9am Class, the lesson: simulated games and live trials beside the exact values, the questions and the page.

Data flows: seeded trials (`Live`, shared with the browser's live run) and whole bot games (`game`) → counts →
`Outcome` rows, each beside its exact value (`exact`) where one is known; `steps` asks the questions with the
exact answers, and `LESSON` is what the pages read.
"""

from __future__ import annotations

import random
from fractions import Fraction

from suji.core.i18n import N_
from suji.lessons.lesson import Experiment, Lesson, Msg, Outcome, Row
from suji.lessons.live import Live, totals
from suji.lessons.nine_am.exact import (
    expected_change,
    expected_damage,
    expected_final_grade_all_good,
    mean_die,
    p_awake,
    p_called,
    p_tie_break_win,
)
from suji.lessons.nine_am.game import STRATEGIES, STRATEGY_NAMES, NineAmGame, replay
from suji.lessons.nine_am.rules import BAD, GOOD, STUDENT_DIE, VARIANTS, is_awake
from suji.lessons.stats import wilson_interval
from suji.lessons.steps import Step

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
                "The expected value is the average over many tries: "
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

"""Gooball, the lesson: simulated rolls and games beside the exact values, the questions and the page.

Data flows: seeded trials (`Live`, shared with the browser's live run), lone gooballs (`turns_alone`, the
model of `exact.expected_turns_alone` played out) and whole bot games (`game`) → counts → `Outcome` rows
beside the exact values (`exact`); `steps` asks the questions and `LESSON` is what the pages read.
"""

from __future__ import annotations

import random

from suji.core.i18n import N_, NP_
from suji.lessons.gooball.exact import (
    bump_outcomes,
    expected_turns_alone,
    movement_distribution,
    p_reach,
    p_win_against,
    push_distribution,
)
from suji.lessons.gooball.game import GooballGame, replay
from suji.lessons.gooball.rules import BOT_NAMES, CAREFUL, EXTRA, FULL, GOAL, SIDES
from suji.lessons.lesson import Experiment, Lesson, Msg, Outcome, Row
from suji.lessons.live import Live, at_least, one_hot, totals
from suji.lessons.stats import wilson_interval
from suji.lessons.steps import Step

# ---- simulations -------------------------------------------------------------------------------------------


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


# The die is the power; the rows are inches (power + 5): the label says which, so a 4 is not read as 4 inches.
POWER_DIE = (Msg(N_("power (+5 inches)")),)
# One row of a distance experiment in the live run's words: "4 inches" (４インチ), not "inches 4".
INCHES = NP_("%(value)s inch", "%(value)s inches")
LIVE_MOVEMENT = Live(_power_trial, dice=(SIDES,), dice_labels=POWER_DIE)
LIVE_REACH = Live(_reach_trial, dice=(SIDES,), dice_labels=POWER_DIE)
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
            case_name=INCHES,
            live=LIVE_MOVEMENT,
        ),
        Experiment(
            "reach",
            N_("P(you can reach the centre) from d inches away"),
            _run_reach,
            x_title=N_("inches"),
            case_name=INCHES,
            live=LIVE_REACH,
        ),
        Experiment("bump", N_("Who wins a bump?"), _run_bump, live=LIVE_BUMP),
        Experiment(
            "push", N_("How far is the loser pushed?"), _run_push, x_title=N_("inches"),
            case_name=INCHES, live=LIVE_PUSH
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

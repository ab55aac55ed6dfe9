"""The game modes of Sūji de Asobo (RULES.md §1 "Play modes"): solo, the daily puzzle and pass-and-play.

Plain rules, no web and no database: a `Hand` is one player's dice for one target with what they have spent on
it; `reroll`, `set_face`, `answer` and `give_up` move it on. The web app keeps hands in its database and calls
these functions, so the dice are always rolled here, on the server, never chosen by a browser.

Costs (RULES.md "Score"): re-rolling a die costs 1 point, setting a die to a chosen face 5; they come off that
target's score, which is never below 0. A formula that cannot be read or uses dice that were not rolled is handed
back to be fixed; a valid formula whose value is not a target is a final answer worth 0.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date

from suji.core.caching import bounded
from suji.core.errors import SujiError
from suji.core.i18n import N_
from suji.core.nicknames import clean_nickname
from suji.core.text import whole_number
from suji.rules.dice import (
    NUMBER_DICE_FACES,
    NUMBER_KINDS,
    OPERATOR_DICE_FACES,
    OPERATOR_KINDS,
    TARGET_KINDS,
    DiceError,
    Roll,
    parse_number_face,
    parse_operator_face,
)
from suji.rules.scoring import CheckResult, apply_costs, check, costs
from suji.solver.search import solve

DEFAULT_TARGETS = 5
MAX_TARGETS = 10
MIN_PLAYERS, MAX_PLAYERS = 2, 6
OPEN, ANSWERED, GAVE_UP = "open", "answered", "gave_up"  # a hand's status
SOLO, PARTY = "solo", "party"  # a game's mode (the daily puzzle is a hand of its own)
PLAYING, FINISHED = "playing", "finished"  # a game's status

MESSAGES = {
    "no_such_die": N_("There is no such die."),
    "no_dice_chosen": N_("Choose at least one die to re-roll."),
    "same_die_twice": N_("Each die can be chosen only once."),
    "bad_face": N_("That die has no such face."),
    "same_face": N_("The die already shows that face."),
    "finished": N_("This target is already answered."),
    "not_answered": N_("Answer this target first."),
    "game_over": N_("This game is over."),
    "invalid_formula": N_("That formula cannot be used: %(detail)s"),
    "empty_formula": N_("Write a formula first."),
    "bad_count": N_("Choose a number from %(low)s to %(high)s."),
    "players_count": N_("Write the names of 2 to 6 players."),
    "same_name": N_("Two players have the same name: %(name)s"),
}


class GameError(SujiError):
    """A move the rules do not allow; `code` names it and `message(lang)` explains it to the player."""

    MESSAGES = MESSAGES


# ---- one player's dice for one target ----


@dataclass(frozen=True)
class Hand:
    """One player's dice for one target and what they did with them.

    Number die i is always of kind NUMBER_KINDS[i] and operator die i of kind OPERATOR_KINDS[i], so a re-roll or
    a set face uses the faces of that very die.
    """

    target_dice: tuple[int, ...]
    number_dice: tuple[int, ...]
    operator_dice: tuple[str, ...]
    rerolled: int = 0  # dice re-rolled so far (1 point each)
    set_faces: int = 0  # dice set to a chosen face (5 points each)
    rerolls_made: int = 0  # re-roll actions so far: part of the daily puzzle's seed
    status: str = OPEN
    formula: str = ""
    target: int | None = None
    points: int = 0  # the answer's points before costs
    score: int = 0  # after costs, never below 0
    best_points: int = 0  # the solver's best for the dice as they ended, before costs
    best_score: int = 0  # the same after this hand's costs
    best_formula: str = ""

    @property
    def roll(self) -> Roll:
        return Roll(self.target_dice, self.number_dice, self.operator_dice)

    @property
    def cost(self) -> int:
        """Points spent so far on re-rolls and set faces."""
        return costs(self.rerolled, self.set_faces)

    @property
    def is_open(self) -> bool:
        return self.status == OPEN

    def dice(self) -> list[tuple[str, str, int | str]]:
        """Each number and operator die as (id, kind, face): ids "n0"…"n4" and "o0"…"o3"."""
        return [
            (f"n{i}", k, f) for i, (k, f) in enumerate(zip(NUMBER_KINDS, self.number_dice, strict=True))
        ] + [(f"o{i}", k, f) for i, (k, f) in enumerate(zip(OPERATOR_KINDS, self.operator_dice, strict=True))]


def roll_target(rng: random.Random) -> tuple[int, ...]:
    """Roll the three target dice (A, B, C)."""
    return tuple(rng.choice(NUMBER_DICE_FACES[k]) for k in TARGET_KINDS)


def deal(target_dice: Sequence[int], rng: random.Random) -> Hand:
    """A new hand for `target_dice`: all five number dice and four operator dice rolled."""
    return Hand(
        target_dice=tuple(target_dice),
        number_dice=tuple(rng.choice(NUMBER_DICE_FACES[k]) for k in NUMBER_KINDS),
        operator_dice=tuple(rng.choice(OPERATOR_DICE_FACES[k]) for k in OPERATOR_KINDS),
    )


def new_hand(rng: random.Random) -> Hand:
    """A solo target: the target dice and all number and operator dice rolled."""
    return deal(roll_target(rng), rng)


def parse_die(die: object) -> tuple[str, int]:
    """("number" | "operator", index) for a die id "n0"…"n4" / "o0"…"o3"; GameError for anything else."""
    text = str(die).strip()
    if len(text) == 2 and text[0] in "no" and text[1] in "0123456789":
        group, index = ("number" if text[0] == "n" else "operator"), int(text[1])
        if index < (len(NUMBER_KINDS) if group == "number" else len(OPERATOR_KINDS)):
            return group, index
    raise GameError("no_such_die")


def die_faces(die: str) -> tuple:
    """The faces the die with id `die` can show (in order, each once)."""
    group, index = parse_die(die)
    if group == "number":
        return tuple(dict.fromkeys(NUMBER_DICE_FACES[NUMBER_KINDS[index]]))
    return tuple(dict.fromkeys(OPERATOR_DICE_FACES[OPERATOR_KINDS[index]]))


def _require_open(hand: Hand) -> None:
    if not hand.is_open:
        raise GameError("finished")


def chosen_dice(dice: Iterable[object]) -> list[str]:
    """Die ids in a canonical order (numbers, then operators), checked: known, at least one, none twice."""
    ids = [str(d).strip() for d in dice]
    parsed = [parse_die(d) for d in ids]
    if not parsed:
        raise GameError("no_dice_chosen")
    if len(set(parsed)) != len(parsed):
        raise GameError("same_die_twice")
    return [f"{g[0]}{i}" for g, i in sorted(parsed)]


def reroll(hand: Hand, dice: Iterable[object], rng: random.Random) -> Hand:
    """Re-roll the chosen dice (ids "n0"…, "o0"…), 1 point each; the other dice stay."""
    _require_open(hand)
    ids = chosen_dice(dice)
    numbers, operators = list(hand.number_dice), list(hand.operator_dice)
    for die in ids:
        group, index = parse_die(die)
        if group == "number":
            numbers[index] = rng.choice(NUMBER_DICE_FACES[NUMBER_KINDS[index]])
        else:
            operators[index] = rng.choice(OPERATOR_DICE_FACES[OPERATOR_KINDS[index]])
    return replace(
        hand, number_dice=tuple(numbers), operator_dice=tuple(operators),
        rerolled=hand.rerolled + len(ids), rerolls_made=hand.rerolls_made + 1,
    )  # fmt: skip


def set_face(hand: Hand, die: object, face: object) -> Hand:
    """Turn one die to a chosen face, 5 points; the face must be one that die has and not the one it shows."""
    _require_open(hand)
    group, index = parse_die(die)
    try:
        value: int | str = parse_number_face(face) if group == "number" else parse_operator_face(str(face))
    except DiceError:
        raise GameError("bad_face") from None
    if value not in die_faces(f"{group[0]}{index}"):
        raise GameError("bad_face")
    numbers, operators = list(hand.number_dice), list(hand.operator_dice)
    current = numbers if group == "number" else operators
    if current[index] == value:
        raise GameError("same_face")
    current[index] = value  # type: ignore[call-overload]
    return replace(
        hand, number_dice=tuple(numbers), operator_dice=tuple(operators), set_faces=hand.set_faces + 1
    )


@bounded("best_for_roll")
def best_for(roll: Roll) -> tuple[int, str]:
    """The solver's best score for a roll before costs and one formula for it ((0, "") when none)."""
    top = solve(roll).top
    return (top.score, top.formula) if top is not None else (0, "")


def _with_best(hand: Hand) -> Hand:
    points, formula = best_for(hand.roll)
    return replace(hand, best_points=points, best_score=apply_costs(points, hand.rerolled, hand.set_faces),
                   best_formula=formula)  # fmt: skip


def answer(hand: Hand, formula: str) -> tuple[Hand, CheckResult]:
    """Answer with `formula`: a valid formula closes the hand with its score after costs (0 if no target).

    A formula that cannot be read or uses dice that were not rolled raises GameError("invalid_formula") with
    the checker's explanation, and the hand stays open to be fixed. The answer is kept in print (２１^2 + 4 →
    21²+4), as the results show it.
    """
    _require_open(hand)
    if not str(formula).strip():
        raise GameError("empty_formula")
    result = check(str(formula), hand.roll, hand.rerolled, hand.set_faces)
    if not result.valid:
        error = result.error
        raise GameError("invalid_formula", detail=lambda lang: error.message(lang) if error else "")
    score = result.score if result.target is not None else 0
    closed = replace(hand, status=ANSWERED, formula=result.printed_formula or "", target=result.target, points=result.points,
                     score=score)  # fmt: skip
    return _with_best(closed), result


def give_up(hand: Hand) -> Hand:
    """Give up the target: 0 points; the best possible score is still shown."""
    _require_open(hand)
    return _with_best(replace(hand, status=GAVE_UP, score=0, points=0))


# ---- totals, turn order and winners ----


def total(hands: Iterable[Hand]) -> int:
    """The running total of a player's hands."""
    return sum(h.score for h in hands)


def best_total(hands: Iterable[Hand]) -> int:
    """What the solver could have scored with the same dice and the same costs, summed over closed hands."""
    return sum(h.best_score for h in hands if not h.is_open)


def turn_order(players: int, rounds: int) -> list[tuple[int, int]]:
    """(round, seat) in playing order: every round, each seat in turn from the first."""
    return [(r, s) for r in range(rounds) for s in range(players)]


def next_turn(players: int, rounds: int, current: tuple[int, int]) -> tuple[int, int] | None:
    """The turn after `current`, or None when the game is over."""
    order = turn_order(players, rounds)
    at = order.index(current)
    return order[at + 1] if at + 1 < len(order) else None


@dataclass(frozen=True)
class Match:
    """Where a solo or pass-and-play game stands: whose turn it is and the running totals.

    Pure moves: `answered(hand)` counts a hand that is no longer open and finishes the game after the last turn;
    `advanced()` gives the next turn. The web app keeps the fields in its `games` row.
    """

    players: int
    rounds: int
    turn: tuple[int, int] = (0, 0)  # (round, seat)
    total: int = 0  # solo: the player's total (pass-and-play totals are per seat: `score_table`)
    best_total: int = 0  # what the solver's best answers would have scored, after the same costs
    status: str = PLAYING

    @property
    def finished(self) -> bool:
        return self.status == FINISHED

    def next_turn(self) -> tuple[int, int] | None:
        return next_turn(self.players, self.rounds, self.turn)

    def answered(self, hand: Hand) -> Match:
        """The game after the current turn's hand was answered or given up."""
        if hand.is_open:
            raise GameError("not_answered")
        done = self.next_turn() is None
        return replace(
            self, total=self.total + hand.score, best_total=self.best_total + hand.best_score,
            status=FINISHED if done else self.status,
        )  # fmt: skip

    def advanced(self) -> tuple[Match, bool]:
        """The game at the next turn, and whether that turn starts a new round (new target dice to roll)."""
        nxt = self.next_turn()
        if nxt is None or self.finished:
            raise GameError("game_over")
        return replace(self, turn=nxt), nxt[1] == 0


@dataclass(frozen=True)
class ScoreRow:
    """One round of a score table: its number (from 1), its target dice and each seat's hand (None: not dealt)."""

    number: int
    target_dice: str
    cells: tuple[Hand | None, ...]


@dataclass(frozen=True)
class ScoreTable:
    """Scores per round and seat, each seat's total of answered hands, and the winners so far (a tie: several)."""

    seats: tuple[str, ...]
    rows: tuple[ScoreRow, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]

    @property
    def winner_names(self) -> list[str]:
        return [self.seats[i] for i in self.winners]


def score_table(seats: Sequence[str], rounds: Sequence[tuple[str, Mapping[int, Hand]]]) -> ScoreTable:
    """The score table of a game: `rounds` holds each round's target dice and the hands dealt, by seat."""
    totals = [0] * len(seats)
    rows = []
    for number, (target_dice, hands) in enumerate(rounds, 1):
        cells = tuple(hands.get(seat) for seat in range(len(seats)))
        for seat, hand in enumerate(cells):
            if hand is not None and not hand.is_open:
                totals[seat] += hand.score
        rows.append(ScoreRow(number, target_dice, cells))
    return ScoreTable(tuple(seats), tuple(rows), tuple(totals), tuple(winners(totals)))


def winners(totals: Mapping[str, int] | Sequence[int]) -> list:
    """Everyone with the highest total (more than one: a tie). Keys of a mapping, or indexes of a sequence."""
    items = list(totals.items()) if isinstance(totals, Mapping) else list(enumerate(totals))
    if not items:
        return []
    top = max(v for _, v in items)
    return [k for k, v in items if v == top]


def check_count(value: object, low: int, high: int, default: int | None = None) -> int:
    """An integer from a form between `low` and `high`; GameError("bad_count") otherwise."""
    text = str(value).strip() if value is not None else ""
    if not text and default is not None:
        return default
    number = whole_number(text, low, high, digits=9)
    if number is None:
        raise GameError("bad_count", low=low, high=high)
    return number


# ---- names ----


def clean_players(names: Iterable[object]) -> list[str]:
    """The names of a pass-and-play game: 2 to 6, each a valid name, no two the same (blank fields skipped)."""
    given = [n for n in names if str(n or "").strip()]
    if not MIN_PLAYERS <= len(given) <= MAX_PLAYERS:
        raise GameError("players_count")
    cleaned = [clean_nickname(n) for n in given]
    seen: set[str] = set()
    for name in cleaned:
        if name.casefold() in seen:
            raise GameError("same_name", name=name)
        seen.add(name.casefold())
    return cleaned


# ---- the daily puzzle ----


def daily_rng(day: date) -> random.Random:
    """The generator of the day's roll: the same date gives the same dice everywhere, nothing stored."""
    return random.Random(f"daily/{day.isoformat()}")


def daily_hand(day: date) -> Hand:
    """The day's puzzle: target, number and operator dice from the date."""
    return new_hand(daily_rng(day))


def daily_reroll_rng(day: date, dice: Iterable[object], rerolls_made: int) -> random.Random:
    """The generator for a daily re-roll: seeded by the date, the chosen dice and the re-rolls so far.

    So everyone who makes the same choice at the same point gets the same new faces, and asking again cannot
    give other dice.
    """
    return random.Random(f"daily/{day.isoformat()}/reroll/{rerolls_made}/{','.join(chosen_dice(dice))}")


def daily_reroll(hand: Hand, day: date, dice: Iterable[object]) -> Hand:
    """Re-roll chosen dice of the daily puzzle with the day's seeded generator."""
    return reroll(hand, dice, daily_reroll_rng(day, dice, hand.rerolls_made))


# ---- storage helpers: dice as short text in a database row ----


def dice_text(faces: Sequence[int | str]) -> str:
    """Faces as one string for a database column ("3 5 6 6 3", "− × ×11 +")."""
    return " ".join(str(f) for f in faces)


def number_faces(text: str) -> tuple[int, ...]:
    return tuple(int(f) for f in text.split())


def operator_faces(text: str) -> tuple[str, ...]:
    return tuple(text.split())

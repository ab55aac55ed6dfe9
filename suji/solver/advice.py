"""Re-roll advice: for every way to re-roll up to two dice or set one die, the exact chance of making a target
afterwards and the expected best score after the costs, with the best choice ("answer now" included).

Only number and operator dice are re-rolled (the target dice stay). A die's possible faces come from its kind
(RULES.md: number dice A A B B C, operator dice A A A B), so a roll must be one the standard dice can show.
"""

from __future__ import annotations

from collections import Counter
from concurrent.futures import Executor
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations, permutations, product

from suji.core.decimals import rounded
from suji.core.i18n import N_, translate
from suji.rules.dice import (
    MINUS,
    NUMBER_DICE_FACES,
    NUMBER_KINDS,
    OPERATOR_DICE_FACES,
    OPERATOR_KINDS,
    PLUS,
    DiceError,
    Roll,
)
from suji.rules.scoring import costs
from suji.solver.odds.table import OddsTable
from suji.solver.search import solve

ADVICE_TEXT = {
    "answer": N_("Answer now"),
    "reroll": N_("Re-roll %(dice)s"),
    "set": N_("Set %(die)s to %(face)s"),
    "number_die": N_("number die %(position)s (%(kind)s) showing %(face)s"),
    "operator_die": N_("operator die %(position)s (%(kind)s) showing %(face)s"),
    "two_dice": N_("%(first)s and %(second)s"),
    "summary": N_("%(choice)s: chance of a target %(percent)s (%(fraction)s), expected score %(expected)s."),
}
MAX_REROLLED = 2
# Below this many rolls per worker, starting processes costs more than it saves.
PARALLEL_MIN_ROLLS = 40


@dataclass(frozen=True)
class RolledDie:
    """A die of the roll: its group ("number" or "operator"), its place in that group, kind and face."""

    group: str
    index: int
    kind: str
    face: int | str

    @property
    def name(self) -> str:
        """The face, with the kind for number dice (the same face on dice A, B and C re-rolls differently)."""
        return f"{self.face}({self.kind})" if self.group == "number" else str(self.face)

    def label(self, lang: str = "en") -> str:
        """The one way a die is named to a person, in advice, menus and messages alike: where it sits (1, 2, …
        from the left), its kind (A, B, C: which faces it has) and the face it shows."""
        key = "number_die" if self.group == "number" else "operator_die"
        return translate(ADVICE_TEXT[key], lang, position=self.index + 1, kind=self.kind, face=self.face)

    @property
    def faces(self) -> tuple:
        return (NUMBER_DICE_FACES if self.group == "number" else OPERATOR_DICE_FACES)[self.kind]


@dataclass
class RerollOption:
    """One choice: re-roll some dice, set one die to a face, or answer now."""

    kind: str  # "answer", "reroll" or "set"
    dice: tuple[RolledDie, ...] = ()
    face: int | str | None = None  # the chosen face, for "set"
    cost: int = 0
    probability: Fraction = Fraction(0)  # of being able to make a target afterwards
    expected_score: Fraction = Fraction(0)  # expected best score after the cost (never below 0)

    def label(self, lang: str = "en") -> str:
        if self.kind == "answer":
            return translate(ADVICE_TEXT["answer"], lang)
        if self.kind == "reroll":
            names = [d.label(lang) for d in self.dice]
            dice = (
                names[0]
                if len(names) == 1
                else translate(ADVICE_TEXT["two_dice"], lang, first=names[0], second=names[1])
            )
            return translate(ADVICE_TEXT["reroll"], lang, dice=dice)
        return translate(ADVICE_TEXT["set"], lang, die=self.dice[0].label(lang), face=str(self.face))

    def to_dict(self, lang: str = "en") -> dict:
        return {
            "kind": self.kind,
            "dice": [{"group": d.group, "index": d.index, "kind": d.kind, "face": d.face} for d in self.dice],
            "face": self.face,
            "cost": self.cost,
            "probability": str(self.probability),
            "probability_percent": rounded(self.probability * 100, 1),
            "expected_score": str(self.expected_score),
            "expected_score_decimal": rounded(self.expected_score, 2),
            "label": self.label(lang),
        }


@dataclass
class Advice:
    """Every option with its odds, best first (highest expected score, then the cheaper option)."""

    roll: Roll
    options: list[RerollOption] = field(default_factory=list)

    @property
    def best(self) -> RerollOption:
        return self.options[0]

    def to_dict(self, lang: str = "en") -> dict:
        return {"best": self.best.to_dict(lang), "options": [o.to_dict(lang) for o in self.options]}


def _assign(faces: tuple, kinds: tuple[str, ...], table: dict) -> tuple[str, ...] | None:
    """Kinds for the faces in order, so that each face is on its die (the given order first)."""
    if all(f in table[k] for f, k in zip(faces, kinds, strict=True)):
        return kinds
    for order in dict.fromkeys(permutations(kinds)):
        if all(f in table[k] for f, k in zip(faces, order, strict=True)):
            return order
    return None


def roll_dice(roll: Roll) -> list[RolledDie]:
    """The number and operator dice of a standard roll, each with its kind; DiceError if not standard."""
    if len(roll.number_dice) != len(NUMBER_KINDS) or len(roll.operator_dice) != len(OPERATOR_KINDS):
        raise DiceError("not_standard")
    numbers = _assign(roll.number_dice, NUMBER_KINDS, NUMBER_DICE_FACES)
    operators = _assign(roll.operator_dice, OPERATOR_KINDS, OPERATOR_DICE_FACES)
    if numbers is None or operators is None:
        raise DiceError("not_standard")
    return [
        RolledDie("number", i, k, f) for i, (k, f) in enumerate(zip(numbers, roll.number_dice, strict=True))
    ] + [
        RolledDie("operator", i, k, f)
        for i, (k, f) in enumerate(zip(operators, roll.operator_dice, strict=True))
    ]


RollKey = tuple[tuple, tuple]  # (number dice sorted, operator dice sorted): the best score depends on no more


def _changed_key(roll: Roll, changes: dict[RolledDie, int | str]) -> RollKey:
    """The dice of `roll` with some faces changed, as the multisets that decide its best score.

    No Roll is built: advice looks at thousands of outcomes, and a Roll works out its targets every time.
    """
    numbers = list(roll.number_dice)
    operators = list(roll.operator_dice)
    for die, face in changes.items():
        (numbers if die.group == "number" else operators)[die.index] = face
    return tuple(sorted(numbers)), tuple(sorted(operators))


def _key(roll: Roll) -> RollKey:
    return tuple(sorted(roll.number_dice)), tuple(sorted(roll.operator_dice))


def _best_scores(job: tuple[tuple, int | None, list[RollKey]]) -> dict[RollKey, int | None]:
    """The best score (None: no target) of each roll in the job: (target dice, target, keys)."""
    target_dice, target, keys = job
    scores = {}
    # Rolls that differ only in their + and − dice share the solver's terms (it caches a few): solve them
    # one after another.
    for numbers, operators in sorted(keys, key=lambda k: (k[0], [f for f in k[1] if f not in (PLUS, MINUS)])):
        top = solve(Roll(target_dice, numbers, operators, target)).top
        scores[(numbers, operators)] = top.score if top else None
    return scores


def best_scores(
    roll: Roll,
    keys: list[RollKey],
    workers: int = 1,
    executor: Executor | None = None,
    table: OddsTable | None = None,
) -> dict[RollKey, int | None]:
    """The best score of every roll named by `keys` (same targets as `roll`), on `workers` processes.

    With `table` (the odds table) every score is a lookup. Without it they are solved: with `executor` (a
    process pool that lives as long as a server) the work is shared among its `workers`; otherwise, with
    workers > 1, forked processes are started for this call alone. Forked workers suit the command line and
    benchmarks; a server holding database connections should pass a pool started with "spawn" instead, since
    a forked child may close connections it shares with its parent.
    """
    keys = list(dict.fromkeys(keys))
    if table is not None and table.covers(roll.number_dice, roll.operator_dice, roll.targets):
        return {key: table.best_score(key[0], key[1], roll.targets) for key in keys}
    if executor is None and (workers <= 1 or len(keys) < 2 * PARALLEL_MIN_ROLLS):
        return _best_scores((roll.target_dice, roll.target, keys))
    # Interleaved shares: neighbouring keys tend to cost alike, so each worker gets a fair mix. With an executor
    # even a small job goes to it: the caller keeps its own thread free (a server's interpreter).
    workers = max(1, workers)
    jobs = [(roll.target_dice, roll.target, keys[i::workers]) for i in range(workers) if keys[i::workers]]
    scores: dict[RollKey, int | None] = {}
    if executor is not None:
        for part in executor.map(_best_scores, jobs):
            scores.update(part)
        return scores
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("fork")) as pool:
        for part in pool.map(_best_scores, jobs):
            scores.update(part)
    return scores


@dataclass(frozen=True)
class Choices:
    """Every choice of a roll (re-roll one or two dice, set one die) with the outcomes each can lead to.

    What the choices are depends only on the dice; the costs already spent come in later (`options`), so the
    solved outcomes of a roll can be kept and shared by every player who asks about it.
    """

    roll: Roll
    # Each re-roll choice with its outcomes as (how many ways, the roll it leads to); each set face likewise.
    rerolls: tuple[tuple[tuple[RolledDie, ...], tuple[tuple[int, RollKey], ...]], ...]
    sets: tuple[tuple[RolledDie, int | str, RollKey], ...]

    def keys(self) -> list[RollKey]:
        """Every roll any choice can lead to (the roll itself first), each once."""
        keys = [_key(self.roll)]
        for _, outcomes in self.rerolls:
            keys.extend(key for _, key in outcomes)
        keys.extend(key for _, _, key in self.sets)
        return list(dict.fromkeys(keys))


def choices(roll: Roll, max_rerolled: int = MAX_REROLLED) -> Choices:
    """The choices of a standard roll (DiceError "not_standard" for other dice)."""
    dice = roll_dice(roll)
    # Dice of the same kind showing the same face are interchangeable: list each choice once.
    distinct = list({(d.group, d.kind, d.face): d for d in dice}.values())
    chosen_sets: list[tuple[RolledDie, ...]] = [(d,) for d in distinct]
    if max_rerolled >= 2:
        seen = set()
        for a, b in combinations(dice, 2):
            key = tuple(sorted([(a.group, a.kind, a.face), (b.group, b.kind, b.face)], key=str))
            if key not in seen:
                seen.add(key)
                chosen_sets.append((a, b))
    # The roll each outcome leads to is worked out once, here: the keys and the odds both read it.
    rerolls = tuple(
        (chosen, tuple((count, _changed_key(roll, dict(zip(chosen, faces, strict=True))))
                       for faces, count in Counter(product(*(d.faces for d in chosen))).items()))
        for chosen in chosen_sets
    )  # fmt: skip
    sets = tuple(
        (die, face, _changed_key(roll, {die: face}))
        for die in distinct for face in dict.fromkeys(die.faces) if face != die.face
    )  # fmt: skip
    return Choices(roll, rerolls, sets)


def options_from_scores(
    found: Choices, scores: dict[RollKey, int | None], rerolled: int = 0, set_faces: int = 0
) -> Advice:
    """The advice for a roll from the best score of every outcome, after the costs already spent."""
    roll = found.roll
    spent = costs(rerolled, set_faces)

    def after(score: int | None, cost: int) -> int:
        return max(0, score - spent - cost) if score is not None else 0

    now = scores[_key(roll)]
    options = [
        RerollOption(
            "answer", probability=Fraction(int(now is not None)), expected_score=Fraction(after(now, 0))
        )
    ]
    for chosen, outcomes in found.rerolls:
        cost = costs(rerolled=len(chosen))
        total = sum(count for count, _ in outcomes)
        # Whole counts first, one Fraction per option at the end: exact, and cheap enough for a lookup path.
        made, expected = 0, 0
        for count, key in outcomes:
            score = scores[key]
            if score is not None:
                made += count
            expected += count * after(score, cost)
        options.append(
            RerollOption("reroll", chosen, None, cost, Fraction(made, total), Fraction(expected, total))
        )
    for die, face, key in found.sets:
        score = scores[key]
        made_now = Fraction(int(score is not None))
        options.append(
            RerollOption(
                "set", (die,), face, costs(set_faces=1), made_now, Fraction(after(score, costs(set_faces=1)))
            )
        )
    kind_order = {"answer": 0, "reroll": 1, "set": 2}
    options.sort(key=lambda o: (-o.expected_score, -o.probability, o.cost, kind_order[o.kind]))
    return Advice(roll, options)


def advise(
    roll: Roll,
    rerolled: int = 0,
    set_faces: int = 0,
    max_rerolled: int = MAX_REROLLED,
    workers: int = 1,
    executor: Executor | None = None,
    table: OddsTable | None = None,
) -> Advice:
    """Every choice of re-rolling up to `max_rerolled` dice or setting one die, with exact odds, best first.

    `rerolled` and `set_faces` are what the player has already spent on this roll: the expected score counts
    all costs (the score of a target is never below 0). With `table` the outcomes are looked up; otherwise
    `workers` > 1 solves them on that many processes, those of `executor` when given (see best_scores).
    """
    found = choices(roll, max_rerolled)
    scores = best_scores(roll, found.keys(), workers, executor, table)
    return options_from_scores(found, scores, rerolled, set_faces)

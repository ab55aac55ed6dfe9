"""The simulation: synthetic pupils of known skills answer through the real model, to tune it and to show it works.

A synthetic pupil can use some operator families only, at most so many number dice, may or may not read a 6 as
9, sees formulas with some insight, and slips now and then. On an item it looks at the solver's irreducible
formulas (all of them: the truth of the roll) that reach the goal within its reach, and sees each one f with
chance insight^(c(f)/4), where c(f) counts its number dice and its operators (+ − ½, × and ×10–12 1, ² 1½,
÷ and √ 2): a long formula with hard operators is seen less often. It finds a formula when it sees at least one
of the eight it is likeliest to see, and answers it unless it slips. A pupil who takes hints asks for two when
stuck, which gives it a second look, a third of the way from its insight to certainty, and halves the outcome
(two quarters).

`run` lets the pupils take turns answering `items` items each through `suji.learner.selection.choose` and
`suji.learner.model.update`, on one shared set of item ratings, 20 answers a simulated day (so spaced reviews
come due), and reports per pupil the success after the warm-up, the success on random certified rolls (any
target; the same seeded rolls for every pupil), the final rating and how many served items needed ² or √; over
the pupils, the mean success and the Spearman rank correlation between the final ratings and the pupils' true
abilities (their expected success on those random rolls).

Data flows: pupils (seeded) → items chosen by the model → answers (the rules' `check` of the formula written)
→ updates → figures. `suji practice simulate --pupils N --items M [--json]` prints them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta

from suji.learner.bank import Bank, load
from suji.learner.families import (
    CONSTANTS,
    DIVIDE_FAMILY,
    FAMILIES,
    FIVE_DICE,
    FOUR_DICE,
    JOINED,
    PLUS_MINUS,
    ROOT_FAMILY,
    SIX_AS_NINE,
    SQUARE_FAMILY,
    TIMES_FAMILY,
    families_of,
)
from suji.learner.items import Item
from suji.learner.mastery import overall_rating, reference, typical_shares
from suji.learner.model import ItemRating, Learner, outcome, update, written_families
from suji.learner.selection import REVIEW, ItemStats, after_answer, choose, since_spaced
from suji.rules.dice import CONSTANT_FACES, DIVIDE, MINUS, PLUS, ROOT, SQUARE, TIMES, Roll
from suji.rules.language.printing import format_faces
from suji.rules.language.spelling import Face
from suji.rules.scoring import check, formula_score, number_dice_used
from suji.solver.problems import LEVELS, certified_roll
from suji.solver.search import solve

WARM_UP = 15
PER_DAY = 20
RANDOM_ROLLS = 60
MAX_WAYS = 8  # more formulas within reach than this do not make an item easier to see
ROOT_OR_SQUARE = frozenset({SQUARE_FAMILY, ROOT_FAMILY})


@dataclass(frozen=True)
class Pupil:
    """A synthetic pupil: what it can use and how reliably it finds and writes a formula."""

    name: str
    families: frozenset[str]
    max_dice: int = 5
    reads_nine: bool = True
    insight: float = 0.5
    slip: float = 0.05
    takes_hints: bool = False

    def within_reach(self, faces: Sequence[Face]) -> bool:
        used = families_of(faces)
        return (
            number_dice_used(faces) <= self.max_dice
            and (used - {SIX_AS_NINE, FOUR_DICE, FIVE_DICE}) <= self.families
            and (self.reads_nine or SIX_AS_NINE not in used)
        )

    def ways(self, roll: Roll, goal: int, solutions: _Solutions) -> list[tuple[Face, ...]]:
        """The formulas the pupil could write that reach the goal, shortest first."""
        found = [f for f in solutions.of(roll) if formula_score(f) >= goal and self.within_reach(f)]
        return sorted(found, key=lambda f: (len(f), format_faces(f)))

    def finds(self, ways: Sequence[tuple[Face, ...]], insight: float | None = None) -> float:
        """The chance of seeing at least one of these formulas."""
        q = self.insight if insight is None else insight
        seen = sorted((q ** (complexity(f) / 4) for f in ways), reverse=True)[:MAX_WAYS]
        missed = 1.0
        for p in seen:
            missed *= 1.0 - p
        return 1.0 - missed

    def chance(self, ways: Sequence[tuple[Face, ...]]) -> float:
        """The chance of making the goal without hints."""
        return (1.0 - self.slip) * self.finds(ways)

    def answer(
        self, roll: Roll, goal: int, solutions: _Solutions, rng: random.Random
    ) -> tuple[str | None, int]:
        """(the formula written, or None for giving up; hints used)."""
        ways = self.ways(roll, goal, solutions)
        found = rng.random() < self.finds(ways)
        hints = 0
        if not found and self.takes_hints and ways:
            hints = 2
            found = rng.random() < self.finds(ways, self.insight + (1.0 - self.insight) / 3)
        if not found:
            return None, hints
        if rng.random() < self.slip:
            return format_faces(ways[0][:-1]) or "1", hints  # a slip: the last die left off
        return format_faces(ways[rng.randrange(len(ways))]), hints


_WEIGHT = {
    PLUS: 0.5,
    MINUS: 0.5,
    TIMES: 1.0,
    DIVIDE: 2.0,
    SQUARE: 1.5,
    ROOT: 2.0,
    **dict.fromkeys(CONSTANT_FACES, 1.0),
}


def complexity(faces: Sequence[Face]) -> float:
    """c(f): number dice and weighted operators (see the module docstring)."""
    return sum(1.0 if type(f) is int else _WEIGHT[f] for f in faces)


class _Solutions:
    """The irreducible formulas of each roll (every operator), solved once per run."""

    def __init__(self) -> None:
        self._cache: dict[Roll, list[tuple[Face, ...]]] = {}

    def of(self, roll: Roll) -> list[tuple[Face, ...]]:
        found = self._cache.get(roll)
        if found is None:
            found = [f for fs in solve(roll).formulas.values() for f in fs]
            self._cache[roll] = found
        return found


def standard_pupils(count: int, seed: int | str = "pupils") -> list[Pupil]:
    """`count` pupils of very different skill, from + − with three dice to every family, drawn from a seed."""
    rng = random.Random(seed)
    palettes = [
        frozenset({PLUS_MINUS, JOINED}),
        frozenset({PLUS_MINUS, JOINED, TIMES_FAMILY}),
        frozenset({PLUS_MINUS, JOINED, TIMES_FAMILY, CONSTANTS}),
        frozenset({PLUS_MINUS, JOINED, TIMES_FAMILY, CONSTANTS, DIVIDE_FAMILY}),
        frozenset(FAMILIES) - ROOT_OR_SQUARE,
        frozenset(FAMILIES),
    ]
    pupils = []
    for i in range(count):
        families = palettes[i % len(palettes)]
        pupil = Pupil(
            name=f"P{i + 1:02d}",
            families=families,
            max_dice=rng.choice((3, 4, 4, 5, 5)),
            reads_nine=rng.random() < 0.6,
            insight=round(rng.uniform(0.25, 0.85), 2),
            slip=round(rng.uniform(0.04, 0.12), 2),
            takes_hints=rng.random() < 0.3,
        )
        if families == palettes[-1]:  # every sixth can do it all: five dice, 6 as 9, a good eye, few slips
            pupil = replace(
                pupil,
                max_dice=5,
                reads_nine=True,
                insight=max(pupil.insight, 0.6),
                slip=min(pupil.slip, 0.06),
            )
        pupils.append(pupil)
    return pupils


def random_rolls(count: int = RANDOM_ROLLS, seed: str = "practice-random") -> list[Roll]:
    """Seeded random certified rolls at levels 1, 2, 3 in turn (what the drills serve)."""
    return [certified_roll(LEVELS[i % 3], f"{seed}/{i}").roll for i in range(count)]


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rank correlation (ties get their mean rank)."""

    def ranks(values: Sequence[float]) -> list[float]:
        order = sorted(range(len(values)), key=lambda i: values[i])
        out = [0.0] * len(values)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
                j += 1
            for k in range(i, j + 1):
                out[order[k]] = (i + j) / 2
            i = j + 1
        return out

    rx, ry = ranks(xs), ranks(ys)
    n = len(xs)
    mx, my = sum(rx) / n, sum(ry) / n
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = sum((a - mx) ** 2 for a in rx) ** 0.5
    vy = sum((b - my) ** 2 for b in ry) ** 0.5
    return cov / (vx * vy) if vx and vy else 0.0


@dataclass
class PupilResult:
    pupil: Pupil
    outcomes: list[float] = field(default_factory=list)
    predicted: list[float] = field(default_factory=list)
    made: list[bool] = field(default_factory=list)
    served_root_square: int = 0
    reviews: int = 0
    ability: float = 0.0
    learner: Learner = Learner()

    def success_after(self, warm_up: int) -> float:
        rest = self.made[warm_up:]
        return sum(rest) / len(rest) if rest else 0.0

    rating: float = 0.0  # the overall rating (suji.learner.mastery.overall_rating) after the last answer

    def to_dict(self, warm_up: int) -> dict:
        p = self.pupil
        return {
            "name": p.name, "families": sorted(p.families), "max_dice": p.max_dice, "reads_nine": p.reads_nine,
            "insight": p.insight, "slip": p.slip, "takes_hints": p.takes_hints,
            "success_after_warm_up": round(self.success_after(warm_up), 3),
            "predicted_after_warm_up": round(_mean(self.predicted[warm_up:]), 3),
            "success_on_random_rolls": round(self.ability, 3),
            "final_rating": round(self.rating, 3), "answered": len(self.made),
            "served_needing_root_or_square": self.served_root_square, "reviews": self.reviews,
        }  # fmt: skip


@dataclass
class Report:
    pupils: list[PupilResult]
    warm_up: int

    @property
    def mean_success(self) -> float:
        return sum(r.success_after(self.warm_up) for r in self.pupils) / len(self.pupils)

    @property
    def rank_correlation(self) -> float:
        return spearman([r.rating for r in self.pupils], [r.ability for r in self.pupils])

    def to_dict(self) -> dict:
        return {
            "warm_up": self.warm_up,
            "pupils": [r.to_dict(self.warm_up) for r in self.pupils],
            "mean_success_after_warm_up": round(self.mean_success, 3),
            "spearman_rating_ability": round(self.rank_correlation, 3),
        }


def ability(pupil: Pupil, rolls: Sequence[Roll], solutions: _Solutions) -> float:
    """The pupil's expected success on the rolls with goal "any target" (no hints)."""
    return sum(pupil.chance(pupil.ways(roll, 0, solutions)) for roll in rolls) / len(rolls)


def run(
    pupils: Sequence[Pupil],
    items: int = 55,
    seed: int | str = 1,
    bank: Bank | None = None,
    warm_up: int = WARM_UP,
    per_day: int = PER_DAY,
    random_roll_count: int = RANDOM_ROLLS,
) -> Report:
    """Every pupil answers `items` items, taking turns (see the module docstring)."""
    bank = bank or load()
    references = reference(bank)
    shares = typical_shares(bank)
    rng = random.Random(seed)
    solutions = _Solutions()
    rolls = random_rolls(random_roll_count)
    results = [PupilResult(p, ability=ability(p, rolls, solutions)) for p in pupils]
    stats = ItemStats.empty(bank)
    ratings: dict[str, ItemRating] = {}
    recent: list[list[str]] = [[] for _ in pupils]
    since_review = [0] * len(pupils)
    start = datetime(2026, 1, 5, 16, 0, tzinfo=UTC).replace(tzinfo=None)
    for n in range(items):
        now = start + timedelta(days=n // per_day, seconds=30 * n)
        for k, result in enumerate(results):
            choice = choose(
                bank, result.learner, stats, recent[k], rng, now.date(), references, since_review[k]
            )
            item = choice.item
            text, hints = result.pupil.answer(item.roll, item.goal, solutions, rng)
            made = _made(item, text)
            score = outcome(made, hints)
            rating = ratings.get(item.key, ItemRating())
            used = _families_written(item, text) if made else None
            step = update(result.learner, item, rating, score, now, used)
            result.learner = after_answer(
                step.learner, item, made, choice.mode, choice.family, now.date(), references
            )
            ratings[item.key] = step.item
            stats = stats.with_item(bank, item.key, step.item)
            recent[k].insert(0, item.key)
            since_review[k] = since_spaced(choice.mode, since_review[k])
            result.reviews += choice.mode == REVIEW
            result.outcomes.append(score)
            result.predicted.append(choice.predicted)
            result.made.append(made)
            result.rating = overall_rating(result.learner, shares)
            result.served_root_square += bool(item.requires & ROOT_OR_SQUARE) and n >= warm_up
    return Report(results, warm_up)


def _families_written(item: Item, formula: str | None) -> frozenset[str] | None:
    result = check(formula or "", item.roll)
    return written_families(result)


def _made(item: Item, formula: str | None) -> bool:
    if formula is None:
        return False
    result = check(formula, item.roll)
    return result.valid and result.target is not None and result.score >= item.goal


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0

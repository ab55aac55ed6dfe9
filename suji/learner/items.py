"""Practice items and their prior difficulty, from what the solver knows about a roll before anyone answers it.

An item is a roll with a goal: make any target (goal 0), or reach at least N points, so that strong pupils are
stretched as well as weak ones helped. Data flows: a roll → `suji.solver.search.solve` (every irreducible
formula of every target, with every operator, as a pupil may use every die rolled) → `roll_items` keeps, per
goal, the solutions that reach it → their routes → `Features` → `prior_difficulty` → an `Item`. This happens
once, when the item bank is built (suji.learner.bank); serving an item never solves anything.

A route is one way into an item: a set of families (suji.learner.families) and the fewest number dice a
solution with just those families needs. A pupil who cannot divide takes another route than one who can, so an
item keeps its Pareto routes: the families of some solution, kept unless a route with fewer families needs no
more dice. Each route has a witness, its solution with the fewest dice, which proves the goal can be reached
(`certify` checks it with the rules' `check`, as a pupil's answer is checked).

The prior difficulty of a route r, on the learner model's logit scale (an item of difficulty β is made with
chance 1/(1 + e^(β−θ)) by a pupil rated θ, suji.learner.model):

    β_r = B + W_dice·(d − 3) + Σ_{f ∈ F} W_f + W_frac·q − W_sol·ln n − W_targets·(t − 1) + W_goal·N/best

    F, d  the route's families and its fewest number dice (the witness's),
    q     1 when the witness passes a fraction on the way (8÷3×12 passes 8/3), else 0,
    n, t  how many irreducible solutions reach the goal with families within F, and how many of the roll's
          targets they make (many ways in make an item easier to see),
    N     the goal's points (0: any target), best the roll's best score (the odds table's figure).

An item's prior β₀ is its easiest route's (the least β_r); the model predicts a pupil's chance by the route that
suits the pupil best (suji.learner.selection), and learns a correction to β₀ from answers. The weights are
PRIOR_WEIGHTS below, set by hand from how the game is played and checked with the simulation
(suji.learner.simulate) and the synthetic pupils of the tests.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from suji.learner.families import (
    CONSTANTS,
    DIVIDE_FAMILY,
    FIVE_DICE,
    FOUR_DICE,
    JOINED,
    PLUS_MINUS,
    ROOT_FAMILY,
    SIX_AS_NINE,
    SQUARE_FAMILY,
    TIMES_FAMILY,
    families_of,
    families_of_mask,
    level_of,
    mask_of,
)
from suji.rules.dice import OPERATOR_FACES, Roll
from suji.rules.exact import Value
from suji.rules.language.printing import format_faces
from suji.rules.language.spelling import Face
from suji.rules.scoring import check, formula_score, number_dice_used
from suji.solver.search import Solution

# The weights of the prior (logits). A harder move costs more; each extra die a little over half a logit.
PRIOR_BASE = -0.6
PRIOR_DICE = 0.55  # per number die beyond three (a three-digit target needs three digits at least)
PRIOR_FAMILY = {
    JOINED: 0.0,  # nearly every item needs it: part of the base
    PLUS_MINUS: 0.3,
    TIMES_FAMILY: 0.8,
    CONSTANTS: 0.7,
    DIVIDE_FAMILY: 1.4,
    SQUARE_FAMILY: 1.1,
    ROOT_FAMILY: 1.4,
    SIX_AS_NINE: 0.8,  # easy to overlook
    FOUR_DICE: 0.0,  # the dice term counts them; the families are there so a pupil's limit can be learned
    FIVE_DICE: 0.0,
}
PRIOR_FRACTION = 0.8
PRIOR_SOLUTIONS = 0.3  # per e-fold of solutions: many ways in make an item easier
PRIOR_TARGETS = 0.2  # per further target that can be reached
PRIOR_GOAL = 1.6  # a goal of the whole best score, against any target
PRIOR_WEIGHTS = {
    "base": PRIOR_BASE, "dice": PRIOR_DICE, "families": PRIOR_FAMILY, "fraction": PRIOR_FRACTION,
    "solutions": PRIOR_SOLUTIONS, "targets": PRIOR_TARGETS, "goal": PRIOR_GOAL,
}  # fmt: skip
MAX_GOALS = 3  # goals of at least N points per roll, besides "any target"

OPERATOR_CODES = dict(zip(OPERATOR_FACES, "+-*/abcsr", strict=True))  # for item keys, ASCII only
OPERATOR_OF_CODE = {code: face for face, code in OPERATOR_CODES.items()}


@dataclass(frozen=True)
class Route:
    """One way into an item: families, fewest dice, a fraction on the way, the ways and targets within reach."""

    families: int  # F as a mask (suji.learner.families.mask_of)
    dice: int  # d
    fraction: bool  # q
    solutions: int  # n
    targets: int  # t
    witness: tuple[Face, ...]  # the route's solution with the fewest dice

    @property
    def family_set(self) -> frozenset[str]:
        return families_of_mask(self.families)


@dataclass(frozen=True)
class Item:
    """A roll, a goal (0: any target; N: at least N points), the roll's best score and the item's routes."""

    roll: Roll
    goal: int
    best: int
    routes: tuple[Route, ...]  # easiest first (by the prior)
    costs: tuple[float, ...]  # each route's β_r
    solutions: int  # every irreducible solution that reaches the goal
    targets: int  # the targets they make

    @property
    def prior(self) -> float:
        """β₀: the easiest route's prior difficulty."""
        return self.costs[0]

    @property
    def key(self) -> str:
        return item_key(self.roll, self.goal)

    @property
    def needs(self) -> frozenset[str]:
        """The families the easiest route needs."""
        return self.routes[0].family_set

    @property
    def requires(self) -> frozenset[str]:
        """The families every route needs: no way into the item avoids them."""
        return frozenset.intersection(*(r.family_set for r in self.routes))

    @property
    def level(self) -> int:
        """The drill level (1–3) whose operators the easiest route uses."""
        return level_of(self.needs)

    @property
    def witness(self) -> tuple[Face, ...]:
        return self.routes[0].witness

    @property
    def witness_formula(self) -> str:
        return format_faces(self.witness)


def item_key(roll: Roll, goal: int) -> str:
    """The stable name of an item: its dice and goal, e.g. ``446.21413.++s-.0`` (target, number, operator dice)."""
    return ".".join(
        (
            "".join(map(str, roll.target_dice)),
            "".join(map(str, roll.number_dice)),
            "".join(OPERATOR_CODES[f] for f in roll.operator_dice),
            str(goal),
        )
    )


def roll_of_key(key: str) -> tuple[Roll, int]:
    """The roll and goal an item key names (ValueError for a key no item has)."""
    try:
        targets, numbers, operators, goal = key.split(".")
        roll = Roll(
            tuple(int(c) for c in targets),
            tuple(int(c) for c in numbers),
            tuple(OPERATOR_OF_CODE[c] for c in operators),
        )
        return roll, int(goal)
    except (KeyError, ValueError) as error:
        raise ValueError(f"not an item key: {key!r}") from error


def fraction_on_the_way(faces: Sequence[Face]) -> bool:
    """Whether working the formula out passes through a value that is not whole (8÷3×12 passes 8/3)."""
    from suji.rules.exact import as_rational
    from suji.rules.working import working

    def whole(value: Value) -> bool:
        rational = as_rational(value)
        return rational is not None and rational.denominator == 1

    return any(not whole(step.result) for step in working(faces).steps)


def route_cost(route: Route, goal: int, best: int) -> float:
    """β_r of the module docstring."""
    share = goal / best if goal and best else 0.0
    return (
        PRIOR_BASE
        + PRIOR_DICE * (route.dice - 3)
        + sum(PRIOR_FAMILY[f] for f in route.family_set)
        + (PRIOR_FRACTION if route.fraction else 0.0)
        - PRIOR_SOLUTIONS * math.log(route.solutions)
        - PRIOR_TARGETS * (route.targets - 1)
        + PRIOR_GOAL * share
    )


def make_item(
    roll: Roll, goal: int, best: int, routes: Iterable[Route], solutions: int, targets: int
) -> Item:
    """An item with its routes ordered by the prior, easiest first."""
    costed = sorted(
        ((round(route_cost(r, goal, best), 4), r) for r in routes), key=lambda c: (c[0], c[1].families)
    )
    return Item(
        roll, goal, best, tuple(r for _, r in costed), tuple(c for c, _ in costed), solutions, targets
    )


def goals_of(scores: Iterable[int], limit: int = MAX_GOALS) -> list[int]:
    """The goals of a roll: 0 (any target), then up to `limit` scores to reach — the top one, and the scores
    at about half and four fifths of the way up the ladder of the solutions' distinct scores. The lowest
    score is never a goal of its own: every solution reaches it, as "any target" asks."""
    ladder = sorted(set(scores))[1:]
    if not ladder:
        return [0]
    picks = {ladder[-1], ladder[(len(ladder) - 1) // 2], ladder[(4 * (len(ladder) - 1)) // 5]}
    return [0, *sorted(picks)[-limit:]]


def _shortest(formulas: Iterable[tuple[Face, ...]]) -> tuple[Face, ...]:
    """The formula with the fewest number dice, then the shortest, then the first in print (a rebuild agrees)."""
    return min(formulas, key=lambda f: (number_dice_used(f), len(f), format_faces(f)))


def routes_of(reaching: Sequence[tuple[int, tuple[Face, ...]]]) -> list[Route]:
    """The Pareto routes of the solutions (target, faces) that reach a goal (see the module docstring)."""
    by_families: dict[frozenset[str], list[tuple[int, tuple[Face, ...]]]] = {}
    for target, faces in reaching:
        by_families.setdefault(families_of(faces), []).append((target, faces))
    # Fewest dice first, then fewer families: a route is kept when every kept route within its families needs
    # more dice than it does.
    candidates = sorted(
        ((fams, _shortest(f for _, f in found)) for fams, found in by_families.items()),
        key=lambda c: (number_dice_used(c[1]), len(c[0]), mask_of(c[0])),
    )
    kept: list[tuple[frozenset[str], tuple[Face, ...]]] = []
    for fams, witness in candidates:
        if not any(other <= fams for other, _ in kept):
            kept.append((fams, witness))
    routes = []
    for fams, witness in kept:
        within = [(t, f) for t, f in reaching if families_of(f) <= fams]
        routes.append(
            Route(
                families=mask_of(fams),
                dice=number_dice_used(witness),
                fraction=fraction_on_the_way(witness),
                solutions=len(within),
                targets=len({t for t, _ in within}),
                witness=witness,
            )
        )
    return routes


def roll_items(solution: Solution) -> list[Item]:
    """Every item of a solved roll (none when no target can be made)."""
    scored = [(t, f, formula_score(f)) for t, found in solution.formulas.items() for f in found]
    if not scored:
        return []
    best = max(score for _, _, score in scored)
    items = []
    for goal in goals_of(score for _, _, score in scored):
        reaching = [(t, f) for t, f, score in scored if score >= goal]
        routes = routes_of(reaching)
        items.append(
            make_item(solution.roll, goal, best, routes, len(reaching), len({t for t, _ in reaching}))
        )
    return items


def certify(item: Item, every_route: bool = True) -> bool:
    """Whether every route's witness (or, with `every_route` false, the easiest route's: one proof is enough to
    serve the item), checked by the rules like a pupil's answer, reaches the item's goal."""
    for route in item.routes if every_route else item.routes[:1]:
        result = check(format_faces(route.witness), item.roll)
        if not (result.valid and result.target is not None and result.score >= item.goal):
            return False
    return bool(item.routes)

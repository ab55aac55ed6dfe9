"""Choosing the next item: at the edge of the pupil's ability, not seen lately, the weakest skill brought back.

As TwoA's DifficultyAdapter (E-Nyamsuren/TwoA, TargetScenarioID and calcTargetBetas) after Math Garden:
1. Draw the target chance p from N(0.75, 0.1), drawn again until it lies inside (0.5, 1) (`target_chance`).
2. The target difficulty is β* = θ + ln((1 − p)/p): here per item, with the families it needs, the item
   whose predicted logit θ + Σ_{f∈F} s_f − β is nearest to ln(p/(1 − p)) is served (the same thing).
3. Ties (within TIE logits of the nearest) go to the least played item, then to a random one of those.
Besides:
- recency: the items of the last RECENT_ITEMS answers are left out, and so are the other goals of the rolls of
  the last RECENT_ROLLS answers;
- spaced return of the weakest skill: the weakest family of a missed item is due for review the next day; a good
  review doubles the wait (1, 2, 4 … MAX_INTERVAL days), a missed one makes it 1 day again. When a family is due
  and REVIEW_GAP answers have passed since the last review, the next item is a review: the most due family
  that is weakest (the lowest chance on a typical item), and only items that every way in needs it for;
- a new skill when it is within reach: at the same moments, when no family is due and after NEW_AFTER answers, a
  family the pupil has never met comes in as soon as an item that every way in needs it for has a chance of at least NEW_FLOOR (the
  likeliest such family first); made, it comes back for review in two days, missed, tomorrow. Without this a
  pupil of middling strength was never served a ² or √ problem (their items sit below the 0.75 aimed at), so
  nothing could tell the pupil who can use them from the one who cannot;
- always certified: every bank item carries a witness of its goal (suji.learner.items.certify), and the
  chooser hands back the item only; the caller checks the witness before serving.

Everything here is a pure function of its arguments (the bank, the learner, the item statistics, the recent
keys, the day and a random generator), so a test or the simulation chooses exactly what the server would.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import date, timedelta

import numpy as np

from suji.learner.bank import Bank
from suji.learner.families import FAMILIES, FAMILY_INDEX
from suji.learner.items import Item
from suji.learner.mastery import chance
from suji.learner.model import ItemRating, Learner, best_route

TARGET_MEAN = 0.75  # TwoA's TARGET_DISTR_MEAN
TARGET_SD = 0.1  # TARGET_DISTR_SD
TARGET_LOW, TARGET_HIGH = 0.5, 1.0  # TARGET_LOWER_LIMIT, TARGET_UPPER_LIMIT (both excluded)
TIE = 0.05  # logits: items this close to the nearest count as equally near
RECENT_ITEMS = 60
RECENT_ROLLS = 10
REVIEW_GAP = 4
MAX_INTERVAL = 32
NEW_FLOOR = 0.4  # the chance an item needing a family never met must have for the family to come in
NEW_AFTER = 10  # answers before new families come in: by then the everyday ones (+ −, joined digits) are met
ADAPTIVE, REVIEW, MISTAKE, NEW = "adaptive", "review", "mistake", "new"
MODES = (ADAPTIVE, REVIEW, MISTAKE, NEW)
SPACED = (REVIEW, NEW)  # the modes that reset the count of answers since the last spaced item


def target_chance(rng: random.Random) -> float:
    """The chance of success to aim at, drawn from N(0.75, 0.1) until it lies inside (0.5, 1)."""
    while True:
        p = rng.gauss(TARGET_MEAN, TARGET_SD)
        if TARGET_LOW < p < TARGET_HIGH:
            return p


def target_difficulty(theta: float, p: float) -> float:
    """β* = θ + ln((1 − p)/p): the difficulty a pupil rated θ makes with chance p."""
    return theta + math.log((1.0 - p) / p)


@dataclass(frozen=True, eq=False)
class ItemStats:
    """What answers taught about the bank's items, as arrays in bank order: corrections and play counts."""

    corrections: np.ndarray
    plays: np.ndarray

    @classmethod
    def empty(cls, bank: Bank) -> ItemStats:
        return cls(np.zeros(len(bank)), np.zeros(len(bank), dtype=np.int64))

    @classmethod
    def of(cls, bank: Bank, ratings: Mapping[str, ItemRating]) -> ItemStats:
        stats = cls.empty(bank)
        for key, rating in ratings.items():
            i = bank.index.get(key)
            if i is not None:
                stats.corrections[i] = rating.correction
                stats.plays[i] = rating.plays
        return stats

    def with_item(self, bank: Bank, key: str, rating: ItemRating) -> ItemStats:
        """The same statistics with one item's rating replaced (the simulation's bookkeeping)."""
        i = bank.index[key]
        corrections, plays = self.corrections.copy(), self.plays.copy()
        corrections[i], plays[i] = rating.correction, rating.plays
        return ItemStats(corrections, plays)


@dataclass(frozen=True)
class Choice:
    """The item chosen, the chance the model gives the pupil on it, and why (adaptive, review, mistake)."""

    item: Item
    predicted: float
    mode: str
    family: str | None = None  # the family under review


def predicted_logits(bank: Bank, learner: Learner, stats: ItemStats) -> np.ndarray:
    """The pupil's logit on every item of the bank at once: the best route's θ + Σ_{f∈F_r} s_f − β_r − δ."""
    offsets = np.array(learner.offsets())
    routes = learner.rating.value + bank.route_needs @ offsets - bank.route_cost
    return np.maximum.reduceat(routes, bank.route_start) - stats.corrections


def weakest(learner: Learner, families: Iterable[str], references: dict[str, float]) -> str | None:
    """Of these families, the one with the pupil's lowest chance on a typical item (None for none)."""
    return min(families, key=lambda f: (chance(learner, f, references), FAMILY_INDEX[f]), default=None)


def due_family(learner: Learner, today: date, references: dict[str, float]) -> str | None:
    """The family to review today: of those due, the weakest, else None."""
    return weakest(
        learner, (f for f in FAMILIES if (d := learner.skill(f).due) is not None and d <= today), references
    )


def new_family(bank: Bank, learner: Learner, logits: np.ndarray, allowed: np.ndarray) -> str | None:
    """A family the pupil has never met whose likeliest allowed item (one that every way in needs it for) has a
    chance of at least NEW_FLOOR: of those, the one with the likeliest such item; None for none (and during a
    new pupil's first NEW_AFTER answers, when every family is still unmet)."""
    if learner.rating.plays < NEW_AFTER:
        return None
    floor = math.log(NEW_FLOOR / (1.0 - NEW_FLOOR))
    best: tuple[float, int] | None = None
    for j, family in enumerate(FAMILIES):
        if learner.skill(family).answered:
            continue
        needing = allowed & bank.requires[:, j]
        if not needing.any():
            continue
        likeliest = float(logits[needing].max())
        if likeliest >= floor and (best is None or (likeliest, -j) > (best[0], -best[1])):
            best = (likeliest, j)
    return None if best is None else FAMILIES[best[1]]


def since_spaced(mode: str, since: int) -> int:
    """The count of answers since the last review or new skill, after an answer served in `mode`."""
    return 0 if mode in SPACED else since + 1


def choose(
    bank: Bank,
    learner: Learner,
    stats: ItemStats,
    recent: Iterable[str],
    rng: random.Random,
    today: date,
    references: dict[str, float],
    since_review: int = REVIEW_GAP,
) -> Choice:
    """The next item for a pupil (see the module docstring). `recent` lists item keys, newest first;
    `since_review` counts the answers since the last review item."""
    logits = predicted_logits(bank, learner, stats)
    allowed = np.ones(len(bank), dtype=bool)
    recent = list(recent)
    for key in recent[:RECENT_ITEMS]:
        i = bank.index.get(key)
        if i is not None:
            allowed[i] = False
    rolls = [bank.roll_index[i] for key in recent[:RECENT_ROLLS] if (i := bank.index.get(key)) is not None]
    if rolls:
        seen = np.zeros(bank.roll_count, dtype=bool)
        seen[rolls] = True
        allowed &= ~seen[bank.roll_index]
    mode, family = ADAPTIVE, None
    if since_review >= REVIEW_GAP:
        family = due_family(learner, today, references)
        if family is not None:
            reviewing = allowed & bank.requires[:, FAMILY_INDEX[family]]
            if reviewing.any():
                allowed, mode = reviewing, REVIEW
            else:
                family = None
        if family is None and (family := new_family(bank, learner, logits, allowed)) is not None:
            allowed, mode = allowed & bank.requires[:, FAMILY_INDEX[family]], NEW
    if not allowed.any():  # a pupil who has seen the whole bank lately: recency gives way
        allowed[:] = True
    p = target_chance(rng)
    distance = np.abs(logits - math.log(p / (1.0 - p)))
    distance[~allowed] = np.inf
    nearest = float(distance.min())
    tied = np.flatnonzero(distance <= nearest + TIE)
    fewest = stats.plays[tied].min()
    least_played = tied[stats.plays[tied] == fewest]
    i = int(least_played[rng.randrange(len(least_played))])
    chance_of = 1.0 / (1.0 + math.exp(-float(logits[i])))
    return Choice(bank.items[i], chance_of, mode, family)


def weakest_need(learner: Learner, item: Item, references: dict[str, float]) -> str | None:
    """The family a missed item is put down to: of those the pupil's best route needs, the one with the
    pupil's lowest chance on a typical item."""
    return weakest(learner, best_route(learner, item)[1].family_set, references)


def after_answer(
    learner: Learner,
    item: Item,
    made: bool,
    mode: str,
    family: str | None,
    today: date,
    references: dict[str, float],
) -> Learner:
    """The review dates after an answer. A review (or a new skill's first item) made doubles the family's wait
    (up to MAX_INTERVAL days; two days after a first), a review missed makes it one day; any other miss makes
    the item's weakest family due tomorrow."""
    skills = list(learner.skills)
    if mode in SPACED and family is not None:
        i = FAMILY_INDEX[family]
        interval = min(MAX_INTERVAL, max(1, skills[i].interval) * 2) if made else 1
        skills[i] = replace(skills[i], interval=interval, due=today + timedelta(days=interval))
    elif not made and (weakest := weakest_need(learner, item, references)) is not None:
        i = FAMILY_INDEX[weakest]
        due = today + timedelta(days=1)
        skills[i] = replace(skills[i], interval=1, due=min(skills[i].due, due) if skills[i].due else due)
    return replace(learner, skills=tuple(skills))

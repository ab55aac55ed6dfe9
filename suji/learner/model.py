"""The learner model: ratings for pupils, skill families and items, updated after every answer (pure functions).

The model is the Elo-style one of Math Garden (Klinkenberg, Straatemeier & van der Maas 2011, Computers &
Education 57(2)) as the open TwoA code implements it (E-Nyamsuren/TwoA, TwoA/DifficultyAdapterElo.cs and
DifficultyAdapter.cs), with one rating per skill family beside the overall one:

    predicted chance  E = max over the item's routes r of 1 / (1 + e^(β_r + δ − θ − Σ_{f ∈ F_r} s_f))
        θ the pupil's overall rating, s_f the pupil's rating in each family f of the route (an offset from θ,
        0 at first), β_r the route's prior difficulty (suji.learner.items) and δ the item's correction learned
        from answers: a pupil takes the way in that suits them. TwoA's Elo adapter writes
        E = 1/(1 + 10^((β − θ)/2.302573)), the same curve (10^(x/ln 10) = e^x).
    uncertainty       U ← clamp(U − 1/MAX_PLAY + days_away/MAX_DELAY, 0, 1)
        for the pupil, each family and the item, before each update: it falls with every play and grows with
        days away (TwoA's calcThetaUncertainty/calcBetaUncertainty; days counted whole, at most MAX_DELAY).
    K factor          K_θ = K_C·(1 + K_UP·U_θ − K_DOWN·U_β) + (K_CAL while fewer than CAL_LENGTH plays)
                      K_β = K_C·(1 + K_UP·U_β − K_DOWN·U_θ) + (K_CAL while the item has fewer than CAL_LENGTH)
        (TwoA's calcThetaKFctr/calcBetaKFctr: a sure rating moves little, an unsure one much.)
    update            θ ← θ + K_θ·(S − E),  s_f ← s_f + FAMILY_SHARE·K_f·(S − E),  δ ← δ + K_β·(E − S)
        where K_f is K_θ's formula with the family's own uncertainty and play count, and S is the graded outcome.
        The families that move are those of the formula the pupil wrote when the goal was made, else those of
        the route the model expected, each of those by its share of the blame: the family with the worst
        recent record takes the whole step, one the pupil has lately made every time none (the skill
        hierarchy of Pelánek's Elo variants for education, with the weakest link blamed for a miss).

TwoA's constants are kept where they fit: MAX_PLAY 40, MAX_DELAY 30 days, K_UP 4, K_DOWN 0.5. Its K_C 0.0075
and its calibration (K_CAL 0.1 for the first 30 plays) are made for logs of many thousands of plays and move a
new pupil too slowly here, where a pupil should be served at their level after 15 items: K_C and K_CAL below
were tuned with the simulation (suji.learner.simulate) and the API checker of the tests.

The graded outcome S (`outcome`): the goal made without hints is 1; each hint takes a quarter, as class mode
prices a hint at a quarter of the problem's best score (suji.play.classroom.grading.hint_price), so four hints
leave 0; giving up, a wrong formula or a target below the goal's points is 0. Time is recorded but by default
does not change S: for children speed pressure does more harm than the information is worth. With a time limit
d (`time_limit`), Math Garden's high-speed-high-stakes idea applies as a weight: the update is multiplied by
1 − min(t, d)/d, so a slow answer tells the model less.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date, datetime

from suji.learner.families import FAMILIES, FAMILY_INDEX, families_of
from suji.learner.items import Item, Route
from suji.rules.scoring import CheckResult

# TwoA's constants (DifficultyAdapter.cs / DifficultyAdapterElo.cs: DEF_MAX_PLAY, DEF_MAX_DELAY, DEF_K_UP, DEF_K_DOWN).
MAX_PLAY = 40
MAX_DELAY = 30
K_UP = 4.0
K_DOWN = 0.5
# Ours (TwoA: DEF_K 0.0075, DEF_PLAYER_CAL_K 0.1, DEF_PLAYER_CAL_LENGTH 30; see the module docstring).
K_C = 0.08
K_CAL = 0.35
CAL_LENGTH = 30  # TwoA's DEF_PLAYER_CAL_LENGTH
FAMILY_SHARE = 0.6  # a family's rating moves at this share of the overall one's pace
# A family's offset is what the family takes from (or, up to this, adds to) the pupil's overall rating. Being
# able to do a thing is what the overall rating says; what families add up to is their lack, so a strong pupil's
# several families cannot add up to more than the pupil is.
FAMILY_CEILING = 0.25
OVERFLOW = 1.0  # what a family at its ceiling cannot take goes to the overall rating (their mean, this share)
HINT_STEPS = 4  # hints a problem has; each costs a quarter (class mode's price)
INITIAL_RATING = 0.0
INITIAL_UNCERTAINTY = 1.0  # TwoA's INITIAL_UNCERTAINTY


def expected(logit: float) -> float:
    """The chance of success 1/(1 + e^(−logit)) for logit = θ + Σ s_f − β (kept away from overflow)."""
    if logit < -40:
        return 0.0
    return 1.0 / (1.0 + math.exp(-logit))


def new_uncertainty(uncertainty: float, days_away: int) -> float:
    """TwoA's uncertainty step: down 1/MAX_PLAY for a play, up days/MAX_DELAY for days away, within [0, 1]."""
    days = min(max(days_away, 0), MAX_DELAY)
    return min(1.0, max(0.0, uncertainty - 1.0 / MAX_PLAY + days / MAX_DELAY))


def k_factor(own: float, other: float, plays: int) -> float:
    """TwoA's K: K_C·(1 + K_UP·own − K_DOWN·other), plus K_CAL while there are fewer than CAL_LENGTH plays."""
    return K_C * (1.0 + K_UP * own - K_DOWN * other) + (K_CAL if plays < CAL_LENGTH else 0.0)


def days_between(earlier: datetime | None, later: datetime) -> int:
    """Whole days from `earlier` to `later` (0 when there is no earlier play), as TwoA's TimeSpan.Days."""
    if earlier is None:
        return 0
    return max(0, (later - earlier).days)


def outcome(made_goal: bool, hints_used: int = 0) -> float:
    """The graded outcome S: 1 for the goal made without hints, a quarter less per hint, 0 for anything else."""
    if not made_goal:
        return 0.0
    return max(0.0, 1.0 - min(max(hints_used, 0), HINT_STEPS) / HINT_STEPS)


def time_weight(seconds: float | None, time_limit: float | None) -> float:
    """How much an answer moves the ratings: 1, or 1 − min(t, d)/d when a time limit d is set."""
    if time_limit is None or time_limit <= 0 or seconds is None:
        return 1.0
    return 1.0 - min(max(seconds, 0.0), time_limit) / time_limit


@dataclass(frozen=True)
class Rating:
    """One rating with what its K factor needs: the value, its uncertainty, how often played and when last."""

    value: float = INITIAL_RATING
    uncertainty: float = INITIAL_UNCERTAINTY
    plays: int = 0
    last_played: datetime | None = None

    def stepped(self, now: datetime) -> Rating:
        """The uncertainty this play starts from (TwoA updates it before it computes K)."""
        return replace(
            self, uncertainty=new_uncertainty(self.uncertainty, days_between(self.last_played, now))
        )

    def moved(self, change: float, now: datetime) -> Rating:
        return replace(self, value=self.value + change, plays=self.plays + 1, last_played=now)

    def to_dict(self) -> dict:
        return {
            "value": self.value, "uncertainty": self.uncertainty, "plays": self.plays,
            "last_played": self.last_played.isoformat() if self.last_played else None,
        }  # fmt: skip

    @classmethod
    def from_dict(cls, data: dict) -> Rating:
        last = data.get("last_played")
        return cls(
            float(data.get("value", INITIAL_RATING)), float(data.get("uncertainty", INITIAL_UNCERTAINTY)),
            int(data.get("plays", 0)), datetime.fromisoformat(last) if last else None,
        )  # fmt: skip


@dataclass(frozen=True)
class Skill:
    """A pupil's record in one family: the rating offset, answers and goals made, the last few outcomes, and
    when the family is next due for review (spaced: suji.learner.selection)."""

    rating: Rating = Rating()
    made: int = 0
    recent: tuple[float, ...] = ()  # the last RECENT outcomes of items needing the family, oldest first
    due: date | None = None
    interval: int = 0  # days until the next review after a good one

    @property
    def answered(self) -> int:
        return self.rating.plays

    def to_dict(self) -> dict:
        return {
            "rating": self.rating.to_dict(), "made": self.made, "recent": list(self.recent),
            "due": self.due.isoformat() if self.due else None, "interval": self.interval,
        }  # fmt: skip

    @classmethod
    def from_dict(cls, data: dict) -> Skill:
        due = data.get("due")
        return cls(
            Rating.from_dict(data.get("rating", {})), int(data.get("made", 0)),
            tuple(float(x) for x in data.get("recent", ()))[-RECENT:], date.fromisoformat(due) if due else None,
            int(data.get("interval", 0)),
        )  # fmt: skip


RECENT = 5


@dataclass(frozen=True)
class Learner:
    """Everything the model knows about one pupil: the overall rating and one Skill per family."""

    rating: Rating = Rating()
    skills: tuple[Skill, ...] = tuple(Skill() for _ in FAMILIES)

    @property
    def answered(self) -> int:
        return self.rating.plays

    def skill(self, family: str) -> Skill:
        return self.skills[FAMILY_INDEX[family]]

    def offsets(self) -> list[float]:
        """The family offsets s_f in FAMILIES order (what the chooser adds up per item)."""
        return [s.rating.value for s in self.skills]

    def logit(self, needs: frozenset[str], difficulty: float) -> float:
        """θ + Σ s_f − β for an item needing these families."""
        return self.rating.value + sum(self.skill(f).rating.value for f in needs) - difficulty

    def to_dict(self) -> dict:
        return {
            "rating": self.rating.to_dict(),
            "skills": {f: s.to_dict() for f, s in zip(FAMILIES, self.skills, strict=True)},
        }

    @classmethod
    def from_dict(cls, data: dict) -> Learner:
        skills = data.get("skills", {})
        return cls(
            Rating.from_dict(data.get("rating", {})),
            tuple(Skill.from_dict(skills.get(f, {})) for f in FAMILIES),
        )


@dataclass(frozen=True)
class ItemRating:
    """What answers have taught about one item: the correction δ to its prior, with TwoA's bookkeeping."""

    rating: Rating = Rating(value=0.0)
    made: int = 0

    @property
    def correction(self) -> float:
        return self.rating.value

    @property
    def plays(self) -> int:
        return self.rating.plays


@dataclass(frozen=True)
class Update:
    """One answer's effect: the new learner and item, the chance the model gave, and the outcome used."""

    learner: Learner
    item: ItemRating
    expected: float
    outcome: float
    credited: frozenset[str]  # the families whose ratings moved


def written_families(result: CheckResult) -> frozenset[str] | None:
    """The families of what a pupil wrote, as scored (redundant dice stripped), or None without a target."""
    if not (result.valid and result.target is not None):
        return None
    return families_of([result.dice[i].face for i in result.kept]) or None


def _blame(learner: Learner, families: Iterable[str]) -> dict[str, float]:
    """How much of a miss each family takes: the one with the worst recent record all of it, a family the pupil
    has lately made every time none (1 − its recent mean outcome, against the worst's; no record counts 0.5)."""
    doubt = {f: 1.0 - (sum(r) / len(r) if (r := learner.skill(f).recent) else 0.5) for f in families}
    worst = max(doubt.values(), default=0.0)
    return {f: d / worst if worst > 0 else 1.0 for f, d in doubt.items()}


def best_route(learner: Learner, item: Item, correction: float = 0.0) -> tuple[float, Route]:
    """The pupil's logit on an item by the route that suits the pupil best, and that route."""
    return max(
        (
            (learner.logit(route.family_set, cost + correction), route)
            for route, cost in zip(item.routes, item.costs, strict=True)
        ),
        key=lambda found: found[0],
    )


def update(
    learner: Learner,
    item: Item,
    rating: ItemRating,
    score: float,
    now: datetime,
    used: frozenset[str] | None = None,
    weight: float = 1.0,
) -> Update:
    """The ratings after one answer with graded outcome `score` (S) at `now` (see the module docstring).

    The families credited are those of the formula the pupil wrote (`used`, for a goal made), else those of
    the route the model expected the pupil to take. `weight` scales every change (the time weight).
    Review dates are the chooser's business (suji.learner.selection.after_answer).
    """
    player = learner.rating.stepped(now)
    target = rating.rating.stepped(now)
    logit, route = best_route(learner, item, rating.correction)
    chance = expected(logit)
    error = weight * (score - chance)
    k_player = k_factor(player.uncertainty, target.uncertainty, player.plays)
    k_item = k_factor(target.uncertainty, player.uncertainty, target.plays)
    made = 1 if score > 0 else 0
    credited = used if used else route.family_set
    skills = list(learner.skills)
    blame = _blame(learner, credited) if error < 0 else dict.fromkeys(credited, 1.0)
    overflow = 0.0
    for family in credited:
        i = FAMILY_INDEX[family]
        skill = skills[i]
        own = skill.rating.stepped(now)
        step = FAMILY_SHARE * k_factor(own.uncertainty, target.uncertainty, own.plays) * error * blame[family]
        kept = min(step, max(0.0, FAMILY_CEILING - own.value)) if step > 0 else step
        overflow += step - kept
        skills[i] = replace(
            skill,
            rating=own.moved(kept, now),
            made=skill.made + made,
            recent=(*skill.recent, score)[-RECENT:],
        )
    if credited:
        overflow /= len(credited)
    return Update(
        learner=Learner(player.moved(k_player * error + OVERFLOW * overflow, now), tuple(skills)),
        item=ItemRating(target.moved(-k_item * error, now), rating.made + made),
        expected=chance,
        outcome=score,
        credited=frozenset(credited),
    )

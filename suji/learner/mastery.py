"""Mastery levels per skill family (as Khan Academy names them), days in a row, and what an answer changed.

A family's level comes from its record (suji.learner.model.Skill) and the chance the model gives the pupil on
a typical item that needs the family — one of the bank's median difficulty among the "any target" items that
need it (`reference`):

    Not started   no answer yet needed the family
    Attempted     at least one did
    Familiar      a goal made with it and a typical item's chance at least FAMILIAR (0.5), or FAMILIAR_MADE
                  goals made with it whatever the chance (a weak pupil who keeps making goals with × sees
                  it: "Attempted" after 19 goals made said nothing of their progress)
    Proficient    PROFICIENT_MADE goals made with it, and a chance at least PROFICIENT (0.7)
    Mastered      MASTERED_MADE goals made, a chance at least MASTERED (0.85), and the last three answers that
                  needed it all made without more than one hint

Data flows: a Learner (and the one before an answer) → `levels` → `changes`, the lines a page shows after an
answer ("√ is now Familiar", "Your rating went up"). Days in a row (`Days`) count local days with an answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta

import numpy as np

from suji.core.decimals import round_half_up
from suji.core.i18n import N_, translate
from suji.learner.bank import Bank
from suji.learner.families import FAMILIES, FAMILY_INDEX, FAMILY_NAMES
from suji.learner.model import Learner, Skill, expected

NOT_STARTED, ATTEMPTED, FAMILIAR, PROFICIENT, MASTERED = (
    "not_started", "attempted", "familiar", "proficient", "mastered",
)  # fmt: skip
LEVELS = (NOT_STARTED, ATTEMPTED, FAMILIAR, PROFICIENT, MASTERED)
LEVEL_NAMES = {
    NOT_STARTED: N_("Not started"),
    ATTEMPTED: N_("Attempted"),
    FAMILIAR: N_("Familiar"),
    PROFICIENT: N_("Proficient"),
    MASTERED: N_("Mastered"),
}
FAMILIAR_CHANCE, PROFICIENT_CHANCE, MASTERED_CHANCE = 0.5, 0.7, 0.85
FAMILIAR_MADE, PROFICIENT_MADE, MASTERED_MADE = 3, 3, 5
MASTERED_RECENT = 3  # the last answers that must all be made (outcome at least 0.75: at most one hint)

# Several skills back to one level after one answer: one line, not one a skill (five such lines after a pupil's
# first miss read as a telling-off).
LEVELS_DOWN_TEXT = N_("%(families)s are back to %(level)s. Keep practising and they will come back.")
CHANGE_TEXT = {
    "level_up": N_("%(family)s is now %(level)s."),
    "level_down": N_("%(family)s is back to %(level)s. Keep practising and it will come back."),
    "rating_up": N_("Your rating went up by %(points)s."),
    "rating_down": N_("Your rating went down by %(points)s. The next problems will be a little easier."),
    "rating_same": N_("Your rating stayed the same."),
}


def reference(bank: Bank) -> dict[str, float]:
    """The difficulty of a typical item needing each family: the median prior of the "any target" items (the
    drills' kind of problem) whose easiest route needs it (of all the items needing it if there are none; 0 for
    none). Points goals are left out: they are there to stretch strong pupils, and counting them made the
    typical × problem so hard that a pupil who made 19 goals with × in a row still read "Attempted"."""
    plain = np.array([item.goal == 0 for item in bank.items], dtype=bool)
    found = {}
    for j, family in enumerate(FAMILIES):
        needing = bank.needs[:, j] > 0
        priors = bank.prior[needing & plain] if (needing & plain).any() else bank.prior[needing]
        found[family] = float(np.median(priors)) if len(priors) else 0.0
    return found


def typical_shares(bank: Bank) -> dict[str, float]:
    """How often each family is needed on a typical problem: its share of the "any target" items whose easiest
    route needs it (those items are the drills' kind of problem)."""
    plain = np.array([item.goal == 0 for item in bank.items])
    needs = bank.needs[plain]
    return {family: float(needs[:, j].mean()) if len(needs) else 0.0 for j, family in enumerate(FAMILIES)}


def overall_rating(learner: Learner, shares: dict[str, float]) -> float:
    """The rating a page and the API show: θ + Σ_f share_f·s_f, the pupil's logit on a typical problem, each
    family's offset counted by how often a typical problem needs it (suji.learner.model keeps θ and the s_f)."""
    return learner.rating.value + sum(shares[f] * learner.skill(f).rating.value for f in FAMILIES)


def chance(learner: Learner, family: str, references: dict[str, float]) -> float:
    """The chance the model gives the pupil on a typical item of the family."""
    return expected(learner.rating.value + learner.skill(family).rating.value - references[family])


def level(skill: Skill, typical_chance: float) -> str:
    """The mastery level of one family (see the module docstring)."""
    if skill.answered == 0:
        return NOT_STARTED
    if skill.made == 0 or (typical_chance < FAMILIAR_CHANCE and skill.made < FAMILIAR_MADE):
        return ATTEMPTED
    recent = skill.recent[-MASTERED_RECENT:]
    if (
        skill.made >= MASTERED_MADE
        and typical_chance >= MASTERED_CHANCE
        and len(recent) == MASTERED_RECENT
        and min(recent) >= 0.75
    ):
        return MASTERED
    if skill.made >= PROFICIENT_MADE and typical_chance >= PROFICIENT_CHANCE:
        return PROFICIENT
    return FAMILIAR


def levels(learner: Learner, references: dict[str, float]) -> dict[str, str]:
    """Every family's mastery level, in FAMILIES order."""
    return {f: level(learner.skill(f), chance(learner, f, references)) for f in FAMILIES}


def display_rating(value: float) -> int:
    """The rating as pages show it: 1000 + 100·θ, whole (a pupil reads 1150, not 1.5), rounded half up."""
    return int(round_half_up(1000 + 100 * value))


@dataclass(frozen=True)
class Change:
    """One line of what an answer changed: a code of CHANGE_TEXT and its parameters (family, level, points)."""

    code: str
    family: str | None = None
    level: str | None = None
    points: int = 0


def changes(
    before: Learner, after: Learner, references: dict[str, float], shares: dict[str, float] | None = None
) -> list[Change]:
    """What an answer changed: families whose level moved (up first; a first try is no news), then the overall
    rating (`shares`: suji.learner.mastery.overall_rating; θ alone without them)."""
    old, new = levels(before, references), levels(after, references)
    found = []
    for family in FAMILIES:
        if (
            old[family] != new[family]
            and new[family] not in (NOT_STARTED, ATTEMPTED)
            or (old[family] not in (NOT_STARTED, ATTEMPTED) and new[family] == ATTEMPTED)
        ):
            up = LEVELS.index(new[family]) > LEVELS.index(old[family])
            found.append(Change("level_up" if up else "level_down", family, new[family]))
    found.sort(key=lambda c: (c.code != "level_up", FAMILY_INDEX[c.family or FAMILIES[0]]))

    def rating(learner: Learner) -> float:
        return overall_rating(learner, shares) if shares is not None else learner.rating.value

    points = display_rating(rating(after)) - display_rating(rating(before))
    if points > 0:
        found.append(Change("rating_up", points=points))
    elif points < 0:
        found.append(Change("rating_down", points=-points))
    else:
        found.append(Change("rating_same"))
    return found


@dataclass(frozen=True)
class Days:
    """Days in a row with at least one answer (local days), and the longest run so far."""

    last: date | None = None
    streak: int = 0
    longest: int = 0

    def answered_on(self, day: date) -> Days:
        """The run after an answer on `day`: the same day keeps it, the next day adds one, a gap starts again."""
        if self.last == day:
            return self
        streak = self.streak + 1 if self.last is not None and day - self.last == timedelta(days=1) else 1
        return Days(day, streak, max(self.longest, streak))

    def current(self, today: date) -> int:
        """The run as of `today`: still alive if the last answer was today or yesterday."""
        if self.last is None or (today - self.last).days > 1:
            return 0
        return self.streak


def change_message(change: Change, lang: str) -> str:
    """One change as a line of text in `lang` (the API's and the pages' one wording)."""
    params: dict[str, object] = {"points": change.points}
    if change.family:
        params["family"] = translate(FAMILY_NAMES[change.family], lang)
    if change.level:
        params["level"] = translate(LEVEL_NAMES[change.level], lang)
    return translate(CHANGE_TEXT[change.code], lang, **params)


def change_lines(changes: Sequence[Change], lang: str) -> list[str]:
    """What an answer changed, as the pages show it: the skills that went back to one level in one line."""
    lines: list[str] = []
    downs: dict[str, list[str]] = {}  # level → the families back to it, in the order met
    for change in changes:
        if change.code == "level_down" and change.level and change.family:
            downs.setdefault(change.level, []).append(change.family)
    for change in changes:
        if change.code != "level_down" or not change.level or len(downs.get(change.level, ())) < 2:
            lines.append(change_message(change, lang))
        elif change.family == downs[change.level][0]:  # the group's line, where its first member stood
            names = [translate(FAMILY_NAMES[f], lang) for f in downs[change.level]]
            families = "".join(f"「{n}」" for n in names) if lang == "ja" else ", ".join(names[:-1]) + " and " + names[-1]
            lines.append(translate(LEVELS_DOWN_TEXT, lang, families=families, level=translate(LEVEL_NAMES[change.level], lang)))
    return lines

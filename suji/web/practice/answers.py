"""Recording one practice answer: one transaction that locks the profile, then the item, and writes both with
the answer's row (see suji.web.practice.store for who the pupil is and what a problem's id holds).

Data flows: the problem (Pending) and what the pupil sent → the rules' `check` → the graded outcome
(suji.learner.model.outcome) → under the locks: the learner and the item's rating as stored → the library's
`update`, `after_answer`, `Days` and `changes` → the rows → an `Answered` value for the page or the API.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from suji.learner.items import Item
from suji.learner.mastery import Change, changes
from suji.learner.model import ItemRating, Learner, Rating, outcome, time_weight, update, written_families
from suji.learner.selection import after_answer, since_spaced
from suji.rules.language.printing import format_faces
from suji.rules.language.reader import MAX_FORMULA_LENGTH
from suji.rules.scoring import CheckResult, check
from suji.web.extensions import db
from suji.web.models import insert_or_keep, utcnow
from suji.web.practice import store
from suji.web.practice.models import PracticeAnswer, PracticeItemStat, PracticeProfile
from suji.web.practice.store import Conflict, Holder, Pending

MAX_FORMULA = MAX_FORMULA_LENGTH  # what a stored formula may hold (the column's size)


@dataclass(frozen=True)
class Answered:
    """What an answer came to: the check, the outcome, the learner after it and what changed."""

    answer_id: int
    item: Item
    result: CheckResult | None  # None for giving up
    made_goal: bool
    outcome: float
    learner: Learner
    answered: int
    changes: tuple[Change, ...]


def locked_profile(public_id: str, now: datetime) -> PracticeProfile:
    """The pupil's profile row, made if it is not there, locked until the transaction ends."""
    insert_or_keep(
        PracticeProfile,
        {"public_id": public_id, "learner_json": json.dumps(Learner().to_dict()), "rating": 0.0, "answered": 0,
         "since_review": store.REVIEW_GAP, "days_streak": 0, "days_longest": 0, "created_at": now,
         "last_seen_at": now, "version": 1},
    )  # fmt: skip
    return db.session.scalars(
        select(PracticeProfile).where(PracticeProfile.public_id == public_id).with_for_update()
    ).one()


def _locked_item(key: str) -> PracticeItemStat:
    insert_or_keep(
        PracticeItemStat, {"item_key": key, "correction": 0.0, "uncertainty": 1.0, "plays": 0, "made": 0}
    )
    return db.session.scalars(
        select(PracticeItemStat).where(PracticeItemStat.item_key == key).with_for_update()
    ).one()


def _kept_formula(result: CheckResult | None) -> str:
    """What is kept of the formula: in print (２１^2 → 21²); nothing for giving up. (Only formulas of the dice
    are graded, so free text a pupil types is never stored.)"""
    if result is None:
        return ""
    return format_faces([d.face for d in result.dice])[:MAX_FORMULA]


def _mistake(result: CheckResult | None, made: bool) -> str | None:
    """What went wrong: "not_target" or "below_goal" (None when made or given up). A formula the checker refuses
    is no answer (`record` raises its error), so no other code is kept now; older rows may hold one."""
    if made or result is None:
        return None
    return "not_target" if result.target is None else "below_goal"


def record(
    holder: Holder,
    pending: Pending,
    formula: str | None,
    hints_used: int,
    seconds: float | None,
    now: datetime | None = None,
    also: Callable[[PracticeAnswer], None] | None = None,
) -> Answered:
    """Record one answer (formula None: giving up) in one transaction; Conflict if the problem was answered.

    A formula that cannot be graded (an empty box, a typo, a die that was not rolled: the checker's error, which
    the page's live line has shown already) is no answer: its FormulaError is raised before anything is kept, so
    a slip of the finger never moves a rating, and the pupil can mend it and send it again.

    `also(row)` writes what another area keeps of the answer in the same transaction, after the profile's lock
    (a class's adaptive homework counts it: suji.web.classes.work)."""
    now = now or utcnow()
    item = store.bank().get(pending.key)
    if item is None:
        raise store.UnknownProblem
    result = check(formula, item.roll) if formula is not None else None
    if result is not None and result.error is not None:
        raise result.error
    made = bool(result and result.valid and result.target is not None and result.score >= item.goal)
    hints = max(hints_used, pending.hints)
    score = outcome(made, hints)
    today = store.local_day(now)
    references = store.references()
    try:
        profile = locked_profile(holder.public_id, now)
        if store.answered(profile, pending.nonce):
            raise Conflict
        before = store.learner_of(profile)
        stat = _locked_item(item.key)
        rating = ItemRating(
            Rating(stat.correction, stat.uncertainty, stat.plays, stat.last_played_at), stat.made
        )
        step = update(
            before, item, rating, score, now, written_families(result) if made and result else None,
            time_weight(seconds, store.time_limit()),
        )  # fmt: skip
        after = after_answer(step.learner, item, made, pending.mode, pending.family, today, references)
        days = store.days_of(profile).answered_on(today)
        changed = tuple(changes(before, after, references, store.shares()))
        profile.learner_json = json.dumps(after.to_dict())
        profile.rating = store.overall(after)
        profile.answered = after.answered
        profile.since_review = since_spaced(pending.mode, profile.since_review)
        profile.days_last, profile.days_streak, profile.days_longest = days.last, days.streak, days.longest
        profile.last_seen_at = now
        stat.correction, stat.uncertainty = step.item.rating.value, step.item.rating.uncertainty
        stat.plays, stat.made, stat.last_played_at = step.item.plays, step.item.made, now
        row = PracticeAnswer(
            profile_id=profile.id, problem=pending.nonce, item_key=item.key, mode=pending.mode, level=item.level,
            goal=item.goal, predicted=pending.predicted, expected=round(step.expected, 4), made_goal=made,
            gave_up=formula is None, score=result.score if made and result else 0, outcome=score, hints_used=hints,
            seconds=seconds, formula=_kept_formula(result),
            error_code=_mistake(result, made),
            rating_after=store.overall(after), changes_json=json.dumps([c.__dict__ for c in changed]),
            served_at=pending.served_at, answered_at=now,
        )  # fmt: skip
        db.session.add(row)
        db.session.flush()
        answer_id = row.id
        if also is not None:
            also(row)
        db.session.commit()
    except (IntegrityError, StaleDataError):
        db.session.rollback()
        raise Conflict from None
    except BaseException:
        db.session.rollback()
        raise
    if (
        before.answered == 0
    ):  # a new profile, in a transaction of its own: the ones past the retention period go
        store.purge_expired(now)
    return Answered(answer_id, item, result, made, score, after, after.answered, changed)

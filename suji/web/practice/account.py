"""A pupil's own data: the sign-in code, signing in on another device, the download, deleting it all, retention.

What is kept (the README and the "My data" page say the same): a profile row (a random id, the hash of the
sign-in code, the learner model's ratings, days in a row, when it was made and last used) and one row per
answer (the item, the formula in print when it read as dice, the outcome, hints, seconds, times, the rating
after it). No name, no email, no address. A profile is deleted with all its answers RETENTION days after its
last answer (SUJI_PRACTICE_RETENTION_DAYS, 365 by default), or at once when the pupil deletes it. What answers
taught about the items (practice_item_stats) names nobody and stays.

Data flows: the cookie's holder (suji.web.practice.store) → the profile row → the export document or the
deleted rows; a typed code → suji.learner.signin → the profile it names → a holder for this device.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from suji.learner.families import FAMILIES
from suji.learner.mastery import display_rating, levels
from suji.learner.signin import SigninError, clean_code, code_hash, new_code, printed
from suji.play.classroom.codes import typed_code
from suji.web.clients import FailureLimit
from suji.web.extensions import db
from suji.web.models import utcnow
from suji.web.practice import store
from suji.web.practice.answers import locked_profile
from suji.web.practice.models import PracticeAnswer, PracticeProfile, PracticeSigninFailure
from suji.web.practice.store import Holder, keep_holder

EXPORT_FORMAT = 1
# Who else keeps a profile (a class keeps its pupils' practice, suji.web.classes): each callable gives the name
# of the class that keeps this profile, or None. Such a profile has no practice code of its own (the pupil signs
# in with their class card) and is deleted by the teacher with the pupil, not from the practice pages.
MANAGED_BY: list[Callable[[PracticeProfile], str | None]] = []


def managed_by(profile: PracticeProfile | None) -> str | None:
    """The class that keeps this profile, or None for a pupil's own practice."""
    if profile is None:
        return None
    return next((name for name in (hook(profile) for hook in MANAGED_BY) if name), None)


def code_shown(holder: Holder, profile: PracticeProfile | None) -> str | None:
    """The sign-in code to show on this device: the cookie's, while it is still the profile's code."""
    if holder.code and profile is not None and profile.signin_hash == code_hash(holder.code):
        return printed(holder.code)
    return None


def make_code(holder: Holder) -> Holder:
    """A new sign-in code for the pupil (the old one stops working); makes the profile if there is none yet."""
    now = utcnow()
    for _ in range(5):
        code = new_code()
        try:
            profile = locked_profile(holder.public_id, now)
            profile.signin_hash = code_hash(code)
            profile.last_seen_at = now
            db.session.commit()
        except IntegrityError:  # the same code as another profile's: 1 in 10¹¹, try another
            db.session.rollback()
            continue
        holder = Holder(holder.public_id, code, holder.pending)
        keep_holder(holder)
        return holder
    raise RuntimeError("no free sign-in code")  # pragma: no cover


# Wrong sign-in codes, per browser and per address (a class signing in from its cards behind one school address
# must not be locked out by one pupil's typing: suji.web.clients).
SIGNIN_LIMIT = FailureLimit("practice-signin", PracticeSigninFailure, store.SIGNIN_WINDOW,
                            browser_limit=store.SIGNIN_FAILURES, address_limit=store.SIGNIN_ADDRESS_FAILURES)  # fmt: skip


def _typed(text: object) -> str:
    """A code as the limit counts it: as typed, without case, width, spaces or dashes (typed twice, it counts once)."""
    return typed_code(text)[:40]


def sign_in(text: object, now: datetime | None = None) -> Holder:
    """The holder for this device of the profile a typed code names, or SigninError (wrong codes are counted per
    browser and per address: after SIGNIN_FAILURES distinct ones from a browser, or SIGNIN_ADDRESS_FAILURES from
    its address, in SIGNIN_WINDOW, every code is refused until the window has passed)."""
    now = now or utcnow()
    if SIGNIN_LIMIT.refused(now=now):
        raise SigninError("too_many")
    try:
        code = clean_code(text)
        profile = db.session.scalar(
            select(PracticeProfile).where(PracticeProfile.signin_hash == code_hash(code))
        )
        if profile is None:
            raise SigninError("unknown_code")
    except SigninError as error:
        if error.code == "unknown_code":
            SIGNIN_LIMIT.count(_typed(text), now)
        raise
    holder = Holder(profile.public_id, code)
    keep_holder(holder)
    return holder


def delete_everything(holder: Holder) -> int:
    """Delete the pupil's profile and every answer (the rows, not a mark on them); returns the answers deleted."""
    profile = store.profile_of(holder)
    if profile is None:
        keep_holder(None)
        return 0
    gone = delete_profiles([profile.id])
    db.session.commit()
    keep_holder(None)
    return gone


def delete_profiles(profile_ids: list[int]) -> int:
    """Delete these profiles and every answer of theirs, in the caller's transaction (a class that deletes a
    pupil can call this for the pupil's practice: suji.web.classes.store.PUPIL_DATA). Returns the answers."""
    if not profile_ids:
        return 0
    gone = db.session.execute(
        delete(PracticeAnswer).where(PracticeAnswer.profile_id.in_(profile_ids))
    ).rowcount
    db.session.execute(delete(PracticeProfile).where(PracticeProfile.id.in_(profile_ids)))
    return gone or 0


def export(holder: Holder) -> dict:
    """Everything kept about the pupil, as one JSON document (what the "Download my data" button gives)."""
    profile = store.profile_of(holder)
    if profile is None:
        return {"format": EXPORT_FORMAT, "profile": None, "answers": []}
    learner = store.learner_of(profile)
    kinds = levels(learner, store.references())
    answers = db.session.scalars(
        select(PracticeAnswer).where(PracticeAnswer.profile_id == profile.id).order_by(PracticeAnswer.id)
    )
    return {
        "format": EXPORT_FORMAT,
        "exported_at": utcnow().isoformat() + "Z",
        "retention_days": store.retention_days(),
        "profile": {
            "created_at": profile.created_at.isoformat() + "Z",
            "last_answer_at": profile.last_seen_at.isoformat() + "Z",
            "has_signin_code": profile.signin_hash is not None,
            "rating": learner.rating.value,
            "rating_shown": display_rating(learner.rating.value),
            "answered": learner.answered,
            "days_in_a_row": store.days_of(profile).current(store.local_day(utcnow())),
            "longest_days_in_a_row": profile.days_longest,
            "skills": {
                f: {
                    "offset": learner.skill(f).rating.value,
                    "answered": learner.skill(f).answered,
                    "made": learner.skill(f).made,
                    "level": kinds[f],
                    "review_due": learner.skill(f).due.isoformat() if learner.skill(f).due else None,
                }
                for f in FAMILIES
            },  # fmt: skip
            "model": json.loads(profile.learner_json),
        },
        "answers": [
            {
                "answered_at": a.answered_at.isoformat() + "Z",
                "served_at": a.served_at.isoformat() + "Z",
                "item": a.item_key,
                "mode": a.mode,
                "level": a.level,
                "goal_score": a.goal,
                "formula": a.formula,
                "made_goal": a.made_goal,
                "gave_up": a.gave_up,
                "score": a.score,
                "outcome": a.outcome,
                "hints_used": a.hints_used,
                "seconds": a.seconds,
                "mistake": a.error_code,
                "predicted_success": a.predicted,
                "rating_after": a.rating_after,
            }  # fmt: skip
            for a in answers
        ],
    }

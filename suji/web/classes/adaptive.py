"""A class's adaptive homework: N items or N minutes of the pupil's own practice, done at their own pace.

    the pupil's work row ──serve──▶ the item on their screen, chosen by the learner model (suji.web.practice)
        and kept in the row: every device shows the same item, and a server restart loses nothing
    an answer ──practice's transaction (suji.web.practice.answers.record: the profile locked, the model
        updated)──▶ and in it, the work row locked: items done and made, the time counted
        (suji.play.school.homework.item_seconds), the attempt's row, finished once the amount is done

The practice is the pupil's own profile, the one the class keeps for them (ClassPupil.profile_id): homework
answers teach the model as practice answers do, and show on "My progress".
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from sqlalchemy.orm.exc import StaleDataError

from suji.learner.hints import route_hints
from suji.learner.items import Item
from suji.learner.model import best_route
from suji.play.school import homework as rules
from suji.web.classes.models import Assignment, AssignmentAttempt, AssignmentWork, ClassPupil
from suji.web.classes.work import WorkError, _late, _locked_work, _touch, homework_of
from suji.web.extensions import db
from suji.web.models import utcnow
from suji.web.practice import answers as practice_answers
from suji.web.practice import store as practice
from suji.web.practice.models import PracticeAnswer, PracticeProfile
from suji.web.practice.store import Holder, Pending


@dataclass(frozen=True)
class Served:
    """The item on the pupil's screen, with what the page shows beside it."""

    pending: Pending
    item: Item
    work: AssignmentWork
    profile: PracticeProfile


def _profile(pupil: ClassPupil) -> PracticeProfile:
    from suji.web.classes.signin import ensure_profile

    if pupil.profile_id is None:
        ensure_profile(pupil)
    return db.session.get(PracticeProfile, pupil.profile_id)


def pending_of(work: AssignmentWork | None) -> Pending | None:
    if work is None or not work.pending_json:
        return None
    try:
        return Pending.from_list(json.loads(work.pending_json))
    except ValueError:
        return None


def serve(assignment: Assignment, pupil: ClassPupil, now=None) -> Served:  # noqa: ANN001 - a datetime
    """The item to work on: the one the work row holds while it is unanswered, else a new choice (stored)."""
    now = now or utcnow()
    if rules.window(homework_of(assignment), now) == rules.NOT_OPEN:
        raise WorkError("not_open", when=assignment.opens_at)
    profile = _profile(pupil)
    work = _locked_work(assignment, pupil.id, now)
    if work.finished_at is not None:
        db.session.commit()
        raise WorkError("finished")
    pending = pending_of(work)
    item = practice.bank().get(pending.key) if pending else None
    if pending is None or item is None or practice.answered(profile, pending.nonce):
        pending, item = practice.choose_pending(profile, now)
        work.pending_json = json.dumps(pending.to_list())
    _touch(pupil.id, now)
    try:
        db.session.commit()
    except StaleDataError:  # another device served at the same moment: show what it stored
        db.session.rollback()
        return serve(assignment, pupil, now)
    return Served(pending, item, work, profile)


def answer(assignment: Assignment, pupil: ClassPupil, nonce: str, formula: str | None,
           now=None) -> practice_answers.Answered:  # noqa: ANN001 - a datetime  # fmt: skip
    """Record the pupil's answer to the item shown (formula None: giving up) as practice and as homework, in
    practice's one transaction; WorkError "stale" when that item is no longer the one shown (answered already,
    or on another device)."""
    now = now or utcnow()
    from suji.web.classes.work import work_of

    profile = _profile(pupil)
    work = work_of(assignment, pupil)  # read; locked below, after the profile (practice's order of locks)
    pending = pending_of(work)
    if work is None or pending is None or pending.nonce != nonce:
        db.session.rollback()
        raise WorkError("finished" if work is not None and work.finished_at is not None else "stale")
    homework = homework_of(assignment)

    def also(row: PracticeAnswer) -> None:
        locked = _locked_work(assignment, pupil.id, now)  # the profile is locked first, then this row
        mine = pending_of(locked)
        if mine is None or mine.nonce != nonce:
            raise WorkError("stale")
        late = _late(assignment, now)
        locked.items_done += 1
        locked.items_made += int(row.made_goal)
        locked.seconds += rules.item_seconds(pending.served_at, now)
        locked.pending_json = None
        locked.last_answer_at = now
        db.session.add(AssignmentAttempt(work_id=locked.id, assignment_id=assignment.id, pupil_id=pupil.id,
                                         problem=locked.items_done - 1, number=1, formula=row.formula,
                                         error_code=row.error_code if not row.made_goal else None,
                                         made=row.made_goal, score=row.score, late=late, item_key=row.item_key,
                                         created_at=now))  # fmt: skip
        if locked.finished_at is None and rules.adaptive_done(homework, locked.items_done, locked.seconds):
            locked.finished_at, locked.finished_late = now, late
        _touch(pupil.id, now)

    seconds = max(0.0, min(practice.MAX_SECONDS, (now - pending.served_at).total_seconds()))
    try:
        return practice_answers.record(Holder(profile.public_id), pending, formula, pending.hints, seconds, now,
                                       also=also)  # fmt: skip
    except practice.Conflict:
        raise WorkError("stale") from None


def hint(assignment: Assignment, pupil: ClassPupil, nonce: str, step: object, now=None) -> dict:  # noqa: ANN001
    """Hint `step` of the item shown, along the pupil's own way in (as practice's hints); a new one is counted."""
    from suji.play.classroom import ClassError

    now = now or utcnow()
    profile = _profile(pupil)
    work = _locked_work(assignment, pupil.id, now)
    pending = pending_of(work)
    item = practice.bank().get(pending.key) if pending else None
    if pending is None or item is None or pending.nonce != nonce:
        db.session.rollback()
        raise WorkError("stale")
    shown = route_hints(item, best_route(practice.learner_of(profile), item)[1])
    limit = min(pending.hints, len(shown) - 1)
    if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= limit:
        db.session.rollback()
        raise ClassError("not_step", limit=limit)
    if step == pending.hints:
        pending = Pending(*pending.to_list()[:6], hints=step + 1)
        work.pending_json = json.dumps(pending.to_list())
    try:
        db.session.commit()
    except StaleDataError:
        db.session.rollback()
        raise WorkError("stale") from None
    return {"hint": shown[step], "step": step, "more": step + 1 < len(shown), "hints_used": pending.hints}

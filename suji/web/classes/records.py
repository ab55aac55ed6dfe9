"""What deleting a pupil or a class removes of their records, and what the class's export adds.

Hooked into suji.web.classes.store (PUPIL_DATA, CLASS_DATA, EXPORTS) and suji.web.practice.store
(KEPT_ELSEWHERE), so the store of the roster needs to know nothing of them:

- a pupil deleted: their work, answers and attempts on every assignment, their daily puzzles counted for the
  class, their rows in live sessions (with answers and attempts), and their practice profile with every answer;
- a class deleted: the above for every pupil, then its assignments and the live sessions made for it;
- the export: the assignments, every pupil's work (answers and attempts), their sign-in cards (when made; the
  codes are not kept), the daily puzzles counted, and each pupil's practice as practice's own download has it;
- practice's own retention (a year after the last answer) leaves a class's pupils' profiles alone: they go with
  the pupil or the class.
"""

from __future__ import annotations

from sqlalchemy import delete, select, update

from suji.web.classes import live
from suji.web.classes.models import (
    Assignment,
    AssignmentAnswer,
    AssignmentAttempt,
    AssignmentWork,
    ClassDailyEntry,
    ClassPupil,
    SchoolClass,
)
from suji.web.classes.work import delete_assignments, homework_of, problems_of
from suji.web.extensions import db
from suji.web.models import DailyEntry


def _iso(moment) -> str | None:  # noqa: ANN001 - a datetime or None
    return moment.isoformat() + "Z" if moment is not None else None


def delete_pupils(pupil_ids: list[int]) -> None:
    """Everything kept about these pupils beyond their roster row, in the caller's transaction."""
    from suji.web.practice.account import delete_profiles

    if not pupil_ids:
        return
    profiles = [p for p in db.session.scalars(select(ClassPupil.profile_id).where(ClassPupil.id.in_(pupil_ids))) if p]
    works = select(AssignmentWork.id).where(AssignmentWork.pupil_id.in_(pupil_ids)).scalar_subquery()
    db.session.execute(delete(AssignmentAttempt).where(AssignmentAttempt.work_id.in_(works)))
    db.session.execute(delete(AssignmentAnswer).where(AssignmentAnswer.work_id.in_(works)))
    db.session.execute(delete(AssignmentWork).where(AssignmentWork.pupil_id.in_(pupil_ids)))
    db.session.execute(delete(ClassDailyEntry).where(ClassDailyEntry.pupil_id.in_(pupil_ids)))
    live.delete_pupils_sessions(pupil_ids)
    db.session.execute(update(ClassPupil).where(ClassPupil.id.in_(pupil_ids)).values(profile_id=None))
    delete_profiles(profiles)


def delete_classes(class_ids: list[int]) -> None:
    """A class's assignments and live sessions (its pupils' own records went first, by delete_pupils)."""
    if not class_ids:
        return
    delete_assignments(list(db.session.scalars(select(Assignment.id).where(Assignment.class_id.in_(class_ids)))))
    db.session.execute(delete(ClassDailyEntry).where(ClassDailyEntry.class_id.in_(class_ids)))
    live.delete_class_sessions(class_ids)


def class_profiles():  # noqa: ANN201 - a SELECT
    """The practice profiles a class keeps (practice's retention leaves them to the class's)."""
    return select(ClassPupil.profile_id).where(ClassPupil.profile_id.is_not(None))


def export(cls: SchoolClass, pupils: list[ClassPupil]) -> dict:
    """The class's records as parts of its JSON export (suji.web.classes.store.export)."""
    from suji.web.practice import store as practice
    from suji.web.practice.account import export as practice_export
    from suji.web.practice.models import PracticeProfile

    ids = {p.id: p.public_id for p in pupils}
    assignments = db.session.scalars(
        select(Assignment).where(Assignment.class_id == cls.id).order_by(Assignment.id)
    ).all()
    by_id = {a.id: a.public_id for a in assignments}
    out_assignments = [
        {"id": a.public_id, "kind": a.kind, "title": a.title, "made_at": _iso(a.created_at),
         "opens_at": _iso(a.opens_at), "due_at": _iso(a.due_at), "settings": homework_of(a).to_dict(),
         "problems": [p.to_dict() for p in problems_of(a)]}
        for a in assignments
    ]  # fmt: skip
    work = []
    for w in db.session.scalars(
        select(AssignmentWork).where(AssignmentWork.pupil_id.in_(ids)).order_by(AssignmentWork.id)
    ):
        answers = db.session.scalars(
            select(AssignmentAnswer).where(AssignmentAnswer.work_id == w.id).order_by(AssignmentAnswer.problem)
        )
        attempts = db.session.scalars(
            select(AssignmentAttempt).where(AssignmentAttempt.work_id == w.id).order_by(AssignmentAttempt.id)
        )
        work.append({
            "pupil": ids[w.pupil_id], "assignment": by_id.get(w.assignment_id), "started_at": _iso(w.started_at),
            "finished_at": _iso(w.finished_at), "finished_late": w.finished_late, "items_done": w.items_done,
            "items_made": w.items_made, "practice_seconds": round(w.seconds, 1),
            "answers": [{"problem": r.problem + 1, "attempts": r.attempts, "hints_used": r.hints_used,
                         "solved": r.solved, "done": r.done, "score": r.score, "formula": r.formula,
                         "first_try_score": r.first_score, "late": r.late} for r in answers],
            "attempts": [{"problem": t.problem + 1, "try": t.number, "formula": t.formula, "mistake": t.error_code,
                          "made": t.made, "score": t.score, "late": t.late, "practice_item": t.item_key,
                          "at": _iso(t.created_at)} for t in attempts],
        })  # fmt: skip
    daily = db.session.execute(
        select(ClassDailyEntry.pupil_id, ClassDailyEntry.day, DailyEntry.score)
        .join(DailyEntry, DailyEntry.id == ClassDailyEntry.entry_id)
        .where(ClassDailyEntry.class_id == cls.id).order_by(ClassDailyEntry.day)
    ).all()  # fmt: skip
    practice_data = {}
    for pupil in pupils:
        profile = db.session.get(PracticeProfile, pupil.profile_id) if pupil.profile_id else None
        if profile is not None:
            practice_data[pupil.public_id] = practice_export(practice.Holder(profile.public_id))
    return {
        "assignments": out_assignments,
        "work": work,
        "sign_in_cards": {p.public_id: {"made_at": _iso(p.card_made_at)} for p in pupils},
        "daily_puzzles": [{"pupil": ids[p], "day": d.isoformat(), "score": s} for p, d, s in daily if p in ids],
        "practice": practice_data,
    }


def managing_class(profile) -> str | None:  # noqa: ANN001 - a PracticeProfile
    """The name of the class that keeps this practice profile (suji.web.practice.account.MANAGED_BY)."""
    return db.session.scalar(
        select(SchoolClass.name).join(ClassPupil, ClassPupil.class_id == SchoolClass.id)
        .where(ClassPupil.profile_id == profile.id)
    )  # fmt: skip


def install() -> None:
    """Hook the records into the roster's deletions and export, and practice's retention."""
    from suji.web.classes import store
    from suji.web.practice import account
    from suji.web.practice import store as practice

    for hooks, hook in ((store.PUPIL_DATA, delete_pupils), (store.CLASS_DATA, delete_classes),
                        (store.EXPORTS, export), (practice.KEPT_ELSEWHERE, class_profiles),
                        (account.MANAGED_BY, managing_class)):  # fmt: skip
        if hook not in hooks:
            hooks.append(hook)

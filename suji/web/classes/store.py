"""The classes' storage: a class and its roster as rows, deleting a pupil or a class with everything about them,
the export, and the retention that deletes a class a set time after its school year ends.

    form fields ──suji.play.school.roster──▶ ClassInfo, RosterLine…, PupilInfo ──here──▶ rows (classes.models)

Deleting deletes rows (never a mark on them), children first, in one transaction; each area that keeps
something about a pupil adds its own deletion to PUPIL_DATA (a callable taking the pupil ids and the class
ids; CLASS_DATA for what belongs to a class), so this module needs to know nothing of them. The retention purge runs whenever a teacher opens their
classes, and `suji teacher purge` runs it for a cron job.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from datetime import date, datetime

from flask import current_app
from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from suji.play.school import roster
from suji.play.school.errors import SchoolError
from suji.web.classes.models import ClassPupil, SchoolClass
from suji.web.extensions import db
from suji.web.models import utcnow
from suji.web.settings import local_zone, month_day

# Everything else kept about pupils, and about classes: each callable deletes its rows for these pupil ids (or
# class ids), in the caller's transaction.
PUPIL_DATA: list[Callable[[list[int]], None]] = []
CLASS_DATA: list[Callable[[list[int]], None]] = []
EXPORTS: list[Callable[[SchoolClass, list[ClassPupil]], dict]] = []  # each adds its part of a class's export


class Conflict(Exception):
    """The row changed meanwhile (a form sent twice, another tab)."""


def new_public_id() -> str:
    return secrets.token_urlsafe(12)


def year_end() -> tuple[int, int]:
    value = current_app.config.get("SUJI_SCHOOL_YEAR_END", roster.YEAR_END)
    return month_day(value) if isinstance(value, str) else tuple(value)  # type: ignore[return-value]


def keep_days() -> int:
    raw = current_app.config.get("SUJI_CLASS_KEEP_DAYS")
    try:
        return max(0, int(raw)) if raw is not None else roster.DEFAULT_KEEP_DAYS
    except ValueError:
        return roster.DEFAULT_KEEP_DAYS


def today() -> date:
    """The school's day now (SUJI_DAILY_TZ, Japan by default)."""
    from datetime import UTC

    return datetime.now(UTC).astimezone(local_zone()).date()


def kept_until(cls: SchoolClass) -> date:
    return roster.data_kept_until(cls.ends_on, keep_days())


# ---- classes ----


def classes_of(teacher_id: int) -> list[tuple[SchoolClass, int]]:
    """The teacher's classes, the newest school year first, each with its number of pupils."""
    counts = select(ClassPupil.class_id, func.count().label("n")).group_by(ClassPupil.class_id).subquery()
    rows = db.session.execute(
        select(SchoolClass, func.coalesce(counts.c.n, 0))
        .outerjoin(counts, counts.c.class_id == SchoolClass.id)
        .where(SchoolClass.teacher_id == teacher_id)
        .order_by(SchoolClass.school_year.desc(), SchoolClass.name)
    ).all()  # fmt: skip
    return [(c, int(n)) for c, n in rows]


def create_class(teacher_id: int, info: roster.ClassInfo, roster_of: SchoolClass | None = None) -> SchoolClass:
    """A new class; with `roster_of` (next year's class), that class's pupils on its roster: their names, class
    numbers, extra time and free hints, and nothing they did, no card (the old class keeps its own data and its own
    deletion date). One transaction: the class is made with all of them or not at all."""
    cls = SchoolClass(public_id=new_public_id(), teacher_id=teacher_id, name=info.name,
                      school_year=info.school_year, ends_on=info.ends_on, leaderboard=info.leaderboard)  # fmt: skip
    db.session.add(cls)
    if roster_of is not None:
        db.session.flush()  # the class's id, for its pupils' rows
        pupils = pupils_of(roster_of)
        staged = _stage_pupils(cls, [roster.RosterLine(p.name, p.number) for p in pupils])
        for old, new in zip(pupils, staged, strict=True):
            new.extra_time, new.free_hints = old.extra_time, old.free_hints
    db.session.commit()
    return cls


def update_class(cls: SchoolClass, info: roster.ClassInfo, version: int | None) -> None:
    if version is not None and version != cls.version:
        raise Conflict
    cls.name, cls.school_year, cls.ends_on, cls.leaderboard = (
        info.name,
        info.school_year,
        info.ends_on,
        info.leaderboard,
    )
    _commit()


def _commit() -> None:
    try:
        db.session.commit()
    except (StaleDataError, IntegrityError):
        db.session.rollback()
        raise Conflict from None


# ---- the roster ----


def pupils_of(cls: SchoolClass) -> list[ClassPupil]:
    """The class's pupils in class-number order (those without a number after, by name)."""
    rows = db.session.scalars(select(ClassPupil).where(ClassPupil.class_id == cls.id)).all()
    return sorted(rows, key=lambda p: (p.number is None, p.number or 0, p.name_key))


def add_pupils(cls: SchoolClass, lines: Iterable[roster.RosterLine]) -> list[ClassPupil]:
    """Put pupils on the roster, all or none: SchoolError when a name or a class number is taken already."""
    added = _stage_pupils(cls, lines)
    try:
        db.session.commit()
    except IntegrityError:  # the same names added a moment ago from another tab
        db.session.rollback()
        raise Conflict from None
    return added


def _stage_pupils(cls: SchoolClass, lines: Iterable[roster.RosterLine]) -> list[ClassPupil]:
    """The pupils' rows added to the session, not committed; SchoolError (nothing added) when one cannot be."""
    existing = pupils_of(cls)
    names = {p.name_key: p for p in existing}
    numbers = {p.number: p for p in existing if p.number is not None}
    lines = list(lines)
    if len(existing) + len(lines) > roster.MAX_PUPILS:
        raise SchoolError("roster_size", "roster", high=roster.MAX_PUPILS)
    added = []
    for i, line in enumerate(lines, 1):
        if roster.name_key(line.name) in names:
            raise SchoolError("roster_line", "roster", line=i, text=line.name,
                              reason=SchoolError("name_taken", name=line.name))  # fmt: skip
        if line.number is not None and line.number in numbers:
            raise SchoolError("roster_line", "roster", line=i, text=line.name,
                              reason=SchoolError("number_taken", number=line.number, name=numbers[line.number].name))  # fmt: skip
        pupil = ClassPupil(public_id=new_public_id(), class_id=cls.id, name=line.name,
                           name_key=roster.name_key(line.name), number=line.number)  # fmt: skip
        added.append(pupil)
    db.session.add_all(added)  # only once every line is known to fit: a refused roster adds nothing
    return added


def update_pupil(cls: SchoolClass, pupil: ClassPupil, info: roster.PupilInfo, version: int | None) -> None:
    if version is not None and version != pupil.version:
        raise Conflict
    key = roster.name_key(info.name)
    for other in pupils_of(cls):
        if other.id == pupil.id:
            continue
        if other.name_key == key:
            raise SchoolError("name_taken", "name", name=info.name)
        if info.number is not None and other.number == info.number:
            raise SchoolError("number_taken", "number", number=info.number, name=other.name)
    pupil.name, pupil.name_key, pupil.number = info.name, key, info.number
    pupil.extra_time, pupil.free_hints = info.extra_time, info.free_hints
    _commit()


# ---- deleting ----


def _delete_pupil_rows(pupil_ids: list[int]) -> None:
    for forget in PUPIL_DATA:
        forget(pupil_ids)
    if pupil_ids:
        db.session.execute(delete(ClassPupil).where(ClassPupil.id.in_(pupil_ids)))


def delete_pupil(pupil: ClassPupil) -> None:
    """The pupil and everything kept about them (work, answers, practice), in one transaction."""
    _delete_pupil_rows([pupil.id])
    db.session.commit()


def delete_classes(class_ids: list[int]) -> None:
    """Classes with their pupils and everything about them, in the caller's transaction (not committed)."""
    if not class_ids:
        return
    pupil_ids = list(db.session.scalars(select(ClassPupil.id).where(ClassPupil.class_id.in_(class_ids))))
    _delete_pupil_rows(pupil_ids)
    for forget in CLASS_DATA:
        forget(class_ids)
    db.session.execute(delete(SchoolClass).where(SchoolClass.id.in_(class_ids)))


def delete_class(cls: SchoolClass) -> None:
    delete_classes([cls.id])
    db.session.commit()


def delete_teacher_classes(teacher_id: int) -> None:
    """An account deleted (suji.web.accounts.store.delete_teacher): its classes go with it."""
    delete_classes(
        list(db.session.scalars(select(SchoolClass.id).where(SchoolClass.teacher_id == teacher_id)))
    )


def purge_expired(on: date | None = None) -> int:
    """Delete the classes whose data is past its keeping (SUJI_CLASS_KEEP_DAYS after the school year's last
    day) with everything about their pupils; the number of classes deleted."""
    from datetime import timedelta

    cutoff = (on or today()) - timedelta(days=keep_days())
    old = list(db.session.scalars(select(SchoolClass.id).where(SchoolClass.ends_on < cutoff)))
    delete_classes(old)
    db.session.commit()
    return len(old)


# ---- the export ----


def export(cls: SchoolClass, pupil: ClassPupil | None = None) -> dict:
    """Everything kept about a class and its pupils, as one JSON document; with `pupil`, the same about that one
    pupil alone (a parent's request: their answers, work, cards, daily puzzles and practice, beside the class's
    homework they were set), and nothing about the others."""
    pupils = [p for p in pupils_of(cls) if pupil is None or p.id == pupil.id]
    data = {
        "format": 1,
        "exported_at": utcnow().isoformat() + "Z",
        "class": {"name": cls.name, "school_year": cls.school_year, "school_year_ends_on": cls.ends_on.isoformat(),
                  "kept_until": kept_until(cls).isoformat(), "leaderboard": cls.leaderboard,
                  "created_at": cls.created_at.isoformat() + "Z"},
        "pupils": [{"id": p.public_id, "name": p.name, "number": p.number, "extra_time": p.extra_time,
                    "free_hints": p.free_hints, "added_at": p.created_at.isoformat() + "Z",
                    "last_active_at": p.last_active_at.isoformat() + "Z" if p.last_active_at else None}
                   for p in pupils],
    }  # fmt: skip
    for part in EXPORTS:
        data.update(part(cls, pupils))
    return data

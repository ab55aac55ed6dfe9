"""The classes a teacher keeps for a school year: rosters, sign-in cards, homework, reports, privacy.

    access   the blueprint and its guards: the signed-in teacher's own class, or 404
    models   classes and pupils (migration 0004_classes)
    store    rows ↔ suji.play.school's values; deleting a pupil or a class with everything; export; retention
    views    /teacher/ (the classes), a new class, the class page, its settings, export, delete
    roster   adding pupils from a list, one pupil's details and accommodations, deleting a pupil

The rules are pure functions in suji.play.school (roster, homework, reports); everything is in the database.
"""

from __future__ import annotations

from suji.web.accounts import store as accounts_store
from suji.web.classes import roster, views  # noqa: F401  (their routes join the blueprint)
from suji.web.classes.access import bp
from suji.web.classes.store import delete_teacher_classes, purge_expired

# An account deleted takes its classes with it.
if delete_teacher_classes not in accounts_store.ON_DELETE:
    accounts_store.ON_DELETE.append(delete_teacher_classes)

__all__ = ["bp", "purge_expired"]

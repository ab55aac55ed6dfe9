"""Class mode on the web: a teacher's session with a join code, pupils answering on their own devices, a live
dashboard, CSV and a printable summary.

    access   the blueprint, its guards (`teacher_required`, `pupil_required`), cookies and error answers
    store    the database rows ↔ class mode's pure values (suji.play.classroom), the grid, purging old sessions
    teacher  /class/new, the dashboard and its controls, results, delete
    pupils   /join, one problem after another, the state and hint JSON

The rules are in suji.play.classroom (settings, codes, grading, the clock, results); this package keeps
everything in the database (suji.web.classroom_models) and nothing in memory, so several app servers behind one
PostgreSQL database serve one class. Errors in JSON are {"error": {"code", "message"}} in the request's language.
"""

from __future__ import annotations

from suji.web.accounts import store as accounts_store
from suji.web.classroom import pupils, store, teacher  # noqa: F401  (their views join the blueprint)
from suji.web.classroom.access import bp
from suji.web.classroom.store import purge_expired
from suji.web.classroom.teacher import POLL_MS, only_this_computer

# An account deleted takes its class sessions with it.
if store.delete_teacher_sessions not in accounts_store.ON_DELETE:
    accounts_store.ON_DELETE.append(store.delete_teacher_sessions)

__all__ = ["POLL_MS", "bp", "only_this_computer", "purge_expired"]

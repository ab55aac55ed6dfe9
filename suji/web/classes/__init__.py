"""The classes a teacher keeps for a school year: rosters, sign-in cards, homework, reports, privacy.

    access   the blueprint and its guards: the signed-in teacher's own class, or 404
    models   classes, pupils and every pupil's record (migrations 0004_classes, 0008_pupils)
    store    rows ↔ suji.play.school's values; deleting a pupil or a class with everything; export; retention
    views    /teacher/ (the classes), a new class, the class page, its settings, export, delete
    roster   adding pupils from a list, one pupil's details and accommodations, deleting a pupil
    signin   a pupil's card: its code's hash, signing in on any device, the pupil's cookie, the rate limit
    cards    the teacher's PDF of sign-in cards
    work     homework and live lessons as rows: one pupil's answer in one transaction, what the reports read
    adaptive adaptive homework: the pupil's own practice (suji.web.practice), N items or N minutes
    homework the teacher's homework pages (each one's report), and the class page's homework and live-lesson panels
    progress what the reports read: every answer of the weeks shown with its skills, the levels, the alerts
    reports  the skills grid over weeks, a pupil's printed report, every report as CSV, the class page's alerts
    live     class mode's sessions made for a class (suji.web.classroom's hooks) and their record here
    daily    the daily puzzle's board of a class (shown, anonymous, off; suji.web.games' hook)
    records  what deleting a pupil or a class removes of their records, and the export's parts

The pupils' own pages are suji.web.pupils's.

The rules are pure functions in suji.play.school (roster, homework, reports); everything is in the database.
"""

from __future__ import annotations

from suji.web.accounts import store as accounts_store
from suji.web.classes import cards, daily, homework, live, records, reports, roster, views  # noqa: F401  (their routes join the blueprint)
from suji.web.classes.access import bp
from suji.web.classes.store import delete_teacher_classes, purge_expired
from suji.web.games import daily as games_daily

# An account deleted takes its classes with it.
if delete_teacher_classes not in accounts_store.ON_DELETE:
    accounts_store.ON_DELETE.append(delete_teacher_classes)
live.install()  # class mode's sessions made for a class
records.install()  # the records in deletions, the export and practice's retention
if daily.daily_board not in games_daily.CLASS_BOARDS:
    games_daily.CLASS_BOARDS.append(daily.daily_board)

__all__ = ["bp", "purge_expired"]

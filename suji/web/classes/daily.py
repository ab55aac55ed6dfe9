"""The daily puzzle's leaderboard of a class: shown (names), anonymous (ranks and scores) or off, per class.

    a signed-in pupil's answered daily puzzle (suji.web.games) ──link──▶ ClassDailyEntry (once a pupil a day)
    the class's entries of the day, best first ──suji.play.leaderboard.places──▶ the board the class's pupils see

A pupil signed in with their card sees, on the daily puzzle's page (and on their own home page), their class's
board as the teacher set it instead of the public one: with the pupils' names from the roster ("shown"),
without any name but their own ("anonymous"), or nothing at all ("off", the default). The puzzle answered on
a device while the pupil is signed in counts for them, the first one a day if they play on two devices.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from suji.play import games
from suji.play.leaderboard import places
from suji.web.classes.models import ClassDailyEntry, ClassPupil, SchoolClass
from suji.web.extensions import db
from suji.web.models import DailyEntry, Player

BOARD_SIZE = 60  # a class has at most 60 pupils (suji.play.school.roster.MAX_PUPILS)


@dataclass(frozen=True)
class BoardLine:
    rank: int
    name: str | None  # None on an anonymous board (but for the pupil's own line)
    score: int
    mine: bool


@dataclass(frozen=True)
class ClassBoard:
    """The board a class's pupil sees: the class's setting, its name, the lines (none when off), the count."""

    mode: str  # off, anonymous or shown (suji.play.school.roster.LEADERBOARD)
    class_name: str
    lines: tuple[BoardLine, ...] = ()
    answered: int = 0


def link(pupil: ClassPupil, day: date, entry: DailyEntry | None) -> None:
    """Count the device's answered daily puzzle for the pupil (their first of the day; an entry counts once)."""
    if entry is None or entry.status == games.OPEN or entry.day != day:
        return
    taken = db.session.scalar(
        select(ClassDailyEntry.id).where(
            (ClassDailyEntry.entry_id == entry.id) | ((ClassDailyEntry.pupil_id == pupil.id) & (ClassDailyEntry.day == day))
        )
    )  # fmt: skip
    if taken is not None:
        return
    db.session.add(ClassDailyEntry(class_id=pupil.class_id, pupil_id=pupil.id, day=day, entry_id=entry.id))
    try:
        db.session.commit()
    except IntegrityError:  # linked a moment ago by another request
        db.session.rollback()


def board(cls: SchoolClass, day: date, me: ClassPupil | None) -> ClassBoard:
    """The class's board of the day as the class's setting allows (no query at all when it is off)."""
    if cls.leaderboard not in ("shown", "anonymous"):
        return ClassBoard("off", cls.name)
    rows = db.session.execute(
        select(DailyEntry.score, ClassPupil.id, ClassPupil.name)
        .join(ClassDailyEntry, ClassDailyEntry.entry_id == DailyEntry.id)
        .join(ClassPupil, ClassPupil.id == ClassDailyEntry.pupil_id)
        .where(ClassDailyEntry.class_id == cls.id, ClassDailyEntry.day == day)
        .order_by(DailyEntry.score.desc(), DailyEntry.answered_at, DailyEntry.id).limit(BOARD_SIZE)
    ).all()  # fmt: skip
    ranked = places([((pupil_id, name), score, pupil_id, None) for score, pupil_id, name in rows])
    lines = []
    for place in ranked:
        pupil_id, name = place.entry
        mine = me is not None and pupil_id == me.id
        shown = name if cls.leaderboard == "shown" or mine else None
        lines.append(BoardLine(place.rank, shown, rows[len(lines)][0], mine))
    return ClassBoard(cls.leaderboard, cls.name, tuple(lines), len(lines))


def daily_board(day: date, player: Player | None, entry: DailyEntry | None) -> ClassBoard | None:
    """The hook of the daily puzzle's page (suji.web.games.daily.CLASS_BOARDS): the class's board for a signed-in
    pupil, after counting their answer of the day; None for anyone else (the public board then)."""
    from suji.web.classes.signin import class_of, current_pupil

    pupil = current_pupil()
    if pupil is None:
        return None
    link(pupil, day, entry)
    return board(class_of(pupil), day, pupil)


def answered_today(cls: SchoolClass, day: date) -> int:
    return db.session.scalar(
        select(func.count()).where(ClassDailyEntry.class_id == cls.id, ClassDailyEntry.day == day)
    ) or 0  # fmt: skip

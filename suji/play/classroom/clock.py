"""A class session's phases and time: start, pause, "+5 minutes", time up and the end, as pure moves on a clock.

    Clock ──start / pause / more_time / end (now)──▶ Clock          (the teacher's controls)
    Clock + now ──phase, seconds_left, time_up, closed──▶ what pupils see and may do

A session waits, runs, may be paused and goes on, and ends. With a time limit it also ends by itself when the
time is up: a running session past `ends_at` is in the ENDED phase though nobody pressed "end". A pause does not
count against the limit (going on moves `ends_at` by the pause's length). "+5 minutes" adds to the limit while the
class runs or is paused, never once the time is up: pupils have seen every best formula by then. The moments are
whatever the caller's clock gives (the web layer's are UTC); nothing here reads the time itself.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from suji.play.classroom.errors import ClassError

# Phases of a session as pupils see them.
WAITING, RUNNING, PAUSED, ENDED = "waiting", "running", "paused", "ended"
PHASES = (WAITING, RUNNING, PAUSED, ENDED)
EXTRA_MINUTES = 5  # what "+5 minutes" adds to the time limit


@dataclass(frozen=True)
class Clock:
    """Where a session is: its status as the teacher set it, and the moments that go with it."""

    status: str = WAITING
    started_at: datetime | None = None
    ends_at: datetime | None = None  # only with a time limit
    paused_at: datetime | None = None  # while paused
    ended_at: datetime | None = None


def phase(clock: Clock, now: datetime) -> str:
    """The phase pupils are in: a running session whose time is up counts as ended."""
    if clock.status == RUNNING and clock.ends_at is not None and now >= clock.ends_at:
        return ENDED
    return clock.status


def time_up(clock: Clock, now: datetime) -> bool:
    """Whether the session ended by its time limit (not by the teacher)."""
    return clock.status == RUNNING and phase(clock, now) == ENDED


def seconds_left(clock: Clock, now: datetime) -> int | None:
    """Seconds until the time limit (None without one or before the start; frozen while paused)."""
    if clock.ends_at is None:
        return None
    until = clock.paused_at if clock.status == PAUSED and clock.paused_at else now
    return max(0, int((clock.ends_at - until).total_seconds()))


def closed(clock: Clock, now: datetime) -> ClassError | None:
    """Why a pupil cannot answer now (None: the session is running and time is left)."""
    current = phase(clock, now)
    if current == RUNNING:
        return None
    if current == ENDED:
        return ClassError("time_up" if time_up(clock, now) else "ended")
    return ClassError("paused" if current == PAUSED else "not_started")


def start(clock: Clock, now: datetime, time_limit: int | None) -> Clock:
    """Start (the time limit, in minutes, runs from now), or go on after a pause (the pause is not counted)."""
    if clock.status == WAITING:
        ends_at = now + timedelta(minutes=time_limit) if time_limit else None
        return replace(clock, status=RUNNING, started_at=now, ends_at=ends_at)
    if clock.status == PAUSED:
        ends_at = clock.ends_at
        if ends_at is not None and clock.paused_at is not None:
            ends_at += now - clock.paused_at
        return replace(clock, status=RUNNING, paused_at=None, ends_at=ends_at)
    return clock


def pause(clock: Clock, now: datetime) -> Clock:
    """Pause a running session (not one whose time is up: it has ended)."""
    if clock.status == RUNNING and not time_up(clock, now):
        return replace(clock, status=PAUSED, paused_at=now)
    return clock


def more_time(clock: Clock, now: datetime, minutes: int = EXTRA_MINUTES) -> Clock:
    """`minutes` more before the time limit, while the class runs or is paused; not once the time is up."""
    if clock.ends_at is not None and (clock.status == PAUSED or (clock.status == RUNNING and not time_up(clock, now))):
        return replace(clock, ends_at=clock.ends_at + timedelta(minutes=minutes))
    return clock


def end(clock: Clock, now: datetime) -> Clock:
    """End the session: no more answers. A session whose time ran out ended then, not now."""
    if clock.status == ENDED:
        return clock
    ended_at = min(now, clock.ends_at) if clock.ends_at and clock.status == RUNNING else now
    return replace(clock, status=ENDED, paused_at=None, ended_at=ended_at)

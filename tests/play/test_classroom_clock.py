"""suji.play.classroom.clock: a class session's phases, pause, "+5 minutes", time up and the end, without Flask."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from suji.play.classroom import ENDED, PAUSED, RUNNING, WAITING, Clock, clock

T0 = datetime(2026, 4, 1, 9, 0)
MIN = timedelta(minutes=1)


def test_a_session_waits_then_runs_with_its_time_limit_from_the_start():
    waiting = Clock()
    assert clock.phase(waiting, T0) == WAITING and clock.seconds_left(waiting, T0) is None
    assert clock.closed(waiting, T0).code == "not_started"
    running = clock.start(waiting, T0, time_limit=10)
    assert running == Clock(RUNNING, started_at=T0, ends_at=T0 + 10 * MIN)
    assert clock.closed(running, T0 + MIN) is None
    assert clock.seconds_left(running, T0 + 4 * MIN) == 360
    assert clock.start(running, T0 + MIN, time_limit=10) == running  # starting again changes nothing
    untimed = clock.start(waiting, T0, time_limit=None)
    assert untimed.ends_at is None and clock.seconds_left(untimed, T0 + 1000 * MIN) is None
    assert clock.phase(untimed, T0 + 1000 * MIN) == RUNNING


def test_the_time_stops_while_paused_and_the_pause_is_not_counted():
    running = clock.start(Clock(), T0, time_limit=10)
    paused = clock.pause(running, T0 + 3 * MIN)
    assert clock.phase(paused, T0 + 3 * MIN) == PAUSED and clock.closed(paused, T0 + 4 * MIN).code == "paused"
    assert clock.seconds_left(paused, T0 + 9 * MIN) == 420  # frozen at the moment of the pause
    assert clock.phase(paused, T0 + 60 * MIN) == PAUSED  # a paused class never runs out of time
    going = clock.start(paused, T0 + 8 * MIN, time_limit=10)  # paused for 5 minutes
    assert going.status == RUNNING and going.paused_at is None and going.ends_at == T0 + 15 * MIN
    assert clock.seconds_left(going, T0 + 8 * MIN) == 420


def test_time_up_ends_a_running_session_by_itself():
    running = clock.start(Clock(), T0, time_limit=10)
    assert not clock.time_up(running, T0 + 10 * MIN - timedelta(seconds=1))
    assert clock.phase(running, T0 + 10 * MIN) == ENDED and clock.time_up(running, T0 + 10 * MIN)
    assert clock.closed(running, T0 + 11 * MIN).code == "time_up"
    assert clock.seconds_left(running, T0 + 11 * MIN) == 0
    assert clock.pause(running, T0 + 11 * MIN) == running  # too late to pause: it has ended
    ended = clock.end(running, T0 + 30 * MIN)
    assert ended.status == ENDED and ended.ended_at == T0 + 10 * MIN  # it ended then, not when pressed
    assert clock.closed(ended, T0 + 31 * MIN).code == "ended" and not clock.time_up(ended, T0 + 31 * MIN)


@pytest.mark.parametrize("status", [RUNNING, PAUSED])
def test_five_more_minutes_while_running_or_paused(status):
    running = clock.start(Clock(), T0, time_limit=10)
    current = running if status == RUNNING else clock.pause(running, T0 + 2 * MIN)
    later = clock.more_time(current, T0 + 3 * MIN)
    assert later.ends_at == T0 + 15 * MIN and later.status == status
    assert clock.more_time(later, T0 + 3 * MIN, minutes=2).ends_at == T0 + 17 * MIN


def test_no_more_time_once_the_time_is_up_without_a_limit_or_after_the_end():
    running = clock.start(Clock(), T0, time_limit=10)
    assert clock.more_time(running, T0 + 10 * MIN) == running  # pupils have seen every best formula
    untimed = clock.start(Clock(), T0, time_limit=None)
    assert clock.more_time(untimed, T0) == untimed
    ended = clock.end(running, T0 + MIN)
    assert clock.more_time(ended, T0 + 2 * MIN) == ended
    assert clock.more_time(Clock(), T0) == Clock()  # not started: the limit starts with the class


def test_ending_is_final_and_clears_a_pause():
    paused = clock.pause(clock.start(Clock(), T0, time_limit=10), T0 + MIN)
    ended = clock.end(paused, T0 + 2 * MIN)
    assert ended.status == ENDED and ended.paused_at is None and ended.ended_at == T0 + 2 * MIN
    assert clock.end(ended, T0 + 9 * MIN) == ended
    assert clock.start(ended, T0 + 9 * MIN, time_limit=10) == ended  # an ended class does not start again
    assert clock.end(Clock(), T0).ended_at == T0  # a class may end before it started

"""The odds table's background build across several `suji serve` processes: resumed when its server dies,
never started twice, never left running without a server.

Real processes: a stand-in for the first server starts the real `suji odds build` (it solves real parts), and is
killed; the build notices and stops; this process, the second server, starts it again where it stopped.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from suji.solver.odds import build as odds_build
from suji.web import serve as web_serve

pytestmark = pytest.mark.slow

FIRST_SERVER = """
import sys, time
from suji.web.serve import start_background_build
child = start_background_build(sys.argv[1], sys.argv[2])
print(child.pid, flush=True)
time.sleep(3600)
"""


def wait_until(condition) -> None:  # noqa: ANN001
    """A wait on a condition the processes reach by themselves (no deadline: the suite's timeout is the guard)."""
    while not condition():
        time.sleep(0.05)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_build_whose_server_died_is_resumed_by_another_once(tmp_path):
    table = str(tmp_path / "odds.suji")
    first = subprocess.Popen([sys.executable, "-c", FIRST_SERVER, table, str(tmp_path)], stdout=subprocess.PIPE,
                             text=True)  # fmt: skip
    try:
        build_pid = int(first.stdout.readline())
        wait_until(lambda: odds_build.build_running(table))
        # Another server looking now finds it being built: it starts nothing.
        assert web_serve.start_background_build(table, str(tmp_path)) is None
        first.send_signal(signal.SIGKILL)  # the first server dies without a word
        first.wait()
        wait_until(lambda: not alive(build_pid) and not odds_build.build_running(table))  # not left orphaned
        done_before = odds_build.part_status(table)[0]
        # Two servers look at the same moment: exactly one starts the build again.
        started: list = []
        barrier = threading.Barrier(2)

        def look() -> None:
            barrier.wait()
            started.append(web_serve.start_background_build(table, str(tmp_path)))

        lookers = [threading.Thread(target=look) for _ in range(2)]
        for looker in lookers:
            looker.start()
        for looker in lookers:
            looker.join()
        children = [child for child in started if child is not None]
        assert len(children) == 1 and odds_build.build_running(table)
        assert odds_build.table_status(table).state == "building"
        assert odds_build.part_status(table)[0] >= done_before  # it goes on from the parts already done
        children[0].terminate()
        assert children[0].wait() == 1 and not odds_build.build_running(table)  # stopped, parts kept
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()


def test_the_keeper_starts_the_build_when_the_table_needs_one(tmp_path, monkeypatch):
    started = threading.Event()
    monkeypatch.setattr(web_serve, "start_background_build", lambda *args: started.set())
    assert web_serve.keep_building(str(tmp_path / "odds.suji"), str(tmp_path), wanted=False) is None
    stop = threading.Event()
    thread = web_serve.keep_building(str(tmp_path / "odds.suji"), str(tmp_path), seconds=0.01, stop=stop)
    assert thread is not None and thread.daemon
    started.wait()  # the keeper looked by itself
    stop.set()
    thread.join()


def test_a_place_where_no_table_can_be_written_is_said_once_and_nothing_starts(tmp_path, capsys, monkeypatch):
    spawned = []
    monkeypatch.setattr(web_serve, "_spawn_build", lambda *args: spawned.append(args))
    a_file = tmp_path / "plain"
    a_file.write_text("x")
    table = str(a_file / "odds.suji")
    assert web_serve.start_background_build(table, str(tmp_path)) is None
    assert web_serve.start_background_build(table, str(tmp_path)) is None
    err = capsys.readouterr().err
    assert err.count("the odds table is not built") == 1 and "cannot be written" in err and spawned == []

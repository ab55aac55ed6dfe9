"""Real `suji serve` processes: live advice's limits and outcomes shared through the database, and the odds table
copied over, truncated and replaced under a running server that keeps answering.

No timing: the solver's workers of one server are stopped with SIGSTOP while its question waits, so the test,
not the clock, decides when that answer can come.
"""

from __future__ import annotations

import http.client
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from suji.dev.loadtest import HOST, Client, free_port

pytestmark = pytest.mark.slow

ROLL = {"target_dice": [4, 4, 6], "number_dice": [2, 1, 4, 1, 3], "operator_dice": ["+", "+", "²", "−"]}


def roll(numbers: list[int]) -> dict:
    return {**ROLL, "number_dice": numbers}


def start(port: int, env: dict) -> subprocess.Popen:
    process = subprocess.Popen([sys.executable, "-m", "suji", "serve", "--port", str(port), "--threads", "8"],
                               env=env, stderr=subprocess.DEVNULL)  # fmt: skip
    while True:  # until it listens (it gets there by itself; the suite's timeout is the guard)
        if process.poll() is not None:
            raise RuntimeError("the server did not start")
        try:
            http.client.HTTPConnection(HOST, port, timeout=5).request("GET", "/static/favicon.svg")
            return process
        except OSError:
            time.sleep(0.1)


def children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


def on(client: Client, port: int) -> Client:
    """The same browser (its cookie and token) talking to another server process."""
    other = object.__new__(Client)
    other.connection = http.client.HTTPConnection(HOST, port, timeout=120)
    other.headers = dict(client.headers)
    return other


def advise(client: Client, body: dict) -> tuple[int, dict]:
    client.connection.request("POST", "/api/advise", body=json.dumps(body).encode(), headers=client.headers)
    response = client.connection.getresponse()
    return response.status, json.loads(response.read())


def until_answered(client: Client, body: dict) -> dict:
    while True:  # as the game page does: ask again while it is being worked out
        status, data = advise(client, body)
        if status == 200:
            return data
        assert status == 202, data
        time.sleep(0.2)


@pytest.fixture
def servers(tmp_path):
    env = dict(os.environ, SUJI_INSTANCE_PATH=str(tmp_path / "instance"), SUJI_SECRET_KEY=secrets.token_hex(32),
               SUJI_ODDS_BUILD="0", SUJI_ODDS_PATH=str(tmp_path / "no-table.suji"), SUJI_ADVICE_WAIT="0",
               SUJI_ADVICE_QUEUE="1", SUJI_SOLVER_PROCESSES="1")  # fmt: skip
    ports = [free_port(), free_port()]
    first = start(ports[0], env)  # makes the database (the migrations), then the second one shares it
    second = start(ports[1], env)
    yield ports, (first, second)
    for process in (first, second):
        process.terminate()
        process.wait(timeout=30)


def test_one_question_per_client_the_queue_and_the_outcomes_hold_across_servers(servers):
    (a, b), (first, _) = servers
    warm = Client(a)
    until_answered(warm, roll([1, 2, 3, 4, 5]))  # the first server's solver worker is running now
    workers = children(first.pid)
    assert workers
    for pid in workers:
        os.kill(pid, signal.SIGSTOP)  # its next question waits until the test lets it go on
    try:
        ken = Client(a)
        assert advise(ken, ROLL)[0] == 202
        ken_on_b = on(ken, b)
        status, data = advise(ken_on_b, roll([2, 2, 3, 4, 5]))  # another question, on the other server
        assert status == 429 and data["error"]["code"] == "already_asking"
        assert advise(ken_on_b, ROLL)[0] == 202  # its own question: waited for, not refused
        status, data = advise(Client(b), roll([1, 3, 3, 4, 6]))  # the one slot is taken on the other server
        assert status == 503 and data["error"]["code"] == "advice_busy" and data["error"]["retry_after"] >= 1
    finally:
        for pid in workers:
            os.kill(pid, signal.SIGCONT)
    until_answered(ken, ROLL)
    # The second server never solved these dice: the answer it gives at once is the first one's, from the database.
    status, data = advise(Client(b), {**ROLL, "rerolled": 2})
    assert status == 200 and data["best"]


def make_table(path: Path, score: int) -> Path:
    from test_odds_file import make_table as made

    return made(path, score)


def answer_now(client: Client) -> tuple[int, str | None]:
    status, data = advise(client, roll([1, 1, 2, 3, 4]))
    if status != 200:
        return status, None
    return status, next(o["expected_score"] for o in data["options"] if o["kind"] == "answer")


def test_the_table_copied_over_truncated_and_renamed_under_a_running_server(tmp_path):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "solver"))
    first, second = make_table(tmp_path / "first.suji", 30), make_table(tmp_path / "second.suji", 40)
    table = tmp_path / "odds.suji"
    shutil.copyfile(first, table)
    env = dict(os.environ, SUJI_INSTANCE_PATH=str(tmp_path / "instance"), SUJI_SECRET_KEY=secrets.token_hex(32),
               SUJI_ODDS_BUILD="0", SUJI_ODDS_PATH=str(table), SUJI_ADVICE_WAIT="0")  # fmt: skip
    port = free_port()
    server = start(port, env)
    try:
        client = Client(port)
        assert answer_now(client) == (200, "30")
        subprocess.run(["cp", str(second), str(table)], check=True)  # over the open file: it used to die of SIGBUS
        assert answer_now(client) == (200, "40") and server.poll() is None
        os.truncate(table, 1000)  # damaged in place: the live solver answers (202 while it works), no 500
        status, _ = answer_now(client)
        assert status in (200, 202) and server.poll() is None
        page = client.connection
        page.request("GET", "/lessons/suji", headers={"Accept-Language": "en", "Cookie": client.headers["Cookie"]})
        assert 'data-state="damaged"' in page.getresponse().read().decode()
        staged = tmp_path / "odds.suji.new"
        shutil.copyfile(first, staged)
        os.replace(staged, table)  # the way to put a table in place
        assert answer_now(client) == (200, "30") and server.poll() is None
    finally:
        server.terminate()
        server.wait(timeout=30)

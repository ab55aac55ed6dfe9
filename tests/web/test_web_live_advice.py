"""Live advice without the odds table: off the request threads, a bounded wait, and limits kept in the database.

The solver is replaced by a gate the test opens (its outcomes are a made-up score for every outcome), so each
test decides when an answer exists; nothing here waits on the clock except the bounded waits under test. Two
apps on one database stand for two server processes: what one refuses because of the other comes from the
database, since they share nothing else that decides it (the slots and the outcomes are rows).
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request

import pytest
from serving import stop
from sqlalchemy import text

from suji.web import advice, solver_pool
from suji.web.extensions import db

ROLL = {"target_dice": [4, 4, 6], "number_dice": [2, 1, 4, 1, 3], "operator_dice": ["+", "+", "²", "−"]}


def other_roll(i: int) -> dict:
    """Another standard roll (its number dice differ), so another question."""
    faces = [[1, 2, 3, 4, 5], [1, 2, 2, 4, 5], [2, 2, 3, 4, 5], [1, 3, 3, 4, 6], [2, 4, 4, 5, 6], [1, 2, 2, 3, 6],
             [3, 3, 4, 5, 6], [1, 1, 4, 5, 6], [2, 3, 4, 4, 5], [1, 2, 5, 5, 6]][i]  # fmt: skip
    return {**ROLL, "number_dice": faces}


class Gate:
    """Stands in for the solver's pool: each question waits until the test opens the gate."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.asked: list[str] = []
        self.reached = threading.Event()

    def __call__(self, roll, keys):  # noqa: ANN001
        self.asked.append(advice.roll_key(roll))
        self.reached.set()
        self.open.wait()
        return {key: 20 for key in keys}

    def questions(self) -> list[str]:
        """The questions asked so far, once the runner's thread has reached the gate (a bounded wait).

        The request only hands the work to the runner, so right after a 202 its thread may not yet have called
        the solver: reading `asked` at once would race it.
        """
        assert self.reached.wait(30), "the runner never asked the solver"
        return self.asked


@pytest.fixture
def gate(monkeypatch):
    found = Gate()
    monkeypatch.setattr(solver_pool, "outcome_scores", found)
    advice.forget()
    yield found
    found.open.set()
    for event in list(advice._jobs.values()):
        event.wait()  # the runner's jobs end before the next test's database goes


def ask(client, body: dict, address: str = "10.0.0.1", lang: str = "en"):  # noqa: ANN001
    return client.post("/api/advise", json=body, headers={"Accept-Language": lang},
                       environ_base={"REMOTE_ADDR": address})  # fmt: skip


def key_of(body: dict) -> str:
    from suji.rules.dice import Roll

    return advice.roll_key(Roll.of(**body))


def wait_for_jobs() -> None:
    for event in list(advice._jobs.values()):
        event.wait()


def slot_rows(app) -> list:  # noqa: ANN001
    with app.app_context():
        return db.session.execute(text("SELECT kind, slot, job FROM work_slots ORDER BY slot")).all()


def test_a_question_not_answered_within_the_wait_is_asked_again_and_then_answered(app, client, gate):
    app.config["ADVICE_WAIT"] = 0.0
    first = ask(client, ROLL, lang="ja")
    assert first.status_code == 202 and first.headers["Retry-After"].isdigit()
    error = first.get_json()["error"]
    assert error["code"] == "advice_pending" and error["retry_after"] >= 1 and "ソルバー" in error["message"]
    again = ask(client, ROLL)  # asking again about its own dice is waiting for them, not a second question
    assert again.status_code == 202 and gate.questions() == [key_of(ROLL)]
    gate.open.set()
    wait_for_jobs()
    answer = ask(client, {**ROLL, "rerolled": 1})
    assert answer.status_code == 200 and answer.get_json()["best"]["kind"] in ("answer", "reroll", "set")
    assert slot_rows(app) == []  # the slot was freed with the answer


def test_the_outcomes_are_kept_in_the_database_for_every_process(app, client, gate):
    app.config["ADVICE_WAIT"] = 30.0  # a bounded wait: it ends as soon as the gate opens
    gate.open.set()
    assert ask(client, ROLL).status_code == 200
    with app.app_context():
        stored = db.session.execute(text("SELECT roll_key, scores_json FROM advice_outcomes")).all()
    assert [row.roll_key for row in stored] == [key_of(ROLL)]
    assert set(json.loads(stored[0].scores_json).values()) == {20}
    advice.forget()  # another process, which never solved these dice
    assert ask(client, {**ROLL, "set_faces": 1}, address="10.0.0.9").status_code == 200
    assert len(gate.asked) == 1


def test_one_question_per_client_and_the_queue_bound_hold_across_two_processes(app, gate, tmp_path):
    from suji.web import create_app

    other = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "test"})  # same database
    other.extensions["suji_schema_ready"] = True
    for one in (app, other):
        one.config.update(ADVICE_WAIT=0.0, ADVICE_QUEUE=2)
    first, second = app.test_client(), other.test_client()
    assert ask(first, ROLL, address="10.0.0.1").status_code == 202
    # The same client on the other process: another question is refused, its own dice are waited for.
    refused = ask(second, other_roll(0), address="10.0.0.1", lang="ja")
    assert refused.status_code == 429 and refused.get_json()["error"]["code"] == "already_asking"
    assert "ソルバー" in refused.get_json()["error"]["message"]
    assert ask(second, ROLL, address="10.0.0.1").status_code == 202
    # The queue holds two questions over both processes: the third client hears "busy", with when to retry.
    assert ask(second, other_roll(1), address="10.0.0.2").status_code == 202
    busy = ask(first, other_roll(2), address="10.0.0.3", lang="ja")
    assert busy.status_code == 503 and busy.headers["Retry-After"].isdigit()
    error = busy.get_json()["error"]
    assert error["code"] == "advice_busy" and error["retry_after"] >= 1
    assert f"{error['retry_after']}秒" in error["message"].replace(" ", "")
    assert [row.kind for row in slot_rows(app)] == ["advice", "advice"]
    gate.open.set()
    wait_for_jobs()
    assert slot_rows(other) == []
    assert ask(first, other_roll(2), address="10.0.0.3").status_code in (200, 202)  # a free slot again


def test_the_same_dice_asked_by_two_clients_are_solved_once(app, gate):
    app.config.update(ADVICE_WAIT=0.0, ADVICE_QUEUE=1)
    client = app.test_client()
    assert ask(client, ROLL, address="10.0.0.1").status_code == 202
    assert ask(client, ROLL, address="10.0.0.2").status_code == 202  # not "busy": it waits for the same work
    gate.open.set()
    wait_for_jobs()
    assert ask(client, ROLL, address="10.0.0.2").status_code == 200 and len(gate.asked) == 1


def test_the_games_page_hears_busy_and_pending_and_asks_again_by_itself(app, client, gate):
    from test_web_games import start_solo

    app.config.update(ADVICE_WAIT=0.0, ADVICE_QUEUE=1)
    game_id = start_solo(client)
    assert ask(app.test_client(), other_roll(3), address="10.0.0.7").status_code == 202  # the queue is full
    client.set_cookie("suji_lang", "ja")
    busy = client.get(f"/games/{game_id}/advice")
    assert busy.status_code == 503 and busy.headers["Retry-After"].isdigit()
    assert busy.get_json()["error"]["code"] == "advice_busy" and "秒" in busy.get_json()["error"]["message"]
    app.config["ADVICE_QUEUE"] = 2  # room for one more: this question is queued, and answered later
    client.set_cookie("suji_lang", "en")
    pending = client.get(f"/games/{game_id}/advice")
    assert pending.status_code == 202 and "Ask again in" in pending.get_json()["error"]["message"]
    gate.open.set()
    wait_for_jobs()
    answer = client.get(f"/games/{game_id}/advice", headers={"Accept-Language": "en"})
    assert answer.status_code == 200 and answer.get_json()["options"]
    script = client.get("/static/games.js").get_data(as_text=True)
    assert "answer.status === 202" in script and "retry_after" in script


def test_nine_questions_do_not_hold_the_threads_that_serve_pages(app, gate, monkeypatch):
    """Issue 21: nine advice questions made GET / wait 12 s. Now at most two request threads wait at once."""
    # Every request its own client (a real server sees them all from 127.0.0.1).
    from flask import request
    from waitress import create_server

    from suji.web import api

    monkeypatch.setattr(api, "client_key", lambda: "test:" + request.headers.get("X-Client", ""))
    # Questions wait for their answer as long as the gate is shut: a thread that waited would stay held.
    app.config.update(ADVICE_WAIT=600.0, ADVICE_QUEUE=4)
    server = create_server(app, host="127.0.0.1", port=0, threads=8, ident="")
    runner = threading.Thread(target=server.run, daemon=True)
    runner.start()
    url = f"http://127.0.0.1:{server.effective_port}"
    answers: dict[int, int] = {}
    answered = threading.Condition()

    def question(i: int) -> None:
        body = json.dumps(other_roll(i)).encode()
        request = urllib.request.Request(f"{url}/api/advise", data=body, headers={
            "Content-Type": "application/json", "X-Client": str(i)})  # fmt: skip
        try:
            with urllib.request.urlopen(request, timeout=600) as response:
                status = response.status
        except urllib.error.HTTPError as error:
            status = error.code
        with answered:
            answers[i] = status
            answered.notify_all()

    try:
        threads = [threading.Thread(target=question, args=(i,)) for i in range(9)]
        for thread in threads:
            thread.start()
        with answered:  # the seven that do not wait are answered while the solver is still shut
            answered.wait_for(lambda: len(answers) >= 7)
        assert sorted(answers.values()) == [202, 202] + [503] * 5
        with urllib.request.urlopen(f"{url}/", timeout=600) as page:  # the home page, while two questions wait
            assert page.status == 200
        assert not gate.open.is_set() and len(answers) == 7
        gate.open.set()
        for thread in threads:
            thread.join()
        assert sorted(answers.values()) == [200, 200, 202, 202] + [503] * 5
    finally:
        gate.open.set()
        stop(server, runner)

"""Expensive requests (worksheets, new classes) are bounded: a cap on one request, one per client, N in all.

The slots live in the database (suji.web.slots): a second app on the same database stands for a second server
process, and what it refuses comes from the rows the first one holds.
"""

from __future__ import annotations

import pytest
from sqlalchemy import text

from suji.web import slots
from suji.web.extensions import db

SHEET = "/worksheets/sheet.json?count=6&level=2&seed=heavy1"


def hold(app, client: str, limit: int = 1) -> slots.Slot:  # noqa: ANN001
    with app.app_context():
        return slots.take(slots.HEAVY, client, limit, 60)


def free(app, slot: slots.Slot) -> None:  # noqa: ANN001
    with app.app_context():
        slots.release(slot)


def test_a_sheet_of_more_problems_in_all_than_the_cap_is_refused_with_the_reason(client):
    from suji.web.worksheets import MAX_PROBLEMS

    ok = client.get(f"/worksheets/sheet.json?count={MAX_PROBLEMS // 2}&versions=2&seed=cap")
    assert ok.status_code == 200 and sum(len(v["problems"]) for v in ok.get_json()["versions"]) == MAX_PROBLEMS
    refused = client.get(f"/worksheets/sheet.json?count={MAX_PROBLEMS}&versions=6&seed=cap", headers={"Accept-Language": "en"})
    error = refused.get_json()["error"]
    assert refused.status_code == 400 and error["fields"] == ["count"]
    assert f"At most {MAX_PROBLEMS} problems in all" in error["message"] and "suji worksheet" in error["message"]
    page = client.get("/worksheets/sheet.pdf?count=20&versions=2&seed=cap", headers={"Accept-Language": "ja"})
    assert page.status_code == 400 and f"全部で{MAX_PROBLEMS}問まで" in page.get_data(as_text=True)


def test_a_new_seed_is_picked_without_making_the_sheet(client, monkeypatch):
    from suji.web import worksheets

    made = []
    monkeypatch.setattr(worksheets, "build_worksheet", lambda s: made.append(s) or pytest.fail("built"))
    response = client.get("/worksheets/sheet.pdf?count=12&versions=2&level=3")
    assert response.status_code == 302 and "seed=" in response.headers["Location"] and made == []


def test_all_slots_taken_anywhere_means_busy_with_when_to_retry(app, client):
    app.config["HEAVY_LIMIT"] = 1
    other = hold(app, "another teacher")
    try:
        busy = client.get(SHEET, headers={"Accept-Language": "ja"})
        assert busy.status_code == 503 and busy.headers["Retry-After"].isdigit()
        error = busy.get_json()["error"]
        assert error["code"] == "busy" and error["retry_after"] >= 1 and "秒" in error["message"]
        page = client.get(SHEET.replace("sheet.json", "print"), headers={"Accept-Language": "en"})
        assert page.status_code == 503 and "Try again in" in page.get_data(as_text=True)
        made = client.post("/class/new", data={"count": "3", "level": "1"}, headers={"Accept-Language": "en"})
        assert made.status_code == 503 and "being made right now" in made.get_data(as_text=True)
    finally:
        free(app, other)
    assert client.get(SHEET).status_code == 200
    assert client.post("/class/new", data={"count": "3", "level": "1"}).status_code == 303
    with app.app_context():
        assert db.session.execute(text("SELECT count(*) FROM work_slots")).scalar() == 0  # each request freed its own


def test_one_sheet_or_class_at_a_time_per_client_across_two_processes(app, client):
    from suji.web import create_app

    other_process = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "test"})  # same database
    other_process.extensions["suji_schema_ready"] = True
    mine = hold(other_process, "address:127.0.0.1", limit=4)  # this browser's sheet, under way on the other one
    try:
        refused = client.get(SHEET, headers={"Accept-Language": "en"})
        assert refused.status_code == 429 and refused.headers["Retry-After"].isdigit()
        assert refused.get_json()["error"]["code"] == "one_at_a_time"
        assert "still being made" in refused.get_json()["error"]["message"]
        other_client = app.test_client()
        assert other_client.get(SHEET, environ_base={"REMOTE_ADDR": "10.1.1.1"}).status_code == 200
    finally:
        free(other_process, mine)
    assert client.get(SHEET).status_code == 200


def test_a_slot_left_by_a_dead_process_expires(app):
    with app.app_context():
        slots.take(slots.HEAVY, "gone", 1, seconds=-1)  # as if its process died long ago
        slot = slots.take(slots.HEAVY, "next", 1, 60)
        assert slot.number == 0 and slots.taken(slots.HEAVY) == 1
        slots.release(slot)


def test_the_limits_come_from_the_environment_and_bad_values_are_refused_at_start():
    from suji.web.settings import Settings

    found = Settings.from_environ({"SUJI_ADVICE_QUEUE": "9", "SUJI_ADVICE_WAIT": "0", "SUJI_HEAVY_LIMIT": "2"})
    assert (found.advice_queue, found.advice_wait, found.heavy_limit) == (9, 0.0, 2)
    bad = Settings.from_environ({"SUJI_ADVICE_QUEUE": "0", "SUJI_ADVICE_WAIT": "-1", "SUJI_HEAVY_LIMIT": "many"})
    assert (bad.advice_queue, bad.advice_wait, bad.heavy_limit) == (4, 1.5, 4)
    # a whole-number setting out of its range stops the start with a message naming it (suji.web.startup)
    assert dict(bad.invalid) == {"SUJI_ADVICE_QUEUE": "0", "SUJI_HEAVY_LIMIT": "many"}

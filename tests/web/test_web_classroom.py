"""Class mode through the web app: the teacher's and the pupils' flow, and every bad case (wrong code, ended
session, reused name, second device, forged teacher token, another session's problem, rate limit, CSRF,
oversized input). The flow tests take the `app`/`client` fixtures, so test_classroom_postgres.py runs them again
on PostgreSQL."""

from __future__ import annotations

import hashlib
import io
import json
import re
import threading
from datetime import timedelta

import pytest
from sqlalchemy import select
from teacher_support import misses

from suji.core.furigana import strip_ruby
from suji.play.classroom import ClassProblem
from suji.web.classroom import purge_expired
from suji.web.classroom_models import ClassAnswer, ClassAttempt, ClassJoinFailure, ClassSession, ClassStudent
from suji.web.extensions import db
from suji.web.models import utcnow


def make_class(client, lang: str = "en", **form: str) -> tuple[str, str]:
    """Make a class as a teacher with `client`; (session id: the public one in its addresses, join code)."""
    client.set_cookie("suji_lang", lang)
    data = {"count": "3", "level": "1", "seed": "class-test", "hints": "yes", "hint_cost": "yes", **form}
    response = client.post("/class/new", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    session_id = response.location.rsplit("/", 1)[1]
    html = client.get(response.location).get_data(as_text=True)
    code = re.search(r'id="join-code"[^>]*>(\w+)<', html).group(1)
    return session_id, code


def pupil(app, code: str, name: str, lang: str = "en"):
    """A new browser that joins the class as `name`."""
    browser = app.test_client()
    browser.set_cookie("suji_lang", lang)
    response = browser.post("/join", data={"code": code, "nickname": name})
    assert response.status_code == 303, response.get_data(as_text=True)
    return browser


def session_row(session_id: str) -> ClassSession:
    """The session's row by the public id in its addresses (inside an app context)."""
    return db.session.scalar(select(ClassSession).where(ClassSession.public_id == session_id))


def problems(app, session_id: str) -> list[ClassProblem]:
    with app.app_context():
        cls = session_row(session_id)
        return [ClassProblem.from_dict(p) for p in json.loads(cls.problems_json)]


def a_miss(app, session_id: str) -> str:
    """A formula of the first problem's dice that misses every target: a try that counts."""
    return misses(problems(app, session_id)[0], 1)[0]


def flashes(html: str) -> list[str]:
    return re.findall(r'class="flash flash-\w+">([^<]*)<', html)


def answer(browser, code: str, problem: int, attempt: int, formula: str):
    return browser.post(
        f"/class/s/{code}/answer", data={"problem": problem, "attempt": attempt, "formula": formula}
    )


def page(browser, code: str) -> str:
    return browser.get(f"/class/s/{code}").get_data(as_text=True)


def results(client, session_id: str) -> dict:
    response = client.get(f"/api/class/{session_id}/results")
    assert response.status_code == 200
    return response.get_json()


def test_a_class_from_start_to_end(app, client):
    session_id, code = make_class(client)
    dashboard = client.get(f"/class/{session_id}").get_data(as_text=True)
    assert "Bookmark this private link" not in dashboard  # shown once, right after making the class
    ken, aya = pupil(app, code, "Ken"), pupil(app, code, "Aya")
    assert "has not started yet" in page(ken, code)
    assert client.post(f"/class/{session_id}/start").status_code == 303
    probs = problems(app, session_id)
    assert "Problem 1 of 3" in page(ken, code)
    # Ken: a miss, then the best formula; Aya: the best formula at once, then skips.
    assert answer(ken, code, 0, 0, str(probs[0].roll.number_dice[0])).status_code == 303  # a value, no target
    assert "Tries left: 2" in " ".join(flashes(page(ken, code)))
    answer(ken, code, 0, 1, probs[0].best_formula)
    assert f"Score: {probs[0].best_score}" in page(ken, code)
    answer(aya, code, 0, 0, probs[0].best_formula)
    aya.post(f"/class/s/{code}/next", data={"problem": 0})
    aya.post(f"/class/s/{code}/skip", data={"problem": 1, "attempt": 0})
    data = results(client, session_id)
    assert data["students"] == 2 and data["attempts"] == 3
    assert [r["name"] for r in data["rows"]] == ["Ken", "Aya"]
    assert data["rows"][0]["cells"][0] == {"attempts": 2, "hints": 0, "solved": True, "done": True,
                                           "score": probs[0].best_score}  # fmt: skip
    assert data["rows"][1]["total"] == probs[0].best_score and data["rows"][1]["cells"][1]["done"]
    assert data["problems"][0]["share_solved"] == 1.0 and data["problems"][0]["mistake"] == "not_target"
    assert data["problems"][1]["mistake"] == "skipped" and data["problems"][1]["mistake_name"] == "Skipped"
    assert "Ken" in data["html"] and "<table" in data["html"]
    assert data["html"].count('<span class="visually-hidden">skipped</span>') == 1  # Aya's skip, apart from a miss
    # What Ken's miss made instead of a target, for the teacher (issue 26): the value and the nearest target.
    assert "made " in data["html"] and "nearest target" in data["html"]
    # The end: no more answers, everyone's results (with the best formulas) stay readable.
    client.post(f"/class/{session_id}/end")
    assert results(client, session_id)["phase"] == "ended"
    ken.post(f"/class/s/{code}/next", data={"problem": 0})
    response = answer(ken, code, 1, 0, probs[1].best_formula)
    assert "This class session has ended." in flashes(page(ken, code))
    final = page(ken, code)
    assert f"Your total: {probs[0].best_score} of {sum(p.best_score for p in probs)} points" in final
    assert probs[2].best_formula in final
    assert response.status_code == 303
    assert "Ken" in client.get(f"/class/{session_id}").get_data(as_text=True)


def test_the_private_link_is_shown_once_and_opens_the_dashboard_elsewhere(app, client):
    client.set_cookie("suji_lang", "en")
    response = client.post("/class/new", data={"count": "2", "level": "2"})
    first = client.get(response.location).get_data(as_text=True)
    link = re.search(r'id="private-url">([^<]+)<', first).group(1)
    assert "Bookmark this private link" in first
    assert "Bookmark this private link" not in client.get(response.location).get_data(as_text=True)
    other = app.test_client()
    assert other.get(response.location).status_code == 403
    opened = other.get(link.replace("http://localhost", ""))
    assert opened.status_code == 303 and other.get(opened.location).status_code == 200
    with app.app_context():  # only the hash of the token is stored
        token = link.rsplit("/", 1)[1]
        assert (
            db.session.scalar(db.select(ClassSession.teacher_hash))
            == hashlib.sha256(token.encode()).hexdigest()
        )


def test_the_form_refuses_bad_settings_with_messages(client):
    client.set_cookie("suji_lang", "ja")
    response = client.post(
        "/class/new", data={"count": "99", "level": "9", "time_limit": "-1", "version": "Q"}
    )
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert len(re.findall(r'class="flash flash-error"', html)) == 4
    assert 'value="99"' in html  # what the teacher typed stays in the form


def test_the_problems_can_be_those_of_a_printed_worksheet(app, client):
    from suji.worksheets import sheet

    session_id, _ = make_class(client, count="4", level="mixed", seed="print-7", version="C")
    printed = sheet.build_worksheet(sheet.Settings(count=4, level="mixed", seed="print-7", versions=3))
    assert [p.roll for p in problems(app, session_id)] == [p.roll for p in printed.versions[2].problems]


def test_wrong_and_malformed_codes(app, client):
    make_class(client)
    browser = app.test_client()
    browser.set_cookie("suji_lang", "en")
    for code, status, text in (("", 400, "Type the class code"), ("ABC", 400, "6 letters and digits"),
                               ("AAAAAA", 404, "There is no class with the code AAAAAA"),
                               ("Z" * 5000, 400, "6 letters and digits")):  # fmt: skip
        response = browser.post("/join", data={"code": code, "nickname": "Ken"})
        assert response.status_code == status and text in response.get_data(as_text=True)
    response = browser.get("/class/s/AAAAAA")  # as for a class this browser has not joined: go and join
    assert response.status_code == 303 and response.location.endswith("/join/AAAAAA")
    response = browser.get("/api/class/AAAAAA/state")
    assert response.status_code == 404 and response.get_json()["error"]["code"] == "not_joined"


def test_names_in_a_class_are_unique_and_a_second_device_is_refused(app, client):
    _, code = make_class(client)
    first = pupil(app, code, "Ken")
    for name in ("Ken", "KEN", " ken "):
        other = app.test_client()
        other.set_cookie("suji_lang", "en")
        response = other.post("/join", data={"code": code, "nickname": name})
        assert response.status_code == 409
        assert "is already used in this class" in response.get_data(as_text=True)
        assert other.get(f"/class/s/{code}").status_code == 303  # not in: sent to the join form
    bad = app.test_client()
    for name, text in (("", "1 to 20 characters"), ("<script>", "may use only letters")):
        response = bad.post("/join", data={"code": code, "nickname": name}, headers={"Accept-Language": "en"})
        assert response.status_code == 400 and text in response.get_data(as_text=True)
    # The same browser again: it carries on as Ken, and is told so when it typed another name (issue 26).
    again = first.post("/join", data={"code": code, "nickname": "Someone"})
    assert again.location.endswith(f"/class/s/{code}")
    assert "You are already in this class as Ken" in " ".join(flashes(page(first, code)))
    first.post("/join", data={"code": code, "nickname": "ken"})
    assert "Welcome back, Ken!" in " ".join(flashes(page(first, code)))
    assert first.get(f"/join/{code.lower()}").status_code == 303
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(ClassStudent)) == 1


def test_rejoining_from_the_same_browser_continues_where_it_left_off(app, client):
    session_id, code = make_class(client)
    client.post(f"/class/{session_id}/start")
    ken = pupil(app, code, "Ken")
    probs = problems(app, session_id)
    answer(ken, code, 0, 0, probs[0].best_formula)
    ken.post(f"/class/s/{code}/next", data={"problem": 0})
    assert "Problem 2 of 3" in page(ken, code)
    assert ken.post("/join", data={"code": code, "nickname": "Ken"}).status_code == 303
    assert "Problem 2 of 3" in page(ken, code)


def test_an_ended_session_takes_no_one_new(app, client):
    session_id, code = make_class(client)
    client.post(f"/class/{session_id}/end")
    browser = app.test_client()
    response = browser.post(
        "/join", data={"code": code, "nickname": "Late"}, headers={"Accept-Language": "en"}
    )
    assert response.status_code == 400 and "This class session has ended." in response.get_data(as_text=True)


def test_a_forged_or_missing_teacher_token_opens_nothing(app, client):
    session_id, code = make_class(client)
    other_id, _ = make_class(client)
    forger = app.test_client()
    forger.set_cookie("suji_lang", "en")
    forger.set_cookie(f"suji_class_t{session_id}", "x" * 43)
    pupil_browser = pupil(app, code, "Ken")
    for browser in (forger, pupil_browser):
        for url in (f"/class/{session_id}", f"/class/{session_id}/results.csv", f"/class/{session_id}/summary",
                    f"/class/{session_id}/qr.svg", f"/class/{session_id}/delete"):  # fmt: skip
            assert browser.get(url).status_code == 403
        for action in ("start", "pause", "end", "delete"):
            assert browser.post(f"/class/{session_id}/{action}").status_code == 403
        response = browser.get(f"/api/class/{session_id}/results")
        assert response.status_code == 403
        assert response.get_json()["error"]["code"] == "not_teacher"
    # One session's token does not open another.
    token = client.get_cookie(f"suji_class_t{other_id}").value
    forger.set_cookie(f"suji_class_t{session_id}", token)
    assert forger.get(f"/class/{session_id}").status_code == 403
    assert forger.get("/class/teach/" + "y" * 43).status_code == 403
    with app.app_context():
        assert session_row(session_id).status == "waiting"


def test_a_pupil_cannot_answer_another_sessions_problem(app, client):
    session_a, code_a = make_class(client)
    session_b, code_b = make_class(client, seed="other")
    for session_id in (session_a, session_b):
        client.post(f"/class/{session_id}/start")
    ken = pupil(app, code_a, "Ken")
    pupil(app, code_b, "Aya")
    probs_b = problems(app, session_b)
    response = answer(ken, code_b, 0, 0, probs_b[0].best_formula)
    assert response.status_code == 303 and response.location.endswith(f"/join/{code_b}")
    response = ken.post(f"/api/class/{code_b}/hint", json={"step": 0, "roll": "0"})
    assert response.status_code == 404 and response.get_json()["error"]["code"] == "not_joined"
    # Nor a problem of its own session other than the current one.
    answer(ken, code_a, 2, 0, problems(app, session_a)[2].best_formula)
    assert "not your current one" in " ".join(flashes(page(ken, code_a)))
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(ClassAttempt)) == 0


def test_a_form_sent_twice_counts_once(app, client):
    session_id, code = make_class(client)
    client.post(f"/class/{session_id}/start")
    ken = pupil(app, code, "Ken")
    answer(ken, code, 0, 0, a_miss(app, session_id))
    answer(ken, code, 0, 0, a_miss(app, session_id))
    assert "sent twice" in " ".join(flashes(page(ken, code)))
    assert results(client, session_id)["attempts"] == 1


def test_the_teacher_is_told_that_a_formula_the_checker_refuses_is_no_try(client):
    for lang, text in (("en", "is not a try"), ("ja", "回数に数えません")):
        page = client.get("/class/new", headers={"Accept-Language": lang}).get_data(as_text=True)
        assert text in strip_ruby(page)


def test_a_formula_the_checker_refuses_uses_no_try_and_stays_in_the_box(app, client):
    session_id, code = make_class(client)
    client.post(f"/class/{session_id}/start")
    ken = pupil(app, code, "Ken")
    for typo in ("9999", "1++2", "1+"):  # no die shows 9; two operators side by side; an operator at the end
        response = answer(ken, code, 0, 0, typo)
        assert response.status_code == 303 and "formula=" in response.headers["Location"]
        shown = ken.get(response.headers["Location"]).get_data(as_text=True)
        assert "did not use up a try" in " ".join(flashes(shown)) and "Try 1 of 3" in shown
        assert f'value="{typo}"' in shown  # kept to mend
    assert results(client, session_id)["attempts"] == 0
    with app.app_context():
        for model in (ClassAttempt, ClassAnswer):  # nothing kept, not even the problem's empty row
            assert db.session.scalar(db.select(db.func.count()).select_from(model)) == 0
    answer(ken, code, 0, 0, a_miss(app, session_id))  # the page's try number is still right: it counts
    assert results(client, session_id)["attempts"] == 1


@pytest.mark.slow  # many threads at once: a proof for the full run
def test_many_pupils_answer_at_once_and_nothing_is_lost_or_doubled(app, client):
    session_id, code = make_class(client, count="2")
    client.post(f"/class/{session_id}/start")
    probs = problems(app, session_id)
    miss = a_miss(app, session_id)
    browsers = [pupil(app, code, f"P{i}") for i in range(12)]
    errors: list[BaseException] = []

    def work(browser) -> None:
        try:
            for _ in range(2):  # each form twice, as a double tap would: one of each pair counts
                answer(browser, code, 0, 0, miss)
            answer(browser, code, 0, 1, probs[0].best_formula)
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(b,)) for b in browsers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    data = results(client, session_id)
    assert data["attempts"] == 24
    assert all(r["cells"][0]["attempts"] == 2 and r["cells"][0]["solved"] for r in data["rows"])


def test_paused_not_started_and_time_limit_are_enforced_on_the_server(app, client):
    session_id, code = make_class(client, time_limit="10")
    ken = pupil(app, code, "Ken")
    probs = problems(app, session_id)
    answer(ken, code, 0, 0, probs[0].best_formula)
    assert "has not started yet" in " ".join(flashes(page(ken, code)))
    client.post(f"/class/{session_id}/start")
    client.post(f"/class/{session_id}/pause")
    answer(ken, code, 0, 0, probs[0].best_formula)
    assert "The class is paused" in " ".join(flashes(page(ken, code)))
    assert (
        ken.post(f"/api/class/{code}/hint", json={"step": 0, "roll": "0"}).get_json()["error"]["code"]
        == "paused"
    )
    with app.app_context():  # the pause lasted 5 minutes: the end moves back by as much
        cls = session_row(session_id)
        cls.paused_at -= timedelta(minutes=5)
        before = cls.ends_at
        db.session.commit()
    client.post(f"/class/{session_id}/start")
    with app.app_context():
        after = session_row(session_id).ends_at
        assert timedelta(minutes=4, seconds=59) < after - before <= timedelta(minutes=5, seconds=1)
        cls = session_row(session_id)
        cls.ends_at = utcnow() - timedelta(seconds=1)
        db.session.commit()
    answer(ken, code, 0, 0, probs[0].best_formula)
    html = page(ken, code)
    assert "Time is up. You cannot answer any more." in flashes(html) and "Time is up!" in html
    data = results(client, session_id)
    assert data["attempts"] == 0 and data["phase"] == "ended" and data["time_up"]
    assert ken.get(f"/api/class/{code}/state").get_json()["phase"] == "ended"


def test_a_pupil_whose_device_lost_its_place_joins_again_once_the_teacher_lets_them(app, client):
    session_id, code = make_class(client)
    client.post(f"/class/{session_id}/start")
    ken = pupil(app, code, "Ken")
    answer(ken, code, 0, 0, a_miss(app, session_id))
    new_device = app.test_client()
    new_device.set_cookie("suji_lang", "en")
    refused = new_device.post("/join", data={"code": code, "nickname": "ken"})
    assert refused.status_code == 409 and "ask your teacher" in refused.get_data(as_text=True)
    assert app.test_client().post(f"/class/{session_id}/release", data={"name": "Ken"}).status_code == 403
    assert "Allow rejoin" in client.get(f"/class/{session_id}").get_data(as_text=True)
    done = client.post(f"/class/{session_id}/release", data={"name": "Ken"}, follow_redirects=True)
    assert "Ken can join again" in done.get_data(as_text=True)
    assert "waiting to join again" in results(client, session_id)["html"]  # the grid shows it, at every poll
    moved = ken.get(f"/class/s/{code}", follow_redirects=True).get_data(as_text=True)
    assert "Your teacher let your name join again on another device" in moved  # the old browser is told why
    joined = new_device.post("/join", data={"code": code, "nickname": "KEN"}, follow_redirects=True)
    assert "Welcome back, Ken" in joined.get_data(as_text=True)
    row = results(client, session_id)["rows"]
    assert [r["name"] for r in row] == ["Ken"]  # the same pupil, work kept
    assert row[0]["cells"][0]["attempts"] == 1
    assert ken.get(f"/api/class/{code}/state").status_code == 404  # the old browser is no longer Ken
    assert "waiting to join again" not in results(client, session_id)["html"]
    third = app.test_client().post("/join", data={"code": code, "nickname": "Ken"})
    assert third.status_code == 409  # taken again, by the new device


def test_the_new_class_page_lists_this_browsers_sessions_newest_first(app, client):
    assert 'id="my-classes"' not in client.get("/class/new").get_data(as_text=True)
    first, first_code = make_class(client)
    second, second_code = make_class(client, seed="second")
    client.post(f"/class/{second}/start")
    page = client.get("/class/new").get_data(as_text=True)
    mine = page[page.index('id="my-classes"') :]
    assert mine.index(second_code) < mine.index(first_code)
    assert "Running" in mine and "Not started yet" in mine
    assert f'href="/class/{first}"' in mine
    client.set_cookie(f"suji_class_t{first}", "x" * 43)  # a forged link is not listed
    assert first_code not in client.get("/class/new").get_data(as_text=True)
    assert 'id="my-classes"' not in app.test_client().get("/class/new").get_data(as_text=True)


def _ends_at(app, session_id):
    with app.app_context():
        return session_row(session_id).ends_at


def test_five_more_minutes_while_the_class_runs_or_waits_paused_but_not_once_time_is_up(app, client):
    session_id, code = make_class(client, time_limit="10")
    assert 'id="more-time"' not in client.get(f"/class/{session_id}").get_data(as_text=True)  # not started
    client.post(f"/class/{session_id}/start")
    assert "+5 minutes" in client.get(f"/class/{session_id}").get_data(as_text=True)
    before = _ends_at(app, session_id)
    assert client.post(f"/class/{session_id}/more-time").status_code == 303
    assert _ends_at(app, session_id) - before == timedelta(minutes=5)
    client.post(f"/class/{session_id}/pause")
    client.post(f"/class/{session_id}/more-time")
    assert _ends_at(app, session_id) - before == timedelta(minutes=10)
    client.post(f"/class/{session_id}/start")
    with app.app_context():  # the time runs out: pupils see every best formula, so no more time after that
        cls = session_row(session_id)
        cls.ends_at = utcnow() - timedelta(seconds=1)
        db.session.commit()
    up = _ends_at(app, session_id)
    client.post(f"/class/{session_id}/more-time")
    assert _ends_at(app, session_id) == up and results(client, session_id)["time_up"]
    assert 'id="more-time"' not in client.get(f"/class/{session_id}").get_data(as_text=True)
    assert app.test_client().post(f"/class/{session_id}/more-time").status_code == 403  # teachers only
    untimed, _ = make_class(client, seed="untimed")
    client.post(f"/class/{untimed}/start")
    client.post(f"/class/{untimed}/more-time")
    assert _ends_at(app, untimed) is None


def test_hints_are_counted_priced_and_refused_when_off(app, client):
    session_id, code = make_class(client)
    client.post(f"/class/{session_id}/start")
    ken = pupil(app, code, "Ken")
    first = ken.post(f"/api/class/{code}/hint", json={"step": 0, "roll": "0"})
    assert first.status_code == 200 and first.get_json()["more"] and first.get_json()["hints_used"] == 1
    assert ken.post(f"/api/class/{code}/hint", json={"step": 2, "roll": "0"}).status_code == 400
    assert ken.post(f"/api/class/{code}/hint", json={"step": 0, "roll": "1"}).status_code == 409
    assert ken.post(f"/api/class/{code}/hint", data="not json").get_json()["error"]["code"] == "not_json"
    html = page(ken, code)
    assert 'data-hint-step="1"' in html and html.count("<li>") >= 1
    probs = problems(app, session_id)
    answer(ken, code, 0, 0, probs[0].best_formula)
    price = -(-probs[0].best_score // 4)
    assert results(client, session_id)["rows"][0]["cells"][0] == {
        "attempts": 1,
        "hints": 1,
        "solved": True,
        "done": True,
        "score": probs[0].best_score - price,
    }
    off_id, off_code = make_class(client, hints="no")
    client.post(f"/class/{off_id}/start")
    aya = pupil(app, off_code, "Aya", lang="ja")
    response = aya.post(f"/api/class/{off_code}/hint", json={"step": 0, "roll": "0"})
    assert response.status_code == 400 and response.get_json()["error"]["code"] == "no_hints"
    assert "ヒント" in response.get_json()["error"]["message"]
    assert "hint-button" not in page(aya, off_code)


def test_join_attempts_are_rate_limited_in_the_database(app, client):
    app.config["SUJI_CLASS_JOIN_LIMIT"] = 3
    _, code = make_class(client)
    guesser = app.test_client()
    guesser.get("/join")  # the browser's signed id (suji.web.clients)
    for wrong in ("AAAAAA", "AAAAAC", "aaaaac", "AAAAAD"):  # the same code twice is one code tried
        assert guesser.post("/join", data={"code": wrong, "nickname": "x"}).status_code == 404
    refused = guesser.post("/join", data={"code": code, "nickname": "x"}, headers={"Accept-Language": "en"})
    assert refused.status_code == 429 and "Too many wrong codes" in refused.get_data(as_text=True)
    # The count is in the database, so another app server on it refuses this browser too.
    from suji.web import create_app

    other = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "test",
                        "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
                        "SUJI_CLASS_JOIN_LIMIT": 3})  # fmt: skip
    same_browser = other.test_client()
    same_browser.set_cookie("suji_browser", guesser.get_cookie("suji_browser").value)
    assert same_browser.post("/join", data={"code": code, "nickname": "y"}).status_code == 429
    # Past the window the client may try again.
    with app.app_context():
        for failure in db.session.scalars(db.select(ClassJoinFailure)):
            failure.created_at -= timedelta(minutes=11)
        db.session.commit()
    assert guesser.post("/join", data={"code": code, "nickname": "x"}).status_code == 303


def test_delete_removes_the_session_and_all_its_answers(app, client):
    session_id, code = make_class(client)
    keep_id, keep_code = make_class(client, seed="keep")
    for sid in (session_id, keep_id):
        client.post(f"/class/{sid}/start")
    for sid, c in ((session_id, code), (keep_id, keep_code)):
        answer(pupil(app, c, "Ken"), c, 0, 0, a_miss(app, sid))
    assert "cannot be undone" in client.get(f"/class/{session_id}/delete").get_data(as_text=True)
    response = client.post(f"/class/{session_id}/delete")
    assert response.status_code == 303
    page = client.get(f"/class/{session_id}", headers={"Accept-Language": "en"})
    assert page.status_code == 404 and "It may have been deleted" in page.get_data(as_text=True)
    polled = client.get(f"/api/class/{session_id}/results", headers={"Accept-Language": "ja"})
    assert polled.status_code == 404 and polled.get_json()["error"]["code"] == "no_session"
    assert app.test_client().get(f"/class/{keep_id}").status_code == 403  # there, but not this browser's
    with app.app_context():
        for model in (ClassSession, ClassStudent, ClassAnswer, ClassAttempt):
            assert db.session.scalar(db.select(db.func.count()).select_from(model)) == 1
    assert pupil(app, keep_code, "Aya")


def test_old_sessions_are_purged_after_the_set_number_of_days(app, client):
    old_id, old_code = make_class(client)
    client.post(f"/class/{old_id}/start")
    answer(pupil(app, old_code, "Ken"), old_code, 0, 0, a_miss(app, old_id))
    new_id, _ = make_class(client, seed="new")
    with app.app_context():
        session_row(old_id).created_at -= timedelta(days=31)
        session_row(new_id).created_at -= timedelta(days=29)
        db.session.commit()
        assert purge_expired() == 1
        assert [s.public_id for s in db.session.scalars(db.select(ClassSession))] == [new_id]
        for model in (ClassStudent, ClassAnswer, ClassAttempt):
            assert db.session.scalar(db.select(db.func.count()).select_from(model)) == 0
        assert purge_expired(days=7) == 1
    # Making a session purges too, with the configured number of days.
    app.config["SUJI_CLASS_RETENTION_DAYS"] = 2
    third, third_code = make_class(client, seed="third")
    with app.app_context():
        session_row(third).created_at -= timedelta(days=3)
        db.session.commit()
    _, fourth_code = make_class(client, seed="fourth")
    with app.app_context():
        assert list(db.session.scalars(db.select(ClassSession.code))) == [fourth_code]


def test_csv_summary_and_qr(app, client):
    session_id, code = make_class(client, lang="ja")
    client.post(f"/class/{session_id}/start")
    answer(pupil(app, code, "けんた"), code, 0, 0, a_miss(app, session_id))
    response = client.get(f"/class/{session_id}/results.csv")
    assert response.mimetype == "text/csv" and response.data.startswith(b"\xef\xbb\xbf")
    assert "けんた" in response.data.decode("utf-8-sig")
    assert code in response.headers["Content-Disposition"]
    summary = client.get(f"/class/{session_id}/summary").get_data(as_text=True)
    assert "けんた" in summary and problems(app, session_id)[0].best_formula in summary
    # The date as the school reads it (SUJI_DAILY_TZ, Japan by default): 2026年12月2日 11:43, not ISO, not "JST".
    import re

    assert re.search(r"作成\d{4}年\d{1,2}月\d{1,2}日 \d{1,2}:\d{2}", summary) and " JST" not in summary
    qr = client.get(f"/class/{session_id}/qr.svg")
    assert qr.mimetype == "image/svg+xml" and qr.data.lstrip().startswith(b"<svg")
    import segno

    expected = io.BytesIO()  # the QR code holds exactly the join URL
    segno.make(f"http://localhost/join/{code}", error="m").save(
        expected, kind="svg", scale=8, border=2, xmldecl=False
    )
    assert qr.data == expected.getvalue()


def test_bad_ids_and_oversized_input_never_give_a_500(app, client):
    session_id, code = make_class(client)
    for url in ("/class/0", "/class/99999999999999999999999", f"/class/{2**63}/summary", f"/class/{2**64}/qr.svg",
                "/api/class/99999999999999999999/results", "/class/s/" + "A" * 3000, "/join/" + "!" * 300):  # fmt: skip
        assert client.get(url).status_code in (200, 303, 403, 404), url
    client.post(f"/class/{session_id}/start")
    ken = pupil(app, code, "Ken")
    for data in ({"problem": "9" * 40, "attempt": "0", "formula": "1"}, {"problem": "0", "attempt": "x" * 9999},
                 {"problem": "-1", "attempt": "0", "formula": "1"},
                 {"problem": "0", "attempt": "0", "formula": "1+" * 20000}):  # fmt: skip
        assert ken.post(f"/class/s/{code}/answer", data=data).status_code in (303, 413)
    for body in (
        {"step": 10**30, "roll": "0"},
        {"step": -1, "roll": "0"},
        {"step": 0, "roll": "9" * 50},
        [],
        "x",
    ):
        response = ken.post(f"/api/class/{code}/hint", json=body)
        assert 400 <= response.status_code < 500 and "error" in response.get_json()
    assert ken.post(f"/class/{2**64}/start").status_code == 404  # no session has such an id


def test_csrf_is_required_on_every_form_and_json_post(csrf_app):
    client = csrf_app.test_client()
    client.set_cookie("suji_lang", "en")
    assert client.post("/class/new", data={"count": "2"}).status_code == 400
    assert client.post("/join", data={"code": "AAAAAA", "nickname": "x"}).status_code == 400
    response = client.post("/api/class/AAAAAA/hint", json={"step": 0})
    assert response.status_code == 400 and response.get_json()["error"]["code"] == "csrf"
    html = client.get("/class/new").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
    assert client.post("/class/new", data={"count": "2", "csrf_token": token}).status_code == 303


def test_the_migrations_make_exactly_the_models_tables(app):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from suji.web.models import ensure_schema

    with app.app_context():
        ensure_schema()
        with db.engine.connect() as connection:
            diff = compare_metadata(MigrationContext.configure(connection), db.metadata)
    assert diff == []


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_page_is_in_the_readers_language(app, client, lang):
    session_id, code = make_class(client, lang=lang)
    ken = pupil(app, code, "Ken", lang=lang)
    word = {"ja": "クラス", "en": "Class"}[lang]
    for browser, url in ((client, "/class/new"), (client, f"/class/{session_id}"), (client, f"/class/{session_id}/summary"),
                         (ken, "/join"), (ken, f"/class/s/{code}")):  # fmt: skip
        html = browser.get(url).get_data(as_text=True)
        assert f'<html lang="{lang}">' in html and word in html, url


def test_the_dashboard_warns_when_pupils_could_not_reach_its_address(app, client):
    from suji.web.classroom import only_this_computer

    session_id, _ = make_class(client)
    here = client.get(f"/class/{session_id}").get_data(as_text=True)  # the test client's host is localhost
    assert 'id="loopback-note"' in here and "--host 0.0.0.0" in here
    for url, alone in (("http://127.0.0.1:8000/", True), ("http://[::1]:8000/", True),
                       ("http://192.168.1.20:8000/", False), ("http://suji.school.example/", False)):  # fmt: skip
        with app.test_request_context("/", base_url=url):
            assert only_this_computer() is alone, url


def test_a_class_number_beside_the_name_orders_the_grid_and_heads_the_csv(app, client):
    session_id, code = make_class(client, lang="ja")
    browsers = {}
    for name, number in (("けんた", "１２"), ("Mio", ""), ("はな", "3")):  # full-width digits too; optional
        browsers[name] = app.test_client()
        browsers[name].set_cookie("suji_lang", "ja")
        response = browsers[name].post("/join", data={"code": code, "nickname": name, "class_number": number})
        assert response.status_code == 303
    refused = app.test_client().post("/join", data={"code": code, "nickname": "Sora", "class_number": "100"})
    assert refused.status_code == 400 and "出席番号は1～99" in strip_ruby(refused.get_data(as_text=True))
    assert 'value="100"' in refused.get_data(as_text=True)  # what was typed is kept
    grid = client.get(f"/class/{session_id}").get_data(as_text=True)
    names = re.findall(r'<span class="pupil-named">(?:<span class="class-number">(\d+)</span> )?([^<\n]+)', grid)
    assert [(n, name.strip()) for n, name in names] == [("3", "はな"), ("12", "けんた"), ("", "Mio")]
    rows = client.get(f"/class/{session_id}/results.csv").data.decode("utf-8-sig").splitlines()
    assert rows[0].startswith("番号,名前") and [r.split(",")[:2] for r in rows[1:]] == [
        ["3", "はな"], ["12", "けんた"], ["", "Mio"]
    ]  # fmt: skip

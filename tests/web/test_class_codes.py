"""Class codes cannot be tried out (issue 21): every address with a code in it answers alike for an unknown code
and a class this browser has not joined, each such code counts toward the join limit, the limit is per browser
and per address (one child behind a school's NAT does not lock the school out), and class sessions have random
ids in their addresses."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select
from test_web_classroom import make_class, problems, pupil

from suji.play.classroom import CODE_ALPHABET
from suji.web.classroom_models import ClassJoinFailure, ClassSession
from suji.web.extensions import db


def other_code(code: str, n: int = 0) -> str:
    """The `n`th code of the right shape that is not `code` (the tests make one class, so no class has it)."""
    size = len(CODE_ALPHABET)
    candidate = "".join(CODE_ALPHABET[(n // size**i) % size] for i in range(len(code)))
    return candidate if candidate != code else other_code(code, n + 1000)


def browser(app, lang: str = "en"):
    """A new browser that has opened the join page (and so has its signed id)."""
    made = app.test_client()
    made.set_cookie("suji_lang", lang)
    made.get("/join")
    return made


def failures(app) -> int:
    with app.app_context():
        return db.session.scalar(select(db.func.count()).select_from(ClassJoinFailure))


# Every address with a class code in it, with what it sends.
CODE_ROUTES = [
    ("GET", "/class/s/{code}", None, None),
    ("POST", "/class/s/{code}/answer", {"problem": "0", "attempt": "0", "formula": "1+2"}, None),
    ("POST", "/class/s/{code}/skip", {"problem": "0", "attempt": "0"}, None),
    ("POST", "/class/s/{code}/next", {"problem": "0"}, None),
    ("GET", "/api/class/{code}/state", None, None),
    ("POST", "/api/class/{code}/hint", None, {"step": 0, "roll": "0"}),
    ("GET", "/join/{code}", None, None),
]


def _sent(client, method, path, form, body):
    if body is not None:
        return client.open(path, method=method, json=body)
    return client.open(path, method=method, data=form)


@pytest.mark.parametrize("method, path, form, body", CODE_ROUTES)
def test_every_code_route_answers_alike_for_an_unknown_code_and_one_not_joined(app, client, method, path, form,
                                                                               body):  # fmt: skip
    session_id, code = make_class(client)
    client.post(f"/class/{session_id}/start")
    pupil(app, code, "Ken")  # the class has a pupil, only not this browser
    unknown = other_code(code)
    asking = browser(app)
    answers = []
    for tried in (code, unknown):
        response = _sent(asking, method, path.format(code=tried), form, body)
        text = response.get_data(as_text=True).replace(tried, "<CODE>")
        location = response.headers.get("Location", "").replace(tried, "<CODE>")
        answers.append((response.status_code, location, response.mimetype, text))
    assert answers[0] == answers[1]
    assert answers[0][0] in (200, 303, 404)
    # …and both count as codes tried by this browser (the same code twice would count once)
    with app.app_context():
        assert db.session.scalar(select(db.func.count(db.distinct(ClassJoinFailure.code)))) == 2


def test_every_code_route_counts_toward_the_limit_and_then_refuses(app, client):
    app.config["SUJI_CLASS_JOIN_LIMIT"] = len(CODE_ROUTES)
    session_id, code = make_class(client)
    client.post(f"/class/{session_id}/start")
    guesser = browser(app)
    for n, (method, path, form, body) in enumerate(CODE_ROUTES):
        assert _sent(guesser, method, path.format(code=other_code(code, n)), form, body).status_code != 429
    assert failures(app) == len(CODE_ROUTES)
    refused = guesser.post("/join", data={"code": code, "nickname": "Aya"})
    assert refused.status_code == 429 and "Too many wrong codes" in refused.get_data(as_text=True)
    state = guesser.get(f"/api/class/{other_code(code, 99)}/state")
    assert state.status_code == 429 and state.get_json()["error"]["code"] == "too_many_tries"
    assert guesser.get(f"/class/s/{other_code(code, 98)}").status_code == 429
    assert guesser.get(f"/join/{code}").status_code == 429  # the real code too: past the limit, nothing is told
    # A pupil who did join goes on: the limit is on codes that lead nowhere
    ken = pupil(app, code, "Ken")
    assert ken.get(f"/api/class/{code}/state").status_code == 200


def test_one_browser_behind_a_schools_address_does_not_lock_out_the_others(app, client):
    """The NAT case: 21 wrong codes from one browser; a second browser at the same address still joins."""
    _, code = make_class(client)
    child = browser(app)
    for n in range(20):
        assert child.post("/join", data={"code": other_code(code, n), "nickname": "x"}).status_code == 404
    assert child.post("/join", data={"code": other_code(code, 20), "nickname": "x"}).status_code == 429
    assert child.post("/join", data={"code": code, "nickname": "x"}).status_code == 429
    classmate = browser(app)
    assert classmate.post("/join", data={"code": code, "nickname": "Aya"}).status_code == 303
    assert classmate.get(f"/class/s/{code}").status_code == 200


def test_the_address_has_its_own_higher_limit_and_clients_without_the_cookie_share_one(app, client):
    app.config["SUJI_CLASS_JOIN_LIMIT"] = 3
    app.config["SUJI_CLASS_JOIN_ADDRESS_LIMIT"] = 7
    _, code = make_class(client)
    # Clients that keep no cookie share one allowance per address
    for n in range(3):
        assert app.test_client().post("/join", data={"code": other_code(code, n), "nickname": "x"}).status_code == 404
    assert app.test_client().post("/join", data={"code": code, "nickname": "x"}).status_code == 429
    # a browser with its signed id has its own allowance (a forged id is as good as none)…
    forged = app.test_client()
    forged.set_cookie("suji_browser", "Im5vdC1zaWduZWQtYnktdGhlLWFwcCI.x")
    assert forged.post("/join", data={"code": code, "nickname": "x"}).status_code == 429
    for n in range(3, 7):
        b = browser(app)
        assert b.post("/join", data={"code": other_code(code, n), "nickname": "x"}).status_code == 404
    # …until the address as a whole reaches its limit: a client throwing its cookies away gains nothing
    assert browser(app).post("/join", data={"code": code, "nickname": "Aya"}).status_code == 429


def test_a_trusted_proxy_gives_each_client_its_own_address(app, client):
    app.config["SUJI_CLASS_JOIN_LIMIT"] = 2
    _, code = make_class(client)
    from suji.web import create_app

    for trusted, second in ((0, 429), (1, 303)):
        behind = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "test",
                             "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
                             "SUJI_CLASS_JOIN_LIMIT": 2, "SUJI_TRUSTED_PROXIES": trusted})  # fmt: skip
        with behind.app_context():
            db.session.execute(db.delete(ClassJoinFailure))
            db.session.commit()
        for n in range(2):  # cookie-less, from 10.0.0.1 by the header
            behind.test_client().post("/join", data={"code": other_code(code, n), "nickname": "x"},
                                      headers={"X-Forwarded-For": "10.0.0.1"})  # fmt: skip
        joining = behind.test_client().post("/join", data={"code": code, "nickname": f"P{trusted}"},
                                            headers={"X-Forwarded-For": "10.0.0.2"})  # fmt: skip
        # Untrusted, the header is ignored: both came from the proxy's own address, which is now refused.
        assert joining.status_code == second, trusted
        with behind.app_context():
            db.session.remove()
            db.engine.dispose()


def test_a_page_polling_a_deleted_class_counts_once(app, client):
    app.config["SUJI_CLASS_JOIN_LIMIT"] = 2
    session_id, code = make_class(client)
    client.post(f"/class/{session_id}/start")
    ken = pupil(app, code, "Ken")
    client.post(f"/class/{session_id}/delete")
    for _ in range(10):
        assert ken.get(f"/api/class/{code}/state").status_code == 404
    assert ken.get(f"/class/s/{code}").status_code == 303
    aya_code = make_class(client, seed="next")[1]
    assert ken.post("/join", data={"code": aya_code, "nickname": "Ken"}).status_code == 303


def test_session_ids_in_addresses_are_random_and_not_counted(app, client):
    ids = [make_class(client, seed=str(n))[0] for n in range(3)]
    assert len(set(ids)) == 3
    for session_id in ids:
        assert len(session_id) == 16 and not session_id.isdigit() and re.fullmatch(r"[\w-]+", session_id)
    with app.app_context():
        counted = [c.id for c in db.session.scalars(select(ClassSession).order_by(ClassSession.id))]
    page = client.get(f"/class/{ids[0]}").get_data(as_text=True)
    assert f"/class/{ids[0]}/start" in page and f"/api/class/{ids[0]}/results" in page
    assert not re.search(rf'/class/{counted[0]}(/|")', page)
    # Someone else's guess at an id learns nothing: a random id is not there, a counted one is "teachers only"
    stranger = app.test_client()
    assert stranger.get("/class/AAAAAAAAAAAAAAAA").status_code == 404
    for n in (counted[0], counted[-1] + 1):
        assert stranger.get(f"/class/{n}").status_code == 403


def test_an_address_by_the_counted_id_still_opens_an_older_session_for_its_teacher(app, client):
    """A teacher's dashboard left open, or bookmarked, from before the public ids (cookie named by the counted id)."""
    session_id, code = make_class(client)
    token = client.get_cookie(f"suji_class_t{session_id}").value
    with app.app_context():
        counted = db.session.scalar(select(ClassSession.id).where(ClassSession.public_id == session_id))
    before = app.test_client()
    before.set_cookie(f"suji_class_t{counted}", token)
    page = before.get(f"/class/{counted}")
    assert page.status_code == 200 and f"/class/{session_id}/start" in page.get_data(as_text=True)
    assert before.post(f"/class/{counted}/start").status_code == 303
    assert before.get(f"/api/class/{session_id}/results").get_json()["phase"] == "running"
    assert code in before.get("/class/new").get_data(as_text=True)  # listed among its sessions
    assert problems(app, session_id)

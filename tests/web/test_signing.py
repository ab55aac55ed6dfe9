"""Signed cookies and CSRF tokens checked once (suji.web.signing): the same verdicts as Flask and Flask-WTF."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from flask import request
from flask.sessions import SecureCookieSessionInterface

from suji.core.caching import clear_all
from suji.web import signing

CHECK = {"formula": "1+2", "target": 3, "number_dice": [1, 2], "operator_dice": ["+"]}


def token_of(html: str) -> str:
    match = re.search(r'<meta name="csrf-token" content="([^"]+)"', html)
    assert match
    return match.group(1)


def session_cookie(client) -> str:
    cookie = client.get_cookie("session")
    assert cookie is not None
    return cookie.value


@pytest.fixture(autouse=True)
def forget_signatures():
    clear_all()  # each test starts with nothing verified yet


def later(monkeypatch, seconds: float) -> None:
    """Move this module's clock `seconds` on."""
    now = signing.time.time()
    monkeypatch.setattr(signing.time, "time", lambda: now + seconds)


def opened(app, cookie: str, interface) -> dict:
    with app.test_request_context("/", headers={"Cookie": f"session={cookie}"}):
        return dict(interface.open_session(app, request))


def test_a_session_opens_as_flask_opens_it_the_first_time_and_after(csrf_app, csrf_client):
    csrf_client.get("/")
    cookie = session_cookie(csrf_client)
    flask_own = opened(csrf_app, cookie, SecureCookieSessionInterface())
    assert flask_own and "csrf_token" in flask_own
    assert opened(csrf_app, cookie, csrf_app.session_interface) == flask_own
    assert opened(csrf_app, cookie, csrf_app.session_interface) == flask_own  # remembered, same session


@pytest.mark.parametrize("tamper", [lambda c: c[:-2] + ("AA" if c[-2:] != "AA" else "BB"), lambda c: "x" + c])
def test_a_tampered_session_cookie_opens_an_empty_session_every_time(csrf_app, csrf_client, tamper):
    csrf_client.get("/")
    forged = tamper(session_cookie(csrf_client))
    for _ in range(2):
        assert opened(csrf_app, forged, csrf_app.session_interface) == {}
        assert opened(csrf_app, forged, SecureCookieSessionInterface()) == {}


def test_a_session_too_old_is_refused_even_once_it_was_verified(csrf_app, csrf_client, monkeypatch):
    csrf_app.permanent_session_lifetime = timedelta(seconds=100)
    csrf_client.get("/")
    cookie = session_cookie(csrf_client)
    assert opened(csrf_app, cookie, csrf_app.session_interface)
    later(monkeypatch, 101)
    assert opened(csrf_app, cookie, csrf_app.session_interface) == {}


def test_a_remembered_session_is_a_fresh_copy(csrf_app, csrf_client):
    csrf_client.get("/")
    cookie = session_cookie(csrf_client)
    first = csrf_app.session_interface.open_session
    with csrf_app.test_request_context("/", headers={"Cookie": f"session={cookie}"}):
        one = first(csrf_app, request)
        one["changed"] = [1]
        two = first(csrf_app, request)
    assert "changed" not in two


def test_a_token_works_again_and_again_and_a_wrong_one_never(csrf_client):
    token = token_of(csrf_client.get("/").get_data(as_text=True))
    for _ in range(3):
        assert csrf_client.post("/api/check", json=CHECK, headers={"X-CSRFToken": token}).status_code == 200
        assert (
            csrf_client.post("/api/check", json=CHECK, headers={"X-CSRFToken": token + "x"}).status_code
            == 400
        )


def test_a_verified_token_is_no_good_with_another_session(csrf_app):
    one, two = csrf_app.test_client(), csrf_app.test_client()
    token = token_of(one.get("/").get_data(as_text=True))
    two.get("/")
    assert one.post("/api/check", json=CHECK, headers={"X-CSRFToken": token}).status_code == 200
    response = two.post("/api/check", json=CHECK, headers={"X-CSRFToken": token})
    assert response.status_code == 400 and response.get_json()["error"]["code"] == "csrf"


def test_a_token_past_the_time_limit_is_refused_even_once_it_was_verified(csrf_app, monkeypatch):
    csrf_app.config["WTF_CSRF_TIME_LIMIT"] = 60
    client = csrf_app.test_client()
    token = token_of(client.get("/").get_data(as_text=True))
    assert client.post("/api/check", json=CHECK, headers={"X-CSRFToken": token}).status_code == 200
    later(monkeypatch, 61)
    assert client.post("/api/check", json=CHECK, headers={"X-CSRFToken": token}).status_code == 400


def test_a_form_token_is_read_from_the_form(csrf_client):
    html = csrf_client.get("/drill/1").get_data(as_text=True)
    token = token_of(html)
    response = csrf_client.post("/language", data={"lang": "en", "next": "/", "csrf_token": token})
    assert response.status_code == 303
    response = csrf_client.post("/language", data={"lang": "en", "next": "/", "csrf_token": token + "x"})
    assert response.status_code == 400


def test_over_https_a_write_needs_a_referrer_from_this_site(csrf_client):
    base = "https://localhost"
    token = token_of(csrf_client.get("/", base_url=base).get_data(as_text=True))
    headers = {"X-CSRFToken": token}
    assert csrf_client.post("/api/check", json=CHECK, headers=headers, base_url=base).status_code == 400
    elsewhere = {**headers, "Referer": "https://elsewhere.example/"}
    assert csrf_client.post("/api/check", json=CHECK, headers=elsewhere, base_url=base).status_code == 400
    here = {**headers, "Referer": f"{base}/drill/1"}
    assert csrf_client.post("/api/check", json=CHECK, headers=here, base_url=base).status_code == 200


def test_a_remembered_session_with_lists_is_decoded_afresh(csrf_app):
    with csrf_app.test_request_context("/"):
        from flask import session

        session["answers"] = {"q1": [1, 2]}
        response = csrf_app.make_response("")
        csrf_app.session_interface.save_session(csrf_app, session, response)
    cookie = response.headers["Set-Cookie"].split(";", 1)[0].split("=", 1)[1]
    with csrf_app.test_request_context("/", headers={"Cookie": f"session={cookie}"}):
        one = csrf_app.session_interface.open_session(csrf_app, request)
        one["answers"]["q1"].append(3)
        two = csrf_app.session_interface.open_session(csrf_app, request)
    assert two["answers"] == {"q1": [1, 2]}


@pytest.mark.parametrize(
    "header",
    [
        "",
        "session=abc",
        "a=1; b=2",
        'q="quoted \\"value\\""; a=1',
        "a=1; a=2",
        "broken; =x; y=",
        "lang=ja;session=x.y",
    ],
)
def test_cookies_are_parsed_as_werkzeug_parses_them(csrf_app, header):
    from werkzeug.wrappers import Request as PlainRequest

    environ = {"HTTP_COOKIE": header} if header else {}
    with csrf_app.test_request_context("/", environ_base=environ):
        ours = request.cookies
        again = csrf_app.request_class(request.environ).cookies
    plain = PlainRequest(dict(environ, REQUEST_METHOD="GET")).cookies
    assert list(ours.items(multi=True)) == list(plain.items(multi=True))
    assert again is ours  # the same header text: parsed once
    with pytest.raises(TypeError):
        ours["new"] = "x"  # shared between requests, so it cannot be changed

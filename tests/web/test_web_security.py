"""Safety: CSRF on every write, the Content-Security-Policy, cookie flags, the secret key, error pages."""

from __future__ import annotations

import re

import pytest

from suji.web import CONTENT_SECURITY_POLICY, create_app

JA = {"Accept-Language": "ja"}
EN = {"Accept-Language": "en"}
CHECK = {"formula": "1+2", "target": 3, "number_dice": [1, 2], "operator_dice": ["+"]}


def token_of(html: str) -> str:
    match = re.search(r'<meta name="csrf-token" content="([^"]+)"', html)
    assert match
    return match.group(1)


@pytest.mark.parametrize("path", ["/api/check", "/api/value"])
def test_api_without_csrf_token_is_refused_with_a_message(csrf_client, path):
    response = csrf_client.post(path, json=CHECK, headers=JA)
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error["code"] == "csrf" and "トークン" in error["message"]


def test_api_with_the_token_from_the_meta_tag(csrf_client):
    token = token_of(csrf_client.get("/").get_data(as_text=True))
    response = csrf_client.post("/api/check", json=CHECK, headers={"X-CSRFToken": token})
    assert response.status_code == 200 and response.get_json()["score"] == 2
    response = csrf_client.post("/api/check", json=CHECK, headers={"X-CSRFToken": token + "x"})
    assert response.status_code == 400


@pytest.mark.parametrize(("path", "data"), [("/language", {"lang": "en"}), ("/drill/1/new", {}),
                                            ("/drill/1/check", {"formula": "1+2"})])  # fmt: skip
def test_forms_without_csrf_token_are_refused(csrf_client, path, data):
    csrf_client.get("/drill/1")
    response = csrf_client.post(path, data=data, headers=EN)
    assert response.status_code == 400
    assert "security token" in response.get_data(as_text=True)


def test_forms_with_the_token_work(csrf_client):
    html = csrf_client.get("/drill/1").get_data(as_text=True)
    token = token_of(html)
    roll_token = re.search(r'data-roll="([^"]+)"', html).group(1)
    response = csrf_client.post(
        "/drill/1/check", data={"formula": "1+2", "csrf_token": token, "roll": roll_token}
    )
    # Taken (not refused for its token): the result, or the roll again when these dice cannot write 1+2
    assert response.status_code == 303 and re.search(r"/drill/1(/result|\?formula=1%2B2)$", response.headers["Location"])
    response = csrf_client.post("/language", data={"lang": "en", "next": "/drill/1", "csrf_token": token})
    assert response.status_code == 303


@pytest.mark.parametrize("path", ["/", "/drill/", "/drill/1", "/static/style.css", "/nowhere", "/api/check"])
def test_every_response_has_the_security_headers(client, path):
    response = client.get(path)
    assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    assert "script-src 'self'" in CONTENT_SECURITY_POLICY and "unsafe-inline" not in CONTENT_SECURITY_POLICY
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"
    response.close()


def test_pages_have_no_inline_script_or_style(client):
    for path in ("/", "/drill/", "/drill/1"):
        html = client.get(path).get_data(as_text=True)
        assert "<style" not in html and " style=" not in html
        assert all('src="' in tag for tag in re.findall(r"<script[^>]*>", html))
        assert not re.search(r"<[^>]+\son[a-z]+=", html)


def test_session_cookie_is_httponly_and_lax(client):
    response = client.get("/drill/1")
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie


def test_cookies_are_secure_with_suji_https(tmp_path, monkeypatch):
    monkeypatch.setenv("SUJI_HTTPS", "1")
    monkeypatch.setenv("SUJI_INSTANCE_PATH", str(tmp_path))
    client = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False}).test_client()
    assert "Secure" in client.get("/drill/1").headers["Set-Cookie"]
    assert "Secure" in client.post("/language", data={"lang": "en"}).headers["Set-Cookie"]


def test_cookies_are_secure_behind_https(client):
    response = client.get("/drill/1", base_url="https://localhost")
    assert "Secure" in response.headers["Set-Cookie"]


def test_secret_key_is_made_once_and_kept_in_the_sqlite_database(tmp_path, monkeypatch):
    from sqlalchemy import text

    from suji.web.extensions import db

    monkeypatch.delenv("SUJI_SECRET_KEY", raising=False)
    monkeypatch.setenv("SUJI_INSTANCE_PATH", str(tmp_path / "instance"))
    app = create_app()
    first = app.config["SECRET_KEY"]
    with app.app_context():
        assert db.session.execute(text("SELECT value FROM app_secrets")).scalar() == first
        db.engine.dispose()
    assert len(first) >= 32 and not (tmp_path / "instance" / "secret_key").exists()
    assert create_app().config["SECRET_KEY"] == first
    monkeypatch.setenv("SUJI_SECRET_KEY", "from-the-environment")
    assert create_app().config["SECRET_KEY"] == "from-the-environment"


@pytest.mark.parametrize(("headers", "text"), [(JA, "うまくいきませんでした"), (EN, "Something went wrong")])
def test_an_unexpected_exception_renders_the_500_page_in_the_page_language(
    tmp_path, monkeypatch, headers, text
):
    monkeypatch.setenv("SUJI_INSTANCE_PATH", str(tmp_path))
    app = create_app(
        {"TESTING": False, "PROPAGATE_EXCEPTIONS": False, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False}
    )

    @app.get("/boom")
    def boom():
        raise RuntimeError("crafted failure")

    @app.post("/api/boom")
    def api_boom():
        raise ZeroDivisionError

    client = app.test_client()
    response = client.get("/boom", headers=headers)
    assert response.status_code == 500
    html = response.get_data(as_text=True)
    assert text in html and "crafted failure" not in html and "Traceback" not in html
    response = client.post("/api/boom", headers=headers)
    assert response.status_code == 500 and response.get_json()["error"]["code"] == "server_error"


@pytest.mark.parametrize(("method", "path", "status", "ja"), [
    ("get", "/no/such/page", 404, "ページが見つかりません"),
    ("post", "/", 405, "できません"),
    ("get", "/language", 405, "できません"),
    ("get", "/drill/1/check", 405, "できません"),
])  # fmt: skip
def test_error_pages_in_japanese(client, method, path, status, ja):
    response = getattr(client, method)(path, headers=JA)
    assert response.status_code == status
    assert ja in response.get_data(as_text=True)
    assert response.content_type.startswith("text/html")


def test_huge_form_is_413_page(client):
    client.get("/drill/1")
    response = client.post("/drill/1/check", data={"formula": "1" * 100_000}, headers=JA)
    assert response.status_code == 413 and "大きすぎます" in response.get_data(as_text=True)


def test_form_junk_never_500s(client):
    client.get("/drill/1")
    for junk in (b"\xff\xfe\x00", b"formula=%ff%fe", b"formula=" + b"9" * 3000, b"=&=&&formula"):
        response = client.post("/drill/1/check", data=junk, content_type="application/x-www-form-urlencoded")
        assert response.status_code in (200, 303, 400)
    response = client.post(
        "/drill/1/check", data=b"\x00" * 100, content_type="multipart/form-data; boundary=x"
    )
    assert response.status_code in (200, 303, 400)


def test_tampered_session_starts_a_new_drill(client):
    client.set_cookie("session", "not-a-valid-signed-cookie")
    assert client.get("/drill/1").status_code == 200
    with client.session_transaction() as session:
        session["drill"] = {"level": 1, "seed": "not an int"}
    response = client.post("/drill/1/check", data={"formula": "1"})
    assert response.status_code == 303
    assert client.get("/drill/1").status_code == 200

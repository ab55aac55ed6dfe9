"""A school's or a district's deployment (issue 21): one secret key for every process, start-up checks with a
message, proxies trusted only when the setting says so, the public address in every link and QR code, 503 with
Retry-After when the database is not there, and `suji serve`'s connection limit.

The PostgreSQL tests use SUJI_TEST_POSTGRES_URL (as tests/web/test_games_postgres.py) and skip without it.
"""

from __future__ import annotations

import io
import os
import re
import secrets
import socket
import sqlite3
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest
from serving import stop
from sqlalchemy import text

from suji.web import create_app
from suji.web.extensions import db
from suji.web.startup import StartupError

SERVER_URL = os.environ.get("SUJI_TEST_POSTGRES_URL") or "postgresql://postgres@127.0.0.1/suji_test"
CSRF_META = re.compile(r'<meta name="csrf-token" content="([^"]+)"')
CHECK = {"formula": "1+2", "target": 3, "number_dice": [1, 2], "operator_dice": ["+"]}


def _libpq(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


@pytest.fixture
def postgres():
    """(server connection, URL of a new empty database); dropped afterwards. Skips without a server."""
    psycopg = pytest.importorskip("psycopg", reason="psycopg is not installed")
    from sqlalchemy.engine import make_url

    try:
        server = psycopg.connect(_libpq(SERVER_URL), autocommit=True, connect_timeout=3)
    except psycopg.Error as error:
        pytest.skip(f"no PostgreSQL server ({str(error).strip().splitlines()[0] if str(error).strip() else error}); "
                    "set SUJI_TEST_POSTGRES_URL or run .ci/run")  # fmt: skip
    name = f"suji_test_{secrets.token_hex(6)}"
    server.execute(f'CREATE DATABASE "{name}"')
    try:
        yield server, name, make_url(SERVER_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        server.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        server.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        server.close()


def made_app(instance: Path, monkeypatch, **config):
    """An app with its own instance folder, CSRF on, and `config` (as a test's config overrides the settings)."""
    monkeypatch.setenv("SUJI_INSTANCE_PATH", str(instance))
    return create_app({"TESTING": True, **config})


def closed(app) -> None:
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def form_from_one_sent_to_the_other(first, second) -> int:
    """A page drawn by `first`, its CSRF-protected JSON call sent to `second` with the same cookies: the status."""
    browser = first.test_client()
    token = CSRF_META.search(browser.get("/").get_data(as_text=True)).group(1)
    other = second.test_client()
    for cookie in ("session",):
        other.set_cookie(cookie, browser.get_cookie(cookie).value)
    return other.post("/api/check", json=CHECK, headers={"X-CSRFToken": token}).status_code


# ---- one secret key for every process ----


def test_two_processes_on_one_sqlite_database_sign_alike_with_no_key_set(tmp_path, monkeypatch):
    """No SUJI_SECRET_KEY, two instance folders, one SQLite file: the key is the database's, so a form drawn by
    one process is accepted by the other."""
    monkeypatch.delenv("SUJI_SECRET_KEY", raising=False)
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    first = made_app(tmp_path / "one", monkeypatch, SQLALCHEMY_DATABASE_URI=url)
    second = made_app(tmp_path / "two", monkeypatch, SQLALCHEMY_DATABASE_URI=url)
    assert first.config["SECRET_KEY"] == second.config["SECRET_KEY"]
    assert form_from_one_sent_to_the_other(first, second) == 200
    assert form_from_one_sent_to_the_other(second, first) == 200
    for app in (first, second):
        closed(app)


def test_an_instance_folders_older_key_is_taken_over(tmp_path, monkeypatch):
    """Upgrading keeps everybody's cookies: the key the instance folder kept before becomes the database's."""
    monkeypatch.delenv("SUJI_SECRET_KEY", raising=False)
    instance = tmp_path / "instance"
    instance.mkdir()
    old = secrets.token_hex(32)
    (instance / "secret_key").write_text(old, encoding="ascii")
    app = made_app(instance, monkeypatch)
    assert app.config["SECRET_KEY"] == old
    with app.app_context():
        assert db.session.execute(text("SELECT value FROM app_secrets WHERE name = 'secret_key'")).scalar() == old
    closed(app)


def test_the_app_refuses_to_start_on_postgresql_without_a_key(postgres, tmp_path, monkeypatch):
    _, _, url = postgres
    monkeypatch.delenv("SUJI_SECRET_KEY", raising=False)
    with pytest.raises(StartupError) as refused:
        made_app(tmp_path / "instance", monkeypatch, SQLALCHEMY_DATABASE_URI=url)
    assert refused.value.code == "secret_key_needed"
    assert "SUJI_SECRET_KEY" in str(refused.value) and "secrets.token_hex" in str(refused.value)
    assert "suji-ci" not in str(refused.value)  # the URL is shown without its password
    assert "SUJI_SECRET_KEY" in refused.value.message("ja") and refused.value.message("ja") != str(refused.value)


def test_with_the_key_set_two_processes_on_postgresql_accept_each_others_forms(postgres, tmp_path, monkeypatch):
    _, _, url = postgres
    key = secrets.token_hex(32)
    monkeypatch.setenv("SUJI_SECRET_KEY", key)
    first = made_app(tmp_path / "one", monkeypatch, SQLALCHEMY_DATABASE_URI=url)
    second = made_app(tmp_path / "two", monkeypatch, SQLALCHEMY_DATABASE_URI=url)
    assert first.config["SECRET_KEY"] == second.config["SECRET_KEY"] == key
    assert form_from_one_sent_to_the_other(first, second) == 200
    # and a key that differs is refused, as it must be
    monkeypatch.setenv("SUJI_SECRET_KEY", secrets.token_hex(32))
    third = made_app(tmp_path / "three", monkeypatch, SQLALCHEMY_DATABASE_URI=url)
    assert form_from_one_sent_to_the_other(first, third) == 400
    for app in (first, second, third):
        closed(app)


def serve_once(env: dict, *args: str) -> subprocess.CompletedProcess:
    """`suji serve` that is expected to stop at once (a start-up refused): its exit status and messages."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return subprocess.run(
        [sys.executable, "-m", "suji", "serve", "--port", str(port), *args], env={**os.environ, **env},
        capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
    )  # fmt: skip


def test_suji_serve_says_what_to_set_instead_of_starting(tmp_path, postgres):
    _, _, url = postgres
    env = {"SUJI_DATABASE_URL": url, "SUJI_SECRET_KEY": "", "SUJI_INSTANCE_PATH": str(tmp_path), "SUJI_LANG": "en"}
    done = serve_once(env)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "suji: SUJI_SECRET_KEY is not set" in done.stderr
    japanese = serve_once({**env, "SUJI_LANG": "ja"})
    assert japanese.returncode == 2 and "SUJI_SECRET_KEY" in japanese.stderr and "データベース" in japanese.stderr


# ---- the start-up checks ----


@pytest.mark.parametrize("name, value, code", [
    ("SUJI_TRUSTED_PROXIES", "yes", "bad_number"), ("SUJI_TRUSTED_PROXIES", "11", "bad_number"),
    ("SUJI_CONNECTION_LIMIT", "5", "bad_number"), ("SUJI_THREADS", "0", "bad_number"),
    ("SUJI_CLASS_JOIN_LIMIT", "-1", "bad_number"),
    ("SUJI_PUBLIC_URL", "suji.example.org", "bad_public_url"), ("SUJI_PUBLIC_URL", "ftp://x.example", "bad_public_url"),
    ("SUJI_PUBLIC_URL", "https://x.example/?a=1", "bad_public_url"), ("SUJI_PUBLIC_URL", "https://u@x.example", "bad_public_url"),
])  # fmt: skip
def test_a_setting_that_cannot_be_read_stops_the_start_with_a_message(tmp_path, monkeypatch, name, value, code):
    monkeypatch.setenv(name, value)
    with pytest.raises(StartupError) as refused:
        made_app(tmp_path, monkeypatch, SECRET_KEY="test")
    assert refused.value.code == code and value in str(refused.value)
    if code == "bad_number":
        assert name in str(refused.value)


def test_a_read_only_sqlite_database_is_found_at_the_start(tmp_path, monkeypatch):
    database = tmp_path / "suji.sqlite3"
    closed(made_app(tmp_path / "instance", monkeypatch, SECRET_KEY="test", SQLALCHEMY_DATABASE_URI=f"sqlite:///{database}"))
    # SQLite's read-only mode: what a file without write permission, a read-only disk or folder gives
    url = f"sqlite:///file:{database}?mode=ro&uri=true"
    with pytest.raises(StartupError) as refused:
        made_app(tmp_path / "instance", monkeypatch, SECRET_KEY="test", SQLALCHEMY_DATABASE_URI=url)
    assert refused.value.code == "database_read_only" and "readonly" in str(refused.value)
    assert "cannot be written" in str(refused.value) and "書き込めません" in refused.value.message("ja")


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root may write to any file")
def test_a_database_file_without_write_permission_is_found_at_the_start(tmp_path, monkeypatch):
    instance = tmp_path / "instance"
    instance.mkdir()
    sqlite3.connect(instance / "suji.sqlite3").close()
    (instance / "suji.sqlite3").chmod(0o444)
    with pytest.raises(StartupError) as refused:
        made_app(instance, monkeypatch, SECRET_KEY="test")
    assert refused.value.code == "database_read_only"


def test_a_database_that_cannot_be_opened_is_found_at_the_start(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'no such folder' / 'suji.sqlite3'}"
    with pytest.raises(StartupError) as refused:
        made_app(tmp_path / "instance", monkeypatch, SECRET_KEY="test", SQLALCHEMY_DATABASE_URI=url)
    assert refused.value.code == "database_unreachable" and "Cannot open the database" in str(refused.value)
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"postgresql://suji:secret-password@127.0.0.1:{port}/suji"
    with pytest.raises(StartupError) as refused:
        made_app(tmp_path / "instance", monkeypatch, SECRET_KEY="test", SQLALCHEMY_DATABASE_URI=url)
    assert refused.value.code == "database_unreachable" and "secret-password" not in str(refused.value)


# ---- proxies and the public address ----


def make_class(client, base_url: str = "http://localhost") -> tuple[str, str, str]:
    """(the dashboard's HTML, the session's public id, the join code) of a new class made by `client` at the
    address `base_url` (the host and scheme the request names)."""
    made = client.post("/class/new", data={"count": "1", "level": "1", "seed": "deploy"}, base_url=base_url)
    assert made.status_code == 303
    session_id = made.location.rsplit("/", 1)[1]
    html = client.get(made.location, base_url=base_url).get_data(as_text=True)
    return html, session_id, re.search(r'id="join-code"[^>]*>(\w+)<', html).group(1)


FORWARDED = {"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https", "X-Forwarded-Host": "school.example"}


@pytest.mark.parametrize("trusted", [0, 1])
def test_proxy_headers_count_only_when_the_setting_trusts_them(tmp_path, monkeypatch, trusted):
    from flask import request

    app = made_app(tmp_path, monkeypatch, SECRET_KEY="test", WTF_CSRF_ENABLED=False, SUJI_TRUSTED_PROXIES=trusted)

    @app.get("/who")
    def who():  # what the app believes about the request
        return {"address": request.remote_addr, "scheme": request.scheme, "host": request.host}

    client = app.test_client()
    client.environ_base.update({"REMOTE_ADDR": "10.0.0.5"})
    seen = client.get("/who", headers=FORWARDED).get_json()
    html = client.get(client.post("/class/new", data={"count": "1", "level": "1"}, headers=FORWARDED).location,
                      headers=FORWARDED).get_data(as_text=True)  # fmt: skip
    if trusted:
        assert seen == {"address": "203.0.113.9", "scheme": "https", "host": "school.example"}
        assert re.search(r"https://school\.example/join/\w{6}", html)
        assert re.search(r"https://school\.example/class/teach/[\w-]{43}", html)  # the private link over HTTPS
    else:
        assert seen == {"address": "10.0.0.5", "scheme": "http", "host": "localhost"}
        assert "school.example" not in html and re.search(r"http://localhost/join/\w{6}", html)
    closed(app)


def test_the_public_address_is_in_every_link_and_qr_code(tmp_path, monkeypatch):
    import segno
    from pypdf import PdfReader

    monkeypatch.setenv("SUJI_PUBLIC_URL", "https://school.example/suji/")
    app = made_app(tmp_path, monkeypatch, SECRET_KEY="test", WTF_CSRF_ENABLED=False)
    teacher = app.test_client()
    html, session_id, code = make_class(teacher, "http://127.0.0.1:8000")  # the app itself, behind the proxy
    assert f"https://school.example/suji/join/{code}" in html
    assert re.search(r"https://school\.example/suji/class/teach/[\w-]{43}", html)
    assert 'id="loopback-note"' not in html  # pupils reach the public address, whatever the teacher opened
    expected = io.BytesIO()
    segno.make(f"https://school.example/suji/join/{code}", error="m").save(
        expected, kind="svg", scale=8, border=2, xmldecl=False
    )
    assert teacher.get(f"/class/{session_id}/qr.svg", base_url="http://127.0.0.1:8000").data == expected.getvalue()
    pupil = app.test_client()
    here = "http://127.0.0.1:8000"
    problem = pupil.get("/api/practice/next", base_url=here).get_json()["problem"]
    pupil.post("/api/practice/answer", json={"id": problem["id"], "give_up": True}, base_url=here)
    pupil.post("/practice/code", base_url=here)
    card = PdfReader(io.BytesIO(pupil.get("/practice/card.pdf", base_url=here).data)).pages[0].extract_text()
    card = card.replace("\n", "")
    assert "https://school.example/suji/practice/signin#" in card
    closed(app)


def test_links_follow_the_request_without_a_public_address(tmp_path, monkeypatch):
    app = made_app(tmp_path, monkeypatch, SECRET_KEY="test", WTF_CSRF_ENABLED=False)
    for host, alone in (("192.168.1.20:8000", False), ("127.0.0.1:8000", True)):
        html, _, code = make_class(app.test_client(), f"http://{host}")
        assert f"http://{host}/join/{code}" in html
        assert ('id="loopback-note"' in html) == alone  # only this computer opens 127.0.0.1: the page says so
    closed(app)


# ---- the database not there: 503 with Retry-After ----


@contextmanager
def locked(database: Path):
    """Another connection holding SQLite's write lock (a backup, a stuck process) while the block runs."""
    holder = sqlite3.connect(database, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        yield
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def assert_503(response, lang: str, json: bool) -> None:
    assert response.status_code == 503, response.get_data(as_text=True)[:300]
    assert int(response.headers["Retry-After"]) > 0
    if json:
        error = response.get_json()["error"]
        assert error["code"] == "database_unavailable"
        assert ("少し待って" if lang == "ja" else "Wait a moment") in error["message"]
    else:
        page = response.get_data(as_text=True)
        assert f'<html lang="{lang}">' in page and ("少し待って" if lang == "ja" else "Wait a moment") in page


def test_a_database_locked_too_long_answers_503_with_retry_after(app):
    # The `app` fixture's database (migrated), opened again by an app that waits 0.1 s for a lock instead of 15 s
    instance = Path(app.instance_path)
    quick = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "test", "SQLITE_BUSY_TIMEOUT_MS": 100})
    assert quick.instance_path == app.instance_path
    quick.extensions["suji_schema_ready"] = True
    client = quick.test_client()
    problem = client.get("/api/practice/next").get_json()["problem"]
    with locked(instance / "suji.sqlite3"):
        for lang in ("ja", "en"):
            client.set_cookie("suji_lang", lang)
            assert_503(client.post("/games/solo", data={"targets": "3"}), lang, json=False)
            answered = client.post("/api/practice/answer", json={"id": problem["id"], "give_up": True})
            assert_503(answered, lang, json=True)
    assert client.post("/api/practice/answer", json={"id": problem["id"], "give_up": True}).status_code == 200
    assert client.post("/games/solo", data={"targets": "3"}).status_code == 303  # back again
    closed(quick)


def test_a_postgresql_outage_answers_503_and_the_app_recovers(postgres, tmp_path, monkeypatch):
    server, name, url = postgres
    app = made_app(tmp_path, monkeypatch, SECRET_KEY="test", WTF_CSRF_ENABLED=False, SQLALCHEMY_DATABASE_URI=url)
    client = app.test_client()
    assert client.post("/games/solo", data={"targets": "3"}).status_code == 303  # connections pooled
    # The outage: no new connections, and every open one cut (as a restart or a failover does)
    server.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
    server.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))
    for lang in ("ja", "en"):
        client.set_cookie("suji_lang", lang)
        assert_503(client.get("/games/"), lang, json=False)
        assert_503(client.post("/games/solo", data={"targets": "3"}), lang, json=False)
        assert_503(client.get("/api/practice/next"), lang, json=True)
        assert_503(client.get("/class/new"), lang, json=False)
    # pages that need no database still work
    assert client.get("/drill/").status_code == 200
    server.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
    assert client.get("/games/").status_code == 200
    closed(app)


# ---- suji serve ----


def test_suji_serve_takes_its_threads_and_connection_limit_from_the_settings(tmp_path, monkeypatch):
    from suji.web.serve import build_server

    app = made_app(tmp_path, monkeypatch, SECRET_KEY="test")
    server = build_server(app, "127.0.0.1", 0, threads=3, connection_limit=700)
    try:
        assert server.adj.threads == 3 and server.adj.connection_limit == 700
        assert server.adj.channel_timeout == 60
    finally:
        server.close()
    from suji.web.settings import DEFAULT_CONNECTION_LIMIT, DEFAULT_THREADS, Settings

    assert Settings.from_environ({}).connection_limit == DEFAULT_CONNECTION_LIMIT == 1000
    assert Settings.from_environ({}).threads == DEFAULT_THREADS
    assert Settings.from_environ({"SUJI_CONNECTION_LIMIT": "2500", "SUJI_THREADS": "16"}).connection_limit == 2500
    closed(app)


@pytest.mark.parametrize(("trusted", "seen"), [(1, "203.0.113.7"), (0, "127.0.0.1")])
def test_suji_serve_passes_a_trusted_proxys_client_address_to_the_app(tmp_path, monkeypatch, trusted, seen):
    """Behind nginx (SUJI_TRUSTED_PROXIES=1) the app sees the client's address that nginx sends in
    X-Forwarded-For (waitress drops the header by default: then every school had nginx's one address for the
    limits); trusting no proxy, the header is ignored and the address is the connection's."""
    import http.client
    import threading

    from flask import request

    from suji.web.serve import build_server

    app = made_app(tmp_path, monkeypatch, SECRET_KEY="test", SUJI_TRUSTED_PROXIES=trusted)
    app.add_url_rule("/test-address", "test_address", lambda: request.remote_addr or "")
    server = build_server(app, "127.0.0.1", 0, threads=2, connection_limit=20)
    runner = threading.Thread(target=server.run, daemon=True)
    runner.start()
    try:
        connection = http.client.HTTPConnection("127.0.0.1", server.effective_port, timeout=30)
        connection.request("GET", "/test-address", headers={"X-Forwarded-For": "203.0.113.7"})
        response = connection.getresponse()
        assert (response.status, response.read().decode()) == (200, seen)
        connection.close()
    finally:
        stop(server, runner)
    closed(app)


def test_suji_serve_refuses_a_connection_limit_out_of_range():
    done = serve_once({"SUJI_LANG": "en"}, "--connection-limit", "3")
    assert done.returncode == 2 and "connection limit must be a whole number" in done.stderr

"""The migrations of issue 24 (0003_teachers, 0004_classes and those after them) upgrade a database of today's schema
with its rows kept: players, games, a live class session with pupils and answers stay, with no account and no
class; on SQLite and, when a server is there, on PostgreSQL."""

from __future__ import annotations

import hashlib
import os
import secrets

import pytest
from sqlalchemy import text

from suji.web.extensions import db

TEACHER_TOKEN = "t" * 43  # the teacher's link of the second session, kept in a cookie named by its counted id
ROWS = [
    "INSERT INTO players (id, token_hash, nickname, created_at, version) VALUES (1, 'p1', 'Hana', '2026-11-01 09:00:00', 1)",
    "INSERT INTO games (id, player_id, mode, rounds_total, status, current_round, current_seat, total, best_total, "
    "created_at, version) VALUES (1, 1, 'solo', 3, 'playing', 0, 0, 0, 0, '2026-11-01 09:00:00', 1)",
    "INSERT INTO class_sessions (id, code, teacher_hash, settings_json, problems_json, status, created_at, version) "
    "VALUES (1, 'KMQTXA', 'h1', '{}', '[]', 'running', '2026-11-01 09:00:00', 1)",
    "INSERT INTO class_sessions (id, code, teacher_hash, settings_json, problems_json, status, created_at, version) "
    f"VALUES (2, 'KMQTXC', '{hashlib.sha256(TEACHER_TOKEN.encode()).hexdigest()}', '{{}}', '[]', 'waiting', "
    "'2026-11-02 09:00:00', 1)",
    "INSERT INTO class_students (id, session_id, nickname, name_key, token_hash, position, joined_at, version) "
    "VALUES (1, 1, 'Ken', 'ken', 't1', 1, '2026-11-01 09:05:00', 1)",
    "INSERT INTO class_answers (id, session_id, student_id, problem, attempts, hints_used, solved, done, score, "
    "formula, updated_at, version) VALUES (1, 1, 1, 0, 1, 0, true, true, 12, '21+4', '2026-11-01 09:06:00', 1)",
]


def upgrade_with_rows(app) -> None:
    from flask_migrate import upgrade

    from suji.web.models import MIGRATIONS

    with app.app_context():
        upgrade(directory=str(MIGRATIONS), revision="0002")  # today's schema before issue 24
        for statement in ROWS:
            db.session.execute(text(statement))
        db.session.commit()
        upgrade(directory=str(MIGRATIONS))  # to the head
        assert db.session.execute(text("SELECT nickname FROM players")).scalar() == "Hana"
        assert db.session.execute(text("SELECT mode FROM games")).scalar() == "solo"
        session = db.session.execute(text("SELECT code, teacher_id FROM class_sessions WHERE id = 1")).one()
        assert tuple(session) == ("KMQTXA", None)
        # 0006_deployment: every session has a random public id for its addresses
        public = db.session.execute(text("SELECT public_id FROM class_sessions")).scalars().all()
        assert len(public) == 2 and len(set(public)) == 2
        assert all(len(p) == 16 and not p.isdigit() for p in public)
        assert db.session.execute(text("SELECT nickname FROM class_students")).scalar() == "Ken"
        assert db.session.execute(text("SELECT score FROM class_answers")).scalar() == 12
        for table in ("teachers", "school_classes", "class_pupils"):
            assert db.session.execute(text(f"SELECT count(*) FROM {table}")).scalar() == 0
        db.session.remove()


def test_an_sqlite_database_of_today_upgrades_with_its_rows(tmp_path, monkeypatch):
    from suji.web import create_app

    monkeypatch.setenv("SUJI_INSTANCE_PATH", str(tmp_path / "instance"))
    app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "test"})
    upgrade_with_rows(app)
    client = app.test_client()  # and the app works on it: the old session's dashboard is still the token's
    assert client.get("/class/1").status_code == 403
    opened_before(app)


def opened_before(app) -> None:
    """A teacher's browser from before 0006 (an address and a cookie by the counted id) still opens its session,
    whose page then leads on by the public id."""
    teacher = app.test_client()
    teacher.set_cookie("suji_class_t2", TEACHER_TOKEN)
    page = teacher.get("/class/2")
    assert page.status_code == 200
    with app.app_context():
        public = db.session.execute(text("SELECT public_id FROM class_sessions WHERE id = 2")).scalar()
        db.session.remove()
    assert f"/class/{public}/start" in page.get_data(as_text=True)
    assert teacher.get(f"/api/class/{public}/results").status_code == 200


def test_a_postgresql_database_of_today_upgrades_with_its_rows(tmp_path, monkeypatch):
    psycopg = pytest.importorskip("psycopg", reason="psycopg is not installed")
    from sqlalchemy.engine import make_url

    from suji.web import create_app

    server_url = os.environ.get("SUJI_TEST_POSTGRES_URL") or "postgresql://postgres@127.0.0.1/suji_test"
    libpq = make_url(server_url).set(drivername="postgresql").render_as_string(hide_password=False)
    try:
        server = psycopg.connect(libpq, autocommit=True, connect_timeout=3)
    except psycopg.Error as error:
        pytest.skip(f"no PostgreSQL server ({str(error).strip().splitlines()[0] if str(error).strip() else error})")
    name = f"suji_test_{secrets.token_hex(6)}"
    server.execute(f'CREATE DATABASE "{name}"')
    try:
        monkeypatch.setenv("SUJI_INSTANCE_PATH", str(tmp_path / "instance"))
        url = make_url(server_url).set(database=name).render_as_string(hide_password=False)
        app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": url})
        upgrade_with_rows(app)
        opened_before(app)
        with app.app_context():
            db.engine.dispose()
    finally:
        server.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        server.close()

"""The migration of a class's pupils on any device (0008_pupils: cards, practice, homework, live lessons, the daily
board) upgrades a database of main's schema (0005) with its rows kept: a teacher, a class with pupils, a live
session with a pupil's answer, a practice profile, a daily puzzle; on SQLite and, when a server is there, on
PostgreSQL. Then the app works on it: the old pupils get cards and sign in."""

from __future__ import annotations

import os
import secrets

import pytest
from sqlalchemy import text

from suji.web.extensions import db

ROWS = [
    "INSERT INTO teachers (id, email, password_hash, generation, created_at, password_changed_at, version) "
    "VALUES (1, 'sato@school.example', 'x', 1, '2026-11-01 09:00:00', '2026-11-01 09:00:00', 1)",
    "INSERT INTO school_classes (id, public_id, teacher_id, name, school_year, ends_on, leaderboard, created_at, version) "
    "VALUES (1, 'class-public-1', 1, '4-2', 2026, '2027-03-31', 'off', '2026-11-01 09:00:00', 1)",
    "INSERT INTO class_pupils (id, public_id, class_id, name, name_key, number, extra_time, free_hints, created_at, version) "
    "VALUES (1, 'pupil-public-1', 1, 'Hana', 'hana', 1, '1.5', true, '2026-11-01 09:00:00', 1)",
    "INSERT INTO class_sessions (id, code, teacher_hash, teacher_id, settings_json, problems_json, status, created_at, version) "
    "VALUES (1, 'KMQTXA', 'h1', 1, '{}', '[]', 'running', '2026-11-01 09:00:00', 1)",
    "INSERT INTO class_students (id, session_id, nickname, name_key, token_hash, position, joined_at, version) "
    "VALUES (1, 1, 'Ken', 'ken', 't1', 1, '2026-11-01 09:05:00', 1)",
    "INSERT INTO class_answers (id, session_id, student_id, problem, attempts, hints_used, solved, done, score, "
    "formula, updated_at, version) VALUES (1, 1, 1, 0, 1, 0, true, true, 12, '21+4', '2026-11-01 09:06:00', 1)",
    "INSERT INTO practice_profiles (id, public_id, learner_json, rating, answered, since_review, days_streak, "
    "days_longest, created_at, last_seen_at, version) VALUES (1, 'profile-public-1', '{}', 0.5, 3, 0, 1, 1, "
    "'2026-11-01 09:00:00', '2026-11-01 09:00:00', 1)",
    "INSERT INTO players (id, token_hash, nickname, created_at, version) VALUES (1, 'p1', 'Hana', '2026-11-01 09:00:00', 1)",
    "INSERT INTO daily_entries (id, day, player_id, target_dice, number_dice, operator_dice, rerolled, set_faces, "
    "rerolls_made, status, formula, points, score, best_points, best_score, best_formula, created_at, version) "
    "VALUES (1, '2026-11-01', 1, '4 4 6', '1 2 3 4 5', '+ + - x', 0, 0, 0, 'made', '1+2', 3, 3, 9, 9, '', '2026-11-01 09:00:00', 1)",
]


def upgrade_with_rows(app) -> None:
    from flask_migrate import upgrade

    from suji.web.models import MIGRATIONS, migration_head

    with app.app_context():
        upgrade(directory=str(MIGRATIONS), revision="0005")  # main's schema before this migration
        for statement in ROWS:
            db.session.execute(text(statement))
        if db.engine.dialect.name == "postgresql":  # rows given their ids leave the sequences behind them
            for table in ("teachers", "school_classes", "class_pupils", "class_sessions", "class_students",
                          "class_answers", "practice_profiles", "players", "daily_entries"):  # fmt: skip
                db.session.execute(text(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))"))
        db.session.commit()
        upgrade(directory=str(MIGRATIONS))  # to the head
        assert db.session.execute(text("SELECT version_num FROM alembic_version")).scalar() == migration_head()
        pupil = db.session.execute(
            text("SELECT name, extra_time, free_hints, signin_hash, profile_id FROM class_pupils")
        ).one()
        assert tuple(pupil) == ("Hana", "1.5", True, None, None)
        session = db.session.execute(text("SELECT code, teacher_id, school_class_id FROM class_sessions")).one()
        assert tuple(session) == ("KMQTXA", 1, None)
        assert db.session.execute(text("SELECT nickname, pupil_id FROM class_students")).one() == ("Ken", None)
        assert db.session.execute(text("SELECT score FROM class_answers")).scalar() == 12
        assert db.session.execute(text("SELECT answered FROM practice_profiles")).scalar() == 3
        assert db.session.execute(text("SELECT score FROM daily_entries")).scalar() == 3
        for table in ("class_assignments", "assignment_work", "assignment_answers", "assignment_attempts",
                      "class_daily_entries"):  # fmt: skip
            assert db.session.execute(text(f"SELECT count(*) FROM {table}")).scalar() == 0
        db.session.remove()
    app.extensions["suji_schema_ready"] = True
    # The app works on it: the teacher's old pupil gets a card and signs in; the old session still answers.
    from suji.web.classes import signin
    from suji.web.classes.models import ClassPupil

    with app.test_request_context():
        [(_, code)] = signin.make_cards([db.session.get(ClassPupil, 1)])
    device = app.test_client()
    device.set_cookie("suji_lang", "en")
    assert device.post("/signin", data={"code": code}).status_code == 303
    assert "Hello, Hana!" in device.get("/my/").get_data(as_text=True)
    with app.app_context():
        assert db.session.execute(text("SELECT profile_id FROM class_pupils")).scalar() == 2  # a new profile
        db.session.remove()


def test_an_sqlite_database_of_main_upgrades_with_its_rows(tmp_path, monkeypatch):
    from suji.web import create_app

    monkeypatch.setenv("SUJI_INSTANCE_PATH", str(tmp_path / "instance"))
    app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "test"})
    upgrade_with_rows(app)


def test_a_postgresql_database_of_main_upgrades_with_its_rows(tmp_path, monkeypatch):
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
        with app.app_context():
            db.engine.dispose()
    finally:
        server.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        server.close()

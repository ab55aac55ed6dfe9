"""Migration 0005 (practice) on top of a database that already holds games and a class: nothing is lost."""

from __future__ import annotations

from sqlalchemy import inspect, text

from suji.web.extensions import db
from suji.web.models import MIGRATIONS, migration_head

PRACTICE_TABLES = {"practice_profiles", "practice_answers", "practice_item_stats", "practice_signin_failures"}


def tables() -> set[str]:
    # On the session's own connection: SQLite takes the write lock at BEGIN (suji.web.models), one at a time.
    return set(inspect(db.session.connection()).get_table_names())


def test_upgrading_a_database_with_rows_in_it_keeps_them(tmp_path, monkeypatch):
    from flask_migrate import downgrade, upgrade

    from suji.web import create_app

    monkeypatch.setenv("SUJI_INSTANCE_PATH", str(tmp_path / "instance"))
    app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "test"})
    with app.app_context():
        upgrade(directory=str(MIGRATIONS), revision="0004")
        db.session.execute(text("INSERT INTO players (id, token_hash, nickname, created_at, version) "
                                "VALUES (1, 'abc', 'Ken', '2026-11-01 10:00:00', 1)"))  # fmt: skip
        db.session.execute(text(
            "INSERT INTO games (id, player_id, mode, rounds_total, status, current_round, current_seat, total, "
            "best_total, created_at, version) VALUES (1, 1, 'solo', 3, 'playing', 0, 0, 0, 0, '2026-11-01 10:00:00', 1)"
        ))  # fmt: skip
        db.session.execute(text(
            "INSERT INTO class_sessions (id, code, teacher_hash, settings_json, problems_json, status, created_at, "
            "version) VALUES (1, 'KM47TQ', 'def', '{}', '[]', 'waiting', '2026-11-01 10:00:00', 1)"
        ))  # fmt: skip
        db.session.commit()
        assert not PRACTICE_TABLES & tables()
        db.session.remove()  # every transaction ended: a migration takes the write lock
        upgrade(directory=str(MIGRATIONS))
        assert db.session.execute(text("SELECT version_num FROM alembic_version")).scalar() == migration_head()
        assert PRACTICE_TABLES <= tables()
        assert db.session.execute(text("SELECT nickname FROM players")).scalar() == "Ken"
        assert db.session.execute(text("SELECT count(*) FROM games")).scalar() == 1
        assert db.session.execute(text("SELECT code FROM class_sessions")).scalar() == "KM47TQ"
        db.session.remove()
    client = app.test_client()  # practice works on the upgraded database
    problem = client.get("/api/practice/next").get_json()["problem"]
    assert client.post("/api/practice/answer", json={"id": problem["id"], "give_up": True}).status_code == 200
    with app.app_context():
        db.session.remove()
        downgrade(directory=str(MIGRATIONS), revision="0004")  # back: the practice tables go, nothing else
        assert not PRACTICE_TABLES & tables()
        assert db.session.execute(text("SELECT count(*) FROM games")).scalar() == 1
        db.session.remove()
        db.engine.dispose()

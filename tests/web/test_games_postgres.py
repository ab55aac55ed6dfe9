"""The games' database tests again, against a real PostgreSQL server (as when several app servers share one).

The server comes from SUJI_TEST_POSTGRES_URL (else postgresql://postgres@127.0.0.1/suji_test); .ci/run installs
Debian's postgresql and starts it on loopback. Each test gets a database of its own, made and dropped here.
Without a server these tests skip and say why.
"""

from __future__ import annotations

import os
import secrets

import pytest

psycopg = pytest.importorskip("psycopg", reason="psycopg is not installed (pip install 'psycopg[binary]')")

from sqlalchemy import text  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

# The same tests as on SQLite, run here with the PostgreSQL `app` below (the autouse fixture comes along).
from test_web_games import (  # noqa: E402, F401
    fixed_day_and_dice,
    test_a_finished_game_takes_no_more_moves,
    test_a_replayed_request_changes_nothing,
    test_a_solo_game_from_start_to_finish,
    test_another_players_game_is_not_found,
    test_daily_puzzle_is_the_days_roll_and_answered_once,
    test_daily_rerolls_give_the_same_dice_for_the_same_choice,
    test_delete_my_history,
    test_leaderboard_order_and_escaped_names,
    test_many_players_answer_the_daily_puzzle_at_once,
    test_one_player_answering_from_many_tabs_at_once_is_stored_once,
    test_pass_and_play_tie,
    test_pass_and_play_two_players_two_rounds,
)

from suji.web.extensions import db  # noqa: E402

DEFAULT_URL = "postgresql://postgres@127.0.0.1/suji_test"
SERVER_URL = os.environ.get("SUJI_TEST_POSTGRES_URL") or DEFAULT_URL


def _libpq(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


@pytest.fixture(scope="module")
def server():
    """A connection to the test server, or a skip with the reason."""
    try:
        connection = psycopg.connect(_libpq(SERVER_URL), autocommit=True, connect_timeout=3)
    except psycopg.Error as error:
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        pytest.skip(f"no PostgreSQL server at {make_url(SERVER_URL).render_as_string()} ({reason}); "
                    "set SUJI_TEST_POSTGRES_URL or run .ci/run, which starts one")  # fmt: skip
    yield connection
    connection.close()


@pytest.fixture
def app(server, tmp_path, monkeypatch):
    """The web app on a new, empty PostgreSQL database (dropped afterwards)."""
    from suji.web import create_app

    name = f"suji_test_{secrets.token_hex(6)}"
    server.execute(f'CREATE DATABASE "{name}"')
    url = make_url(SERVER_URL).set(database=name).render_as_string(hide_password=False)
    monkeypatch.setenv("SUJI_INSTANCE_PATH", str(tmp_path / "instance"))
    app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "test",
                      "SQLALCHEMY_DATABASE_URI": url})  # fmt: skip
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    server.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


@pytest.fixture
def client(app):
    return app.test_client()


def test_the_schema_is_made_by_the_migrations_on_postgresql(app, client):
    from suji.web.models import migration_head

    assert client.get("/games/").status_code == 200
    with app.app_context():
        assert db.engine.dialect.name == "postgresql"
        assert db.session.execute(text("SELECT version_num FROM alembic_version")).scalar() == migration_head()
        tables = set(
            db.session.execute(text("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")).scalars()
        )
    assert {"players", "games", "seats", "rounds", "answers", "daily_entries"} <= tables

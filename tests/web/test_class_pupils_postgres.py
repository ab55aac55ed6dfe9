"""A class's pupils, their homework and live lessons again on a real PostgreSQL server, as when several app servers
share one database.

The server comes from SUJI_TEST_POSTGRES_URL, as for tests/web/test_games_postgres.py (whose `server` fixture
this is: a new database per test, dropped afterwards). Without a server these tests skip and say why. The
concurrency test matters most here: PostgreSQL runs one pupil's transactions side by side, and only the lock
on the pupil's work row keeps one answer from overwriting another.
"""

from __future__ import annotations

import secrets

import pytest

pytest.importorskip("psycopg", reason="psycopg is not installed (pip install 'psycopg[binary]')")

from sqlalchemy.engine import make_url  # noqa: E402
from test_class_homework import (  # noqa: E402, F401
    before_the_due_date,
    teacher,
    test_a_fixed_set_is_the_printed_sheets_problems_done_at_the_pupils_pace,
    test_adaptive_practice_of_n_items_is_the_pupils_own_practice,
    test_concurrent_answers_from_one_pupil_lose_nothing,
    test_late_work_is_marked_not_lost,
    test_timed_homework_runs_from_start_and_honours_extra_time,
)
from test_class_live import (  # noqa: E402, F401
    test_the_lessons_results_join_the_pupils_records_and_outlive_the_session,
)
from test_class_pupils import (  # noqa: E402, F401
    test_a_new_card_signs_the_old_devices_out,
    test_deleting_a_pupil_deletes_their_records_and_practice_and_the_export_holds_them,
    test_wrong_codes_are_refused_and_rate_limited_in_the_database,
)
from test_games_postgres import SERVER_URL, server  # noqa: E402, F401

from suji.web.extensions import db  # noqa: E402


@pytest.fixture
def app(server, tmp_path, monkeypatch):  # noqa: F811 - the module's PostgreSQL `server`
    """The web app on a new, empty PostgreSQL database (dropped afterwards), teachers' passwords hashed cheaply."""
    from suji.web import create_app

    name = f"suji_test_{secrets.token_hex(6)}"
    server.execute(f'CREATE DATABASE "{name}"')
    url = make_url(SERVER_URL).set(database=name).render_as_string(hide_password=False)
    monkeypatch.setenv("SUJI_INSTANCE_PATH", str(tmp_path / "instance"))
    made = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "test",
                       "TEACHER_PASSWORD_COST": "test", "SQLALCHEMY_DATABASE_URI": url})  # fmt: skip
    yield made
    with made.app_context():
        db.session.remove()
        db.engine.dispose()
    server.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


@pytest.fixture
def client(app):
    return app.test_client()

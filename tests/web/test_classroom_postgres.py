"""Class mode again on a real PostgreSQL server, as when several app servers share one database.

The server comes from SUJI_TEST_POSTGRES_URL, as for tests/test_games_postgres.py (whose fixtures these are: a
new database per test, dropped afterwards). Without a server these tests skip and say why.
"""

from __future__ import annotations

import pytest

pytest.importorskip("psycopg", reason="psycopg is not installed (pip install 'psycopg[binary]')")

# The PostgreSQL `server`, `app` and `client` fixtures, and the class tests that run on them unchanged.
from test_class_codes import (  # noqa: E402, F401
    test_a_page_polling_a_deleted_class_counts_once,
    test_an_address_by_the_counted_id_still_opens_an_older_session_for_its_teacher,
    test_every_code_route_counts_toward_the_limit_and_then_refuses,
    test_one_browser_behind_a_schools_address_does_not_lock_out_the_others,
    test_the_address_has_its_own_higher_limit_and_clients_without_the_cookie_share_one,
)
from test_games_postgres import app, client, server  # noqa: E402, F401
from test_web_classroom import (  # noqa: E402, F401
    test_a_class_from_start_to_end,
    test_a_forged_or_missing_teacher_token_opens_nothing,
    test_a_form_sent_twice_counts_once,
    test_a_pupil_cannot_answer_another_sessions_problem,
    test_bad_ids_and_oversized_input_never_give_a_500,
    test_delete_removes_the_session_and_all_its_answers,
    test_hints_are_counted_priced_and_refused_when_off,
    test_join_attempts_are_rate_limited_in_the_database,
    test_many_pupils_answer_at_once_and_nothing_is_lost_or_doubled,
    test_names_in_a_class_are_unique_and_a_second_device_is_refused,
    test_old_sessions_are_purged_after_the_set_number_of_days,
    test_paused_not_started_and_time_limit_are_enforced_on_the_server,
    test_the_migrations_make_exactly_the_models_tables,
)


def test_two_app_servers_show_the_same_class(app):  # noqa: F811 - the PostgreSQL fixture
    """A pupil on one app server, the teacher on another: all state is in the database."""
    from test_web_classroom import answer, make_class, problems, pupil, results

    from suji.web import create_app

    other = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "test",
                        "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"]})  # fmt: skip
    teacher = app.test_client()
    session_id, code = make_class(teacher)
    teacher.post(f"/class/{session_id}/start")
    ken = pupil(other, code, "Ken")
    answer(ken, code, 0, 0, problems(app, session_id)[0].best_formula)
    data = results(teacher, session_id)
    assert data["students"] == 1 and data["rows"][0]["cells"][0]["solved"]
    # The teacher's cookie works on the other server too.
    board = other.test_client()
    board.set_cookie(f"suji_class_t{session_id}", teacher.get_cookie(f"suji_class_t{session_id}").value)
    assert results(board, session_id)["attempts"] == 1
    with other.app_context():
        from suji.web.extensions import db

        db.session.remove()
        db.engine.dispose()

"""Practice again on a real PostgreSQL server, as when several app servers share one database.

The server comes from SUJI_TEST_POSTGRES_URL, as for tests/web/test_games_postgres.py (whose fixtures these are: a
new database per test, dropped afterwards). Without a server these tests skip and say why. The concurrency
tests matter most here: PostgreSQL runs the transactions side by side, and only the row locks keep an answer
from overwriting another.
"""

from __future__ import annotations

import pytest

pytest.importorskip("psycopg", reason="psycopg is not installed (pip install 'psycopg[binary]')")

from test_games_postgres import app, client, server  # noqa: E402, F401
from test_web_practice import (  # noqa: E402, F401
    test_a_sign_in_code_carries_the_practice_to_another_browser,
    test_an_answer_has_the_contracts_shape_and_counts_once,
    test_one_pupil_answering_on_two_devices_at_the_same_moment_loses_nothing,
    test_profiles_are_purged_after_the_retention_period,
    test_pupils_answering_the_same_item_at_once_all_count_for_it,
    test_the_download_holds_everything_and_delete_removes_the_rows,
    test_the_same_answer_sent_at_once_from_many_tabs_counts_once,
    test_try_my_mistakes_again_serves_the_missed_item,
    test_wrong_codes_are_rate_limited_in_the_database,
)

"""The web app and the odds table: advice by lookup for many at once, the status on pages, the background build."""

from __future__ import annotations

import subprocess
import threading

import pytest

from suji.core.furigana import strip_ruby
from suji.solver.odds import build as odds_build
from suji.solver.odds import space
from suji.solver.odds import table as odds_table
from suji.web import advice as web_advice

# Builds a table file (696 parts) and serves 30 requests at once: part of the full run, not the quick one.
pytestmark = pytest.mark.slow

ROLL_BODY = {
    "target_dice": [4, 4, 6],
    "number_dice": [2, 1, 4, 1, 3],
    "operator_dice": ["+", "+", "²", "−"],
}


@pytest.fixture(scope="module")
def table_path(tmp_path_factory):
    """A complete table file whose every row is "nothing makeable" except the rows of the number set 1 1 2 3 4."""
    path = tmp_path_factory.mktemp("odds-web") / "odds.suji"
    folder = odds_build.parts_dir(path)
    empty = odds_table.pack_rows([bytes([odds_table.NOT_MAKEABLE]) * 672] * len(space.operator_sets()))
    real = space.number_index([1, 1, 2, 3, 4])
    for index in range(odds_build.part_count()):
        odds_build.write_part(folder, index, odds_build.solve_part(index) if index == real else empty)
    odds_build.join_parts(folder, path)
    return path


@pytest.fixture
def table_app(app, table_path):
    app.config["ODDS_PATH"] = str(table_path)
    return app


def test_advice_comes_from_the_table_when_there_is_one(table_app, table_path):
    from suji.rules.dice import Roll

    web_advice.forget()
    roll = Roll.of(**ROLL_BODY)
    advice = web_advice.advice_for(roll, 0, 0, str(table_path))
    answer = next(o for o in advice.options if o.kind == "answer")
    # The roll's own row was built for real: its best score is the live solver's.
    from suji.solver.search import solve

    assert answer.probability == 1 and answer.expected_score == solve(roll).top.score
    # Outcomes with other number dice hit the "nothing makeable" rows: proof that the table, not the solver,
    # answered; and nothing was solved live.
    assert any(o.kind == "set" and o.dice[0].group == "number" and o.probability == 0 for o in advice.options)
    assert len(web_advice._local) == 0


def test_thirty_students_asking_at_once_are_all_answered(table_app):
    from browser_support import serve

    answers: list[int] = []
    with serve(table_app) as url:
        import json
        import urllib.request

        def ask() -> None:
            request = urllib.request.Request(
                f"{url}/api/advise", data=json.dumps(ROLL_BODY).encode(),
                headers={"Content-Type": "application/json", "Accept-Language": "en"},
            )  # fmt: skip
            with urllib.request.urlopen(request, timeout=120) as response:
                answers.append(response.status)

        threads = [threading.Thread(target=ask) for _ in range(30)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert answers == [200] * 30


def test_pages_say_how_far_the_table_has_got(app, client, table_path, tmp_path):
    app.config["ODDS_PATH"] = str(tmp_path / "none.suji")
    page = client.get("/lessons/suji", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert 'data-state="missing"' in page and "There is no table of exact odds yet" in page
    # The games' pages and the list of lessons are a pupil's: no word of an odds table (issue 26).
    assert "odds" not in client.get("/games/", headers={"Accept-Language": "en"}).get_data(as_text=True).lower()
    lessons = client.get("/lessons/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "odds-status" not in lessons and "odds" not in strip_ruby(lessons).lower()
    odds_build.write_part(odds_build.parts_dir(tmp_path / "none.suji"), 3, b"x")
    from suji.web import _odds_seen

    _odds_seen.clear()
    page = client.get("/lessons/suji", headers={"Accept-Language": "ja"}).get_data(as_text=True)
    assert 'data-state="partial"' in page and "確率表" in strip_ruby(page)
    app.config["ODDS_PATH"] = str(table_path)
    page = client.get("/lessons/suji", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert 'data-state="ready"' in page


def test_the_suji_lesson_simulates_fresh_rolls_by_lookup(monkeypatch, table_path):
    from suji.lessons import suji_stats

    monkeypatch.setenv("SUJI_ODDS_PATH", str(table_path))
    records, source = suji_stats.fresh_or_stored(50, 7)
    assert source == suji_stats.TABLE and len(records) == 50
    # Each record is that seeded roll's own row of the table (the rolls of another seed are other rolls).
    table = odds_table.open_table(table_path)
    rolls = [suji_stats.random_roll(suji_stats.roll_seed(7, i)) for i in range(50)]
    assert [r[0] for r in records] == [
        table.best_score(r.number_dice, r.operator_dice, r.targets) for r in rolls
    ]
    assert rolls != [suji_stats.random_roll(suji_stats.roll_seed(8, i)) for i in range(50)]
    outcome = suji_stats._run_reach(50, 7, "en")
    assert outcome.rows[0].exact == suji_stats.exact_reach() and "odds table" in outcome.note_text("en")
    advice = suji_stats._run_advice(5, 7, "ja")
    assert [r.simulated is not None for r in advice.rows] == [True, True]
    monkeypatch.setenv("SUJI_ODDS_PATH", str(table_path.with_name("none.suji")))
    assert suji_stats.fresh_or_stored(50, 7)[1] == suji_stats.STORED
    assert suji_stats._run_advice(5, 7, "en").rows[0].simulated is None


def test_serve_starts_one_low_priority_build_unless_told_not_to(monkeypatch, tmp_path, table_path):
    from suji.web.serve import start_background_build
    from suji.web.settings import Settings

    started = []

    class FakeProcess:
        def __init__(self, command, **kwargs):
            started.append(command)

        def poll(self):
            return 0

    monkeypatch.setattr(subprocess, "Popen", FakeProcess)
    monkeypatch.setenv("SUJI_ODDS_BUILD", "0")
    assert Settings.from_environ().odds_build is False  # SUJI_ODDS_BUILD=0 reaches serve as ODDS_BUILD
    assert start_background_build(str(tmp_path / "odds.suji"), str(tmp_path), wanted=False) is None
    monkeypatch.setenv("SUJI_ODDS_BUILD", "1")
    assert Settings.from_environ().odds_build is True
    assert start_background_build(str(table_path), str(tmp_path)) is None  # complete already
    assert start_background_build(str(tmp_path / "odds.suji"), str(tmp_path)) is not None
    (command,) = started
    assert command[command.index("--workers") + 1] == "1" and command[command.index("--nice") + 1] == "19"
    assert "--parent-pid" in command and str(tmp_path / "odds.suji") in command

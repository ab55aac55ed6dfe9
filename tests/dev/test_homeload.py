"""`suji classload --homework` (issue 24, part 8): classes doing homework at once on two `suji serve` processes,
every answer counted in the database (slow: real servers); and the count itself, which must see an answer lost
or doubled (fast: the app's test client writes the rows, the test then takes one away and adds one)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import delete, select, update
from teacher_support import make_class, misses, print_cards, pupil_client, sign_up

from suji.dev.homeload import failed, homework_in_database, tally
from suji.web.classes.models import Assignment, AssignmentAttempt, AssignmentWork, ClassPupil
from suji.web.extensions import db


def run_homework(*extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "suji.dev.classload", "--homework", "--classes", "2", "--students", "3",
         "--problems", "2", "--processes", "2", "--threads", "4", "--json", *extra],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip


def assert_nothing_lost(done: subprocess.CompletedProcess) -> dict:
    assert done.returncode == 0, done.stdout + done.stderr
    figures = json.loads(done.stdout)
    # 2 classes × (3 pupils × 2 problems + 1 pupil who misses once first × 2 problems) = 16 answers
    assert figures["answers_expected"] == figures["answers_sent"] == figures["answers_in_database"] == 16
    assert figures["errors"] == figures["lost"] == figures["doubled"] == figures["unfinished"] == 0
    assert figures["finished_in_database"] == figures["pupils_finished_expected"] == 6
    assert figures["reports_ok"] == 2 and figures["processes"] == 2
    assert figures["answer_p99_ms"] >= figures["answer_p95_ms"] >= figures["answer_p50_ms"] > 0
    assert figures["signin_p99_ms"] >= figures["signin_p95_ms"] > 0
    return figures


@pytest.mark.slow
def test_homework_on_sqlite_behind_a_proxy_loses_nothing():
    figures = assert_nothing_lost(run_homework("--proxy", "python"))
    assert figures["database"] == "sqlite" and figures["proxy"] == "roundrobin"


@pytest.mark.slow
def test_homework_on_postgresql_behind_nginx_loses_nothing():
    server = os.environ.get("SUJI_TEST_POSTGRES_URL")
    if not server:
        pytest.skip("set SUJI_TEST_POSTGRES_URL for the PostgreSQL run")
    figures = assert_nothing_lost(run_homework("--fresh-postgres", server))
    assert figures["database"] == "postgresql" and figures["proxy"] in ("nginx", "roundrobin")


def test_a_homework_run_takes_at_most_a_rosters_pupils():
    done = subprocess.run([sys.executable, "-m", "suji.dev.classload", "--homework", "--students", "61"],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 2 and "at most 60 pupils" in done.stderr


def test_the_count_sees_an_answer_lost_doubled_or_a_pupil_not_finished(app, client):
    sign_up(client)
    class_id = make_class(client, roster="1 Hana\n2 Ken")
    due = (datetime.now(UTC) + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")
    form = {"title": "Sheet", "kind": "fixed", "count": "2", "level": "1", "seed": "count", "version": "A",
            "due_at": due}  # fmt: skip
    assert client.post(f"/teacher/classes/{class_id}/homework/new", data=form).status_code == 303
    codes = print_cards(client, class_id)
    hana, ken = pupil_client(app, codes["Hana"]), pupil_client(app, codes["Ken"])
    [hw] = re.findall(r'data-homework="([^"]+)"', hana.get("/my/").get_data(as_text=True))
    with app.app_context():
        problems = json.loads(db.session.scalar(select(Assignment.problems_json).where(Assignment.public_id == hw)))
        url = db.engine.url.render_as_string(hide_password=False)
    sends = [(hana, 0, 0, misses(problems[0], 1)[0]), (hana, 0, 1, problems[0]["best_formula"]), (hana, 1, 0, problems[1]["best_formula"]),
             (ken, 0, 0, problems[0]["best_formula"]), (ken, 1, 0, problems[1]["best_formula"])]  # fmt: skip
    for device, index, attempt, formula in sends:
        sent = device.post(f"/my/homework/{hw}/answer", data={"problem": index, "attempt": attempt, "formula": formula})
        assert sent.status_code == 303
    sent = {(hw, "Hana"): 3, (hw, "Ken"): 2}
    counted = tally(sent, homework_in_database(url, [hw]), 2)
    assert counted == {"lost": 0, "doubled": 0, "unfinished": 0, "answers_in_database": 5, "finished_in_database": 2}

    with app.app_context():
        pupils = dict(db.session.execute(select(ClassPupil.name, ClassPupil.id)).all())
        first = db.session.scalar(select(AssignmentAttempt.id).where(AssignmentAttempt.pupil_id == pupils["Hana"]))
        db.session.execute(delete(AssignmentAttempt).where(AssignmentAttempt.id == first))  # an answer lost
        db.session.commit()
    assert tally(sent, homework_in_database(url, [hw]), 2)["lost"] == 1

    with app.app_context():
        work = db.session.scalar(select(AssignmentWork).where(AssignmentWork.pupil_id == pupils["Ken"]))
        db.session.add(AssignmentAttempt(work_id=work.id, assignment_id=work.assignment_id, pupil_id=pupils["Ken"],
                                         problem=1, number=2, formula="1+1", made=False, score=0))  # one too many
        db.session.execute(update(AssignmentWork).where(AssignmentWork.id == work.id).values(finished_at=None))
        db.session.commit()
    counted = tally(sent, homework_in_database(url, [hw]), 2)
    assert (counted["lost"], counted["doubled"], counted["unfinished"]) == (1, 1, 1)
    figures = {"errors": 0, "answers_sent": 5, "answers_expected": 5, "reports_ok": 1, "classes": 1, **counted}
    assert failed(figures)
    assert not failed({**figures, "lost": 0, "doubled": 0, "unfinished": 0})

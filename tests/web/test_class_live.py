"""Live lessons for a class (issue 24): a class session made for a teacher's class, its roster pupils joining signed
in and named from the roster, their extra time and free hints applied, their results kept in the class's record
when the session itself is purged; and the daily puzzle's board per class (shown, anonymous, off)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlalchemy import func, select
from teacher_support import make_class, misses, print_cards, pupil_client, pupil_ids, sign_up
from test_web_classroom import answer, flashes, page, problems, session_row

from suji.web.classes.models import LIVE, Assignment, AssignmentAnswer, AssignmentAttempt, AssignmentWork
from suji.web.classroom_models import ClassSession, ClassStudent
from suji.web.extensions import db
from suji.web.models import utcnow


@pytest.fixture
def teacher(client):
    sign_up(client)
    return client


def live_lesson(teacher, class_id: str, **form: str) -> tuple[str, str]:
    """A class session made for the class from its page's link; (its public id in addresses, join code)."""
    new = teacher.get(f"/class/new?for={class_id}").get_data(as_text=True)
    assert f'<option value="{class_id}" selected>' in new
    data = {"count": "3", "level": "1", "seed": "live", "hints": "yes", "hint_cost": "yes", "school_class": class_id, **form}
    response = teacher.post("/class/new", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    session_id = response.location.rsplit("/", 1)[1]
    html = teacher.get(response.location).get_data(as_text=True)
    assert 'id="roster-note"' in html
    return session_id, re.search(r'id="join-code"[^>]*>(\w+)<', html).group(1)


def join(device, code: str):
    response = device.post("/join", data={"code": code, "nickname": "ignored"})
    assert response.status_code == 303, response.get_data(as_text=True)
    return device



def test_the_new_session_form_says_how_a_class_joins(app, teacher):
    # Without a class, pupils join with a code and a nickname; once the teacher has a class, the form says both
    # ways (the class's pupils sign in with their cards), as its "For a class" choice does.
    before = teacher.get("/class/new").get_data(as_text=True)
    assert "with a code and a nickname, no accounts" in before and "sign-in cards" not in before
    make_class(teacher)
    after = teacher.get("/class/new").get_data(as_text=True)
    assert "a class's pupils signed in with their sign-in cards, or, without a class" in after
    assert "with a code and a nickname, no accounts." not in after


def test_roster_pupils_join_signed_in_and_named_from_the_roster(app, teacher):
    class_id = make_class(teacher)
    session_id, code = live_lesson(teacher, class_id)
    stranger = app.test_client()
    stranger.set_cookie("suji_lang", "en")
    # The QR code's page reads the same to a stranger as for any code (nothing tells that a class has it); once
    # the code is typed and found, the lesson names its class and asks for the card.
    opened = stranger.get(f"/join/{code}").get_data(as_text=True)
    assert "4-2" not in opened and "Sign in with your sign-in card first" not in opened
    refused = stranger.post("/join", data={"code": code, "nickname": "Hana"})
    said = refused.get_data(as_text=True)
    assert refused.status_code == 403 and "This live lesson is for 4-2." in said and 'id="signin-first"' in said
    assert said.count("Sign in with your sign-in card first") == 1  # the panel says it; not the error again
    codes = print_cards(teacher, class_id)
    hana = pupil_client(app, codes["Hana"])
    assert "You join as:" in hana.get(f"/join/{code}").get_data(as_text=True)
    assert f"/join/{code}" in hana.get("/my/").get_data(as_text=True)  # "Live lesson now" on her page
    join(hana, code)
    teacher.post(f"/class/{session_id}/start")
    probs = problems(app, session_id)
    answer(hana, code, 0, 0, probs[0].best_formula)
    # On another tablet, signed in with her card, she carries on with her own work.
    tablet = join(pupil_client(app, codes["Hana"]), code)
    assert "Problem 1 of 3" in page(tablet, code) or "Problem 2 of 3" in page(tablet, code)
    with app.app_context():
        students = db.session.scalars(select(ClassStudent)).all()
        assert [(s.nickname, s.pupil_id is not None) for s in students] == [("Hana", True)]
    assert "not joined this class on this device" in " ".join(flashes(hana.get(f"/class/s/{code}", follow_redirects=True).get_data(as_text=True)))
    other_class = make_class(teacher, "4-3", "1 Sora")
    sora = pupil_client(app, print_cards(teacher, other_class)["Sora"])
    assert sora.post("/join", data={"code": code, "nickname": "Sora"}).status_code == 403  # another class's pupil


def test_extra_time_and_free_hints_apply_in_a_live_lesson(app, teacher):
    class_id = make_class(teacher)
    ids = pupil_ids(app, class_id)
    teacher.post(f"/teacher/classes/{class_id}/pupils/{ids['Ken']}/edit",
                 data={"name": "Ken", "number": "2", "extra_time": "2", "free_hints": "yes"})  # fmt: skip
    teacher.post(f"/teacher/classes/{class_id}/pupils/{ids['Mia']}/edit",
                 data={"name": "Mia", "number": "3", "extra_time": "untimed", "free_hints": "no"})  # fmt: skip
    session_id, code = live_lesson(teacher, class_id, time_limit="10")
    codes = print_cards(teacher, class_id)
    pupils = {name: join(pupil_client(app, codes[name]), code) for name in ("Hana", "Ken", "Mia")}
    teacher.post(f"/class/{session_id}/start")
    probs = problems(app, session_id)
    for name in ("Hana", "Ken"):
        hint = pupils[name].post(f"/api/class/{code}/hint", json={"step": 0, "roll": "0"})
        assert hint.status_code == 200
    assert "Hints are free." in page(pupils["Ken"], code) and "Each hint costs" in page(pupils["Hana"], code)
    with app.app_context():  # 15 minutes into a 10-minute lesson
        session = session_row(session_id)
        session.started_at, session.ends_at = utcnow() - timedelta(minutes=15), utcnow() - timedelta(minutes=5)
        db.session.commit()
    for device in pupils.values():
        answer(device, code, 0, 0, probs[0].best_formula)
    assert "Time is up" in page(pupils["Hana"], code)
    seconds = {name: pupils[name].get(f"/api/class/{code}/state").get_json() for name in pupils}
    assert seconds["Hana"]["phase"] == "ended" and seconds["Ken"]["phase"] == "running"
    assert 290 <= seconds["Ken"]["seconds_left"] <= 300 and seconds["Mia"]["seconds_left"] is None
    note = re.search(r'id="extra-time">(.*?)</p>', teacher.get(f"/class/{session_id}").get_data(as_text=True)).group(1)
    assert "Ken until" in note and "Mia without a time limit" in note and "Hana" not in note
    grid = teacher.get(f"/api/class/{session_id}/results").get_json()
    scores = {row["name"]: row["cells"][0] for row in grid["rows"]}
    assert scores["Hana"] is None or not scores["Hana"]["done"]
    assert scores["Ken"]["score"] == probs[0].best_score  # his hint was free
    assert scores["Mia"]["score"] == probs[0].best_score


def test_the_lessons_results_join_the_pupils_records_and_outlive_the_session(app, teacher):
    class_id = make_class(teacher)
    session_id, code = live_lesson(teacher, class_id)
    codes = print_cards(teacher, class_id)
    hana = join(pupil_client(app, codes["Hana"]), code)
    teacher.post(f"/class/{session_id}/start")
    probs = problems(app, session_id)
    answer(hana, code, 0, 0, misses(probs[0], 1)[0])
    answer(hana, code, 0, 1, probs[0].best_formula)
    hana.post(f"/class/s/{code}/next", data={"problem": "0"})
    hana.post(f"/class/s/{code}/skip", data={"problem": "1", "attempt": "0"})
    class_page = teacher.get(f"/teacher/classes/{class_id}").get_data(as_text=True)
    lesson_id = re.search(r'data-lesson="([^"]+)"', class_page).group(1)
    with app.app_context():
        from suji.web.classroom import purge_expired

        assert purge_expired(utcnow() + timedelta(days=31)) == 1  # the session's retention: it is gone
        assert db.session.scalar(select(func.count()).select_from(ClassSession)) == 0
        lesson = db.session.scalar(select(Assignment).where(Assignment.kind == LIVE))
        assert lesson.class_session_id is None and lesson.public_id == lesson_id
        answers = db.session.scalars(select(AssignmentAnswer).order_by(AssignmentAnswer.problem)).all()
        assert [(a.problem, a.attempts, a.solved, a.done, a.score) for a in answers] == [
            (0, 2, True, True, probs[0].best_score), (1, 0, False, True, 0)]  # fmt: skip
        assert answers[0].first_score == 0
        codes_kept = [t.error_code for t in db.session.scalars(select(AssignmentAttempt).order_by(AssignmentAttempt.id))]
        assert codes_kept == ["not_target", None, "skipped"]
        assert db.session.scalar(select(AssignmentWork.finished_at)) is None  # one problem left
    record = teacher.get(f"/teacher/classes/{class_id}/homework/{lesson_id}").get_data(as_text=True)
    # The lesson is long over: Hana's work counts as finished, one problem left undone.
    assert "Live lesson of" in record and "Working on it" not in record and str(probs[0].best_score) in record
    assert "Finished" in record
    assert "Dashboard" not in teacher.get(f"/teacher/classes/{class_id}").get_data(as_text=True)


def test_a_lesson_the_teacher_ended_counts_as_finished_for_whoever_began_it(app, teacher):
    """After "End", the pupil's report said "Working on it" for pupils who had answered (helper session)."""
    class_id = make_class(teacher)
    session_id, code = live_lesson(teacher, class_id)
    codes = print_cards(teacher, class_id)
    hana = join(pupil_client(app, codes["Hana"]), code)
    ken = join(pupil_client(app, codes["Ken"]), code)
    teacher.post(f"/class/{session_id}/start")
    answer(hana, code, 0, 0, problems(app, session_id)[0].best_formula)
    ken.post(f"/class/s/{code}/skip", data={"problem": "0", "attempt": "0"})
    ids = pupil_ids(app, class_id)

    def status(name: str) -> str:
        page = teacher.get(f"/teacher/classes/{class_id}/pupils/{ids[name]}/report").get_data(as_text=True)
        return re.search(r'id="pupil-lesson-table".*?</table>', page, re.S).group(0)

    assert "Working on it" in status("Hana") and "Working on it" in status("Ken")  # the lesson runs
    teacher.post(f"/class/{session_id}/end")
    for name in ("Hana", "Ken"):  # Ken only skipped: he began it too
        table = status(name)
        assert "Finished" in table and "Working on it" not in table, name
    assert "Not started" in status("Mia")  # never joined
    with app.app_context():
        assert db.session.scalar(select(func.count()).where(AssignmentWork.finished_at.is_not(None))) == 2


def test_a_session_without_a_class_is_as_before(app, teacher):
    teacher.set_cookie("suji_lang", "en")
    response = teacher.post("/class/new", data={"count": "2", "level": "1", "school_class": "not-mine"})
    session_id = response.location.rsplit("/", 1)[1]
    with app.app_context():
        assert session_row(session_id).school_class_id is None
    html = teacher.get(f"/class/{session_id}").get_data(as_text=True)
    code = re.search(r'id="join-code"[^>]*>(\w+)<', html).group(1)
    guest = app.test_client()
    assert guest.post("/join", data={"code": code, "nickname": "Guest"}).status_code == 303


# ---- the daily puzzle's board per class ----


@pytest.fixture
def day(monkeypatch):
    from datetime import date

    from suji.web.games import common

    monkeypatch.setattr(common, "today", lambda: date(2025, 5, 5))
    return date(2025, 5, 5)


def play_daily(device) -> None:
    html = device.get("/games/daily").get_data(as_text=True)
    form = re.search(r'action="/games/daily/giveup"[^>]*>(.*?)</form>', html, re.S).group(1)
    fields = dict(re.findall(r'type="hidden" name="(\w+)" value="([^"]*)"', form))
    response = device.post("/games/daily/giveup", data={**fields, "sure": "give-up"})
    assert response.status_code == 303
    device.get(response.location)  # the browser shows the day's result: the answer counts for the class there


@pytest.mark.parametrize("setting", ["shown", "anonymous", "off"])
def test_the_daily_puzzles_board_follows_the_class_setting(app, teacher, day, setting):
    class_id = make_class(teacher)
    teacher.post(f"/teacher/classes/{class_id}/settings", data={"name": "4-2", "school_year": "2026", "leaderboard": setting})
    codes = print_cards(teacher, class_id)
    hana, ken = pupil_client(app, codes["Hana"]), pupil_client(app, codes["Ken"])
    play_daily(hana)
    play_daily(ken)
    stranger = app.test_client()
    stranger.set_cookie("suji_lang", "en")
    public = stranger.get("/games/daily").get_data(as_text=True)
    assert 'id="leaderboard"' in public and 'id="class-board"' not in public  # anyone else: the public board
    html = hana.get("/games/daily").get_data(as_text=True)
    assert 'id="class-board"' in html and 'id="leaderboard"' not in html
    if setting == "off":
        assert "does not show a ranking" in html and 'id="class-leaderboard"' not in html
    else:
        board = re.search(r'id="class-leaderboard".*?</table>', html, re.S).group(0)
        assert board.count("<tr") == 3 and "(you)" in board
        assert ("Ken" in board) == ("Hana" in board) == (setting == "shown")  # anonymous: no names at all
    home = ken.get("/my/").get_data(as_text=True)
    assert 'id="class-board"' in home
    with app.app_context():
        from suji.web.classes.models import ClassDailyEntry

        assert db.session.scalar(select(func.count()).select_from(ClassDailyEntry)) == 2
    play_daily_again = hana.post("/games/daily/giveup", data={"day": day.isoformat(), "step": "0"})
    assert play_daily_again.status_code == 303  # refused by the games (answered already): still two
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(ClassDailyEntry)) == 2

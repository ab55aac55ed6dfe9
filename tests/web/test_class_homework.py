"""Homework (issue 24): a teacher sets a fixed problem set (the printed sheet's problems) or adaptive practice with
an opening time and a due date; pupils do it at their own pace on any device, every answer kept at once, work
resumed where it stopped; late work marked, not lost; "only the first attempt counts"; timed homework honours
extra time; the pupil's page lists where each stands; and one pupil's answers at the same moment lose nothing."""

from __future__ import annotations

import json
import re
import threading
from datetime import timedelta

import pytest
from sqlalchemy import func, select
from teacher_support import make_class, misses, print_cards, pupil_client, pupil_ids, sign_up

from suji.core.furigana import strip_ruby
from suji.play.classroom import ClassSettings, choose_problems
from suji.web.classes.models import (
    Assignment,
    AssignmentAnswer,
    AssignmentAttempt,
    AssignmentWork,
    ClassPupil,
)
from suji.web.extensions import db

DUE = "2026-12-31T17:00"


@pytest.fixture
def teacher(client):
    sign_up(client)
    return client


@pytest.fixture(autouse=True)
def before_the_due_date(monkeypatch):
    """Every test runs on 2026-12-01 (the due dates above are ahead of it) unless it moves the clock itself."""
    from datetime import datetime

    moments = {"now": datetime(2026, 12, 1, 3, 0)}
    for module in ("suji.web.classes.work", "suji.web.classes.adaptive", "suji.web.pupils.homework",
                   "suji.web.pupils.pages", "suji.web.classes.homework"):  # fmt: skip
        monkeypatch.setattr(f"{module}.utcnow", lambda: moments["now"])
    return moments


def set_homework(teacher, class_id: str, **fields) -> None:
    form = {"title": "Sheet 3", "kind": "fixed", "count": "3", "level": "1", "seed": "3b", "version": "B",
            "due_at": DUE, **fields}  # fmt: skip
    response = teacher.post(f"/teacher/classes/{class_id}/homework/new", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)


def homework_ids(pupil) -> list[str]:
    """The homework on the pupil's page, in its order."""
    return re.findall(r'data-homework="([^"]+)"', pupil.get("/my/").get_data(as_text=True))


def problems(app, homework_id: str) -> list[dict]:
    with app.app_context():
        row = db.session.scalar(select(Assignment).where(Assignment.public_id == homework_id))
        return json.loads(row.problems_json)


def tries(app, pupil_name: str, homework_id: str, index: int) -> int:
    with app.app_context():
        row = db.session.execute(
            select(AssignmentAnswer.attempts).join(AssignmentWork, AssignmentWork.id == AssignmentAnswer.work_id)
            .join(ClassPupil, ClassPupil.id == AssignmentWork.pupil_id).join(Assignment, Assignment.id == AssignmentWork.assignment_id)
            .where(ClassPupil.name == pupil_name, Assignment.public_id == homework_id, AssignmentAnswer.problem == index)
        ).scalar()  # fmt: skip
        return row or 0


def send(pupil, homework_id: str, index: int, formula: str | None, attempt: int = 0):
    action = "answer" if formula is not None else "skip"
    return pupil.post(f"/my/homework/{homework_id}/{action}",
                      data={"problem": str(index), "attempt": str(attempt), "formula": formula or ""})  # fmt: skip


def solve(app, pupil, homework_id: str, index: int):
    return send(pupil, homework_id, index, problems(app, homework_id)[index]["best_formula"])


def test_a_fixed_set_is_the_printed_sheets_problems_done_at_the_pupils_pace(app, teacher):
    class_id = make_class(teacher)
    set_homework(teacher, class_id)
    page = teacher.get(f"/teacher/classes/{class_id}").get_data(as_text=True)
    assert "Sheet 3" in page and "0 / 3" in page
    hana = pupil_client(app, print_cards(teacher, class_id)["Hana"])
    [hw] = homework_ids(hana)
    sheet = choose_problems(ClassSettings(3, 1, "3b", 1))  # the worksheet's version B of seed 3b
    assert [p["target_dice"] for p in problems(app, hw)] == [list(p.roll.target_dice) for p in sheet]
    teacher_page = teacher.get(f"/teacher/classes/{class_id}/homework/{hw}").get_data(as_text=True)
    assert "/worksheets/print?count=3&amp;level=1&amp;seed=3b&amp;versions=2" in teacher_page
    page = hana.get(f"/my/homework/{hw}").get_data(as_text=True)
    assert "Problem 1 of 3" in page and 'data-roll="0"' in page
    # a miss, then the second problem first, at the pupil's pace
    miss = send(hana, hw, 0, misses(problems(app, hw)[0], 1)[0])
    assert miss.status_code == 303 and "p=0" in miss.headers["Location"]
    assert "Tries left: 2" in hana.get(miss.headers["Location"]).get_data(as_text=True)
    solve(app, hana, hw, 1)
    # Another device of the same pupil carries on where she stopped: the first problem not done, one try used.
    other = pupil_client(app, print_cards(teacher, class_id, which="all")["Hana"])
    page = other.get(f"/my/homework/{hw}").get_data(as_text=True)
    assert "Problem 1 of 3" in page and "Try 2 of 3" in page
    assert send(other, hw, 0, problems(app, hw)[0]["best_formula"], attempt=1).status_code == 303
    send(other, hw, 2, None)  # skipped: done, 0 points
    done = other.get(f"/my/homework/{hw}").get_data(as_text=True)
    best = [p["best_score"] for p in problems(app, hw)]
    assert f"Your total: {best[0] + best[1]} of {sum(best)} points" in done
    assert "1 of 3 have finished" in done and "The best answers appear here after the due date" in done
    home = other.get("/my/").get_data(as_text=True)
    assert 'id="homework-done"' in home and f"Score: {best[0] + best[1]}" in home
    assert "1 / 3" in teacher.get(f"/teacher/classes/{class_id}").get_data(as_text=True)
    with app.app_context():
        codes = [c for (c,) in db.session.execute(select(AssignmentAttempt.error_code).order_by(AssignmentAttempt.id))]
        assert codes == ["not_target", None, None, "skipped"]


def test_a_form_sent_twice_counts_once(app, teacher):
    class_id = make_class(teacher)
    set_homework(teacher, class_id)
    hana = pupil_client(app, print_cards(teacher, class_id)["Hana"])
    [hw] = homework_ids(hana)
    miss = misses(problems(app, hw)[0], 1)[0]
    send(hana, hw, 0, miss)
    again = send(hana, hw, 0, miss)  # the same page's form once more: it showed no tries used
    assert "already done" in hana.get(again.headers["Location"]).get_data(as_text=True)
    assert tries(app, "Hana", hw, 0) == 1


def test_the_pupils_page_lists_not_open_open_due_late_and_done(app, teacher, before_the_due_date):
    from datetime import datetime

    class_id = make_class(teacher)
    set_homework(teacher, class_id, title="Later", opens_at="2026-12-20T09:00", due_at="2026-12-24T17:00")
    set_homework(teacher, class_id, title="Soon", due_at="2026-12-01T20:00")  # within a day of 12:00 JST
    set_homework(teacher, class_id, title="Week", due_at="2026-12-08T17:00")
    set_homework(teacher, class_id, title="Quick", count="1")
    hana = pupil_client(app, print_cards(teacher, class_id)["Hana"])
    ids = dict(zip(["Later", "Soon", "Week", "Quick"], [None] * 4, strict=True))
    page = hana.get("/my/").get_data(as_text=True)
    for title in ids:
        ids[title] = re.search(rf'data-homework="([^"]+)">\s*<a[^>]*>\s*<span class="homework-title">{title}', page).group(1)
    solve(app, hana, ids["Quick"], 0)
    before_the_due_date["now"] = datetime(2026, 12, 1, 12, 0)  # 21:00 in Japan: "Soon" is late now
    page = hana.get("/my/").get_data(as_text=True)

    def status(title: str) -> str:
        return re.search(rf'homework-title">{title}</span>\s*<span class="status status-(\w+)"', page).group(1)

    assert [status(t) for t in ("Later", "Soon", "Week", "Quick")] == ["not_open", "late", "open", "done"]
    assert page.index(">Soon<") < page.index(">Week<") < page.index(">Later<")  # late first, then by due date
    closed = hana.get(f"/my/homework/{ids['Later']}").get_data(as_text=True)
    assert "This homework opens" in closed
    refused = send(hana, ids["Later"], 0, "1+2")
    assert "opens on" in hana.get(refused.headers["Location"]).get_data(as_text=True)
    before_the_due_date["now"] = datetime(2026, 12, 7, 12, 0)
    page = hana.get("/my/").get_data(as_text=True)
    assert status("Week") == "due"


def test_late_work_is_marked_not_lost(app, teacher, before_the_due_date):
    from datetime import datetime

    class_id = make_class(teacher)
    set_homework(teacher, class_id, count="2", due_at="2026-12-02T17:00")
    hana = pupil_client(app, print_cards(teacher, class_id)["Hana"])
    [hw] = homework_ids(hana)
    solve(app, hana, hw, 0)
    before_the_due_date["now"] = datetime(2026, 12, 3, 1, 0)  # past the due date
    assert "Past the due date" in hana.get(f"/my/homework/{hw}").get_data(as_text=True)
    solve(app, hana, hw, 1)
    page = hana.get(f"/my/homework/{hw}").get_data(as_text=True)
    assert "Finished after the due date" in page and "One best formula" in page  # the best answers, after the due date
    with app.app_context():
        late = [r.late for r in db.session.scalars(select(AssignmentAnswer).order_by(AssignmentAnswer.problem))]
        assert late == [False, True]
        assert db.session.scalar(select(AssignmentWork.finished_late)) is True
    report = teacher.get(f"/teacher/classes/{class_id}/homework/{hw}").get_data(as_text=True)
    assert "Finished late" in report


def test_the_homework_form_says_a_formula_the_checker_refuses_is_no_try(teacher):
    class_id = make_class(teacher)
    page = teacher.get(f"/teacher/classes/{class_id}/homework/new").get_data(as_text=True)
    assert "is not a try: the pupil mends it" in page


def test_a_formula_the_checker_refuses_is_no_try_and_stays_to_mend(app, teacher):
    class_id = make_class(teacher)
    set_homework(teacher, class_id)
    hana = pupil_client(app, print_cards(teacher, class_id)["Hana"], lang="ja")
    [hw] = homework_ids(hana)
    for slip in ("9999", "1++2", "2+"):
        sent = send(hana, hw, 0, slip)
        assert sent.status_code == 303 and "p=0" in sent.headers["Location"]
        page = hana.get(sent.headers["Location"]).get_data(as_text=True)
        assert "答えられる回数はへっていません" in strip_ruby(page) and f'value="{slip}"' in page
        assert "3回のうち1回目" in strip_ruby(page)
    assert tries(app, "Hana", hw, 0) == 0
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(AssignmentAttempt)) == 0
        assert db.session.scalar(select(AssignmentAnswer.first_score)) is None  # the first try is still to come
    solve(app, hana, hw, 0)  # the page's try number was right all along
    best = problems(app, hw)[0]["best_score"]
    with app.app_context():
        assert db.session.scalar(select(AssignmentAnswer.first_score)) == best


def test_only_the_first_attempt_counts_when_the_teacher_says_so(app, teacher):
    class_id = make_class(teacher)
    set_homework(teacher, class_id, count="2", first_attempt_only="yes")
    hana = pupil_client(app, print_cards(teacher, class_id)["Hana"])
    [hw] = homework_ids(hana)
    send(hana, hw, 0, misses(problems(app, hw)[0], 1)[0])
    send(hana, hw, 0, problems(app, hw)[0]["best_formula"], attempt=1)  # made on the second try: counts 0
    slip = send(hana, hw, 1, "1++2")  # a slip of the finger is no try: the first try is still to come
    assert "did not use up a try" in hana.get(slip.headers["Location"]).get_data(as_text=True)
    solve(app, hana, hw, 1)
    best = [p["best_score"] for p in problems(app, hw)]
    page = hana.get(f"/my/homework/{hw}").get_data(as_text=True)
    assert f"Your total: {best[1]} of {sum(best)} points" in page
    # Each problem's line shows what it counts, and why a made target counts 0 (the total adds up on the page).
    rows = re.findall(r'<span class="score-pair">(.*?)</span>', page)
    assert rows == [f"✓ 0 / {best[0]}", f"✓ {best[1]} / {best[1]}"]
    assert page.count("only your first try counts") == 1
    # One pupil of three has finished: a mean would be her own score back to the next pupil to finish.
    assert "1 of 3 have finished." in page and "average score is" not in page
    assert "average appears once 5 pupils have finished." in page
    report = teacher.get(f"/teacher/classes/{class_id}/homework/{hw}").get_data(as_text=True)
    assert f"✓ 0<span class=\"sub\">{best[0]} on a later try</span>" in report
    with app.app_context():
        firsts = [r.first_score for r in db.session.scalars(select(AssignmentAnswer).order_by(AssignmentAnswer.problem))]
        assert firsts == [0, best[1]]


def test_timed_homework_runs_from_start_and_honours_extra_time(app, teacher, before_the_due_date):
    class_id = make_class(teacher)
    ids = pupil_ids(app, class_id)
    teacher.post(f"/teacher/classes/{class_id}/pupils/{ids['Ken']}/edit",
                 data={"name": "Ken", "number": "2", "extra_time": "2", "free_hints": "no"})  # fmt: skip
    teacher.post(f"/teacher/classes/{class_id}/pupils/{ids['Mia']}/edit",
                 data={"name": "Mia", "number": "3", "extra_time": "untimed", "free_hints": "no"})  # fmt: skip
    set_homework(teacher, class_id, time_limit="10")
    codes = print_cards(teacher, class_id)
    pupils = {name: pupil_client(app, codes[name]) for name in ("Hana", "Ken", "Mia")}
    [hw] = homework_ids(pupils["Hana"])
    assert "10 minutes" in pupils["Hana"].get(f"/my/homework/{hw}").get_data(as_text=True)
    assert "20 minutes" in pupils["Ken"].get(f"/my/homework/{hw}").get_data(as_text=True)
    assert "as long as you need" in pupils["Mia"].get(f"/my/homework/{hw}").get_data(as_text=True)
    for device in pupils.values():
        assert device.post(f"/my/homework/{hw}/start").status_code == 303
    page = pupils["Hana"].get(f"/my/homework/{hw}").get_data(as_text=True)
    assert 'id="time-left" data-seconds="600"' in page
    before_the_due_date["now"] += timedelta(minutes=15)  # past Hana's 10 minutes, within Ken's 20
    refused = solve(app, pupils["Hana"], hw, 0)
    assert "Time is up" in pupils["Hana"].get(refused.headers["Location"]).get_data(as_text=True)
    assert tries(app, "Hana", hw, 0) == 0
    solve(app, pupils["Ken"], hw, 0)
    assert tries(app, "Ken", hw, 0) == 1
    before_the_due_date["now"] += timedelta(minutes=600)  # Mia has no time limit at all
    solve(app, pupils["Mia"], hw, 0)
    assert tries(app, "Mia", hw, 0) == 1
    report = teacher.get(f"/teacher/classes/{class_id}/homework/{hw}").get_data(as_text=True)
    assert report.count("Finished") >= 2  # Hana and Ken ran out of time: their work counts as finished
    with app.app_context():
        finished = dict(db.session.execute(select(ClassPupil.name, AssignmentWork.finished_at).join(
            AssignmentWork, AssignmentWork.pupil_id == ClassPupil.id)).all())  # fmt: skip
        assert finished["Mia"] is None and finished["Hana"] is not None and finished["Ken"] is not None


def test_free_hints_cost_a_pupil_nothing(app, teacher):
    class_id = make_class(teacher)
    ids = pupil_ids(app, class_id)
    teacher.post(f"/teacher/classes/{class_id}/pupils/{ids['Ken']}/edit",
                 data={"name": "Ken", "number": "2", "extra_time": "1", "free_hints": "yes"})  # fmt: skip
    set_homework(teacher, class_id, count="1")
    codes = print_cards(teacher, class_id)
    scores = {}
    for name in ("Hana", "Ken"):
        device = pupil_client(app, codes[name])
        [hw] = homework_ids(device)
        hint = device.post(f"/api/my/homework/{hw}/hint", json={"roll": 0, "step": 0})
        assert hint.status_code == 200 and hint.get_json()["hints_used"] == 1
        assert device.post(f"/api/my/homework/{hw}/hint", json={"roll": 0, "step": 3}).status_code == 400
        solve(app, device, hw, 0)
        scores[name] = int(re.search(r"Your total: (\d+)", device.get(f"/my/homework/{hw}").get_data(as_text=True)).group(1))
    best = problems(app, hw)[0]["best_score"]
    assert scores == {"Hana": best - -(-best // 4), "Ken": best}


def test_adaptive_practice_of_n_items_is_the_pupils_own_practice(app, teacher):
    from suji.learner.bank import load
    from suji.learner.items import item_key
    from suji.rules.dice import Roll
    from suji.web.practice.models import PracticeProfile

    class_id = make_class(teacher)
    set_homework(teacher, class_id, title="Practice", kind="adaptive", amount_kind="items", amount="3")
    codes = print_cards(teacher, class_id)
    hana = pupil_client(app, codes["Hana"])
    [hw] = homework_ids(hana)

    def shown(device) -> tuple[str, str]:
        page = device.get(f"/my/homework/{hw}").get_data(as_text=True)
        nonce = re.search(r'name="item" value="([^"]+)"', page).group(1)
        dice = json.loads(re.search(r'data-dice="([^"]+)"', page).group(1).replace("&#34;", '"'))
        goal = re.search(r"at least (\d+) points", page)
        roll = Roll(tuple(dice["target_dice"]), tuple(dice["number_dice"]), tuple(dice["operator_dice"]))
        return nonce, load().get(item_key(roll, int(goal.group(1)) if goal else 0)).witness_formula

    nonce, formula = shown(hana)
    assert shown(hana)[0] == nonce  # the same item until answered
    other = pupil_client(app, codes["Hana"])
    assert shown(other)[0] == nonce  # on every device: it is kept in the database
    assert "Problem 1 of 3" in hana.get(f"/my/homework/{hw}").get_data(as_text=True)
    for slip, message in (("1++2", "Two operators stand side by side"), ("", "Write a formula.")):
        # No answer: the pupil hears why, the text stays, and the item waits (nothing counted).
        sent = hana.post(f"/my/homework/{hw}/item", data={"item": nonce, "formula": slip})
        page = hana.get(sent.headers["Location"]).get_data(as_text=True)
        assert message in page and f'value="{slip}"' in page and "Problem 1 of 3" in page
        assert shown(hana)[0] == nonce
    made = hana.post(f"/my/homework/{hw}/item", data={"item": nonce, "formula": formula})
    assert "Goal made" in hana.get(made.headers["Location"]).get_data(as_text=True)
    again = other.post(f"/my/homework/{hw}/item", data={"item": nonce, "formula": formula})  # the old page
    assert "already done" in other.get(again.headers["Location"]).get_data(as_text=True)
    nonce, _ = shown(other)
    unsure = other.post(f"/my/homework/{hw}/give-up", data={"item": nonce})  # without the yes: the page asks
    asked = other.get(unsure.headers["Location"]).get_data(as_text=True)
    assert 'id="confirm-give-up"' in asked and shown(other)[0] == nonce
    other.post(f"/my/homework/{hw}/give-up", data={"item": nonce, "sure": "give-up"})
    nonce, formula = shown(hana)
    hana.post(f"/my/homework/{hw}/item", data={"item": nonce, "formula": formula})
    done = hana.get(f"/my/homework/{hw}").get_data(as_text=True)
    assert "Goals made: 2 of 3" in done and "1 of 3 have finished" in done
    with app.app_context():
        work = db.session.scalar(select(AssignmentWork))
        assert (work.items_done, work.items_made, work.finished_at is not None) == (3, 2, True)
        pupil = db.session.scalar(select(ClassPupil).where(ClassPupil.name == "Hana"))
        assert db.session.get(PracticeProfile, pupil.profile_id).answered == 3  # the model learned from all three
    assert hana.get("/api/practice/progress").get_json()["learner"]["answered"] == 3


def test_adaptive_practice_of_n_minutes_counts_the_time_of_each_item(app, teacher, before_the_due_date):
    class_id = make_class(teacher)
    set_homework(teacher, class_id, title="Twenty minutes", kind="adaptive", amount_kind="minutes", amount="20")
    hana = pupil_client(app, print_cards(teacher, class_id)["Hana"])
    [hw] = homework_ids(hana)

    def item(minutes: int) -> None:
        page = hana.get(f"/my/homework/{hw}").get_data(as_text=True)
        nonce = re.search(r'name="item" value="([^"]+)"', page).group(1)
        before_the_due_date["now"] += timedelta(minutes=minutes)
        hana.post(f"/my/homework/{hw}/give-up", data={"item": nonce, "sure": "give-up"})

    for minutes in (4, 30, 4):  # an item left open counts at most 10 minutes
        item(minutes)
    assert "18 of 20 minutes" in hana.get(f"/my/homework/{hw}").get_data(as_text=True)
    with app.app_context():
        work = db.session.scalar(select(AssignmentWork))
        assert work.items_done == 3 and work.seconds == pytest.approx(18 * 60) and work.finished_at is None
    item(5)
    with app.app_context():
        assert db.session.scalar(select(AssignmentWork.finished_at)) is not None


def test_concurrent_answers_from_one_pupil_lose_nothing(app, teacher):
    """One pupil on four devices answers four problems at the same moment (all count), then the same problem from
    four devices at once (one counts, the others are told it was done already): no update lost or doubled."""
    class_id = make_class(teacher)
    set_homework(teacher, class_id, count="4")
    code = print_cards(teacher, class_id)["Hana"]
    devices = [pupil_client(app, code) for _ in range(4)]
    [hw] = homework_ids(devices[0])
    formulas = [p["best_formula"] for p in problems(app, hw)]

    def at_once(jobs) -> list[int]:
        barrier = threading.Barrier(len(jobs))
        statuses: list[int] = []

        def run(job) -> None:
            barrier.wait()
            statuses.append(job().status_code)

        threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return statuses

    assert at_once([lambda d=d, i=i: send(d, hw, i, formulas[i]) for i, d in enumerate(devices)]) == [303] * 4
    with app.app_context():
        rows = db.session.scalars(select(AssignmentAnswer).order_by(AssignmentAnswer.problem)).all()
        assert [(r.problem, r.attempts, r.solved) for r in rows] == [(i, 1, True) for i in range(4)]
        assert db.session.scalar(select(func.count()).select_from(AssignmentAttempt)) == 4
        assert db.session.scalar(select(AssignmentWork.finished_at)) is not None
    set_homework(teacher, class_id, title="Again", count="1")
    again = next(h for h in homework_ids(devices[0]) if h != hw)
    miss = misses(problems(app, again)[0], 1)[0]
    at_once([lambda d=d: send(d, again, 0, miss) for d in devices])
    assert tries(app, "Hana", again, 0) == 1  # four forms that all showed no tries: one try counted
    with app.app_context():
        assert db.session.scalar(select(func.count()).where(AssignmentAttempt.number == 1, AssignmentAttempt.error_code.is_not(None))) == 1


def test_the_teachers_form_refuses_bad_homework_with_its_fields(app, teacher):
    class_id = make_class(teacher)
    response = teacher.post(f"/teacher/classes/{class_id}/homework/new", data={
        "title": "", "kind": "fixed", "count": "99", "due_at": "soon", "opens_at": "2026-12-10T09:00"})  # fmt: skip
    html = response.get_data(as_text=True)
    assert response.status_code == 400 and "A title has 1 to 60 characters" in html and "like 2026-05-20 15:00" in html
    bad = teacher.post(f"/teacher/classes/{class_id}/homework/new", data={
        "title": "x", "kind": "adaptive", "amount_kind": "items", "amount": "0", "due_at": DUE})  # fmt: skip
    assert bad.status_code == 400 and "Adaptive practice is a number" in bad.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Assignment)) == 0


def test_deleting_homework_deletes_every_pupils_work_on_it(app, teacher):
    class_id = make_class(teacher)
    set_homework(teacher, class_id)
    hana = pupil_client(app, print_cards(teacher, class_id)["Hana"])
    [hw] = homework_ids(hana)
    solve(app, hana, hw, 0)
    assert "Delete" in teacher.get(f"/teacher/classes/{class_id}/homework/{hw}/delete").get_data(as_text=True)
    teacher.post(f"/teacher/classes/{class_id}/homework/{hw}/delete")
    with app.app_context():
        for table in (Assignment, AssignmentWork, AssignmentAnswer, AssignmentAttempt):
            assert db.session.scalar(select(func.count()).select_from(table)) == 0
    assert hana.get(f"/my/homework/{hw}").status_code == 404


def test_a_level_one_problem_marks_the_operator_dice_its_level_does_not_need(app, teacher):
    """A homework of level 1 (+ and −) showed × ÷ ² dice with no word about them; the drill marks them ★."""
    class_id = make_class(teacher)
    set_homework(teacher, class_id, count="6", level="1")
    hana = pupil_client(app, print_cards(teacher, class_id)["Hana"])
    [hw] = homework_ids(hana)
    marked = 0
    for index, problem in enumerate(problems(app, hw)):
        page = hana.get(f"/my/homework/{hw}?p={index}").get_data(as_text=True)
        bonus = [op for op in problem["operator_dice"] if op not in ("+", "−")]
        assert ('id="bonus-line"' in page) == bool(bonus), (index, problem["operator_dice"])
        marked += bool(bonus)
    assert marked  # six level-1 problems of the standard dice: some have × ÷ or a die of the fourth kind


def test_a_teacher_moves_the_due_date_and_the_late_marks_follow_it(app, teacher, before_the_due_date):
    """No homework could be changed once set: a class that needed two more days had none."""
    from datetime import datetime

    class_id = make_class(teacher)
    set_homework(teacher, class_id, count="2", due_at="2026-12-02T17:00")
    hana = pupil_client(app, print_cards(teacher, class_id)["Hana"])
    [hw] = homework_ids(hana)
    solve(app, hana, hw, 0)
    before_the_due_date["now"] = datetime(2026, 12, 3, 1, 0)  # past the due date
    solve(app, hana, hw, 1)

    def late_marks() -> tuple[list[bool], bool, list[bool]]:
        with app.app_context():
            answers = [r.late for r in db.session.scalars(select(AssignmentAnswer).order_by(AssignmentAnswer.problem))]
            tries = [t.late for t in db.session.scalars(select(AssignmentAttempt).order_by(AssignmentAttempt.id))]
            return answers, db.session.scalar(select(AssignmentWork.finished_late)), tries

    assert late_marks() == ([False, True], True, [False, True])
    page = teacher.get(f"/teacher/classes/{class_id}/homework/{hw}").get_data(as_text=True)
    assert 'id="change-homework"' in page and 'value="2026-12-02T17:00"' in page
    moved = teacher.post(f"/teacher/classes/{class_id}/homework/{hw}/edit",
                         data={"title": "Sheet 3 (two more days)", "due_at": "2026-12-04T17:00"})  # fmt: skip
    assert moved.status_code == 303
    assert late_marks() == ([False, False], False, [False, False])
    page = teacher.get(f"/teacher/classes/{class_id}/homework/{hw}").get_data(as_text=True)
    assert "Sheet 3 (two more days)" in page and "Finished late" not in page
    assert "Sheet 3 (two more days)" in hana.get("/my/").get_data(as_text=True)  # the pupil's page too
    teacher.post(f"/teacher/classes/{class_id}/homework/{hw}/edit", data={"title": "Sheet 3", "due_at": "2026-12-02T17:00"})
    assert late_marks() == ([False, True], True, [False, True])  # and back


def test_a_wrong_new_due_date_is_refused_with_what_was_typed_kept(app, teacher):
    class_id = make_class(teacher)
    set_homework(teacher, class_id)
    hana = pupil_client(app, print_cards(teacher, class_id)["Hana"])
    [hw] = homework_ids(hana)
    refused = teacher.post(f"/teacher/classes/{class_id}/homework/{hw}/edit", data={"title": "  ", "due_at": "next week"})
    page = refused.get_data(as_text=True)
    assert refused.status_code == 400 and 'id="edit-errors"' in page and 'value="next week"' in page
    assert 'id="change-homework" open' in page and 'aria-invalid="true"' in page
    with app.app_context():
        assert db.session.scalar(select(Assignment.title).where(Assignment.public_id == hw)) == "Sheet 3"
    live = teacher.post(f"/teacher/classes/{class_id}/homework/nothing/edit", data={"title": "x", "due_at": DUE})
    assert live.status_code == 404

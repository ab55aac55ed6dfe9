"""A class's reports (issue 24, part 4): the skills grid over weeks from the learner model, each homework's report
with its most common mistake, the class page's alerts, one pupil's printed page, and every report as CSV, in
both languages, from pupils' real work through the pages."""

from __future__ import annotations

import csv
import io
import json
import re
from collections import Counter
from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import select, update
from teacher_support import make_class, misses, print_cards, pupil_client, pupil_ids, sign_up
from test_class_homework import problems, send, set_homework

from suji.core.furigana import strip_ruby
from suji.learner.bank import load
from suji.learner.items import item_key
from suji.rules.dice import Roll
from suji.web.classes.models import AssignmentAttempt, ClassPupil
from suji.web.extensions import db

JST = timedelta(hours=9)


def local(moment: datetime) -> str:
    """A moment (UTC) as the homework form takes it, in Japan's time."""
    return (moment + JST).strftime("%Y-%m-%dT%H:%M")


def rows_of(response) -> list[list[str]]:
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert response.data.startswith("\ufeff".encode()) and "attachment" in response.headers["Content-Disposition"]
    return list(csv.reader(io.StringIO(response.data.decode("utf-8-sig"))))


def answer_items(device, hw: str, count: int, right: bool = True) -> None:
    """Answer `count` items of an adaptive homework: with one of the item's answers, or by giving up."""
    for _ in range(count):
        page = device.get(f"/my/homework/{hw}").get_data(as_text=True)
        nonce = re.search(r'name="item" value="([^"]+)"', page).group(1)
        if not right:
            assert device.post(f"/my/homework/{hw}/give-up", data={"item": nonce, "sure": "give-up"}).status_code == 303
            continue
        dice = json.loads(re.search(r'data-dice="([^"]+)"', page).group(1).replace("&#34;", '"'))
        goal = re.search(r"at least (\d+) points", page)
        roll = Roll(tuple(dice["target_dice"]), tuple(dice["number_dice"]), tuple(dice["operator_dice"]))
        formula = load().get(item_key(roll, int(goal.group(1)) if goal else 0)).witness_formula
        assert device.post(f"/my/homework/{hw}/item", data={"item": nonce, "formula": formula}).status_code == 303


@pytest.fixture
def school(app, client):
    """A class of five: Hana finishes the set, Ken misses with × three times, Mia does adaptive practice, Yui was
    last active nine days ago, Sora has never signed in (and was put on the roster ten days ago)."""
    sign_up(client)
    class_id = make_class(client, roster="1 Hana\n2 Ken\n3 Mia\n4 Yui\n5 Sora")
    now = datetime.now(UTC).replace(tzinfo=None)
    set_homework(client, class_id, title="Sheet 3", count="2", due_at=local(now + timedelta(days=10)))
    set_homework(client, class_id, title="Practice", kind="adaptive", amount="4", due_at=local(now + timedelta(days=10)))
    set_homework(client, class_id, title="Due soon", count="1", due_at=local(now + timedelta(days=1)))
    codes = print_cards(client, class_id)
    devices = {name: pupil_client(app, codes[name]) for name in ("Hana", "Ken", "Mia")}
    page = devices["Hana"].get("/my/").get_data(as_text=True)
    ids = {title: re.search(rf'data-homework="([^"]+)">\s*<a[^>]*>\s*<span class="homework-title">{title}<', page).group(1)
           for title in ("Due soon", "Sheet 3", "Practice")}  # fmt: skip
    for index, p in enumerate(problems(app, ids["Sheet 3"])):
        send(devices["Hana"], ids["Sheet 3"], index, p["best_formula"])
    for attempt, formula in enumerate(misses(problems(app, ids["Sheet 3"])[0], 3, "×")):  # three misses with ×
        assert send(devices["Ken"], ids["Sheet 3"], 0, formula, attempt).status_code == 303
    answer_items(devices["Mia"], ids["Practice"], 3)
    with app.app_context():
        db.session.execute(update(ClassPupil).where(ClassPupil.name == "Yui").values(last_active_at=now - timedelta(days=9)))
        db.session.execute(update(ClassPupil).where(ClassPupil.name == "Sora").values(created_at=now - timedelta(days=10)))
        db.session.commit()
    return class_id, ids, devices, pupil_ids(app, class_id)


def test_the_class_page_lists_the_alerts(client, school):
    class_id, _, _, pupils = school
    page = client.get(f"/teacher/classes/{class_id}").get_data(as_text=True)
    alerts = re.findall(r'data-alert="(\w+)"><a href="([^"]+)">([^<]+)<', page)
    texts = [t for _, _, t in alerts]
    kinds = [k for k, _, _ in alerts]
    assert texts[0] == "Ken missed 3 in a row on × (times)."  # what a teacher can act on first
    # Five pupils have not started the same homework: one line, not five (a class of 25 had 25 such lines).
    assert kinds == ["misses", "not_started", "inactive", "never_active"]
    assert texts[1].startswith("5 pupils have not started “Due soon”, due ")
    assert alerts[1][1] == f"/teacher/classes/{class_id}/reports"
    assert texts[2:] == ["Yui has not practised for 9 days.", "Sora has not signed in yet."]
    assert alerts[0][1] == f"/teacher/classes/{class_id}/pupils/{pupils['Ken']}/report"
    assert page.index('id="alerts"') < page.index('id="roster"')  # first thing on the page
    rows = rows_of(client.get(f"/teacher/classes/{class_id}/alerts.csv"))  # a line a pupil, as before
    assert rows[0] == ["Name", "Alert"] and rows[1] == ["Ken", "Ken missed 3 in a row on × (times)."]
    assert [r[0] for r in rows[2:7]] == ["Hana", "Ken", "Mia", "Yui", "Sora"]  # the roster's order
    assert rows[3][1].startswith("Ken has not started “Due soon”, due ") and len(rows) == 9


def test_the_skills_grid_shows_levels_from_the_learner_model_and_the_weeks(client, school):
    class_id, _, _, pupils = school
    page = client.get(f"/teacher/classes/{class_id}/reports").get_data(as_text=True)
    rows = dict(re.findall(r'<tr data-pupil="([^"]+)">(.*?)</tr>', page, re.S))
    assert set(rows) == set(pupils.values())
    assert rows[pupils["Mia"]].count('class="level level-not_started"') < 10  # practice moved her levels
    assert rows[pupils["Sora"]].count('class="level level-not_started"') == 10
    assert "Familiar or better" in page and page.count('class="w band-') >= 5 * 11 * 6
    # One skill, week by week: Ken's three misses with × this week.
    one = client.get(f"/teacher/classes/{class_id}/reports?skill=times&weeks=4").get_data(as_text=True)
    ken = dict(re.findall(r'<tr data-pupil="([^"]+)">(.*?)</tr>', one, re.S))[pupils["Ken"]]
    assert re.findall(r'<td class="num week band-(\w+)">([^<]*)<', ken)[-1] == ("low", "0 of 3")
    assert one.count("Week of") == 4
    term = client.get(f"/teacher/classes/{class_id}/reports?skill=times&weeks=13").get_data(as_text=True)
    assert term.count("Week of") == 13  # a term (学期), to set beside the last one
    assert "13 weeks" in client.get(f"/teacher/classes/{class_id}/reports").get_data(as_text=True)
    lines = rows_of(client.get(f"/teacher/classes/{class_id}/reports/skills.csv?weeks=4"))
    assert len(lines) == 1 + 5 * 10 and lines[0][:4] == ["No.", "Name", "Skill", "Level now"]
    ken_times = next(r for r in lines if r[1] == "Ken" and r[2] == "× (times)")
    assert ken_times[4:8] == ["0", "0", "0", "0"] and ken_times[8:] == ["0", "0", "0", "3"]


def test_a_homeworks_report_names_who_finished_and_the_most_common_mistake(client, school):
    class_id, ids, _, pupils = school
    page = client.get(f"/teacher/classes/{class_id}/homework/{ids['Sheet 3']}").get_data(as_text=True)
    assert "1 of 5 finished" in page
    with client.application.app_context():  # the mistakes as the checker named them, counted in the database
        codes = Counter(db.session.scalars(select(AssignmentAttempt.error_code).where(AssignmentAttempt.error_code.is_not(None))))
    assert codes.most_common(1)[0] == ("not_target", 3)
    assert "The most common mistake: The value is not a target (3 times)." in page
    problem_rows = re.findall(r'<tr><th scope="row" class="num">(\d)</th>(.*?)</tr>', page, re.S)
    assert "The value is not a target (3 times)" in problem_rows[0][1] and '20%<span class="sub">1/5</span>' in problem_rows[0][1]
    assert problem_rows[1][1].endswith("<td>—</td>") and '20%<span class="sub">1/5</span>' in problem_rows[1][1]  # solved by Hana alone
    lines = rows_of(client.get(f"/teacher/classes/{class_id}/homework/{ids['Sheet 3']}/report.csv"))
    by_name = {r[1]: r for r in lines[1:]}
    assert by_name["Hana"][2] == "Finished" and by_name["Ken"][2] == "Working on it" and by_name["Ken"][6] == "0"
    assert by_name["Sora"][2] == "Not started" and lines[0][6:] == ["Problem 1", "Problem 2"]
    adaptive = rows_of(client.get(f"/teacher/classes/{class_id}/homework/{ids['Practice']}/report.csv"))
    mia = next(r for r in adaptive if r[1] == "Mia")
    assert mia[6:8] == ["3", mia[7]] and int(mia[7]) <= 3 and lines[0][:3] == ["No.", "Name", "Status"]


def test_a_pupils_report_is_theirs_alone_and_prints(client, school):
    class_id, _, _, pupils = school
    page = client.get(f"/teacher/classes/{class_id}/pupils/{pupils['Ken']}/report").get_data(as_text=True)
    assert "Learning report: Ken" in page and "To practise:" in page and "× (times)" in page
    assert "Ken missed 3 in a row on × (times)." in page
    assert "The most common mistake: The value is not a target (3 times)." in page  # of his formulas, not skips
    for other in ("Hana", "Mia", "Yui", "Sora"):
        assert other not in page  # the class only as figures without names
    assert 'id="print"' in page and "reports.js" in page and "http" not in re.sub(r'href="[^"]*"', "", page.split("<main")[1])
    homework = re.findall(r'<tr><th scope="row" class="name">([^<]+)</th>(.*?)</tr>', page, re.S)
    assert [t for t, _ in homework] == ["Due soon", "Practice", "Sheet 3"] or [t for t, _ in homework][:1] == ["Due soon"]
    sheet = dict(homework)["Sheet 3"]
    assert "Working on it" in sheet and "1 of 5 finished" in sheet
    lines = rows_of(client.get(f"/teacher/classes/{class_id}/pupils/{pupils['Ken']}/report.csv?weeks=4"))
    assert lines[0][:5] == ["No.", "Name", "Part", "Skill", "Level now"] and len(lines[0]) == 5 + 8
    assert all(r[1] == "Ken" for r in lines if r and r[0] != "No.") and len(lines) == 1 + 10 + 1 + 1 + 3
    assert [r[3:5] for r in lines[13:]] == [["Due soon", "Not started"], ["Sheet 3", "Working on it"], ["Practice", "Not started"]]
    with client.application.app_context():
        assert set(db.session.scalars(select(AssignmentAttempt.error_code).where(AssignmentAttempt.pupil_id == db.session.scalar(select(ClassPupil.id).where(ClassPupil.name == "Ken"))))) == {"not_target"}


def test_the_reports_read_in_japanese(client, school):
    class_id, _, _, pupils = school
    client.set_cookie("suji_lang", "ja")
    page = client.get(f"/teacher/classes/{class_id}").get_data(as_text=True)
    assert "Kenさんは「×（かけ算）」で3回続けてまちがえています。" in page
    reports = client.get(f"/teacher/classes/{class_id}/reports").get_data(as_text=True)
    assert "児童" in reports or "名前" in reports
    assert "生徒" not in reports and "生徒" not in page
    report = client.get(f"/teacher/classes/{class_id}/pupils/{pupils['Ken']}/report").get_data(as_text=True)
    assert "Kenさん" in report and "生徒" not in report
    lines = rows_of(client.get(f"/teacher/classes/{class_id}/alerts.csv"))
    assert lines[0] == ["名前", "お知らせ"]


def test_another_teachers_reports_are_not_found(app, client, school):
    class_id, ids, _, pupils = school
    other = app.test_client()
    sign_up(other, "kato@school.example")
    paths = [f"/teacher/classes/{class_id}/reports", f"/teacher/classes/{class_id}/reports/skills.csv",
             f"/teacher/classes/{class_id}/alerts.csv", f"/teacher/classes/{class_id}/homework/{ids['Sheet 3']}/report.csv",
             f"/teacher/classes/{class_id}/pupils/{pupils['Ken']}/report",
             f"/teacher/classes/{class_id}/pupils/{pupils['Ken']}/report.csv"]  # fmt: skip
    for path in paths:
        assert other.get(path).status_code == 404, path
        assert client.get(path).status_code == 200, path
    own = make_class(other, roster="1 Aki")
    assert other.get(f"/teacher/classes/{own}/pupils/{pupils['Ken']}/report").status_code == 404  # not in that class


def test_the_school_year_by_month(app, client, school, monkeypatch):
    """?weeks=year: a column a month from the school year's first (April) to this month, each month's answers
    counted by the database in the school's time (00:30 on 1 May in Japan is May's), in the grid and the CSV."""
    from sqlalchemy import event

    from suji.web.classes import progress, store
    from suji.web.classes.models import SchoolClass

    class_id, _, _, pupils = school
    monkeypatch.setattr(store, "today", lambda: date(2026, 12, 5))
    with app.app_context():
        db.session.execute(update(SchoolClass).where(SchoolClass.public_id == class_id).values(ends_on=date(2027, 3, 31)))
        ken = select(ClassPupil.id).where(ClassPupil.public_id == pupils["Ken"]).scalar_subquery()
        ids = db.session.scalars(select(AssignmentAttempt.id).where(AssignmentAttempt.pupil_id == ken)
                                 .order_by(AssignmentAttempt.id)).all()  # fmt: skip
        assert len(ids) == 3  # Ken's three misses with ×: 1 May 00:30 in Japan, 20 May, 1 December (UTC below)
        for attempt, moment in zip(ids, (datetime(2026, 4, 30, 15, 30), datetime(2026, 5, 20, 3), datetime(2026, 12, 1, 3)),
                                   strict=True):  # fmt: skip
            db.session.execute(update(AssignmentAttempt).where(AssignmentAttempt.id == attempt).values(created_at=moment))
        db.session.commit()
    with app.test_request_context():
        cls = db.session.scalar(select(SchoolClass).where(SchoolClass.public_id == class_id))
        starts, ends = progress.year_months(cls)
    assert starts == [date(2026, m, 1) for m in range(4, 13)] and ends[-1] == date(2026, 12, 6)
    statements = []
    listen = lambda *args: statements.append(args[2])  # noqa: E731
    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", listen)
    try:
        one = client.get(f"/teacher/classes/{class_id}/reports?skill=times&weeks=year").get_data(as_text=True)
    finally:
        with app.app_context():
            event.remove(db.engine, "before_cursor_execute", listen)
    assert 'aria-current="page" id="year-choice"' in one and "month by month" in one
    heads = re.findall(r'<th scope="col" class="num">([^<]+)</th>', one)
    assert heads == ["Apr 2026", "May 2026", "Jun 2026", "Jul 2026", "Aug 2026", "Sept 2026", "Oct 2026",
                     "Nov 2026", "Dec 2026"]  # fmt: skip
    ken_row = dict(re.findall(r'<tr data-pupil="([^"]+)">(.*?)</tr>', one, re.S))[pupils["Ken"]]
    cells = re.findall(r'<td class="num week band-(\w+)">([^<]*)<', ken_row)
    assert cells[0] == ("none", "") and cells[1] == ("low", "0 of 2") and cells[-1] == ("low", "0 of 1")
    counted = [s for s in statements if "count(" in s.lower() and "group by" in s.lower()]
    assert len(counted) == 2 * len(starts)  # two grouped queries a month, whatever the pupils answered
    lines = rows_of(client.get(f"/teacher/classes/{class_id}/reports/skills.csv?weeks=year"))
    assert lines[0][4] == f"{starts[0]:%Y-%m}: made" and lines[0][4 + len(starts)] == f"{starts[0]:%Y-%m}: answered"
    ken_times = next(r for r in lines if r[1] == "Ken" and r[2] == "× (times)")
    answered = ken_times[4 + len(starts):]
    assert answered == ["0", "2", "0", "0", "0", "0", "0", "0", "1"]
    client.set_cookie("suji_lang", "ja")
    ja = strip_ruby(client.get(f"/teacher/classes/{class_id}/reports?weeks=year").get_data(as_text=True))
    assert f"{starts[0].year}年4月から" in ja and "1年間（月ごと）" in ja and "年間のスキル" in ja


@pytest.mark.parametrize(("ends_on", "first", "months"), [
    (date(2027, 3, 31), date(2026, 4, 1), 12),
    (date(2027, 3, 24), date(2026, 4, 1), 12),  # a 修了式 on 24 March: still April to March
    (date(2029, 2, 28), date(2028, 3, 1), 12),  # the year before holds a 29 February
    (date(2026, 7, 20), date(2025, 8, 1), 12),
])  # fmt: skip
def test_a_school_year_has_twelve_months_at_most(ends_on, first, months):
    from types import SimpleNamespace

    from suji.web.classes import progress

    starts, ends = progress.year_months(SimpleNamespace(ends_on=ends_on), today=ends_on + timedelta(days=40))
    assert starts[0] == first and len(starts) == months and ends[-1] == ends_on + timedelta(days=1)
    assert progress.year_months(SimpleNamespace(ends_on=ends_on), today=first - timedelta(days=9))[0] == [first]

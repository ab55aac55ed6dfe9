"""Classes and rosters on the web (issue 24, part 2): a teacher makes a class, adds pupils from a list, sets one
pupil's details and accommodations, the leaderboard switch, the export, deleting a pupil or a class (the rows
really gone), the retention purge, and another teacher finding nothing."""

from __future__ import annotations

import json
import re
from datetime import date

import pytest
from sqlalchemy import event, func, select
from sqlalchemy.orm import Session
from teacher_support import make_class, pupil_ids, sign_up

from suji.web.classes.models import ClassPupil, SchoolClass
from suji.web.extensions import db


@pytest.fixture
def teacher(client):
    sign_up(client)
    return client


def test_a_class_with_its_roster(app, teacher):
    class_id = make_class(teacher, "4年2組", "1 さとう はな\n２ Ken\nMia")
    page = teacher.get(f"/teacher/classes/{class_id}").get_data(as_text=True)
    assert "4年2組" in page and "さとう はな" in page and "Ken" in page and "Mia" in page
    assert page.index("さとう はな") < page.index("Ken") < page.index("Mia")  # by class number, none last
    assert "4年2組" in teacher.get("/teacher/").get_data(as_text=True)
    with app.app_context():
        cls = db.session.scalar(select(SchoolClass))
        assert (cls.school_year, cls.ends_on, cls.leaderboard) == (2026, date(2027, 3, 31), "off")
        assert len(cls.public_id) >= 16 and str(cls.id) != class_id


def test_a_bad_roster_is_refused_whole_with_the_line_named(app, teacher):
    class_id = make_class(teacher, roster="1 Hana")
    response = teacher.post(f"/teacher/classes/{class_id}/pupils", data={"roster": "2 Ken\n1 Mia"})
    html = response.get_data(as_text=True)
    assert response.status_code == 400 and "Line 2" in html and "already Hana" in html and "2 Ken" in html
    again = teacher.post(f"/teacher/classes/{class_id}/pupils", data={"roster": "hana"})
    assert again.status_code == 400 and "already a pupil" in again.get_data(as_text=True)
    assert list(pupil_ids(app, class_id)) == ["Hana"]  # nothing of either list was added


def test_one_pupils_details_and_accommodations(app, teacher):
    class_id = make_class(teacher)
    ken = pupil_ids(app, class_id)["Ken"]
    form = teacher.get(f"/teacher/classes/{class_id}/pupils/{ken}/edit").get_data(as_text=True)
    version = int(form.split('name="version" value="')[1].split('"')[0])
    saved = teacher.post(f"/teacher/classes/{class_id}/pupils/{ken}/edit",
                         data={"name": "Kenji", "number": "12", "extra_time": "2", "free_hints": "yes",
                               "version": str(version)})  # fmt: skip
    assert saved.status_code == 303
    with app.app_context():
        pupil = db.session.scalar(select(ClassPupil).where(ClassPupil.public_id == ken))
        assert (pupil.name, pupil.number, pupil.extra_time, pupil.free_hints) == ("Kenji", 12, "2", True)
    page = teacher.get(f"/teacher/classes/{class_id}").get_data(as_text=True)
    assert "Time ×2" in page and "Free hints" in page
    stale = teacher.post(f"/teacher/classes/{class_id}/pupils/{ken}/edit",
                         data={"name": "Ken", "extra_time": "1", "free_hints": "no", "version": str(version)})  # fmt: skip
    assert stale.status_code == 303 and "edit" in stale.headers["Location"]  # the old form changes nothing
    taken = teacher.post(f"/teacher/classes/{class_id}/pupils/{ken}/edit",
                         data={"name": "Hana", "extra_time": "1", "free_hints": "no"})  # fmt: skip
    assert taken.status_code == 400 and "already a pupil" in taken.get_data(as_text=True)
    bad = teacher.post(
        f"/teacher/classes/{class_id}/pupils/{ken}/edit", data={"name": "Ken", "extra_time": "9"}
    )
    assert bad.status_code == 400


def test_the_leaderboard_switch_and_the_class_settings(app, teacher):
    class_id = make_class(teacher)
    page = teacher.get(f"/teacher/classes/{class_id}/settings").get_data(as_text=True)
    assert 'value="off" checked' in page  # off by default
    saved = teacher.post(f"/teacher/classes/{class_id}/settings",
                         data={"name": "4-2 Maple", "school_year": "2026", "leaderboard": "anonymous"})  # fmt: skip
    assert saved.status_code == 303
    with app.app_context():
        assert db.session.scalar(select(SchoolClass.leaderboard)) == "anonymous"
    assert teacher.post(f"/teacher/classes/{class_id}/settings", data={"name": ""}).status_code == 400


def _counts(app) -> dict[str, int]:
    with app.app_context():
        return {"classes": db.session.scalar(select(func.count()).select_from(SchoolClass)),
                "pupils": db.session.scalar(select(func.count()).select_from(ClassPupil))}  # fmt: skip


def test_deleting_a_pupil_then_the_class_removes_the_rows(app, teacher):
    class_id = make_class(teacher)
    ken = pupil_ids(app, class_id)["Ken"]
    confirm = teacher.get(f"/teacher/classes/{class_id}/pupils/{ken}/delete")
    assert confirm.status_code == 200 and "cannot be undone" in confirm.get_data(as_text=True)
    assert teacher.post(f"/teacher/classes/{class_id}/pupils/{ken}/delete").status_code == 303
    assert _counts(app) == {"classes": 1, "pupils": 2}
    assert teacher.get(f"/teacher/classes/{class_id}/pupils/{ken}/edit").status_code == 404
    assert teacher.post(f"/teacher/classes/{class_id}/delete").status_code == 303
    assert _counts(app) == {"classes": 0, "pupils": 0}
    assert teacher.get(f"/teacher/classes/{class_id}").status_code == 404


def test_the_export_holds_the_class_and_every_pupil(app, teacher):
    class_id = make_class(teacher)
    response = teacher.get(f"/teacher/classes/{class_id}/export.json")
    assert response.status_code == 200 and "attachment" in response.headers["Content-Disposition"]
    data = json.loads(response.get_data(as_text=True))
    assert data["class"]["name"] == "4-2" and data["class"]["kept_until"] == "2027-06-29"  # the file: ISO
    page = teacher.get(f"/teacher/classes/{class_id}").get_data(as_text=True)
    assert "29 Jun 2027" in page and "2027-06-29" not in page  # the page: as a sentence writes it
    assert [(p["name"], p["number"]) for p in data["pupils"]] == [("Hana", 1), ("Ken", 2), ("Mia", 3)]


def test_classes_past_their_keeping_are_purged(app, teacher):
    from suji.web.classes.store import purge_expired

    old = make_class(teacher, "2024 class", school_year="2024")
    make_class(teacher, "This year", roster="Ken")
    with app.app_context():
        assert purge_expired(date(2025, 6, 29)) == 0  # 90 days after 31 March 2025: still kept
        assert purge_expired(date(2025, 6, 30)) == 1
    assert teacher.get(f"/teacher/classes/{old}").status_code == 404
    assert _counts(app) == {"classes": 1, "pupils": 1}


def test_another_teacher_finds_none_of_it(app, teacher):
    class_id = make_class(teacher)
    ken = pupil_ids(app, class_id)["Ken"]
    other = app.test_client()
    sign_up(other, "suzuki@school.example")
    for url in (f"/teacher/classes/{class_id}", f"/teacher/classes/{class_id}/settings",
                f"/teacher/classes/{class_id}/export.json", f"/teacher/classes/{class_id}/delete",
                f"/teacher/classes/{class_id}/pupils/{ken}/edit"):  # fmt: skip
        response = other.get(url)
        assert response.status_code == 404 and "Ken" not in response.get_data(as_text=True), url
    for url in (f"/teacher/classes/{class_id}/delete", f"/teacher/classes/{class_id}/pupils/{ken}/delete",
                f"/teacher/classes/{class_id}/pupils"):  # fmt: skip
        assert other.post(url, data={"roster": "Eve"}).status_code == 404
    assert _counts(app) == {"classes": 1, "pupils": 3}
    assert "4-2" not in other.get("/teacher/").get_data(as_text=True)
    anonymous = app.test_client()
    assert anonymous.get(f"/teacher/classes/{class_id}").status_code == 303  # to the login page


def test_deleting_the_account_deletes_its_classes(app, teacher):
    from suji.web.accounts import store as accounts
    from suji.web.accounts.models import Teacher

    make_class(teacher)
    teacher.post("/class/new", data={"count": "1", "level": "1"})
    with app.app_context():
        accounts.delete_teacher(db.session.scalar(select(Teacher)))
        from suji.web.classroom_models import ClassSession

        assert db.session.scalar(select(func.count()).select_from(ClassSession)) == 0
    assert _counts(app) == {"classes": 0, "pupils": 0}


@pytest.mark.parametrize("lang, words", [("ja", "児童"), ("en", "Pupils")])
def test_the_class_pages_are_in_the_teachers_language(app, client, lang, words):
    sign_up(client, lang=lang)
    class_id = make_class(client)
    ken = pupil_ids(app, class_id)["Ken"]
    for url in ("/teacher/", "/teacher/classes/new", f"/teacher/classes/{class_id}",
                f"/teacher/classes/{class_id}/settings", f"/teacher/classes/{class_id}/pupils/{ken}/edit",
                f"/teacher/classes/{class_id}/delete"):  # fmt: skip
        html = client.get(url).get_data(as_text=True)
        assert f'<html lang="{lang}">' in html, url
    assert words in client.get(f"/teacher/classes/{class_id}").get_data(as_text=True)


def test_downloads_are_named_by_their_class_and_pupil_in_any_script(app, client):
    """Two classes of one year downloaded as one name (suji-class-2026.json), and a pupil's as an id."""
    from urllib.parse import unquote

    from teacher_support import make_class, pupil_ids, sign_up

    sign_up(client)
    class_id = make_class(client, name="4年2組", roster="1 はな\n2 Ken")
    year = re.search(r"suji-4_2_-(\d{4})\.json", client.get(f"/teacher/classes/{class_id}/export.json").headers[
        "Content-Disposition"]).group(1)  # fmt: skip
    whole = client.get(f"/teacher/classes/{class_id}/export.json").headers["Content-Disposition"]
    assert unquote(whole.split("filename*=UTF-8''")[1]) == f"suji-4年2組-{year}.json"
    hana = pupil_ids(app, class_id)["はな"]
    one = client.get(f"/teacher/classes/{class_id}/pupils/{hana}/export.json").headers["Content-Disposition"]
    assert unquote(one.split("filename*=UTF-8''")[1]) == f"suji-4年2組-{year}-01-はな.json"
    assert 'filename="suji-4_2_-' in one and all(ord(c) < 128 for c in one)  # the header itself is ASCII
    cards = client.post(f"/teacher/classes/{class_id}/cards.pdf", data={"which": "new"})
    assert unquote(cards.headers["Content-Disposition"].split("filename*=UTF-8''")[1]) == f"suji-cards-4年2組-{year}.pdf"


def test_a_download_name_never_holds_what_a_file_name_cannot():
    from urllib.parse import unquote

    from suji.web.links import attachment

    header = attachment('suji-4年/b:c*?"<>|\x01.json')
    ascii_name = re.search(r'filename="([^"]*)"', header).group(1)
    full_name = unquote(header.split("filename*=UTF-8''")[1])
    assert re.fullmatch(r"[A-Za-z0-9._-]+", ascii_name) and ascii_name.endswith(".json")
    assert full_name.startswith("suji-4年") and not set(full_name) & set('/\\:*?"<>|\x01')
    assert attachment("suji-Ken-2026.json") == (
        "attachment; filename=\"suji-Ken-2026.json\"; filename*=UTF-8''suji-Ken-2026.json"
    )


def test_next_years_class_starts_with_this_rosters_pupils_and_nothing_they_did(app, client):
    from teacher_support import print_cards

    sign_up(client)
    old_id = make_class(client, name="4-2", roster="1 Hana\n2 Ken\n3 Mia")
    print_cards(client, old_id)
    with app.app_context():
        db.session.execute(
            ClassPupil.__table__.update().where(ClassPupil.name == "Ken").values(extra_time="2", free_hints=True)
        )
        db.session.commit()
    page = client.get(f"/teacher/classes/{old_id}").get_data(as_text=True)
    assert f'href="/teacher/classes/new?roster_of={old_id}" id="next-year"' in page
    form = client.get(f"/teacher/classes/new?roster_of={old_id}").get_data(as_text=True)
    assert f'name="roster_of" value="{old_id}"' in form and "starts with the 3 pupils of 4-2" in form
    assert 'name="school_year" type="number" min="2000" max="2100" value="2027"' in form  # the year after
    commits = []

    def committed(session: Session) -> None:
        commits.append(session)

    event.listen(Session, "after_commit", committed)
    try:
        response = client.post("/teacher/classes/new", data={"name": "5-1", "school_year": "2027", "roster_of": old_id})
    finally:
        event.remove(Session, "after_commit", committed)
    assert len(commits) == 1  # the class and its pupils, with their extra time and hints, all or nothing
    new_id = response.headers["Location"].rsplit("/", 1)[1]
    with app.app_context():
        def pupils(class_id):
            cls = db.session.scalar(select(SchoolClass).where(SchoolClass.public_id == class_id))
            return [(p.name, p.number, p.extra_time, p.free_hints, p.signin_hash is not None, p.public_id)
                    for p in db.session.scalars(select(ClassPupil).where(ClassPupil.class_id == cls.id)
                                                .order_by(ClassPupil.number))]  # fmt: skip
        old, new = pupils(old_id), pupils(new_id)
    assert [p[:4] for p in new] == [p[:4] for p in old] == [("Hana", 1, "1", False), ("Ken", 2, "2", True),
                                                             ("Mia", 3, "1", False)]  # fmt: skip
    assert all(p[4] for p in old) and not any(p[4] for p in new)  # new cards to print; the old ones stay
    assert not {p[5] for p in old} & {p[5] for p in new}  # new pupils' rows, not the old ones moved


def test_another_teachers_roster_is_not_copied(app, client):
    sign_up(client, email="other@school.example")
    theirs = make_class(client, name="6-1", roster="1 Aoi")
    mine = app.test_client()
    sign_up(mine)
    form = mine.get(f"/teacher/classes/new?roster_of={theirs}").get_data(as_text=True)
    assert 'name="roster_of"' not in form and "6-1" not in form
    response = mine.post("/teacher/classes/new", data={"name": "5-1", "school_year": "2027", "roster_of": theirs})
    new_id = response.headers["Location"].rsplit("/", 1)[1]
    with app.app_context():
        cls = db.session.scalar(select(SchoolClass).where(SchoolClass.public_id == new_id))
        assert db.session.scalar(select(func.count()).select_from(ClassPupil).where(ClassPupil.class_id == cls.id)) == 0

"""A class's pupils on any device (issue 24): printed sign-in cards, signing in with a card's code on any device,
the code's hash only, wrong codes rate-limited in the database, a new card signing the old devices out, the
pupil's practice as the class's, what a pupil may see, and deleting and exporting a pupil's records."""

from __future__ import annotations

import io
import re

import pytest
from sqlalchemy import func, select
from teacher_support import make_class, print_cards, pupil_client, pupil_ids, sign_up

from suji.web.classes import signin
from suji.web.classes.models import ClassPupil
from suji.web.extensions import db
from suji.web.practice.models import PracticeAnswer, PracticeProfile


@pytest.fixture
def teacher(client):
    sign_up(client)
    return client


def test_cards_print_a_code_for_each_pupil_and_keep_only_its_hash(app, teacher):
    class_id = make_class(teacher, "4年2組", "1 さとう はな\n2 Ken\n3 Mia")
    response = teacher.post(f"/teacher/classes/{class_id}/cards.pdf", data={"which": "new"})
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    import pypdf

    text = "".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(response.data)).pages)
    flat = text.replace("\n", "")  # the extraction breaks a line where the font changes
    assert flat.count("4年2組") == 3 and "Ken" in text and "さとう" in text
    codes = re.findall(r"\b([A-Z0-9]{4})-([A-Z0-9]{4})\b", text)
    assert len(set(codes)) == 3
    for first, second in codes:  # the alphabet without look-alikes (no 0 O 1 I L 2 Z 5 S 8 B)
        assert not set(first + second) & set("0O1IL2Z5S8B")
        assert f"/signin#{first}{second}" in text  # the address its QR code opens
    with app.app_context():
        stored = [p.signin_hash for p in db.session.scalars(select(ClassPupil))]
        assert all(h and len(h) == 64 for h in stored)
        assert not any(f"{a}{b}" in h or f"{a}-{b}" in h for h in stored for a, b in codes)
    page = teacher.get(f"/teacher/classes/{class_id}").get_data(as_text=True)
    assert "3 of 3 pupils have a card" in page and 'id="print-new-cards"' not in page
    again = teacher.post(f"/teacher/classes/{class_id}/cards.pdf", data={"which": "new"})
    assert again.status_code == 303  # everybody has one: nothing printed, nothing changed
    with app.app_context():
        assert [p.signin_hash for p in db.session.scalars(select(ClassPupil))] == stored


def test_a_pupil_signs_in_on_any_device_with_the_code_as_typed(app, teacher):
    class_id = make_class(teacher)
    codes = print_cards(teacher, class_id)
    typed = codes["Ken"].lower().replace("-", " ")  # lower case, a space for the dash
    tablet = app.test_client()
    tablet.set_cookie("suji_lang", "en")
    response = tablet.post("/signin", data={"code": typed})
    assert response.status_code == 303 and response.headers["Location"].endswith("/my/")
    home = tablet.get("/my/").get_data(as_text=True)
    assert "Hello, Ken!" in home and "4-2" in home
    full_width = codes["Mia"].translate(str.maketrans("ABCDEFGHJKMNPQRTUVWXY34679-", "ＡＢＣＤＥＦＧＨＪＫＭＮＰＱＲＴＵＶＷＸＹ３４６７９ー"))
    assert "Hello, Mia!" in pupil_client(app, full_width).get("/my/").get_data(as_text=True)
    with app.app_context():
        ken = db.session.scalar(select(ClassPupil).where(ClassPupil.name == "Ken"))
        assert ken.last_active_at is not None and ken.profile_id is not None
    # Signing out takes the pupil off the device, and nothing of theirs opens there any more.
    tablet.post("/signout")
    assert tablet.get("/my/").status_code == 303


def test_the_sign_in_page_signs_in_from_the_qr_codes_address_and_returns_to_next(app, teacher):
    class_id = make_class(teacher)
    codes = print_cards(teacher, class_id)
    device = app.test_client()
    device.set_cookie("suji_lang", "en")
    page = device.get("/signin?next=/join/KMQTXA").get_data(as_text=True)
    assert 'id="code-input"' in page and "pupil.js" in page
    response = device.post("/signin", data={"code": codes["Hana"], "next": "/join/KMQTXA"})
    assert response.headers["Location"].endswith("/join/KMQTXA")
    evil = device.post("/signin", data={"code": codes["Hana"], "next": "//evil.example/"})
    assert evil.headers["Location"].endswith("/my/")


def test_wrong_codes_are_refused_and_rate_limited_in_the_database(app, teacher, monkeypatch):
    class_id = make_class(teacher)
    codes = print_cards(teacher, class_id)
    device = app.test_client()
    device.set_cookie("suji_lang", "en")
    assert "letters and digits" in device.post("/signin", data={"code": "KM47"}).get_data(as_text=True)
    monkeypatch.setattr(signin, "LIMIT", 3)
    for _ in range(3):
        wrong = device.post("/signin", data={"code": "KMKM-KMKM"})
        assert wrong.status_code == 400 and "No pupil has this code" in wrong.get_data(as_text=True)
    refused = device.post("/signin", data={"code": codes["Hana"]})  # even the right code waits now
    assert refused.status_code == 429 and "Wait ten minutes" in refused.get_data(as_text=True)
    from suji.web.accounts.models import AuthFailure

    with app.app_context():  # counted in the database, so every server process sees them
        assert db.session.scalar(select(func.count()).where(AuthFailure.scope == "pupil")) == 3


def test_a_new_card_signs_the_old_devices_out(app, teacher):
    class_id = make_class(teacher)
    codes = print_cards(teacher, class_id)
    old_device = pupil_client(app, codes["Mia"])
    assert old_device.get("/my/").status_code == 200
    mia = pupil_ids(app, class_id)["Mia"]
    response = teacher.post(f"/teacher/classes/{class_id}/pupils/{mia}/card.pdf")
    from teacher_support import card_codes

    new_code = card_codes(response.data)["Mia"]
    assert new_code != codes["Mia"]
    assert old_device.get("/my/").status_code == 303  # signed out: the card it used is no longer hers
    assert app.test_client().post("/signin", data={"code": codes["Mia"]}).status_code == 400
    assert pupil_client(app, new_code).get("/my/").status_code == 200
    asked = teacher.post(f"/teacher/classes/{class_id}/cards.pdf", data={"which": "all"})  # one press: asked first
    assert asked.status_code == 200 and asked.mimetype == "text/html"
    assert "New cards for everyone?" in asked.get_data(as_text=True) and 'name="sure" value="yes"' in asked.get_data(
        as_text=True
    )
    still = pupil_client(app, new_code)
    assert still.get("/my/").status_code == 200  # nothing changed: every card still works
    others = print_cards(teacher, class_id, which="all")
    assert set(others) == {"Hana", "Ken", "Mia"} and others["Mia"] != new_code
    assert still.get("/my/").status_code == 303


def test_a_pupils_practice_is_their_profile_in_the_class_on_every_device(app, teacher):
    class_id = make_class(teacher)
    codes = print_cards(teacher, class_id)
    first, second = pupil_client(app, codes["Hana"]), pupil_client(app, codes["Hana"])
    problem = first.get("/api/practice/next").get_json()["problem"]
    from test_web_practice import witness

    assert first.post("/api/practice/answer", json={"id": problem["id"], "formula": witness(problem)}).status_code == 200
    assert second.get("/api/practice/progress").get_json()["learner"]["answered"] == 1  # the same practice
    with app.app_context():
        hana = db.session.scalar(select(ClassPupil).where(ClassPupil.name == "Hana"))
        assert db.session.get(PracticeProfile, hana.profile_id).answered == 1
    me = second.get("/practice/me").get_data(as_text=True)
    assert "belongs to your class 4-2" in me and 'id="make-code"' not in me and 'id="delete"' not in me
    second.post("/practice/delete")  # refused: the teacher deletes a class's pupil's practice
    second.post("/practice/code")
    with app.app_context():
        profile = db.session.get(PracticeProfile, hana.profile_id)
        assert profile is not None and profile.signin_hash is None
    # Practice's own retention (a year unused) leaves it to the class's.
    from datetime import timedelta

    from suji.web.models import utcnow
    from suji.web.practice import store

    with app.app_context():
        store.purge_expired(utcnow() + timedelta(days=800))
        assert db.session.get(PracticeProfile, hana.profile_id) is not None


def test_deleting_a_pupil_deletes_their_records_and_practice_and_the_export_holds_them(app, teacher):
    class_id = make_class(teacher)
    codes = print_cards(teacher, class_id)
    ken = pupil_client(app, codes["Ken"])
    problem = ken.get("/api/practice/next").get_json()["problem"]
    ken.post("/api/practice/answer", json={"id": problem["id"], "give_up": True})
    teacher.post(f"/teacher/classes/{class_id}/homework/new", data={
        "title": "Sheet", "kind": "fixed", "count": "2", "level": "1", "due_at": "2026-12-31T17:00"})  # fmt: skip
    from test_class_homework import homework_ids, solve

    hw = homework_ids(ken)[0]
    solve(app, ken, hw, 0)
    data = teacher.get(f"/teacher/classes/{class_id}/export.json").get_json()
    ken_id = pupil_ids(app, class_id)["Ken"]
    assert [w["pupil"] for w in data["work"]] == [ken_id] and data["work"][0]["answers"][0]["solved"]
    assert data["practice"][ken_id]["answers"][0]["gave_up"] is True
    assert data["sign_in_cards"][ken_id]["made_at"] and "code" not in str(data["sign_in_cards"])
    with app.app_context():
        profile_id = db.session.scalar(select(ClassPupil.profile_id).where(ClassPupil.public_id == ken_id))
    teacher.post(f"/teacher/classes/{class_id}/pupils/{ken_id}/delete")
    from suji.web.classes.models import AssignmentAnswer, AssignmentAttempt, AssignmentWork

    with app.app_context():
        for table in (AssignmentWork, AssignmentAnswer, AssignmentAttempt, PracticeAnswer):
            assert db.session.scalar(select(func.count()).select_from(table)) == 0, table
        assert db.session.get(PracticeProfile, profile_id) is None
    gone = ken.get("/my/")
    assert gone.status_code == 303  # the card no longer signs anyone in, and the sign-in page says why
    assert "no longer in the class" in ken.get(gone.headers["Location"]).get_data(as_text=True)
    assert "no longer" not in app.test_client().get("/my/", follow_redirects=True).get_data(as_text=True)
    teacher.post(f"/teacher/classes/{class_id}/delete")
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(PracticeProfile)) == 0


def test_one_pupils_export_holds_all_of_theirs_and_nothing_of_the_others(app, teacher):
    # A parent's request: everything kept about one pupil, as the class's export has it, and no other pupil.
    class_id = make_class(teacher)
    codes = print_cards(teacher, class_id)
    ids = pupil_ids(app, class_id)
    for name in ("Ken", "Hana"):
        device = pupil_client(app, codes[name])
        problem = device.get("/api/practice/next").get_json()["problem"]
        device.post("/api/practice/answer", json={"id": problem["id"], "give_up": True})
    page = teacher.get(f"/teacher/classes/{class_id}/pupils/{ids['Ken']}/edit").get_data(as_text=True)
    link = f"/teacher/classes/{class_id}/pupils/{ids['Ken']}/export.json"
    assert f'href="{link}"' in page
    response = teacher.get(link)
    assert response.status_code == 200 and "attachment" in response.headers["Content-Disposition"]
    mine = response.get_json()
    whole = teacher.get(f"/teacher/classes/{class_id}/export.json").get_json()
    assert [p["id"] for p in mine["pupils"]] == [ids["Ken"]] and list(mine["practice"]) == [ids["Ken"]]
    assert list(mine["sign_in_cards"]) == [ids["Ken"]]
    for part in (mine["practice"][ids["Ken"]], whole["practice"][ids["Ken"]]):
        part.pop("exported_at")
    assert mine["practice"][ids["Ken"]] == whole["practice"][ids["Ken"]]
    assert mine["practice"][ids["Ken"]]["answers"][0]["gave_up"] is True
    assert "Hana" not in response.get_data(as_text=True) and ids["Hana"] not in response.get_data(as_text=True)
    assert app.test_client().get(link).status_code != 200  # a teacher's page
    other_class = make_class(teacher, "4-9", "1 Mio")
    assert teacher.get(f"/teacher/classes/{other_class}/pupils/{ids['Ken']}/export.json").status_code == 404


def test_a_pupil_sees_only_their_own_class_and_work(app, teacher):
    class_a = make_class(teacher, "4-1", "1 Hana")
    class_b = make_class(teacher, "4-2", "1 Ken")
    for class_id in (class_a, class_b):
        teacher.post(f"/teacher/classes/{class_id}/homework/new", data={
            "title": f"Sheet of {class_id}", "kind": "fixed", "count": "2", "level": "1", "due_at": "2026-12-31T17:00"})  # fmt: skip
    hana = pupil_client(app, print_cards(teacher, class_a)["Hana"])
    ken = pupil_client(app, print_cards(teacher, class_b)["Ken"])
    from test_class_homework import homework_ids

    ken_hw = homework_ids(ken)[0]
    assert ken_hw not in homework_ids(hana)
    assert hana.get(f"/my/homework/{ken_hw}").status_code == 404
    assert hana.post(f"/my/homework/{ken_hw}/answer", data={"problem": "0", "attempt": "0", "formula": "1+2"}).status_code == 404
    assert hana.post(f"/api/my/homework/{ken_hw}/hint", json={"roll": 0, "step": 0}).status_code == 404
    assert hana.get(f"/teacher/classes/{class_b}").status_code == 303  # a pupil is no teacher: the login page
    stranger = app.test_client()
    assert stranger.get(f"/my/homework/{ken_hw}").status_code == 303
    assert stranger.post(f"/api/my/homework/{ken_hw}/hint", json={"roll": 0}).status_code == 401

"""Who may see what (issue 24, part 7): every route of the URL map, requested with the ids of another teacher's
class, its pupils, homework, live lessons and reports, by another teacher, by a pupil of another class and by a
visitor, answers 403 or 404 (or sends to a sign-in page), and no response ever holds that class's data.

The style of test_robustness.py's URL-map fuzz: every rule of the map, and for each one Hypothesis draws who
asks, which of class A's ids fill the path's arguments, and a query string or body that also carries A's ids
(`for`, `code`, `homework`, `pupil`…). Class A is planted once for the module with recognisable names (its
pupils, its own name, its homework titles) and real work: answers to a fixed set, adaptive homework (practice
answers), a live lesson joined and answered, the daily puzzle on its board. After every request, no response
body holds any planted name, and nothing stored about class A has changed (the same rows, counted). A
refusal is 401, 403, 404 or 405, or a redirect to a page to sign in (the teachers' login, a pupil's card, or
the join form of a live lesson).

One documented exception: the join code of a live lesson is shown to the room (projected, on the QR code), so
typing it names the lesson's class (“This live lesson is for …: sign in with your card first”, issue 24's
live lessons); the class's name, never a pupil's, may appear in answers to requests that carry that code. And
the QR code's page (/join/<code>) is the join form for any code, the same whether a class has it or not (a 404
would tell which codes exist): it answers 200 and, as everywhere, says nothing of class A.
"""

from __future__ import annotations

import os
import re
import shutil
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select
from teacher_support import make_class, print_cards, pupil_client, sign_up
from test_class_homework import problems, send, set_homework
from test_class_reports import answer_items, local

from suji.web.classes.models import (
    Assignment,
    AssignmentAnswer,
    AssignmentAttempt,
    AssignmentWork,
    ClassDailyEntry,
    ClassPupil,
    SchoolClass,
)
from suji.web.classroom_models import ClassAnswer, ClassAttempt, ClassSession, ClassStudent
from suji.web.extensions import db
from suji.web.practice.models import PracticeAnswer, PracticeProfile

# Class A's names: nowhere else in the app, so finding one in a response is finding class A's data.
CLASS_NAME = "Nebula組"
PUPILS = ("Quokkahana", "ひみつのけん", "Zephyrmia")
TITLES = ("Secretsheet", "Hiddenpractice")
PLANTED = (CLASS_NAME, *PUPILS, *TITLES)
CHEAP_PASSWORDS = {"TEACHER_PASSWORD_COST": "test"}  # as conftest's app: a cheap argon2id in tests
REFUSED = {401, 403, 404, 405}
SIGN_IN = ("/teacher/login", "/signin", "/join")  # where a refused browser may be sent instead
SAME_FOR_ANY_CODE = {"classroom.join_code"}  # the join form, whatever the code (the module's docstring)
FIELDS = ("for", "school_class", "code", "homework", "homework_id", "pupil", "pupil_id", "class_id", "item", "problem",
          "session_id", "id", "next", "which", "name")  # fmt: skip


def _rules():
    from suji.web import create_app

    app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "x"})
    return [r for r in app.url_map.iter_rules() if r.endpoint != "static"]


RULES = _rules()


@pytest.fixture(scope="module")
def world(tmp_path_factory, migrated_database, template_code):
    """One app with class A (teacher A, three pupils and their work) and the three who ask: teacher B (with a
    class of her own), a pupil of class B, and a visitor."""
    from suji.web import create_app

    instance = tmp_path_factory.mktemp("privacy") / "instance"
    instance.mkdir(parents=True)
    shutil.copyfile(migrated_database, instance / migrated_database.name)
    before = os.environ.get("SUJI_INSTANCE_PATH")
    os.environ["SUJI_INSTANCE_PATH"] = str(instance)
    try:
        app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "test", **CHEAP_PASSWORDS})
    finally:
        if before is None:
            os.environ.pop("SUJI_INSTANCE_PATH", None)
        else:
            os.environ["SUJI_INSTANCE_PATH"] = before
    app.extensions["suji_schema_ready"] = True
    app.jinja_env.bytecode_cache = template_code
    return plant(app)


def plant(app) -> dict:
    """Class A with real work of every kind, and class B beside it."""
    now = datetime.now(UTC).replace(tzinfo=None)
    teacher_a = app.test_client()
    sign_up(teacher_a, "a@school.example")
    class_a = make_class(teacher_a, CLASS_NAME, "\n".join(f"{i} {n}" for i, n in enumerate(PUPILS, 1)),
                         leaderboard="shown")  # fmt: skip
    set_homework(teacher_a, class_a, title=TITLES[0], count="2", due_at=local(now + timedelta(days=1)))
    set_homework(teacher_a, class_a, title=TITLES[1], kind="adaptive", amount="3", due_at=local(now + timedelta(days=9)))
    codes = print_cards(teacher_a, class_a)
    hana = pupil_client(app, codes[PUPILS[0]])
    ken = pupil_client(app, codes[PUPILS[1]])
    page = hana.get("/my/").get_data(as_text=True)
    homework = dict(re.findall(r'data-homework="([^"]+)">\s*<a[^>]*>\s*<span class="homework-title">(\w+)<', page))
    homework = {title: hw for hw, title in homework.items()}
    fixed, adaptive = homework[TITLES[0]], homework[TITLES[1]]
    send(hana, fixed, 0, problems(app, fixed)[0]["best_formula"])
    send(ken, fixed, 0, "7×8")
    answer_items(ken, adaptive, 2)
    assert ken.get("/practice/").status_code == 200
    # the live lesson: made for class A, joined by Hana with her card, one answer
    form = {"count": "2", "level": "1", "seed": "privacy", "hints": "yes", "school_class": class_a}
    made = teacher_a.post("/class/new", data=form)
    session = made.location.rsplit("/", 1)[1]
    join_code = re.search(r'id="join-code"[^>]*>(\w+)<', teacher_a.get(made.location).get_data(as_text=True)).group(1)
    assert hana.post("/join", data={"code": join_code, "nickname": "x"}).status_code == 303
    teacher_a.post(f"/class/{session}/start")
    hana.post(f"/class/s/{join_code}/answer", data={"problem": "0", "attempt": "0", "formula": "1+1"})
    # the daily puzzle on class A's board (shown with names)
    with app.app_context():
        from suji.web.games.common import today

        day = today().isoformat()
    hana.post("/games/daily/giveup", data={"day": day, "step": "0", "sure": "give-up"})
    hana.get("/games/daily")
    # the other class, its teacher and one of its pupils
    teacher_b = app.test_client()
    sign_up(teacher_b, "b@school.example")
    class_b = make_class(teacher_b, "4-3", "1 Sora\n2 Ren", leaderboard="shown")
    set_homework(teacher_b, class_b, title="Bsheet", count="1", due_at=local(now + timedelta(days=3)))
    pupil_b = pupil_client(app, print_cards(teacher_b, class_b)["Sora"])
    pupil_b.post("/games/daily/giveup", data={"day": day, "step": "0", "sure": "give-up"})
    visitor = app.test_client()
    visitor.set_cookie("suji_lang", "en")
    with app.app_context():
        cls = db.session.scalar(select(SchoolClass).where(SchoolClass.public_id == class_a))
        pupils = db.session.scalars(select(ClassPupil).where(ClassPupil.class_id == cls.id)).all()
        lessons = db.session.scalars(select(Assignment).where(Assignment.class_id == cls.id)).all()
        live = db.session.scalar(select(ClassSession).where(ClassSession.school_class_id == cls.id))
        profiles = [p.profile_id for p in pupils if p.profile_id is not None]
        answers = db.session.scalars(select(PracticeAnswer.id).where(PracticeAnswer.profile_id.in_(profiles))).all()
        daily = db.session.scalars(select(ClassDailyEntry.entry_id).where(ClassDailyEntry.class_id == cls.id)).all()
        assert len(lessons) == 3 and live is not None and answers and daily  # every kind of work is there
        ids = {
            "class": [class_a], "pupil": [p.public_id for p in pupils], "homework": [a.public_id for a in lessons],
            "session": [live.public_id, str(live.id)], "code": [join_code],
            "profile": [db.session.get(PracticeProfile, i).public_id for i in profiles],
            "ints": [*answers, *daily, live.id],
        }  # fmt: skip
    who = {"teacher B": teacher_b, "pupil B": pupil_b, "visitor": visitor}
    world = {"app": app, "ids": ids, "cookies": {name: cookies_of(c) for name, c in who.items()},
             "class_a_id": cls.id, "teacher_a": teacher_a}  # fmt: skip
    world["before"] = snapshot(world)
    assert all(name in teacher_a.get(f"/teacher/classes/{class_a}").get_data(as_text=True) for name in PUPILS)
    return world


def cookies_of(client) -> list[tuple[str, str, str, str]]:
    return [(c.key, c.value, c.domain, c.path) for c in client._cookies.values()]


def signed_in(world, who: str):
    """A new browser of `who`, signed in as at the start (a request may sign the last one out: /teacher/logout)."""
    client = world["app"].test_client()
    for key, value, domain, path in world["cookies"][who]:
        client.set_cookie(key, value, domain=domain, path=path)
    return client


def snapshot(world) -> dict:
    """Everything stored about class A, counted: any change by another's request shows here."""
    app, class_id = world["app"], world["class_a_id"]
    with app.app_context():
        pupils = select(ClassPupil.id).where(ClassPupil.class_id == class_id).scalar_subquery()
        assignments = select(Assignment.id).where(Assignment.class_id == class_id).scalar_subquery()
        sessions = select(ClassSession.id).where(ClassSession.school_class_id == class_id).scalar_subquery()
        profiles = select(ClassPupil.profile_id).where(ClassPupil.class_id == class_id).scalar_subquery()

        def count(*where) -> int:
            return db.session.scalar(select(func.count()).where(*where))

        cls = db.session.get(SchoolClass, class_id)
        found = {
            "class": (cls.name, cls.version, cls.leaderboard),
            "pupils": sorted((p.name, p.number, p.version, p.signin_hash) for p in
                             db.session.scalars(select(ClassPupil).where(ClassPupil.class_id == class_id))),
            "assignments": count(Assignment.class_id == class_id),
            "work": count(AssignmentWork.assignment_id.in_(assignments)),
            "work by others": count(AssignmentWork.assignment_id.in_(assignments), AssignmentWork.pupil_id.not_in(pupils)),
            "answers": count(AssignmentAnswer.assignment_id.in_(assignments)),
            "attempts": count(AssignmentAttempt.assignment_id.in_(assignments)),
            "sessions": count(ClassSession.school_class_id == class_id),
            "students": count(ClassStudent.session_id.in_(sessions)),
            "session answers": count(ClassAnswer.session_id.in_(sessions)),
            "session attempts": count(ClassAttempt.session_id.in_(sessions)),
            "practice": count(PracticeAnswer.profile_id.in_(profiles)),
            "daily": count(ClassDailyEntry.class_id == class_id),
        }  # fmt: skip
        db.session.remove()
    return found


def _value(data, converter, name: str, pool: dict) -> tuple[object, bool]:
    """A value for one path argument, and whether it is one of class A's ids."""
    kinds = {"class_id": "class", "pupil_id": "pupil", "homework_id": "homework", "session_id": "session", "code": "code"}
    if type(converter).__name__ == "IntegerConverter":
        return data.draw(st.sampled_from(pool["ints"])), name in ("answer_id",)
    if name in kinds:
        return data.draw(st.sampled_from(pool[kinds[name]])), True
    every = [v for key in ("class", "pupil", "homework", "session", "code", "profile") for v in pool[key]]
    return data.draw(st.sampled_from([*every, "x"])), False


def text_of(response) -> str:
    """What a response says: its text, or a PDF's extracted text (a card names its pupil)."""
    if response.mimetype == "application/pdf":
        import io

        import pypdf

        return "".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(response.data)).pages)
    return response.data.decode("utf-8", "replace")


def _refused(response) -> bool:
    if response.status_code in REFUSED:
        return True
    if response.status_code in (302, 303):
        return urlsplit(response.headers.get("Location", "")).path.startswith(SIGN_IN)
    return False


@pytest.mark.slow  # every route × 12 generated requests, three who ask (about 40 s): the full run
@pytest.mark.parametrize("rule", RULES, ids=lambda r: f"{sorted(r.methods - {'HEAD', 'OPTIONS'})}{r.rule}")
@settings(max_examples=12, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_no_route_shows_or_changes_another_classs_data(world, rule, data):
    pool = world["ids"]
    who = data.draw(st.sampled_from(sorted(world["cookies"])))
    client = signed_in(world, who)
    values, names_a = {}, False
    for name, converter in rule._converters.items():
        values[name], is_a = _value(data, converter, name, pool)
        names_a = names_a or is_a
    path = rule.build(values, append_unknown=False)[1]
    every = [v for key in ("class", "pupil", "homework", "session", "code", "profile") for v in pool[key]]
    fields = data.draw(st.dictionaries(st.sampled_from(FIELDS), st.sampled_from([*every, "1", ""]), max_size=4))
    for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
        if method == "GET":
            response = client.get(path, query_string=fields)
        elif data.draw(st.booleans()):
            response = client.open(path, method=method, json=fields)
        else:
            response = client.open(path, method=method, data=fields)
        assert response.status_code < 500, (who, method, path, response.status_code)
        body = text_of(response)
        carries_code = pool["code"][0] in path or pool["code"][0] in fields.values()
        planted = [n for n in PLANTED if not (n == CLASS_NAME and carries_code)]
        leaked = [n for n in planted if n in body]
        assert not leaked, (who, method, path, fields, leaked)
        if names_a and rule.endpoint not in SAME_FOR_ANY_CODE:
            assert _refused(response), (who, method, path, fields, response.status_code, response.headers.get("Location"))
    assert snapshot(world) == world["before"], (who, path, fields)


@pytest.mark.parametrize("who", ["teacher B", "pupil B", "visitor"])
def test_every_page_of_class_a_is_refused_and_says_nothing(world, who):
    """The quick tier's share: every GET route with class A's ids in it, once each, for each who asks."""
    pool = world["ids"]
    client = signed_in(world, who)
    if who == "teacher B":  # really signed in: her own class is there
        assert "4-3" in client.get("/teacher/").get_data(as_text=True)
    if who == "pupil B":
        assert "Sora" in client.get("/my/").get_data(as_text=True)
    paths = []
    for rule in RULES:
        if "GET" not in rule.methods or not set(rule.arguments) & {"class_id", "pupil_id", "homework_id", "session_id"}:
            continue
        values = {"class_id": pool["class"][0], "pupil_id": pool["pupil"][1], "homework_id": pool["homework"][0],
                  "session_id": pool["session"][0]}  # fmt: skip
        for homework in pool["homework"] if "homework_id" in rule.arguments else [None]:
            if homework is not None:
                values["homework_id"] = homework
            paths.append(rule.build({k: v for k, v in values.items() if k in rule.arguments}, append_unknown=False)[1])
    assert len(paths) > 20 and any("/report" in p for p in paths)
    for path in paths:
        response = client.get(path)
        assert _refused(response), (who, path, response.status_code)
        assert not [n for n in PLANTED if n in text_of(response)], (who, path)
    for path in ("/my/", "/games/daily", "/teacher/", "/practice/me", "/practice/progress", "/class/"):
        assert not [n for n in PLANTED if n in text_of(client.get(path, follow_redirects=True))], (who, path)
    for answer in pool["ints"]:
        assert client.get(f"/practice/result/{answer}").status_code in REFUSED | {302, 303}
    assert snapshot(world) == world["before"]

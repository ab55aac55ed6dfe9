"""Hostile input on the routes of a class's pupils and homework, signed in (the URL-map fuzz of test_robustness.py
comes as a stranger): a signed-in pupil and their teacher send generated forms, JSON bodies and ids to every
route of the pupils' pages, the cards and the homework; nothing answers 500, and nothing a pupil sends changes
another pupil's work."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select
from teacher_support import make_class, print_cards, pupil_client, sign_up
from test_class_homework import homework_ids, set_homework
from tiers import examples

from suji.web.classes.models import AssignmentAnswer, AssignmentWork, ClassPupil
from suji.web.extensions import db

FIELDS = st.sampled_from(["problem", "attempt", "formula", "item", "code", "next", "which", "roll", "step",
                          "title", "kind", "count", "level", "seed", "version", "time_limit", "amount",
                          "amount_kind", "opens_at", "due_at", "first_attempt_only", "hints", "x"])  # fmt: skip
VALUES = st.one_of(st.text(max_size=30), st.integers(-(2**40), 2**70).map(str),
                   st.sampled_from(["0", "1", "2", "-1", "", "yes", "no", "fixed", "adaptive", "new",
                                    "2026-13-40T25:61", "１２３", "KM47-TQXA"]))  # fmt: skip
JSON = st.recursive(st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=10)  # fmt: skip


@pytest.fixture
def school(app, client):
    sign_up(client)
    class_id = make_class(client)
    set_homework(client, class_id, count="2")
    set_homework(client, class_id, title="Adaptive", kind="adaptive", amount="3")
    codes = print_cards(client, class_id)
    hana, ken = pupil_client(app, codes["Hana"]), pupil_client(app, codes["Ken"])
    return client, class_id, hana, ken, homework_ids(hana)


@settings(max_examples=examples(60), suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_no_pupil_or_homework_route_answers_500(app, school, data):
    teacher, class_id, hana, ken, ids = school
    hw = data.draw(st.sampled_from([*ids, "nope", "x" * 30, "%00"]))
    pupil_routes = [("GET", f"/my/homework/{hw}"), ("POST", f"/my/homework/{hw}/answer"),
                    ("POST", f"/my/homework/{hw}/skip"), ("POST", f"/my/homework/{hw}/start"),
                    ("POST", f"/my/homework/{hw}/item"), ("POST", f"/my/homework/{hw}/give-up"),
                    ("POST", f"/api/my/homework/{hw}/hint"), ("GET", "/my/"), ("POST", "/signin"), ("GET", "/signin")]  # fmt: skip
    teacher_routes = [("GET", f"/teacher/classes/{class_id}/homework/{hw}"), ("POST", f"/teacher/classes/{class_id}/homework/new"),
                      ("POST", f"/teacher/classes/{class_id}/cards.pdf"), ("GET", f"/teacher/classes/{class_id}/homework/{hw}/delete")]  # fmt: skip
    who, (method, path) = data.draw(st.sampled_from([(hana, r) for r in pupil_routes] + [(teacher, r) for r in teacher_routes]))
    if method == "GET":
        response = who.get(path, query_string=data.draw(st.dictionaries(FIELDS, VALUES, max_size=3)))
    elif data.draw(st.booleans()):
        response = who.open(path, method=method, json=data.draw(st.dictionaries(FIELDS, JSON, max_size=4) | JSON))
    else:
        response = who.open(path, method=method, data=data.draw(st.dictionaries(FIELDS, VALUES, max_size=5)))
    assert response.status_code < 500, (method, path, response.status_code)
    with app.app_context():  # whatever Hana sent, Ken's work is untouched
        ken_id = db.session.scalar(select(ClassPupil.id).where(ClassPupil.name == "Ken"))
        ken_work = select(AssignmentWork.id).where(AssignmentWork.pupil_id == ken_id).scalar_subquery()
        assert db.session.scalar(select(func.count()).where(AssignmentAnswer.work_id.in_(ken_work))) == 0

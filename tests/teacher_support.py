"""What the tests of teacher accounts and classes share: signing up and logging in through the real forms."""

from __future__ import annotations

PASSWORD = "correct horse battery"


def sign_up(client, email: str = "sato@school.example", password: str = PASSWORD, lang: str = "en"):
    """A new teacher account, signed in on `client` (a test client with CSRF off)."""
    client.set_cookie("suji_lang", lang)
    response = client.post(
        "/teacher/signup", data={"email": email, "password": password, "password_again": password}
    )
    assert response.status_code == 303, response.get_data(as_text=True)
    return response


def log_in(client, email: str = "sato@school.example", password: str = PASSWORD):
    return client.post("/teacher/login", data={"email": email, "password": password})


def make_class(client, name: str = "4-2", roster: str = "1 Hana\n2 Ken\n3 Mia", **fields) -> str:
    """A class of the signed-in teacher with these pupils; its public id."""
    response = client.post("/teacher/classes/new", data={"name": name, "school_year": "2026", **fields})
    assert response.status_code == 303, response.get_data(as_text=True)
    class_id = response.headers["Location"].rsplit("/", 1)[1]
    if roster:
        added = client.post(f"/teacher/classes/{class_id}/pupils", data={"roster": roster})
        assert added.status_code == 303, added.get_data(as_text=True)
    return class_id


def pupil_ids(app, class_id: str) -> dict[str, str]:
    """The class's pupils' public ids by name."""
    from sqlalchemy import select

    from suji.web.classes.models import ClassPupil, SchoolClass
    from suji.web.extensions import db

    with app.app_context():
        cls = db.session.scalar(select(SchoolClass).where(SchoolClass.public_id == class_id))
        return {
            p.name: p.public_id
            for p in db.session.scalars(select(ClassPupil).where(ClassPupil.class_id == cls.id))
        }

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


def card_codes(pdf: bytes) -> dict[str, str]:
    """The sign-in codes a PDF of class cards prints, by the pupil's name (spaces dropped) as printed (pupils
    with a class number: the name is what stands between "No. N" and the code's label)."""
    import io
    import re

    import pypdf

    # The extraction breaks a line wherever the font changes (a digit beside a kanji): read it as one line.
    text = "".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(pdf)).pages).replace("\n", "")
    found = re.findall(r"(?:No\. \d+|\d+番)(.*?)(?:Sign-in code|ログインコード)([A-Z0-9]{4}-[A-Z0-9]{4})", text)
    return {"".join(name.split()): code for name, code in found}


def print_cards(client, class_id: str, which: str = "new") -> dict[str, str]:
    """Print the class's sign-in cards as the teacher (`client`); the codes by pupil name (spaces dropped)."""
    data = {"which": which, "sure": "yes"} if which == "all" else {"which": which}  # yes to the page that asks
    response = client.post(f"/teacher/classes/{class_id}/cards.pdf", data=data)
    assert response.status_code == 200 and response.mimetype == "application/pdf", response.status_code
    return card_codes(response.data)


def pupil_client(app, code: str, lang: str = "en"):
    """A new device (test client) signed in with a card's code."""
    device = app.test_client()
    device.set_cookie("suji_lang", lang)
    response = device.post("/signin", data={"code": code})
    assert response.status_code == 303, response.get_data(as_text=True)
    return device


def misses(problem, count: int, with_face: str | None = None) -> list[str]:
    """`count` formulas that the problem's dice make and that miss every target (each a try that counts: a
    formula the checker refuses is no try), with the `with_face` die as their only operator when given. `problem`: a ClassProblem or
    its dict."""
    from suji.rules.exact import as_rational
    from suji.rules.language.evaluate import evaluate
    from suji.rules.language.printing import format_faces
    from suji.solver.listing import all_formulas

    if isinstance(problem, dict):
        from suji.play.classroom import ClassProblem

        problem = ClassProblem.from_dict(problem)
    roll = problem.roll
    found = []
    for faces in all_formulas(roll, frozenset({with_face}) if with_face is not None else None):
        value = as_rational(evaluate(faces))
        if value is None or (value.denominator == 1 and int(value) in roll.targets):
            continue
        if with_face is None or with_face in faces:
            found.append(faces)
    found.sort(key=len)  # the shortest first: 2×4 rather than 21×43, which joins digits as well
    if len(found) < count:
        raise AssertionError(f"the roll {roll} has fewer than {count} such misses")
    return [format_faces(faces) for faces in found[:count]]

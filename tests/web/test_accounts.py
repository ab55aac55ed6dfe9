"""Teacher accounts (issue 24, part 1): sign up, log in and out, change and reset the password, the login limits
kept in the database, CSRF on every form, and the private class links of before still working."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from teacher_support import PASSWORD, log_in, sign_up

from suji.web.accounts import limits, passwords
from suji.web.accounts.models import AuthFailure, Teacher
from suji.web.accounts.rules import AccountError, check_new_password, clean_email
from suji.web.extensions import db
from suji.web.models import utcnow

# ---- the rules ----


@pytest.mark.parametrize(
    "typed, stored",
    [("Sato@School.Example", "sato@school.example"), ("  ｓａｔｏ＠ｓｃｈｏｏｌ．ｊｐ ", "sato@school.jp"),
     ("a.b+c@d.e.example", "a.b+c@d.e.example")],
)  # fmt: skip
def test_an_email_is_kept_in_one_form(typed, stored):
    assert clean_email(typed) == stored


@pytest.mark.parametrize(
    "typed", ["", "sato", "sato@", "@school.example", "sato@school", "sa to@school.example", "a@b@c.example",
              "sato@.example", "sato@school..example", "sato@school.example.", "x" * 250 + "@a.example",
              "sato\u200b@school.example", None],
)  # fmt: skip
def test_what_is_not_an_email_is_refused(typed):
    with pytest.raises(AccountError) as error:
        clean_email(typed)
    assert error.value.code == "email" and error.value.field == "email"


def test_a_new_password_must_be_long_the_same_twice_and_not_the_login_name():
    assert check_new_password(PASSWORD, PASSWORD) == PASSWORD
    cases = [("short", "short", "password_short"), ("x" * 201, "x" * 201, "password_long"),
             (PASSWORD, PASSWORD + "!", "password_mismatch"),
             ("sato@school.example", "sato@school.example", "password_email")]  # fmt: skip
    for first, again, code in cases:
        with pytest.raises(AccountError) as error:
            check_new_password(first, again, "sato@school.example")
        assert error.value.code == code
    assert "10" in AccountError("password_short", low=10).message("ja")


def test_passwords_are_argon2id_hashes_with_a_salt_each():
    first, second = passwords.hash_password(PASSWORD, "test"), passwords.hash_password(PASSWORD, "test")
    assert first.startswith("$argon2id$") and first != second and PASSWORD not in first
    assert passwords.verify(first, PASSWORD, "test") and not passwords.verify(first, PASSWORD + "x", "test")
    assert not passwords.verify("not a hash", PASSWORD, "test")
    # A hash made with other parameters still verifies, and is to be made again with today's.
    assert passwords.verify(first, PASSWORD) and passwords.needs_rehash(first)
    assert not passwords.needs_rehash(first, "test")


# ---- the pages ----


def test_sign_up_log_out_and_log_in_again(app, client):
    sign_up(client)
    page = client.get("/teacher/account")
    assert page.status_code == 200 and "sato@school.example" in page.get_data(as_text=True)
    with app.app_context():
        teacher = db.session.query(Teacher).one()
        assert teacher.email == "sato@school.example" and teacher.password_hash.startswith("$argon2id$")
        assert PASSWORD not in teacher.password_hash
    assert client.post("/teacher/logout").status_code == 303
    assert client.get("/teacher/account").headers["Location"].startswith("/teacher/login")
    response = log_in(client, "SATO@school.example")
    assert response.status_code == 303
    assert client.get("/teacher/account").status_code == 200


def test_the_login_goes_back_to_the_page_asked_for_and_never_to_another_host(client):
    sign_up(client)
    client.post("/teacher/logout")
    asked = client.get("/teacher/password")
    assert asked.status_code == 303 and "next=/teacher/password" in asked.headers["Location"]
    response = client.post("/teacher/login?next=/teacher/password", data={"email": "sato@school.example",
                                                                          "password": PASSWORD})  # fmt: skip
    assert response.headers["Location"] == "/teacher/password"
    client.post("/teacher/logout")
    response = client.post("/teacher/login", data={"email": "sato@school.example", "password": PASSWORD,
                                                  "next": "//evil.example/"})  # fmt: skip
    assert "evil" not in response.headers["Location"]


@pytest.mark.parametrize("lang, words", [("en", "wrong"), ("ja", "ちがいます")])
def test_a_wrong_password_says_so_in_the_readers_language_and_keeps_the_email(client, lang, words):
    sign_up(client, lang=lang)
    client.post("/teacher/logout")
    response = log_in(client, password="not the password")
    html = response.get_data(as_text=True)
    assert response.status_code == 400 and words in html and 'value="sato@school.example"' in html
    assert "not the password" not in html
    # An address with no account gets the same words (the page says nothing about who has an account).
    other = log_in(client, "nobody@school.example")
    assert other.status_code == 400 and words in other.get_data(as_text=True)


def test_a_taken_email_and_bad_forms_are_refused_with_messages(client):
    sign_up(client)
    client.post("/teacher/logout")
    taken = client.post("/teacher/signup", data={"email": "Sato@School.example", "password": PASSWORD,
                                                "password_again": PASSWORD})  # fmt: skip
    assert taken.status_code == 400 and "already an account" in taken.get_data(as_text=True)
    for data in ({}, {"email": "x", "password": "p"}, {"email": ["a", "b"]}, {"password": "x" * 10_000}):
        response = client.post("/teacher/signup", data=data)
        assert response.status_code == 400 and 'id="form-error"' in response.get_data(as_text=True)
        assert log_in(client, data.get("email", ""), "x" * 5000).status_code == 400


def test_changing_the_password_logs_out_every_other_browser(app):
    here, there = app.test_client(), app.test_client()
    sign_up(here)
    log_in(there)
    assert there.get("/teacher/account").status_code == 200
    wrong = here.post("/teacher/password", data={"current": "nope", "password": "a new long password",
                                                "password_again": "a new long password"})  # fmt: skip
    assert wrong.status_code == 400 and "current password is wrong" in wrong.get_data(as_text=True)
    done = here.post("/teacher/password", data={"current": PASSWORD, "password": "a new long password",
                                               "password_again": "a new long password"})  # fmt: skip
    assert done.status_code == 303
    assert here.get("/teacher/account").status_code == 200  # this browser stays in
    assert there.get("/teacher/account").status_code == 303  # the other one is out
    assert log_in(there).status_code == 400
    assert log_in(there, password="a new long password").status_code == 303


# ---- the limits ----


def test_wrong_passwords_are_limited_per_account_in_the_database(app, client):
    sign_up(client)
    client.post("/teacher/logout")
    for _ in range(limits.ACCOUNT_LIMIT):
        assert log_in(client, password="wrong password").status_code == 400
    refused = log_in(client)  # even the right password waits now
    assert refused.status_code == 429 and "15 minutes" in refused.get_data(as_text=True)
    # Another app on the same database (another server process) refuses too: the count is in the database.
    from suji.web import create_app

    other = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "test",
                        "TEACHER_PASSWORD_COST": "test",
                        "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"]})  # fmt: skip
    other.extensions["suji_schema_ready"] = True
    assert log_in(other.test_client()).status_code == 429
    with app.app_context():  # once the window has passed, the right password works again
        db.session.query(AuthFailure).update({AuthFailure.created_at: utcnow() - timedelta(minutes=16)})
        db.session.commit()
    assert log_in(client).status_code == 303


def test_wrong_logins_are_limited_per_address_whatever_the_account(app, client):
    with app.app_context():
        now = utcnow()
        for i in range(limits.ADDRESS_LIMIT):
            limits.count_failure(f"teacher{i}@school.example", "127.0.0.1", now)
        assert limits.refused("someone@school.example", "127.0.0.1") == "too_many_address"
        assert limits.refused("someone@school.example", "10.0.0.9") is None
        # Only hashes are stored: no address, no login name.
        keys = {f.key for f in db.session.query(AuthFailure)}
        expected = {limits.key_of(limits.ADDRESS, "127.0.0.1")}
        expected |= {
            limits.key_of(limits.ACCOUNT, f"teacher{i}@school.example") for i in range(limits.ADDRESS_LIMIT)
        }
        assert keys == expected and all(len(k) == 64 for k in keys)
    client.set_cookie("suji_lang", "en")
    response = log_in(client, "someone@school.example")
    assert response.status_code == 429 and "network" in response.get_data(as_text=True)


def test_new_accounts_are_limited_per_address(app, client):
    with app.app_context():
        for _ in range(limits.SIGNUP_LIMIT):
            limits.count_signup("127.0.0.1")
        db.session.commit()
    response = client.post("/teacher/signup", data={"email": "new@school.example", "password": PASSWORD,
                                                    "password_again": PASSWORD})  # fmt: skip
    assert response.status_code == 429


# ---- CSRF, and the class sessions of before ----


def test_every_account_form_needs_its_csrf_token(csrf_app):
    client = csrf_app.test_client()
    client.set_cookie("suji_lang", "en")
    data = {"email": "sato@school.example", "password": PASSWORD, "password_again": PASSWORD}
    for path in ("/teacher/signup", "/teacher/login", "/teacher/logout", "/teacher/password"):
        assert client.post(path, data=data).status_code == 400, path
    html = client.get("/teacher/signup").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
    assert client.post("/teacher/signup", data={**data, "csrf_token": token}).status_code == 303
    page = client.get("/teacher/account").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    assert client.post("/teacher/logout", data={"csrf_token": token}).status_code == 303


def test_a_private_link_of_before_keeps_working_and_joins_the_account_that_opens_it(app):
    made = app.test_client()
    made.set_cookie("suji_lang", "en")
    response = made.post("/class/new", data={"count": "1", "level": "1", "seed": "7"})
    session_id = response.headers["Location"].rsplit("/", 1)[1]
    link = re.search(r"/class/teach/[\w-]+", made.get(f"/class/{session_id}").get_data(as_text=True)).group(0)
    teacher = app.test_client()
    sign_up(teacher)
    assert teacher.get(f"/class/{session_id}").status_code == 403  # not the teacher's yet
    assert teacher.get(link).status_code == 303  # the link works as before…
    assert made.get(f"/class/{session_id}").status_code == 200  # …and for the browser that made it
    laptop = app.test_client()  # …and the account now opens the dashboard anywhere it logs in
    log_in(laptop)
    assert laptop.get(f"/class/{session_id}").status_code == 200
    assert f"/class/{session_id}" in laptop.get("/teacher/account").get_data(as_text=True)
    assert app.test_client().get(f"/class/{session_id}").status_code == 403


def test_a_class_session_made_while_logged_in_belongs_to_the_account(app, client):
    sign_up(client)
    response = client.post("/class/new", data={"count": "1", "level": "1"})
    session_id = response.headers["Location"].rsplit("/", 1)[1]
    laptop = app.test_client()
    log_in(laptop)
    assert laptop.get(f"/class/{session_id}").status_code == 200
    assert f"/class/{session_id}" in laptop.get("/class/new").get_data(as_text=True)  # listed for the account
    other = app.test_client()
    sign_up(other, "suzuki@school.example")
    assert other.get(f"/class/{session_id}").status_code == 403
    assert other.get(f"/api/class/{session_id}/results").status_code == 403


# ---- the operator's commands ----


@pytest.fixture
def suji_teacher(tmp_path, monkeypatch, capsys):
    """`suji teacher ARGS` in this process (as the console script runs it): (exit status, stdout, stderr)."""
    import io
    import sys

    from suji.cli import main

    monkeypatch.setenv("SUJI_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.setenv("SUJI_LANG", "en")

    def run(*args: str, stdin: str = "") -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        status = main(["teacher", *args])
        out, err = capsys.readouterr()
        return status, out, err

    return run


def test_the_operator_makes_lists_resets_and_deletes_accounts(tmp_path, suji_teacher):
    status, out, err = suji_teacher(
        "create", "Sato@School.example", "--password-stdin", stdin=PASSWORD + "\n"
    )
    assert status == 0 and "sato@school.example" in out, err
    status, out, _ = suji_teacher("list")
    assert status == 0 and out.startswith("sato@school.example\t")
    status, _, err = suji_teacher(
        "reset-password", "sato@school.example", "--password-stdin", stdin="short\n"
    )
    assert status == 1 and "at least 10" in err
    status, _, err = suji_teacher(
        "reset-password", "nobody@school.example", "--password-stdin", stdin=PASSWORD
    )
    assert status == 1 and "no account" in err
    status, _, err = suji_teacher("reset-password", "sato@school.example", "--password-stdin",
                                  stdin="a brand new one\n")  # fmt: skip
    assert status == 0, err
    from suji.web import create_app

    app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "test",
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'instance' / 'suji.sqlite3'}"})  # fmt: skip
    client = app.test_client()
    assert log_in(client, password=PASSWORD).status_code == 400
    assert log_in(client, password="a brand new one").status_code == 303
    status, _, err = suji_teacher("delete", "sato@school.example")
    assert status == 2 and "--yes" in err
    status, _, _ = suji_teacher("delete", "sato@school.example", "--yes")
    assert status == 0 and suji_teacher("list")[1].strip() == "No teacher accounts yet."
    assert suji_teacher("create")[0] == 2  # no login name: a bad command line

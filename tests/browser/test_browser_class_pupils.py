"""A class that lasts, in real browsers (Playwright, Debian's chromium): a teacher at 1280 px and pupils on phones
(360 px), each in a browser context of their own, across a server restart.

The teacher signs up, makes a class, adds the roster, prints the sign-in cards (the PDF downloaded and read) and
sets homework; one pupil signs in from the card's QR address, another types the code; they answer at their own
pace; the server stops and starts again on the same instance folder; the pupils carry on where they stopped
(the same cookies, the database the truth), the teacher sees who finished; then a live lesson for the class:
a pupil joins from their page, named from the roster. Pupil pages in Japanese have furigana, teacher pages
none. Screenshots go to tests/screenshots/ for a look.
"""

from __future__ import annotations

import json
import re

import pytest
from browser_support import require_chromium, served_app, shot
from teacher_support import card_codes

pytestmark = pytest.mark.browser

sync_api = require_chromium()

WAIT_MS = 20_000


def context_page(browser, width: int, height: int, locale: str, errors: list[str]):
    context = browser.new_context(viewport={"width": width, "height": height}, locale=locale, accept_downloads=True)
    page = context.new_page()
    page.on("console", lambda msg: errors.append(f"{msg.type}: {msg.text}") if msg.type == "error" else None)
    page.on("dialog", lambda dialog: dialog.accept())
    return page


def fits(page, width: int) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width, page.url


def homework_problems(app) -> list[dict]:
    from sqlalchemy import select

    from suji.web.classes.models import Assignment
    from suji.web.extensions import db

    with app.app_context():
        return json.loads(db.session.scalar(select(Assignment.problems_json).where(Assignment.kind == "fixed")))


def answer(page, formula: str, last: bool = False) -> None:
    """Type a formula that makes a target and answer; its result shows (the last one: the whole homework's)."""
    page.fill("#formula", formula)
    sync_api.expect(page.locator("#live-value")).to_contain_text("✓")
    page.click("#answer")
    sync_api.expect(page.locator("#finished" if last else "#result")).to_be_visible()


def test_a_teacher_and_pupils_across_two_contexts_and_a_server_restart(browser, tmp_path):
    expect = sync_api.expect
    errors: list[str] = []
    instance = tmp_path / "instance"
    teacher = context_page(browser, 1280, 900, "ja-JP", errors)
    hana = context_page(browser, 360, 760, "ja-JP", errors)
    ken = context_page(browser, 360, 760, "en-US", errors)

    with served_app(instance) as (app, url):
        teacher.goto(f"{url}/teacher/signup")
        teacher.fill("#email", "sato@school.example")
        teacher.fill("#password", "correct horse battery")
        teacher.fill("#password_again", "correct horse battery")
        teacher.click("#signup")
        teacher.goto(f"{url}/teacher/classes/new")
        teacher.fill("#name", "4年2組")
        teacher.click("#save-class")
        teacher.fill("#roster-text", "1 はな\n2 Ken\n3 みお")
        teacher.click("#add-pupils")
        expect(teacher.locator("#roster-table")).to_contain_text("Ken")
        assert teacher.locator("ruby").count() == 0  # a teacher's page: no furigana unless chosen
        with teacher.expect_download() as download:
            teacher.click("#print-new-cards")
        codes = card_codes(open(download.value.path(), "rb").read())
        assert set(codes) == {"はな", "Ken", "みお"}
        teacher.reload()
        expect(teacher.locator("#cards-count")).to_contain_text("3人中3人")
        teacher.click("#new-homework")
        teacher.fill("#title", "プリント1")
        teacher.fill("#count", "3")
        teacher.fill("#seed", "browser")
        shot(teacher, "pupils-homework-form-1280-ja")
        teacher.click("#set-homework")
        expect(teacher.locator("#homework-table")).to_contain_text("プリント1")
        shot(teacher, "pupils-class-page-1280-ja")
        problems = homework_problems(app)

        # Hana scans her card: /signin#CODE signs her in at once; her page lists the homework.
        hana.goto(f"{url}/signin#{codes['はな'].replace('-', '')}")
        expect(hana.locator("#homework-todo")).to_contain_text("プリント1")
        assert "#" not in hana.url and codes["はな"] not in hana.url
        assert hana.locator("ruby").count() > 0  # a pupil's page: furigana at 4年
        fits(hana, 360)
        shot(hana, "pupils-home-360-ja")
        hana.click("#homework-todo a")
        expect(hana.locator("#problem-title")).to_contain_text("1")
        fits(hana, 360)
        shot(hana, "pupils-homework-problem-360-ja")
        answer(hana, problems[0]["best_formula"])
        shot(hana, "pupils-homework-result-360-ja")

        # Ken types his code; he answers the second problem first, at his own pace.
        ken.goto(f"{url}/signin")
        ken.fill("#code-input", codes["Ken"].lower())
        ken.click("#signin-button")
        expect(ken.locator("h1")).to_contain_text("Hello, Ken!")
        ken.click("#homework-todo a")
        ken.click(".problem-picker a >> nth=1")
        expect(ken.locator("#problem-title")).to_contain_text("Problem 2 of 3")
        answer(ken, problems[1]["best_formula"])
        fits(ken, 360)
        shot(ken, "pupils-homework-result-360-en")
    # The server stops. It starts again on the same instance folder (another port, the same database and key).
    with served_app(instance) as (app, url):
        hana.goto(f"{url}/my/")
        expect(hana.locator("#homework-todo")).to_contain_text("プリント1")  # still signed in
        hana.click("#homework-todo a")
        expect(hana.locator("#problem-title")).to_contain_text("2")  # where she stopped: problem 2
        answer(hana, problems[1]["best_formula"])
        hana.click("#next")
        answer(hana, problems[2]["best_formula"], last=True)
        shot(hana, "pupils-homework-finished-360-ja")
        hana.goto(f"{url}/my/")
        expect(hana.locator("#homework-done")).to_contain_text("プリント1")
        hana.click("#homework-done a")
        total = sum(p["best_score"] for p in problems)
        expect(hana.locator("#final-total")).to_contain_text(str(total))
        expect(hana.locator("#class-figures")).to_contain_text("1")
        fits(hana, 360)
        shot(hana, "pupils-homework-done-360-ja")

        teacher.goto(f"{url}/teacher/")
        teacher.click("#classes a.class-link >> nth=0")
        teacher.click("#homework-table a")
        table = teacher.locator("#work-table")
        expect(table).to_contain_text("終了")  # Hana finished
        expect(table).to_contain_text("取り組み中")  # Ken is working on it
        shot(teacher, "pupils-homework-report-1280-ja")

        # A live lesson for the class: Hana joins from her page, named from the roster.
        teacher.goto(f"{url}/teacher/")
        teacher.click("#classes a.class-link >> nth=0")
        teacher.click("#start-live")
        teacher.fill("#count", "2")
        teacher.click("#create")
        expect(teacher.locator("#roster-note")).to_be_visible()
        hana.goto(f"{url}/my/")
        hana.click("#join-live")
        expect(hana.locator("#roster-join")).to_be_visible()
        shot(hana, "pupils-live-join-360-ja")
        hana.click("#join")
        expect(hana.locator("#wait")).to_be_visible()
        expect(teacher.locator("#grid")).to_contain_text("はな", timeout=WAIT_MS)
        shot(teacher, "pupils-live-dashboard-1280-ja")
    assert errors == []


def test_pupil_pages_in_english_and_the_card_less_sign_in(browser, tmp_path):
    """A wrong code is refused on the page; the sign-in page and the pupil's page fit a phone in English."""
    expect = sync_api.expect
    errors: list[str] = []
    with served_app(tmp_path / "instance") as (app, url):
        page = context_page(browser, 360, 760, "en-US", errors)
        page.goto(f"{url}/signin")
        page.fill("#code-input", "KMKM-KMKM")
        page.click("#signin-button")
        expect(page.locator("#code-error")).to_contain_text("No pupil has this code")
        fits(page, 360)
        shot(page, "pupils-signin-wrong-360-en")
        page.goto(f"{url}/my/")  # not signed in: the sign-in page, coming back afterwards
        assert re.search(r"/signin\?next=", page.url)
    assert [e for e in errors if "400" not in e] == []  # the refused code's 400 is the browser's only complaint

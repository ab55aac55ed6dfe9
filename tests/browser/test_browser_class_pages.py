"""Every page of a class's pupils and of the teacher's homework, in Japanese and in English (Playwright, Debian's
chromium): pupil pages at 360 px (nothing wider than the phone, furigana in Japanese), teacher pages at 1280 px
(no furigana unless chosen). The class, its cards and homework are made in the database first (the flows
themselves are test_browser_class_pupils.py's); the pages are opened as a pupil and a teacher would.
Screenshots go to tests/screenshots/ for a look.
"""

from __future__ import annotations

import pytest
from browser_support import require_chromium, served_app, shot

pytestmark = pytest.mark.browser

sync_api = require_chromium()

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def school(tmp_path_factory):
    """A served app with a teacher, a class (the leaderboard anonymous), cards, a fixed and an adaptive homework;
    yields (base URL, class id, homework ids, the pupils' codes)."""
    from suji.play.school.homework import ADAPTIVE, Homework
    from suji.play.school.roster import RosterLine, parse_class
    from suji.web.accounts import store as accounts
    from suji.web.classes import signin, store, work
    from suji.web.extensions import db
    from suji.web.models import ensure_schema, utcnow

    with served_app(tmp_path_factory.mktemp("instance")) as (app, url):
        with app.test_request_context(base_url=url):
            ensure_schema()
            teacher = accounts.sign_up("sato@school.example", PASSWORD, PASSWORD, "127.0.0.1")
            cls = store.create_class(teacher.id, parse_class({"name": "4年2組", "school_year": "2026",
                                                              "leaderboard": "anonymous"}, utcnow().date()))  # fmt: skip
            store.add_pupils(cls, [RosterLine("はな", 1), RosterLine("Ken", 2), RosterLine("みお", 3)])
            codes = {p.name: code.replace("-", "") for p, code in signin.make_cards(store.pupils_of(cls))}
            from datetime import timedelta

            due = utcnow() + timedelta(days=3)
            fixed = work.create_homework(cls, Homework("プリント2", count=3, level=2, seed="pages", due_at=due,
                                                       time_limit=20))  # fmt: skip
            adaptive = work.create_homework(cls, Homework("Practice 10", kind=ADAPTIVE, amount=10, due_at=due))
            ids = (cls.public_id, fixed.public_id, adaptive.public_id)
            db.session.remove()
        yield url, ids, codes


def new_page(browser, width: int, locale: str, errors: list[str]):
    context = browser.new_context(viewport={"width": width, "height": 800}, locale=locale)
    page = context.new_page()
    page.on("console", lambda msg: errors.append(f"{msg.type}: {msg.text}") if msg.type == "error" else None)
    page.on("dialog", lambda dialog: dialog.accept())
    return page


def look(page, name: str, width: int, ruby: bool | None = None) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width, page.url
    if ruby is not None:
        assert (page.locator("ruby").count() > 0) == ruby, page.url
    shot(page, name)


@pytest.mark.parametrize("locale", ["ja-JP", "en-US"])
def test_pupil_pages_on_a_phone(school, browser, locale):
    url, (class_id, fixed, adaptive), codes = school
    lang = locale[:2]
    errors: list[str] = []
    page = new_page(browser, 360, locale, errors)
    page.goto(f"{url}/signin")
    look(page, f"pupils-signin-360-{lang}", 360, ruby=lang == "ja" or None)
    page.goto(f"{url}/signin#{codes['Ken'] if lang == 'en' else codes['みお']}")
    sync_api.expect(page.locator("#homework-todo")).to_be_visible()
    look(page, f"pupils-home-todo-360-{lang}", 360, ruby=True if lang == "ja" else None)
    page.goto(f"{url}/my/homework/{fixed}")
    sync_api.expect(page.locator("#time-budget")).to_be_visible()
    look(page, f"pupils-homework-start-360-{lang}", 360)
    page.click("#start")
    sync_api.expect(page.locator("#time-left")).to_be_visible()
    page.click("#hint-button")
    sync_api.expect(page.locator("#hint-list li")).to_have_count(1)
    look(page, f"pupils-homework-timed-360-{lang}", 360)
    page.goto(f"{url}/my/homework/{adaptive}")
    sync_api.expect(page.locator("#amount-line")).to_be_visible()
    page.click("#give-up")
    page.click("#give-up-sure")  # asked in the page: yes
    sync_api.expect(page.locator("#messages")).to_be_visible()
    look(page, f"pupils-homework-adaptive-360-{lang}", 360)
    page.goto(f"{url}/games/daily")
    sync_api.expect(page.locator("#class-board")).to_be_visible()
    look(page, f"pupils-daily-class-board-360-{lang}", 360)
    page.goto(f"{url}/practice/me")
    sync_api.expect(page.locator("#class-practice")).to_be_visible()
    look(page, f"pupils-practice-me-360-{lang}", 360)
    page.goto(f"{url}/my/")
    page.click("#signout")
    sync_api.expect(page.locator("#signin-form")).to_be_visible()
    assert errors == []


@pytest.mark.parametrize("locale", ["ja-JP", "en-US"])
def test_teacher_pages_on_a_laptop(school, browser, locale):
    url, (class_id, fixed, adaptive), _ = school
    lang = locale[:2]
    errors: list[str] = []
    page = new_page(browser, 1280, locale, errors)
    page.goto(f"{url}/teacher/login")
    page.fill("#email", "sato@school.example")
    page.fill("#password", PASSWORD)
    page.click("#login")
    page.goto(f"{url}/teacher/classes/{class_id}")
    sync_api.expect(page.locator("#homework-table")).to_be_visible()
    look(page, f"pupils-teacher-class-1280-{lang}", 1280, ruby=False)
    page.goto(f"{url}/teacher/classes/{class_id}/homework/new")
    page.check("input[name=kind][value=adaptive]")
    sync_api.expect(page.locator("#fixed-fields")).to_be_hidden()
    look(page, f"pupils-teacher-homework-form-1280-{lang}", 1280, ruby=False)
    page.goto(f"{url}/teacher/classes/{class_id}/homework/{fixed}")
    sync_api.expect(page.locator("#work-table")).to_be_visible()
    look(page, f"pupils-teacher-homework-1280-{lang}", 1280, ruby=False)
    page.goto(f"{url}/teacher/classes/{class_id}/reports")
    sync_api.expect(page.locator("#skills-grid")).to_be_visible()
    page.wait_for_load_state("load")
    # Every skill's column in view on a laptop (the last ones were hidden behind a scroll at 1366 px).
    assert page.locator("#skills-grid").evaluate("t => t.scrollWidth <= t.parentElement.clientWidth")
    look(page, f"pupils-teacher-reports-1280-{lang}", 1280, ruby=False)
    page.click("#year-choice")  # the school year, a column a month
    sync_api.expect(page.locator("#year-choice")).to_have_attribute("aria-current", "page")
    assert page.locator("#skills-grid").evaluate("t => t.scrollWidth <= t.parentElement.clientWidth")
    look(page, f"pupils-teacher-reports-year-1280-{lang}", 1280, ruby=False)
    page.click("#skills-grid thead a >> nth=1")  # one skill, month by month
    sync_api.expect(page.locator("#skill-table")).to_be_visible()
    look(page, f"pupils-teacher-reports-year-skill-1280-{lang}", 1280, ruby=False)
    page.goto(f"{url}/teacher/classes/{class_id}")
    page.click("#next-year")  # next school year's class, with these pupils
    sync_api.expect(page.locator("#roster-of")).to_be_visible()
    look(page, f"pupils-teacher-next-year-1280-{lang}", 1280, ruby=False)
    page.goto(f"{url}/teacher/classes/{class_id}")
    page.click("#roster-table a >> nth=-1")
    sync_api.expect(page.locator("#new-card")).to_be_visible()
    look(page, f"pupils-teacher-pupil-1280-{lang}", 1280, ruby=False)
    page.goto(f"{url}/class/new?for={class_id}")
    sync_api.expect(page.locator("#school_class")).to_have_value(class_id)
    look(page, f"pupils-teacher-live-form-1280-{lang}", 1280, ruby=False)
    # A teacher on a phone: the year's grid scrolls in its own box, the page does not.
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{url}/teacher/classes/{class_id}/reports?weeks=year")
    sync_api.expect(page.locator("#skills-grid")).to_be_visible()
    look(page, f"pupils-teacher-reports-year-360-{lang}", 360, ruby=False)
    page.goto(f"{url}/teacher/classes/new?roster_of={class_id}")
    sync_api.expect(page.locator("#roster-of")).to_be_visible()
    look(page, f"pupils-teacher-next-year-360-{lang}", 360, ruby=False)
    assert errors == []

"""Every page state the accessibility checks visit (tests/browser/test_browser_a11y.py): one list, easy to extend.

Pages are found from the app's URL map. A GET route without arguments is visited as it is (by a visitor, and by
a signed-in teacher when it is a teacher's page). A route with arguments needs a way to reach it: `REACH` maps its
endpoint to the name of a `Tour` method that brings a browser to each of its states (a class before, during and
after the lesson; a lesson's experiments; a game in progress…), and `NOT_PAGES` names the GET routes that give no
HTML page (an image, a download, JSON), each with the reason. `test_every_page_is_visited` fails for a GET route
in none of these, so a new page is checked from the day it is added: give it a `Tour` method and a line in
`REACH` (or a line in `NOT_PAGES`).

A `Tour` walks the app in one language with three browser contexts (a visitor or pupil, a signed-in teacher and a
second pupil), all with CSP bypassed so that axe-core can be injected; each state it reaches is yielded as
(name, page, html): the page showing the state and the HTML the server sent for it. SUJI_A11Y_ONLY=a,b walks
only those Tour methods ("plain" for the argument-free pages): a quick look at the pages one is working on.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

# GET routes that are not HTML pages: what they give instead.
NOT_PAGES: dict[str, str] = {
    "static": "static files",
    "classroom.qr_code": "the join code's QR code (SVG image)",
    "classroom.results_csv": "the results as CSV",
    "classroom.state_json": "JSON for the pupils' pages",
    "classroom.results_json": "JSON for the dashboard",
    "lessons.chart": "a chart (SVG image)",
    "lessons.live_chunk": "JSON trials for the live run",
    "practice.card": "the sign-in card (PDF)",
    "practice.download": "a pupil's data (JSON)",
    "practice.api_next": "JSON API",
    "practice.api_progress": "JSON API",
    "classes.export": "a class's data (JSON)",
    "classes.export_pupil": "one pupil's data (JSON)",
    "classes.skills_csv": "the skills grid as CSV",
    "classes.alerts_csv": "the alerts as CSV",
    "classes.homework_csv": "a homework's report as CSV",
    "classes.pupil_report_csv": "a pupil's report as CSV",
    "worksheets.json": "a worksheet as JSON",
    "worksheets.pdf": "a worksheet (PDF)",
    "worksheets.dice_pdf": "the printable dice (PDF)",
    "games.advice": "JSON advice for the games page",
}

# Routes with arguments (and pages that need more than a visit): endpoint -> the Tour method reaching its states.
# Several endpoints may share one method (a class is one story, from the dashboard to the pupil's last page).
REACH: dict[str, str] = {
    "drill.play": "drills",
    "drill.result": "drills",
    "games.play": "games",
    "lessons.lesson": "lessons",
    "lessons.experiment": "experiments",
    "lessons.play": "lesson_games",
    "practice.result": "practice",
    "classroom.dashboard": "class_session",
    "classroom.teach": "class_session",
    "classroom.join_code": "class_session",
    "classroom.play": "class_session",
    "classroom.summary": "class_session",
    "classroom.delete_confirm": "class_session",
    "classes.show": "teacher_classes",
    "classes.settings": "teacher_classes",
    "classes.edit_pupil": "teacher_classes",
    "classes.delete_pupil_confirm": "teacher_classes",
    "classes.delete_confirm": "teacher_classes",
    "classes.new_homework": "class_year",
    "classes.homework_page": "class_year",
    "classes.delete_homework_confirm": "class_year",
    "classes.reports_page": "class_year",
    "classes.pupil_report": "class_year",
    "pupils.homework": "class_year",
}

# Argument-free pages that belong to a signed-in teacher (a visitor is sent to the sign-in page).
TEACHER_PREFIXES = ("/teacher/", "/class/")
# Argument-free pages a signed-in teacher never sees as such (they send the teacher on).
VISITOR_ONLY = ("/teacher/login", "/teacher/signup")

TEACHER_EMAIL = "a11y@school.example"
ONLY = tuple(name for name in os.environ.get("SUJI_A11Y_ONLY", "").split(",") if name)  # empty: everything
WAIT_MS = 20_000  # a bounded wait for what a page's own polling brings (class pages look every 3 s)
TEACHER_PASSWORD = "correct horse battery"


@dataclass(frozen=True)
class Visit:
    """A page state: its name, the page showing it, and the HTML the server sent for it."""

    name: str
    page: object
    html: str


def plain_routes(app) -> list[str]:  # noqa: ANN001 - a Flask app
    """The argument-free GET routes of the app, in URL order."""
    rules = [
        r.rule
        for r in app.url_map.iter_rules()
        if "GET" in r.methods and not r.arguments and r.endpoint not in NOT_PAGES
    ]
    return sorted(set(rules))


def unvisited_endpoints(app) -> list[str]:  # noqa: ANN001
    """GET endpoints with arguments that neither REACH nor NOT_PAGES names (each must be one or the other)."""
    return sorted(
        r.endpoint
        for r in app.url_map.iter_rules()
        if "GET" in r.methods and r.arguments and r.endpoint not in REACH and r.endpoint not in NOT_PAGES
    )


@dataclass
class Tour:
    """The app walked in one language; `visits()` yields every page state (see the module's docstring)."""

    browser: object
    base: str
    lang: str
    app: object
    contexts: dict[str, object] = field(default_factory=dict)
    pages: dict[str, object] = field(default_factory=dict)
    last_document: dict[str, object] = field(default_factory=dict)
    seen: set[str] = field(default_factory=set)

    # ---- browser plumbing ---------------------------------------------------------------------------------

    def page(self, role: str):  # noqa: ANN201 - a Playwright page
        """The page of `role` ("visitor", "teacher", "pupil"), its context made on first use."""
        if role not in self.pages:
            context = self.browser.new_context(  # type: ignore[attr-defined]
                viewport={"width": 1280, "height": 800},
                locale="ja-JP" if self.lang == "ja" else "en-US",
                bypass_csp=True,  # axe-core is injected as a script; the app's CSP allows none
            )
            context.add_cookies([{"name": "suji_lang", "value": self.lang, "url": self.base}])
            page = context.new_page()
            page.on("dialog", lambda dialog: dialog.accept())  # the teacher's "end the class?" (a pupil's skip asks in the page)
            page.on("response", lambda response, role=role: self._keep_document(role, response))
            self.contexts[role], self.pages[role] = context, page
            if role == "teacher":
                self._sign_up(page)
        return self.pages[role]

    def _keep_document(self, role: str, response) -> None:  # noqa: ANN001
        # The body is read later (in visit): a handler must not wait for the browser.
        request = response.request
        if request.resource_type == "document" and request.frame.parent_frame is None and not 300 <= response.status < 400:
            self.last_document[role] = response

    def close(self) -> None:
        for context in self.contexts.values():
            context.close()  # type: ignore[attr-defined]

    def goto(self, role: str, path: str):  # noqa: ANN201
        page = self.page(role)
        page.goto(self.base + path)
        return page

    def visit(self, name: str, role: str) -> Visit:
        page = self.pages[role]
        page.wait_for_load_state("load")
        document = self.last_document[role]
        assert document.url == page.url.split("#")[0], (name, document.url, page.url)  # type: ignore[attr-defined]
        return Visit(name, page, document.text())  # type: ignore[attr-defined]

    @staticmethod
    def submit(page, selector: str, then: str | None = None) -> None:  # noqa: ANN001
        """Press a button that sends its form and wait for the page it leads to (and for `then`, a selector).

        The class pages poll and reload themselves when the phase changes: such a reload may overtake the
        navigation (ERR_ABORTED), so the wait is for the page that ends up loaded, and `then` says which."""
        from playwright.sync_api import Error

        try:
            with page.expect_navigation(wait_until="load"):
                page.click(selector)
        except Error:
            page.wait_for_load_state("load")
        if then:
            page.locator(then).wait_for(timeout=WAIT_MS)
            page.wait_for_load_state("load")

    def _sign_up(self, page) -> None:  # noqa: ANN001
        page.goto(f"{self.base}/teacher/signup")
        page.fill("#email", f"{self.lang}-{TEACHER_EMAIL}")
        page.fill("#password", TEACHER_PASSWORD)
        page.fill("#password_again", TEACHER_PASSWORD)
        self.submit(page, "#signup")

    # ---- the walk -----------------------------------------------------------------------------------------

    def visits(self) -> Iterator[Visit]:
        """Every page state: the plain pages, then each REACH method once, in the order REACH names them."""
        for path in plain_routes(self.app) if not ONLY or "plain" in ONLY else []:
            roles = ["visitor"]
            if path.startswith(TEACHER_PREFIXES) and path not in VISITOR_ONLY:
                roles = ["teacher"]
            for role in roles:
                page = self.goto(role, path)
                final = re.sub(r"^https?://[^/]+", "", page.url)
                if final in self.seen:
                    continue  # sent on to a page already checked
                self.seen.add(final)
                yield self.visit(f"{path} ({role})", role)
        for method in dict.fromkeys(REACH.values()):
            if not ONLY or method in ONLY:
                yield from getattr(self, method)()

    def drills(self) -> Iterator[Visit]:
        for level in (1, 2, 3):
            self.goto("visitor", f"/drill/{level}")
            yield self.visit(f"/drill/{level}", "visitor")
        page = self.goto("visitor", "/drill/1")
        page.fill("#formula", page.locator("button.die-number").first.inner_text().strip()[:1])
        self.submit(page, "#check")
        yield self.visit("/drill/1/result (a miss)", "visitor")

    def games(self) -> Iterator[Visit]:
        page = self.goto("visitor", "/games/")
        self.submit(page, "#start-solo")
        yield self.visit("solo game", "visitor")
        # A give-up sent before the page's script had loaded comes back with the question on the page.
        page = self.goto("visitor", re.sub(r"^https?://[^/]+", "", page.url) + "?give_up=ask")
        yield self.visit("solo game, giving up asked on the page", "visitor")
        self.submit(page, "#give-up-sure")
        yield self.visit("solo game, after giving up", "visitor")
        page = self.goto("visitor", "/games/party")
        page.fill("#name-1", "Aki")
        page.fill("#name-2", "Ben")
        self.submit(page, "#start-party")
        yield self.visit("pass-and-play game", "visitor")

    def lessons(self) -> Iterator[Visit]:
        from suji.lessons import LESSON_SLUGS

        for slug in LESSON_SLUGS:
            self.goto("visitor", f"/lessons/{slug}")
            yield self.visit(f"/lessons/{slug}", "visitor")

    def experiments(self) -> Iterator[Visit]:
        """Each experiment with its live panel after one trial (the panel is only there with JavaScript)."""
        from suji.lessons import lessons

        for slug, lesson in lessons().items():
            for experiment in lesson.experiments:
                page = self.goto("visitor", f"/lessons/{slug}/experiment/{experiment.key}")
                step = page.locator("#live-step")
                if step.count() and step.is_visible():
                    step.click()
                    page.wait_for_function("() => document.querySelector('#live-status').textContent.trim() !== ''")
                yield self.visit(f"/lessons/{slug}/experiment/{experiment.key}", "visitor")

    def lesson_games(self) -> Iterator[Visit]:
        from suji.lessons import lessons

        for slug, lesson in lessons().items():
            if lesson.replay is not None:
                self.goto("visitor", f"/lessons/{slug}/play")
                yield self.visit(f"/lessons/{slug}/play", "visitor")

    def practice(self) -> Iterator[Visit]:
        page = self.goto("visitor", "/practice/")
        page.click("#give-up")
        page.locator("#confirm-give-up").wait_for(timeout=WAIT_MS)
        yield self.visit("practice, giving up asked in the page", "visitor")
        self.submit(page, "#give-up-sure")
        yield self.visit("practice result (given up)", "visitor")
        for path in ("/practice/progress", "/practice/me"):  # now with a history
            self.goto("visitor", path)
            yield self.visit(f"{path} (with answers)", "visitor")

    def class_session(self) -> Iterator[Visit]:
        """One class from the teacher's first look at the dashboard to the pupil's last page."""
        teacher = self.goto("teacher", "/class/new")
        teacher.fill("#count", "2")
        teacher.select_option("#level", "1")
        teacher.fill("#seed", "a11y")
        teacher.fill("#time_limit", "20")
        self.submit(teacher, "#create", then="#join-code")
        dashboard = teacher.url.split("#")[0]
        yield self.visit("class dashboard, just made", "teacher")
        code = teacher.locator("#join-code").inner_text().strip()
        private = teacher.locator("#private-url")
        private_link = private.text_content().strip() if private.count() else ""  # in a closed disclosure

        pupil = self.goto("pupil", f"/join/{code}")
        yield self.visit("/join/<code>", "pupil")
        pupil.fill("#nickname", "Mio" if self.lang == "en" else "みお")
        self.submit(pupil, "#join", then="#wait")
        yield self.visit("class: a pupil waits", "pupil")

        if private_link:
            teacher.goto(private_link)
            yield self.visit("class dashboard by its private link", "teacher")
        teacher.goto(dashboard)
        self.submit(teacher, "#start", then='#dashboard[data-phase="running"]')
        yield self.visit("class dashboard, running", "teacher")

        pupil.locator("#problem-title").wait_for(timeout=WAIT_MS)  # the page's poll notices the start
        yield self.visit("class: a problem", "pupil")
        pupil.fill("#formula", pupil.locator("button.die-number").first.inner_text().strip()[:1])
        self.submit(pupil, "#answer", then="#problem-title")
        yield self.visit("class: a miss", "pupil")
        pupil.click("#skip")
        pupil.locator("#confirm-skip").wait_for(timeout=WAIT_MS)
        yield self.visit("class: skipping asked in the page", "pupil")
        self.submit(pupil, "#skip-sure", then="#result")
        yield self.visit("class: a skipped problem", "pupil")

        teacher.goto(dashboard)
        yield self.visit("class dashboard with answers", "teacher")
        self.submit(teacher, "#end", then='#dashboard[data-phase="ended"]')
        yield self.visit("class dashboard, ended", "teacher")
        teacher.goto(dashboard + "/summary")
        yield self.visit("class summary", "teacher")
        teacher.goto(dashboard + "/delete")
        yield self.visit("class session: delete?", "teacher")
        pupil.locator("#finished").wait_for(timeout=WAIT_MS)  # the page's poll notices the end
        yield self.visit("class: the pupil's last page", "pupil")

    def teacher_classes(self) -> Iterator[Visit]:
        """A teacher's class with its roster: the class page, its settings, a pupil, and the two deletions."""
        teacher = self.goto("teacher", "/teacher/classes/new")
        teacher.fill("#name", "4-2")
        self.submit(teacher, "#save-class")
        teacher.fill("#roster-text", "1 Hana\n2 Ken\n3 さとう みお")
        self.submit(teacher, "#add-pupils")
        show = teacher.url.split("#")[0]
        edit = teacher.locator("a[href*='/pupils/'][href$='/edit']").first.get_attribute("href")
        yield self.visit("a teacher's class", "teacher")
        teacher.goto(show + "/settings")
        yield self.visit("a teacher's class: settings", "teacher")
        teacher.goto(self.base + edit)
        yield self.visit("a teacher's class: a pupil", "teacher")
        teacher.goto(self.base + edit.removesuffix("/edit") + "/delete")
        yield self.visit("a teacher's class: delete a pupil?", "teacher")
        teacher.goto(show + "/delete")
        yield self.visit("a teacher's class: delete?", "teacher")

    def class_year(self) -> Iterator[Visit]:
        """A class over the year: homework set (a problem set, adaptive practice, a timed set, one not open yet),
        pupils signed in with their cards doing it, then the teacher's reports: each homework's, the skills
        grid and one skill's weeks, a pupil's printed page, the alerts on the class page."""
        from datetime import UTC, datetime, timedelta

        teacher = self.goto("teacher", "/teacher/classes/new")
        teacher.fill("#name", "5-1")
        self.submit(teacher, "#save-class")
        teacher.fill("#roster-text", "1 Hana\n2 Ken\n3 さとう みお")
        self.submit(teacher, "#add-pupils")
        show = teacher.url.split("#")[0]
        teacher.goto(show + "/homework/new")
        yield self.visit("homework: the form", "teacher")
        soon = (datetime.now(UTC) + timedelta(hours=9, days=1)).strftime("%Y-%m-%dT%H:%M")  # Japan's time
        later = (datetime.now(UTC) + timedelta(hours=9, days=10)).strftime("%Y-%m-%dT%H:%M")
        sets = [{"title": "Sheet 3", "count": "2", "due_at": soon}, {"title": "Timed", "count": "1", "time_limit": "10"},
                {"title": "Next week", "count": "1", "opens_at": soon, "due_at": later}]  # fmt: skip
        for fields in sets:
            teacher.goto(show + "/homework/new")
            for name, value in fields.items():
                teacher.fill(f"#{name}", value)
            self.submit(teacher, "#set-homework")
        teacher.goto(show + "/homework/new")
        teacher.fill("#title", "Practice")
        teacher.check("input[name=kind][value=adaptive]")
        teacher.fill("#amount", "3")
        self.submit(teacher, "#set-homework")
        homework = {teacher.locator(f"tr[data-homework]:has-text('{title}')").get_attribute("data-homework"): title
                    for title in ("Sheet 3", "Timed", "Next week", "Practice")}  # fmt: skip
        ids = {title: hw for hw, title in homework.items()}

        pupil = self.goto("pupil", "/signin")
        pupil.fill("#code-input", self._card_code(show.rsplit("/", 1)[1], "Ken"))
        self.submit(pupil, "#signin-button")
        yield self.visit("a pupil's page with homework", "pupil")
        pupil.goto(f"{self.base}/my/homework/{ids['Sheet 3']}")
        yield self.visit("homework: a problem", "pupil")
        pupil.fill("#formula", "7×8")
        self.submit(pupil, "#answer", then="#problem-title")
        yield self.visit("homework: a miss", "pupil")
        pupil.click("#skip")
        self.submit(pupil, "#skip-sure", then="#result")
        yield self.visit("homework: a problem skipped", "pupil")
        pupil.click("#next")
        pupil.locator("#skip").wait_for(timeout=WAIT_MS)
        pupil.click("#skip")
        self.submit(pupil, "#skip-sure", then="#finished")
        yield self.visit("homework: done", "pupil")
        pupil.goto(f"{self.base}/my/homework/{ids['Timed']}")
        yield self.visit("homework: a timed set's start", "pupil")
        pupil.goto(f"{self.base}/my/homework/{ids['Next week']}")
        yield self.visit("homework: not open yet", "pupil")
        pupil.goto(f"{self.base}/my/homework/{ids['Practice']}")
        yield self.visit("homework: adaptive practice", "pupil")
        pupil.click("#give-up")
        self.submit(pupil, "#give-up-sure", then="#formula")
        yield self.visit("homework: adaptive practice after an answer", "pupil")

        for title in ("Sheet 3", "Practice"):
            teacher.goto(f"{show}/homework/{ids[title]}")
            yield self.visit(f"homework's report: {title}", "teacher")
        teacher.goto(show + "/reports")
        yield self.visit("reports: skills over the weeks", "teacher")
        teacher.goto(show + "/reports?skill=times&weeks=8")
        yield self.visit("reports: one skill's weeks", "teacher")
        teacher.goto(show + "/reports?weeks=year")
        yield self.visit("reports: the school year by month", "teacher")
        teacher.goto(show + "/reports?skill=times&weeks=year")
        yield self.visit("reports: one skill's months", "teacher")
        teacher.goto(show)
        yield self.visit("a class with alerts", "teacher")
        report = teacher.locator("#roster-table a[href$='/report']").nth(1).get_attribute("href")
        teacher.goto(self.base + report)
        yield self.visit("a pupil's printed report", "teacher")
        teacher.goto(f"{show}/homework/{ids['Timed']}/delete")
        yield self.visit("homework: delete?", "teacher")

    def _card_code(self, class_id: str, name: str) -> str:
        """A new sign-in card's code for a pupil of the class (as printing the cards makes one)."""
        from sqlalchemy import select

        from suji.web.classes.models import ClassPupil, SchoolClass
        from suji.web.classes.signin import make_cards
        from suji.web.extensions import db

        with self.app.app_context():  # type: ignore[attr-defined]
            cls = db.session.scalar(select(SchoolClass).where(SchoolClass.public_id == class_id))
            pupil = db.session.scalar(select(ClassPupil).where(ClassPupil.class_id == cls.id, ClassPupil.name == name))
            code = dict(make_cards([pupil]))[pupil]
            db.session.remove()
        return code

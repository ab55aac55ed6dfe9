"""The class dashboard on a projector (issue 26, items 5 and 15), in a real browser at 1280×800 in both languages.

A teacher makes a class: the private link stays closed (the dashboard is on the board), Start is on the first
screen; a pupil joins, misses with a value and skips; once the class runs, the code and QR code shrink and the
results grid is on the first screen, with a key to its signs and, under "The value is not a target", what the
pupil made instead. The CSV's "solved" column holds two values only. Screenshots go to tests/screenshots/.
"""

from __future__ import annotations

import csv
import io
import re

import pytest
from browser_support import require_chromium, served_app, shot

pytestmark = pytest.mark.browser

sync_api = require_chromium()

from suji.play import classroom as core  # noqa: E402

WAIT_MS = 20_000  # a bounded wait for what a page's own polling brings
SETTINGS = core.ClassSettings(count=3, level=1, seed="dashboard")
WORDS = {
    "en": {"made": "made ", "nearest": "nearest target", "solved": {"solved", "not solved", ""}},
    "ja": {"made": "になった", "nearest": "いちばん近いお題の数", "solved": {"○", "×", ""}},
}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with served_app(tmp_path_factory.mktemp("instance")) as (_, url):
        yield url


def new_page(browser, url: str, lang: str, width: int, height: int):
    context = browser.new_context(viewport={"width": width, "height": height}, locale=f"{lang}-JP" if lang == "ja" else "en-US")
    context.add_cookies([{"name": "suji_lang", "value": lang, "url": url}])
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    return page


def submit(page, selector: str, then: str) -> None:
    try:
        with page.expect_navigation(wait_until="load"):
            page.click(selector)
    except sync_api.Error:  # the page's own reload (a new phase) overtook the navigation
        pass
    page.locator(then).wait_for(timeout=WAIT_MS)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_dashboard_on_a_projector(server, browser, lang):
    expect = sync_api.expect
    teacher = new_page(browser, server, lang, 1280, 800)
    teacher.goto(f"{server}/class/new")
    teacher.fill("#count", str(SETTINGS.count))
    teacher.select_option("#level", "1")
    teacher.fill("#seed", SETTINGS.seed)
    teacher.fill("#time_limit", "20")
    submit(teacher, "#create", "#join-code")

    # Item 5: the private link is there for the teacher, closed; its URL is not on the projected screen.
    expect(teacher.locator("#private-link")).to_be_visible()
    assert not teacher.locator("#private-url").is_visible()
    assert teacher.locator("#private-link").evaluate("d => d.open") is False
    # Start and the code on the first screen of a 1280×800 laptop or projector.
    start = teacher.locator("#start").bounding_box()
    assert start and start["y"] + start["height"] <= 800, start
    code_box = teacher.locator("#join-code").bounding_box()
    assert code_box and code_box["height"] >= 90 and code_box["y"] + code_box["height"] <= 800
    shot(teacher, f"class-dashboard-waiting-1280-{lang}")
    # Opened by the teacher on their own screen, it shows the link to bookmark.
    teacher.locator("#private-link summary").click()
    expect(teacher.locator("#private-url")).to_be_visible()
    assert "/class/teach/" in teacher.locator("#private-url").inner_text()

    code = teacher.locator("#join-code").inner_text().strip()
    pupil = new_page(browser, server, lang, 360, 740)
    pupil.goto(f"{server}/join/{code}")
    pupil.fill("#nickname", "Mio")
    submit(pupil, "#join", "#wait")
    submit(teacher, "#start", '#dashboard[data-phase="running"]')
    pupil.locator("#problem-title").wait_for(timeout=WAIT_MS)
    # a value that is no target (one number die), then a skip
    pupil.fill("#formula", pupil.locator("button.die-number").first.inner_text().strip()[:1])
    submit(pupil, "#answer", "#problem-title")
    pupil.click("#skip")  # asked in the page: "Yes, skip it"
    submit(pupil, "#skip-sure", "#result")

    teacher.reload()
    # Running: the code and the QR code shrink, and the grid is on the first screen, its first pupil in view.
    code_box = teacher.locator("#join-code").bounding_box()
    assert code_box and code_box["height"] < 90
    assert teacher.locator("#qr").bounding_box()["width"] <= 120
    row = teacher.locator("#class-grid tbody tr").first.bounding_box()
    assert row and row["y"] + row["height"] <= 800, row
    expect(teacher.locator("#class-grid tbody")).to_contain_text("Mio")
    # Item 15: the grid's signs have a key, and "not a target" says what was made instead.
    legend = teacher.locator("#grid-legend")
    expect(legend).to_be_visible()
    expect(legend).to_contain_text("→ 0")
    mistake = teacher.locator("#class-grid td.mistake").first
    expect(mistake).to_contain_text(WORDS[lang]["made"])
    expect(mistake).to_contain_text(WORDS[lang]["nearest"])
    shot(teacher, f"class-dashboard-running-1280-{lang}")

    # On a 1920 × 1080 projector: the whole width in large type, and the names hidden; both kept after a reload
    # (this computer's choice) and through the grid's polling.
    teacher.set_viewport_size({"width": 1920, "height": 1080})
    narrow = teacher.locator("#class-grid").bounding_box()["width"]
    teacher.click("#projector-view")
    teacher.click("#hide-names")
    expect(teacher.locator("#hide-names")).to_have_attribute("aria-pressed", "true")
    assert teacher.locator("#class-grid").bounding_box()["width"] > narrow * 1.3
    size = teacher.locator("#class-grid tbody th.name").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 24, size
    teacher.reload()
    expect(teacher.locator("#class-grid tbody")).not_to_contain_text("Mio", use_inner_text=True)
    teacher.wait_for_function(
        "() => document.querySelector('#live-note') && document.querySelector('#class-grid')", timeout=WAIT_MS
    )
    expect(teacher.locator("#class-grid tbody th.name").first).to_contain_text("1", use_inner_text=True)
    shot(teacher, f"class-dashboard-projector-1920-{lang}")
    teacher.click("#hide-names")
    expect(teacher.locator("#class-grid tbody")).to_contain_text("Mio", use_inner_text=True)
    teacher.click("#projector-view")
    teacher.set_viewport_size({"width": 1280, "height": 800})

    csv_text = teacher.request.get(teacher.url.split("#")[0] + "/results.csv").text().lstrip("\ufeff")
    rows = list(csv.reader(io.StringIO(csv_text)))
    solved = [i for i, h in enumerate(rows[0]) if re.search(r"(solved|正解)$", h)]
    assert len(solved) == SETTINGS.count
    assert {r[i] for r in rows[1:] for i in solved} <= WORDS[lang]["solved"]  # two values, never "Skipped"

    submit(teacher, "#end", '#dashboard[data-phase="ended"]')
    teacher.goto(teacher.url.split("#")[0] + "/summary")
    expect(teacher.locator("#grid-legend")).to_be_visible()
    shot(teacher, f"class-summary-1280-{lang}")
    teacher.context.close()
    pupil.context.close()

"""A real class in real browsers (Playwright, Debian's chromium): one teacher, three pupils, one on a phone.

The teacher makes a session and starts it; the pupils join with the code (one through the QR code's URL), see the
start arrive by themselves, answer with the drill's dice UI (tapping and typing), ask a hint, miss, skip; the
dashboard fills in by itself; the end shows every pupil their results. Screenshots go to tests/screenshots/.
"""

from __future__ import annotations

import re

import pytest
from browser_support import require_chromium, served_app, shot

pytestmark = pytest.mark.browser

sync_api = require_chromium()

from suji.play import classroom as core  # noqa: E402

SETTINGS = core.ClassSettings(count=3, level=1, seed="browser-class")
WAIT_MS = 20_000  # a bounded wait for a condition (the pupils' pages look for a change every 3 s)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with served_app(tmp_path_factory.mktemp("instance")) as (_, url):
        yield url


def context_page(browser, width: int, height: int, locale: str, errors: list[str]):
    context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
    page = context.new_page()
    page.on("console", lambda msg: errors.append(f"{msg.type}: {msg.text}") if msg.type == "error" else None)
    page.on("dialog", lambda dialog: dialog.accept())  # the teacher's "end the class?" (a pupil's skip asks in the page)
    return page


def test_a_class_with_a_teacher_and_three_pupils(server, browser):
    expect = sync_api.expect
    errors: list[str] = []
    problems = core.choose_problems(SETTINGS)
    teacher = context_page(browser, 1280, 900, "en-US", errors)
    teacher.goto(f"{server}/class/new")
    teacher.fill("#count", "3")
    teacher.select_option("#level", "1")
    teacher.fill("#seed", SETTINGS.seed)
    teacher.fill("#time_limit", "30")
    teacher.click("#create")
    expect(teacher.locator("#private-link")).to_be_visible()
    code = teacher.locator("#join-code").inner_text().strip()
    assert re.fullmatch(f"[{core.CODE_ALPHABET}]{{6}}", code)
    # Readable from the back of the room: the code is at least 90 px tall on a laptop screen.
    assert teacher.locator("#join-code").bounding_box()["height"] >= 90
    # The QR code is an image of its own: wait until the browser has drawn it (it may load after the page).
    teacher.wait_for_function("() => { const img = document.querySelector('#qr'); return img.complete && img.naturalWidth > 0; }")
    shot(teacher, "class-dashboard-new-1280-en")

    phone = context_page(browser, 360, 740, "ja-JP", errors)
    tablet = context_page(browser, 800, 1000, "ja-JP", errors)
    laptop = context_page(browser, 1280, 800, "en-US", errors)
    phone.goto(f"{server}/join/{code}")  # the QR code's URL: the code is filled in
    assert phone.locator("#code").input_value() == code
    phone.fill("#nickname", "はると")
    phone.click("#join")
    expect(phone.locator("#wait")).to_be_visible()
    shot(phone, "class-wait-360-ja")
    for page, name in ((tablet, "ゆい"), (laptop, "Sam")):
        page.goto(f"{server}/join")
        page.fill("#code", code.lower())
        page.fill("#nickname", name)
        page.click("#join")
        expect(page.locator("#wait")).to_be_visible()
    # A second device with the phone pupil's name is refused.
    intruder = context_page(browser, 800, 900, "ja-JP", [])  # its refusal (409) is logged by the browser
    intruder.goto(f"{server}/join/{code}")
    intruder.fill("#nickname", "はると")
    intruder.click("#join")
    expect(intruder.locator("#join-error")).to_contain_text("はると")

    expect(teacher.locator("#grid")).to_contain_text("Sam", timeout=WAIT_MS)
    teacher.click("#start")
    for page in (phone, tablet, laptop):  # each page notices the start by itself
        expect(page.locator("#problem-title")).to_be_visible(timeout=WAIT_MS)
    expect(phone.locator("#time-left")).to_be_visible()
    expect(phone.locator("#time-left .clock")).to_have_text(re.compile(r"^(29|30):"))
    # Five more minutes on the dashboard reach the pupils' clocks at their next poll, without a reload.
    teacher.click("#more-time")
    expect(teacher.locator("#time-left .clock")).to_have_text(re.compile(r"^(34|35):"))
    expect(phone.locator("#time-left .clock")).to_have_text(re.compile(r"^(34|35):"), timeout=WAIT_MS)
    shot(phone, "class-problem-360-ja")

    # The phone: taps the first number die, clears, then types the best formula; the value shows ✓.
    phone.locator("button.die-number").first.click()
    if phone.locator("#six-nine").is_visible():
        phone.locator("#six-nine button[value='6']").click()
    expect(phone.locator("#formula")).not_to_have_value("")
    phone.click("#clear")
    phone.fill("#formula", problems[0].best_formula)
    expect(phone.locator("#live-value")).to_contain_text("✓")
    phone.click("#answer")
    expect(phone.locator("#score")).to_contain_text(str(problems[0].best_score))
    shot(phone, "class-result-360-ja")

    # The tablet: a hint (it costs points), a miss, then the best formula.
    tablet.click("#hint-button")
    expect(tablet.locator("#hint-list li")).to_have_count(1)
    # A slip of the finger (two operators side by side) is no try: the text stays to mend.
    tablet.fill("#formula", f"{problems[0].roll.number_dice[0]}++")
    tablet.click("#answer")
    expect(tablet.locator(".flash-error")).to_contain_text("へっていません")
    expect(tablet.locator("#tries")).to_contain_text("1回目")
    expect(tablet.locator("#formula")).to_have_value(f"{problems[0].roll.number_dice[0]}++")
    shot(tablet, "class-refused-800-ja")
    tablet.fill("#formula", str(problems[0].roll.number_dice[0]))
    tablet.click("#answer")
    expect(tablet.locator(".flash-error")).to_contain_text("お題の数ではありません")
    expect(tablet.locator("#tries")).to_contain_text("2回目")
    shot(tablet, "class-miss-800-ja")
    tablet.fill("#formula", problems[0].best_formula)
    tablet.click("#answer")
    price = -(-problems[0].best_score // 4)
    expect(tablet.locator("#score")).to_contain_text(str(problems[0].best_score - price))

    # The laptop skips the first problem.
    laptop.click("#skip")
    laptop.click("#skip-sure")  # asked in the page: yes
    expect(laptop.locator("#result")).to_contain_text("Skipped")

    # The dashboard fills in by itself.
    grid = teacher.locator("#grid")
    expect(grid.locator("td.cell.solved")).to_have_count(2, timeout=WAIT_MS)
    expect(grid.locator("td.cell.skipped")).to_have_count(
        1, timeout=WAIT_MS
    )  # a skip, marked apart from a miss
    expect(grid.locator("tfoot")).to_contain_text("67%")
    expect(grid.locator("tfoot")).to_contain_text("The value is not a target")
    shot(teacher, "class-dashboard-live-1280-en")

    # The phone goes on to problem 2; then the teacher ends the class.
    phone.click("#next")
    expect(phone.locator("#problem-title")).to_contain_text("第2問")
    teacher.click("#end")
    expect(teacher.locator("#phase-name")).to_contain_text("Ended")
    for page in (phone, tablet, laptop):
        expect(page.locator("#finished")).to_be_visible(timeout=WAIT_MS)
    expect(phone.locator("#my-results")).to_contain_text(problems[1].best_formula)
    expect(phone.locator("#final-total")).to_contain_text(str(problems[0].best_score))
    shot(phone, "class-finished-360-ja")
    shot(teacher, "class-dashboard-ended-1280-en")

    teacher.click("#summary")
    expect(teacher.locator("#summary-page")).to_contain_text("はると")
    shot(teacher, "class-summary-1280-en")
    teacher.emulate_media(media="print")
    assert teacher.locator("header.site").is_hidden()
    shot(teacher, "class-summary-print-1280-en")

    assert errors == []

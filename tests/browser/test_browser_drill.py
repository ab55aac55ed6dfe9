"""A real browser (Playwright, Debian's chromium) plays a drill: taps dice, picks 9 for a 6, checks, switches.

Screenshots of each page go to tests/screenshots/ (git-ignored) for a human look at 360 px and 1280 px.
"""

from __future__ import annotations

import pytest
from browser_support import require_chromium, served_app, shot

pytestmark = pytest.mark.browser

sync_api = require_chromium()

from suji.rules.dice import Roll  # noqa: E402
from suji.web import drill_rolls  # noqa: E402

# 6 read as 9: 92+33 = 125, one of the targets of 1 2 5.
ROLL = Roll.of([6, 2, 3, 3, 1], ["+", "−", "×", "+"], [1, 2, 5])


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The app (CSRF on, as in production) on 127.0.0.1 and a free port, in a thread; a fixed roll."""
    mp = pytest.MonkeyPatch()
    mp.setattr(drill_rolls, "roll_at", lambda level, seed: ROLL)
    with served_app(tmp_path_factory.mktemp("instance")) as (_, url):
        yield url
    mp.undo()


def new_page(browser, width: int, locale: str):
    context = browser.new_context(viewport={"width": width, "height": 900}, locale=locale)
    return context.new_page()


def test_play_a_drill_by_tapping_dice_on_a_phone(server, browser):
    page = new_page(browser, 360, "ja-JP")
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(f"{server}/")
    assert page.locator("html").get_attribute("lang") == "ja"
    shot(page, "home-360-ja")

    page.goto(f"{server}/drill/1")
    expect = sync_api.expect
    numbers = page.locator("button.die-number")
    operators = page.locator("button.die-operator")
    expect(numbers).to_have_count(5)
    box = numbers.first.bounding_box()
    assert box and box["width"] >= 48 and box["height"] >= 48
    shot(page, "drill-360-ja")

    # The 6 asks: 6 or 9?
    numbers.nth(0).click()
    dialog = page.locator("#six-nine")
    expect(dialog).to_be_visible()
    shot(page, "drill-six-or-nine-360-ja")
    dialog.get_by_role("button", name="9として使う").click()
    expect(dialog).to_be_hidden()
    numbers.nth(1).click()  # 2
    operators.nth(0).click()  # +
    numbers.nth(2).click()  # 3
    # Keyboard: focus a die and press Enter.
    numbers.nth(3).focus()
    page.keyboard.press("Enter")  # 3
    formula = page.locator("#formula")
    expect(formula).to_have_value("92+33")
    expect(numbers.nth(0)).to_have_class("die die-number used")
    expect(numbers.nth(0)).to_have_attribute("aria-disabled", "true")
    expect(page.locator("#live-value")).to_have_text("= 125 ✓")

    # Used dice do nothing (the browser sees them as disabled); undo gives the last die back.
    numbers.nth(1).click(force=True)
    expect(formula).to_have_value("92+33")
    page.locator("#undo").click()
    expect(formula).to_have_value("92+3")
    expect(numbers.nth(3)).not_to_have_class("die die-number used")
    expect(page.locator("#live-value")).to_have_text("= 95")
    page.locator("#clear").click()
    expect(formula).to_have_value("")

    # Typing greys out the dice too, and errors show in Japanese.
    formula.fill("92+")
    expect(numbers.nth(0)).to_have_class("die die-number used")
    expect(page.locator("#live-value")).to_contain_text("式")
    formula.fill("９２＋３３")
    expect(page.locator("#live-value")).to_have_text("= 125 ✓")
    for i in range(4):  # the server said which dice the typed text uses: a 9 is the 6 turned over
        expect(numbers.nth(i)).to_have_class("die die-number used")
    expect(operators.nth(0)).to_have_class("die die-operator used")
    page.locator("#undo").click()  # undo takes back the last die typed, as it does a tapped one
    expect(formula).to_have_value("９２＋３")
    expect(numbers.nth(3)).not_to_have_class("die die-number used")
    formula.fill("９２＋３３")
    expect(page.locator("#live-value")).to_have_text("= 125 ✓")
    shot(page, "drill-typed-360-ja")

    # A typo first: no try, the text stays in the box to mend, and the page says why (as practice and homework do).
    formula.fill("９２＋＋３３")
    page.locator("#check").click()
    expect(page.locator(".drill-messages .flash-error")).to_contain_text("はそのままです")
    expect(formula).to_have_value("９２＋＋３３")  # the box keeps the text as it was sent
    assert "/drill/1/result" not in page.url
    shot(page, "drill-refused-360-ja")
    formula.fill("９２＋３３")
    page.locator("#check").click()
    expect(page.locator("#verdict-h")).to_contain_text("お題の数ができました")
    assert page.url.endswith("/drill/1/result")  # a page of its own: reload and back send nothing again
    page.reload()
    expect(page.locator(".streak")).to_have_text("連続正解（せいかい）：1")
    expect(page.locator(".streak")).to_have_text("連続正解（せいかい）：1")
    expect(page.locator(".score-line")).to_contain_text("記号の点1 × 数字ダイス4個（こ） = 4点")  # 個 is taught in 5年: ruby at 4年
    shot(page, "result-360-ja")

    # Switch language on the result page: the same result, in English, and it sticks.
    page.get_by_role("button", name="English").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("h1")).to_contain_text("Level 1")
    expect(page.locator("#verdict-h")).to_contain_text("Target made!")
    page.goto(f"{server}/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    shot(page, "home-360-en")
    assert not errors, errors


def test_wide_screen_pages(server, browser):
    page = new_page(browser, 1280, "en-US")
    page.goto(f"{server}/")
    shot(page, "home-1280-en")
    page.goto(f"{server}/drill/1")
    page.locator("#formula").fill("92+33-1")
    sync_api.expect(page.locator("#live-value")).to_have_text("= 124")
    shot(page, "drill-1280-en")
    page.locator("#check").click()
    sync_api.expect(page.locator("#verdict-h")).to_contain_text("Not a target")
    # A miss: "Try this roll again" is a real try, so the best formula waits behind a tap.
    best = page.locator("#best-answer .scored-formula")
    sync_api.expect(best).to_be_hidden()
    sync_api.expect(page.locator("#best-score")).to_be_hidden()
    shot(page, "result-1280-en")
    page.get_by_text("Show the best answer").click()
    sync_api.expect(best).to_be_visible()
    from suji.solver.search import LEVEL_OPERATORS, solve

    sync_api.expect(best).to_contain_text(solve(ROLL, LEVEL_OPERATORS[1]).top.formula)
    page.goto(f"{server}/no-such-page")
    sync_api.expect(page.locator("h1")).to_contain_text("Page not found")
    shot(page, "error-1280-en")


def test_hints_one_step_at_a_time(server, browser):
    page = new_page(browser, 360, "en-US")
    page.goto(f"{server}/drill/1")
    button = page.get_by_role("button", name="Show a hint")
    button.click()
    hints = page.locator("#hint-list li")
    sync_api.expect(hints).to_have_count(1)
    sync_api.expect(hints.first).to_contain_text("125")
    button.click()
    sync_api.expect(hints).to_have_count(2)
    page.locator("#formula").fill("92+")
    page.get_by_role("button", name="Still on track?").click()
    sync_api.expect(page.locator("#track-answer")).to_contain_text("Still on track")
    shot(page, "drill-hints-360-en")
    page.locator("#formula").fill("1+")
    page.get_by_role("button", name="Still on track?").click()
    sync_api.expect(page.locator("#track-answer")).to_contain_text("Off track")


def test_a_wrong_value_opens_the_working(server, browser):
    """After a miss the steps are open: one operation a line, the new part marked and written out."""
    page = new_page(browser, 360, "ja-JP")
    page.goto(f"{server}/drill/1")
    page.locator("#formula").fill("92+33-1")
    page.locator("#check").click()
    panel = page.locator("#working")
    sync_api.expect(panel).to_have_attribute("open", "")
    lines = panel.locator(".working-lines").first.locator("li")
    sync_api.expect(lines).to_have_count(1 + 4)  # the formula, 9 2 → 92, 3 3 → 33, +, −
    sync_api.expect(lines.nth(1)).to_contain_text("9 2 → 92")
    sync_api.expect(lines.last).to_contain_text("125 − 1 = 124")
    sync_api.expect(lines.last.locator("mark")).to_have_text("124")
    sync_api.expect(panel).to_contain_text("左から順")  # the reason, in Japanese
    sync_api.expect(panel).to_contain_text("6の目のサイコロをさかさまに")  # 92 was made with the 6 read as 9
    shot(page, "result-working-360-ja")
    box = panel.bounding_box()
    assert box and box["width"] <= 360
    # A made target keeps the working closed: it is there for a look, not in the way.
    page.goto(f"{server}/drill/1")
    page.locator("#formula").fill("92+33")
    page.locator("#check").click()
    sync_api.expect(page.locator("#working")).not_to_have_attribute("open", "")


def test_building_a_formula_is_not_a_mistake(server, browser):
    """An operator tap leaves the formula unfinished (neutral, not red); stale answers go; Clear keeps focus."""
    page = new_page(browser, 360, "en-US")
    page.goto(f"{server}/drill/1")
    numbers = page.locator("button.die-number")
    operators = page.locator("button.die-operator")
    live = page.locator("#live-value")
    numbers.nth(1).click()  # 2
    operators.nth(0).click()  # +
    sync_api.expect(live).to_have_class("unfinished")
    sync_api.expect(live).to_contain_text("Keep going")
    page.locator("#formula").fill("2+3+")
    sync_api.expect(live).to_have_class("unfinished")
    page.locator("#formula").fill("2++")  # a real mistake is still shown as one
    sync_api.expect(live).to_have_class("error")
    shot(page, "drill-unfinished-360-en")

    page.locator("#formula").fill("92+")
    page.get_by_role("button", name="Still on track?").click()
    answer = page.locator("#track-answer")
    sync_api.expect(answer).to_contain_text("Still on track")
    numbers.nth(2).click()  # the formula changes: the answer was about the old one
    sync_api.expect(answer).to_have_text("")

    page.locator("#clear").click()
    sync_api.expect(page.locator("#formula")).to_have_value("")
    assert page.evaluate("document.activeElement.id") != "formula"


def test_page_works_without_csp_violations(server, browser):
    page = new_page(browser, 800, "ja-JP")
    violations: list[str] = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto(f"{server}/drill/1")
    page.locator("button.die-number").nth(1).click()
    sync_api.expect(page.locator("#live-value")).to_have_text("= 2")
    assert not violations, violations

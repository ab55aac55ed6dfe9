"""Practice in a real browser (Playwright, Debian's chromium) at 360 and 1280 px, in Japanese and English: a
problem answered with the drill's dice, a hint, the result and what changed, My progress with its chart, My data
with a sign-in code, and the code on a second browser.

Screenshots of each page go to tests/screenshots/ (git-ignored) for a human look.
"""

from __future__ import annotations

import pytest
from browser_support import require_chromium, served_app, shot

pytestmark = pytest.mark.browser

sync_api = require_chromium()

from suji.learner.bank import load  # noqa: E402
from suji.learner.items import item_key  # noqa: E402
from suji.rules.dice import Roll  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with served_app(tmp_path_factory.mktemp("instance")) as (_, url):
        yield url


def witness(page, server: str) -> str:
    """A formula that reaches the problem the page shows (asked of the API with the page's own cookies)."""
    problem = page.request.get(f"{server}/api/practice/next").json()["problem"]
    roll = Roll(tuple(problem["target_dice"]), tuple(problem["number_dice"]), tuple(problem["operator_dice"]))
    return load().get(item_key(roll, problem["goal_score"])).witness_formula


WORDS = {
    "ja-JP": {
        "lang": "ja",
        "hint": "ヒントを見る",
        "made": "目標ができた",
        "changes": "かわったこと",
        "skills": "自分のわざ",
    },
    "en-US": {
        "lang": "en",
        "hint": "Show a hint",
        "made": "Goal made!",
        "changes": "What changed",
        "skills": "My skills",
    },
}


@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("locale", ["ja-JP", "en-US"])
def test_practise_a_problem_then_see_my_progress_and_my_data(server, browser, width, locale):
    words = WORDS[locale]
    expect = sync_api.expect
    context = browser.new_context(viewport={"width": width, "height": 800}, locale=locale)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    name = f"{width}-{words['lang']}"

    page.goto(f"{server}/practice/")
    assert page.locator("html").get_attribute("lang") == words["lang"]
    expect(page.locator("#goal")).to_be_visible()
    expect(page.locator("button.die-number")).to_have_count(5)
    expect(page.locator("button.die-operator")).to_have_count(4)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, f"practice-play-{name}")

    page.get_by_role("button", name=words["hint"]).click()
    expect(page.locator("#hint-list li")).to_have_count(1)
    first = page.locator("button.die-number").first
    first.click()  # the drill's dice UI: a tapped die is used
    if page.locator("#six-nine").is_visible():
        page.locator("#six-nine button[value='6']").click()
    expect(first).to_have_attribute("aria-disabled", "true")
    page.locator("#clear").click()
    page.locator("#formula").fill(witness(page, server))
    expect(page.locator("#live-value")).to_contain_text("✓")
    page.locator("#answer").click()
    expect(page.locator("#verdict")).to_contain_text(words["made"])
    expect(page.locator("#changes li").first).to_be_visible()
    expect(page.locator("#hints-used")).to_be_visible()  # one hint: three quarters of the problem
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, f"practice-result-{name}")

    for _ in range(3):  # a few more answers: one made, two given up
        page.locator("#next").click()
        page.locator("#formula").fill(witness(page, server))
        page.locator("#answer").click()
        page.locator("#next").click()
        page.wait_for_load_state("load")  # drill.js, which asks before giving up, is there
        page.locator("#give-up").click()  # asked in the page, not by a browser's box
        expect(page.locator("#confirm-give-up")).to_contain_text(
            "この問題をギブアップしますか" if locale == "ja-JP" else "Give up this problem?")
        page.locator("#give-up-sure").click()
        expect(page.locator("#verdict")).to_have_class("panel verdict missed")
    shot(page, f"practice-gave-up-{name}")

    page.goto(f"{server}/practice/progress")
    expect(page.locator("#rating-chart svg")).to_be_visible()
    expect(page.locator("#skills li")).to_have_count(10)
    expect(page.get_by_role("heading", name=words["skills"])).to_be_visible()
    expect(page.locator("#answered")).to_have_text("7")
    chart = page.locator("#rating-chart svg").bounding_box()
    assert chart and chart["width"] <= width and chart["height"] >= 100
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, f"practice-progress-{name}")

    page.locator("#mistakes-again").click()
    expect(page.locator("#mistake-note")).to_be_visible()

    page.goto(f"{server}/practice/me")
    page.locator("#make-code").click()
    code = page.locator("#signin-code").inner_text()
    assert len(code) == 9 and code[4] == "-"
    shot(page, f"practice-me-{name}")
    assert errors == []

    other = browser.new_context(viewport={"width": width, "height": 800}, locale=locale).new_page()
    if width == 360:  # the card's QR code opens the sign-in page with the code after a #, which fills the box
        other.goto(f"{server}/practice/signin#{code.replace('-', '')}")
        expect(other.locator("#code-input")).to_have_value(code.replace("-", ""))
        assert "#" not in other.url  # and leaves the address bar
    else:
        other.goto(f"{server}/practice/signin")
        other.locator("#code-input").fill(code.lower())
    other.locator("#signin-button").click()
    expect(other.locator("#answered")).to_have_text("7")  # the same practice, on a second browser
    shot(other, f"practice-signed-in-{name}")
    other.context.close()
    context.close()

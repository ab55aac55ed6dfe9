"""A first visit, in a real browser: the guided first puzzle, step by step, in both languages (issue 11)."""

from __future__ import annotations

import pytest
from browser_support import require_chromium, served_app, shot

pytestmark = pytest.mark.browser

sync_api = require_chromium()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with served_app(tmp_path_factory.mktemp("instance")) as (_, url):
        yield url


@pytest.mark.parametrize(
    ("locale", "nine", "finish"),
    [("ja-JP", "9として使う", "レベル1"), ("en-US", "Use it as 9", "Level 1")],
)
def test_the_first_puzzle_step_by_step(server, browser, locale, nine, finish):
    expect = sync_api.expect
    page = browser.new_context(viewport={"width": 360, "height": 740}, locale=locale).new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{server}/")
    page.locator("#first-link").click()
    steps = page.locator("#guide li")
    expect(steps.nth(0)).to_be_visible()
    expect(steps.nth(1)).to_be_hidden()
    steps.nth(0).get_by_role("button").click()
    expect(steps.nth(1)).to_be_visible()
    # "Tap a die" is the next step: every die is on the screen, clear of the formula bar (on a 360 × 740 phone
    # the first step's text had pushed them under it).
    page.wait_for_function("() => window.scrollY > 0 || document.documentElement.scrollHeight <= innerHeight")
    bar_top = page.locator(".formula-bar").bounding_box()["y"]
    for box in [d.bounding_box() for d in page.locator(".dice-panel button.die").all()]:
        assert box["y"] >= 0 and box["y"] + box["height"] <= bar_top, (box, bar_top)
    numbers = page.locator("button.die-number")
    numbers.nth(0).click()  # the 6
    page.locator("#six-nine").get_by_role("button", name=nine).click()
    expect(steps.nth(2)).to_be_visible()
    numbers.nth(1).click()  # 2
    expect(steps.nth(3)).to_be_visible()
    page.locator("button.die-operator").nth(0).click()  # +
    expect(page.locator("#live-value")).to_have_class("unfinished")
    expect(steps.nth(4)).to_be_visible()
    numbers.nth(2).click()
    numbers.nth(3).click()
    expect(page.locator("#live-value")).to_contain_text("125")
    expect(steps.nth(5)).to_be_visible()
    shot(page, f"first-puzzle-{locale}")
    page.locator("#check").click()
    expect(page.locator("#first-result")).to_contain_text("92+33 = 125")
    expect(steps.nth(6)).to_be_visible()
    expect(steps.nth(6)).to_contain_text("1 × 4")  # the score explained where the guide is
    expect(steps.nth(6)).to_be_in_viewport()
    shot(page, f"first-puzzle-scored-{locale}")
    page.locator("#first-done").click()
    expect(page.locator("h1")).to_contain_text(finish)
    # Remembered as done: the home page no longer offers it.
    page.goto(f"{server}/")
    expect(page.locator("#first-link")).to_have_count(0)
    assert not errors, errors


def test_the_first_puzzle_says_how_to_get_back_on_the_path(server, browser):
    expect = sync_api.expect
    page = browser.new_context(viewport={"width": 360, "height": 740}, locale="en-US").new_page()
    page.goto(f"{server}/first/")
    page.locator("#guide li").nth(0).get_by_role("button").click()
    page.locator("button.die-number").nth(0).click()
    page.locator("#six-nine").get_by_role("button", name="Use it as 6").click()  # the guide asked for 9
    expect(page.locator("#guide-note")).to_contain_text("press Undo")
    expect(page.locator("#guide-note")).to_be_in_viewport()
    page.locator("#undo").click()
    expect(page.locator("#guide-note")).to_have_text("")


def test_the_first_puzzle_can_be_skipped(server, browser):
    page = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US").new_page()
    page.goto(f"{server}/first/")
    page.locator("#skip").click()
    sync_api.expect(page.locator("#first-link")).to_have_count(0)

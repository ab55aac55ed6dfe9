"""A real browser (Playwright, Debian's chromium) answers one question per lesson, runs a simulation, plays.

Screenshots go to tests/screenshots/ (git-ignored) for a human look: Japanese at 360 px, English at 1280 px.
"""

from __future__ import annotations

import pytest
from browser_support import require_chromium, served_app, shot

pytestmark = pytest.mark.browser

sync_api = require_chromium()


# One question per lesson with its answer typed the way a pupil might.
QUESTIONS = [
    ("nine-am", "awake", "1/2"),
    ("dice-monsters", "d6d6", "７/１２"),
    ("silence", "cheating", "37.5%"),
    ("gooball", "bump", "24分の11"),
    ("suji", "six", "36分の11"),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The app (CSRF on, as in production) on 127.0.0.1 and a free port, in a thread."""
    with served_app(tmp_path_factory.mktemp("instance")) as (_, url):
        yield url


def new_page(browser, width: int, locale: str):
    context = browser.new_context(viewport={"width": width, "height": 900}, locale=locale)
    page = context.new_page()
    page.errors = []
    page.on("console", lambda msg: page.errors.append(msg.text) if msg.type == "error" else None)
    return page


@pytest.mark.parametrize(("slug", "key", "answer"), QUESTIONS)
def test_answer_one_question_per_lesson(server, browser, slug, key, answer):
    expect = sync_api.expect
    for width, locale, lang in ((360, "ja-JP", "ja"), (1280, "en-GB", "en")):
        page = new_page(browser, width, locale)
        page.goto(f"{server}/lessons/{slug}")
        assert page.locator("html").get_attribute("lang") == lang
        step = page.locator(f"#step-{key}")
        step.get_by_role("textbox").fill(answer)
        step.locator("button.primary").click()
        verdict = page.locator(f"#verdict-{key}")
        expect(verdict).to_have_class("verdict correct")
        expect(page.locator(f"#step-{key} .tick")).to_be_visible()
        shot(page, f"lesson-{slug}-{width}-{lang}")
        assert page.errors == []  # no CSP violation, no script error
        page.context.close()


def test_wrong_answer_gives_a_hint_then_the_answer_on_request(server, browser):
    """At 360 px in Japanese: a wrong try shows a hint (no explanation); "答えを見る" then shows the answer."""
    expect = sync_api.expect
    page = new_page(browser, 360, "ja-JP")
    page.goto(f"{server}/lessons/silence")
    step = page.locator("#step-cheating")
    expect(step.locator("button.show-answer")).to_have_count(0)  # offered only after a try
    step.get_by_role("textbox").fill("1/2")
    step.locator("button.primary").click()
    verdict = page.locator("#verdict-cheating")
    expect(verdict).to_have_class("verdict wrong")
    expect(verdict).to_contain_text("ちがうよ")
    expect(verdict.locator(".hint")).to_contain_text("ヒント")
    expect(verdict.locator(".explanation")).to_have_count(0)
    shot(page, "lesson-silence-wrong-hint-360-ja")
    page.locator("#step-cheating button.show-answer").click()
    verdict = page.locator("#verdict-cheating")
    expect(verdict).to_have_class("verdict shown")
    expect(verdict.locator(".explanation")).to_contain_text("81")
    expect(verdict.locator(".exact")).to_contain_text("3/8")
    expect(page.locator("#step-cheating .tick")).to_have_count(0)  # shown, not answered
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    shot(page, "lesson-silence-shown-360-ja")
    assert page.errors == []
    page.context.close()


def test_simulation_chart_loads_and_follows_n(server, browser):
    page = new_page(browser, 1280, "en-GB")
    page.goto(f"{server}/lessons/silence/experiment/totals")
    page.locator("#n").fill("50000")
    page.get_by_role("button", name="Simulate").click()
    img = page.locator("figure.chart img")
    sync_api.expect(img).to_have_attribute(
        "src", "/lessons/silence/experiment/totals/chart.svg?n=50000&seed=1"
    )
    # The image really loads (an SVG blocked or broken never gets a natural width); wait for it, not for a time.
    page.wait_for_function(
        "() => { const i = document.querySelector('figure.chart img'); return i.complete && i.naturalWidth > 0; }",
        timeout=15_000,
    )
    shot(page, "experiment-silence-totals-1280-en")
    page.locator("#n").fill("-4")
    page.get_by_role("button", name="Simulate").click()
    sync_api.expect(page.get_by_role("alert")).to_contain_text("whole number from 1 to 100000")
    page.emulate_media(media="print")
    shot(page, "experiment-silence-totals-print")
    assert page.errors == [] or all("400" in e for e in page.errors)


def test_play_gooball_shows_odds_then_outcome(server, browser):
    page = new_page(browser, 360, "ja-JP")
    page.goto(f"{server}/lessons/gooball/play?seed=5")
    options = page.locator("button.option")
    assert options.count() >= 3
    sync_api.expect(page.locator(".odds").first).to_contain_text("とどく確率")
    shot(page, "play-gooball-before-360-ja")
    options.first.click()
    sync_api.expect(page.locator(".outcome-panel")).to_contain_text("グーボール 1")
    shot(page, "play-gooball-after-360-ja")
    assert page.errors == []


def test_play_dice_monsters_at_desktop_width(server, browser):
    page = new_page(browser, 1280, "en-GB")
    page.goto(f"{server}/lessons/dice-monsters/play?seed=3&mine=gusty&theirs=stoney")
    for _ in range(3):
        options = page.locator("button.option")
        if options.count() == 0:
            break
        options.first.click()
        sync_api.expect(page.locator(".outcome-panel")).to_be_visible()
    shot(page, "play-dice-monsters-1280-en")
    page.goto(f"{server}/lessons/dice-monsters")
    shot(page, "lesson-dice-monsters-table-1280-en")
    assert page.errors == []


def test_suji_estimates_on_a_phone(server, browser):
    """The Sūji lesson's stored estimates and the re-roll experiment fit a 360 px screen, in Japanese."""
    page = new_page(browser, 360, "ja-JP")
    page.goto(f"{server}/lessons/suji")
    step = page.locator("#step-reach")
    figure = page.locator(".suji-figures tbody tr").first.locator("td").first.inner_text().split()[0]
    step.get_by_role("textbox").fill(figure.replace(".", "．"))  # a pupil's full-width point
    step.get_by_role("button").click()
    sync_api.expect(page.locator("#verdict-reach")).to_have_class("verdict correct")
    shot(page, "lesson-suji-figures-360-ja")
    page.goto(f"{server}/lessons/suji/experiment/value?n=400&seed=2")
    sync_api.expect(page.locator("table.outcome")).to_contain_text("すぐに答える")
    assert page.evaluate("() => document.querySelector('figure.chart img').naturalWidth") > 0
    # Nothing but the wide table itself may scroll sideways on a phone.
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    shot(page, "experiment-suji-value-360-ja")
    assert page.errors == []

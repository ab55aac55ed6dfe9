"""A real browser (Playwright, Debian's chromium) answers questions, runs simulations, plays, designs a monster.

What a person sees is checked where a person would see it: answers that keep their verdicts without a reload
(and with JavaScript off), the "/" and "%" keys, charts measured as rendered on a 360 px phone, no page wider than
the phone. Screenshots go to tests/screenshots/ (git-ignored) for a human look: 360 px and 1280 px.
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


def new_page(browser, width: int, locale: str, height: int = 900, js: bool = True):
    context = browser.new_context(
        viewport={"width": width, "height": height}, locale=locale, java_script_enabled=js
    )
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
    expect(verdict).to_contain_text("ちがいます")
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
    sync_api.expect(page.locator(".outcome-panel")).to_contain_text("グーボール1")
    shot(page, "play-gooball-after-360-ja")
    assert page.errors == []


def test_play_dice_monsters_at_desktop_width(server, browser):
    page = new_page(browser, 1280, "en-GB")
    page.goto(f"{server}/lessons/dice-monsters/play?seed=3&mine=gusty&theirs=stoney")
    for _ in range(3):
        options = page.locator("button.option")
        if options.count() == 0:
            break
        group = page.locator("details.option-group").first  # many attacks come gathered by the die they take
        if group.count():
            group.locator("summary").click()
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
    step.locator("button.primary").click()
    sync_api.expect(page.locator("#verdict-reach")).to_have_class("verdict correct")
    shot(page, "lesson-suji-figures-360-ja")
    page.goto(f"{server}/lessons/suji/experiment/value?n=400&seed=2")
    sync_api.expect(page.locator("table.outcome")).to_contain_text("すぐに答える")
    assert page.evaluate("() => document.querySelector('figure.chart img').naturalWidth") > 0
    # Nothing but the wide table itself may scroll sideways on a phone.
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    shot(page, "experiment-suji-value-360-ja")
    assert page.errors == []


# ---- issue 11: answers that keep their verdicts, the "/" and "%" keys, charts and pages on a phone ------------

PHONE = {"width": 360, "height": 740}


def verdict_of(page, key: str):
    return page.locator(f"#verdict-{key}")


def test_each_question_keeps_its_answer_without_a_reload_and_after_one(server, browser):
    """Answering one question leaves the others' boxes and verdicts alone; a reload shows the same page."""
    expect = sync_api.expect
    page = new_page(browser, PHONE["width"], "en-GB", PHONE["height"])
    page.goto(f"{server}/lessons/nine-am")
    page.evaluate("() => { window.notReloaded = true; }")  # gone if the page loads again
    answers = [("awake", "1/2", "correct"), ("called", "12%", "wrong"), ("good", "3.49", "close"),
               ("bad", "35/2", "correct")]  # fmt: skip
    for key, text, _ in answers:
        step = page.locator(f"#step-{key}")
        step.get_by_role("textbox").fill(text)
        step.locator("button.primary").click()
        expect(verdict_of(page, key)).to_have_class(f"verdict {_}")
    # The student's own text is echoed, not the value it was read as (12% is 3/25).
    expect(verdict_of(page, "called")).to_contain_text("you wrote 12%")
    expect(verdict_of(page, "called")).not_to_contain_text("3/25")
    assert page.evaluate("() => window.notReloaded === true")  # checked by fetch, no page load

    def same_state():
        for key, text, verdict in answers:
            expect(page.locator(f"#answer-{key}")).to_have_value(text)
            expect(verdict_of(page, key)).to_have_class(f"verdict {verdict}")
        expect(verdict_of(page, "awake").locator(".explanation")).to_contain_text("Three of the six faces")
        expect(verdict_of(page, "called").locator(".hint")).to_be_visible()
        expect(page.locator("#step-called button.show-answer")).to_be_visible()
        expect(page.locator("#step-awake .tick")).to_be_visible()
        expect(page.locator("#step-tie .verdict")).to_have_count(0)  # not answered: nothing to show

    same_state()
    shot(page, "lesson-nine-am-answers-360-en")
    # "Show the answer" on one question: its verdict changes, the others stay.
    page.locator("#step-called button.show-answer").click()
    expect(verdict_of(page, "called")).to_have_class("verdict shown")
    expect(verdict_of(page, "called")).to_be_focused()  # its button is gone: the focus is not lost
    expect(verdict_of(page, "awake")).to_have_class("verdict correct")
    answers[1] = ("called", "12%", "shown")
    page.reload()
    assert page.evaluate("() => window.notReloaded") is None
    for key, text, verdict in answers:
        expect(page.locator(f"#answer-{key}")).to_have_value(text)
        expect(verdict_of(page, key)).to_have_class(f"verdict {verdict}")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "lesson-nine-am-reloaded-360-en")
    assert page.errors == []
    page.context.close()


def test_without_javascript_answers_post_redirect_and_back_does_not_resubmit(server, browser):
    """The form works without JavaScript: 303 to the lesson (state in the session), so Back and reload are GETs."""
    expect = sync_api.expect
    page = new_page(browser, PHONE["width"], "en-GB", PHONE["height"], js=False)
    posts, redirects = [], []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.on("response", lambda r: redirects.append(r.status) if "/step/" in r.url else None)
    page.goto(f"{server}/lessons/silence")
    # No script: the full keyboard (no inputmode) types "/" and "%", so the extra keys stay hidden.
    box = page.locator("#answer-cheating")
    assert box.get_attribute("inputmode") is None
    expect(page.locator("#step-cheating .keypad")).to_be_hidden()
    box.fill("37.5%")
    page.locator("#step-cheating button.primary").click()
    expect(verdict_of(page, "cheating")).to_have_class("verdict correct")
    page.locator("#answer-p10").fill("1/6")
    page.locator("#step-p10 button.primary").click()
    expect(verdict_of(page, "p10")).to_have_class("verdict wrong")
    expect(verdict_of(page, "cheating")).to_have_class("verdict correct")  # the first answer is kept
    expect(page.locator("#answer-cheating")).to_have_value("37.5%")
    assert page.url == f"{server}/lessons/silence#step-p10"
    assert redirects == [303, 303] and len(posts) == 2
    shot(page, "lesson-silence-no-js-360-en")
    page.reload()
    expect(verdict_of(page, "p10")).to_have_class("verdict wrong")
    page.go_back()
    expect(page).to_have_url(f"{server}/lessons/silence#step-cheating")
    expect(verdict_of(page, "cheating")).to_have_class("verdict correct")
    assert len(posts) == 2  # neither the reload nor Back sent a form again
    page.context.close()


def test_slash_and_percent_keys_type_at_the_caret(server, browser):
    """The decimal keypad has no "/" or "%": the keys beside the box type them where the caret is."""
    expect = sync_api.expect
    page = new_page(browser, PHONE["width"], "ja-JP", PHONE["height"])
    page.goto(f"{server}/lessons/silence")
    box = page.locator("#answer-cheating")
    assert box.get_attribute("inputmode") == "decimal"
    slash, percent = page.locator("#step-cheating button.key").all()
    for key in (slash, percent):
        size = key.bounding_box()
        assert size["width"] >= 44 and size["height"] >= 44, size
    box.fill("38")
    box.evaluate("el => el.setSelectionRange(1, 1)")  # the caret between 3 and 8
    slash.click()
    expect(box).to_have_value("3/8")
    expect(box).to_be_focused()  # the key leaves the caret (and a phone's keyboard) in the box
    assert box.evaluate("el => el.selectionStart") == 2
    box.fill("37.5")
    percent.click()
    expect(box).to_have_value("37.5%")
    page.locator("#step-cheating button.primary").click()
    expect(verdict_of(page, "cheating")).to_have_class("verdict correct")
    shot(page, "lesson-silence-keys-360-ja")
    assert page.errors == []
    page.context.close()


CHARTS = ["silence/experiment/totals", "nine-am/experiment/called", "nine-am/experiment/choices",
          "dice-monsters/experiment/start", "gooball/experiment/push", "suji/experiment/value"]  # fmt: skip


@pytest.mark.parametrize("locale", ["ja-JP", "en-GB"])
def test_charts_are_legible_on_a_phone(server, browser, locale):
    """At 360 px every chart label is at least 11 px tall as rendered, and nothing overflows the page."""
    page = new_page(browser, PHONE["width"], locale, PHONE["height"])
    svg_page = new_page(browser, PHONE["width"], locale, PHONE["height"])
    for path in CHARTS:
        page.goto(f"{server}/lessons/{path}?n=500&seed=2")
        page.wait_for_function(
            "() => { const i = document.querySelector('figure.chart img'); return i.complete && i.naturalWidth > 0; }"
        )
        img = page.evaluate(
            "() => { const i = document.querySelector('figure.chart img');"
            " return {src: i.currentSrc, shown: i.getBoundingClientRect().width, natural: i.naturalWidth}; }"
        )
        assert "layout=narrow" in img["src"], img
        scale = img["shown"] / img["natural"]
        # The same SVG opened on its own is drawn at scale 1: its text sizes times `scale` are what the phone shows.
        svg_page.goto(img["src"])
        texts = svg_page.evaluate(
            """() => { const svg = document.documentElement.getBoundingClientRect();
                return [...document.querySelectorAll('text')].map(t => {
                  const r = t.getBoundingClientRect();
                  return {text: t.textContent, size: parseFloat(getComputedStyle(t).fontSize),
                          left: r.left - svg.left, right: r.right - svg.left, width: svg.width}; }); }"""
        )
        assert texts
        for t in texts:
            assert t["size"] * scale >= 11, (path, t, scale)
            assert t["left"] >= 0 and t["right"] <= t["width"], (path, t)  # no label cut off at the edge
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"], path
        shot(page, f"experiment-{path.replace('/experiment/', '-')}-360-{locale[:2]}")
    assert page.errors == []
    page.context.close()
    svg_page.context.close()


def test_charts_on_a_desk_use_the_wide_chart_at_full_size(server, browser):
    page = new_page(browser, 1280, "en-GB")
    page.goto(f"{server}/lessons/nine-am/experiment/called?n=500&seed=2")
    page.wait_for_function("() => document.querySelector('figure.chart img').naturalWidth > 0")
    img = page.evaluate(
        "() => { const i = document.querySelector('figure.chart img');"
        " return {src: i.currentSrc, shown: i.getBoundingClientRect().width, natural: i.naturalWidth}; }"
    )
    assert "layout=narrow" not in img["src"] and img["shown"] == img["natural"] == 760
    shot(page, "experiment-nine-am-called-1280-en")
    assert page.errors == []
    page.context.close()


PAGES = ["/lessons/", "/lessons/nine-am", "/lessons/dice-monsters", "/lessons/silence", "/lessons/gooball",
         "/lessons/suji", "/lessons/nine-am/play?seed=5", "/lessons/dice-monsters/play?seed=3",
         "/lessons/silence/play?seed=3", "/lessons/gooball/play?seed=5", "/lessons/silence/experiment/totals",
         "/lessons/dice-monsters/designer", "/lessons/dice-monsters/designer?dice=4+6+8+12+20&n=20"]  # fmt: skip


@pytest.mark.parametrize("locale", ["ja-JP", "en-GB"])
def test_lesson_pages_fit_a_phone_with_finger_sized_boxes(server, browser, locale):
    """At 360 × 740: no page wider than the phone, every text box and menu at least 44 px tall."""
    page = new_page(browser, PHONE["width"], locale, PHONE["height"])
    for path in PAGES:
        page.goto(server + path)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"], path
        heights = page.evaluate(
            """() => [...document.querySelectorAll('main input:not([type=hidden]), main select')]
                .filter(e => e.offsetParent !== null)
                .map(e => [e.id || e.name, e.getBoundingClientRect().height])"""
        )
        for name, height in heights:
            assert height >= 44, (path, name, height)
    shot(page, f"designer-360-{locale[:2]}")  # the last page: the designer with its results
    assert page.errors == []
    page.context.close()


def test_nine_am_break_is_chosen_before_the_status_roll(server, browser):
    """9am Class: the break is offered before anyone rolls; staying, the student then sees the roll."""
    expect = sync_api.expect
    page = new_page(browser, PHONE["width"], "en-GB", PHONE["height"])
    page.goto(f"{server}/lessons/nine-am/play?seed=5")
    expect(page.locator(".decision h2")).to_contain_text("before the dice are rolled")
    expect(page.locator("table.students")).to_contain_text("not rolled yet")
    shot(page, "play-nine-am-break-360-en")
    page.get_by_role("button", name="Stay in class").click()
    expect(page.locator(".outcome-panel")).to_contain_text("9:10: your die shows")
    expect(page.locator("table.students")).not_to_contain_text("not rolled yet")
    shot(page, "play-nine-am-after-360-en")
    assert page.errors == []
    page.context.close()


@pytest.mark.parametrize("locale", ["ja-JP", "en-GB"])
def test_the_wide_charts_keep_every_text_inside_the_picture(server, browser, locale):
    """On a tablet (the wide chart): no legend or label runs out of the picture (a Japanese legend with N in it
    was cut off at 「シミュレーション（」)."""
    page = new_page(browser, 820, locale, 1180)
    svg_page = new_page(browser, 820, locale, 1180)
    for path in CHARTS:
        page.goto(f"{server}/lessons/{path}?n=500&seed=2")
        page.wait_for_function(
            "() => { const i = document.querySelector('figure.chart img'); return i.complete && i.naturalWidth > 0; }"
        )
        src = page.evaluate("() => document.querySelector('figure.chart img').currentSrc")
        assert "layout=narrow" not in src, src
        # Drawn as the page's <img> draws it, with its own style sheet (opened at its address, the app's CSP would
        # keep the SVG's inline style out): its text, in a blank page.
        svg_page.set_content(page.request.get(src).text())
        texts = svg_page.evaluate(
            """() => { const svg = document.querySelector('svg').getBoundingClientRect();
                return [...document.querySelectorAll('text')].filter(t => t.textContent.trim()).map(t => {
                  const r = t.getBoundingClientRect();
                  return {text: t.textContent, left: r.left - svg.left, right: r.right - svg.left, width: svg.width}; }); }"""
        )
        assert texts
        for t in texts:
            assert t["left"] >= 0 and t["right"] <= t["width"] + 0.5, (path, t)
    assert page.errors == []
    page.context.close()
    svg_page.context.close()

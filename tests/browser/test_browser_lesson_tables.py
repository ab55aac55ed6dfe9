"""Lesson pages that fit and agree (issue 26, items 7 and 16), in a real browser at 360 and 1280 px, both languages.

Silence in Class!'s cards and Dice Monsters' stored matches never make the page scroll sideways and the verdict
is in view; a box that scrolls takes the keyboard; the live table's shares all have one decimal (9.0% beside
8.4%), the exact column is exact; Gooball's live die says it is the power and the row it counted is marked; the
Dice Monsters play page with thirty attacks is a phone's few screens, not ten. Screenshots: tests/screenshots/.
"""

from __future__ import annotations

import re

import pytest
from browser_support import require_chromium, served_app, shot

pytestmark = pytest.mark.browser

sync_api = require_chromium()

SIZES = ((360, 740), (1280, 800))
LANGS = ("en", "ja")
MANY_ATTACKS = "/lessons/dice-monsters/play?mine=gusty&theirs=torchy&seed=6"  # 32 attacks to choose from


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with served_app(tmp_path_factory.mktemp("instance")) as (_, url):
        yield url


def new_page(browser, url: str, lang: str, width: int, height: int):
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_cookies([{"name": "suji_lang", "value": lang, "url": url}])
    return context.new_page()


def page_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES)
def test_silence_cards_fit_with_the_verdict_in_view(server, browser, lang, size):
    page = new_page(browser, server, lang, *size)
    page.goto(f"{server}/lessons/silence")
    table = page.locator("#cards-table")
    assert page_width(page) <= size[0]
    width = table.evaluate("t => [t.scrollWidth, t.parentElement.clientWidth]")
    assert width[0] <= width[1], width  # the table fits its panel: nothing hidden to its right
    better = page.locator("#cards-table td.better").first
    box = better.bounding_box()
    assert box and box["x"] + box["width"] <= size[0]
    assert better.inner_text().strip()  # "take", "risk" or "even", written beside its heading on a phone
    table.scroll_into_view_if_needed()
    shot(page, f"silence-cards-{size[0]}-{lang}")
    page.context.close()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES)
def test_the_stored_matches_never_push_the_page_sideways(server, browser, lang, size):
    page = new_page(browser, server, lang, *size)
    page.goto(f"{server}/lessons/dice-monsters/experiment/matches")
    assert page_width(page) <= size[0]
    stored = page.locator("table.stored")
    cell = stored.locator("td").first.inner_text().strip()
    # On a phone the heading stands beside the value, as text of the page (so that it gets furigana)
    assert cell == ("10,000" if size[0] > 700 else {"en": "games: 10,000", "ja": "試合数：10,000"}[lang])
    shot(page, f"dice-monsters-matches-{size[0]}-{lang}")
    page.context.close()


def test_a_box_that_scrolls_takes_the_keyboard(server, browser):
    page = new_page(browser, server, "en", 360, 740)
    page.goto(f"{server}/lessons/nine-am/experiment/awake")
    box = page.locator("#main > .table-wrap")
    assert box.evaluate("b => b.scrollWidth > b.clientWidth")  # it does scroll at 360 px
    assert box.get_attribute("tabindex") == "0" and box.get_attribute("role") == "group"
    assert box.evaluate("b => b.getAttribute('aria-labelledby') && document.getElementById(b.getAttribute('aria-labelledby')).textContent.trim() !== ''")
    for _ in range(40):  # Tab along until the box has the focus, as a keyboard user would
        page.keyboard.press("Tab")
        if box.evaluate("b => document.activeElement === b"):
            break
    assert box.evaluate("b => document.activeElement === b")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelector('#main > .table-wrap').scrollLeft > 0")  # a function: no eval under the CSP
    page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_the_live_table_rounds_as_the_page_does_and_the_exact_column_is_exact(server, browser, lang):
    page = new_page(browser, server, lang, 1280, 800)
    page.goto(f"{server}/lessons/nine-am/experiment/awake?n=200&seed=3")
    page.select_option("#live-speed", "fast")
    page.locator("#live-play").click()
    sync_api.expect(page.locator("#live")).to_have_attribute("data-finished", "200", timeout=30_000)
    shares = page.locator("#live-rows td.value").all_inner_texts()
    exact = page.locator("#live-rows td.exact").all_inner_texts()
    assert shares and all(re.fullmatch(r"\d{1,3}\.\d%", s) for s in shares), shares  # 9.0%, never 9%
    assert all(re.fullmatch(r"\d{1,3}\.\d%", s) for s in exact), exact
    # The live run ends with the table's counts, and shows each share as the static table rounds it.
    static = [row.locator("td").nth(2).inner_text() for row in page.locator("table.outcome:not(.live-table) tbody tr").all()]
    assert shares == static
    page.goto(f"{server}/lessons/suji/experiment/reach")
    cells = page.locator("table.outcome:not(.live-table) tbody td:nth-child(2)").all_inner_texts()
    assert cells and not any("≈" in c for c in cells)  # the column headed "exact" holds exact fractions
    assert any(re.fullmatch(r"\d{6,}/\d{6,}", c.replace("\n", "")) for c in cells), cells
    page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_gooball_s_live_die_is_the_power_and_its_row_is_marked(server, browser, lang):
    page = new_page(browser, server, lang, 360, 740)
    page.goto(f"{server}/lessons/gooball/experiment/movement?n=50&seed=4")
    page.select_option("#live-speed", "slow")
    for done in range(1, 4):
        page.locator("#live-step").click()
        sync_api.expect(page.locator("#live")).to_have_attribute("data-done", str(done))
        power = int(page.locator("#live-dice .live-die").first.inner_text())
        label = page.locator("#live-dice .live-die-label").first.inner_text()
        assert ("power" in label) if lang == "en" else ("パワー" in label)
        marked = page.locator("#live-rows tr.last th").all_inner_texts()
        assert len(marked) == 1 and re.search(rf"\b{power + 5}\b", marked[0]), (power, marked)
    page.locator("#live").scroll_into_view_if_needed()
    shot(page, f"gooball-live-360-{lang}")
    page.context.close()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES)
def test_thirty_attacks_fit_a_phone(server, browser, lang, size):
    expect = sync_api.expect
    page = new_page(browser, server, lang, *size)
    page.goto(server + MANY_ATTACKS)
    buttons = page.locator("button.option")
    assert buttons.count() >= 30
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= 2400, height  # 6,290 px in Japanese before: the attacks are gathered by the die they take
    assert page_width(page) <= size[0]
    groups = page.locator("details.option-group")
    assert 2 <= groups.count() < buttons.count()
    shot(page, f"dice-monsters-play-{size[0]}-{lang}")
    groups.nth(1).locator("summary").click()
    first = groups.nth(1).locator("button.option").first
    expect(first).to_be_visible()
    odds = page.locator("#" + first.get_attribute("aria-describedby"))  # "+8 points, chance of losing it 1/2 (50.0%)"
    assert re.search(r"\d+(/\d+)? \(\d+\.\d%\)|\d+(/\d+)?（\d+\.\d%）", odds.inner_text())
    with page.expect_navigation():
        first.click()  # the attack is played: the page comes back with what happened
    expect(page.locator("[aria-labelledby=happened-h]")).to_be_visible()
    page.context.close()


def test_a_table_wider_than_the_phone_shows_a_shadow_where_more_of_it_is(server, browser):
    """A child did not guess that the ≥ table scrolls sideways: its edge with more table is shaded, and the
    shading goes once the end is reached."""
    import io

    from PIL import Image

    page = new_page(browser, server, "ja", 360, 740)
    page.goto(f"{server}/lessons/dice-monsters")
    box = page.locator(".table-wrap").first
    box.scroll_into_view_if_needed()
    assert box.evaluate("b => b.scrollWidth > b.clientWidth")

    def edge_darkness() -> tuple[int, int]:
        """How dark the box's leftmost and rightmost columns are, halfway down (255: white)."""
        shot_bytes = box.screenshot()
        image = Image.open(io.BytesIO(shot_bytes)).convert("L")
        y = image.height // 2
        return image.getpixel((1, y)), image.getpixel((image.width - 2, y))

    left, right = edge_darkness()
    assert right < 235 and left > 245  # more to the right: the right edge is shaded
    box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
    left, right = edge_darkness()
    assert left < 235 and right > 245  # at the end: the shade has moved to the left
    page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_a_wide_tables_caption_stays_readable_on_a_phone(server, browser, lang):
    """The caption of a table that scrolls sideways wraps to the screen and stays while the table scrolls under it
    (it ran off the edge with the table, cut mid-word)."""
    page = new_page(browser, server, lang, 360, 740)
    page.goto(f"{server}/lessons/dice-monsters/experiment/matches?n=40&seed=1")
    caption = page.locator("#outcome-caption")
    caption.scroll_into_view_if_needed()
    wrap = caption.evaluate("c => [c.closest('.table-wrap').scrollWidth, c.closest('.table-wrap').clientWidth]")
    assert wrap[0] > wrap[1], wrap  # the table is wider than the phone: this is the case in question
    before = caption.bounding_box()
    box = caption.evaluate("c => { const r = c.closest('.table-wrap').getBoundingClientRect(); return [r.left, r.right]; }")
    assert box[0] <= before["x"] and before["x"] + before["width"] <= box[1], (before, box)  # within its own box
    caption.evaluate("c => { c.closest('.table-wrap').scrollLeft = 200; }")
    after = caption.bounding_box()
    assert abs(after["x"] - before["x"]) < 1 and after["x"] + after["width"] <= box[1] + 1, (before, after)
    live = page.locator("#live-caption")  # the live run's table, in a panel of its own
    live.scroll_into_view_if_needed()
    live_box = live.evaluate("c => { const r = c.closest('.table-wrap').getBoundingClientRect(); return [r.left, r.right]; }")
    edge = live.bounding_box()
    assert live_box[0] <= edge["x"] and edge["x"] + edge["width"] <= live_box[1], (edge, live_box)
    shot(page, f"lesson-caption-scrolled-360-{lang}")
    page.context.close()

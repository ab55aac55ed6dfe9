"""What still tripped a new pupil, in a real browser (issue 26, items 2, 6, 10–14 and 17): the way back to "how to
play", one answer per target said and asked, the level's rule on the dice, the drill's result after a miss and
after copying the last hint, results in print, the ² die and the change-dice panel, words a pupil knows, the
daily puzzle's day and name, and joining a class. Screenshots at 360 and 1280 px in both languages.
"""

from __future__ import annotations

import random
import re
from datetime import date, datetime

import pytest
from browser_support import SHOTS, laid_out_box, require_chromium, served_app
from browser_support import shot as full_shot

pytestmark = pytest.mark.browser

sync_api = require_chromium()

from suji.play import games  # noqa: E402
from suji.rules.dice import Roll  # noqa: E402
from suji.web import drill_rolls  # noqa: E402
from suji.web.extensions import db  # noqa: E402
from suji.web.games import common as games_common  # noqa: E402
from suji.web.models import Game  # noqa: E402

# Level 1 with × ÷ ×10 dice (the "+ and −" roll); level 3: 3+56×8+6² = 487, the formula.
LEVEL_1 = Roll.of([1, 2, 4, 3, 5], ["+", "×", "÷", "×10"], [3, 2, 1])
PLUS_MINUS = Roll.of([1, 2, 4, 3, 5], ["+", "+", "−", "−"], [3, 2, 1])
LEVEL_3 = Roll.of([3, 5, 6, 8, 6], ["+", "×", "+", "²"], [4, 8, 7])
ROLLS = {1: LEVEL_1, 2: PLUS_MINUS, 3: LEVEL_3}
LOCALES = ["ja-JP", "en-US"]
WIDTHS = [360, 1280]
DAY: dict[str, date | None] = {"day": None}  # the daily puzzle's "today", when a test sets it


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    patch = pytest.MonkeyPatch()
    patch.setattr(drill_rolls, "roll_at", lambda level, seed: ROLLS[level])
    real_today = games_common.today
    patch.setattr(games_common, "today", lambda: DAY["day"] or real_today())
    with served_app(tmp_path_factory.mktemp("instance"), SUJI_GAMES_RNG=random.Random(11)) as (app, url):
        yield app, url
    patch.undo()


def open_page(browser, width: int, locale: str, timezone: str | None = None):
    context = browser.new_context(
        viewport={"width": width, "height": 740 if width < 600 else 800}, locale=locale, timezone_id=timezone
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("dialog", lambda dialog: dialog.accept())
    return page, errors


def shot(page, name: str) -> None:
    """The whole page (the bar laid in its place) and, as NAME-screen, what the screen shows."""
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-screen.png"))
    full_shot(page, name)


def tag(width: int, locale: str) -> str:
    return f"{width}-{locale[:2]}"


def main_text(page) -> str:
    return page.locator("main").inner_text()


# ---- item 2: how to play, from every page ----


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("locale", LOCALES)
def test_how_to_play_is_one_tap_away_on_every_page(served, browser, width, locale):
    _, url = served
    page, errors = open_page(browser, width, locale)
    page.goto(f"{url}/first/")
    page.locator("#skip").click()  # the first puzzle skipped: the home page no longer offers it
    sync_api.expect(page.locator("#first-link")).to_have_count(0)
    for path in ("/", "/drill/1", "/games/", "/practice/", "/lessons/", "/join"):
        page.goto(f"{url}{path}")
        link = page.locator("#how-to-play")
        sync_api.expect(link).to_be_visible()
        sync_api.expect(link).to_have_text("あそびかた" if locale == "ja-JP" else "How to play")
        assert page.evaluate(
            "() => { const r = document.querySelector('#how-to-play').getBoundingClientRect();"
            " return r.top >= 0 && r.right <= innerWidth && r.height >= 44; }"
        ), path
        if width == 360:
            assert laid_out_box(page.locator("header.site"))["height"] <= 110  # still two lines at most
    shot(page, f"issue26-how-to-play-{tag(width, locale)}")
    page.locator("#how-to-play").click()
    sync_api.expect(page.locator("#guide")).to_be_visible()
    assert errors == []


# ---- item 6: one answer per target ----


def hand_now(app, game_id: int) -> games.Hand:
    with app.app_context():
        game = db.session.get(Game, game_id)
        hand = game.rounds[game.current_round].answers[game.current_seat].hand()
        db.session.remove()
        return hand


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("locale", LOCALES)
def test_a_value_that_is_not_a_target_is_asked_about_before_it_costs_the_target(served, browser, width, locale):
    expect = sync_api.expect
    app, url = served
    page, errors = open_page(browser, width, locale)
    for where in ("solo", "daily"):
        if where == "solo":
            page.goto(f"{url}/games/")
            page.locator("#start-solo").click()
        else:
            page.goto(f"{url}/games/daily")
        expect(page.locator("#target-note")).to_be_visible()  # said before answering
        expect(page.locator("#target-note")).to_contain_text("0")
        number = page.locator("button.die-number").first.get_attribute("data-face")
        page.fill("#formula", number)  # one die: a number, never a three-digit target
        page.locator("#answer").click()
        confirm = page.locator("#confirm-answer")
        expect(confirm).to_be_visible()
        expect(confirm).to_contain_text(number)
        expect(page.locator("#answer")).to_be_visible()  # the target is still open
        expect(page.locator("#formula")).to_have_value(number)
        # On the screen, above the bar (not under it), the bar still in view.
        assert confirm.evaluate(
            "c => { const r = c.getBoundingClientRect(), bar = document.querySelector('#formula-form').getBoundingClientRect();"
            " return r.top >= 0 && r.bottom <= bar.top + 1 && bar.bottom <= innerHeight + 1; }"
        )
        shot(page, f"issue26-{where}-confirm-{tag(width, locale)}")
        if where == "solo":
            # A target goes in at once, no question asked.
            game_id = int(re.search(r"/games/(\d+)", page.url).group(1))
            _, best = games.best_for(hand_now(app, game_id).roll)
            if best:
                page.fill("#formula", best)
                page.locator("#answer").click()
                expect(page.locator("#result")).to_contain_text("✓")
                page.locator("#next").click()
                number = page.locator("button.die-number").first.get_attribute("data-face")
                page.fill("#formula", number)
                page.locator("#answer").click()
        page.locator("#answer-anyway").click()
        expect(page.locator("#result")).to_be_visible()
        expect(page.locator("#score")).to_contain_text("0")
        # Item 12: a miss shows its value, the formula in print.
        expect(page.locator("#result .formula-text")).to_contain_text(f"{number} = {number}")
        expect(page.locator("#not-target")).to_be_visible()
    assert errors == []


# ---- items 10 and 14: the level's rule on the dice, typing help of the roll's own dice ----


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("locale", LOCALES)
def test_a_level_1_drill_marks_its_bonus_dice_on_the_dice(served, browser, width, locale):
    expect = sync_api.expect
    _, url = served
    page, _ = open_page(browser, width, locale)
    page.goto(f"{url}/drill/1")
    operators = page.locator("button.die-operator")
    bonus = {operators.nth(i).get_attribute("data-face"): "die-bonus" in operators.nth(i).get_attribute("class")
             for i in range(operators.count())}  # fmt: skip
    assert bonus == {"+": False, "×": True, "÷": True, "×10": True}
    for i in range(operators.count()):
        die = operators.nth(i)
        star = die.locator(".bonus-mark")
        if bonus[die.get_attribute("data-face")]:
            expect(star).to_be_visible()
            assert re.search("bonus|おまけ", die.get_attribute("aria-label"))
        else:
            expect(star).to_have_count(0)
    expect(page.locator("#bonus-line")).to_be_visible()
    expect(page.locator("#level-note")).to_have_count(0)  # the three lines of text are gone
    typing = page.locator("#typing-help")
    expect(typing).to_contain_text("x → ×")
    assert "^2" not in typing.inner_text() and "sqrt" not in typing.inner_text() and "21" not in typing.inner_text()
    shot(page, f"issue26-level1-bonus-{tag(width, locale)}")
    page.goto(f"{url}/drill/3")
    expect(page.locator("button.die-bonus")).to_have_count(0)  # level 3 needs every operator
    expect(page.locator("#bonus-line")).to_have_count(0)
    page.goto(f"{url}/drill/2")  # a roll of + and − only: nothing to say about typing
    expect(page.locator("#typing-help")).to_have_count(0)


# ---- items 11 and 12: the drill's result ----


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("locale", LOCALES)
def test_a_drill_miss_offers_the_same_dice_first_and_results_are_in_print(served, browser, width, locale):
    expect = sync_api.expect
    _, url = served
    page, errors = open_page(browser, width, locale)
    page.goto(f"{url}/drill/3")
    page.fill("#formula", "3+5")
    page.locator("#check").click()
    expect(page.locator(".verdict")).to_have_class(re.compile("missed"))
    expect(page.locator(".verdict")).to_contain_text("3+5 = 8")
    again, nxt = page.locator("#try-again"), page.locator("#next-roll")
    expect(again).to_have_class(re.compile(r"\bprimary\b"))  # the main button after a miss
    expect(nxt).not_to_have_class(re.compile(r"\bprimary\b"))
    assert laid_out_box(again)["y"] <= laid_out_box(nxt)["y"] and (
        laid_out_box(again)["x"] < laid_out_box(nxt)["x"] or laid_out_box(again)["y"] < laid_out_box(nxt)["y"]
    )  # and the first one
    assert again.evaluate("a => a.getBoundingClientRect().bottom <= innerHeight")  # on the first screen
    assert not re.search("Scored formula|得点になる式", main_text(page))  # no "formula that scores" for a miss
    shot(page, f"issue26-drill-miss-{tag(width, locale)}")
    again.click()
    expect(page.locator("#formula")).to_have_value("3+5")  # the same dice, the formula kept
    page.fill("#formula", "3+56x8+6^2")  # typed: shown in print
    page.locator("#check").click()
    expect(page.locator("#verdict .printed-formula")).to_have_text("3+56×8+6²")
    assert "3+56x8+6^2" not in main_text(page)
    expect(page.locator("#try-again")).not_to_have_class(re.compile(r"\bprimary\b"))
    expect(page.locator("#next-roll")).to_have_class(re.compile(r"\bprimary\b"))
    assert errors == []


@pytest.mark.parametrize("locale", LOCALES)
def test_a_solve_copied_from_the_last_hint_does_not_count_for_the_streak(served, browser, locale):
    expect = sync_api.expect
    _, url = served
    page, errors = open_page(browser, 360, locale)
    page.goto(f"{url}/drill/3")
    for shown in range(1, 5):
        page.locator("#hint-button").click()
        expect(page.locator("#hint-list li")).to_have_count(shown)
    expect(page.locator("#hint-button")).to_be_disabled()
    last = page.locator("#hint-list li").nth(3).inner_text()
    copied = re.search(r"3\+56×8\+6²", last).group(0)
    page.fill("#formula", copied)
    page.locator("#check").click()
    expect(page.locator(".verdict")).to_have_class(re.compile(r"\bmade\b"))
    expect(page.locator(".streak")).to_contain_text("0")  # not counted
    expect(page.locator("#hints-used")).to_contain_text("4")
    expect(page.locator("#hints-used")).to_contain_text("連続正解" if locale == "ja-JP" else "streak")
    expect(page.locator(".score .big-score")).to_contain_text("ヒント" if locale == "ja-JP" else "hint")
    shot(page, f"issue26-drill-hint-copied-360-{locale[:2]}")
    # The next roll: one hint (still shown after a reload), then solved: it counts, and the hint is said.
    page.locator("#next-roll").click()
    page.locator("#hint-button").click()
    expect(page.locator("#hint-list li")).to_have_count(1)
    page.reload()
    expect(page.locator("#hint-list li")).to_have_count(1)
    page.fill("#formula", copied)
    page.locator("#check").click()
    expect(page.locator(".streak")).to_contain_text("1")
    expect(page.locator("#hints-used")).to_contain_text("1")
    expect(page.locator("#hints-used")).not_to_contain_text("連続正解" if locale == "ja-JP" else "streak")
    # And one solved with no hint at all says nothing of hints.
    page.locator("#next-roll").click()
    page.fill("#formula", copied)
    page.locator("#check").click()
    expect(page.locator(".streak")).to_contain_text("2")
    expect(page.locator("#hints-used")).to_have_count(0)
    assert errors == []


# ---- item 13: the ² die and the change-dice panel ----


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("locale", LOCALES)
def test_the_square_die_and_the_change_dice_panel_read_clearly(served, browser, width, locale):
    expect = sync_api.expect
    _, url = served
    page, errors = open_page(browser, width, locale)
    page.goto(f"{url}/drill/3")
    square = page.locator('button.die[data-face="²"]')
    assert square.locator(".die-square-box").count() == 1  # □², as the printed dice draw it
    two = square.locator("text")
    assert two.text_content() == "2" and float(two.evaluate("t => parseFloat(getComputedStyle(t).fontSize)")) >= 40
    shot(page, f"issue26-square-die-{tag(width, locale)}")
    page.goto(f"{url}/games/")
    page.locator("#start-solo").click()
    details = page.locator("#change-details")
    picker_dice = page.locator("label.pick .die")
    if details.get_attribute("open") is None:  # closed: the dice show once on the first screen
        expect(picker_dice.first).to_be_hidden()
        page.locator("#change-details > summary").click()
    expect(picker_dice.first).to_be_visible()
    for i in range(page.locator("label.pick").count()):
        pick = page.locator("label.pick").nth(i)
        box, die = laid_out_box(pick.locator("input")), laid_out_box(pick.locator(".die"))
        overlap = box["x"] < die["x"] + die["width"] and die["x"] < box["x"] + box["width"] and (
            box["y"] < die["y"] + die["height"] and die["y"] < box["y"] + box["height"]
        )
        assert not overlap, f"the box of die {i} covers its face"
    reroll = page.locator("#reroll")
    expect(reroll).to_be_disabled()
    expect(page.locator("#reroll-help")).to_be_visible()  # a greyed button says why
    below = laid_out_box(page.locator("#set-form"))["y"] - (laid_out_box(reroll)["y"] + laid_out_box(reroll)["height"])
    assert below >= 12, below  # not jammed against what follows
    page.locator("label.pick").first.click()
    expect(reroll).to_be_enabled()
    expect(page.locator("#reroll-help")).to_be_hidden()
    shot(page, f"issue26-change-dice-{tag(width, locale)}")
    assert errors == []


# ---- item 14: words a pupil knows; the daily puzzle's day and name ----

JARGON = {"ja-JP": ["確率表", "ソルバー", "シード"], "en-US": ["solver", "odds table", "seed", "期待値"]}


@pytest.mark.parametrize("locale", LOCALES)
def test_pupil_pages_use_no_jargon(served, browser, locale):
    _, url = served
    page, _ = open_page(browser, 360, locale)
    texts = {}
    for path in ("/", "/first/", "/drill/1", "/drill/3", "/games/", "/games/daily", "/practice/"):
        page.goto(f"{url}{path}")
        texts[path] = main_text(page)
    page.goto(f"{url}/games/")
    page.locator("#start-solo").click()
    if page.locator("#change-details:not([open]) > summary").count():
        page.locator("#change-details > summary").click()
    texts["solo"] = main_text(page)
    found = {where: [word for word in JARGON[locale] if word.lower() in text.lower()] for where, text in texts.items()}
    assert {where: words for where, words in found.items() if words} == {}


def test_the_expected_value_is_not_glossed_in_japanese_on_english_pages(served, browser):
    _, url = served
    page, _ = open_page(browser, 1280, "en-US")
    page.goto(f"{url}/lessons/nine-am")
    page.fill("#answer-good", "7/2")
    page.locator("#answer-good").press("Enter")
    sync_api.expect(page.locator("#step-good")).to_contain_text("The expected value is the average")
    assert "期待値" not in main_text(page)


@pytest.mark.parametrize(("path", "said", "not_said", "name"), [
    ("nine-am/experiment/awake", r"「起きている」は", r"起きているが", "issue26-live-status-360-ja"),
    # Gooball's rows are distances: ４インチ, not the axis title before the figure
    ("gooball/experiment/reach", r"「\d+インチ」は", r"インチ\s*\d", "live-status-inches-360-ja"),
])  # fmt: skip
def test_a_live_status_line_reads_as_japanese(served, browser, path, said, not_said, name):
    _, url = served
    page, _ = open_page(browser, 360, "ja-JP")
    page.goto(f"{url}/lessons/{path}?n=50&seed=9")
    page.locator("#live-step").click()
    status = page.locator("#live-status")
    sync_api.expect(status).to_contain_text("1回やったところ")
    text = status.inner_text()
    assert re.search(said, text) and not re.search(not_said, text), text
    shot(page, name)


@pytest.mark.parametrize("locale", LOCALES)
def test_the_daily_puzzle_says_whose_day_it_is_and_asks_a_name_first(served, browser, locale):
    expect = sync_api.expect
    _, url = served
    zone = "Japan Time" if locale == "en-US" else "日本時間"
    try:
        # A reader in New York on a day that is not the puzzle's (as on the evening before Japan's day).
        DAY["day"] = date(2030, 1, 2)
        page, _ = open_page(browser, 360, locale, timezone="America/New_York")
        page.goto(f"{url}/games/daily")
        day = page.locator("#day")
        expect(day).to_contain_text(zone)
        assert not re.search(r"\d{4}-\d{2}-\d{2}", day.inner_text())  # words, never ISO
        # The next start is in the reader's own time, and says so (the day above is the puzzle's).
        own = "(your time)" if locale == "en-US" else "（この端末の時刻）"
        expect(page.locator("#next-puzzle time")).to_contain_text(own)
        # No nickname yet: asked before the dice, on a phone's first screens.
        name_box = laid_out_box(page.locator("#nickname"))
        assert name_box["y"] < laid_out_box(page.locator("button.die").first)["y"]
        expect(page.locator("#nickname-ask")).to_be_visible()
        shot(page, f"issue26-daily-name-first-360-{locale[:2]}")
        page.fill("#nickname", "Aki")
        page.locator("#save-nickname").click()
        expect(page.locator("#nickname-ask")).to_have_count(0)  # named: the form goes back beside the ranking
        assert laid_out_box(page.locator("#nickname"))["y"] > laid_out_box(page.locator("button.die").first)["y"]
        # A reader whose date is the puzzle's: the plain label.
        DAY["day"] = datetime.now().astimezone().date()
        page, _ = open_page(browser, 1280, locale)
        page.goto(f"{url}/games/daily")
        expect(page.locator("#day")).not_to_contain_text(zone)
        tokyo, _ = open_page(browser, 1280, locale, timezone="Asia/Tokyo")  # the puzzle's own zone: no note
        tokyo.goto(f"{url}/games/daily")
        tokyo.wait_for_load_state("load")
        expect(tokyo.locator("#next-puzzle time")).not_to_contain_text(own)
        expect(tokyo.locator("#next-puzzle time")).to_contain_text(":")
        shot(page, f"issue26-daily-1280-{locale[:2]}")
    finally:
        DAY["day"] = None


# ---- item 17: joining a class ----


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("locale", LOCALES)
def test_joining_a_class_is_a_big_button_and_join_knows_a_pupil_already_in(served, browser, width, locale):
    expect = sync_api.expect
    _, url = served
    teacher, _ = open_page(browser, 1280, "en-US")
    teacher.goto(f"{url}/class/new")
    teacher.fill("#count", "1")
    teacher.click("#create")
    code = teacher.locator("#join-code").inner_text().strip()
    page, errors = open_page(browser, width, locale)
    page.goto(f"{url}/")
    join = page.locator("#join-link")
    expect(join).to_have_class(re.compile(r"\bbutton\b"))
    assert laid_out_box(join)["height"] >= 44
    shot(page, f"issue26-home-join-{tag(width, locale)}")
    join.click()
    page.wait_for_url(f"{url}/join")  # the join page's boxes (laid_out_box waits for its stylesheet)
    for box in ("#code", "#nickname", "#join"):
        assert laid_out_box(page.locator(box))["height"] >= 48, box
    expect(page.locator("#my-class")).to_have_count(0)
    page.fill("#code", code)
    page.fill("#nickname", "Mio")
    page.click("#join")
    expect(page.locator("#wait")).to_be_visible()
    # /join again: the way back to the class comes first.
    page.goto(f"{url}/join")
    back = page.locator("#my-class a")
    expect(back).to_contain_text(code)
    expect(back).to_contain_text("Mio")
    shot(page, f"issue26-join-again-{tag(width, locale)}")
    # A new name typed for the same class is not silently ignored.
    page.fill("#code", code)
    page.fill("#nickname", "Someone")
    page.click("#join")
    expect(page.locator(".flash")).to_contain_text("Mio")
    expect(page.locator(".flash")).to_contain_text("このクラスに入っている" if locale == "ja-JP" else "already in this class")
    back_link = page.locator("#wait")
    expect(back_link).to_be_visible()
    assert errors == []


# A label's lines as the browser lays them out: the left edge of each line of its text, top to bottom (one rectangle
# per piece of text on a line, from its text nodes; the ruby readings above them are left out).
_LINE_STARTS = """link => {
  const walker = document.createTreeWalker(link, NodeFilter.SHOW_TEXT);
  const pieces = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement.closest("rt") || !node.textContent.trim()) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) if (r.width >= 1) pieces.push([r.bottom, r.left]);
  }
  pieces.sort((a, b) => a[0] - b[0]);
  const lines = [];
  for (const [bottom, left] of pieces) {
    const line = lines.find(l => Math.abs(l.bottom - bottom) < 6);
    if (line) line.left = Math.min(line.left, left); else lines.push({bottom, left});
  }
  return lines.map(l => Math.round(l.left));
}"""


@pytest.mark.parametrize("locale", LOCALES)
def test_the_home_pages_long_links_wrap_as_lines_of_text(served, browser, locale):
    # On a phone the longer links of the home page wrap. Each label is one run of text, so its lines start at
    # one left edge; before, the text and each ruby of a Japanese label were items of the link's flex box, side
    # by side, and a label broke into ragged columns ("を / 確率学ぼ / う").
    _, url = served
    page, errors = open_page(browser, 360, locale)
    page.goto(f"{url}/")
    page.wait_for_load_state("load")
    links = page.locator("ul.levels a.button")
    assert links.count() >= 6
    wrapped = 0
    for i in range(links.count()):
        starts = links.nth(i).evaluate(_LINE_STARTS)
        assert len(set(starts)) == 1, (links.nth(i).inner_text(), starts)
        wrapped += len(starts) > 1
    assert wrapped >= 1  # at this width some label does wrap
    shot(page, f"home-links-{tag(360, locale)}")
    assert errors == []


def test_a_tapped_die_shows_at_the_end_of_a_formula_wider_than_its_box(served, browser):
    # On a phone a long formula is wider than its box: the box shows its end, the die just tapped (it showed
    # the start, "13×3+2×12×" without the 9 tapped last).
    _, url = served
    page, errors = open_page(browser, 360, "ja-JP")
    page.goto(f"{url}/drill/3")
    page.wait_for_load_state("load")
    box = page.locator("#formula")
    box.evaluate("i => { i.style.flex = '0 0 60px'; i.style.width = '60px'; i.style.minWidth = '0'; }")  # narrower than a few dice
    dice = page.locator("#drill button.die")
    for i in range(4):
        dice.nth(i).click()
        dialog = page.locator("#six-nine")
        if dialog.is_visible():
            dialog.locator("button").first.click()
    assert box.evaluate("i => i.scrollWidth > i.clientWidth")  # the formula overflows the box
    assert box.evaluate("i => i.scrollLeft + i.clientWidth >= i.scrollWidth - 1")  # and its end shows
    assert errors == []

"""The formula bar in a real browser (issue 26, items 1, 8 and 9): on every page that builds a formula (first
puzzle, drill, practice, solo game, daily puzzle, class) the formula, its value and the button that checks it stay
in view under the dice while they are tapped at 360×740 and 1280×800, and the verdict is in view, and focused,
after checking; without JavaScript nothing the scripts own shows, and the first puzzle still checks; with a
keyboard the focus ring stands out, used dice leave the tab order, the arrow keys move among the dice, and an
8-die formula takes at most 30 key presses.
"""

from __future__ import annotations

import re

import pytest
from browser_support import SHOTS, require_chromium, served_app

pytestmark = pytest.mark.browser

sync_api = require_chromium()

from suji.rules.dice import Roll  # noqa: E402
from suji.web import drill_rolls  # noqa: E402

# 3+54×8+2 = 437 with eight dice, no 6 (no "6 or 9?" question on the way); ² is a level-3 die.
ROLL = Roll.of([3, 5, 4, 8, 2], ["+", "×", "+", "²"], [4, 3, 7])
EIGHT_DICE = ["n0", "o0", "n1", "n2", "o1", "n3", "o2", "n4"]  # 3 + 5 4 × 8 + 2
PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1280, "height": 800}
LOCALES = ["ja-JP", "en-US"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    patch = pytest.MonkeyPatch()
    patch.setattr(drill_rolls, "roll_at", lambda level, seed: ROLL)
    with served_app(tmp_path_factory.mktemp("instance")) as (_, url):
        yield url
    patch.undo()


def open_page(browser, viewport: dict, locale: str, javascript: bool = True):
    context = browser.new_context(viewport=viewport, locale=locale, java_script_enabled=javascript)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("dialog", lambda dialog: dialog.accept())
    return page, errors


# ---- what "in view" means ----

IN_VIEW = """(selector) => {
  const el = document.querySelector(selector);
  if (!el) return false;
  const r = el.getBoundingClientRect();
  return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth;
}"""

# Whether a die can be seen and tapped where it is: the point at its centre is the die, not the bar over it.
UNCOVERED = """(die) => {
  const r = die.getBoundingClientRect();
  if (r.top < 0 || r.bottom > innerHeight) return false;
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !!hit && hit.closest("button.die") === die;
}"""


def bar_in_view(page) -> None:
    """The formula, its value and the page's button (Check or Answer) are all on the screen."""
    for part in ("#formula", "#formula-form .live", "#formula-form button[type=submit]"):
        assert page.evaluate(IN_VIEW, part), part
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def dice_on_first_screen(page) -> None:
    """Without scrolling, every die to build with is on the screen and not under the bar."""
    dice = page.locator("#drill button.die")
    assert dice.count() >= 8
    for i in range(dice.count()):
        assert dice.nth(i).evaluate(UNCOVERED), f"die {i} is below the screen or under the bar"


def screen_shot(page, name: str) -> None:
    """What the screen shows (not the whole page: a full-page shot lays the held bar back in its place)."""
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def tap(page, die) -> None:
    die.click()
    if page.locator("#six-nine").is_visible():
        page.locator("#six-nine button[value='6']").click()


def tap_all_and_watch(page) -> None:
    """Tap every die in turn (as a pupil trying things): the bar is in view after each tap."""
    dice = page.locator("#drill button.die")
    for i in range(dice.count()):
        tap(page, dice.nth(i))
        bar_in_view(page)
    sync_api.expect(page.locator("#live-value")).not_to_be_empty()


# ---- item 1: every page that builds a formula ----


@pytest.mark.parametrize("locale", LOCALES)
def test_the_first_puzzle_keeps_the_formula_its_value_and_check_in_view(server, browser, locale):
    expect = sync_api.expect
    for viewport in (PHONE, LAPTOP):
        page, errors = open_page(browser, viewport, locale)
        page.goto(f"{server}/first/")
        bar_in_view(page)
        page.locator("#guide [data-next]").click()
        dice_on_first_screen(page)  # the guide's step, the dice and the bar all on one screen
        numbers, operators = page.locator("button.die-number"), page.locator("button.die-operator")
        numbers.nth(0).click()
        page.locator("#six-nine button[value='9']").click()
        for die in (numbers.nth(1), operators.nth(0), numbers.nth(2), numbers.nth(3)):  # 9 2 + 3 3
            die.click()
            bar_in_view(page)
            assert page.locator("#guide li.current").evaluate(
                "li => li.getBoundingClientRect().top >= 0"
            ), "the guide's step scrolled away"
        expect(page.locator("#live-value")).to_contain_text("125")
        assert page.evaluate(IN_VIEW, "#live-value")  # step 5: "watch the value": it is there
        screen_shot(page, f"issue26-first-bar-{viewport['width']}-{locale[:2]}")
        page.locator("#check").click()
        expect(page.locator("#first-result")).to_contain_text("92+33 = 125")
        expect(page.locator("#first-result")).to_be_focused()
        assert page.evaluate(IN_VIEW, "#first-result")
        expect(page.locator("#guide li.current")).to_contain_text("1 × 4")
        expect(page.locator("#guide li.current")).to_be_in_viewport()  # the score explained, scrolled to
        assert page.evaluate(IN_VIEW, "#first-result")  # and the verdict still in view
        screen_shot(page, f"issue26-first-verdict-{viewport['width']}-{locale[:2]}")
        assert errors == []
        page.context.close()


@pytest.mark.parametrize("locale", LOCALES)
def test_a_drill_keeps_the_bar_in_view_and_focuses_the_verdict(server, browser, locale):
    expect = sync_api.expect
    for viewport in (PHONE, LAPTOP):
        page, errors = open_page(browser, viewport, locale)
        page.goto(f"{server}/drill/3")
        dice_on_first_screen(page)
        bar_in_view(page)
        tap_all_and_watch(page)
        screen_shot(page, f"issue26-drill-bar-{viewport['width']}-{locale[:2]}")
        page.locator("#clear").click()
        page.fill("#formula", "3+54x8+2")
        expect(page.locator("#live-value")).to_contain_text("437")
        page.locator("#check").click()
        expect(page.locator("#verdict")).to_be_focused()
        assert page.evaluate(IN_VIEW, "#verdict-h")
        assert errors == []
        page.context.close()


@pytest.mark.parametrize("locale", LOCALES)
def test_practice_and_the_games_keep_the_bar_in_view(server, browser, locale):
    expect = sync_api.expect
    for viewport in (PHONE, LAPTOP):
        page, errors = open_page(browser, viewport, locale)
        for start in ("/practice/", "/games/solo", "/games/daily"):
            if start == "/games/solo":
                page.goto(f"{server}/games/")
                page.locator("#start-solo").click()
            else:
                page.goto(f"{server}{start}")
            tap_all_and_watch(page)  # the bar comes with the dice (on a phone the goal, the name come first)
            name = start.strip("/").replace("/", "-")
            screen_shot(page, f"issue26-{name}-bar-{viewport['width']}-{locale[:2]}")
            # Give the answer up (the verdict follows): it is in view and has the focus.
            page.locator("#give-up").click()
            page.locator("#give-up-sure").click()  # asked in the page: yes
            verdict = page.locator(".verdict")
            expect(verdict).to_be_focused()
            assert verdict.evaluate("v => v.getBoundingClientRect().top < innerHeight")
        assert errors == []
        page.context.close()


def test_a_class_keeps_the_bar_in_view(server, browser):
    expect = sync_api.expect
    teacher, _ = open_page(browser, LAPTOP, "en-US")
    teacher.goto(f"{server}/class/new")
    teacher.fill("#count", "2")
    teacher.select_option("#level", "1")
    teacher.fill("#seed", "issue-26")
    teacher.click("#create")
    code = teacher.locator("#join-code").inner_text().strip()
    pupils = []
    for viewport, locale, name in (
        (PHONE, "ja-JP", "はると"), (PHONE, "en-US", "Ann"), (LAPTOP, "ja-JP", "ゆい"), (LAPTOP, "en-US", "Sam")
    ):
        page, errors = open_page(browser, viewport, locale)
        page.goto(f"{server}/join/{code}")
        page.fill("#nickname", name)
        page.click("#join")
        pupils.append((page, errors, viewport, locale))
    teacher.click("#start")
    for page, errors, viewport, locale in pupils:
        expect(page.locator("#problem-title")).to_be_visible(timeout=20_000)
        bar_in_view(page)
        tap_all_and_watch(page)
        screen_shot(page, f"issue26-class-bar-{viewport['width']}-{locale[:2]}")
        page.locator("#skip").click()
        page.locator("#skip-sure").click()  # asked in the page: yes
        expect(page.locator("#result")).to_be_focused()
        assert errors == []


# ---- item 8: without JavaScript ----


@pytest.mark.parametrize("locale", LOCALES)
def test_without_javascript_nothing_dead_shows_and_the_first_puzzle_checks(server, browser, locale):
    expect = sync_api.expect
    page, _ = open_page(browser, PHONE, locale, javascript=False)
    page.goto(f"{server}/drill/3")
    for dead in ("#undo", "#clear", "#hint-button", "#track-button"):
        expect(page.locator(dead)).to_be_hidden()  # the buttons the script shows do nothing without it
    page.goto(f"{server}/first/")
    expect(page.locator("#undo")).to_be_hidden()
    expect(page.locator("#guide li").nth(6)).to_be_visible()  # without the script, every step shows
    page.fill("#formula", "92+33")
    page.locator("#check").click()
    expect(page.locator("#first-result")).to_contain_text("92+33 = 125")
    expect(page.locator("#formula")).to_have_value("92+33")
    screen_shot(page, f"issue26-first-nojs-360-{locale[:2]}")
    page.fill("#formula", "92+31")
    page.locator("#check").click()
    expect(page.locator("#first-result")).to_contain_text("123")


# ---- item 9: the keyboard ----


def luminance(rgb: tuple[int, int, int]) -> float:
    def channel(c: int) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    la, lb = (luminance(tuple(int(x) for x in re.findall(r"\d+", c)[:3])) for c in (a, b))
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def test_the_focus_ring_stands_out_from_the_page_and_the_dice(server, browser):
    page, _ = open_page(browser, PHONE, "en-US")
    page.goto(f"{server}/drill/3")
    page.keyboard.press("Tab")  # the skip link
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")  # the first die
    assert page.evaluate("document.activeElement.dataset.index") == "0"
    ring = page.evaluate("getComputedStyle(document.activeElement).outlineColor")
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") == "solid"
    assert float(page.evaluate("parseFloat(getComputedStyle(document.activeElement).outlineWidth)")) >= 2
    beside = {
        "page": page.evaluate("getComputedStyle(document.body).backgroundColor"),
        "panel": page.evaluate("getComputedStyle(document.querySelector('.dice-panel')).backgroundColor"),
        "number die": page.evaluate("getComputedStyle(document.querySelector('.die-number .die-body')).fill"),
        "operator die": page.evaluate("getComputedStyle(document.querySelector('.die-operator .die-body')).fill"),
    }
    for what, colour in beside.items():
        assert contrast(ring, colour) >= 3, (what, ring, colour, contrast(ring, colour))
    screen_shot(page, "issue26-focus-ring-360-en")
    # On the blue header the ring is light.
    page.goto(f"{server}/")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")  # the brand link
    ring = page.evaluate("getComputedStyle(document.activeElement).outlineColor")
    header = page.evaluate("getComputedStyle(document.querySelector('header.site')).backgroundColor")
    assert contrast(ring, header) >= 3


def focused_die(page, expected: str | None = None) -> str | None:
    """The die with the focus ("n0", "o2"), or None; with `expected`, first wait (bounded) for the focus to get
    there (bounded generously for a busy machine: no speed is measured), since a dialog's close or a step's
    change moves the focus after the key's own event."""
    if expected is not None:
        try:
            page.wait_for_function(
                "(w) => { const d = document.activeElement; return !!d && d.matches('button.die') && d.dataset.kind[0] + d.dataset.index === w; }",
                arg=expected, timeout=20_000,
            )
        except sync_api.TimeoutError:
            pass  # the assertion below says where the focus is instead
    return page.evaluate(
        "(() => { const d = document.activeElement; return d && d.matches('button.die') ? d.dataset.kind[0] + d.dataset.index : null; })()"
    )


def route_to(page, wanted: str, presses: list[str]) -> None:
    """Move the focus to die `wanted` ("n2", "o1") with the arrow keys, as a pupil would: the other row first
    (Up or Down), then Left or Right towards it. Every key pressed is added to `presses`."""
    for _ in range(12):
        here = focused_die(page)
        assert here is not None, "the focus left the dice"
        if here == wanted:
            return
        if here[0] != wanted[0]:
            key = "ArrowDown" if wanted[0] == "o" else "ArrowUp"
        else:
            key = "ArrowRight" if int(wanted[1:]) > int(here[1:]) else "ArrowLeft"
        page.keyboard.press(key)
        presses.append(key)
    raise AssertionError(f"could not reach {wanted}")


@pytest.mark.parametrize("locale", LOCALES)
def test_an_eight_die_formula_takes_at_most_30_key_presses(server, browser, locale):
    expect = sync_api.expect
    page, errors = open_page(browser, LAPTOP, locale)
    page.goto(f"{server}/drill/3")
    presses: list[str] = []

    def press(key: str) -> None:
        page.keyboard.press(key)
        presses.append(key)

    press("Tab")  # "Skip to the content"
    press("Enter")
    press("Tab")  # into the dice: one stop for all of them
    for wanted in EIGHT_DICE:
        route_to(page, wanted, presses)
        press("Enter")
        used = page.locator(f'button.die[data-kind="{"number" if wanted[0] == "n" else "operator"}"][data-index="{wanted[1:]}"]')
        expect(used).to_have_class(re.compile(r"\bused\b"))
        assert used.get_attribute("tabindex") == "-1"  # a used die leaves the tab order
    expect(page.locator("#formula")).to_have_value("3+54×8+2")
    expect(page.locator("#live-value")).to_contain_text("437")
    press("Tab")  # out of the dice, to the formula
    assert page.evaluate("document.activeElement.id") == "formula"
    press("Enter")  # checks it
    expect(page.locator("#verdict")).to_be_focused()
    expect(page.locator("#verdict")).to_contain_text("437")
    print(f"8-die formula by keyboard ({locale}): {len(presses)} key presses: {' '.join(presses)}")
    assert len(presses) <= 30, presses
    assert errors == []


def test_the_first_puzzle_by_keyboard(server, browser):
    """OK by keyboard goes on to the dice (the focus is not left on the hidden step); Check focuses the verdict."""
    expect = sync_api.expect
    page, errors = open_page(browser, PHONE, "en-US")
    page.goto(f"{server}/first/")
    page.locator("#guide [data-next]").focus()
    page.keyboard.press("Enter")
    assert focused_die(page, "n0") == "n0"  # the 6
    page.keyboard.press("Enter")
    expect(page.locator("#six-nine")).to_be_visible()
    page.keyboard.press("Tab")  # from "6" to "9"
    page.keyboard.press("Enter")
    assert focused_die(page, "n1") == "n1"  # on to the 2
    page.keyboard.press("Enter")  # 2; the focus goes on to the first 3
    page.keyboard.press("ArrowDown")  # the × under it
    page.keyboard.press("ArrowRight")  # the + beside it
    assert focused_die(page, "o3") == "o3"
    page.keyboard.press("Enter")  # the focus goes round the row to the first free operator, the + at its start
    page.keyboard.press("ArrowUp")  # the nearest free number die: the first 3
    assert focused_die(page, "n2") == "n2"
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")  # the second 3
    expect(page.locator("#formula")).to_have_value("92+33")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(page.locator("#first-result")).to_be_focused()
    expect(page.locator("#first-result")).to_contain_text("92+33 = 125")
    assert errors == []


def test_arrows_backspace_and_the_tab_order_of_the_dice(server, browser):
    expect = sync_api.expect
    page, _ = open_page(browser, LAPTOP, "en-US")
    page.goto(f"{server}/drill/3")
    dice = page.locator("#drill button.die")
    assert [dice.nth(i).get_attribute("tabindex") for i in range(dice.count())].count("0") == 1  # one tab stop
    dice.first.focus()
    page.keyboard.press("ArrowRight")
    assert focused_die(page, "n1") == "n1"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")  # round the row's end
    assert focused_die(page, "n4") == "n4"
    page.keyboard.press("ArrowDown")
    assert focused_die(page, "o3") == "o3"  # the operator die under it
    page.keyboard.press("Home")
    assert focused_die(page, "o0") == "o0"
    page.keyboard.press("Enter")
    expect(page.locator("#formula")).to_have_value("+")
    assert focused_die(page, "o1") == "o1"  # on to the next free die of the row
    page.keyboard.press("Backspace")  # takes the last die back, and the focus goes to it
    expect(page.locator("#formula")).to_have_value("")
    assert focused_die(page, "o0") == "o0"
    screen_shot(page, "issue26-keyboard-1280-en")
    # Tab leaves the dice at once (141 Tabs crossed them before).
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "formula"
    page.keyboard.press("Shift+Tab")
    assert focused_die(page, "o0") == "o0"

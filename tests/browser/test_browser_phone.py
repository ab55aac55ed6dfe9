"""Phones (360×740), in a real browser: the first screen of a drill shows every die, and what a finger taps is
at least 44×44 CSS px (issue 11, "Phones and Japanese text")."""

from __future__ import annotations

import pytest
from browser_support import require_chromium, served_app, shot

pytestmark = pytest.mark.browser

sync_api = require_chromium()

from suji.rules.dice import Roll  # noqa: E402
from suji.web import drill_rolls  # noqa: E402

# Twelve targets (6 read as 9 too): the longest target list a roll can have.
ROLL = Roll.of([6, 2, 3, 3, 1], ["+", "−", "×", "×11"], [6, 2, 8])


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setattr(drill_rolls, "roll_at", lambda level, seed: ROLL)
    with served_app(tmp_path_factory.mktemp("instance")) as (_, url):
        yield url
    mp.undo()


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_a_drills_dice_are_on_the_first_screen(server, browser, locale):
    page = browser.new_context(viewport={"width": 360, "height": 740}, locale=locale).new_page()
    page.goto(f"{server}/drill/2")
    assert len(ROLL.targets) == 12
    header = page.locator("header.site").bounding_box()
    assert header and header["height"] <= 110
    for kind in ("number", "operator"):
        dice = page.locator(f"button.die-{kind}")
        for i in range(dice.count()):
            box = dice.nth(i).bounding_box()
            assert box and box["y"] + box["height"] <= 740, (kind, i, box)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, f"phone-drill-first-screen-{locale}")


TAPPABLE = "a, button, summary, select, input[type=radio], input[type=checkbox], label.pick"


def _small_targets(page) -> list[str]:
    """Visible tappable things smaller than 44×44 (a radio or checkbox counts with its label)."""
    return page.evaluate(
        """(selector) => {
          const small = [];
          for (const el of document.querySelectorAll(selector)) {
            const target = (el.type === "radio" || el.type === "checkbox") ? (el.closest("label") || el) : el;
            const r = target.getBoundingClientRect();
            const style = getComputedStyle(el);
            if (!r.width || !r.height || style.visibility === "hidden" || el.closest("[hidden]")) continue;
            if (el.classList.contains("skip") || el.closest(".visually-hidden")) continue;
            if (r.width < 44 || r.height < 44) small.push(`${el.tagName} ${el.id || el.textContent.trim().slice(0, 20)} ${Math.round(r.width)}×${Math.round(r.height)}`);
          }
          return small;
        }""",
        TAPPABLE,
    )


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/drill/2",
        "/drill/",
        "/games/",
        "/games/daily",
        "/games/party",
        "/worksheets/",
        "/worksheets/dice",
        "/lessons/",
        "/lessons/nine-am",
        "/lessons/suji",
        "/lessons/gooball/experiment/reach",
        "/first/",
    ],
)
def test_everything_a_finger_taps_is_at_least_44_px(server, browser, path):
    page = browser.new_context(viewport={"width": 360, "height": 740}, locale="ja-JP").new_page()
    page.goto(f"{server}{path}")
    assert _small_targets(page) == []


# Words that must never be split across lines (the review saw お/題 and 得/点), and a line never starts with ー.
JS_BAD_BREAKS = """() => {
  const bad = [];
  const walker = document.createTreeWalker(document.querySelector("main"), NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent;
    let previousTop = null;
    for (let i = 0; i < text.length; i++) {
      if (/\\s/.test(text[i])) continue;
      range.setStart(node, i); range.setEnd(node, i + 1);
      const rect = range.getClientRects()[0];
      if (!rect) continue;
      if (previousTop !== null && Math.abs(rect.top - previousTop) > rect.height / 2) {
        const pair = text[i - 1] + text[i];
        if (text[i] === "ー" || pair === "お題" || pair === "得点") bad.push(text.slice(Math.max(0, i - 6), i + 6));
      }
      previousTop = rect.top;
    }
  }
  return bad;
}"""


@pytest.mark.parametrize("path", ["/", "/drill/2", "/games/", "/games/daily", "/worksheets/", "/lessons/"])
def test_japanese_lines_keep_words_whole(server, browser, path):
    page = browser.new_context(viewport={"width": 360, "height": 740}, locale="ja-JP").new_page()
    page.goto(f"{server}{path}")
    assert page.evaluate("getComputedStyle(document.body).wordBreak") in ("auto-phrase", "keep-all")
    assert page.evaluate(JS_BAD_BREAKS) == []

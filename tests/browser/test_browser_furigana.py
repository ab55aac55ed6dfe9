"""Furigana in a real browser at 360 px (issue 25): ruby above the kanji a pupil has not learnt, set by the
switch at the foot of the page; teacher pages without unless chosen. Screenshots: tests/screenshots/."""

from __future__ import annotations

import pytest
from browser_support import require_chromium, served_app, shot

pytestmark = pytest.mark.browser

sync_api = require_chromium()

from suji.core.furigana import kanji_grade  # noqa: E402

PHONE = {"width": 360, "height": 740}

# The kanji of the page's visible text outside <ruby> (and outside what cannot carry it: options, SVG…).
BARE_KANJI = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest("ruby, script, style, option, select, svg, [lang]:not([lang=ja]), [data-furigana=no]")) continue;
    if (el.closest("[hidden]")) continue;
    out.push(node.textContent);
  }
  return out.join("");
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with served_app(tmp_path_factory.mktemp("instance")) as (_, url):
        yield url


def _phone(browser):
    return browser.new_context(viewport=PHONE, locale="ja-JP").new_page()


def _bare_above(page, grade: int) -> set[str]:
    return {ch for ch in page.evaluate(BARE_KANJI) if kanji_grade(ch) > grade}


@pytest.mark.parametrize(("path", "name"), [("/lessons/silence", "lesson-silence"), ("/drill/1", "drill-1"),
                                            ("/", "home")])  # fmt: skip
def test_pupil_pages_have_ruby_above_4_nen_on_a_phone(server, browser, path, name):
    page = _phone(browser)
    page.goto(f"{server}{path}")
    assert page.locator("ruby").count() > 0
    assert _bare_above(page, 4) == set()
    # ruby is drawn above its text, not beside it: the reading sits higher than the kanji
    ruby = page.locator("main ruby").first
    base, reading = ruby.bounding_box(), ruby.locator("rt").bounding_box()
    assert base and reading and reading["y"] < base["y"] + base["height"] / 2
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, f"furigana-{name}-4nen-360-ja")


def test_the_switch_at_the_foot_sets_the_grade_for_every_page(server, browser):
    page = _phone(browser)
    page.goto(f"{server}/drill/1")
    page.select_option("#furigana-grade", "2")
    page.click("form.furigana button[type=submit]")
    page.wait_for_url(f"{server}/drill/1")
    assert page.locator("#furigana-grade").input_value() == "2"
    assert _bare_above(page, 2) == set() and page.locator("ruby").count() > 10
    shot(page, "furigana-drill-1-2nen-360-ja")
    page.goto(f"{server}/lessons/nine-am")
    assert _bare_above(page, 2) == set()
    page.locator("footer.site").scroll_into_view_if_needed()
    shot(page, "furigana-lesson-nine-am-2nen-footer-360-ja")
    page.select_option("#furigana-grade", "0")
    page.click("form.furigana button[type=submit]")
    page.wait_for_url(f"{server}/lessons/nine-am")
    assert page.locator("ruby").count() == 0


def test_teacher_pages_have_none_until_a_grade_is_chosen(server, browser):
    page = _phone(browser)
    page.goto(f"{server}/class/new")
    assert page.locator("ruby").count() == 0
    shot(page, "furigana-class-new-none-360-ja")
    page.select_option("#furigana-grade", "3")
    page.click("form.furigana button[type=submit]")
    page.wait_for_url(f"{server}/class/new")
    assert page.locator("ruby").count() > 0 and _bare_above(page, 3) == set()
    shot(page, "furigana-class-new-3nen-360-ja")


def test_a_japanese_worksheet_prints_with_ruby(server, browser):
    page = _phone(browser)
    page.goto(f"{server}/worksheets/print?count=2&level=1&seed=fu&lang=ja&furigana=4&score=yes")
    sheet = page.locator(".ws-sheet").first
    assert sheet.locator("ruby").count() > 0
    assert page.locator(".ws-key ruby").count() == 0
    shot(page, "furigana-worksheet-print-4nen-360-ja")

"""The pages of a deployment's bad moments in a real browser (Playwright, Debian's chromium): the database away
(503) on a phone in Japanese and on a laptop in English, and a pupil's device past the limit of wrong codes.
Screenshots go to tests/screenshots/."""

from __future__ import annotations

import sqlite3

import pytest
from browser_support import require_chromium, served_app, shot

pytestmark = pytest.mark.browser

sync_api = require_chromium()


@pytest.mark.parametrize("width, height, locale, lang, text", [
    (360, 740, "ja-JP", "ja", "少し待って"), (1280, 800, "en-US", "en", "Wait a moment"),
])  # fmt: skip
def test_the_503_page_reads_well_while_the_database_is_away(browser, tmp_path, width, height, locale, lang, text):
    with served_app(tmp_path / "instance", SQLITE_BUSY_TIMEOUT_MS=100) as (app, url):
        context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
        page = context.new_page()
        page.goto(f"{url}/games/")  # the schema made, a player's page drawn
        holder = sqlite3.connect(tmp_path / "instance" / "suji.sqlite3", isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")  # the write lock held elsewhere (a backup, a stuck process)
        try:
            with page.expect_response(lambda r: r.request.method == "POST") as answer:
                page.locator("form[action='/games/solo'] button[type=submit]").first.click()
            response = answer.value
            assert response.status == 503 and int(response.headers["retry-after"]) > 0
            sync_api.expect(page.locator("main")).to_contain_text(text)
            assert page.locator("html").get_attribute("lang") == lang
            # The page fits the screen: no sideways scrolling on a phone
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            shot(page, f"database-away-{width}-{lang}")
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        page.goto(f"{url}/games/")
        assert page.locator("form[action='/games/solo']").count() == 1  # back by itself
        context.close()


def test_a_device_past_the_limit_of_wrong_codes_is_told_to_wait(browser, tmp_path):
    with served_app(tmp_path / "instance", SUJI_CLASS_JOIN_LIMIT=2) as (_, url):
        context = browser.new_context(viewport={"width": 360, "height": 740}, locale="ja-JP")
        page = context.new_page()
        for code in ("AAAAAA", "AAAAAC", "AAAAAD"):
            page.goto(f"{url}/join")
            page.fill("#code", code)
            page.fill("#nickname", "けん")
            page.locator("form[action='/join'] button[type=submit]").click()
        sync_api.expect(page.locator("main")).to_contain_text("待って")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        shot(page, "class-join-too-many-360-ja")
        context.close()

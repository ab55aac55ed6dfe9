"""A real browser (Playwright, Debian's chromium) makes a worksheet: fills the settings, opens the print view,
prints it to PDF, and keeps screenshots in tests/screenshots/ (git-ignored) for a human look.
"""

from __future__ import annotations

import io
from urllib.parse import parse_qs, urlsplit

import pytest
from browser_support import SHOTS, require_chromium, served_app, shot

pytestmark = pytest.mark.browser

sync_api = require_chromium()
pypdf = pytest.importorskip("pypdf", reason="pypdf is not installed (pip install pypdf)")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The app (CSRF on, as in production) on 127.0.0.1 and a free port, in a thread."""
    with served_app(tmp_path_factory.mktemp("instance")) as (_, url):
        yield url


def new_page(browser, width: int, locale: str):
    context = browser.new_context(viewport={"width": width, "height": 900}, locale=locale)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page, errors


def test_make_a_sheet_from_the_form_and_print_it(server, browser):
    expect = sync_api.expect
    page, errors = new_page(browser, 1280, "ja-JP")
    page.goto(f"{server}/worksheets/")
    shot(page, "worksheets-settings-1280-ja")
    page.fill("#ws-count", "5")
    page.check("input[name=level][value='3']")
    page.fill("#ws-versions", "2")
    page.fill("#ws-title", "4年2組 すうじであそぼ")
    page.check("input[name=paper][value=a4]")
    page.click(".ws-form button[type=submit]")
    expect(page.locator("#ws-ready-title")).to_be_visible()
    query = parse_qs(urlsplit(page.url).query)
    assert query["count"] == ["5"] and query["level"] == ["3"] and query["versions"] == ["2"]
    seed = query["seed"][0]
    assert seed  # the URL names the sheet: the server put a seed in
    shot(page, "worksheets-ready-1280-ja")

    page.click("text=印刷用ページを開く")
    expect(page.locator(".ws-problem")).to_have_count(10)
    expect(page.locator(".ws-toolbar")).to_be_visible()
    assert page.locator("h1").first.inner_text() == "4年2組 すうじであそぼ"
    # The print number is a small number at the foot of the page, named in full only in its tooltip.
    footer_number = page.locator(".ws-foot .ws-seed").first
    assert footer_number.inner_text() == seed
    assert footer_number.get_attribute("title") == f"プリント番号：{seed}"
    # Dice are drawn: squares with rounded corners, the face in the middle of the die.
    die = page.locator(".ws-problem").first.locator("svg.ws-die").first
    box = die.bounding_box()
    assert box and abs(box["width"] - box["height"]) < 0.5 and box["width"] > 25
    text_box = die.locator("text").bounding_box()
    assert text_box
    centre_x, centre_y = text_box["x"] + text_box["width"] / 2, text_box["y"] + text_box["height"] / 2
    assert abs(centre_x - (box["x"] + box["width"] / 2)) < box["width"] * 0.1
    assert abs(centre_y - (box["y"] + box["height"] / 2)) < box["height"] * 0.15
    shot(page, "worksheets-print-screen-1280-ja")

    # On paper: no toolbar, each version and the key on sheets of their own.
    page.emulate_media(media="print")
    expect(page.locator(".ws-toolbar")).to_be_hidden()
    shot(page, "worksheets-print-media-ja")
    pdf = pypdf.PdfReader(io.BytesIO(page.pdf(prefer_css_page_size=True)))
    texts = ["".join(p.extract_text().split()) for p in pdf.pages]
    assert len(texts) == 3, [t[:60] for t in texts]
    assert "プリントA" in texts[0] and "プリントB" in texts[1] and "解答" in texts[2]
    assert float(pdf.pages[0].mediabox.width) == pytest.approx(595.3, abs=1)  # A4
    assert errors == []


def test_letter_paper_without_key_and_a_bad_value(server, browser):
    expect = sync_api.expect
    page, errors = new_page(browser, 360, "en-US")
    page.goto(f"{server}/worksheets/?count=50&level=1&seed=phone&lang=en&paper=letter&versions=1&key=no")
    expect(page.locator("#ws-errors")).to_contain_text("from 1 to 30")
    expect(page.locator("#ws-count")).to_have_attribute("aria-invalid", "true")
    shot(page, "worksheets-error-360-en")
    assert errors == ["Failed to load resource: the server responded with a status of 400 (BAD REQUEST)"]
    errors.clear()  # the form with an error is answered with 400 on purpose; chromium logs that
    page.fill("#ws-count", "3")
    page.click(".ws-form button[type=submit]")
    expect(page.locator("#ws-ready-title")).to_be_visible()
    page.click("text=Open the print view")
    expect(page.locator(".ws-problem")).to_have_count(3)
    shot(page, "worksheets-print-screen-360-en")
    page.emulate_media(media="print")
    pdf = pypdf.PdfReader(io.BytesIO(page.pdf(prefer_css_page_size=True)))
    (SHOTS / "worksheets-print-letter-en.pdf").write_bytes(page.pdf(prefer_css_page_size=True))
    assert len(pdf.pages) == 1  # three problems, no key
    assert float(pdf.pages[0].mediabox.width) == pytest.approx(612, abs=1)  # Letter
    assert errors == []


def test_the_print_button_opens_the_print_dialog(server, browser):
    page, errors = new_page(browser, 1280, "en-US")
    page.add_init_script("window.print = () => { document.body.dataset.printed = 'yes'; };")
    page.goto(f"{server}/worksheets/print?count=1&seed=button&lang=en")
    page.click("button[data-print]")
    assert page.locator("body").get_attribute("data-printed") == "yes"
    assert errors == []


def test_mixed_sheet_with_a_long_title_in_the_print_view(server, browser):
    expect = sync_api.expect
    page, errors = new_page(browser, 1280, "ja-JP")
    title = "Wortschatzübungsblattfürdiemathematikstundeamfreitagnachmitt"  # 60 letters, no place to break
    page.goto(f"{server}/worksheets/print?count=4&level=mixed&seed=wide&lang=ja&versions=2&title={title}")
    expect(page.locator(".ws-problem")).to_have_count(8)
    expect(page.locator(".ws-problem-level")).to_have_count(8)
    # Every label reads レベル1, 2 or 3, under its number and left of the dice.
    for i in range(8):
        problem = page.locator(".ws-problem").nth(i)
        label, number = problem.locator(".ws-problem-level"), problem.locator(".ws-number")
        assert label.inner_text() in ("レベル1", "レベル2", "レベル3")
        label_box, number_box = label.bounding_box(), number.bounding_box()
        die_box = problem.locator("svg.ws-die").first.bounding_box()
        assert label_box and number_box and die_box
        assert label_box["y"] >= number_box["y"] + number_box["height"] - 1
        assert label_box["x"] + label_box["width"] <= die_box["x"] + 1
    # The long title wraps inside the sheet and leaves the version box alone.
    sheet = page.locator(".ws-sheet").first
    heading, version = sheet.locator("h1"), sheet.locator(".ws-version")
    sheet_box, heading_box, version_box = sheet.bounding_box(), heading.bounding_box(), version.bounding_box()
    assert sheet_box and heading_box and version_box
    assert heading_box["x"] + heading_box["width"] <= version_box["x"]
    assert heading.evaluate("h => h.scrollWidth <= h.clientWidth + 1")
    assert heading_box["height"] > 40  # two lines
    shot(page, "worksheets-print-mixed-long-title-1280-ja")
    page.emulate_media(media="print")
    pdf = pypdf.PdfReader(io.BytesIO(page.pdf(prefer_css_page_size=True)))
    (SHOTS / "worksheets-print-mixed-ja.pdf").write_bytes(page.pdf(prefer_css_page_size=True))
    texts = ["".join(p.extract_text().split()) for p in pdf.pages]
    assert len(texts) == 3 and "ミックス：問題のレベル" in texts[0] and "レベル" in texts[2]
    assert errors == []


def _seed(url: str) -> str:
    return parse_qs(urlsplit(url).query)["seed"][0]


def test_make_again_gives_new_dice_unless_the_teacher_typed_a_seed(server, browser):
    expect = sync_api.expect
    page, errors = new_page(browser, 1280, "en-US")
    page.goto(f"{server}/worksheets/")
    page.fill("#ws-count", "4")
    make = page.locator(".ws-form button[type=submit]")
    make.click()
    expect(page.locator("#ws-ready-title")).to_be_visible()
    first, bookmark = _seed(page.url), page.url
    # The sheet's seed is shown beside its links, not put into the seed box.
    expect(page.locator("#ws-made-seed")).to_have_text(first)
    expect(page.locator("#ws-seed")).to_have_value("")
    assert f"seed={first}" in (page.get_by_role("link", name="Download the PDF").get_attribute("href") or "")
    shot(page, "worksheets-made-1280-en")
    make.click()  # Make again, the seed box untouched: new dice
    expect(page.locator("#ws-made-seed")).not_to_have_text(first)
    second = _seed(page.url)
    assert second != first
    # The bookmark still gives the first sheet.
    page.goto(bookmark)
    expect(page.locator("#ws-made-seed")).to_have_text(first)
    # From the print view, "Change the settings" and Make: new dice again.
    page.get_by_role("link", name="Open the print view").click()
    page.get_by_role("link", name="Change the settings").click()
    expect(page.locator("#ws-seed")).to_have_value("")
    make.click()
    expect(page.locator("#ws-made-seed")).not_to_have_text(first)
    # "Keep this seed for the next sheet" puts the seed into the box: Make then keeps the dice.
    kept = _seed(page.url)
    page.locator(".ws-keep-seed").click()
    expect(page.locator("#ws-seed")).to_have_value(kept)
    page.fill("#ws-title", "Friday")
    make.click()
    expect(page.locator("#ws-made-seed")).to_have_text(kept)
    # A seed the teacher typed stays in the box, and Make again keeps it.
    page.fill("#ws-seed", "class 4-2")
    make.click()
    expect(page.locator("#ws-made-seed")).to_have_text("class 4-2")
    expect(page.locator("#ws-seed")).to_have_value("class 4-2")
    make.click()
    expect(page.locator("#ws-made-seed")).to_have_text("class 4-2")
    assert _seed(page.url) == "class 4-2"
    assert errors == []


# Problems on each page of a version (suji.worksheets.sheet.page_sizes): no page is left half empty.
PAGES_PER_VERSION = {5: [5], 6: [6], 8: [8], 10: [5, 5], 12: [6, 6]}
# The width of the paper inside its margins, in CSS pixels: laid out at this width, the page on screen in print
# media is the page on paper.
CONTENT_WIDTH = {"a4": round(182 / 25.4 * 96), "letter": round(187.9 / 25.4 * 96)}


@pytest.mark.parametrize(("paper", "level"), [("a4", "1"), ("letter", "mixed")])
def test_print_view_fills_whole_pages_and_names_the_version_on_each(server, browser, paper, level):
    page, errors = new_page(browser, CONTENT_WIDTH[paper], "ja-JP")
    for count, sizes in PAGES_PER_VERSION.items():
        page.goto(
            f"{server}/worksheets/print?count={count}&level={level}&seed=pages{count}&lang=ja&paper={paper}"
            "&versions=2&key=no"
        )
        page.emulate_media(media="print")
        pdf = pypdf.PdfReader(io.BytesIO(page.pdf(prefer_css_page_size=True)))
        texts = ["".join(p.extract_text().split()) for p in pdf.pages]
        assert len(texts) == 2 * len(sizes), (count, [t[:40] for t in texts])
        for i, text in enumerate(texts):
            version, number = divmod(i, len(sizes))
            assert f"プリント{'AB'[version]}" in text, (count, i)  # every page, continuation pages too
            if len(sizes) > 1:
                assert f"{number + 1}/{len(sizes)}ページ" in text, (count, i)
        # On each page the boxes reach the foot line (or their greatest height), and nothing runs over it.
        for sheet in page.locator(".ws-page").all():
            problems = sheet.locator(".ws-problem")
            assert problems.count() in sizes
            fit = sheet.evaluate(
                """s => { const page = s.getBoundingClientRect();
                          const boxes = [...s.querySelectorAll('.ws-problem')].map(p => p.getBoundingClientRect());
                          // the page's small foot line (the print number) sits under the last box
                          const foot = s.querySelector('.ws-foot');
                          const floor = foot ? foot.getBoundingClientRect().top : page.bottom;
                          return {over: s.scrollHeight - s.clientHeight, gap: floor - boxes.at(-1).bottom,
                                  tallest: Math.max(...boxes.map(b => b.height))}; }"""
            )
            assert fit["over"] <= 0, (count, fit)
            assert fit["gap"] < 2 or fit["tallest"] >= 50 / 25.4 * 96 - 1, (count, fit)
        if count in (8, 12):
            name = f"worksheets-print-{count}-{paper}-ja"
            (SHOTS / f"{name}.pdf").write_bytes(page.pdf(prefer_css_page_size=True))
            page.emulate_media(media="screen")
            shot(page, f"{name}-screen")
    assert errors == []


def test_the_level_choices_show_their_whole_text_on_a_phone(server, browser):
    page, errors = new_page(browser, 360, "ja-JP")
    page.goto(f"{server}/worksheets/")
    labels = page.locator("input[name=level]").locator("xpath=..")
    assert labels.count() == 4
    for i in range(4):
        label = labels.nth(i)
        box = label.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360
        assert label.evaluate("l => l.scrollWidth <= l.clientWidth && l.scrollHeight <= l.clientHeight")
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    page.locator("input[name=level][value=mixed]").check()
    page.fill("#ws-count", "2")
    page.locator(".ws-form button[type=submit]").click()
    assert parse_qs(urlsplit(page.url).query)["level"] == ["mixed"]
    sync_api.expect(page.locator("input[name=level][value=mixed]")).to_be_checked()
    shot(page, "worksheets-settings-360-ja")
    assert errors == []

"""Worksheet pages through the Flask test client: settings form, URL-kept settings, print view, PDF, JSON, errors."""

from __future__ import annotations

import io
import re
from html import unescape
from urllib.parse import parse_qs, urlsplit

import pytest

from suji.worksheets.sheet import Settings, build_worksheet

pypdf = pytest.importorskip("pypdf", reason="pypdf is not installed (pip install pypdf)")

QUERY = "count=4&level=2&seed=web&lang=en&paper=a4&versions=2&targets=list&title=&name=yes&key=yes"


def get(client, url, lang="ja"):
    return client.get(url, headers={"Accept-Language": lang})


@pytest.mark.parametrize(("lang", "heading", "submit"), [("ja", "プリント", "プリントを作る"),
                                                          ("en", "Worksheets", "Make the worksheet")])  # fmt: skip
def test_settings_page_in_both_languages(client, lang, heading, submit):
    response = get(client, "/worksheets/", lang)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert f"<h1>{heading}</h1>" in html and submit in html
    assert 'method="get"' in html
    for name in ("count", "level", "seed", "lang", "paper", "versions", "targets", "title", "name", "key"):
        assert f'name="{name}"' in html
    assert 'value="ja" checked' in html if lang == "ja" else 'value="en" checked' in html
    assert "Your worksheet is ready" not in html  # nothing asked for yet


def test_the_form_offers_no_count_the_web_refuses(client):
    # The count box's limits are the web's (at most 30 problems in all), not the command line's: its largest is
    # made, one more is refused with the message that names the cap.
    html = get(client, "/worksheets/", "en").get_data(as_text=True)
    largest = int(re.search(r'id="ws-count" name="count" min="1" max="(\d+)"', html).group(1))
    assert f"Number of problems (1–{largest})" in html
    assert get(client, f"/worksheets/?count={largest}&level=1&seed=cap&versions=1", "en").status_code == 200
    refused = get(client, f"/worksheets/?count={largest + 1}&level=1&seed=cap&versions=1", "en")
    assert refused.status_code == 400 and f"a whole number from 1 to {largest}." in refused.get_data(as_text=True)
    none = get(client, "/worksheets/?count=0&level=1&seed=cap&versions=1", "ja")  # the same range in its message
    assert none.status_code == 400 and f"1から{largest}までの整数" in none.get_data(as_text=True)
    both = get(client, f"/worksheets/?count={largest // 2 + 1}&level=1&seed=cap&versions=2", "en")
    assert both.status_code == 400 and f"At most {largest} problems in all" in both.get_data(as_text=True)


def test_the_menu_links_the_worksheets(client):
    assert 'href="/worksheets/"' in get(client, "/").get_data(as_text=True)


def test_a_form_without_seed_is_sent_to_a_url_with_one(client):
    response = get(client, "/worksheets/?count=3&level=1&seed=&lang=en&paper=a4&versions=1")
    assert response.status_code == 302
    query = parse_qs(urlsplit(response.headers["Location"]).query, keep_blank_values=True)
    assert re.fullmatch(r"\d{6}", query["seed"][0])
    assert query["count"] == ["3"] and query["lang"] == ["en"] and query["key"] == ["yes"]
    page = client.get(response.headers["Location"], headers={"Accept-Language": "en"})
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "Your worksheet is ready" in html
    assert query["seed"][0] in html
    assert "/worksheets/print?" in html and "/worksheets/sheet.pdf?" in html


def _links(html: str) -> dict[str, str]:
    """The worksheet links of a page by path (/worksheets/print, …), each with its query unescaped."""
    links = {}
    for href in re.findall(r'href="(/worksheets/[^"]*\?[^"]*)"', html):
        url = unescape(href)
        links.setdefault(urlsplit(url).path, url)
    return links


def test_a_picked_seed_names_the_sheet_but_stays_out_of_the_seed_box(client):
    # Pressing "Make" again without typing a seed must give new dice: the seed the server picked is not put
    # into the form's seed box, only shown beside the links (and marked in the URL, which still names it).
    response = get(client, "/worksheets/?count=3&level=1&seed=&lang=en&paper=a4&versions=1", "en")
    location = response.headers["Location"]
    query = parse_qs(urlsplit(location).query)
    seed = query["seed"][0]
    assert query["new_seed"] == ["1"]
    html = get(client, location, "en").get_data(as_text=True)
    assert re.search(r'<input type="text" id="ws-seed" name="seed" [^>]*value=""', html)
    assert f'<span id="ws-made-seed">{seed}</span>' in html
    links = _links(html)
    for path in ("/worksheets/print", "/worksheets/sheet.pdf", "/worksheets/sheet.json"):
        assert parse_qs(urlsplit(links[path]).query)["seed"] == [seed], path
    # A bookmark of the page gives the same sheet.
    assert _links(get(client, location, "en").get_data(as_text=True)) == links
    # "Keep this seed" puts it into the box, as if typed: then Make keeps the dice.
    keep = unescape(re.search(r'class="ws-keep-seed" href="([^"]+)"', html).group(1))
    assert "new_seed" not in keep
    kept = get(client, keep, "en").get_data(as_text=True)
    assert re.search(rf'id="ws-seed" name="seed" [^>]*value="{seed}"', kept) and "ws-keep-seed" not in kept
    # The print view's "Change the settings" leads back to a form whose seed box is empty.
    print_view = get(client, links["/worksheets/print"], "en").get_data(as_text=True)
    settings_link = _links(print_view)["/worksheets/"]
    assert parse_qs(urlsplit(settings_link).query)["new_seed"] == ["1"]
    again = get(client, settings_link, "en").get_data(as_text=True)
    assert re.search(r'id="ws-seed" name="seed" [^>]*value=""', again)
    # A print view asked for without a seed is marked the same way; the PDF and the JSON need no mark.
    assert "new_seed=1" in get(client, "/worksheets/print?count=2").headers["Location"]
    assert "new_seed" not in get(client, "/worksheets/sheet.pdf?count=2").headers["Location"]


def test_a_typed_seed_stays_in_the_seed_box(client):
    html = get(client, "/worksheets/?count=3&level=1&seed=class+4-2&lang=en", "en").get_data(as_text=True)
    assert re.search(r'id="ws-seed" name="seed" [^>]*value="class 4-2"', html)
    assert '<span id="ws-made-seed">class 4-2</span>' in html and "ws-keep-seed" not in html
    settings_link = _links(get(client, _links(html)["/worksheets/print"], "en").get_data(as_text=True))
    assert "new_seed" not in settings_link["/worksheets/"]


def test_a_full_url_shows_the_links_and_keeps_the_values(client):
    html = get(client, f"/worksheets/?{QUERY}", "en").get_data(as_text=True)
    assert "Your worksheet is ready" in html
    assert 'value="web"' in html and 'value="4"' in html
    assert f"/worksheets/print?{QUERY.replace('&', '&amp;')}" in html


@pytest.mark.parametrize(
    ("query", "message_en", "message_ja"),
    [
        ("count=0", "from 1 to 30", "1から30"),
        ("count=abc", "from 1 to 30", "1から30"),
        ("versions=9", "from 1 to 6", "1から6"),
        ("level=5", "1, 2, 3 or mixed", "1、2、3、ミックス（mixed）"),
        ("paper=b5", "A4 or Letter", "A4かレター"),
        ("lang=de", "Japanese or English", "日本語か英語"),
        ("seed=" + "x" * 41, "at most 40 characters", "40文字以内"),
        ("seed=a%0Ab", "at most 40 characters", "40文字以内"),
        ("title=" + "t" * 61, "at most 60 characters", "60文字以内"),
        ("key=perhaps", "yes or no", "「はい」か「いいえ」"),
        (
            "title=Quiz%F0%9F%98%80",
            "cannot print “😀” in the title",
            "タイトルの「😀」はPDFに印刷できません",
        ),
    ],
)
@pytest.mark.parametrize("path", ["/worksheets/", "/worksheets/print", "/worksheets/sheet.pdf"])
def test_bad_settings_reshow_the_form_with_a_message(client, query, message_en, message_ja, path):
    for lang, message in (("en", message_en), ("ja", message_ja)):
        response = get(client, f"{path}?{query}", lang)
        assert response.status_code == 400
        assert response.mimetype == "text/html"
        html = response.get_data(as_text=True)
        assert 'role="alert"' in html and message in html
        assert 'aria-invalid="true"' in html
        assert '<form class="ws-form' in html


@pytest.mark.parametrize(
    ("query", "fields", "message_en", "message_ja"),
    [
        ("count=0", ["count"], "The number of problems must be a whole number from 1 to 30.", "1から30"),
        ("level=mix", ["level"], "The level must be 1, 2, 3 or mixed.", "1、2、3、ミックス（mixed）"),
        ("title=%F0%9F%8C%B8", ["title"], "The PDF cannot print “🌸” in the title. Please use other characters.",
         "タイトルの「🌸」はPDFに印刷できません"),
        ("count=99&paper=b5", ["count", "paper"],
         "The number of problems must be a whole number from 1 to 30. The paper must be A4 or Letter.",
         "30までの整数にしてください。用紙はA4かレターにしてください。"),
    ],
)  # fmt: skip
def test_bad_settings_of_the_json_are_a_json_error(client, query, fields, message_en, message_ja):
    for lang, message in (("en", message_en), ("ja", message_ja)):
        response = get(client, f"/worksheets/sheet.json?seed=s&{query}", lang)
        assert response.status_code == 400
        assert response.mimetype == "application/json"
        error = response.get_json()["error"]
        assert error["code"] == "bad_settings" and error["fields"] == fields
        assert message in error["message"]


def test_the_json_error_follows_the_language_cookie(client):
    client.set_cookie("suji_lang", "en")  # chosen on the site: wins over the browser
    error = get(client, "/worksheets/sheet.json?count=0", "ja").get_json()["error"]
    assert error["message"].startswith("The number of problems")


def test_mixed_level_on_the_form_and_in_the_sheet(client):
    form = get(client, "/worksheets/", "ja").get_data(as_text=True)
    assert '<input type="radio" name="level" value="mixed"> ミックス：レベル1・2・3を1枚に</label>' in form
    assert '<input type="radio" name="level" value="1" checked>' in form
    query = "count=6&level=mixed&seed=mx&lang=ja&paper=a4&versions=1&targets=list&title=&name=yes&key=yes"
    ready = get(client, f"/worksheets/?{query}", "ja").get_data(as_text=True)
    assert 'name="level" value="mixed" checked>' in ready
    assert "/worksheets/print?count=6&amp;level=mixed" in ready
    ws = build_worksheet(Settings(count=6, level="mixed", seed="mx", lang="ja"))
    html = get(client, f"/worksheets/print?{query}").get_data(as_text=True)
    assert "ミックス：問題のレベル" in html
    assert re.findall(r'class="ws-problem-level">レベル(\d)<', html) == [
        str(p.level) for p in ws.versions[0].problems
    ]
    pdf = get(client, f"/worksheets/sheet.pdf?{query}")
    assert pdf.status_code == 200
    assert pdf.headers["Content-Disposition"] == 'attachment; filename="suji-worksheet-Lmixed-mx.pdf"'
    data = get(client, f"/worksheets/sheet.json?{query}").get_json()
    assert data == ws.to_dict() and data["settings"]["level"] == "mixed"
    assert [p["level"] for p in data["versions"][0]["problems"]] == [p.level for p in ws.versions[0].problems]


def test_several_errors_at_once_and_the_typed_value_is_kept(client):
    html = get(client, "/worksheets/?count=99&versions=0&seed=ok", "en").get_data(as_text=True)
    assert "The number of problems" in html and "The number of versions" in html
    assert 'value="99"' in html


def test_print_view(client):
    response = get(client, f"/worksheets/print?{QUERY}")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert '<html lang="en">' in html  # the sheet's language, not the browser's
    assert html.count('class="ws-problem"') == 8
    assert html.count('<section class="ws-sheet') == 3
    assert "Seed: web" in html and "Version B" in html
    assert "<style" not in html and "style=" not in html and "<script>" not in html  # the site's CSP
    assert "/static/worksheets.css" in html and "/static/worksheets.js" in html
    assert 'class="ws-toolbar"' in html and "data-print" in html
    assert "/worksheets/sheet.pdf?" in html
    ws = build_worksheet(Settings(count=4, level=2, seed="web", lang="en", versions=2))
    for version in ws.versions:
        for p in version.problems:
            assert f'<td class="ws-formula">{p.key.best_formula}</td>' in html


def test_print_view_in_japanese_without_key_and_name_line(client):
    html = get(client, "/worksheets/print?count=2&seed=j&lang=ja&key=no&name=no", "en").get_data(as_text=True)
    assert '<html lang="ja">' in html
    assert "「すうじであそぼ」練習プリント" in html
    assert "ws-key" not in html and "ws-name-line" not in html
    assert "印刷する" in html


def test_print_view_without_seed_redirects(client):
    response = get(client, "/worksheets/print?count=2")
    assert response.status_code == 302
    assert urlsplit(response.headers["Location"]).path == "/worksheets/print"
    assert "seed=" in response.headers["Location"] and "seed=&" not in response.headers["Location"]


def test_pdf_download(client, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1775640615")  # the creation date fixed: the bytes compare
    response = get(client, f"/worksheets/sheet.pdf?{QUERY}")
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    assert response.headers["Content-Disposition"] == 'attachment; filename="suji-worksheet-L2-web.pdf"'
    reader = pypdf.PdfReader(io.BytesIO(response.data))
    assert len(reader.pages) == 3  # version A, version B, the key
    assert get(client, f"/worksheets/sheet.pdf?{QUERY}").data == response.data  # the URL names the sheet


def test_pdf_file_name_is_safe_for_any_seed(client):
    response = get(client, '/worksheets/sheet.pdf?count=1&seed=4年"2組/../x')
    assert response.status_code == 200
    assert response.headers["Content-Disposition"] == 'attachment; filename="suji-worksheet-L1-4-2-x.pdf"'


def test_json_matches_the_library(client):
    response = get(client, f"/worksheets/sheet.json?{QUERY}")
    assert response.status_code == 200
    data = response.get_json()
    assert data == build_worksheet(Settings(count=4, level=2, seed="web", lang="en", versions=2)).to_dict()
    assert {"target_dice", "number_dice", "operator_dice"} <= set(data["versions"][0]["problems"][0])


def test_unknown_parameters_are_ignored_and_csp_is_sent(client):
    response = get(client, f"/worksheets/print?{QUERY}&evil=<script>")
    assert response.status_code == 200
    assert "evil" not in response.get_data(as_text=True)
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]


def test_printable_dice_page_and_pdf(client):
    page = client.get("/worksheets/dice", headers={"Accept-Language": "ja"})
    assert page.status_code == 200 and 'action="/worksheets/dice.pdf"' in page.get_data(as_text=True)
    assert 'href="/worksheets/dice"' in client.get("/worksheets/").get_data(as_text=True)
    for lang, paper in (("ja", "a4"), ("en", "letter")):
        response = client.get(f"/worksheets/dice.pdf?lang={lang}&paper={paper}")
        assert response.status_code == 200 and response.data.startswith(b"%PDF")
        assert f"suji-dice-{lang}-{paper}.pdf" in response.headers["Content-Disposition"]
    bad = client.get("/worksheets/dice.pdf?paper=b5", headers={"Accept-Language": "en"})
    assert bad.status_code == 400 and "A4 or Letter" in bad.get_data(as_text=True)


def test_suji_dice_nets_writes_the_pdf(tmp_path):
    from suji.cli import main

    out = tmp_path / "dice.pdf"
    assert main(["dice-nets", "--lang", "en", "--paper", "letter", "-o", str(out)]) == 0
    assert out.read_bytes().startswith(b"%PDF")
    assert main(["dice-nets", "-o", str(tmp_path / "missing" / "dice.pdf")]) == 2


@pytest.mark.parametrize(("versions", "en", "ja"), [(1, "12 problems × 1 version<", "12問 × 1種類<"),
                                                    (2, "12 problems × 2 versions<", "12問 × 2種類<")])  # fmt: skip
def test_the_sheet_summary_counts_problems_and_versions_in_the_singular_too(client, versions, en, ja):
    url = f"/worksheets/?count=12&level=1&seed=plural&versions={versions}"
    assert en in get(client, url, "en").get_data(as_text=True)
    assert ja in get(client, url, "ja").get_data(as_text=True)

"""Furigana on the pages: a pupil page at grade N shows no kanji above N outside <ruby>; the switch; teachers."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from suji.core.furigana import kanji_grade

JA = {"Accept-Language": "ja-JP,ja;q=0.9"}
PUPIL_PAGES = [
    "/", "/drill/1", "/drill/3", "/games/", "/games/daily", "/first/", "/lessons/", "/lessons/nine-am",
    "/lessons/dice-monsters", "/lessons/silence", "/lessons/gooball", "/lessons/suji", "/join",
    "/lessons/silence/play", "/lessons/nine-am/play",
]  # fmt: skip
TEACHER_PAGES = ["/worksheets/", "/class/new", "/worksheets/dice"]
# Text a reader does not see as text on the page, or that cannot carry ruby.
UNSEEN = {"script", "style", "title", "option", "select", "svg", "template", "head"}


class VisibleKanji(HTMLParser):
    """The kanji of a page's visible text that are outside <ruby> (with the grade that teaches each)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []  # (tag, whether its text is skipped)
        self.bare: list[str] = []
        self.ruby = 0

    def handle_starttag(self, tag, attrs):
        if tag in {"br", "input", "img", "meta", "link", "hr", "wbr", "source"}:
            return
        a = dict(attrs)
        skipped = (tag in UNSEEN or a.get("lang", "ja") != "ja" or a.get("data-furigana") == "no"
                   or tag == "ruby" or (bool(self.stack) and self.stack[-1][1]))  # fmt: skip
        self.stack.append((tag, skipped))

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        if self.stack and self.stack[-1][1]:
            return
        self.bare.extend(ch for ch in data if kanji_grade(ch))


def bare_kanji(html: str, above: int) -> set[str]:
    parser = VisibleKanji()
    parser.feed(html)
    return {ch for ch in parser.bare if kanji_grade(ch) > above}


@pytest.mark.parametrize("grade", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("path", PUPIL_PAGES)
def test_a_pupil_page_at_grade_n_has_no_kanji_above_n_outside_ruby(client, path, grade):
    client.set_cookie("suji_furigana", str(grade))
    response = client.get(path, headers=JA)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert bare_kanji(html, grade) == set()
    if grade <= 3:
        assert "<ruby>" in html


def test_pupil_pages_default_to_grade_4(client):
    html = client.get("/lessons/silence", headers=JA).get_data(as_text=True)
    assert bare_kanji(html, 4) == set() and bare_kanji(html, 6) == set()
    assert "<ruby>確率<rp>（</rp><rt>かくりつ</rt>" in html
    assert "<ruby>勝負" not in html  # 勝 and 負 are taught in 3年
    assert 'option value="4" selected' in html


@pytest.mark.parametrize("path", TEACHER_PAGES)
def test_teacher_pages_have_no_furigana_unless_chosen(client, path):
    html = client.get(path, headers=JA).get_data(as_text=True)
    assert "<ruby>" not in html and 'option value="0" selected' in html
    client.set_cookie("suji_furigana", "3")
    html = client.get(path, headers=JA).get_data(as_text=True)
    assert "<ruby>" in html and bare_kanji(html, 3) == set()


def test_none_means_no_ruby_and_english_pages_have_neither_ruby_nor_switch(client):
    client.set_cookie("suji_furigana", "0")
    assert "<ruby>" not in client.get("/lessons/silence", headers=JA).get_data(as_text=True)
    client.set_cookie("suji_furigana", "1")
    html = client.get("/lessons/silence", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "<ruby>" not in html and 'name="grade"' not in html


def test_the_switch_remembers_the_grade_and_goes_back(client):
    response = client.post("/furigana", data={"grade": "2", "next": "/drill/1"})
    assert response.status_code == 303 and response.headers["Location"] == "/drill/1"
    cookie = client.get_cookie("suji_furigana")
    assert cookie.value == "2" and cookie.http_only
    html = client.get("/drill/1", headers=JA).get_data(as_text=True)
    assert 'option value="2" selected' in html and "<ruby>式<rp>（</rp><rt>しき</rt>" in html  # 式 is 3年
    client.post("/furigana", data={"grade": "0", "next": "/"})
    assert client.get_cookie("suji_furigana").value == "0"


@pytest.mark.parametrize("value", ["7", "-1", "x", ""])
def test_a_bad_grade_changes_nothing_and_next_stays_on_the_site(client, value):
    client.set_cookie("suji_furigana", "5")
    response = client.post("/furigana", data={"grade": value, "next": "//evil.example/"})
    assert response.status_code == 303 and response.headers["Location"] == "/"
    assert client.get_cookie("suji_furigana").value == "5"


def test_the_switch_needs_the_csrf_token(csrf_client):
    assert csrf_client.post("/furigana", data={"grade": "2", "next": "/"}).status_code == 400


@pytest.fixture
def signed_in_pupil(app, client):
    """A pupil of a class with homework (a fixed set and adaptive practice), signed in with a card's code."""
    from datetime import datetime, timedelta

    from teacher_support import make_class, print_cards, pupil_client, sign_up

    due = (datetime.now() + timedelta(days=7)).strftime("%Y-%m-%dT%H:%M")  # ahead, within the year allowed
    sign_up(client)
    class_id = make_class(client, roster="1 はな\n2 けん")
    for fields in ({"title": "プリント3", "kind": "fixed", "count": "2", "level": "3", "seed": "3b", "version": "B"},
                   {"title": "練習", "kind": "adaptive", "amount": "3"}):  # fmt: skip
        response = client.post(f"/teacher/classes/{class_id}/homework/new", data={**fields, "due_at": due})
        assert response.status_code == 303, response.get_data(as_text=True)
    codes = print_cards(client, class_id)
    return pupil_client(app, codes["はな"], lang="ja")


@pytest.mark.parametrize("grade", [1, 3, 4, 6])
def test_a_signed_in_pupils_pages_at_grade_n_have_no_kanji_above_n_outside_ruby(signed_in_pupil, grade):
    import re

    pupil = signed_in_pupil
    pupil.set_cookie("suji_furigana", str(grade))
    mine = pupil.get("/my/", headers=JA).get_data(as_text=True)
    homework = re.findall(r'data-homework="([^"]+)"', mine)
    assert len(homework) == 2
    for path in ["/my/", "/signin", "/practice/", *(f"/my/homework/{h}" for h in homework)]:
        response = pupil.get(path, headers=JA)
        assert response.status_code == 200, path
        html = response.get_data(as_text=True)
        assert bare_kanji(html, grade) == set(), path
        if grade <= 3:
            assert "<ruby>" in html, path  # the pages have kanji to read: the test is not passing on kana alone


# ---- what a script puts on the page: hints, the live value's messages, a lesson's question after its answer ----


def _plain(html: str) -> str:
    """The text a reader sees in a message's HTML, readings left out."""
    import re
    from html import unescape

    from suji.core.furigana import strip_ruby

    return unescape(re.sub(r"</?ruby>", "", strip_ruby(html)))


def test_hints_and_messages_that_a_script_shows_carry_the_pages_ruby(client):
    """A drill's hint, "still on track?" and the live value's message were shown without ruby: JSON never passed
    the page's annotation (a 3rd-grader could not read 得点 in the hint meant to help them)."""
    from drill_support import open_drill

    client.set_cookie("suji_furigana", "1")
    client.set_cookie("suji_lang", "ja")
    token = open_drill(client, 3)
    hint = client.post("/api/drill/hint", json={"step": 0, "roll": token}).get_json()
    assert "<ruby>" in hint["hint_html"] and _plain(hint["hint_html"]) == hint["hint"]
    assert not bare_kanji(hint["hint_html"], 1)
    track = client.post("/api/drill/on-track", json={"formula": "1", "roll": token}).get_json()
    assert ("message_html" in track) == bool(bare_kanji(track["message"], 1))  # ruby wherever a kanji needs it
    if "message_html" in track:
        assert _plain(track["message_html"]) == track["message"] and not bare_kanji(track["message_html"], 1)
    # A message quoting what was typed keeps it as text: the typed "<" is escaped, never markup.
    typed = client.post("/api/value", json={"formula": "1<b>", "roll": token}).get_json()
    import re

    assert "&lt;" in typed["error"]["message_html"]
    assert "<" not in re.sub(r"</?(ruby|rp|rt)>", "", typed["error"]["message_html"])  # only the ruby's own tags
    assert _plain(typed["error"]["message_html"]) == typed["error"]["message"]
    client.set_cookie("suji_furigana", "0")  # no furigana chosen: no HTML
    assert "hint_html" not in client.post("/api/drill/hint", json={"step": 0, "roll": token}).get_json()
    client.set_cookie("suji_lang", "en")
    client.set_cookie("suji_furigana", "1")
    english = client.post("/api/drill/hint", json={"step": 0, "roll": token, "lang": "en"}).get_json()
    assert "hint_html" not in english


def test_a_lessons_question_drawn_again_after_its_answer_keeps_its_ruby(client):
    client.set_cookie("suji_furigana", "2")
    client.set_cookie("suji_lang", "ja")
    reply = client.post("/lessons/nine-am/step/called", data={"answer": "1/6"},
                        headers={**JA, "Accept": "application/json"}).get_json()  # fmt: skip
    assert "<ruby>" in reply["html"] and not bare_kanji(reply["html"], 2)

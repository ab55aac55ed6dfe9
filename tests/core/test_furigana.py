"""suji.core.furigana: the kanji grades, readings aligned with okurigana, ruby only where the grade asks."""

from __future__ import annotations

import pytest

from suji.core import furigana
from suji.core.furigana import (
    NONE,
    Piece,
    annotate_html,
    kanji_grade,
    needs_ruby,
    parse_grade,
    pieces,
    ruby_html,
    strip_ruby,
)
from suji.dev.japanese import KANJIDIC2, catalog_paragraphs, kanji_by_grade


def test_the_grades_are_the_2020_table():
    """1,026 kanji: 80, 160, 200, 202, 193, 191 (the 2020 course of study moved 20 prefecture kanji into 4年)."""
    counts = {grade: 0 for grade in range(1, 7)}
    for grade in furigana.grade_table().values():
        counts[grade] += 1
    assert counts == {1: 80, 2: 160, 3: 200, 4: 202, 5: 193, 6: 191}
    assert [kanji_grade(ch) for ch in "一点数得確端阪"] == [1, 2, 2, 5, 5, 7, 4]
    assert kanji_grade("あ") == kanji_grade("A") == 0


@pytest.mark.skipif(not KANJIDIC2.exists(), reason="Debian's kanjidic-xml is not installed")
def test_the_packaged_file_is_kanjidic2s_grade_field():
    table = furigana.grade_table()
    assert {g: "".join(sorted(k for k, v in table.items() if v == g)) for g in range(1, 7)} == kanji_by_grade()


@pytest.mark.parametrize(
    ("value", "grade"), [("0", NONE), ("none", NONE), ("1", 1), ("6", 6), ("7", 4), ("x", 4), (None, 4), ("", 4)]
)
def test_parse_grade(value, grade):
    assert parse_grade(value, 4) == grade


def test_a_reading_leaves_the_okurigana_outside_the_ruby():
    assert pieces("選ぶ") == (Piece("選", "えら"), Piece("ぶ"))
    assert pieces("取り組み中") == (Piece("取", "と"), Piece("り"), Piece("組", "く"), Piece("み"), Piece("中", "ちゅう"))
    assert ruby_html("得点を選ぶ", 4) == (
        "<ruby>得点<rp>（</rp><rt>とくてん</rt><rp>）</rp></ruby>を選ぶ"
    )  # 選 is taught in 4年: no ruby at 4年


@pytest.mark.parametrize(
    ("text", "readings"),
    [
        ("何もなければ", {"何": "なに"}),  # UniDic says なん
        ("何点ですか", {"何": "なん", "点": "てん"}),
        ("空のまま", {"空": "から"}),  # not そら
        ("明日また", {"明日": "あした"}),
        ("日本語か英語か", {"日本語": "にほんご", "英語": "えいご"}),
        ("お題の数", {"題": "だい", "数": "かず"}),
        ("最高得点", {"最高": "さいこう", "得点": "とくてん"}),
        ("期待値", {"期待": "きたい", "値": "ち"}),
        ("正確な値", {"正確": "せいかく", "値": "あたい"}),
        ("勝負ライン", {"勝負": "しょうぶ"}),
    ],
)
def test_readings_of_the_apps_words(text, readings):
    assert {p.text: p.reading for p in pieces(text) if p.reading} == readings


def test_every_kanji_of_the_catalog_has_a_reading():
    """Whatever the grade, every kanji of every Japanese message can get ruby (none is left without)."""
    unread = {p.text for text in catalog_paragraphs() for p in pieces(text) if p.reading is None
              and any(kanji_grade(ch) for ch in p.text)}  # fmt: skip
    assert unread == set()


def test_no_ruby_at_or_below_the_grade_and_none_without_furigana():
    assert not needs_ruby("得点", 5) and needs_ruby("得点", 4) and not needs_ruby("得点", NONE)
    assert ruby_html("得点", 5) == "得点" and ruby_html("得点", NONE) == "得点"
    assert ruby_html("<得点>", 4).startswith("&lt;<ruby>")  # text is escaped


def test_annotate_html_changes_only_the_text_a_reader_sees():
    page = (
        '<p title="得点">得点 &amp; 確率</p><option>確率</option><script>var a="確率"</script>'
        '<span lang="en">確率</span><svg><text>確率</text></svg><b data-furigana="no">確率</b>'
        "<ruby>確率<rt>かくりつ</rt></ruby><!-- 確率 --><div><div>平均</div>正確</div>"
    )
    out = annotate_html(page, 4)
    assert out.startswith('<p title="得点"><ruby>得点<rp>（</rp><rt>とくてん</rt>')
    assert " &amp; <ruby>確率" in out
    for kept in ("<option>確率</option>", '<script>var a="確率"</script>', '<span lang="en">確率</span>',
                 "<svg><text>確率</text></svg>", '<b data-furigana="no">確率</b>', "<!-- 確率 -->",
                 "<ruby>確率<rt>かくりつ</rt></ruby>"):  # fmt: skip
        assert kept in out
    assert "<div><div><ruby>平均" in out and "</div><ruby>正確" in out
    assert strip_ruby(out) == strip_ruby(page)  # the ruby added, and only that
    assert annotate_html(page, NONE) == page

"""School forms on paper (issue 25): 「　年　組　番　名前＿＿」「　月　日（　）」, the mark box 「　点」, プリントA,
the print number small at the foot, the key 「解答（先生用）」 with 番号, and furigana on a Japanese sheet."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from suji.core.furigana import strip_ruby
from suji.worksheets.html import worksheet_html
from suji.worksheets.pdf import worksheet_pdf
from suji.worksheets.sheet import Settings, build_worksheet, form_parts, parse_settings, sheet_texts


def pdf_text(settings: Settings) -> list[str]:
    reader = PdfReader(io.BytesIO(worksheet_pdf(build_worksheet(settings))))
    return [page.extract_text() for page in reader.pages]


def squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_the_forms_in_japanese_put_the_blank_before_the_word():
    t = sheet_texts("ja")
    assert form_parts(t["name_form"]) == [
        ("blank", "short"), ("text", "年"), ("blank", "short"), ("text", "組"), ("blank", "short"),
        ("text", "番　名前"), ("blank", "long"),
    ]  # fmt: skip
    assert form_parts(t["date_form"]) == [
        ("blank", "short"), ("text", "月"), ("blank", "short"), ("text", "日（"), ("blank", "short"), ("text", "）"),
    ]  # fmt: skip
    assert form_parts(t["score_form"]) == [("blank", "short"), ("text", "点")]
    en = sheet_texts("en")
    assert form_parts(en["date_form"]) == [("text", "Date "), ("blank", "long")]
    assert form_parts(en["name_form"])[-2:] == [("text", " Name "), ("blank", "long")]


def test_print_view_has_the_school_forms_the_print_number_at_the_foot_and_the_teachers_key():
    settings = Settings(count=3, level=1, seed="7c", lang="ja", versions=2, score_box=True, furigana=0)
    html = worksheet_html(build_worksheet(settings))
    assert html.count('class="ws-form-part ws-form-name"') == 2 and html.count('class="ws-form-part ws-form-score"') == 2
    assert '<span class="ws-form-label">年</span>' in html and '<span class="ws-form-label">日（</span>' in html
    assert html.count('<span class="ws-seed" title="プリント番号：7c">7c</span>') == 2  # small, at each foot
    assert "プリントA" in html and "プリントB" in html and "版" not in html
    key = html.split('class="ws-sheet ws-key"')[1]
    assert "解答（先生用）" in key and '<th scope="col">番号</th>' in key and ">#<" not in key
    assert 'class="ws-score-mark"' not in worksheet_html(build_worksheet(Settings(count=1, seed="7c", lang="ja")))


def test_pdf_has_the_school_forms_and_the_key_has_numbers():
    pages = pdf_text(Settings(count=2, level=1, seed="pf", lang="ja", score_box=True, furigana=0))
    first = squeeze(pages[0])
    assert "年組番名前" in first and "月日（）" in first and "点" in first
    assert "プリント番号" not in pages[0] and "シード" not in first
    key = squeeze(pages[-1])
    assert key.startswith("解答（先生用）") and "番号お題ダイス" in key
    english = squeeze(pdf_text(Settings(count=1, seed="pf", lang="en", score_box=True))[0])
    assert "GradeClassNo.Name" in english and "Date" in english and "points" in english


@pytest.mark.parametrize(("grade", "ruby"), [(4, True), (5, False), (0, False)])
def test_a_japanese_sheet_has_ruby_above_its_grade_and_the_key_none(grade, ruby):
    settings = Settings(count=2, level=1, seed="fg", lang="ja", furigana=grade)
    html = worksheet_html(build_worksheet(settings))
    sheet, key = html.split('class="ws-sheet ws-key"')
    assert ("<ruby>得点<rp>（</rp><rt>とくてん</rt>" in sheet) is ruby  # 得 is taught in 5年
    assert "<ruby>" not in key
    assert strip_ruby(html) == worksheet_html(build_worksheet(Settings(count=2, level=1, seed="fg", lang="ja",
                                                                           furigana=0)))  # fmt: skip
    assert ("とくてん" in pdf_text(settings)[0]) is ruby
    # first occurrence on a sheet: the reading once, though 得点 is printed on every problem box
    if ruby:
        assert pdf_text(settings)[0].count("とくてん") == 1


def test_furigana_and_score_box_are_settings_of_the_sheet():
    settings, errors = parse_settings({"furigana": "3", "score": "yes"})
    assert errors == [] and settings.furigana == 3 and settings.score_box
    assert settings.query()["furigana"] == "3" and settings.query()["score"] == "yes"
    _, errors = parse_settings({"furigana": "9"})
    assert [e.field for e in errors] == ["furigana"] and "1年〜6年" in errors[0].message("ja")
    assert parse_settings({"furigana": "none"})[0].furigana == 0
    assert Settings().furigana == 4 and not Settings().score_box

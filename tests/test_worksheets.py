"""Worksheets: settings, reproducibility by seed, certified keys (checked with `check`), PDF, HTML and the CLI."""

from __future__ import annotations

import io
import json
import re

import pytest

from suji import worksheets
from suji.cli import main
from suji.scoring import check
from suji.solver import LEVEL_OPERATORS
from suji.worksheet_html import worksheet_html
from suji.worksheets import Settings, build_worksheet, parse_settings, sheet_texts

pypdf = pytest.importorskip("pypdf", reason="pypdf is not installed (pip install pypdf)")
pytest.importorskip("reportlab", reason="reportlab is not installed")
from suji.worksheet_pdf import worksheet_pdf  # noqa: E402


def fresh(settings: Settings) -> worksheets.Worksheet:
    """Build without the cache, so that a second build really rolls and solves again."""
    worksheets._version_problems.cache_clear()
    return build_worksheet(settings)


def pdf_pages(data: bytes) -> list[str]:
    return [page.extract_text() or "" for page in pypdf.PdfReader(io.BytesIO(data)).pages]


def squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


# ---- settings ------------------------------------------------------------------------------------------------


def test_defaults_and_good_values():
    settings, errors = parse_settings({})
    assert errors == []
    assert settings == Settings()
    settings, errors = parse_settings(
        {"count": "２０", "level": "3", "seed": "  class 4-2 ", "lang": "en", "paper": "Letter", "versions": "6",
         "targets": "dice", "title": "Friday quiz", "name": "no", "key": "no"}
    )  # fmt: skip
    assert errors == []
    assert settings == Settings(20, 3, "class 4-2", "en", "letter", 6, "dice", "Friday quiz", False, False)
    assert parse_settings(settings.query())[0] == settings  # the URL keeps every setting


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"count": "0"}, "count"), ({"count": "41"}, "count"), ({"count": "abc"}, "count"), ({"count": "-3"}, "count"),
        ({"count": "1e3"}, "count"), ({"count": "99999999999"}, "count"), ({"versions": "7"}, "versions"),
        ({"level": "4"}, "level"), ({"level": ""}, "level"), ({"paper": "b5"}, "paper"), ({"lang": "fr"}, "lang"),
        ({"seed": "x" * 41}, "seed"), ({"seed": "a\nb"}, "seed"), ({"title": "t" * 61}, "title"),
        ({"title": "a\x00b"}, "title"), ({"targets": "all"}, "targets"), ({"key": "maybe"}, "key"),
    ],
)  # fmt: skip
def test_bad_settings_are_reported(params, field):
    _, errors = parse_settings(params)
    assert [e.field for e in errors] == [field]
    assert errors[0].text("en").endswith(".")
    assert re.search(r"[ぁ-んァ-ン一-龯]", errors[0].text("ja"))  # a Japanese message, not the msgid


def test_error_messages_name_the_limits():
    _, errors = parse_settings({"count": "50", "seed": "s" * 50})
    texts = [e.text("en") for e in errors]
    assert texts == [
        "The number of problems must be a whole number from 1 to 40.",
        "The seed must be at most 40 characters, without control characters.",
    ]


def test_every_sheet_text_is_translated():
    ja, en = sheet_texts("ja"), sheet_texts("en")
    assert ja["name"] == "なまえ" and ja["date"] == "日付" and ja["answer_key"] == "答え"
    for key in worksheets.SHEET_TEXTS:
        assert ja[key] != en[key], key


# ---- the problems ---------------------------------------------------------------------------------------------


def test_same_seed_same_sheet_and_versions_differ():
    settings = Settings(count=6, level=2, seed="repro", versions=3)
    first = fresh(settings).to_dict()
    assert fresh(settings).to_dict() == first
    dice = [json.dumps([(p["target_dice"], p["number_dice"], p["operator_dice"]) for p in v["problems"]])
            for v in first["versions"]]  # fmt: skip
    assert len(set(dice)) == 3  # three versions, three different sets of dice
    assert [v["label"] for v in first["versions"]] == ["A", "B", "C"]
    other = fresh(Settings(count=6, level=2, seed="repro2", versions=3)).to_dict()
    assert other["versions"] != first["versions"]


def test_a_sheet_without_a_seed_gets_one():
    ws = build_worksheet(Settings(count=1))
    assert re.fullmatch(r"\d{6}", ws.settings.seed)
    assert build_worksheet(ws.settings).to_dict() == ws.to_dict()


def test_more_problems_extend_the_same_sheet():
    # Version A of 8 problems starts with the 3 problems of version A of 3: the rolls come from one stream.
    short = build_worksheet(Settings(count=3, level=1, seed="grow")).versions[0].problems
    long = build_worksheet(Settings(count=8, level=1, seed="grow")).versions[0].problems
    assert long[:3] == short


@pytest.mark.parametrize("level", [1, 2, 3])
def test_every_key_is_made_by_check_with_its_score(level):
    ws = build_worksheet(Settings(count=8, level=level, seed=f"key-{level}", versions=2))
    for version in ws.versions:
        assert [p.number for p in version.problems] == list(range(1, 9))
        for p in version.problems:
            result = check(p.key.best_formula, p.roll)
            assert result.valid, (p.roll, p.key)
            assert result.target == p.key.target
            assert result.score == p.key.best_score > 0
            assert p.key.solutions >= 1
            assert p.key.target in p.roll.targets
            operators = {t for t in p.key.tokens if not t.isdigit()}
            assert operators <= LEVEL_OPERATORS[level]


def test_json_lists_dice_and_key():
    data = build_worksheet(Settings(count=2, level=1, seed="json", versions=2)).to_dict()
    assert data["settings"]["seed"] == "json"
    problem = data["versions"][1]["problems"][0]
    assert set(problem) >= {"target_dice", "number_dice", "operator_dice", "key"}
    assert set(problem["key"]) >= {"best_score", "best_formula", "solutions", "target"}
    assert len(problem["target_dice"]) == 3 and len(problem["number_dice"]) == 5
    assert len(problem["operator_dice"]) == 4


# ---- PDF -----------------------------------------------------------------------------------------------------


def test_pdf_text_has_the_japanese_title_and_every_problem():
    ws = build_worksheet(Settings(count=7, level=3, seed="pdf", versions=2, lang="ja"))
    pages = pdf_pages(worksheet_pdf(ws))
    text = squeeze("".join(pages))
    assert "すうじであそぼ練習プリント" in squeeze(pages[0])
    assert "なまえ" in pages[0] and "日付" in pages[0]
    assert "シード番号:pdf" in squeeze(pages[0])
    for version in ws.versions:
        for p in version.problems:
            numbers = "".join(map(str, p.roll.number_dice))
            operators = "".join(p.roll.operator_dice)
            assert f"{numbers}記号ダイス{operators}" in text
            assert "".join(map(str, p.roll.targets)) in text
            assert squeeze(p.key.best_formula) in text


def test_pdf_page_count_with_and_without_key():
    base = Settings(count=5, level=1, seed="pages", versions=2, lang="en")
    with_key = pdf_pages(worksheet_pdf(build_worksheet(base)))
    without = pdf_pages(worksheet_pdf(build_worksheet(Settings(**{**base.__dict__, "key": False}))))
    assert len(without) == 2  # five problems fit on one page; one page per version
    assert len(with_key) == 3  # and the key on a page of its own
    assert all("Answer key" not in page for page in without)
    assert "Answer key" in with_key[2] and "Answer key" not in with_key[0] + with_key[1]
    assert "Version A" in with_key[0] and "Version B" in with_key[1]


def test_pdf_of_many_problems_runs_over_pages_and_is_reproducible():
    settings = Settings(count=14, level=1, seed="long", paper="letter", key=False, lang="en")
    data = worksheet_pdf(build_worksheet(settings))
    pages = pdf_pages(data)
    assert len(pages) >= 3
    assert "Page 1 of" in pages[0] and f"Page {len(pages)} of {len(pages)}" in pages[-1]
    assert pypdf.PdfReader(io.BytesIO(data)).pages[0].mediabox.width == pytest.approx(612)
    assert worksheet_pdf(build_worksheet(settings)) == data  # same settings, same bytes


def test_pdf_only_target_dice_leaves_the_numbers_out():
    ws = build_worksheet(Settings(count=3, level=1, seed="dice", targets="dice", lang="en", key=False))
    text = squeeze(pdf_pages(worksheet_pdf(ws))[0])
    for p in ws.versions[0].problems:
        assert "".join(map(str, p.roll.targets)) not in text
    assert "3-digitnumbers" in text


# ---- HTML ----------------------------------------------------------------------------------------------------


def test_html_has_each_problem_page_breaks_and_no_navigation_on_paper():
    ws = build_worksheet(Settings(count=4, level=2, seed="html", versions=2, lang="en", title="Quiz <b>"))
    html = worksheet_html(ws)
    assert html.count('class="ws-problem"') == 8
    assert html.count('<section class="ws-sheet') == 3  # two versions and the key
    assert "Quiz &lt;b&gt;" in html and "Quiz <b>" not in html
    assert "break-after: page" in html  # the stylesheet is inside a file written for the command line
    assert "Seed: html" in html
    assert "ws-toolbar" not in html.split("</head>")[1]  # no toolbar without links
    for p in ws.versions[1].problems:
        assert p.key.best_formula in html


# ---- CLI -----------------------------------------------------------------------------------------------------


def test_cli_json_pdf_and_html(tmp_path, capsys):
    out = tmp_path / "sheet.json"
    assert main(["worksheet", "--count", "3", "--level", "2", "--seed", "cli", "--lang", "en", "--versions", "2",
                 "--format", "json", "-o", str(out)]) == 0  # fmt: skip
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data == build_worksheet(Settings(count=3, level=2, seed="cli", lang="en", versions=2)).to_dict()
    assert "Seed: cli" in capsys.readouterr().err
    pdf = tmp_path / "sheet.pdf"
    args = ["worksheet", "--count", "3", "--seed", "cli", "--lang", "ja", "--paper", "letter", "-o", str(pdf)]
    assert main(args) == 0
    assert pdf.read_bytes().startswith(b"%PDF")
    html = tmp_path / "sheet.html"
    assert (
        main(["worksheet", "--count", "3", "--seed", "cli", "--no-key", "--lang", "ja", "-o", str(html)]) == 0
    )
    text = html.read_text(encoding="utf-8")
    assert '<html lang="ja">' in text and "答え" not in text.split("<main")[1]


def test_cli_bad_settings_exit_2_with_a_message(capsys):
    assert main(["worksheet", "--count", "41", "--lang", "ja"]) == 2
    assert "1 から 40" in capsys.readouterr().err
    assert main(["worksheet", "--paper", "b5", "--lang", "en"]) == 2
    assert "A4 or Letter" in capsys.readouterr().err

"""Worksheets: settings, reproducibility by seed, certified keys (checked with `check`), PDF, HTML and the CLI."""

from __future__ import annotations

import io
import json
import re
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from suji.cli import main
from suji.core.i18n import fill
from suji.rules.scoring import check
from suji.solver.search import LEVEL_OPERATORS, solve
from suji.worksheets import sheet as worksheets
from suji.worksheets.html import worksheet_html
from suji.worksheets.sheet import Settings, build_worksheet, parse_settings, pdf_can_print, sheet_texts

pypdf = pytest.importorskip("pypdf", reason="pypdf is not installed (pip install pypdf)")
pytest.importorskip("reportlab", reason="reportlab is not installed")
from suji.worksheets import fonts as pdf_fonts  # noqa: E402
from suji.worksheets.pdf import (  # noqa: E402
    BOX_GAP,
    CROWDED_GAP,
    FOOTER,
    MARGIN,
    MAX_BOX,
    MIN_BOX,
    PAPER_SIZES,
    _Writer,
    fit_text,
    text_width,
    worksheet_pdf,
    wrap,
)

# The CMap through which PDF viewers reach the Japanese font (poppler-data has it; Acrobat has its own copy).
UNIJIS_CMAP = Path("/usr/share/poppler/cMap/Adobe-Japan1/UniJIS-UCS2-H")
# The Japanese font the PDF embeds (fonts-ipafont-gothic).
IPA_FONT = Path(pdf_fonts.JAPANESE_FONT_FILES[0])
# The PDF standard fonts: the fallback when the Latin font files are missing (never embedded).
STANDARD_FONTS = {"Helvetica", "Helvetica-Bold", "Symbol"}
# Problems on each page of a version, for the counts teachers use most: up to 8 on one sheet of paper, more
# shared out evenly, so that no page is left half empty.
PAGES_PER_VERSION = {5: [5], 6: [6], 8: [8], 10: [5, 5], 12: [6, 6]}


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


@pytest.mark.parametrize("raw", ["mixed", " Mixed ", "MIXED"])
def test_mixed_level_is_a_setting_the_url_keeps(raw):
    settings, errors = parse_settings({"level": raw})
    assert errors == [] and settings.level == "mixed"
    assert settings.query()["level"] == "mixed"
    assert parse_settings(settings.query())[0] == settings


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"count": "0"}, "count"), ({"count": "41"}, "count"), ({"count": "abc"}, "count"), ({"count": "-3"}, "count"),
        ({"count": "1e3"}, "count"), ({"count": "99999999999"}, "count"), ({"versions": "7"}, "versions"),
        ({"level": "4"}, "level"), ({"level": ""}, "level"), ({"level": "mix"}, "level"), ({"paper": "b5"}, "paper"), ({"lang": "fr"}, "lang"),
        ({"seed": "x" * 41}, "seed"), ({"seed": "a\nb"}, "seed"), ({"title": "t" * 61}, "title"),
        ({"title": "a\x00b"}, "title"), ({"targets": "all"}, "targets"), ({"key": "maybe"}, "key"),
    ],
)  # fmt: skip
def test_bad_settings_are_reported(params, field):
    _, errors = parse_settings(params)
    assert [e.field for e in errors] == [field]
    assert errors[0].message("en").endswith(".")
    assert re.search(r"[ぁ-んァ-ン一-龯]", errors[0].message("ja"))  # a Japanese message, not the msgid


def test_error_messages_name_the_limits():
    _, errors = parse_settings({"count": "50", "seed": "s" * 50})
    texts = [e.message("en") for e in errors]
    assert texts == [
        "The number of problems must be a whole number from 1 to 40.",
        "The seed must be at most 40 characters, without control characters.",
    ]


def test_the_level_message_offers_mixed():
    _, errors = parse_settings({"level": "4"})
    assert errors[0].message("en") == "The level must be 1, 2, 3 or mixed."
    assert "1、2、3、ミックス（mixed）" in errors[0].message("ja")


@pytest.mark.parametrize(
    ("params", "field", "shown_en", "shown_ja"),
    [
        ({"title": "Quiz 😀 time"}, "title", "“😀”", "「😀」"),
        ({"title": "3年2組😀さんすう🌸😀"}, "title", "“😀”, “🌸”", "「😀」「🌸」"),  # each character once
        ({"title": "수학 시간"}, "title", "“수”, “학”, “시”, “간”", "「수」「학」「시」「간」"),
        # Simplified Chinese: not in the Japanese font.
        ({"title": "数学练习"}, "title", "“练”, “习”", "「练」「习」"),
        ({"seed": "class🎲1"}, "seed", "“🎲”", "「🎲」"),
        ({"title": "∑ のけいさん"}, "title", "“∑”", "「∑」"),  # in Windows Japanese, not in the embedded font
        ({"title": "x\u20ddy"}, "title", "“U+20DD”", "「U+20DD」"),  # a mark that cannot be seen alone
    ],
)
def test_characters_the_pdf_cannot_draw_are_refused_by_name(params, field, shown_en, shown_ja):
    settings, errors = parse_settings(params)
    assert [e.field for e in errors] == [field]
    assert getattr(settings, field) == ""  # the bad text is not used
    assert (
        errors[0].message("en")
        == f"The PDF cannot print {shown_en} in the {field}. Please use other characters."
    )
    assert shown_ja in errors[0].message("ja") and "PDFに印刷できません" in errors[0].message("ja")


@pytest.mark.parametrize(
    ("raw", "kept"),
    [
        (
            "Sūji de Asobo ♥",
            "Sūji de Asobo ♥",
        ),  # the long vowels of romaji and a heart are in the Japanese font
        ("Café — ½ × ÷ ²", "Café — ½ × ÷ ²"),  # Helvetica's own characters
        ("4年2組　①②③ ～〜 ㈱ 髙橋", "4年2組　①②③ ～〜 ㈱ 髙橋"),  # Japanese Windows and Mac input
        ("Cafe\u0301", "Café"),  # an accent typed as a separate mark joins its letter
        ("a\u2003b\u2009c", "a b c"),  # em and thin spaces become plain spaces
        ("√2 − 1", "√2 − 1"),  # the Symbol font's two characters
    ],
)
def test_printable_titles_are_accepted(raw, kept):
    settings, errors = parse_settings({"title": raw})
    assert errors == []
    assert settings.title == kept


def test_pdf_can_print_matches_the_fonts():
    assert all(pdf_can_print(c) for c in "Aé×²−√あア漢ー、。「」①～ūŪ♥")
    assert not any(pdf_can_print(c) for c in "😀🌸한练\x00\u200b\ue000")


@pytest.mark.skipif(not UNIJIS_CMAP.exists(), reason="poppler-data's UniJIS-UCS2-H CMap is not installed")
def test_every_character_sent_to_the_japanese_font_is_in_its_cmap():
    # A character the CMap does not map prints as an empty box: check the whole accepted set against it.
    text = UNIJIS_CMAP.read_text(encoding="latin-1")
    mapped: set[int] = set()
    for block in re.findall(r"begincidrange(.*?)endcidrange", text, re.S):
        for low, high, _ in re.findall(r"<([0-9a-f]+)>\s*<([0-9a-f]+)>\s*(\d+)", block):
            mapped.update(range(int(low, 16), int(high, 16) + 1))
    for block in re.findall(r"begincidchar(.*?)endcidchar", text, re.S):
        mapped.update(int(code, 16) for code, _ in re.findall(r"<([0-9a-f]+)>\s*(\d+)", block))
    japanese_font = [
        chr(cp)
        for cp in range(0x20, 0x10000)
        if pdf_can_print(chr(cp)) and chr(cp) not in "−√" and not _encodes_cp1252(chr(cp))
    ]
    assert len(japanese_font) > 7000
    assert [c for c in japanese_font if ord(c) not in mapped] == []


@pytest.mark.skipif(not IPA_FONT.exists(), reason="fonts-ipafont-gothic is not installed")
def test_every_character_sent_to_the_japanese_font_is_in_ipagothic():
    # The PDF embeds IPAGothic: a character it lacks would print as an empty box, so the settings refuse it.
    from reportlab.pdfbase.ttfonts import TTFont

    glyphs = TTFont("IPAGothic-coverage", str(IPA_FONT)).face.charToGlyph
    japanese_font = [
        chr(cp)
        for cp in range(0x20, 0x10000)
        if pdf_can_print(chr(cp)) and chr(cp) not in "−√" and not _encodes_cp1252(chr(cp))
    ]
    assert len(japanese_font) > 7000
    assert [c for c in japanese_font if ord(c) not in glyphs] == []
    for lang in ("ja", "en"):  # and every text the sheet itself prints
        assert [c for text in sheet_texts(lang).values() for c in text if not pdf_can_print(c)] == []


def _encodes_cp1252(char: str) -> bool:
    try:
        char.encode("cp1252")
    except UnicodeEncodeError:
        return False
    return True


def test_every_sheet_text_is_translated():
    ja, en = sheet_texts("ja"), sheet_texts("en")
    assert ja["name"] == "名前" and ja["date"] == "日付" and ja["answer_key"] == "解答（先生用）"
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


@pytest.mark.slow  # 40 problems solved and checked (0.5 s)
def test_mixed_sheet_levels_come_from_the_seed_and_each_problem_is_certified_at_its_level():
    settings = Settings(count=12, level="mixed", seed="mixed", versions=2)
    ws = fresh(settings)
    assert fresh(settings).to_dict() == ws.to_dict()  # the levels as well as the dice
    levels = [p.level for v in ws.versions for p in v.problems]
    assert set(levels) == {1, 2, 3}  # 24 problems: every level turns up
    assert [p.level for p in fresh(replace(settings, seed="mixed2")).versions[0].problems] != levels[:12]
    for version in ws.versions:
        for p in version.problems:
            best = solve(p.roll, LEVEL_OPERATORS[p.level]).top
            assert best is not None and best.score == p.key.best_score > 0  # certified at its own level
            assert {t for t in p.key.tokens if not t.isdigit()} <= LEVEL_OPERATORS[p.level]
            assert check(p.key.best_formula, p.roll).score == p.key.best_score
            if p.level == 3:
                assert {"²", "√"} & set(p.roll.operator_dice)  # as a level-3 drill: something new to use


@pytest.mark.parametrize("level", [1, 2, 3])
def test_a_single_level_sheet_gives_every_problem_that_level(level):
    ws = build_worksheet(Settings(count=5, level=level, seed="one-level"))
    assert {p.level for p in ws.versions[0].problems} == {level}
    assert all(p["level"] == level for p in ws.to_dict()["versions"][0]["problems"])


def test_json_lists_dice_and_key():
    data = build_worksheet(Settings(count=2, level=1, seed="json", versions=2)).to_dict()
    assert data["settings"]["seed"] == "json"
    problem = data["versions"][1]["problems"][0]
    assert set(problem) >= {"target_dice", "number_dice", "operator_dice", "key"}
    assert set(problem["key"]) >= {"best_score", "best_formula", "solutions", "target"}
    assert len(problem["target_dice"]) == 3 and len(problem["number_dice"]) == 5
    assert len(problem["operator_dice"]) == 4
    mixed = build_worksheet(Settings(count=6, level="mixed", seed="json")).to_dict()
    assert mixed["settings"]["level"] == "mixed"
    assert [p["level"] for p in mixed["versions"][0]["problems"]] == [
        p.level for p in build_worksheet(Settings(count=6, level="mixed", seed="json")).versions[0].problems
    ]
    assert {p["level"] for p in mixed["versions"][0]["problems"]} <= {1, 2, 3}


# ---- PDF -----------------------------------------------------------------------------------------------------


def test_pdf_text_has_the_japanese_title_and_every_problem():
    ws = build_worksheet(Settings(count=7, level=3, seed="pdf", versions=2, lang="ja"))
    pages = pdf_pages(worksheet_pdf(ws))
    text = squeeze("".join(pages))
    assert "「すうじであそぼ」練習プリント" in squeeze(pages[0])
    assert "名前" in pages[0] and "年" in pages[0] and "組" in pages[0] and "月" in pages[0] and "日付" not in pages[0]
    assert "プリント番号" not in pages[0] and "pdf" in squeeze(pages[0]).split("ページ")[0][-12:]  # the seed, small, in the footer
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
    settings = Settings(count=20, level=1, seed="long", paper="letter", key=False, lang="en")
    data = worksheet_pdf(build_worksheet(settings))
    pages = pdf_pages(data)
    assert len(pages) == 3  # 7 + 7 + 6
    assert "Page 1 of" in pages[0] and f"Page {len(pages)} of {len(pages)}" in pages[-1]
    assert pypdf.PdfReader(io.BytesIO(data)).pages[0].mediabox.width == pytest.approx(612)
    made = datetime(2026, 4, 8, 9, 30, tzinfo=UTC)  # the creation date is the one thing that changes: fixed
    assert worksheet_pdf(build_worksheet(settings), made) == worksheet_pdf(build_worksheet(settings), made)


def test_pdf_only_target_dice_leaves_the_numbers_out():
    ws = build_worksheet(Settings(count=3, level=1, seed="dice", targets="dice", lang="en", key=False))
    text = squeeze(pdf_pages(worksheet_pdf(ws))[0])
    for p in ws.versions[0].problems:
        assert "".join(map(str, p.roll.targets)) not in text
    assert "3-digitnumbers" in text


def test_pdf_of_a_mixed_sheet_shows_each_problem_level_and_a_level_column_in_the_key():
    ws = build_worksheet(Settings(count=5, level="mixed", seed="mixpdf", lang="ja"))
    pages = pdf_pages(worksheet_pdf(ws))
    assert len(pages) == 2
    sheet, key = squeeze(pages[0]), squeeze(pages[1])
    assert "ミックス：問題のレベル" in sheet
    assert all(f"レベル{n}：" in sheet for n in (1, 2, 3))  # what each level allows
    problems = ws.versions[0].problems
    for p in problems:
        numbers = "".join(map(str, p.roll.number_dice))
        # The number, its level, then the dice: the label sits in the problem's box.
        assert re.search(rf"{p.number}レベル{p.level}お題ダイス.*?{numbers}", sheet)
    assert "番号レベルお題ダイス" in key
    for p in problems:
        assert (
            f"{p.number}{p.level}{''.join(map(str, p.roll.target_dice))}{p.key.target}{p.key.best_score}"
            in key
        )
    assert "それぞれの問題のレベル" in key


def test_a_key_row_and_its_working_stay_on_one_page():
    # A mixed sheet of 2 versions with the working in its key (a teacher's, in Japanese): a row whose working did
    # not fit printed its working alone at the top of the next page, under the column heads, with no number.
    ws = build_worksheet(Settings(count=12, level="mixed", seed="b", lang="ja", versions=2, steps=True))
    reader = pypdf.PdfReader(io.BytesIO(worksheet_pdf(ws)))
    key_pages = 0
    for page in reader.pages:
        found: list[tuple[float, float, str]] = []  # (y, size, text) of each text run

        def visit(text, cm, tm, font, size, found=found):  # noqa: ANN001 - pypdf's visitor
            if text.strip():
                found.append((tm[5], size, text))

        page.extract_text(visitor_text=visit)
        working = [y for y, size, text in found if size == pytest.approx(8.5) and "→" in text]
        rows = [y for y, size, _ in found if size == pytest.approx(10.5)]
        if working:
            key_pages += 1
            assert rows and max(rows) > max(working)  # the page's first working line is under a row of its own
    assert key_pages >= 2  # the key runs over pages, so a row did meet a page's end


def _title_runs(data: bytes, page: int = 0) -> list[tuple[str, float, float, float]]:
    """The bold text runs at the top of a page (text, x, y, size): the title and the version label."""
    runs: list[tuple[str, float, float, float]] = []
    reader = pypdf.PdfReader(io.BytesIO(data))
    top = float(reader.pages[page].mediabox.height) - MARGIN

    def visit(text, cm, tm, font, size):  # noqa: ANN001 - pypdf's visitor
        if text.strip() and tm[5] > top - 20 * 2.835 and size >= 11:
            runs.append((text.strip(), tm[4], tm[5], size))

    reader.pages[page].extract_text(visitor_text=visit)
    return runs


@pytest.mark.parametrize(("paper", "lang"), [("a4", "ja"), ("letter", "en")])
def test_a_long_title_fits_the_page_clear_of_the_version_box(paper, lang):
    title = "あ" * 60
    ws = build_worksheet(Settings(count=3, seed="long", lang=lang, paper=paper, versions=2, title=title))
    data = worksheet_pdf(ws)
    width = PAPER_SIZES[paper][0]
    label = fill(sheet_texts(lang)["version"], version="A")
    box_left = width - MARGIN - (text_width(label, 12, bold=True) + 6 * 2.835)
    runs = [r for r in _title_runs(data) if "あ" in r[0]]
    assert "".join(r[0] for r in runs) == title  # all of it, on two lines
    assert len({r[2] for r in runs}) == 2
    for text, x, _, size in runs:
        assert 12 <= size <= 16
        assert x + text_width(text, size, bold=True) < box_left - 4 * 2.835
    # The header grew: the level line is below the title's second line.
    pages = pdf_pages(data)
    assert len(pages) == 3
    key_runs = [r for r in _title_runs(data, page=2) if "あ" in r[0]]
    for text, x, _, size in key_runs:
        assert x + text_width(text, size, bold=True) <= width - MARGIN + 0.01
    assert "".join(r[0] for r in key_runs).count("あ") == 60


def test_a_title_that_almost_fits_is_set_smaller_not_wrapped():
    text = "Practice 4-2: making targets with every die rolled this week"
    size, lines = fit_text(text, 16, 12, 140 * 2.835, bold=True)
    assert lines == [text] and 12 <= size < 16
    assert text_width(text, size, bold=True) <= 140 * 2.835


def test_wrap_breaks_latin_at_spaces_and_japanese_anywhere_but_before_punctuation():
    assert wrap("Answer key — " + "あ" * 20, 10, 120)[0].startswith("Answer key — あ")  # no gap at the space
    words = "one two three four five six seven"
    lines = wrap(words, 10, 60)
    assert len(lines) > 1 and " ".join(lines) == words  # broken at spaces only, no word cut
    assert all(text_width(line, 10) <= 60 for line in lines)
    lines = wrap("あいうえおかきくけこ。さしすせそ", 10, 100)  # ten characters a line
    assert lines == ["あいうえおかきくけ", "こ。さしすせそ"]  # 。never starts a line
    assert all(text_width(line, 10) <= 100 for line in lines)


def test_pdf_draws_a_question_mark_for_a_character_no_font_has():
    # The settings refuse such text; a Worksheet built by hand still gets a clean PDF, not overlapping boxes.
    ws = build_worksheet(Settings(count=1, seed="emoji", lang="en", title="Quiz 😀 time", key=False))
    text = pdf_pages(worksheet_pdf(ws))[0]
    assert "Quiz ? time" in text and "😀" not in text


# ---- pages and fonts ------------------------------------------------------------------------------------------


def test_page_sizes_fill_whole_pages():
    for count, sizes in PAGES_PER_VERSION.items():
        assert worksheets.page_sizes(count) == sizes
    for count in range(worksheets.MIN_COUNT, worksheets.MAX_COUNT + 1):
        sizes = worksheets.page_sizes(count)
        assert sum(sizes) == count and max(sizes) <= worksheets.MAX_PER_PAGE
        assert len(sizes) == -(-count // worksheets.MAX_PER_PAGE)  # the fewest pages
        assert max(sizes) - min(sizes) <= 1 and sizes == sorted(sizes, reverse=True)  # shared out evenly
    version = build_worksheet(Settings(count=10, seed="pages")).versions[0]
    assert [[p.number for p in page] for page in version.pages()] == [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]]


def _page_room(writer: _Writer, first: bool) -> float:
    """The height left for problem boxes under a page's header, above its footer."""
    return writer._measure_header(first) - (MARGIN + FOOTER)


@pytest.mark.parametrize(
    ("paper", "lang", "level", "title"),
    [
        ("a4", "ja", 1, ""),
        ("a4", "en", 2, ""),
        ("letter", "en", "mixed", ""),
        ("letter", "ja", "mixed", "あ" * 60),
    ],
)
@pytest.mark.slow
def test_pdf_pages_per_version_for_common_counts(paper, lang, level, title):
    t = sheet_texts(lang)
    for count, sizes in PAGES_PER_VERSION.items():
        settings = Settings(count=count, level=level, seed=f"fit{count}", lang=lang, paper=paper, versions=2,
                            title=title, key=False)  # fmt: skip
        ws = build_worksheet(settings)
        pages = [squeeze(page) for page in pdf_pages(worksheet_pdf(ws))]
        assert len(pages) == 2 * len(sizes), (count, len(pages))
        for i, page in enumerate(pages):
            version, number = divmod(i, len(sizes))
            # Every page names its version, and which page of it it is.
            assert squeeze(fill(t["version"], version="AB"[version])) in page, (count, i)
            assert squeeze(fill(t["page"], page=number + 1, pages=len(sizes))) in page, (count, i)
        # Each page's boxes fill the room under its header (unless they reached their greatest height).
        writer = _Writer(ws)
        for version in ws.versions:
            laid_out = writer._pages_of(version)
            assert [len(problems) for problems, _ in laid_out] == sizes
            for i, (problems, box) in enumerate(laid_out):
                gap = BOX_GAP if len(problems) <= 6 else CROWDED_GAP
                used = len(problems) * box + (len(problems) - 1) * gap
                assert MIN_BOX <= box <= MAX_BOX
                assert box == MAX_BOX or used == pytest.approx(_page_room(writer, first=i == 0)), (count, i)


@pytest.mark.skipif(not IPA_FONT.exists(), reason="fonts-ipafont-gothic is not installed")
def test_the_japanese_font_is_embedded():
    # pdffonts on every PDF kind: tests/worksheets/test_pdf_documents.py
    ws = build_worksheet(
        Settings(count=8, level="mixed", seed="フォント", lang="ja", versions=2, title="4年2組 ①② 髙橋さん")
    )
    data = worksheet_pdf(ws)
    fonts = _pdf_fonts(data)
    japanese = {name: embedded for name, embedded in fonts.items() if name.endswith("+IPAGothic")}
    assert japanese and all(japanese.values())  # subsets, each with its font file
    if pdf_fonts.latin_fonts().embedded:  # Liberation Sans for the Latin text, embedded too
        assert all(fonts.values()) and not set(fonts) & STANDARD_FONTS
    else:
        assert set(fonts) - set(japanese) <= STANDARD_FONTS
    assert "4年2組①②髙橋さん" in squeeze(pdf_pages(data)[0])  # and the text still reads as Japanese
    assert not any("Heisei" in name for name in fonts)


def test_without_the_latin_font_files_the_pdf_falls_back_to_helvetica():
    fallback = pdf_fonts.latin_fonts((("/nonexistent/regular.ttf",), ("/nonexistent/bold.ttf",)))
    assert fallback == pdf_fonts.LatinFonts("Helvetica", "Helvetica-Bold", "Symbol") and not fallback.embedded
    fonts = pdf_fonts.TextFonts(pdf_fonts.japanese_font(), latin=fallback)
    assert list(fonts.runs("2−√4 あ")) == [
        ("Helvetica", "2"), ("Symbol", "−√"), ("Helvetica", "4 "), (pdf_fonts.japanese_font(), "あ")
    ]  # fmt: skip


def test_without_the_font_file_the_pdf_falls_back_to_the_cid_font(monkeypatch):
    monkeypatch.setattr(pdf_fonts, "JAPANESE_FONT_FILES", ("/nonexistent/ipag.ttf",))
    data = worksheet_pdf(build_worksheet(Settings(count=2, seed="cid", lang="ja", key=False)))
    fonts = _pdf_fonts(data)
    assert "HeiseiKakuGo-W5" in fonts and not any("IPAGothic" in name for name in fonts)
    assert "「すうじであそぼ」練習プリント" in squeeze(pdf_pages(data)[0])


def _pdf_fonts(data: bytes) -> dict[str, bool]:
    """Each font of a PDF by name (a subset's prefix kept), with whether the PDF carries its font file."""
    fonts: dict[str, bool] = {}
    for page in pypdf.PdfReader(io.BytesIO(data)).pages:
        for ref in page["/Resources"]["/Font"].values():
            font = ref.get_object()
            if "/DescendantFonts" in font:  # a CID font: the descriptor is its descendant's
                font = font["/DescendantFonts"][0].get_object()
            descriptor = font.get("/FontDescriptor")
            files = descriptor.get_object().keys() if descriptor else ()
            name = str(ref.get_object()["/BaseFont"]).lstrip("/")
            fonts[name] = bool({"/FontFile", "/FontFile2", "/FontFile3"} & set(files))
    return fonts


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


def test_html_of_a_mixed_sheet_labels_each_problem_and_the_key():
    ws = build_worksheet(Settings(count=4, level="mixed", seed="mixhtml", lang="en"))
    html = worksheet_html(ws)
    problems = ws.versions[0].problems
    labels = re.findall(r'<span class="ws-problem-level">Level (\d)</span>', html)
    assert labels == [str(p.level) for p in problems]
    assert "Mixed levels: each problem&#39;s level is under its number" in html
    assert '<th scope="col">Level</th>' in html
    for p in problems:
        assert f'<td>{p.number}</td><td class="ws-key-level">{p.level}</td>' in html
    assert "each problem&#39;s level. At levels 1 and 2" in html
    single = worksheet_html(build_worksheet(Settings(count=2, level=2, seed="mixhtml", lang="en")))
    assert (
        "ws-problem-level" not in single.split("</style>")[1]
        and "ws-key-level" not in single.split("</style>")[1]
    )


def test_html_print_view_has_whole_pages_each_naming_its_version():
    for count, sizes in PAGES_PER_VERSION.items():
        html = worksheet_html(build_worksheet(Settings(count=count, seed="pages", lang="en", versions=2)))
        sheets = html.split("<main")[1].split('<section class="ws-sheet')[1:]
        assert len(sheets) == 3  # two versions and the key
        for label, sheet in zip("AB", sheets, strict=False):
            pages = sheet.split('<div class="ws-page')[1:]
            assert [page.count('class="ws-problem"') for page in pages] == sizes
            for number, page in enumerate(pages, start=1):
                assert f'<p class="ws-version">Version {label}</p>' in page
                if len(pages) > 1:
                    assert f"Page {number} of {len(pages)}" in page
            # Only the first page has the name line and the instructions.
            assert [("ws-name-line" in page, "ws-instructions" in page) for page in pages] == [
                (True, True)
            ] + [(False, False)] * (len(pages) - 1)
        assert "ws-page" not in sheets[2]
    css = worksheet_html(build_worksheet(Settings(count=1, seed="css"))).split("</style>")[0]
    assert re.search(r"\.ws-body \.ws-page, \.ws-body \.ws-key \{[^}]*break-after: page", css)


def test_html_title_wraps_on_paper():
    css = worksheet_html(build_worksheet(Settings(count=1, seed="css"))).split("</style>")[0]
    rule = re.search(r"\.ws-title \{([^}]*)\}", css)
    assert rule and "overflow-wrap: anywhere" in rule.group(1) and "min-width: 0" in rule.group(1)


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


def test_cli_mixed_level(tmp_path, capsys):
    out = tmp_path / "mixed.json"
    assert (
        main(["worksheet", "--count", "6", "--level", "mixed", "--seed", "m", "--lang", "en", "-o", str(out)])
        == 0
    )
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["settings"]["level"] == "mixed"
    assert data == build_worksheet(Settings(count=6, level="mixed", seed="m", lang="en")).to_dict()
    assert all(p["level"] in (1, 2, 3) for p in data["versions"][0]["problems"])
    pdf = tmp_path / "mixed.pdf"
    assert (
        main(["worksheet", "--count", "2", "--level", "mixed", "--seed", "m", "--lang", "ja", "-o", str(pdf)])
        == 0
    )
    assert "ミックス：問題のレベル" in squeeze(pdf_pages(pdf.read_bytes())[0])


def test_cli_bad_settings_exit_2_with_a_message(capsys):
    assert main(["worksheet", "--count", "41", "--lang", "ja"]) == 2
    assert "1から40" in capsys.readouterr().err
    assert main(["worksheet", "--title", "Quiz 😀", "--lang", "en"]) == 2
    assert "The PDF cannot print “😀” in the title" in capsys.readouterr().err
    assert main(["worksheet", "--level", "4", "--lang", "en"]) == 2
    assert "1, 2, 3 or mixed" in capsys.readouterr().err
    assert main(["worksheet", "--paper", "b5", "--lang", "en"]) == 2
    assert "A4 or Letter" in capsys.readouterr().err


def test_the_key_can_show_how_each_formula_is_worked_out():
    """The steps option: each key formula's working (suji.rules.working), ending on the target, in JSON, PDF and HTML."""
    from suji.worksheets.html import worksheet_html

    plain = build_worksheet(Settings(count=4, level=2, seed="steps", lang="en"))
    steps = build_worksheet(replace(plain.settings, steps=True))
    for problem in steps.versions[0].problems:
        lines = problem.key.steps
        assert lines[0] == problem.key.best_formula and lines[-1] == str(problem.key.target)
        assert len(set(lines)) == len(lines)  # no line twice (joining digits changes no text)
        result = check(problem.key.best_formula, problem.roll)
        assert result.target == problem.key.target and result.display == lines[-1]
    with_steps = squeeze(pdf_pages(worksheet_pdf(steps))[-1])
    without = squeeze(pdf_pages(worksheet_pdf(plain))[-1])
    first = steps.versions[0].problems[0].key.steps
    assert squeeze(" → ".join(first[:2])) in with_steps and "→" not in without
    assert 'class="ws-steps"' in worksheet_html(steps) and 'class="ws-steps"' not in worksheet_html(plain)
    assert steps.settings.query()["steps"] == "yes"
    _, errors = worksheets.parse_settings({"steps": "maybe"}, "en")
    assert errors and errors[0].field == "steps"


def test_a_bold_minus_is_as_bold_as_its_plus():
    """A die's − was set in the regular font beside a bold + and ×: faint on the die, fainter on a photocopy."""
    fonts = pdf_fonts.TextFonts(pdf_fonts.japanese_font())
    latin = fonts.latin
    bold = dict((chunk, font) for font, chunk in fonts.runs("−", bold=True))
    regular = dict((chunk, font) for font, chunk in fonts.runs("−"))
    if latin.embedded:
        assert bold == {"−": latin.bold} and regular == {"−": latin.regular}
        assert dict((c, f) for f, c in fonts.runs("+×÷", bold=True)) == {"+×÷": latin.bold}
    else:  # Symbol has one weight
        assert bold == regular == {"−": "Symbol"}


@pytest.mark.parametrize(("lang", "note"), [("en", "Solutions: how many different formulas make that target"),
                                            ("ja", "式の数：その数を作る式が")])  # fmt: skip
def test_the_answer_key_says_what_its_solutions_column_counts(lang, note):
    data = worksheet_pdf(build_worksheet(Settings(count=2, seed="solutions", lang=lang, key=True)))
    assert squeeze(note) in squeeze(" ".join(pdf_pages(data)))

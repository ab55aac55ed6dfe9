"""The printable dice PDF: every face on the right net the right number of times, true size, paper, pages.

The PDF is read back with pypdf: the face squares are the E×E rectangles of the content stream, the faces are the
large text runs inside them, and each net's name is the text on its bottom glue tab. Expected faces come from
suji.rules.dice directly, not from the module under test.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from datetime import UTC, datetime
from functools import cache

import pytest

from suji.core.i18n import translate
from suji.rules.dice import (
    NUMBER_DICE_FACES,
    NUMBER_KINDS,
    OPERATOR_DICE_FACES,
    OPERATOR_KINDS,
    TARGET_KINDS,
    Roll,
    target_numbers,
)
from suji.rules.scoring import OPERATOR_POINTS, check
from suji.worksheets import dice_nets

pypdf = pytest.importorskip("pypdf", reason="pypdf is not installed (pip install pypdf)")
from pypdf.generic import ContentStream  # noqa: E402 - after the skip

MM = 72 / 25.4
PAPER_POINTS = {"a4": (595.28, 841.89), "letter": (612, 792)}
FACE_TEXT_SIZE = 20  # faces are drawn at 28 pt and more; no other text on the nets pages is above 14 pt
# Japanese on A4 in the quick tier; the other three languages and papers in the full run (each PDF takes 0.4 s).
CASES = [
    pytest.param(lang, paper, marks=() if (lang, paper) == ("ja", "a4") else pytest.mark.slow)
    for lang in ("ja", "en")
    for paper in ("a4", "letter")
]


@cache
def _pdf(lang: str, paper: str) -> bytes:
    return dice_nets.dice_nets_pdf(lang, paper)


def _reader(data: bytes) -> pypdf.PdfReader:
    return pypdf.PdfReader(io.BytesIO(data))


def _runs(page, bold: list | None = None) -> list[tuple[str, float, float, float]]:  # noqa: ANN001
    """Every text run of a page as (text, x, y, size), positions in page space; `bold`, when given, gets
    whether each run is in a bold font."""
    runs: list[tuple[str, float, float, float]] = []

    def visit(text, cm, tm, font, size):  # noqa: ANN001 - pypdf's visitor
        if text.strip():
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            runs.append((text.strip(), x, y, size))
            if bold is not None:
                bold.append("Bold" in str((font or {}).get("/BaseFont", "")))

    page.extract_text(visitor_text=visit)
    return runs


def _squares(page, reader) -> list[tuple[float, float, float]]:  # noqa: ANN001
    """The square rectangles of a page's content as (x, y, side), lower left corner."""
    found = []
    for operands, operator in ContentStream(page.get_contents(), reader).operations:
        if operator == b"re":
            x, y, w, h = (float(v) for v in operands)
            if abs(w - h) < 0.01 and w > 10 * MM:
                found.append((x, y, w))
    return found


def _nets(page, reader) -> list[tuple[list[tuple[float, float, float]], list[str], str]]:  # noqa: ANN001
    """Each net on a page: its squares, the faces printed in them, the name on its bottom tab."""
    squares = _squares(page, reader)
    edge = squares[0][2]
    # Squares that touch belong to one net.
    groups: list[list[tuple[float, float, float]]] = []
    for sq in squares:
        touching = [g for g in groups if any(abs(sq[0] - o[0]) + abs(sq[1] - o[1]) < edge * 1.01 for o in g)]
        merged = [sq] + [s for g in touching for s in g]
        groups = [g for g in groups if g not in touching] + [merged]
    runs = _runs(page)
    nets = []
    for group in groups:
        faces = [
            text
            for text, x, y, size in runs
            if size >= FACE_TEXT_SIZE
            and any(sx < x < sx + edge and sy < y < sy + edge for sx, sy, _ in group)
        ]
        # The name tab hangs below the lowest square, TAB deep.
        low_x, low_y, _ = min(group, key=lambda s: s[1])
        tab = [
            (x, text)
            for text, x, y, size in runs
            if size < FACE_TEXT_SIZE and low_x < x < low_x + edge and low_y - dice_nets.TAB < y < low_y
        ]
        name = "".join(text for _, text in sorted(tab)).replace(" ", "")
        nets.append((group, faces, name))
    return nets


def _expected_dice(lang: str) -> Counter:
    """(name on the tab, sorted faces) of each die one player needs, straight from suji.rules.dice."""
    expected: Counter = Counter()

    def add(msgid: str, kinds: tuple[str, ...], faces_of: dict) -> None:
        for kind in kinds:
            name = translate(msgid, lang, letter=kind).replace(" ", "")
            expected[(name, tuple(sorted(map(str, faces_of[kind]))))] += 1

    add(dice_nets.TEXTS["target_die"], TARGET_KINDS, NUMBER_DICE_FACES)
    add(dice_nets.TEXTS["number_die"], NUMBER_KINDS, NUMBER_DICE_FACES)
    add(dice_nets.TEXTS["operator_die"], OPERATOR_KINDS, OPERATOR_DICE_FACES)
    return expected


@pytest.mark.parametrize(("lang", "paper"), CASES)
def test_every_die_has_a_net_with_its_own_faces(lang, paper):
    reader = _reader(_pdf(lang, paper))
    found: Counter = Counter()
    all_faces: Counter = Counter()
    for number in range(dice_nets.NET_PAGES):
        nets = _nets(reader.pages[number], reader)
        assert len(nets) == dice_nets.NETS_PER_PAGE
        for _, faces, name in nets:
            assert len(faces) == 6, (name, faces)
            found[(name, tuple(sorted(faces)))] += 1
            all_faces.update(faces)
    assert found == _expected_dice(lang)
    assert sum(found.values()) == len(TARGET_KINDS) + len(NUMBER_KINDS) + len(OPERATOR_KINDS) == 12
    # Some counts spelled out: one operator die B, three operator dice A with two + each.
    assert all_faces["×10"] == all_faces["×11"] == all_faces["×12"] == all_faces["√"] == 1
    assert all_faces["²"] == 2
    assert all_faces["+"] == all_faces["−"] == 2 * 3
    assert all_faces["×"] == all_faces["÷"] == 3
    digits = Counter(str(f) for kind in TARGET_KINDS + NUMBER_KINDS for f in NUMBER_DICE_FACES[kind])
    assert {d: all_faces[d] for d in digits} == dict(digits)
    assert all_faces["6"] == 6  # dice A and B, as number dice (2 + 2) and as target dice (1 + 1)


@pytest.mark.parametrize(("lang", "paper"), CASES)
def test_nets_are_crosses_of_true_size_squares(lang, paper):
    reader = _reader(_pdf(lang, paper))
    assert 20 <= dice_nets.EDGE_MM <= 30
    width, height = PAPER_POINTS[paper]
    for number in range(dice_nets.NET_PAGES):
        page = reader.pages[number]
        # The stated edge, in the page's own words.
        text = " ".join(t for t, *_ in _runs(page))
        stated = re.findall(r"(\d+)\s*mm", text)
        assert stated and all(20 <= int(s) <= 30 for s in stated)
        assert int(stated[0]) == dice_nets.EDGE_MM
        for group, _, _ in _nets(page, reader):
            assert all(side == pytest.approx(dice_nets.EDGE_MM * MM, abs=0.01) for _, _, side in group)
            edge = group[0][2]
            # A cross: a column of four squares with one square either side of the second from the top.
            left = min(x for x, _, _ in group)
            top = max(y for _, y, _ in group)
            cells = {(round((x - left) / edge), round((top - y) / edge)) for x, y, _ in group}
            assert cells == {(1, 0), (1, 1), (1, 2), (1, 3), (0, 1), (2, 1)}
            # The net and its tabs are on the paper, clear of the edge.
            assert left - dice_nets.TAB >= 5 * MM - 0.01
            assert left + 3 * edge <= width - 5 * MM
            assert top + edge <= height - 5 * MM
            assert top - 3 * edge - dice_nets.TAB >= 5 * MM - 0.01


@pytest.mark.parametrize(("lang", "paper"), CASES)
def test_paper_size_and_page_count(lang, paper):
    reader = _reader(_pdf(lang, paper))
    assert len(reader.pages) == dice_nets.PAGE_COUNT == dice_nets.NET_PAGES + 2 == 5
    for page in reader.pages:
        assert float(page.mediabox.width) == pytest.approx(PAPER_POINTS[paper][0], abs=0.5)
        assert float(page.mediabox.height) == pytest.approx(PAPER_POINTS[paper][1], abs=0.5)


@pytest.mark.parametrize(("lang", "paper"), CASES)
def test_no_text_runs_off_the_page(lang, paper):
    reader = _reader(_pdf(lang, paper))
    width, height = PAPER_POINTS[paper]
    for number, page in enumerate(reader.pages):
        bold: list[bool] = []
        runs = _runs(page, bold)
        for (text, x, y, size), is_bold in zip(runs, bold, strict=True):
            right = x + dice_nets.text_width(text, size, bold=is_bold)
            assert 5 * MM <= x and right <= width - 5 * MM, (number, text)
            assert 4 * MM <= y <= height - 5 * MM, (number, text)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_rules_and_score_sheet_pages(lang):
    reader = _reader(_pdf(lang, "a4"))
    t = {
        key: translate(msgid, lang).replace(" ", "")
        for key, msgid in dice_nets.TEXTS.items()
        if "%(" not in msgid
    }
    rules = "".join(text for text, *_ in _runs(reader.pages[dice_nets.NET_PAGES])).replace(" ", "")
    for key in ("rules_title", "h_dice", "h_formula", "h_redundant", "h_score", "h_rerolls", "formula_order"):
        assert t[key] in rules, key
    assert "".join(map(str, target_numbers((1, 2, 5)))) in rules.replace(" ", "")
    sheet_runs = _runs(reader.pages[dice_nets.NET_PAGES + 1])
    sheet = [text for text, *_ in sheet_runs]
    assert sheet.count(translate(dice_nets.TEXTS["name"], lang)) == dice_nets.PLAYERS == 6
    assert all(str(r) in sheet for r in range(1, dice_nets.ROUNDS + 1))
    assert translate(dice_nets.TEXTS["total"], lang) in sheet
    assert translate(dice_nets.TEXTS["sheet_title"], lang) in "".join(sheet)


def test_the_rules_example_scores_as_the_rules_engine_says():
    formula = "".join(map(str, dice_nets.EXAMPLE_FORMULA))
    assert dice_nets.EXAMPLE_TARGET in target_numbers(dice_nets.EXAMPLE_NINE_DICE)
    roll = Roll.of(number_dice=[2, 1, 4, 1, 3], operator_dice=["+", "+", "²", "×"], target_dice=[4, 4, 6])
    result = check(formula, roll, rerolled=dice_nets.EXAMPLE_REROLLED)
    operators = [f for f in dice_nets.EXAMPLE_FORMULA if isinstance(f, str)]
    digits = [f for f in dice_nets.EXAMPLE_FORMULA if isinstance(f, int)]
    assert result.valid and result.target == dice_nets.EXAMPLE_TARGET
    assert result.points == sum(OPERATOR_POINTS[f] for f in operators) * len(digits) == 24
    assert result.score == 21  # RULES.md §1: three dice re-rolled
    rules = "".join(text for text, *_ in _runs(_reader(_pdf("en", "a4")).pages[dice_nets.NET_PAGES]))
    assert "= 24 points" in rules and "become 21" in rules


def test_opposite_faces():
    pairs = {k: dice_nets.opposite_pairs(tuple(map(str, f))) for k, f in NUMBER_DICE_FACES.items()}
    assert {int(a) + int(b) for a, b in pairs["A"]} == {7}  # as on an ordinary die
    for kind, faces in {**NUMBER_DICE_FACES, **OPERATOR_DICE_FACES}.items():
        faces = tuple(map(str, faces))
        got = dice_nets.opposite_pairs(faces)
        assert Counter(f for pair in got for f in pair) == Counter(faces), kind
    assert ("+", "+") in dice_nets.opposite_pairs(OPERATOR_DICE_FACES["A"])
    for die in dice_nets.one_player_dice():
        assert Counter(dice_nets.net_faces(die)) == Counter(die.faces)


def test_same_arguments_same_bytes():
    # The creation date is the one thing that changes (suji.worksheets.pdf_document): fixed here.
    made = datetime(2026, 4, 8, 9, 30, tzinfo=UTC)
    assert dice_nets.dice_nets_pdf("en", "letter", made) == dice_nets.dice_nets_pdf("en", "letter", made)


@pytest.mark.parametrize(
    ("lang", "paper"), [("ja", "A3"), ("ja", "A4"), ("en", ""), ("fr", "a4"), ("", "a4")]
)
def test_bad_paper_or_language(lang, paper):
    with pytest.raises(ValueError):
        dice_nets.dice_nets_pdf(lang, paper)


def test_without_the_ipa_font_file_the_cid_font_is_used(monkeypatch):
    monkeypatch.setattr(dice_nets, "JAPANESE_FONT_FILES", ("/nonexistent/ipag.ttf",))
    dice_nets.japanese_font.cache_clear()
    try:
        data = dice_nets.dice_nets_pdf("ja", "a4")
    finally:
        monkeypatch.undo()
        dice_nets.japanese_font.cache_clear()
    reader = _reader(data)
    fonts = {
        str(font["/BaseFont"])
        for page in reader.pages
        for font in page["/Resources"]["/Font"].values()
        if "/BaseFont" in font.get_object()
    }
    assert any(dice_nets.CID_FONT in f for f in fonts)
    assert not any(dice_nets.EMBEDDED_FONT in f for f in fonts)
    found = Counter()
    for number in range(dice_nets.NET_PAGES):
        for _, faces, name in _nets(reader.pages[number], reader):
            found[(name, tuple(sorted(faces)))] += 1
    assert found == _expected_dice("ja")


def test_the_nets_geometry_folds_where_squares_meet_and_under_every_tab():
    from suji.worksheets.dice_nets import geometry

    lines = geometry.net_lines()
    assert len(lines) == 6 * 4 - 5  # every side once: the five edges two squares share are drawn once
    folds = {(s, side) for s, side, kind in lines if kind == "fold"}
    assert set(geometry.NET_TABS) <= folds and len(folds) == 5 + len(geometry.NET_TABS)
    assert sum(1 for *_, kind in lines if kind == "cut") == 7
    # A tab starts at its side's two ends, reaches TAB outwards and slants in at 45°.
    for square, side in geometry.NET_TABS:
        start, a, b, end = geometry.tab_outline(square, side, 0.0, 0.0)
        first, last, (nx, ny) = geometry.square_side(square, side, 0.0, 0.0)
        assert (start, end) == (first, last)
        for corner, base in ((a, start), (b, end)):
            out = (corner[0] - base[0]) * nx + (corner[1] - base[1]) * ny
            along = abs((corner[0] - base[0]) * ny) + abs((corner[1] - base[1]) * nx)
            assert out == pytest.approx(geometry.TAB) and along == pytest.approx(geometry.TAB)

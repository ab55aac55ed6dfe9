"""Every PDF the app makes, as a person would check it (issue 26, items 3 and 18): `pdffonts` says every font is
embedded, the minus sign stands clear of the digits beside it, and the metadata names the title, the app, the
language and the time the file was made."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest

pypdf = pytest.importorskip("pypdf", reason="pypdf is not installed (pip install pypdf)")
pytest.importorskip("reportlab", reason="reportlab is not installed")

from reportlab.pdfgen.canvas import Canvas  # noqa: E402

from suji.worksheets import fonts as pdf_fonts  # noqa: E402
from suji.worksheets.dice_nets import dice_nets_pdf  # noqa: E402
from suji.worksheets.pdf import worksheet_pdf  # noqa: E402
from suji.worksheets.pdf_document import creation_time, pdf_date  # noqa: E402
from suji.worksheets.sheet import Settings, build_worksheet  # noqa: E402
from suji.worksheets.signin_card import ClassCard, class_cards_pdf, signin_card_pdf  # noqa: E402

FONT_FILES = [pdf_fonts.JAPANESE_FONT_FILES[0], *(paths[0] for paths in pdf_fonts.LATIN_FONT_FILES)]
needs_fonts = pytest.mark.skipif(
    not all(os.path.isfile(f) for f in FONT_FILES),
    reason="fonts-ipafont-gothic and fonts-liberation are not installed",
)
needs_poppler = pytest.mark.skipif(
    not (shutil.which("pdffonts") and shutil.which("pdftoppm")), reason="poppler-utils is not installed"
)
WHEN = datetime(2026, 4, 8, 9, 30, 15, tzinfo=UTC)


def every_pdf(created: datetime | None = WHEN) -> dict[str, bytes]:
    """One PDF of each kind the app makes, in both languages: sheets with keys and working, nets, cards."""
    made = {}
    for lang in ("ja", "en"):
        sheet = build_worksheet(
            Settings(count=8, level="mixed", seed="minus-7", lang=lang, versions=2, steps=True, title="4年2組 −7")
        )
        made[f"worksheet-{lang}"] = worksheet_pdf(sheet, created=created)
        made[f"dice-nets-{lang}"] = dice_nets_pdf(lang, "a4", created=created)
        made[f"signin-card-{lang}"] = signin_card_pdf(
            "KM47-TQXA", "https://suji.example/practice/signin#KM47TQXA", lang, created=created
        )
        cards = [ClassCard("4年2組", name, n, "KM47-TQXA", "https://suji.example/signin#KM47TQXA")
                 for n, name in ((1, "さとう はな"), (None, "Ken −7"))]  # fmt: skip
        made[f"class-cards-{lang}"] = class_cards_pdf(cards, lang, created=created)
    made["worksheet-letter-no-key"] = worksheet_pdf(
        build_worksheet(Settings(count=3, level=1, seed="s", lang="en", paper="letter", key=False)), created=created
    )
    return made


@needs_fonts
@needs_poppler
def test_pdffonts_shows_every_font_of_every_pdf_embedded(tmp_path):
    for name, data in every_pdf().items():
        path = tmp_path / f"{name}.pdf"
        path.write_bytes(data)
        lines = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout
        rows = [line.split() for line in lines.splitlines()[2:]]
        assert rows, (name, lines)
        # name type encoding emb sub uni object ID: "emb" is the fifth column from the end
        assert [row[0] for row in rows if row[-5] != "yes"] == [], (name, lines)
        assert not any(row[0] in ("Helvetica", "Helvetica-Bold", "Symbol") for row in rows), (name, lines)
        assert any(row[0].endswith("+LiberationSans") for row in rows), (name, lines)


def _ink_runs(png: Path) -> list[tuple[int, int]]:
    """The runs of columns of `png` that hold any dark pixel (a glyph each, when glyphs stand apart)."""
    from PIL import Image

    image = Image.open(png).convert("L")
    width, height = image.size
    pixels = image.load()
    inked = [any(pixels[x, y] < 128 for y in range(height)) for x in range(width)]
    runs, start = [], None
    for x, ink in enumerate([*inked, False]):
        if ink and start is None:
            start = x
        elif not ink and start is not None:
            runs.append((start, x))
            start = None
    return runs


@needs_fonts
@needs_poppler
@pytest.mark.parametrize("text", ["7−7", "−7", "2−5"])
def test_the_minus_sign_stands_clear_of_the_digits(tmp_path, text):
    # Drawn as every PDF draws text (suji.worksheets.fonts) and rasterised by poppler, as a viewer shows it: each
    # character its own run of ink, with white between (a minus from a substituted Symbol font ran into the 7).
    pytest.importorskip("PIL", reason="Pillow is not installed")
    fonts = pdf_fonts.TextFonts(pdf_fonts.japanese_font())
    out = io.BytesIO()
    c = Canvas(out, pagesize=(200, 60))
    fonts.draw(c, 10, 15, text, 36)
    c.showPage()
    c.save()
    pdf = tmp_path / "minus.pdf"
    pdf.write_bytes(out.getvalue())
    subprocess.run(["pdftoppm", "-r", "144", "-png", "-singlefile", str(pdf), str(tmp_path / "minus")], check=True)
    runs = _ink_runs(tmp_path / "minus.png")
    assert len(runs) == len(text), runs
    minus = runs[text.index("−")]
    assert minus[1] - minus[0] >= 20  # a long bar (about 0.58 em at 72 px an em), not a hyphen


def test_metadata_names_the_title_the_app_the_language_and_the_time():
    for name, data in every_pdf().items():
        reader = pypdf.PdfReader(io.BytesIO(data))
        info = reader.metadata
        lang = "ja" if "-ja" in name else "en"
        assert info.title and info.title != "untitled", name
        assert info.author == ("すうじであそぼ (suji)" if lang == "ja" else "Sūji de Asobo (suji)"), name
        assert info.creator.startswith("suji "), name
        assert info["/CreationDate"] == info["/ModDate"] == "D:20260408093015+00'00'", name
        assert reader.trailer["/Root"]["/Lang"] == lang, name
        assert reader.trailer["/Root"]["/ViewerPreferences"]["/DisplayDocTitle"] == True, name  # noqa: E712 - a pypdf BooleanObject
    titles = {name: pypdf.PdfReader(io.BytesIO(data)).metadata.title for name, data in every_pdf().items()}
    assert titles["dice-nets-en"] == "Sūji de Asobo: dice to print, cut out and fold"
    assert titles["signin-card-en"] == "My practice card"
    assert titles["worksheet-ja"] == "4年2組 −7"


def test_the_creation_time_is_now_unless_fixed(monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    before = datetime.now(UTC).replace(microsecond=0)
    made = creation_time()
    assert before <= made <= datetime.now(UTC) and made.tzinfo is UTC
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1775640615")  # the reproducible-builds convention
    assert creation_time() == WHEN
    assert pdf_date(creation_time()) == "D:20260408093015+00'00'"
    assert creation_time(datetime(2026, 4, 8, 18, 30, 15)) == datetime(2026, 4, 8, 18, 30, 15, tzinfo=UTC)
    data = dice_nets_pdf("en", "a4")
    assert pypdf.PdfReader(io.BytesIO(data)).metadata["/CreationDate"] == "D:20260408093015+00'00'"
    assert data == dice_nets_pdf("en", "a4")  # a fixed time: the very same bytes


def test_a_pdf_made_now_says_so(monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    before = datetime.now(UTC).replace(microsecond=0)
    data = signin_card_pdf("KM47-TQXA", "https://suji.example/practice/signin", "en")
    stamp = pypdf.PdfReader(io.BytesIO(data)).metadata["/CreationDate"]
    made = datetime.strptime(stamp, "D:%Y%m%d%H%M%S+00'00'").replace(tzinfo=UTC)
    assert before <= made <= datetime.now(UTC)


def test_every_pdf_starts_on_the_one_canvas():
    # A PDF made on a canvas of its own would name Helvetica and lack the metadata: new PDFs use new_canvas.
    root = Path(__file__).resolve().parents[2] / "suji"
    makers = [
        f"{path.relative_to(root)}:{number}"
        for path in root.rglob("*.py")
        if path.name != "pdf_document.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "Canvas(" in line and "scratch" not in line  # the sheet measures its header on a scratch canvas
    ]
    assert makers == [], "make the PDF with suji.worksheets.pdf_document.new_canvas"

"""Printable dice: the cube nets of one player's twelve dice, the rules on one page and a score sheet, as one PDF.

Classes rarely own the game's special dice, so they print and fold their own. Data flows one way:

    texts        every text (msgids) and the rules page's worked examples
      → geometry   the dice one player needs (from suji.rules.dice, never retyped), their faces in opposite
                   pairs on the six squares of a cross-shaped net, and where every square, tab and line lies
      → faces      one face drawn large (strokes for + − × ÷ √, a 6 underlined)
      → pages      the document: canvas, footer, text set with suji.worksheets.pdf_text (shared with the sheets)
      → nets, rules_page, score_sheet   the pages themselves
      → dice_nets_pdf(lang, paper)  the PDF's bytes

Pages (PAGE_COUNT): 1–3 the nets (three target dice, five number dice, four operator dice), 4 the rules,
5 the score sheet for 2–6 players. Every text a person reads is an `N_` msgid translated with suji.core.i18n.

Fonts come from suji.worksheets.fonts, shared with the worksheets: Liberation Sans for Latin text, − √ and the
faces, IPAGothic for Japanese, both embedded as subsets when their files are on the machine (a cut-out sheet is
printed by whatever printer and viewer a school has, and an embedded font prints the same everywhere), else
Helvetica, Symbol and the CID font HeiseiKakuGo-W5, not embedded, so the PDF is still made.
"""

from __future__ import annotations

from datetime import datetime

from reportlab.pdfgen.canvas import Canvas

from suji.core.caching import computed_once
from suji.core.i18n import LANGUAGES
from suji.worksheets import fonts as pdf_fonts
from suji.worksheets.dice_nets.geometry import (
    EDGE,
    EDGE_MM,
    NET_PAGES,
    NETS_PER_PAGE,
    PAGE_COUNT,
    TAB,
    NetDie,
    net_faces,
    one_player_dice,
    opposite_pairs,
)
from suji.worksheets.dice_nets.nets import NetsPages
from suji.worksheets.dice_nets.pages import PAPER_SIZES
from suji.worksheets.dice_nets.score_sheet import ScoreSheet
from suji.worksheets.dice_nets.texts import (
    EXAMPLE_FORMULA,
    EXAMPLE_NINE_DICE,
    EXAMPLE_REROLLED,
    EXAMPLE_TARGET,
    EXAMPLE_TARGET_DICE,
    PLAYERS,
    ROUNDS,
    TEXTS,
)
from suji.worksheets.fonts import CID_FONT, EMBEDDED_FONT, JAPANESE_FONT_FILES

__all__ = [
    "CID_FONT", "EDGE", "EDGE_MM", "EMBEDDED_FONT", "EXAMPLE_FORMULA", "EXAMPLE_NINE_DICE", "EXAMPLE_REROLLED",
    "EXAMPLE_TARGET", "EXAMPLE_TARGET_DICE", "JAPANESE_FONT_FILES", "NETS_PER_PAGE", "NET_PAGES", "PAGE_COUNT",
    "PAPER_SIZES", "PLAYERS", "ROUNDS", "TAB", "TEXTS", "NetDie", "dice_nets_pdf", "draw_text",
    "japanese_font", "net_faces", "one_player_dice", "opposite_pairs", "text_width",
]  # fmt: skip


@computed_once
def japanese_font() -> str:
    """The Japanese font (suji.worksheets.fonts), looked for in this module's JAPANESE_FONT_FILES (a test may
    hide the file here)."""
    return pdf_fonts.japanese_font(JAPANESE_FONT_FILES)


def _fonts() -> pdf_fonts.TextFonts:
    """Mixed text as every PDF of the project draws it (suji.worksheets.fonts), with this module's Japanese font."""
    return pdf_fonts.TextFonts(japanese_font())


def text_width(text: str, size: float, bold: bool = False) -> float:
    """The printed width of `text` at `size` points, as the pages measure it."""
    return _fonts().width(text, size, bold)


def draw_text(c: Canvas, x: float, y: float, text: str, size: float, bold: bool = False, align: str = "left") -> float:
    """Draw `text` with its baseline at y, aligned left, center or right of x; returns its width."""
    return _fonts().draw(c, x, y, text, size, bold, align)


class _Writer(NetsPages, ScoreSheet):
    """The whole document: the nets, the rules page and the score sheet on one canvas."""


def dice_nets_pdf(lang: str = "ja", paper: str = "a4", created: datetime | None = None) -> bytes:
    """The printable dice as PDF bytes: nets of one player's twelve dice, the rules, a score sheet.

    `lang` is "ja" or "en", `paper` "a4" or "letter"; anything else raises ValueError. `created` is the
    creation date in the metadata (default: now, or SOURCE_DATE_EPOCH; see suji.worksheets.pdf_document).
    """
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}")
    if paper not in PAPER_SIZES:
        raise ValueError(f"unknown paper {paper!r}: choose one of {', '.join(PAPER_SIZES)}")
    writer = _Writer(lang, paper, _fonts(), created)
    writer.nets()
    writer.rules()
    writer.score_sheet()
    return writer.finish()

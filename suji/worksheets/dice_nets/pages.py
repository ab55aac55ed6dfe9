"""The printable dice's pages as one document: the canvas, the page frame and how text is set on it.

`PageWriter` holds what every page needs (the canvas, the paper, the page count for the footer, the shared PDF
text helpers of suji.worksheets.pdf_text with this document's fonts); the nets, the rules page and the score
sheet (suji.worksheets.dice_nets.nets, .rules_page, .score_sheet) each add the drawing of their own pages.
"""

from __future__ import annotations

import io
from datetime import datetime

from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from suji.worksheets import pdf_text
from suji.worksheets.dice_nets.faces import FOLD_INK, GREY, INK
from suji.worksheets.dice_nets.geometry import PAGE_COUNT
from suji.worksheets.dice_nets.texts import text
from suji.worksheets.fonts import TextFonts
from suji.worksheets.pdf_document import new_canvas

PAPER_SIZES = {"a4": A4, "letter": LETTER}
MARGIN = 9 * mm
FOOTER_Y = 5 * mm  # the footer sits in the bottom margin, as in suji.worksheets.pdf


class PageWriter:
    """Draws the pages one after another on one canvas."""

    def __init__(self, lang: str, paper: str, fonts: TextFonts, created: datetime | None = None) -> None:
        self.fonts = fonts
        self.lang = lang
        self.width, self.height = PAPER_SIZES[paper]
        self.inner = self.width - 2 * MARGIN
        self.page = 0
        self.buffer = io.BytesIO()
        # The same arguments and creation time give the same bytes on one machine (suji.worksheets.pdf_document).
        self.c = new_canvas(
            self.buffer, (self.width, self.height), title=self.t("doc_title"), lang=lang, created=created
        )

    def t(self, key: str, **params: object) -> str:
        return text(key, self.lang, **params)

    def text_width(self, text: str, size: float, bold: bool = False) -> float:
        """The printed width of `text` at `size` points."""
        return self.fonts.width(text, size, bold)

    def draw_text(
        self, c: Canvas, x: float, y: float, text: str, size: float, bold: bool = False, align: str = "left"
    ) -> float:
        """Draw `text` with its baseline at y, aligned left, center or right of x; returns its width."""
        return self.fonts.draw(c, x, y, text, size, bold, align)

    def wrap(self, text: str, size: float, width: float, bold: bool = False) -> list[str]:
        return pdf_text.wrap(self.fonts, text, size, width, bold)

    def fit_size(self, text: str, size: float, min_size: float, width: float, bold: bool = False) -> float:
        return pdf_text.fit_size(self.fonts, text, size, min_size, width, bold)

    def end_page(self) -> None:
        c = self.c
        self.page += 1
        c.setFillColorRGB(*GREY)
        self.draw_text(c, MARGIN, FOOTER_Y, self.t("footer"), 8)
        self.draw_text(c, self.width - MARGIN, FOOTER_Y, self.t("page", page=self.page, pages=PAGE_COUNT), 8,
                  align="right")  # fmt: skip
        c.showPage()

    def paragraph(self, x: float, y: float, text: str, size: float, width: float, draw: bool = True,
                  bold: bool = False, leading: float = 1.4) -> float:  # fmt: skip
        """Wrapped text whose first baseline is at y; returns the last baseline."""
        for i, line in enumerate(self.wrap(text, size, width, bold)):
            if i:
                y -= size * leading
            if draw:
                self.draw_text(self.c, x, y, line, size, bold)
        return y

    def line_style(self, kind: str) -> None:
        """Cut lines solid and dark, fold lines dashed, thinner and bluish: never mistaken for one another."""
        c = self.c
        if kind == "cut":
            c.setStrokeColorRGB(*INK)
            c.setLineWidth(1.0)
            c.setDash()
        else:
            c.setStrokeColorRGB(*FOLD_INK)
            c.setLineWidth(0.7)
            c.setDash(2.5, 2)

    def finish(self) -> bytes:
        self.c.save()
        return self.buffer.getvalue()

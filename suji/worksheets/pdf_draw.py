"""Drawing on a sheet's PDF: its ink, its dice and its text in the sheet's fonts (suji.worksheets.fonts: Liberation
Sans embedded for Latin text and − √, the Japanese font), measured and broken into lines by suji.worksheets.pdf_text.

The sheet (suji.worksheets.pdf) and practice's sign-in card (suji.worksheets.signin_card) draw with these.
"""

from __future__ import annotations

from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from suji.worksheets import pdf_text
from suji.worksheets.fonts import TextFonts, japanese_font, latin_fonts
from suji.worksheets.sheet import pdf_can_print

DIE = 9 * mm
INK = (0.1, 0.16, 0.22)
GREY = (0.42, 0.45, 0.5)
LIGHT = (0.93, 0.94, 0.96)


def _fonts() -> TextFonts:
    """The sheet's mixed-text drawing (suji.worksheets.fonts): its Japanese font, and only what a sheet may print."""
    return TextFonts(japanese_font(), pdf_can_print)


def text_width(text: str, size: float, bold: bool = False) -> float:
    """The printed width of `text` at `size` points, font runs included."""
    return _fonts().width(text, size, bold)


def draw_text(
    c: Canvas, x: float, y: float, text: str, size: float, bold: bool = False, align: str = "left"
) -> float:
    """Draw `text` with its baseline at y (align left, center or right of x); returns the width."""
    return _fonts().draw(c, x, y, text, size, bold, align)


def wrap(text: str, size: float, width: float, bold: bool = False) -> list[str]:
    """Break `text` into lines no wider than `width` (suji.worksheets.pdf_text: the dice nets' rules too)."""
    return pdf_text.wrap(_fonts(), text, size, width, bold)


def fit_text(
    text: str, size: float, min_size: float, width: float, bold: bool = False
) -> tuple[float, list[str]]:
    """The largest size down to `min_size` at which `text` fits one line of `width`, else it wrapped there."""
    return pdf_text.fit_text(_fonts(), text, size, min_size, width, bold)


def draw_die(c: Canvas, x: float, y: float, face: object, kind: str, size: float = DIE) -> None:
    """A die at (x, y) (lower left): a rounded square, the face centred; 6 underlined as on real dice."""
    c.saveState()
    c.setLineWidth(1.1)
    c.setStrokeColorRGB(*INK)
    if kind == "operator":
        c.setFillColorRGB(*LIGHT)
    else:
        c.setFillColorRGB(1, 1, 1)
    c.roundRect(x, y, size, size, size * 0.18, stroke=1, fill=1)
    c.setFillColorRGB(*INK)
    text = str(face)
    font_size = size * (0.58 if len(text) == 1 else 0.42)
    # Cap height of Helvetica is about 0.72 em: this puts the digits' middle at the die's middle.
    baseline = y + size / 2 - font_size * 0.36
    if text == "²":
        # "Squared": a grey box standing for the number and a raised 2, so that it never reads as the digit 2.
        c.setStrokeColorRGB(*GREY)
        c.setLineWidth(size * 0.05)
        c.roundRect(x + size * 0.24, y + size * 0.24, size * 0.3, size * 0.36, size * 0.04, stroke=1, fill=0)
        # Helvetica's ² glyph is a small raised 2 (about 0.4–0.72 em above the baseline): at one die size
        # per em it stands at the upper right of the box, and the PDF's text says "²".
        c.setFillColorRGB(*INK)
        c.setFont(latin_fonts().bold, size)
        c.drawCentredString(x + size * 0.68, y + size * 0.1, text)
    elif text == "√":
        # Symbol's radical hangs below the baseline; a drawn radical sign is centred and clearer.
        c.setLineWidth(size * 0.07)
        c.setLineJoin(1)
        c.setLineCap(1)
        p = c.beginPath()
        p.moveTo(x + size * 0.2, y + size * 0.5)
        p.lineTo(x + size * 0.32, y + size * 0.45)
        p.lineTo(x + size * 0.45, y + size * 0.24)
        p.lineTo(x + size * 0.6, y + size * 0.76)
        p.lineTo(x + size * 0.82, y + size * 0.76)
        c.drawPath(p, stroke=1, fill=0)
        # Invisible text (render mode 3), so that copying or searching the PDF finds the face.
        hidden = c.beginText(x + size * 0.3, baseline)
        hidden.setTextRenderMode(3)
        hidden.setFont(latin_fonts().symbol, font_size)
        hidden.textOut(text)
        c.drawText(hidden)
    elif text == "÷":
        # Liberation Sans Bold's ÷ is lighter than its + and ×, and faded on a photocopy: drawn with an outline
        # as well, it is as heavy as they are (the text is still "÷" for copying and searching).
        obj = c.beginText(x + size / 2 - pdfmetrics.stringWidth(text, latin_fonts().bold, font_size) / 2, baseline)
        obj.setTextRenderMode(2)
        obj.setFont(latin_fonts().bold, font_size)
        c.setStrokeColorRGB(*INK)
        c.setLineWidth(font_size * 0.045)
        obj.textOut(text)
        c.drawText(obj)
    else:
        draw_text(c, x + size / 2, baseline, text, font_size, bold=True, align="center")
        if text in ("6", "9"):
            c.rect(x + size * 0.36, y + size * 0.12, size * 0.28, size * 0.045, stroke=0, fill=1)
    c.restoreState()

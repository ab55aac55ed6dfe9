"""One face of a die, drawn large and centred: digits and ×10 ×11 ×12 in bold Latin type, + − × ÷ √ as strokes.

The nets, the rules page's table of dice and the score sheet's points all draw faces here, with the colours every
page of the printable dice shares.
"""

from __future__ import annotations

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from suji.rules.dice import CONSTANT_FACES, DIVIDE, MINUS, PLUS, ROOT, SQUARE, TIMES
from suji.worksheets.fonts import SYMBOL_CHARS, latin_fonts

INK = (0.1, 0.16, 0.22)
GREY = (0.42, 0.45, 0.5)
FOLD_INK = (0.3, 0.42, 0.62)  # fold lines: dashed and bluish, so that no one cuts along them
GLUE = (0.84, 0.85, 0.87)
ROLE_FILL = {
    # Target and number dice have the same faces: a tint tells them apart once they are folded.
    "target": (1.0, 0.94, 0.8),
    "number": (1.0, 1.0, 1.0),
    "operator": (0.87, 0.93, 1.0),
}


def _hidden_text(c: Canvas, cx: float, cy: float, text: str, size: float) -> None:
    """Invisible text over a face drawn as lines, so that copying or searching the PDF still finds the face."""
    fonts = latin_fonts()
    font = fonts.symbol_for(fonts.bold) if text in SYMBOL_CHARS else fonts.bold
    obj = c.beginText(cx - pdfmetrics.stringWidth(text, font, size) / 2, cy - size * 0.3)
    obj.setTextRenderMode(3)
    obj.setFont(font, size)
    obj.textOut(text)
    c.drawText(obj)


def draw_face(
    c: Canvas, x: float, y: float, size: float, face: str, fill: tuple[float, float, float]
) -> None:
    """One face of a die as a square at (x, y) (lower left), the symbol large and centred.

    Digits and ×10 ×11 ×12 are in the bold Latin font; + − × ÷ and √ are drawn as strokes (an even weight, centred
    exactly, where the fonts' operators sit low and thin), each with invisible text saying the face; ² is a
    box standing for "a number" with a big raised 2, so that it never reads as the digit 2. A 6 is underlined.
    """
    c.saveState()
    c.setFillColorRGB(*fill)
    c.rect(x, y, size, size, stroke=0, fill=1)
    c.setFillColorRGB(*INK)
    c.setStrokeColorRGB(*INK)
    cx, cy = x + size / 2, y + size / 2
    weight = size * 0.085
    c.setLineWidth(weight)
    c.setLineCap(1)
    c.setLineJoin(1)
    bold = latin_fonts().bold
    if face.isdecimal():  # not isdigit(): "²" is a digit to Python
        font_size = size * 0.62
        # The digits (Liberation Sans has Helvetica's proportions) stand about 0.72 em tall: this centres them.
        baseline = cy - font_size * 0.34
        c.setFont(bold, font_size)
        c.drawCentredString(cx, baseline, face)
        if face in ("6", "9"):
            c.rect(cx - size * 0.15, baseline - size * 0.1, size * 0.3, size * 0.05, stroke=0, fill=1)
    elif face in CONSTANT_FACES:
        font_size = min(size * 0.4, size * 0.72 / pdfmetrics.stringWidth(face, bold, 1))
        c.setFont(bold, font_size)
        c.drawCentredString(cx, cy - font_size * 0.35, face)
    elif face == SQUARE:
        c.setStrokeColorRGB(*GREY)
        c.setLineWidth(size * 0.05)
        c.roundRect(x + size * 0.2, y + size * 0.2, size * 0.3, size * 0.36, size * 0.05, stroke=1, fill=0)
        # Helvetica's ² is a small raised 2 (about 0.4–0.72 em above the baseline): at about one face size per
        # em it stands at the upper right of the box, and the PDF's text says "²".
        c.setFont(bold, size * 0.92)
        c.drawCentredString(x + size * 0.65, y + size * 0.1, face)
    elif face == ROOT:
        p = c.beginPath()
        p.moveTo(x + size * 0.13, y + size * 0.47)
        p.lineTo(x + size * 0.24, y + size * 0.42)
        p.lineTo(x + size * 0.36, y + size * 0.2)
        p.lineTo(x + size * 0.5, y + size * 0.78)
        p.lineTo(x + size * 0.87, y + size * 0.78)
        c.drawPath(p, stroke=1, fill=0)
        c.setStrokeColorRGB(*GREY)
        c.setLineWidth(size * 0.05)
        c.roundRect(x + size * 0.55, y + size * 0.22, size * 0.28, size * 0.38, size * 0.05, stroke=1, fill=0)
        _hidden_text(c, cx, cy, face, size * 0.5)
    else:
        arm = size * 0.21
        if face in (PLUS, MINUS, DIVIDE):
            c.line(cx - arm, cy, cx + arm, cy)
        if face == PLUS:
            c.line(cx, cy - arm, cx, cy + arm)
        elif face == TIMES:
            d = arm * 0.78
            c.line(cx - d, cy - d, cx + d, cy + d)
            c.line(cx - d, cy + d, cx + d, cy - d)
        elif face == DIVIDE:
            for dy in (-1, 1):
                c.circle(cx, cy + dy * size * 0.16, weight * 0.7, stroke=0, fill=1)
        _hidden_text(c, cx, cy, face, size * 0.5)
    c.restoreState()

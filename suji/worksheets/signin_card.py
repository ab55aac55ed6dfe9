"""Printable sign-in cards: a pupil's code in large type with a QR code of the sign-in address.

Practice's card (`signin_card_pdf`): an A4 page (or US letter) with one card of Japanese business-card size
(91 × 55 mm) in its top left corner, a dashed line to cut along, and the same card's words once more below it in
plain sentences for the grown-up who prints it. That card names nobody: it carries the code, the address and
what to do with them. A class's cards (`class_cards_pdf`): one card a pupil, ten to an A4 page (eight on
letter), each with the class, the pupil's class number and name, the code and a QR code that signs them in.

Data flows: (code, address, language) → ReportLab canvas: the texts in the sheet's fonts (suji.worksheets.pdf
draws Japanese with IPAGothic when Debian's font is there), the QR code as squares from segno's matrix, so no
image file and nothing from another host → PDF bytes.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from suji.core.i18n import N_, translate
from suji.core.text import unprintable_chars
from suji.worksheets.pdf_document import new_canvas
from suji.worksheets.pdf_draw import INK, draw_text, fit_text

CARD_WIDTH, CARD_HEIGHT = 91 * mm, 55 * mm
MARGIN = 15 * mm
QR_SIZE = 30 * mm
PAPERS = {"a4": A4, "letter": LETTER}

TEXT = {
    "title": N_("My practice card"),
    "code": N_("Sign-in code"),
    "how": N_(
        "On another device, scan the square or open this address, then press “Sign in” (or type the code)."
    ),
    "keep": N_("Keep this card safe: anyone with the code can see your practice."),
    "grown_up": N_(
        "For the grown-up who printed this: the card lets the pupil carry on their practice on another "
        "device. It holds no name. A new code can be made on the “My data” page, which also downloads or "
        "deletes everything kept."
    ),
}


def _qr(c: Canvas, address: str, x: float, y: float, size: float) -> None:
    """The QR code of `address` with its lower left corner at (x, y), `size` wide, drawn as dark squares."""
    import segno

    matrix = [list(row) for row in segno.make(address, error="m").matrix]
    cells = len(matrix) + 4  # a quiet zone of two modules each side
    cell = size / cells
    c.saveState()
    c.setFillColorRGB(0, 0, 0)
    for r, row in enumerate(matrix):
        for k, dark in enumerate(row):
            if dark:
                c.rect(x + (k + 2) * cell, y + size - (r + 3) * cell, cell, cell, stroke=0, fill=1)
    c.restoreState()


def signin_card_pdf(
    code: str, address: str, lang: str, paper: str = "a4", created: datetime | None = None
) -> bytes:
    """The card of a printed code (KM47-TQXA) and the sign-in address its QR code opens, in `lang`."""
    width, height = PAPERS.get(paper, A4)
    out = io.BytesIO()
    c = new_canvas(out, (width, height), title=translate(TEXT["title"], lang), lang=lang, created=created)
    left, top = MARGIN, height - MARGIN
    bottom = top - CARD_HEIGHT
    c.setStrokeColorRGB(0.5, 0.5, 0.5)
    c.setDash(3, 3)
    c.roundRect(left, bottom, CARD_WIDTH, CARD_HEIGHT, 3 * mm, stroke=1, fill=0)
    c.setDash()
    c.setFillColorRGB(*INK)
    inner = CARD_WIDTH - QR_SIZE - 12 * mm
    draw_text(c, left + 5 * mm, top - 9 * mm, translate(TEXT["title"], lang), 12, bold=True)
    draw_text(c, left + 5 * mm, top - 17 * mm, translate(TEXT["code"], lang), 8)
    size, _ = fit_text(code, 22, 14, inner, bold=True)
    draw_text(c, left + 5 * mm, top - 27 * mm, code, size, bold=True)
    size, lines = fit_text(address, 7, 5.5, inner)
    y = top - 34 * mm
    for line in lines[:2]:
        draw_text(c, left + 5 * mm, y, line, size)
        y -= size * 1.3
    size, lines = fit_text(translate(TEXT["how"], lang), 7, 6, inner)
    y -= 1.5 * mm
    for line in lines[:3]:
        draw_text(c, left + 5 * mm, y, line, size)
        y -= size * 1.3
    _qr(c, address, left + CARD_WIDTH - QR_SIZE - 4 * mm, bottom + (CARD_HEIGHT - QR_SIZE) / 2, QR_SIZE)
    size, lines = fit_text(translate(TEXT["keep"], lang), 7, 6, CARD_WIDTH - 10 * mm)
    y = bottom + 3.5 * mm + (len(lines[:2]) - 1) * size * 1.3
    for line in lines[:2]:
        draw_text(c, left + 5 * mm, y, line, size)
        y -= size * 1.3
    y = bottom - 12 * mm
    size, lines = fit_text(translate(TEXT["grown_up"], lang), 10, 10, width - 2 * MARGIN)
    for line in lines:
        draw_text(c, left, y, line, size)
        y -= size * 1.4
    c.showPage()
    c.save()
    return out.getvalue()


# ---- a class's cards ----

CLASS_TEXT = {
    "title": N_("Sign-in cards: %(class)s"),
    "code": N_("Sign-in code"),
    "how": N_("Scan the square to sign in, or open the address and type the code."),
    "keep": N_("Keep this card safe: it signs in as you."),
    "number": N_("No. %(number)s"),
}
CARD_MARGIN = 8 * mm  # the least margin round the grid of cards (printers leave about 5 mm)


@dataclass(frozen=True)
class ClassCard:
    """One pupil's card: the class, the pupil's class number and name, the printed code, the sign-in address."""

    class_name: str
    pupil_name: str
    number: int | None
    code: str
    address: str


def _printable(text: str) -> str:
    """`text` with the characters the printed fonts lack (emoji, hangul…) shown as "?": a card is never refused."""
    missing = set(unprintable_chars(text))
    return "".join("?" if ch in missing else ch for ch in text)


def _class_card(c: Canvas, card: ClassCard, left: float, bottom: float, lang: str) -> None:
    top = bottom + CARD_HEIGHT
    c.setStrokeColorRGB(0.5, 0.5, 0.5)
    c.setDash(3, 3)
    c.roundRect(left, bottom, CARD_WIDTH, CARD_HEIGHT, 3 * mm, stroke=1, fill=0)
    c.setDash()
    c.setFillColorRGB(*INK)
    inner = CARD_WIDTH - QR_SIZE - 12 * mm
    head = _printable(card.class_name)
    if card.number is not None:
        head += "  " + translate(CLASS_TEXT["number"], lang, number=card.number)
    size, _ = fit_text(head, 9, 6, inner, bold=True)
    draw_text(c, left + 5 * mm, top - 7 * mm, head, size, bold=True)
    name = _printable(card.pupil_name)
    size, _ = fit_text(name, 15, 8, inner, bold=True)
    draw_text(c, left + 5 * mm, top - 14.5 * mm, name, size, bold=True)
    draw_text(c, left + 5 * mm, top - 20.5 * mm, translate(CLASS_TEXT["code"], lang), 7)
    size, _ = fit_text(card.code, 20, 13, inner, bold=True)
    draw_text(c, left + 5 * mm, top - 28.5 * mm, card.code, size, bold=True)
    size, lines = fit_text(card.address, 6.5, 5, inner)
    y = top - 34 * mm
    for line in lines[:2]:
        draw_text(c, left + 5 * mm, y, line, size)
        y -= size * 1.3
    size, lines = fit_text(translate(CLASS_TEXT["how"], lang), 6.5, 5.5, inner)
    y -= 1 * mm
    for line in lines[:2]:
        draw_text(c, left + 5 * mm, y, line, size)
        y -= size * 1.3
    _qr(c, card.address, left + CARD_WIDTH - QR_SIZE - 4 * mm, bottom + (CARD_HEIGHT - QR_SIZE) / 2 + 2 * mm, QR_SIZE)
    size, lines = fit_text(translate(CLASS_TEXT["keep"], lang), 6.5, 5.5, CARD_WIDTH - 10 * mm)
    draw_text(c, left + 5 * mm, bottom + 3.5 * mm, lines[0], size)


def class_cards_pdf(
    cards: Sequence[ClassCard], lang: str, paper: str = "a4", created: datetime | None = None
) -> bytes:
    """A class's cards, as many to a page as fit in a grid (two across and five down on A4), in `lang`."""
    width, height = PAPERS.get(paper, A4)
    across = max(1, int((width - 2 * CARD_MARGIN) // CARD_WIDTH))
    down = max(1, int((height - 2 * CARD_MARGIN) // CARD_HEIGHT))
    left0 = (width - across * CARD_WIDTH) / 2
    top0 = height - (height - down * CARD_HEIGHT) / 2
    out = io.BytesIO()
    title = translate(CLASS_TEXT["title"], lang, **{"class": cards[0].class_name if cards else ""})
    c = new_canvas(out, (width, height), title=title, lang=lang, created=created)  # embedded fonts, metadata
    per_page = across * down
    for start in range(0, max(len(cards), 1), per_page):
        for i, card in enumerate(cards[start : start + per_page]):
            row, col = divmod(i, across)
            _class_card(c, card, left0 + col * CARD_WIDTH, top0 - (row + 1) * CARD_HEIGHT, lang)
        c.showPage()
    c.save()
    return out.getvalue()

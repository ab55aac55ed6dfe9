"""The Japanese font of the project's PDFs (suji.worksheet_pdf, suji.dice_nets), registered with ReportLab once.

A sheet is printed by whatever printer and viewer a school has, so the Japanese text is drawn with IPAGothic
(Debian's fonts-ipafont-gothic, which CI installs), embedded as a subset: an embedded font prints the same
everywhere. Without the file the PDF is still made, with ReportLab's built-in CID font HeiseiKakuGo-W5, which is
not embedded (each viewer draws it with a Japanese font of its own). `japanese_font()` registers whichever is
found and returns its name; the PDF modules pass that name to ReportLab like any other font. Latin text stays in
Helvetica and − √ in Symbol, the PDF standard fonts every viewer has.

The few characters the CID font has and IPAGothic lacks are refused in a worksheet's free text
(suji.worksheets.pdf_can_print), so that what a teacher may type prints with either font.
"""

from __future__ import annotations

import os
from functools import cache

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFError, TTFont

CID_FONT = "HeiseiKakuGo-W5"
EMBEDDED_FONT = "IPAGothic"
JAPANESE_FONT_FILES = (
    "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf",
    "/usr/share/fonts/truetype/fonts-japanese-gothic.ttf",  # Debian's alternatives link, often to the same font
)


def japanese_font(files: tuple[str, ...] | None = None) -> str:
    """Register and name the Japanese font: IPAGothic, embedded, from the first of `files` (JAPANESE_FONT_FILES
    when None) that ReportLab can read; else the CID font."""
    return _register(JAPANESE_FONT_FILES if files is None else tuple(files))


@cache
def _register(files: tuple[str, ...]) -> str:
    # Cached by the list of files: a test that hides the file gets the fallback without undoing the real font.
    for path in files:
        if os.path.isfile(path):
            try:
                font = TTFont(EMBEDDED_FONT, path)
            except (TTFError, OSError):
                continue  # not a TrueType font ReportLab can embed (an OpenType/CFF file, say)
            if EMBEDDED_FONT not in pdfmetrics.getRegisteredFontNames():
                pdfmetrics.registerFont(font)
            return EMBEDDED_FONT
    if CID_FONT not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(UnicodeCIDFont(CID_FONT))
    return CID_FONT


def is_embedded(font: str) -> bool:
    """Whether `font` (a name from `japanese_font`) is embedded in the PDF, so its glyph widths are its own."""
    return font == EMBEDDED_FONT

"""The fonts of the project's PDFs (suji.worksheets.pdf, .dice_nets, .signin_card), registered with ReportLab once.

A sheet is printed by whatever printer and viewer a school has, so the Japanese text is drawn with IPAGothic
(Debian's fonts-ipafont-gothic, which CI installs), embedded as a subset: an embedded font prints the same
everywhere. Without the file the PDF is still made, with ReportLab's built-in CID font HeiseiKakuGo-W5, which is
not embedded (each viewer draws it with a Japanese font of its own). `japanese_font()` registers whichever is
found and returns its name; the PDF modules pass that name to ReportLab like any other font.

Latin text, and − √ with it, is drawn with Liberation Sans (Debian's fonts-liberation, which CI installs), also
embedded as a subset: it has Helvetica's widths, so every layout measured in Helvetica stays as it was, and it
has its own − and √. The PDF standard fonts Helvetica and Symbol are never embedded, and a viewer that draws
Symbol's − with a font of its own runs it into the next digit ("−7" read as a crossed 7). Without the files the
PDF falls back to Helvetica and Symbol (`latin_fonts()` says which).

The few characters the CID font has and IPAGothic lacks are refused in a worksheet's free text
(suji.worksheets.sheet.pdf_can_print), so that what a teacher may type prints with either font.
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFError, TTFont
from reportlab.pdfgen.canvas import Canvas

from suji.core.caching import bounded

CID_FONT = "HeiseiKakuGo-W5"
LATIN_EMBEDDED = ("LiberationSans", "LiberationSans-Bold")
LATIN_FONT_FILES = (
    (
        "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
        "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf",
    ),
    (
        "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
        "/usr/share/fonts/truetype/liberation2/LiberationSans-Bold.ttf",
    ),
)
EMBEDDED_FONT = "IPAGothic"
JAPANESE_FONT_FILES = (
    "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf",
    "/usr/share/fonts/truetype/fonts-japanese-gothic.ttf",  # Debian's alternatives link, often to the same font
)


def japanese_font(files: tuple[str, ...] | None = None) -> str:
    """Register and name the Japanese font: IPAGothic, embedded, from the first of `files` (JAPANESE_FONT_FILES
    when None) that ReportLab can read; else the CID font."""
    return _register(JAPANESE_FONT_FILES if files is None else tuple(files))


@bounded("pdf_fonts")
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


# ---- Latin text ------------------------------------------------------------------------------------------------

STANDARD_LATIN = ("Helvetica", "Helvetica-Bold")  # the fallback: PDF standard fonts, never embedded
SYMBOL_FONT = "Symbol"  # the fallback's − and √ (Helvetica's WinAnsi encoding has neither)
SYMBOL_CHARS = frozenset("−√")


@dataclass(frozen=True)
class LatinFonts:
    """The fonts of Latin text: regular, bold, and the fonts of − and √ beside each (the text's own font when it
    has them: a bold − beside a bold + and ×, not a regular one that looks faint on a die and on a photocopy)."""

    regular: str
    bold: str
    symbol: str
    symbol_bold: str = ""  # "": the same as `symbol` (Symbol has one weight)

    def symbol_for(self, latin: str) -> str:
        """The font of − and √ in text set in `latin` (the regular or the bold font)."""
        return self.symbol_bold if latin == self.bold and self.symbol_bold else self.symbol

    @property
    def embedded(self) -> bool:
        return self.regular in LATIN_EMBEDDED


def latin_fonts(files: tuple[tuple[str, ...], tuple[str, ...]] | None = None) -> LatinFonts:
    """Register and name the Latin fonts: Liberation Sans regular and bold, embedded, from the first readable file
    of each list of `files` (LATIN_FONT_FILES when None); else Helvetica and Symbol."""
    return _register_latin(LATIN_FONT_FILES if files is None else (tuple(files[0]), tuple(files[1])))


@bounded("pdf_latin_fonts")  # one entry in practice: the list of files is the package's own
def _register_latin(files: tuple[tuple[str, ...], tuple[str, ...]]) -> LatinFonts:
    names = []
    for name, paths in zip(LATIN_EMBEDDED, files, strict=True):
        for path in paths:
            if os.path.isfile(path):
                try:
                    font = TTFont(name, path)
                except (TTFError, OSError):
                    continue
                if name not in pdfmetrics.getRegisteredFontNames():
                    pdfmetrics.registerFont(font)
                names.append(name)
                break
    if len(names) < 2:  # both or neither: a bold Helvetica beside a regular Liberation would look odd
        return LatinFonts(*STANDARD_LATIN, SYMBOL_FONT)
    return LatinFonts(names[0], names[1], names[0], names[1])


def latin_font(bold: bool = False) -> str:
    """The font of Latin text (the dice faces' digits use the bold one)."""
    fonts = latin_fonts()
    return fonts.bold if bold else fonts.regular


# ---- mixed text: one way of drawing it for every PDF ---------------------------------------------------------


def is_narrow(char: str) -> bool:
    """A character the Japanese font must draw that is not a full-width one (ū of Sūji, say)."""
    return unicodedata.east_asian_width(char) not in ("W", "F")


@dataclass(frozen=True)
class TextFonts:
    """How a PDF draws text that mixes scripts: Latin (and − √) in `latin`, the rest in `japanese`.

    `printable` says which characters the sheet may print at all; any other is drawn as "?" (an empty box of the
    wrong width would overlap its neighbours).
    """

    japanese: str
    printable: Callable[[str], bool] = field(default=lambda char: True)
    latin: LatinFonts = field(default_factory=latin_fonts)

    def font_for(self, char: str, latin: str) -> str:
        if char in SYMBOL_CHARS:
            return self.latin.symbol_for(latin)
        try:
            char.encode("cp1252")
        except UnicodeEncodeError:
            return self.japanese
        return latin

    def runs(self, text: str, bold: bool = False) -> Iterator[tuple[str, str]]:
        """Split `text` into (font, chunk) runs: each character in a font that has it."""
        latin = self.latin.bold if bold else self.latin.regular
        chunk, font = "", None
        for char in text:
            if not self.printable(char):
                char = "?"
            f = self.font_for(char, latin)
            # Narrow characters of the CID font each get a run of their own: see advance.
            if chunk and (f != font or (f == CID_FONT and (is_narrow(char) or is_narrow(chunk[-1])))):
                yield font, chunk  # type: ignore[misc]
                chunk = ""
            font = f
            chunk += char
        if chunk:
            yield font, chunk  # type: ignore[misc]

    def advance(self, font: str, chunk: str, size: float, bold: bool) -> float:
        """How far a run moves the pen. The embedded font has its own widths; ReportLab gives every character
        of the CID font a full em, so a narrow one (ū) is placed as wide as its base letter in Helvetica, so
        that "Sūji" does not gape."""
        if font == CID_FONT and len(chunk) == 1 and is_narrow(chunk):
            base = unicodedata.normalize("NFKD", chunk)[0]
            latin = self.latin.bold if bold else self.latin.regular
            if self.font_for(base, latin) == latin:
                return pdfmetrics.stringWidth(base, latin, size)
            return size * 0.55
        return pdfmetrics.stringWidth(chunk, font, size)

    def width(self, text: str, size: float, bold: bool = False) -> float:
        """The printed width of `text` at `size` points, font runs included."""
        return sum(self.advance(font, chunk, size, bold) for font, chunk in self.runs(text, bold))

    def draw(
        self, c: Canvas, x: float, y: float, text: str, size: float, bold: bool = False, align: str = "left"
    ) -> float:
        """Draw `text` with its baseline at y (aligned left, center or right of x); returns the width."""
        width = self.width(text, size, bold)
        if align == "center":
            x -= width / 2
        elif align == "right":
            x -= width
        for font, chunk in self.runs(text, bold):
            if bold and font == self.japanese:
                # Both Japanese fonts have one weight: fill and stroke the glyphs for a bold look.
                obj = c.beginText(x, y)
                obj.setFont(font, size)
                obj.setTextRenderMode(2)
                c.saveState()
                c.setLineWidth(size * 0.035)
                c.setStrokeColor(c._fillColorObj)
                obj.textOut(chunk)
                c.drawText(obj)
                c.restoreState()
            else:
                c.setFont(font, size)
                c.drawString(x, y, chunk)
            x += self.advance(font, chunk, size, bold)
        return width

"""Printable dice: the cube nets of one player's twelve dice, the rules on one page and a score sheet, as one PDF.

Classes rarely own the game's special dice, so they print and fold their own. Data flows one way:
`dice_nets_pdf(lang, paper)` takes the dice one player needs from suji.rules.dice (TARGET_KINDS, NUMBER_KINDS,
OPERATOR_KINDS and the faces of each kind, never retyped here) → `one_player_dice` → each die's faces are put
in opposite pairs (`opposite_pairs`) and the pairs onto the six squares of a cross-shaped net → `_Writer` draws
the nets four to a page at true size (EDGE_MM), then the rules page (points and costs read from suji.rules.scoring)
and the score sheet, with ReportLab → the PDF's bytes.

Pages (PAGE_COUNT): 1–3 the nets (three target dice, five number dice, four operator dice), 4 the rules,
5 the score sheet for 2–6 players. Every text a person reads is an `N_` msgid translated with suji.core.i18n.

Fonts: Helvetica for Latin text and the faces, Symbol for − and √ in running text (not in Helvetica's
encoding). Japanese comes from suji.worksheets.fonts, shared with the worksheets: IPAGothic embedded as a subset when
the file is on the machine (a cut-out sheet is printed by whatever printer and viewer a school has, and an
embedded font prints the same everywhere), else the non-embedded CID font HeiseiKakuGo-W5, so the PDF is still
made.
"""

from __future__ import annotations

import io
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from suji.core.i18n import LANGUAGES, N_, translate
from suji.rules.dice import (
    CONSTANT_FACES,
    DIVIDE,
    MINUS,
    NUMBER_DICE_FACES,
    NUMBER_KINDS,
    OPERATOR_DICE_FACES,
    OPERATOR_FACES,
    OPERATOR_KINDS,
    PLUS,
    ROOT,
    SQUARE,
    TARGET_KINDS,
    TIMES,
    target_numbers,
)
from suji.rules.scoring import OPERATOR_POINTS, REROLL_COST, SET_FACE_COST, apply_costs
from suji.worksheets import fonts as pdf_fonts
from suji.worksheets.fonts import CID_FONT, EMBEDDED_FONT, JAPANESE_FONT_FILES  # noqa: F401 - see # Fonts below

PAPER_SIZES = {"a4": A4, "letter": LETTER}

# The cube: 25 mm an edge makes a die a child can roll and read, and four nets (75 × 107 mm each with the glue
# tab) still fit on a US Letter page, the shorter of the two papers.
EDGE_MM = 25
EDGE = EDGE_MM * mm
TAB = 7 * mm  # depth of a glue tab; its ends slant at 45° so that tabs meeting inside a corner do not collide
NETS_PER_PAGE = 4
NET_WIDTH = 3 * EDGE
NET_HEIGHT = 4 * EDGE + TAB

MARGIN = 9 * mm
FOOTER_Y = 5 * mm  # the footer sits in the bottom margin, as in suji.worksheets.pdf

# Fonts (see the module docstring for the choice). The Japanese font's names and files come from suji.worksheets.fonts;
# they are named here too so that a test can hide the file from this module (JAPANESE_FONT_FILES).
from suji.worksheets.fonts import LATIN_BOLD, LATIN_FONT, SYMBOL_CHARS, SYMBOL_FONT  # noqa: E402,F401 - one home

_SYMBOL_CHARS = SYMBOL_CHARS

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

# ---- texts --------------------------------------------------------------------------------------------------

TEXTS = {
    "doc_title": N_("Sūji de Asobo: dice to print, cut out and fold"),
    "footer": N_("Sūji de Asobo"),
    "page": N_("Page %(page)s of %(pages)s"),
    # the nets
    "nets_title": N_("Sūji de Asobo dice nets (%(sheet)s of %(sheets)s)"),
    "target_die": N_("Target die %(letter)s"),
    "number_die": N_("Number die %(letter)s"),
    "operator_die": N_("Operator die %(letter)s"),
    "edge": N_("Cube edge %(edge)s mm — print at 100%% (actual size), not “fit to page”."),
    "ruler": N_("%(cm)s cm when printed at actual size"),
    "needs": N_(
        "One player needs %(total)s dice: %(targets)s target dice (%(target_kinds)s), %(numbers)s number dice "
        "(%(number_kinds)s) and %(operators)s operator dice (%(operator_kinds)s)."
    ),
    "how_to_make": N_(
        "Cut along the solid lines and fold along the dashed lines. Put glue on the grey tabs and stick each "
        "one inside the face it meets. A 6 is underlined so that it is not taken for a 9."
    ),
    "cut": N_("cut"),
    "fold": N_("fold"),
    "glue": N_("glue"),
    # the rules
    "rules_title": N_("How to play Sūji de Asobo"),
    "rules_intro": N_(
        "Make one of the target numbers with the number dice and the operator dice. You need not use every "
        "die, but more dice and harder operators score more."
    ),
    "h_dice": N_("The dice"),
    "die": N_("Die"),
    "faces": N_("Faces"),
    "how_many": N_("How many"),
    "target_dice_note": N_(
        "Target dice: one each of A, B and C, with the same faces as the number dice A, B and C."
    ),
    "h_target": N_("The target"),
    "target_rule": N_(
        "Roll the three target dice. Every 3-digit number made from their faces in any order is a target: "
        "%(dice)s give %(numbers)s."
    ),
    "target_nine": N_("A 6 may be read as 9 on every die, target dice too: %(dice)s give %(numbers)s."),
    "h_formula": N_("Making a formula"),
    "formula_goal": N_(
        "Roll the number dice and the operator dice and put some of them in a row to make one formula. Its "
        "value must be exactly one of the targets."
    ),
    "formula_numbers": N_(
        "Number dice side by side make one bigger number: 2 and 6 make 26, 29, 62 or 92. There is no 0."
    ),
    "formula_order": N_(
        "No parentheses. Work out ² and √ first, then × ÷ ×10 ×11 ×12, then + and −; from left to right "
        "within each step."
    ),
    "formula_signs": N_(
        "− may stand as a minus sign only at the very start. Two of + − × ÷ may never stand side by side."
    ),
    "formula_constants": N_(
        "×10, ×11 and ×12 go right after a number, and no number may come straight after them: 23×11 is "
        "fine, 3×112 is not."
    ),
    "formula_powers": N_(
        "² goes after a number and squares just that number: 21² = 441. √ goes before a number and takes the "
        "square root of just that number: √9+4 = 7."
    ),
    "formula_exact": N_("Fractions on the way are fine: only the value at the end must be a target."),
    "h_redundant": N_("Dice that change nothing do not count"),
    "redundant": N_(
        "Dice that could be left out without changing the value are taken away before scoring: 5+1−1 counts "
        "as 5, 8+2÷11×11 as 8+2, 5−1² as 5−1."
    ),
    "h_score": N_("Score"),
    "operator": N_("Operator"),
    "points": N_("Points"),
    "score_rule": N_("Score = operator points × number dice used. A formula of digits only scores 0."),
    "score_example": N_(
        "Target %(target)s: %(formula)s uses %(operators)s, %(points)s points, and %(dice)s number dice: %(points)s × "
        "%(dice)s = %(score)s points."
    ),
    "h_rerolls": N_("Re-rolls"),
    "rerolls": N_(
        "Before answering you may re-roll any number or operator dice at %(reroll)s point a die, or set a die "
        "to the face you want at %(set_face)s points a die. The cost comes off the score, which never goes "
        "below 0."
    ),
    "reroll_example": N_("With %(n)s dice re-rolled, the %(points)s points above become %(score)s."),
    "h_together": N_("Playing together"),
    "together": N_(
        "The target dice stay. In turn, each player rolls all the number and operator dice and answers the "
        "same target. After several targets the highest total wins."
    ),
    # the score sheet
    "sheet_title": N_("Score sheet"),
    "sheet_intro": N_(
        "For 2 to 6 players. Write the target of each round and every player's score, with the re-roll costs "
        "already taken off. The highest total wins."
    ),
    "round": N_("Round"),
    "target": N_("Target"),
    "name": N_("Name"),
    "total": N_("Total"),
    "sheet_reminder": N_(
        "Score = operator points × number dice used, minus %(reroll)s for each die re-rolled and %(set_face)s "
        "for each face set (never below 0)."
    ),
}

# The rules page's examples (RULES.md §1), written with the face constants; tests check them with suji.rules.scoring.
EXAMPLE_TARGET_DICE = (1, 2, 5)
EXAMPLE_NINE_DICE = (4, 4, 6)
EXAMPLE_TARGET = 446
EXAMPLE_FORMULA: tuple[int | str, ...] = (2, 1, SQUARE, PLUS, 4, PLUS, 1)
EXAMPLE_REROLLED = 3

ROUNDS = 12  # rows of the score sheet
PLAYERS = 6


def _text(key: str, lang: str, **params: object) -> str:
    return translate(TEXTS[key], lang, **params)


# ---- the dice -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NetDie:
    """One die to print: its role (target, number or operator), its kind letter and its six faces."""

    role: str
    letter: str
    faces: tuple[str, ...]

    def name(self, lang: str) -> str:
        return _text(f"{self.role}_die", lang, letter=self.letter)


def one_player_dice() -> list[NetDie]:
    """The twelve dice of one player, in print order: target dice, number dice, operator dice."""
    dice = [NetDie("target", k, tuple(map(str, NUMBER_DICE_FACES[k]))) for k in TARGET_KINDS]
    dice += [NetDie("number", k, tuple(map(str, NUMBER_DICE_FACES[k]))) for k in NUMBER_KINDS]
    dice += [NetDie("operator", k, OPERATOR_DICE_FACES[k]) for k in OPERATOR_KINDS]
    return dice


NET_PAGES = -(-len(one_player_dice()) // NETS_PER_PAGE)
PAGE_COUNT = NET_PAGES + 2  # the rules and the score sheet


def opposite_pairs(faces: Sequence[str]) -> list[tuple[str, str]]:
    """The die's faces as three pairs of opposite faces.

    No rule asks for any order; these follow ordinary dice. Number dice: smallest opposite largest, so the
    opposite faces of die A add up to 7 as on any die. Operator dice: equal faces opposite each other, so that
    the three faces seen at once are different, then the rest in the order of suji.rules.dice.
    """
    if all(f.isdecimal() for f in faces):
        ordered = sorted(faces, key=int)
        return [(ordered[i], ordered[-1 - i]) for i in range(3)]
    pairs: list[tuple[str, str]] = []
    rest: list[str] = []
    for face in faces:
        if face in rest:
            rest.remove(face)
            pairs.append((face, face))
        else:
            rest.append(face)
    pairs += [(rest[i], rest[i + 1]) for i in range(0, len(rest), 2)]
    return pairs


# The cross-shaped net, (column, row) with row 0 at the top: the column is top, front, bottom and back of the
# cube, the arms are its left and right. Squares 0 and 2, 1 and 3, 4 and 5 end up opposite each other.
NET_SQUARES = ((1, 0), (1, 1), (1, 2), (1, 3), (0, 1), (2, 1))
_OPPOSITE_SLOTS = ((0, 2), (1, 3), (4, 5))
# Glue tabs, one for each of the seven edges that meet when the net is folded: (square, side). The back's
# bottom tab (glued under the top's far edge) is the widest of the horizontal ones and carries the die's name.
NET_TABS = ((4, "top"), (4, "bottom"), (5, "top"), (5, "bottom"), (3, "left"), (3, "right"), (3, "bottom"))
NAME_TAB = (3, "bottom")


def net_faces(die: NetDie) -> tuple[str, ...]:
    """The face printed on each square of NET_SQUARES, opposite faces on opposite squares."""
    placed = [""] * 6
    for (a, b), (slot_a, slot_b) in zip(opposite_pairs(die.faces), _OPPOSITE_SLOTS, strict=True):
        placed[slot_a], placed[slot_b] = a, b
    return tuple(placed)


# ---- fonts and text -----------------------------------------------------------------------------------------


@cache
def japanese_font() -> str:
    """The Japanese font (suji.worksheets.fonts), looked for in this module's JAPANESE_FONT_FILES."""
    return pdf_fonts.japanese_font(JAPANESE_FONT_FILES)


def _fonts() -> pdf_fonts.TextFonts:
    """Mixed text as every PDF of the project draws it (suji.worksheets.fonts), with this module's Japanese font."""
    return pdf_fonts.TextFonts(japanese_font())


def text_width(text: str, size: float, bold: bool = False) -> float:
    """The printed width of `text` at `size` points."""
    return _fonts().width(text, size, bold)


def draw_text(
    c: Canvas, x: float, y: float, text: str, size: float, bold: bool = False, align: str = "left"
) -> float:
    """Draw `text` with its baseline at y, aligned left, center or right of x; returns its width."""
    return _fonts().draw(c, x, y, text, size, bold, align)


_NO_LINE_END = frozenset("「『（【〈《")  # opening brackets stay with what they open
_NO_LINE_START = frozenset("、。，．・：；！？）」』】〉》ーぁぃぅぇぉっゃゅょァィゥェォッャュョ々…")


def _is_wide(char: str) -> bool:
    return unicodedata.east_asian_width(char) in ("W", "F")


def _carry_from(line: str, char: str) -> int:
    """Where to break `line` when `char` does not fit after it: the index of the first character carried over."""
    k = len(line)
    if not _is_wide(char) or char in _NO_LINE_START:
        # A Latin word or a formula (8+2÷11, 21²+4+1) moves whole, and takes a 、 or 。 after it along.
        while k > 0 and line[k - 1] != " " and not _is_wide(line[k - 1]):
            k -= 1
        if char in _NO_LINE_START and k == len(line):
            k -= 1  # the line ends in a Japanese character: it goes along with the 、 or 。
    while k > 0 and line[k - 1] in _NO_LINE_END:
        k -= 1
    return k if k > 0 else len(line)


def wrap(text: str, size: float, width: float, bold: bool = False) -> list[str]:
    """Break `text` into lines no wider than `width`: at spaces between Latin words, between any two Japanese
    characters (Japanese has no spaces), but never before a character Japanese does not start a line with,
    nor after an opening bracket."""
    lines: list[str] = []
    line = ""
    for char in text:
        trial = line + char
        if not line or text_width(trial, size, bold) <= width:
            line = trial
        elif char == " ":
            lines.append(line)
            line = ""
        else:
            k = _carry_from(line, char)
            lines.append(line[:k])
            line = line[k:].lstrip() + char
    if line:
        lines.append(line)
    return [ln.strip() for ln in lines]


def fit_size(text: str, size: float, min_size: float, width: float, bold: bool = False) -> float:
    """The largest size from `size` down to `min_size` at which `text` fits `width` (else `min_size`)."""
    while size > min_size and text_width(text, size, bold) > width:
        size -= 0.25
    return size


# ---- faces --------------------------------------------------------------------------------------------------


def _hidden_text(c: Canvas, cx: float, cy: float, text: str, size: float) -> None:
    """Invisible text over a face drawn as lines, so that copying or searching the PDF still finds the face."""
    font = SYMBOL_FONT if text in _SYMBOL_CHARS else LATIN_BOLD
    obj = c.beginText(cx - pdfmetrics.stringWidth(text, font, size) / 2, cy - size * 0.3)
    obj.setTextRenderMode(3)
    obj.setFont(font, size)
    obj.textOut(text)
    c.drawText(obj)


def draw_face(
    c: Canvas, x: float, y: float, size: float, face: str, fill: tuple[float, float, float]
) -> None:
    """One face of a die as a square at (x, y) (lower left), the symbol large and centred.

    Digits and ×10 ×11 ×12 are Helvetica Bold; + − × ÷ and √ are drawn as strokes (an even weight, centred
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
    if face.isdecimal():  # not isdigit(): "²" is a digit to Python
        font_size = size * 0.62
        # Helvetica's digits stand about 0.72 em tall: this centres them.
        baseline = cy - font_size * 0.34
        c.setFont(LATIN_BOLD, font_size)
        c.drawCentredString(cx, baseline, face)
        if face in ("6", "9"):
            c.rect(cx - size * 0.15, baseline - size * 0.1, size * 0.3, size * 0.05, stroke=0, fill=1)
    elif face in CONSTANT_FACES:
        font_size = min(size * 0.4, size * 0.72 / pdfmetrics.stringWidth(face, LATIN_BOLD, 1))
        c.setFont(LATIN_BOLD, font_size)
        c.drawCentredString(cx, cy - font_size * 0.35, face)
    elif face == SQUARE:
        c.setStrokeColorRGB(*GREY)
        c.setLineWidth(size * 0.05)
        c.roundRect(x + size * 0.2, y + size * 0.2, size * 0.3, size * 0.36, size * 0.05, stroke=1, fill=0)
        # Helvetica's ² is a small raised 2 (about 0.4–0.72 em above the baseline): at about one face size per
        # em it stands at the upper right of the box, and the PDF's text says "²".
        c.setFont(LATIN_BOLD, size * 0.92)
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


# ---- the writer ---------------------------------------------------------------------------------------------


class _Writer:
    """Draws the pages one after another on one canvas."""

    def __init__(self, lang: str, paper: str) -> None:
        japanese_font()
        self.lang = lang
        self.width, self.height = PAPER_SIZES[paper]
        self.inner = self.width - 2 * MARGIN
        self.page = 0
        self.buffer = io.BytesIO()
        # invariant: no creation date or random id, so the same arguments give the same bytes on one machine.
        self.c = Canvas(self.buffer, pagesize=(self.width, self.height), pageCompression=1, invariant=1)
        self.c.setTitle(self.t("doc_title"))
        self.c.setCreator("suji")

    def t(self, key: str, **params: object) -> str:
        return _text(key, self.lang, **params)

    def end_page(self) -> None:
        c = self.c
        self.page += 1
        c.setFillColorRGB(*GREY)
        draw_text(c, MARGIN, FOOTER_Y, self.t("footer"), 8)
        draw_text(c, self.width - MARGIN, FOOTER_Y, self.t("page", page=self.page, pages=PAGE_COUNT), 8,
                  align="right")  # fmt: skip
        c.showPage()

    def paragraph(self, x: float, y: float, text: str, size: float, width: float, draw: bool = True,
                  bold: bool = False, leading: float = 1.4) -> float:  # fmt: skip
        """Wrapped text whose first baseline is at y; returns the last baseline."""
        for i, line in enumerate(wrap(text, size, width, bold)):
            if i:
                y -= size * leading
            if draw:
                draw_text(self.c, x, y, line, size, bold)
        return y

    # ---- nets -----------------------------------------------------------------------------------------------

    def nets_header(self, sheet: int, draw: bool = True) -> float:
        """Title, true-size note with a ruler, what to make and how, the line legend; returns its bottom."""
        c = self.c
        y = self.height - MARGIN - 4.5 * mm
        c.setFillColorRGB(*INK)
        title = self.t("nets_title", sheet=sheet, sheets=NET_PAGES)
        legend_w = self.legend(0, 0, draw=False)
        if draw:
            draw_text(
                c, MARGIN, y, title, fit_size(title, 14, 10, self.inner - legend_w - 6 * mm, True), True
            )
            self.legend(self.width - MARGIN - legend_w, y, draw=True)
        # The size note in bold beside a 5 cm ruler: a teacher can check the print with any ruler.
        y -= 7.5 * mm
        ruler = 50 * mm
        note_w = self.inner - ruler - 8 * mm
        note = self.t("edge", edge=EDGE_MM)
        y_note = self.paragraph(MARGIN, y, note, 10, note_w, draw, bold=True, leading=1.3)
        if draw:
            self.ruler(self.width - MARGIN - ruler, y + 1 * mm, ruler)
        y = min(y_note, y - 3 * mm) - 5.5 * mm
        counts = Counter(d.role for d in one_player_dice())
        needs = self.t(
            "needs",
            total=len(one_player_dice()),
            targets=counts["target"],
            target_kinds=", ".join(TARGET_KINDS),
            numbers=counts["number"],
            number_kinds=", ".join(NUMBER_KINDS),
            operators=counts["operator"],
            operator_kinds=", ".join(OPERATOR_KINDS),
        )
        c.setFillColorRGB(*INK)
        y = self.paragraph(MARGIN, y, needs + " " + self.t("how_to_make"), 9, self.inner, draw, leading=1.35)
        return y - 3 * mm

    def legend(self, x: float, y: float, draw: bool) -> float:
        """Cut, fold and glue samples in a row starting at x; returns the row's width."""
        c = self.c
        sample = 9 * mm
        start = x
        for key in ("cut", "fold", "glue"):
            if draw:
                c.saveState()
                if key == "glue":
                    c.setFillColorRGB(*GLUE)
                    c.setStrokeColorRGB(*INK)
                    c.setLineWidth(0.9)
                    c.rect(x, y - 0.5 * mm, sample, 3.2 * mm, stroke=1, fill=1)
                else:
                    self.line_style(key)
                    c.line(x, y + 1.1 * mm, x + sample, y + 1.1 * mm)
                c.restoreState()
                c.setFillColorRGB(*INK)
            x += sample + 1.5 * mm
            x += (draw_text(c, x, y, self.t(key), 9) if draw else text_width(self.t(key), 9)) + 4 * mm
        return x - start - 4 * mm

    def ruler(self, x: float, y: float, length: float) -> None:
        c = self.c
        c.saveState()
        c.setStrokeColorRGB(*INK)
        c.setLineWidth(0.8)
        c.line(x, y, x + length, y)
        for i in range(int(round(length / (10 * mm))) + 1):
            tick = 2.2 * mm if i % 5 == 0 else 1.4 * mm
            c.line(x + i * 10 * mm, y, x + i * 10 * mm, y + tick)
        c.setFillColorRGB(*GREY)
        label = self.t("ruler", cm=int(round(length / (10 * mm))))
        draw_text(c, x + length / 2, y - 3.3 * mm, label, fit_size(label, 7.5, 5.5, length), align="center")
        c.restoreState()

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

    def nets(self) -> None:
        dice = one_player_dice()
        for sheet in range(1, NET_PAGES + 1):
            top = self.nets_header(sheet)
            bottom = MARGIN
            gap_y = (top - bottom - 2 * NET_HEIGHT) / 3
            gap_x = (self.inner - 2 * NET_WIDTH) / 3
            if gap_y < 0 or gap_x < 0:
                raise RuntimeError("the nets do not fit the page")  # a layout bug, caught by the tests
            page_dice = dice[(sheet - 1) * NETS_PER_PAGE : sheet * NETS_PER_PAGE]
            for i, die in enumerate(page_dice):
                row, col = divmod(i, 2)
                x = MARGIN + gap_x + col * (NET_WIDTH + gap_x)
                y = top - gap_y - row * (NET_HEIGHT + gap_y)
                self.net(die, x, y)
            self.end_page()

    def net(self, die: NetDie, left: float, top: float) -> None:
        """One cross-shaped net with its top left corner at (left, top)."""
        c = self.c

        def corner(square: int) -> tuple[float, float]:
            col, row = NET_SQUARES[square]
            return left + col * EDGE, top - (row + 1) * EDGE

        def edge(
            square: int, side: str
        ) -> tuple[tuple[float, float], tuple[float, float], tuple[float, float]]:
            """The side of a square as its two ends and the outward direction."""
            x, y = corner(square)
            return {
                "top": ((x, y + EDGE), (x + EDGE, y + EDGE), (0, 1)),
                "bottom": ((x, y), (x + EDGE, y), (0, -1)),
                "left": ((x, y), (x, y + EDGE), (-1, 0)),
                "right": ((x + EDGE, y), (x + EDGE, y + EDGE), (1, 0)),
            }[side]

        # Glue tabs: grey trapezoids with 45° ends.
        outlines = []
        for square, side in NET_TABS:
            (x1, y1), (x2, y2), (nx, ny) = edge(square, side)
            dx, dy = (x2 - x1) / EDGE, (y2 - y1) / EDGE
            a = (x1 + nx * TAB + dx * TAB, y1 + ny * TAB + dy * TAB)
            b = (x2 + nx * TAB - dx * TAB, y2 + ny * TAB - dy * TAB)
            outlines.append(((x1, y1), a, b, (x2, y2)))
            p = c.beginPath()
            p.moveTo(x1, y1)
            p.lineTo(*a)
            p.lineTo(*b)
            p.lineTo(x2, y2)
            p.close()
            c.setFillColorRGB(*GLUE)
            c.drawPath(p, stroke=0, fill=1)
        # The die's name on the back's bottom tab (hidden once glued) and above the left arm (on the offcut).
        c.setFillColorRGB(*INK)
        name = die.name(self.lang)
        (x1, y1), _, _ = edge(*NAME_TAB)
        size = fit_size(name, 7.5, 4.5, EDGE - TAB - 1.5 * mm)
        draw_text(c, x1 + EDGE / 2, y1 - TAB / 2 - size * 0.35, name, size, align="center")
        size = fit_size(name, 10, 6, EDGE - 2 * mm, bold=True)
        draw_text(c, left, top - 4.5 * mm, name, size, bold=True)

        # Faces.
        for square, face in enumerate(net_faces(die)):
            draw_face(c, *corner(square), EDGE, face, ROLE_FILL[die.role])

        # Fold lines: every edge two squares share, and the base of every tab. Cut lines: the other edges of
        # the squares and the outsides of the tabs. Each shared edge is drawn once, from the square above or left.
        squares = set(NET_SQUARES)
        c.saveState()
        c.setLineCap(1)
        for square, (col, row) in enumerate(NET_SQUARES):
            for side, neighbour in (("top", (col, row - 1)), ("bottom", (col, row + 1)),
                                    ("left", (col - 1, row)), ("right", (col + 1, row))):  # fmt: skip
                shared = neighbour in squares
                if shared and side in ("top", "left"):
                    continue
                self.line_style("fold" if shared or (square, side) in NET_TABS else "cut")
                (x1, y1), (x2, y2), _ = edge(square, side)
                c.line(x1, y1, x2, y2)
        self.line_style("cut")
        for outline in outlines:
            p = c.beginPath()
            p.moveTo(*outline[0])
            for point in outline[1:]:
                p.lineTo(*point)
            c.drawPath(p, stroke=1, fill=0)
        c.restoreState()

    # ---- rules ----------------------------------------------------------------------------------------------

    def rules(self) -> None:
        # The largest body size at which the whole summary fits one page.
        size = 10.5
        while size > 7 and self.rules_body(size, draw=False) < MARGIN + 2 * mm:
            size -= 0.25
        self.rules_body(size, draw=True)
        self.end_page()

    def rules_body(self, size: float, draw: bool) -> float:
        """The rules page at body size `size`; returns the bottom of the last line."""
        c, t = self.c, self.t
        lead = size * 1.45
        y = self.height - MARGIN - 6 * mm
        c.setFillColorRGB(*INK)
        if draw:
            draw_text(c, MARGIN, y, t("rules_title"), 16, bold=True)
        y -= 8 * mm
        y = self.paragraph(MARGIN, y, t("rules_intro"), size, self.inner, draw, leading=1.45) - lead

        def heading(text: str) -> None:
            nonlocal y
            y -= size * 0.6
            if draw:
                c.setFillColorRGB(*INK)
                draw_text(c, MARGIN, y, text, size + 2, bold=True)
            y -= lead * 1.05

        def bullet(text: str) -> None:
            nonlocal y
            indent = size * 1.2
            if draw:
                draw_text(c, MARGIN + size * 0.2, y, "•", size)
            y = self.paragraph(MARGIN + indent, y, text, size, self.inner - indent, draw, leading=1.45) - lead

        heading(t("h_dice"))
        y = self.dice_table(y, size, draw)
        bullet(t("target_dice_note"))
        heading(t("h_target"))
        bullet(t("target_rule", dice=" ".join(map(str, EXAMPLE_TARGET_DICE)),
                 numbers=" ".join(map(str, target_numbers(EXAMPLE_TARGET_DICE)))))  # fmt: skip
        bullet(t("target_nine", dice=" ".join(map(str, EXAMPLE_NINE_DICE)),
                 numbers=" ".join(map(str, target_numbers(EXAMPLE_NINE_DICE)))))  # fmt: skip
        heading(t("h_formula"))
        for key in ("formula_goal", "formula_numbers", "formula_order", "formula_signs", "formula_constants",
                    "formula_powers", "formula_exact"):  # fmt: skip
            bullet(t(key))
        heading(t("h_redundant"))
        bullet(t("redundant"))
        heading(t("h_score"))
        y = self.points_table(MARGIN, y + lead * 0.4, size, draw) - lead
        bullet(t("score_rule"))
        ops = sorted((f for f in EXAMPLE_FORMULA if isinstance(f, str)), key=OPERATOR_FACES.index)
        points = sum(OPERATOR_POINTS[f] for f in ops)
        used = sum(1 for f in EXAMPLE_FORMULA if isinstance(f, int))
        bullet(t("score_example", target=EXAMPLE_TARGET, formula="".join(map(str, EXAMPLE_FORMULA)),
                 operators=" ".join(ops), points=points, dice=used, score=points * used))  # fmt: skip
        heading(t("h_rerolls"))
        bullet(t("rerolls", reroll=REROLL_COST, set_face=SET_FACE_COST))
        bullet(t("reroll_example", n=EXAMPLE_REROLLED, points=points * used,
                 score=apply_costs(points * used, rerolled=EXAMPLE_REROLLED)))  # fmt: skip
        heading(t("h_together"))
        bullet(t("together"))
        return y + lead - size * 0.4

    def dice_table(self, y: float, size: float, draw: bool) -> float:
        """Each kind of number and operator die: name, faces as small dice, how many one player has."""
        c, t = self.c, self.t
        die = size * 2.1
        rows = [("number", k, tuple(map(str, NUMBER_DICE_FACES[k]))) for k in NUMBER_DICE_FACES]
        rows += [("operator", k, OPERATOR_DICE_FACES[k]) for k in OPERATOR_DICE_FACES]
        kinds = {"number": Counter(NUMBER_KINDS), "operator": Counter(OPERATOR_KINDS)}
        name_w = max(text_width(NetDie(r, k, ()).name(self.lang), size, True) for r, k, _ in rows) + 4 * mm
        faces_x = MARGIN + name_w
        count_x = faces_x + 6 * (die + 1.2 * mm) + 4 * mm
        if draw:
            c.setFillColorRGB(*GREY)
            draw_text(c, MARGIN, y, t("die"), size * 0.85)
            draw_text(c, faces_x, y, t("faces"), size * 0.85)
            draw_text(c, count_x, y, t("how_many"), size * 0.85)
        y -= 1.5 * mm
        for role, letter, faces in rows:
            y -= die
            if draw:
                c.setFillColorRGB(*INK)
                draw_text(c, MARGIN, y + die / 2 - size * 0.35, NetDie(role, letter, ()).name(self.lang), size,
                          bold=True)  # fmt: skip
                for i, face in enumerate(faces):
                    fx = faces_x + i * (die + 1.2 * mm)
                    draw_face(c, fx, y, die, face, ROLE_FILL[role])
                    c.setStrokeColorRGB(*INK)
                    c.setLineWidth(0.6)
                    c.rect(fx, y, die, die, stroke=1, fill=0)
                c.setFillColorRGB(*INK)
                draw_text(c, count_x + 3 * mm, y + die / 2 - size * 0.35, str(kinds[role][letter]), size + 1,
                          bold=True)  # fmt: skip
            y -= 1.2 * mm
        return y - size * 1.2

    def points_table(self, x: float, y: float, size: float, draw: bool) -> float:
        """Operator faces grouped by their points, as small dice over the number of points."""
        c, t = self.c, self.t
        die = size * 2.0
        groups: dict[int, list[str]] = {}
        for face in OPERATOR_FACES:
            groups.setdefault(OPERATOR_POINTS[face], []).append(face)
        label_w = max(text_width(t("operator"), size, True), text_width(t("points"), size, True)) + 4 * mm
        top = y - die
        if draw:
            c.setFillColorRGB(*INK)
            draw_text(c, x, top + die / 2 - size * 0.35, t("operator"), size, bold=True)
            draw_text(c, x, top - size * 1.5, t("points"), size, bold=True)
        gx = x + label_w
        for points, faces in sorted(groups.items()):
            width = len(faces) * die + (len(faces) - 1) * 1 * mm
            if draw:
                for i, face in enumerate(faces):
                    fx = gx + i * (die + 1 * mm)
                    draw_face(c, fx, top, die, face, ROLE_FILL["operator"])
                    c.setStrokeColorRGB(*INK)
                    c.setLineWidth(0.6)
                    c.rect(fx, top, die, die, stroke=1, fill=0)
                c.setFillColorRGB(*INK)
                draw_text(
                    c, gx + width / 2, top - size * 1.5, str(points), size + 1, bold=True, align="center"
                )
            gx += width + 5 * mm
        return top - size * 1.5

    # ---- score sheet ----------------------------------------------------------------------------------------

    def score_sheet(self) -> None:
        c, t = self.c, self.t
        y = self.height - MARGIN - 6 * mm
        c.setFillColorRGB(*INK)
        draw_text(c, MARGIN, y, t("sheet_title"), 16, bold=True)
        y -= 7 * mm
        y = self.paragraph(MARGIN, y, t("sheet_intro"), 9.5, self.inner) - 5 * mm
        # Columns: round, target, one per player.
        round_w, target_w = 14 * mm, 30 * mm
        player_w = (self.inner - round_w - target_w) / PLAYERS
        lefts = [MARGIN, MARGIN + round_w] + [
            MARGIN + round_w + target_w + i * player_w for i in range(PLAYERS)
        ]
        rights = lefts[1:] + [self.width - MARGIN]
        head_h, total_h = 14 * mm, 13 * mm
        # The reminder and the points at the bottom; the rows share what is left, up to a comfortable height.
        reminder = t("sheet_reminder", reroll=REROLL_COST, set_face=SET_FACE_COST)
        reminder_lines = len(wrap(reminder, 9, self.inner))
        foot_h = reminder_lines * 9 * 1.4 + 9 * 2.0 + 9 * 3.5 + 8 * mm
        row_h = min(15 * mm, (y - MARGIN - foot_h - head_h - total_h) / ROUNDS)
        table_top = y
        bottom = table_top - head_h - ROUNDS * row_h - total_h
        # Header row.
        c.setFillColorRGB(*ROLE_FILL["target"])
        c.rect(MARGIN, table_top - head_h, self.inner, head_h, stroke=0, fill=1)
        c.setFillColorRGB(*INK)
        for text, i in ((t("round"), 0), (t("target"), 1)):
            size = fit_size(text, 10, 6, rights[i] - lefts[i] - 2 * mm, True)
            draw_text(
                c, (lefts[i] + rights[i]) / 2, table_top - head_h / 2 - 1.2 * mm, text, size, True, "center"
            )
        c.setFillColorRGB(*GREY)
        for i in range(PLAYERS):
            draw_text(c, lefts[2 + i] + 1.5 * mm, table_top - 3.5 * mm, t("name"), 7)
        # Round numbers and the totals row.
        c.setFillColorRGB(*INK)
        for r in range(ROUNDS):
            row_y = table_top - head_h - (r + 1) * row_h
            draw_text(c, MARGIN + round_w / 2, row_y + row_h / 2 - 1.3 * mm, str(r + 1), 10, align="center")
        c.setFillColorRGB(*ROLE_FILL["operator"])
        c.rect(MARGIN, bottom, self.inner, total_h, stroke=0, fill=1)
        c.setFillColorRGB(*INK)
        draw_text(c, MARGIN + 2 * mm, bottom + total_h / 2 - 1.3 * mm, t("total"), 10.5, bold=True)
        # Grid: thin rows, heavy frame, a heavy line over the totals.
        c.setStrokeColorRGB(*INK)
        c.setLineWidth(0.5)
        for r in range(1, ROUNDS + 1):
            row_y = table_top - head_h - r * row_h
            c.line(MARGIN, row_y, self.width - MARGIN, row_y)
        for x in lefts[1:]:
            # The totals row joins round and target into one cell for the word "Total".
            c.line(x, table_top, x, bottom + (total_h if x == lefts[1] else 0))
        c.setLineWidth(1.4)
        c.rect(MARGIN, bottom, self.inner, table_top - bottom, stroke=1, fill=0)
        c.line(MARGIN, table_top - head_h, self.width - MARGIN, table_top - head_h)
        c.line(MARGIN, bottom + total_h, self.width - MARGIN, bottom + total_h)
        # Below: how a score is made.
        y = bottom - 7 * mm
        y = self.points_table(MARGIN, y + 3 * mm, 9, True) - 9 * 1.8
        self.paragraph(MARGIN, y, reminder, 9, self.inner)
        self.end_page()

    def finish(self) -> bytes:
        self.c.save()
        return self.buffer.getvalue()


def dice_nets_pdf(lang: str = "ja", paper: str = "a4") -> bytes:
    """The printable dice as PDF bytes: nets of one player's twelve dice, the rules, a score sheet.

    `lang` is "ja" or "en", `paper` "a4" or "letter"; anything else raises ValueError.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}")
    if paper not in PAPER_SIZES:
        raise ValueError(f"unknown paper {paper!r}: choose one of {', '.join(PAPER_SIZES)}")
    writer = _Writer(lang, paper)
    writer.nets()
    writer.rules()
    writer.score_sheet()
    return writer.finish()

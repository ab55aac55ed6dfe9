"""The PDF of a worksheet, drawn with ReportLab: one or more pages per version, then the answer key.

Fonts (suji.worksheets.fonts): Liberation Sans for Latin text and − √, and for everything else IPAGothic, both
embedded as subsets, so the sheet prints the same on every viewer and printer; when their files are missing,
Helvetica and Symbol, and the CID font HeiseiKakuGo-W5, that viewers draw with fonts of their own.
The settings refuse text these fonts cannot draw (suji.worksheets.sheet.pdf_can_print); should any still come, it
prints as "?".

Pages: each version is laid out as `Version.pages()` shares it out (at most MAX_PER_PAGE problems a page, filled
evenly), and the problem boxes of a page share its height, from MIN_BOX up to MAX_BOX. A box has the dice in a
row across its top (target dice, number dice, operator dice and the box for the score), the target numbers
under the target dice, and the line for the formula under the other dice; whatever height is left over is room
for working. On a crowded page (boxes under FULL_DICE_BOX) the dice are a little smaller.

A title too long for one line is set smaller, down to a floor, then wrapped; the header grows to fit it.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import datetime

from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from suji.core.furigana import NONE, Piece, needs_ruby, pieces
from suji.core.i18n import fill
from suji.solver.levels import LEVELS
from suji.worksheets import pdf_text
from suji.worksheets.fonts import japanese_font
from suji.worksheets.pdf_document import new_canvas
from suji.worksheets.pdf_draw import (  # noqa: F401 - the sign-in card and the tests draw with them from here too
    DIE,
    GREY,
    INK,
    LIGHT,
    _fonts,
    draw_die,
    draw_text,
    fit_text,
    text_width,
    wrap,
)
from suji.worksheets.sheet import (
    MAX_PER_PAGE,
    SheetProblem,
    Version,
    Worksheet,
    form_parts,
    sheet_texts,
)

PAPER_SIZES = {"a4": A4, "letter": LETTER}

MARGIN = 14 * mm
FOOTER = 8 * mm
SMALL_DIE = 8 * mm  # the dice of a crowded page (boxes lower than FULL_DICE_BOX)
DIE_GAP = 0.2  # between two dice of a group, in dice
TARGET_COLUMN = 38 * mm  # the target dice and the numbers they make (six at 8.5 pt take 35 mm)
GROUP_GAP = 6 * mm
SCORE_BOX = 18 * mm
TARGET_BLANK = 18 * mm  # where the pupil writes the target made
BOX_GAP = 3.5 * mm
CROWDED_GAP = 2.5 * mm  # between the boxes of a page of more than six
MIN_BOX = 21 * mm  # a row of small dice, two lines of target numbers beside a line to write on
FULL_DICE_BOX = 26 * mm
MAX_BOX = 50 * mm  # spare space on a page goes to the writing area, up to this
WORKING_LINE = 12 * mm  # room above the writing line from which a dotted line for working is drawn
KEY_ROW = 7 * mm
STEP_LINE = 4 * mm  # a line of a key formula's working (the "steps" option)
TITLE_SIZE, TITLE_MIN_SIZE = 16, 12  # the sheet's title: shrunk to the floor before it wraps
KEY_TITLE_SIZE, KEY_TITLE_MIN_SIZE = 14, 11
LINE_SPACING = 1.25


def _group_width(n: int, die: float) -> float:
    return n * die + (n - 1) * die * DIE_GAP


def _gap(problems: int) -> float:
    """The space between the problem boxes of a page of `problems`."""
    return BOX_GAP if problems <= 6 else CROWDED_GAP


@dataclass
class _Layout:
    width: float
    height: float

    @property
    def inner_width(self) -> float:
        return self.width - 2 * MARGIN


class _Writer:
    """Draws one worksheet page by page, keeping the page count for the footers."""

    def __init__(self, worksheet: Worksheet, created: datetime | None = None) -> None:
        japanese_font()
        self.ws = worksheet
        self.settings = worksheet.settings
        self.t = sheet_texts(self.settings.lang)
        width, height = PAPER_SIZES[self.settings.paper]
        self.layout = _Layout(width, height)
        self.buffer = io.BytesIO()
        # The same settings and creation time give the very same bytes (suji.worksheets.pdf_document).
        self.c = new_canvas(
            self.buffer, (width, height), title=worksheet.title, lang=self.settings.lang,
            subject=fill(self.t["seed"], seed=self.settings.seed), created=created,
        )  # fmt: skip
        self._seen: set[str] = set()  # the words that got ruby on this page (first occurrence only)

    # ---- text with furigana ----------------------------------------------------------------------------------

    def _grade(self) -> int:
        return self.settings.furigana if self.settings.lang == "ja" else NONE

    def _ruby_tokens(self, text: str) -> list[Piece]:
        """`text` as pieces to lay out: a run of kanji that may get ruby stays whole, other text goes a
        character at a time (a line may break there)."""
        grade = self._grade()
        if not needs_ruby(text, grade):
            return [Piece(ch) for ch in text]
        tokens: list[Piece] = []
        for piece in pieces(text):
            if piece.reading and needs_ruby(piece.text, grade):
                tokens.append(piece)
            else:
                tokens.extend(Piece(ch) for ch in piece.text)
        return tokens

    def _text(
        self, x: float, y: float, text: str, size: float, bold: bool = False, align: str = "left"
    ) -> float:
        """Draw one line like `draw_text`, with ruby over the kanji above the sheet's grade the first time each
        word appears on the page (as textbooks print it). Returns the width."""
        tokens = self._ruby_tokens(text)
        if all(t.reading is None for t in tokens):
            return draw_text(self.c, x, y, text, size, bold, align)
        width = text_width(text, size, bold)
        x -= {"left": 0, "center": width / 2, "right": width}[align]
        for token in tokens:
            w = draw_text(self.c, x, y, token.text, size, bold)
            if token.reading and token.text not in self._seen:
                self._seen.add(token.text)
                draw_text(self.c, x + w / 2, y + size * 0.92, token.reading, size * 0.5, align="center")
            x += w
        return width

    def _wrap_ruby(self, text: str, size: float, width: float) -> list[str]:
        """Lines of `text` no wider than `width`, never breaking inside a word that may get ruby."""
        lines: list[str] = []
        line = ""
        for token in self._ruby_tokens(text):
            trial = line + token.text
            if text_width(trial, size) <= width or not line:
                line = trial
            elif token.text[0] in pdf_text.NO_LINE_START and len(line) > 1:
                lines.append(line[:-1])
                line = line[-1] + token.text
            else:
                lines.append(line)
                line = token.text.lstrip()
        if line:
            lines.append(line)
        return lines if self._grade() != NONE else wrap(text, size, width)

    # ---- pages of a sheet ----------------------------------------------------------------------------------

    def _header(self, version: Version, first: bool) -> float:
        """Title, level, version; on a version's first page also the name/date line and the instructions."""
        c, t, lay = self.c, self.t, self.layout
        top = lay.height - MARGIN
        c.setFillColorRGB(*INK)
        label = fill(t["version"], version=version.label) if self.settings.versions > 1 else ""
        title_width = lay.inner_width
        if label:
            w = text_width(label, 12, bold=True) + 6 * mm
            c.setLineWidth(1.2)
            c.roundRect(lay.width - MARGIN - w, top - 8 * mm, w, 9 * mm, 2 * mm)
            draw_text(c, lay.width - MARGIN - w / 2, top - 5 * mm, label, 12, bold=True, align="center")
            title_width -= w + 5 * mm  # every line of the title stays clear of the version box
        size, lines = fit_text(self.ws.title, TITLE_SIZE, TITLE_MIN_SIZE, title_width, bold=True)
        y = top - 6 * mm
        for i, line in enumerate(lines):
            if i:
                y -= size * LINE_SPACING
            draw_text(c, MARGIN, y, line, size, bold=True)
        c.setFillColorRGB(*GREY)
        y -= 6.5 * mm
        draw_text(c, MARGIN, y, t[self.ws.level_text], 10)
        if self.ws.mixed:
            # What each level allows, since every problem names only its level.
            legend = "   ".join(t[f"level{n}"] for n in LEVELS)
            for line in wrap(legend, 9, lay.inner_width):
                y -= 4.5 * mm
                draw_text(c, MARGIN, y, line, 9)
        c.setFillColorRGB(*INK)
        y -= 3.5 * mm
        if not first:
            return y
        if self.settings.name_line or self.settings.score_box:
            y -= 8 * mm
            right = lay.width - MARGIN
            if self.settings.score_box:
                # The teacher's mark: 「　点」 in a box at the right end of the name line.
                box_w = 30 * mm
                c.setLineWidth(1.2)
                c.roundRect(right - box_w, y - 4 * mm, box_w, 11 * mm, 2 * mm)
                self._form(t["score_form"], right - box_w + 3 * mm, y, right - 3 * mm, 14)
                right -= box_w + 5 * mm
            if self.settings.name_line:
                # The date takes what it needs (its long blank 32 mm), the name the rest.
                date_parts = form_parts(t["date_form"])
                date_w = sum(text_width(v, 11) + 1 * mm if k == "text" else (32 * mm if v == "long" else 9 * mm)
                             for k, v in date_parts)  # fmt: skip
                self._form(t["name_form"], MARGIN, y, right - date_w - 8 * mm, 11)
                self._form(t["date_form"], right - date_w, y, right, 11)
            y -= 5 * mm if self.settings.score_box else 3 * mm
        instructions = (
            t["instructions"]
            + t["sentence_gap"]
            + (t["instructions_dice"] if self.settings.targets == "dice" else t["instructions_nine"])
        )
        step = 6 * mm if self._grade() != NONE else 5 * mm  # room for ruby above the line
        for line in self._wrap_ruby(instructions, 9.5, lay.inner_width):
            y -= step
            self._text(MARGIN, y, line, 9.5)
        return y - 3 * mm

    def _form(self, text: str, x: float, y: float, end: float, size: float) -> None:
        """A school form on one line from x to end: its labels, and a line to write on for each blank (the
        long one takes the room the short ones leave)."""
        parts = form_parts(text)
        short = 9 * mm
        fixed = sum(text_width(v, size) + 1 * mm for k, v in parts if k == "text")
        shorts = sum(1 for k, v in parts if k == "blank" and v == "short")
        longs = sum(1 for k, v in parts if k == "blank" and v == "long")
        long = max(short, (end - x - fixed - shorts * short) / longs) if longs else short
        self.c.setLineWidth(0.8)
        for kind, value in parts:
            if kind == "text":
                x += self._text(x, y, value, size) + 1 * mm
            else:
                w = long if value == "long" else short
                self.c.line(x, y - 1.2 * mm, x + w - 1 * mm, y - 1.2 * mm)
                x += w

    def _footer(self, version: Version, page: int, pages: int) -> None:
        c, t = self.c, self.t
        c.setFillColorRGB(*GREY)
        parts = [self.settings.seed]  # the print number, small, for the teacher to find the sheet again
        if self.settings.versions > 1:
            parts.append(fill(t["version"], version=version.label))
        draw_text(c, MARGIN, MARGIN - 4 * mm, "   ".join(parts), 8)
        draw_text(c, self.layout.width - MARGIN, MARGIN - 4 * mm, fill(t["page"], page=page, pages=pages), 8,
                  align="right")  # fmt: skip
        c.setFillColorRGB(*INK)

    def _problem(self, problem: SheetProblem, top: float, height: float) -> None:
        """One problem box: number, the dice and the score box in a row, the target numbers under the target
        dice, the line for the formula and the target under the other dice, room for working above it."""
        c, t, lay = self.c, self.t, self.layout
        x0, y0 = MARGIN, top - height
        right = x0 + lay.inner_width - 4 * mm
        c.setLineWidth(0.9)
        c.setStrokeColorRGB(*INK)
        c.roundRect(x0, y0, lay.inner_width, height, 3 * mm)
        # The number, in a circle at the top left.
        c.circle(x0 + 6.5 * mm, top - 6.5 * mm, 4 * mm)
        draw_text(c, x0 + 6.5 * mm, top - 8.2 * mm, str(problem.number), 12, bold=True, align="center")
        if self.ws.mixed:
            # The problem's own level under its number, in the strip left of the dice.
            level = fill(t["level_of"], level=problem.level)
            draw_text(c, x0 + 6.5 * mm, top - 14.5 * mm, level, 7.5, bold=True, align="center")
        die = DIE if height >= FULL_DICE_BOX else SMALL_DIE
        label_y = top - 3.8 * mm
        dice_y = label_y - 1.2 * mm - die  # the dice's lower edge
        roll = problem.roll
        groups = (
            (t["target_dice"], roll.target_dice, "target"),
            (t["number_dice"], roll.number_dice, "number"),
            (t["operator_dice"], roll.operator_dice, "operator"),
        )
        x = x0 + 14 * mm
        write_x = x + TARGET_COLUMN  # the formula is made with the number dice: its line starts under them
        for name, faces, kind in groups:
            c.setFillColorRGB(*GREY)
            self._text(x, label_y, name, 7.5)
            c.setFillColorRGB(*INK)
            for i, face in enumerate(faces):
                draw_die(c, x + i * die * (1 + DIE_GAP), dice_y, face, kind, die)
            if kind == "target" and self.settings.targets == "list":
                # Six numbers a line (a 6 among the target dice makes up to twelve): two lines at most.
                c.setFillColorRGB(*GREY)
                numbers = [str(n) for n in roll.targets]
                for row in range(0, len(numbers), 6):
                    baseline = dice_y - 3.4 * mm - row // 6 * 3.2 * mm
                    draw_text(c, x, baseline, " ".join(numbers[row : row + 6]), 8.5)
                c.setFillColorRGB(*INK)
            x += TARGET_COLUMN if kind == "target" else _group_width(len(faces), die) + GROUP_GAP
        # The score: a box at the end of the row of dice, named like them.
        c.setFillColorRGB(*GREY)
        self._text(right - SCORE_BOX, label_y, t["score"], 7.5)
        c.setFillColorRGB(*INK)
        c.setLineWidth(0.6)
        c.rect(right - SCORE_BOX, dice_y, SCORE_BOX, die)
        # The writing line: formula = target. Spare height goes above it, as room for working.
        line_y = y0 + 3.2 * mm
        formula_end = right - TARGET_BLANK - 7 * mm
        fx = write_x + self._text(write_x, line_y + 1 * mm, t["formula"], 9) + 2 * mm
        c.line(fx, line_y, formula_end, line_y)
        draw_text(c, formula_end + 3.5 * mm, line_y + 1 * mm, "=", 12, align="center")
        c.line(right - TARGET_BLANK, line_y, right, line_y)
        room = dice_y - (line_y + 1 * mm)
        if room >= WORKING_LINE:
            # A dotted line for working, half way up the room.
            c.setDash(1, 2)
            c.setStrokeColorRGB(*GREY)
            work_y = line_y + 1 * mm + room / 2
            c.line(write_x, work_y, right, work_y)
            c.setDash()
            c.setStrokeColorRGB(*INK)

    def _pages_of(self, version: Version) -> list[tuple[list[SheetProblem], float]]:
        """A version's pages, each with the box height that fills it.

        Pages hold at most MAX_PER_PAGE problems, shared out evenly (`Version.pages`); should a header grow so
        tall that a page's boxes would be lower than MIN_BOX (a long title on Letter paper), fewer go a page.
        """
        bottom = MARGIN + FOOTER
        room = (self._measure_header(first=True) - bottom, self._measure_header(first=False) - bottom)
        for per_page in range(MAX_PER_PAGE, 0, -1):
            pages = version.pages(per_page)
            heights = [
                min(MAX_BOX, (room[0 if i == 0 else 1] - (len(page) - 1) * _gap(len(page))) / len(page))
                for i, page in enumerate(pages)
            ]
            if min(heights, default=MAX_BOX) >= MIN_BOX or per_page == 1:
                return [(list(page), height) for page, height in zip(pages, heights, strict=True)]
        raise AssertionError("unreachable: one problem a page always fits")

    def _measure_header(self, first: bool) -> float:
        # The header's height does not depend on the version; draw it on a scratch canvas to measure.
        scratch = Canvas(io.BytesIO(), pagesize=(self.layout.width, self.layout.height))
        real, self.c = self.c, scratch
        seen, self._seen = self._seen, set()
        try:
            return self._header(Version("A", "", ()), first)
        finally:
            self.c, self._seen = real, seen

    def sheets(self) -> None:
        for version in self.ws.versions:
            pages = self._pages_of(version)
            for number, (page, box) in enumerate(pages, start=1):
                self._seen = set()  # ruby again on every sheet of paper
                top = self._header(version, first=number == 1)
                for problem in page:
                    self._problem(problem, top, box)
                    top -= box + _gap(len(page))
                self._footer(version, number, len(pages))
                self.c.showPage()

    # ---- the answer key ------------------------------------------------------------------------------------

    def key(self) -> None:
        c, t, lay = self.c, self.t, self.layout
        mixed = self.ws.mixed
        # (heading, x offset, align, bold); a mixed sheet has a level column, the target dice move right.
        columns: list[tuple[str, float, str, bool]] = [
            (t["number_column"], 0, "left", False),
            (t["target_dice"], (24 if mixed else 10) * mm, "left", False),
            (t["target_made"], (46 if mixed else 40) * mm, "left", True),
            (t["best_score"], 80 * mm, "right", True),
            (t["best_formula"], 86 * mm, "left", False),
            (t["solutions"], lay.inner_width, "right", False),
        ]
        if mixed:
            columns.insert(1, (t["level"], 9 * mm, "left", False))
        bottom = MARGIN + FOOTER
        page = 0
        y = 0.0

        def new_page() -> float:
            nonlocal page
            if page:
                self._key_footer(page)
                c.showPage()
            page += 1
            y = lay.height - MARGIN - 6 * mm
            c.setFillColorRGB(*INK)
            title = f"{t['answer_key']} — {self.ws.title}"
            size, lines = fit_text(title, KEY_TITLE_SIZE, KEY_TITLE_MIN_SIZE, lay.inner_width, bold=True)
            for i, line in enumerate(lines):
                if i:
                    y -= size * LINE_SPACING
                draw_text(c, MARGIN, y, line, size, bold=True)
            c.setFillColorRGB(*GREY)
            y -= 2 * mm
            # A mixed key has a level column: its note alone says what "best" means.
            lead = "" if self.ws.mixed else t[self.ws.level_text] + "   "
            for line in wrap(lead + t[self.ws.key_note] + t["sentence_gap"] + t["solutions_note"], 8.5, lay.inner_width):
                y -= 4 * mm
                draw_text(c, MARGIN, y, line, 8.5)
            c.setFillColorRGB(*INK)
            return y - 6 * mm

        y = new_page()
        for version in self.ws.versions:
            if y - 2 * KEY_ROW - 6 * mm < bottom:
                y = new_page()
            heading = (fill(t["answer_key_for"], version=version.label) if self.settings.versions > 1
                       else t["answer_key"])  # fmt: skip
            y -= 6 * mm
            draw_text(c, MARGIN, y, heading, 11, bold=True)
            y = self._key_head(columns, y)
            for problem in version.problems:
                k = problem.key
                # The working under the formula, wrapped to the width left of the formula column: a row and its
                # working stay on one page (the working alone at the top of the next had no number to go by).
                lines = (
                    wrap(" → ".join(k.steps), 8.5, lay.inner_width - 86 * mm) if self.settings.steps and k.steps else []
                )
                if y - KEY_ROW - len(lines) * STEP_LINE < bottom:
                    y = new_page()
                    y -= 6 * mm
                    draw_text(c, MARGIN, y, heading, 11, bold=True)
                    y = self._key_head(columns, y)
                y -= KEY_ROW
                cells = [str(problem.number), " ".join(map(str, problem.roll.target_dice)), str(k.target),
                         str(k.best_score), k.best_formula, str(k.solutions)]  # fmt: skip
                if mixed:
                    cells.insert(1, str(problem.level))
                for (_, dx, align, bold), cell in zip(columns, cells, strict=True):
                    draw_text(c, MARGIN + dx, y + 2 * mm, cell, 10.5, bold=bold, align=align)
                if lines:
                    c.setFillColorRGB(*GREY)
                    for line in lines:
                        y -= STEP_LINE
                        draw_text(c, MARGIN + 86 * mm, y + 1.5 * mm, line, 8.5)
                    c.setFillColorRGB(*INK)
                c.setStrokeColorRGB(*LIGHT)
                c.line(MARGIN, y, lay.width - MARGIN, y)
                c.setStrokeColorRGB(*INK)
            y -= 4 * mm
        self._key_footer(page)
        c.showPage()

    def _key_head(self, columns: list[tuple[str, float, str, bool]], y: float) -> float:
        c = self.c
        y -= KEY_ROW
        c.setFillColorRGB(*GREY)
        for heading, dx, align, _ in columns:
            draw_text(c, MARGIN + dx, y + 2 * mm, heading, 8.5, align=align)
        c.setFillColorRGB(*INK)
        c.setLineWidth(0.8)
        c.line(MARGIN, y, self.layout.width - MARGIN, y)
        return y

    def _key_footer(self, page: int) -> None:
        c = self.c
        c.setFillColorRGB(*GREY)
        draw_text(c, MARGIN, MARGIN - 4 * mm, fill(self.t["seed"], seed=self.settings.seed), 8)
        draw_text(c, self.layout.width - MARGIN, MARGIN - 4 * mm, self.t["answer_key"] + f" {page}", 8,
                  align="right")  # fmt: skip
        c.setFillColorRGB(*INK)

    def finish(self) -> bytes:
        self.c.save()
        return self.buffer.getvalue()


def worksheet_pdf(worksheet: Worksheet, created: datetime | None = None) -> bytes:
    """The PDF of `worksheet`: its sheets, one version after another, then (when chosen) the answer key.

    `created` is the creation date in its metadata (default: now, or SOURCE_DATE_EPOCH; see pdf_document)."""
    writer = _Writer(worksheet, created)
    writer.sheets()
    if worksheet.settings.key:
        writer.key()
    return writer.finish()

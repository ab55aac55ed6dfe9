"""The nets pages: four cross-shaped nets a page at true size, under a header with a ruler and the line legend.

Each net's squares, tabs and lines are measured by suji.worksheets.dice_nets.geometry and drawn here in order:
the grey glue tabs, the die's name (on the tab hidden once glued, and above the net on the offcut), the faces,
then the fold and cut lines on top.
"""

from __future__ import annotations

from collections import Counter

from reportlab.lib.units import mm

from suji.rules.dice import NUMBER_KINDS, OPERATOR_KINDS, TARGET_KINDS
from suji.worksheets.dice_nets.faces import GLUE, GREY, INK, ROLE_FILL, draw_face
from suji.worksheets.dice_nets.geometry import (
    EDGE,
    EDGE_MM,
    NAME_TAB,
    NET_HEIGHT,
    NET_PAGES,
    NET_TABS,
    NET_WIDTH,
    NETS_PER_PAGE,
    TAB,
    NetDie,
    net_faces,
    net_lines,
    one_player_dice,
    square_corner,
    square_side,
    tab_outline,
)
from suji.worksheets.dice_nets.pages import MARGIN, PageWriter


class NetsPages(PageWriter):
    """The pages of nets."""

    def nets_header(self, sheet: int, draw: bool = True) -> float:
        """Title, true-size note with a ruler, what to make and how, the line legend; returns its bottom."""
        c = self.c
        y = self.height - MARGIN - 4.5 * mm
        c.setFillColorRGB(*INK)
        title = self.t("nets_title", sheet=sheet, sheets=NET_PAGES)
        legend_w = self.legend(0, 0, draw=False)
        if draw:
            self.draw_text(
                c, MARGIN, y, title, self.fit_size(title, 14, 10, self.inner - legend_w - 6 * mm, True), True
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
            x += (self.draw_text(c, x, y, self.t(key), 9) if draw else self.text_width(self.t(key), 9)) + 4 * mm
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
        self.draw_text(c, x + length / 2, y - 3.3 * mm, label, self.fit_size(label, 7.5, 5.5, length), align="center")
        c.restoreState()

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
        # Glue tabs: grey trapezoids with 45° ends.
        outlines = [tab_outline(square, side, left, top) for square, side in NET_TABS]
        for start, a, b, end in outlines:
            p = c.beginPath()
            p.moveTo(*start)
            p.lineTo(*a)
            p.lineTo(*b)
            p.lineTo(*end)
            p.close()
            c.setFillColorRGB(*GLUE)
            c.drawPath(p, stroke=0, fill=1)
        # The die's name on the back's bottom tab (hidden once glued) and above the left arm (on the offcut).
        c.setFillColorRGB(*INK)
        name = die.name(self.lang)
        (x1, y1), _, _ = square_side(*NAME_TAB, left, top)
        size = self.fit_size(name, 7.5, 4.5, EDGE - TAB - 1.5 * mm)
        self.draw_text(c, x1 + EDGE / 2, y1 - TAB / 2 - size * 0.35, name, size, align="center")
        size = self.fit_size(name, 10, 6, EDGE - 2 * mm, bold=True)
        self.draw_text(c, left, top - 4.5 * mm, name, size, bold=True)

        # Faces.
        for square, face in enumerate(net_faces(die)):
            draw_face(c, *square_corner(square, left, top), EDGE, face, ROLE_FILL[die.role])

        # Fold lines and cut lines (suji.worksheets.dice_nets.geometry.net_lines), then the tabs' outsides.
        c.saveState()
        c.setLineCap(1)
        for square, side, kind in net_lines():
            self.line_style(kind)
            (x1, y1), (x2, y2), _ = square_side(square, side, left, top)
            c.line(x1, y1, x2, y2)
        self.line_style("cut")
        for outline in outlines:
            p = c.beginPath()
            p.moveTo(*outline[0])
            for point in outline[1:]:
                p.lineTo(*point)
            c.drawPath(p, stroke=1, fill=0)
        c.restoreState()

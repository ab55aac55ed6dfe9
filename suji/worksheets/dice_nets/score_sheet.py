"""The score sheet: twelve rounds for 2–6 players, with how a score is made printed under it."""

from __future__ import annotations

from reportlab.lib.units import mm

from suji.rules.scoring import REROLL_COST, SET_FACE_COST
from suji.worksheets.dice_nets.faces import GREY, INK, ROLE_FILL
from suji.worksheets.dice_nets.pages import MARGIN
from suji.worksheets.dice_nets.rules_page import RulesPage
from suji.worksheets.dice_nets.texts import PLAYERS, ROUNDS


class ScoreSheet(RulesPage):
    """The score sheet page (it shows the rules page's table of operator points)."""

    def score_sheet(self) -> None:
        c, t = self.c, self.t
        y = self.height - MARGIN - 6 * mm
        c.setFillColorRGB(*INK)
        self.draw_text(c, MARGIN, y, t("sheet_title"), 16, bold=True)
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
        reminder_lines = len(self.wrap(reminder, 9, self.inner))
        foot_h = reminder_lines * 9 * 1.4 + 9 * 2.0 + 9 * 3.5 + 8 * mm
        row_h = min(15 * mm, (y - MARGIN - foot_h - head_h - total_h) / ROUNDS)
        table_top = y
        bottom = table_top - head_h - ROUNDS * row_h - total_h
        # Header row.
        c.setFillColorRGB(*ROLE_FILL["target"])
        c.rect(MARGIN, table_top - head_h, self.inner, head_h, stroke=0, fill=1)
        c.setFillColorRGB(*INK)
        for text, i in ((t("round"), 0), (t("target"), 1)):
            size = self.fit_size(text, 10, 6, rights[i] - lefts[i] - 2 * mm, True)
            self.draw_text(
                c, (lefts[i] + rights[i]) / 2, table_top - head_h / 2 - 1.2 * mm, text, size, True, "center"
            )
        c.setFillColorRGB(*GREY)
        for i in range(PLAYERS):
            self.draw_text(c, lefts[2 + i] + 1.5 * mm, table_top - 3.5 * mm, t("name"), 7)
        # Round numbers and the totals row.
        c.setFillColorRGB(*INK)
        for r in range(ROUNDS):
            row_y = table_top - head_h - (r + 1) * row_h
            self.draw_text(c, MARGIN + round_w / 2, row_y + row_h / 2 - 1.3 * mm, str(r + 1), 10, align="center")
        c.setFillColorRGB(*ROLE_FILL["operator"])
        c.rect(MARGIN, bottom, self.inner, total_h, stroke=0, fill=1)
        c.setFillColorRGB(*INK)
        self.draw_text(c, MARGIN + 2 * mm, bottom + total_h / 2 - 1.3 * mm, t("total"), 10.5, bold=True)
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

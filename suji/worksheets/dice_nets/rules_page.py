"""The rules page: the whole game on one page, at the largest body size that fits, with tables of the dice and
of the operators' points drawn as small dice (points and costs read from suji.rules.scoring).
"""

from __future__ import annotations

from collections import Counter

from reportlab.lib.units import mm

from suji.rules.dice import (
    NUMBER_DICE_FACES,
    NUMBER_KINDS,
    OPERATOR_DICE_FACES,
    OPERATOR_FACES,
    OPERATOR_KINDS,
    target_numbers,
)
from suji.rules.scoring import OPERATOR_POINTS, REROLL_COST, SET_FACE_COST, apply_costs
from suji.worksheets.dice_nets.faces import GREY, INK, ROLE_FILL, draw_face
from suji.worksheets.dice_nets.geometry import NetDie
from suji.worksheets.dice_nets.pages import MARGIN, PageWriter
from suji.worksheets.dice_nets.texts import (
    EXAMPLE_FORMULA,
    EXAMPLE_NINE_DICE,
    EXAMPLE_REROLLED,
    EXAMPLE_TARGET,
    EXAMPLE_TARGET_DICE,
)


class RulesPage(PageWriter):
    """The rules page, and the table of operator points the score sheet repeats."""

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
            self.draw_text(c, MARGIN, y, t("rules_title"), 16, bold=True)
        y -= 8 * mm
        y = self.paragraph(MARGIN, y, t("rules_intro"), size, self.inner, draw, leading=1.45) - lead

        def heading(text: str) -> None:
            nonlocal y
            y -= size * 0.6
            if draw:
                c.setFillColorRGB(*INK)
                self.draw_text(c, MARGIN, y, text, size + 2, bold=True)
            y -= lead * 1.05

        def bullet(text: str) -> None:
            nonlocal y
            indent = size * 1.2
            if draw:
                self.draw_text(c, MARGIN + size * 0.2, y, "•", size)
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
        name_w = max(self.text_width(NetDie(r, k, ()).name(self.lang), size, True) for r, k, _ in rows) + 4 * mm
        faces_x = MARGIN + name_w
        count_x = faces_x + 6 * (die + 1.2 * mm) + 4 * mm
        if draw:
            c.setFillColorRGB(*GREY)
            self.draw_text(c, MARGIN, y, t("die"), size * 0.85)
            self.draw_text(c, faces_x, y, t("faces"), size * 0.85)
            self.draw_text(c, count_x, y, t("how_many"), size * 0.85)
        y -= 1.5 * mm
        for role, letter, faces in rows:
            y -= die
            if draw:
                c.setFillColorRGB(*INK)
                self.draw_text(c, MARGIN, y + die / 2 - size * 0.35, NetDie(role, letter, ()).name(self.lang), size,
                          bold=True)  # fmt: skip
                for i, face in enumerate(faces):
                    fx = faces_x + i * (die + 1.2 * mm)
                    draw_face(c, fx, y, die, face, ROLE_FILL[role])
                    c.setStrokeColorRGB(*INK)
                    c.setLineWidth(0.6)
                    c.rect(fx, y, die, die, stroke=1, fill=0)
                c.setFillColorRGB(*INK)
                self.draw_text(c, count_x + 3 * mm, y + die / 2 - size * 0.35, str(kinds[role][letter]), size + 1,
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
        label_w = max(self.text_width(t("operator"), size, True), self.text_width(t("points"), size, True)) + 4 * mm
        top = y - die
        if draw:
            c.setFillColorRGB(*INK)
            self.draw_text(c, x, top + die / 2 - size * 0.35, t("operator"), size, bold=True)
            self.draw_text(c, x, top - size * 1.5, t("points"), size, bold=True)
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
                self.draw_text(
                    c, gx + width / 2, top - size * 1.5, str(points), size + 1, bold=True, align="center"
                )
            gx += width + 5 * mm
        return top - size * 1.5

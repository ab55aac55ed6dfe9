"""The dice of one player and the geometry of their nets: which face goes on which square, where every line runs.

    suji.rules.dice (the kinds and their faces, never retyped here) ──one_player_dice──▶ NetDie…
    NetDie ──opposite_pairs, net_faces──▶ a face on each of the six squares of a cross-shaped net
    a net's top left corner ──square_corner, square_side, tab_outline, net_lines──▶ points in PDF units

Pure: no canvas here (suji.worksheets.dice_nets.nets draws what this module measures). Row 0 of a net is its top;
PDF y grows upwards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.lib.units import mm

from suji.rules.dice import NUMBER_DICE_FACES, NUMBER_KINDS, OPERATOR_DICE_FACES, OPERATOR_KINDS, TARGET_KINDS
from suji.worksheets.dice_nets.texts import text

# The cube: 25 mm an edge makes a die a child can roll and read, and four nets (75 × 107 mm each with the glue
# tab) still fit on a US Letter page, the shorter of the two papers.
EDGE_MM = 25
EDGE = EDGE_MM * mm
TAB = 7 * mm  # depth of a glue tab; its ends slant at 45° so that tabs meeting inside a corner do not collide
NETS_PER_PAGE = 4
NET_WIDTH = 3 * EDGE
NET_HEIGHT = 4 * EDGE + TAB

Point = tuple[float, float]


@dataclass(frozen=True)
class NetDie:
    """One die to print: its role (target, number or operator), its kind letter and its six faces."""

    role: str
    letter: str
    faces: tuple[str, ...]

    def name(self, lang: str) -> str:
        return text(f"{self.role}_die", lang, letter=self.letter)


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


def square_corner(square: int, left: float, top: float) -> Point:
    """The lower left corner of a net's square, for a net whose top left corner is (left, top)."""
    col, row = NET_SQUARES[square]
    return left + col * EDGE, top - (row + 1) * EDGE


def square_side(square: int, side: str, left: float, top: float) -> tuple[Point, Point, Point]:
    """The side of a square as its two ends and the outward direction."""
    x, y = square_corner(square, left, top)
    return {
        "top": ((x, y + EDGE), (x + EDGE, y + EDGE), (0, 1)),
        "bottom": ((x, y), (x + EDGE, y), (0, -1)),
        "left": ((x, y), (x, y + EDGE), (-1, 0)),
        "right": ((x + EDGE, y), (x + EDGE, y + EDGE), (1, 0)),
    }[side]


def tab_outline(square: int, side: str, left: float, top: float) -> tuple[Point, Point, Point, Point]:
    """A glue tab on a square's side: a trapezoid from the side's two ends, its outer corners 45° in."""
    (x1, y1), (x2, y2), (nx, ny) = square_side(square, side, left, top)
    dx, dy = (x2 - x1) / EDGE, (y2 - y1) / EDGE
    a = (x1 + nx * TAB + dx * TAB, y1 + ny * TAB + dy * TAB)
    b = (x2 + nx * TAB - dx * TAB, y2 + ny * TAB - dy * TAB)
    return (x1, y1), a, b, (x2, y2)


def net_lines() -> list[tuple[int, str, str]]:
    """Every side of the net's squares as (square, side, "fold" or "cut"): fold lines where two squares meet and
    at the base of every tab, cut lines elsewhere. Each shared side once, from the square above or left of it."""
    squares = set(NET_SQUARES)
    lines = []
    for square, (col, row) in enumerate(NET_SQUARES):
        for side, neighbour in (("top", (col, row - 1)), ("bottom", (col, row + 1)),
                                ("left", (col - 1, row)), ("right", (col + 1, row))):  # fmt: skip
            shared = neighbour in squares
            if shared and side in ("top", "left"):
                continue
            lines.append((square, side, "fold" if shared or (square, side) in NET_TABS else "cut"))
    return lines

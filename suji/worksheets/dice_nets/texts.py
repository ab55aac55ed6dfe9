"""Every text of the printable dice, as msgids, and the rules page's worked examples (RULES.md §1).

The examples are written with the face constants of suji.rules.dice; the tests check them with suji.rules.scoring.
"""

from __future__ import annotations

from suji.core.i18n import N_, translate
from suji.rules.dice import PLUS, SQUARE

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

# The rules page's examples (RULES.md §1), written with the face constants.
EXAMPLE_TARGET_DICE = (1, 2, 5)
EXAMPLE_NINE_DICE = (4, 4, 6)
EXAMPLE_TARGET = 446
EXAMPLE_FORMULA: tuple[int | str, ...] = (2, 1, SQUARE, PLUS, 4, PLUS, 1)
EXAMPLE_REROLLED = 3

ROUNDS = 12  # rows of the score sheet
PLAYERS = 6


def text(key: str, lang: str, **params: object) -> str:
    """The text `key` in `lang`, its placeholders filled."""
    return translate(TEXTS[key], lang, **params)

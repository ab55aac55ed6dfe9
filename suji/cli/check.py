"""`suji check FORMULA --target-dice … --number-dice … --operator-dice …`: check and score one formula.

argv → a Roll and the text → `suji.rules.scoring.check` → the verdict lines (or one JSON object), and with
--steps the working (`suji.rules.working`). Exit 0 when the formula is valid and makes a target, else 1.
"""

from __future__ import annotations

import argparse

from suji.cli.common import (
    add_dice_arguments,
    add_lang_argument,
    language,
    non_negative,
    print_json,
    roll_from_args,
)
from suji.core.i18n import N_, translate

CHECK_TEXT = {
    "made": N_("✓ %(formula)s = %(value)s: target %(target)s made."),
    "missed": N_("✗ %(formula)s = %(value)s: not a target (%(targets)s)."),
    "invalid": N_("✗ Not a valid formula (%(column)s): %(message)s"),
    "invalid_nocol": N_("✗ Not a valid formula: %(message)s"),
    "scored": N_("Scored formula: %(formula)s"),
    "removed": N_("Redundant dice removed: %(dice)s"),
    "points": N_("Operator points %(points)s × number dice %(dice)s = %(total)s"),
    "costs": N_("Re-rolled %(rerolled)s, set %(set_faces)s: −%(cost)s"),
    "score": N_("Score: %(score)s"),
    "steps": N_("How it is worked out:"),
    "steps_scored": N_("The scored formula, worked out:"),
}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check", help="check and score a formula against a roll")
    p.add_argument("formula")
    add_dice_arguments(p)
    p.add_argument(
        "--rerolled", type=non_negative, default=0, help="how many dice were re-rolled (each costs points)"
    )
    p.add_argument(
        "--set-faces",
        type=non_negative,
        default=0,
        help="how many dice were set to a chosen face (each costs points)",
    )
    p.add_argument("--steps", action="store_true", help="show how the value is worked out, step by step")
    add_lang_argument(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_check)


def print_working(data: dict, lang: str) -> None:
    """The working as lines: each step (as maths) and the whole line after it, the reason at each new phase."""
    for key, title in (("formula", "steps"), ("scored_formula", "steps_scored")):
        shown = data.get(key)
        if not shown:
            continue
        print(translate(CHECK_TEXT[title], lang))
        print(f"  {shown['formula']}")
        phase = None
        for step in shown["steps"]:
            if step["phase"] != phase:
                phase = step["phase"]
                print(f"  ({step['reason']})")
            print(f"  {step['text']:<24} → {step['line']}")


def cmd_check(args: argparse.Namespace) -> int:
    from suji.rules.language.errors import COLUMN_MESSAGE
    from suji.rules.scoring import check, costs
    from suji.rules.working import checked_working

    lang = language(args)
    roll = roll_from_args(args)
    result = check(args.formula, roll, rerolled=args.rerolled, set_faces=args.set_faces)
    steps = checked_working(result, lang, roll) if args.steps else None
    if args.json:
        data = result.to_dict(lang)
        if args.steps:
            data["steps"] = steps
        print_json(data)
    elif not result.valid:
        error = result.error
        assert error is not None
        if error.column is not None:
            column = translate(COLUMN_MESSAGE, lang, column=error.column)
            print(translate(CHECK_TEXT["invalid"], lang, column=column, message=error.message(lang)))
            print(error.caret(args.formula))
        else:
            print(translate(CHECK_TEXT["invalid_nocol"], lang, message=error.message(lang)))
    else:
        t = lambda key, **kw: translate(CHECK_TEXT[key], lang, **kw)  # noqa: E731
        if result.target is not None:
            print(t("made", formula=args.formula, value=result.display, target=result.target))
        else:
            targets = " ".join(map(str, roll.targets))
            print(t("missed", formula=args.formula, value=result.display, targets=targets))
        print(t("scored", formula=result.scored_formula))
        if result.removed_tokens:
            print(t("removed", dice=" ".join(result.removed_tokens)))
        print(t("points", points=result.operator_points, dice=result.number_dice_used, total=result.points))
        if result.rerolled or result.set_faces:
            cost = costs(result.rerolled, result.set_faces)
            print(t("costs", rerolled=result.rerolled, set_faces=result.set_faces, cost=cost))
        print(t("score", score=result.score))
        if steps:
            print_working(steps, lang)
    return 0 if result.valid and result.target is not None else 1

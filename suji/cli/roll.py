"""`suji roll [--seed S]`: roll the twelve dice, seeded so the same seed gives the same roll.

A seed → `suji.rules.dice.random_roll` → the target dice and their targets, the number and operator dice.
"""

from __future__ import annotations

import argparse

from suji.cli.common import add_lang_argument, language, print_json
from suji.core.i18n import N_, translate
from suji.rules.dice import random_roll

ROLL_TEXT = {
    "targets": N_("Target dice: %(dice)s  →  targets: %(targets)s"),
    "numbers": N_("Number dice: %(dice)s"),
    "operators": N_("Operator dice: %(dice)s"),
}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("roll", help="roll the dice (seeded)")
    p.add_argument("--seed", default=None, help="seed for the random roll")
    add_lang_argument(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_roll)


def cmd_roll(args: argparse.Namespace) -> int:
    lang = language(args)
    roll = random_roll(args.seed)
    if args.json:
        print_json(roll.to_dict())
        return 0
    t = lambda key, **kw: translate(ROLL_TEXT[key], lang, **kw)  # noqa: E731
    print(t("targets", dice=" ".join(map(str, roll.target_dice)), targets=" ".join(map(str, roll.targets))))
    print(t("numbers", dice=" ".join(map(str, roll.number_dice))))
    print(t("operators", dice=" ".join(roll.operator_dice)))
    return 0

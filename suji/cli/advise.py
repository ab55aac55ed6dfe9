"""`suji advise`: every choice of re-rolling or setting dice, with its exact chance and expected score.

The dice and the costs spent → `suji.solver.advice.advise` (the odds table, else the solver on --workers
processes) → the best choices first, one a line (or JSON).
"""

from __future__ import annotations

import argparse
import os

from suji.cli.common import (
    add_dice_arguments,
    add_lang_argument,
    fail,
    language,
    non_negative,
    print_json,
    roll_from_args,
)
from suji.core.decimals import decimal_text, percent_text
from suji.core.i18n import translate
from suji.rules.dice import DiceError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("advise", help="re-roll advice: odds and expected score of every choice")
    add_dice_arguments(p)
    p.add_argument("--rerolled", type=non_negative, default=0, help="dice already re-rolled for this target")
    p.add_argument("--set-faces", type=non_negative, default=0, help="dice already set for this target")
    p.add_argument("--top", type=int, default=10, help="how many choices to print (text output)")
    p.add_argument(
        "--workers", type=int, default=min(2, os.cpu_count() or 1), help="processes that solve the outcomes"
    )
    add_lang_argument(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_advise)


def cmd_advise(args: argparse.Namespace) -> int:
    from suji.solver.advice import ADVICE_TEXT, advise

    lang = language(args)
    roll = roll_from_args(args)
    try:
        advice = advise(roll, rerolled=args.rerolled, set_faces=args.set_faces, workers=args.workers)
    except DiceError as error:
        return fail(error.message(lang))
    if args.json:
        print_json(advice.to_dict(lang))
        return 0
    for option in advice.options[: args.top]:
        print(
            translate(
                ADVICE_TEXT["summary"], lang,
                choice=option.label(lang), percent=percent_text(option.probability),
                fraction=str(option.probability), expected=decimal_text(option.expected_score, 2, trim=False),
            )
        )  # fmt: skip
    return 0

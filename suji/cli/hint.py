"""`suji hint`: the hints of a roll one step at a time, and whether the start of a formula can still finish.

The dice (and --prefix) → `suji.solver.search.solve` → `suji.solver.hints` → one line a hint (or JSON).
"""

from __future__ import annotations

import argparse

from suji.cli.common import add_dice_arguments, add_lang_argument, language, print_json, roll_from_args


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "hint", help="hints one step at a time, and 'still on track?' for the start of a formula"
    )
    add_dice_arguments(p)
    p.add_argument("--level", type=int, choices=(1, 2, 3, 4), default=4, help="how many hints (1-4)")
    p.add_argument("--prefix", help="the start of a formula: can it still be finished to a target?")
    add_lang_argument(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_hint)


def cmd_hint(args: argparse.Namespace) -> int:
    from suji.solver.hints import hints, on_track
    from suji.solver.search import solve

    lang = language(args)
    roll = roll_from_args(args)
    solution = solve(roll)
    shown = hints(roll, solution)[: args.level]
    track = on_track(args.prefix, roll, solution) if args.prefix is not None else None
    if args.json:
        print_json(
            {"hints": [h.to_dict(lang) for h in shown], "track": track.to_dict(lang) if track else None}
        )
    else:
        for hint in shown:
            print(f"{hint.level}. {hint.message(lang)}")
        if track:
            print(track.message(lang))
    return 0

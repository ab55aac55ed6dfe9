"""`suji practice simulate|bank`: synthetic pupils through the learner model, and building its item bank.

simulate: `suji.learner.simulate.run` on N seeded pupils of mixed skill, M items each, printing per pupil the
success after the warm-up and on random rolls, the final rating, the ² √ items served, and over the pupils the
mean success and the Spearman rank correlation of ratings and abilities (`--json`: the report as one object).
bank: `suji.learner.bank.build` on seeded certified rolls; `--write` replaces the bank shipped in the package.
"""

from __future__ import annotations

import argparse

from suji.cli.common import add_lang_argument, language, positive, print_json
from suji.core.decimals import decimal_text
from suji.core.i18n import N_, translate

PRACTICE_TEXT = {
    "heading": N_(
        "%(pupils)s synthetic pupils, %(items)s items each; success counted after a warm-up of %(warm_up)s."
    ),
    "columns": N_(
        "pupil  families  dice  6→9  insight  slip  hints  success  random rolls  rating  ² √ served"
    ),
    "mean": N_("Mean success after the warm-up: %(mean)s (the target chance averages 0.75)."),
    "spearman": N_("Rank correlation of the final ratings with the pupils' abilities (Spearman): %(rho)s."),
    "bank": N_(
        "%(items)s items from %(rolls)s rolls (levels 1, 2, 3: %(levels)s), %(goals)s of them with points to reach."
    ),
    "bank_written": N_("Written to %(path)s."),
}


def register(sub: argparse._SubParsersAction) -> None:
    practice = sub.add_parser("practice", help="the learner model: synthetic pupils, the item bank")
    practice_sub = practice.add_subparsers(dest="practice_command", required=True)
    p = practice_sub.add_parser(
        "simulate", help="synthetic pupils of known skill answer through the real model"
    )
    p.add_argument("--pupils", type=positive, default=12, help="how many pupils (default 12)")
    p.add_argument(
        "--items", type=positive, default=55, help="items each (default 55: a warm-up of 15, then 40)"
    )
    p.add_argument("--seed", default="1", help="the run's seed (pupils and answers)")
    add_lang_argument(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_simulate)
    p = practice_sub.add_parser("bank", help="build the item bank from seeded certified rolls")
    p.add_argument(
        "--rolls", type=positive, default=None, help="how many rolls (default: the shipped bank's 3000)"
    )
    p.add_argument("--workers", type=positive, default=1, help="processes")
    p.add_argument("--write", action="store_true", help="replace the bank shipped in the package")
    add_lang_argument(p)
    p.set_defaults(func=cmd_bank)


def cmd_simulate(args: argparse.Namespace) -> int:
    from suji.learner.families import FAMILIES, FAMILY_NAMES, FIVE_DICE, FOUR_DICE, SIX_AS_NINE
    from suji.learner.simulate import run, standard_pupils

    report = run(standard_pupils(args.pupils, seed=f"pupils/{args.seed}"), items=args.items, seed=args.seed)
    data = report.to_dict()
    if args.json:
        print_json(data)
        return 0
    lang = language(args)
    warm_up = min(report.warm_up, args.items)
    print(translate(PRACTICE_TEXT["heading"], lang, pupils=args.pupils, items=args.items, warm_up=warm_up))
    print(translate(PRACTICE_TEXT["columns"], lang))
    # The operator families by number (dice and 6→9 have their own columns).
    shown = [f for f in FAMILIES if f not in (SIX_AS_NINE, FOUR_DICE, FIVE_DICE)]
    short = {f: str(i) for i, f in enumerate(shown)}
    for row in data["pupils"]:
        families = "".join(short[f] for f in shown if f in row["families"])
        print(
            f"{row['name']:<6} {families:<10} {row['max_dice']:>4} {'✓' if row['reads_nine'] else '·':>4} "
            f"{row['insight']:>8.2f} {row['slip']:>5.2f} {'✓' if row['takes_hints'] else '·':>6} "
            f"{row['success_after_warm_up']:>8.3f} {row['success_on_random_rolls']:>13.3f} "
            f"{row['final_rating']:>7.2f} {row['served_needing_root_or_square']:>11}"
        )
    print("  " + " · ".join(f"{i} {translate(FAMILY_NAMES[f], lang)}" for i, f in enumerate(shown)))
    print(translate(PRACTICE_TEXT["mean"], lang, mean=decimal_text(data["mean_success_after_warm_up"], 3, trim=False)))
    print(translate(PRACTICE_TEXT["spearman"], lang, rho=decimal_text(data["spearman_rating_ability"], 3, trim=False)))
    return 0


def cmd_bank(args: argparse.Namespace) -> int:
    from collections import Counter

    from suji.learner import bank as item_bank
    from suji.solver.levels import LEVELS

    data = item_bank.build(args.rolls or item_bank.DEFAULT_ROLLS, workers=args.workers)
    built = item_bank.Bank.of(item_bank.records_items(data["rolls"]))
    lang = language(args)
    levels = Counter(item.level for item in built.items)
    print(
        translate(
            PRACTICE_TEXT["bank"],
            lang,
            items=len(built),
            rolls=len(data["rolls"]),
            levels=" / ".join(str(levels[k]) for k in LEVELS),
            goals=sum(it.goal > 0 for it in built.items),
        )  # fmt: skip
    )
    if args.write:
        item_bank.write(data)
        print(translate(PRACTICE_TEXT["bank_written"], lang, path=item_bank.BANK_FILE))
    return 0

"""`suji solve`: every target of a roll with its best score, one best formula and the solution count.

The dice options (or `--batch FILE`, one JSON roll a line) → `suji.solver.search.solve_at_level` → a line per
target, or one JSON object a roll. A bad batch line is answered with its number and an error, and the batch goes
on (exit 1 at the end).
"""

from __future__ import annotations

import argparse
import json
import sys

from suji.cli.common import (
    CLI_TEXT,
    NotRegularFile,
    add_dice_arguments,
    add_lang_argument,
    fail,
    json_error,
    language,
    open_regular,
    print_json,
    roll_from_args,
)
from suji.core.i18n import N_, translate
from suji.rules.dice import DiceError, Roll
from suji.solver.levels import LEVELS

SOLVE_TEXT = {
    "none": N_("No target can be made with these dice."),
    "target": N_("%(target)s: best score %(score)s with %(formula)s (%(solutions)s irreducible formulas)"),
    "unreachable": N_("%(target)s: cannot be made"),
    "missing_field": N_("This line has no “%(field)s”."),
    "bad_line": N_("This line is not a JSON object with target_dice, number_dice and operator_dice."),
}
MAX_BATCH_LINE = 10_000


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("solve", help="every target of a roll: best score, a best formula, solution count")
    add_dice_arguments(p, required=False)
    p.add_argument("--batch", metavar="FILE", help="one JSON roll per line (- for standard input)")
    p.add_argument("--level", type=int, choices=LEVELS, help="only the operators of a drill level")
    add_lang_argument(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_solve)


def _solve_dict(roll: Roll, level: int | None) -> dict:
    from suji.solver.search import solve_at_level

    return solve_at_level(roll, level or None).to_dict()


def _batch_roll(line: str) -> Roll:
    """A roll from one JSON line of a batch file (DiceError or ValueError when it is not one)."""
    data = json.loads(line)
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    return Roll.of(
        number_dice=data["number_dice"],
        operator_dice=data["operator_dice"],
        target_dice=data.get("target_dice") or (),
        target=data.get("target"),
    )


def _batch_answer(raw: bytes, level: int | None, lang: str) -> dict | None:
    """The JSON answer to one line of a batch: the solution, or the error with its code (None: a blank line)."""
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError:
        return json_error("bad_line", translate(CLI_TEXT["line_not_utf8"], lang))
    if not line.strip():
        return None
    if len(line) > MAX_BATCH_LINE:
        return json_error("bad_line", translate(CLI_TEXT["line_too_long"], lang, limit=MAX_BATCH_LINE))
    try:
        return _solve_dict(_batch_roll(line), level)
    except DiceError as error:
        return json_error(error.code, error.message(lang))
    except KeyError as error:
        return json_error("bad_line", translate(SOLVE_TEXT["missing_field"], lang, field=error.args[0]))
    except (ValueError, TypeError, RecursionError):
        return json_error("bad_line", translate(SOLVE_TEXT["bad_line"], lang))


def _solve_batch(args: argparse.Namespace, lang: str) -> int:
    try:
        source = open_regular(args.batch) if args.batch != "-" else sys.stdin.buffer
    except FileNotFoundError:
        return fail(translate(CLI_TEXT["no_file"], lang, path=args.batch))
    except IsADirectoryError:
        return fail(translate(CLI_TEXT["is_dir"], lang, path=args.batch))
    except NotRegularFile:
        return fail(translate(CLI_TEXT["not_regular"], lang, path=args.batch))
    except OSError:
        return fail(translate(CLI_TEXT["unreadable"], lang, path=args.batch))
    status = 0
    with source as lines:
        for number, raw in enumerate(lines, 1):
            # Each line on its own: a bad line is reported with its number, and the batch goes on.
            answer = _batch_answer(raw, args.level, lang)
            if answer is None:
                continue
            if "error" in answer:
                answer = {"line": number, **answer}
                status = 1
            print_json(answer)
            sys.stdout.flush()
    return status


def cmd_solve(args: argparse.Namespace) -> int:
    lang = language(args)
    if args.batch:
        return _solve_batch(args, lang)
    if not (args.number_dice and args.operator_dice and (args.target_dice or args.target)):
        print(
            "suji solve: give --batch FILE, or the dice (--target-dice/--target, --number-dice, --operator-dice)",
            file=sys.stderr,
        )
        return 2
    roll = roll_from_args(args)
    data = _solve_dict(roll, args.level)
    if args.json:
        print_json(data)
        return 0 if data["best"] else 1
    t = lambda key, **kw: translate(SOLVE_TEXT[key], lang, **kw)  # noqa: E731
    for target in roll.targets:
        best = data["best"].get(str(target))
        if best:
            print(t("target", target=target, score=best["score"], formula=best["formula"],
                    solutions=best["solutions"]))  # fmt: skip
        else:
            print(t("unreachable", target=target))
    return 0 if data["best"] else 1

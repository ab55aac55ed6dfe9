"""`suji worksheet` and `suji dice-nets`: printable sheets of certified problems, and the dice to cut out.

worksheet: the options are read exactly as the web form's (`suji.worksheets.sheet.parse_settings`) → the sheet
→ PDF, HTML or JSON to a file or standard output. dice-nets: one player's twelve dice, the rules and a score
sheet as one PDF (`suji.worksheets.dice_nets`). A path that cannot be written is refused before any work.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from suji.cli.common import add_lang_argument, fail, language
from suji.core.i18n import translate


def register_dice_nets(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "dice-nets", help="printable dice: nets of one player's 12 dice, the rules, a score sheet (PDF)"
    )
    add_lang_argument(p)
    p.add_argument("--paper", choices=("a4", "letter"), default="a4")
    p.add_argument("-o", "--output", default="-", help="the PDF file to write (- for standard output)")
    p.set_defaults(func=cmd_dice_nets)


def register_worksheet(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("worksheet", help="a printable worksheet of certified problems (pdf, html or json)")
    p.add_argument("--count", default="10", help="problems per version (1-40)")
    p.add_argument("--level", default="1", help="1, 2 or 3, as the drills, or mixed (each problem its own)")
    p.add_argument("--seed", default="", help="the same seed prints the same sheet (default: a new one)")
    add_lang_argument(p)
    p.add_argument("--paper", default="a4", help="a4 or letter")
    p.add_argument("--versions", default="1", help="versions with different dice (1-6)")
    p.add_argument(
        "--targets", default="list", help="list: print the target numbers; dice: only the target dice"
    )
    p.add_argument("--title", default="", help="the title (default: one in the sheet's language)")
    p.add_argument("--no-name-line", action="store_true", help="leave out the name and date line")
    p.add_argument("--score-box", action="store_true", help="a box for the mark (「　点」) beside the name line")
    p.add_argument("--furigana", default="4", metavar="GRADE",
                   help="ruby on the kanji above this school grade on a Japanese sheet: 1-6, or none (default 4)")  # fmt: skip
    p.add_argument("--no-key", action="store_true", help="leave out the answer key")
    p.add_argument(
        "--steps", action="store_true", help="print how each key formula is worked out, step by step"
    )
    p.add_argument(
        "--format", choices=("pdf", "html", "json"), default=None, help="default: from -o, else json"
    )
    p.add_argument("-o", "--output", default="-", help="the file to write (- for standard output)")
    p.set_defaults(func=cmd_worksheet)


def _write(data: bytes, output: str) -> None:
    if output == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        Path(output).write_bytes(data)


def cmd_dice_nets(args: argparse.Namespace) -> int:
    from suji.worksheets.sheet import output_path_problem

    lang = language(args)
    output = args.output
    problem = output_path_problem(output, lang)
    if problem:
        return fail(problem)
    from suji.worksheets.dice_nets import dice_nets_pdf  # ReportLab only here

    try:
        _write(dice_nets_pdf(lang, args.paper), output)
    except OSError as error:
        return fail(f"{output}: {error.strerror or error}")
    return 0


def cmd_worksheet(args: argparse.Namespace) -> int:
    """`suji worksheet`: validate the options like the web form, build the sheet, write pdf, html or json."""
    from suji.worksheets.sheet import SHEET_TEXTS, build_worksheet, output_path_problem, parse_settings

    lang = language(args)
    options = {
        name: getattr(args, name)
        for name in ("count", "level", "seed", "paper", "versions", "targets", "title")
    }
    options["lang"] = lang
    options["name"] = "no" if args.no_name_line else "yes"
    options["key"] = "no" if args.no_key else "yes"
    options["score"] = "yes" if args.score_box else "no"
    options["furigana"] = args.furigana
    options["steps"] = "yes" if args.steps else "no"
    settings, errors = parse_settings({k: str(v) for k, v in options.items()}, lang)
    if errors:
        for error in errors:
            print(f"suji: {error.message(lang)}", file=sys.stderr)
        return 2
    output: str = args.output or "-"
    fmt = args.format or (Path(output).suffix.lstrip(".").lower() if output != "-" else "json")
    if fmt not in ("pdf", "html", "json"):
        fmt = "json"
    # Checked before the sheet is built, so a typo in the path costs nothing.
    problem = output_path_problem(output, lang)
    if problem:
        return fail(problem)
    worksheet = build_worksheet(settings)
    if fmt == "pdf":
        from suji.worksheets.pdf import worksheet_pdf

        data = worksheet_pdf(worksheet)
    elif fmt == "html":
        from suji.worksheets.html import worksheet_html

        data = worksheet_html(worksheet).encode("utf-8")
    else:
        data = (json.dumps(worksheet.to_dict(), ensure_ascii=False) + "\n").encode("utf-8")
    _write(data, output)
    if output != "-":
        # The seed on stderr too, for a sheet made without one: it is how to print the same sheet again.
        print(translate(SHEET_TEXTS["seed"], lang, seed=worksheet.settings.seed), file=sys.stderr)
    return 0

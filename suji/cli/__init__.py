"""The command line: `suji check`, `suji roll`, `suji solve`, `suji odds`, `suji worksheet` … thin over the library.

One module a command, its options beside its handler (`register(sub)` adds the subcommand); `common` holds what
they share (the language, the dice options, JSON output and its one error shape). Data flows argv → argparse →
the command's handler → the library → the terminal.

Exit status: 0 success (for `check`: valid and a target made), 1 a formula that is invalid or misses, 2 a bad
command line.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from suji.cli import advise, check, dev, hint, odds, practice, roll, serve, solve, teacher, worksheets
from suji.cli.check import CHECK_TEXT
from suji.cli.common import CLI_TEXT, default_language, fail
from suji.cli.roll import ROLL_TEXT
from suji.core.i18n import translate
from suji.rules.dice import DiceError

__all__ = ["CHECK_TEXT", "CLI_TEXT", "ROLL_TEXT", "build_parser", "default_language", "main"]

# The subcommands in the order `suji --help` lists them.
COMMANDS = (
    check.register, roll.register, solve.register, hint.register, advise.register, odds.register, practice.register,
    dev.register_bench, dev.register_i18n, serve.register, teacher.register, dev.register_load,
    worksheets.register_dice_nets, worksheets.register_worksheet,
)  # fmt: skip


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="suji", description="Sūji de Asobo (すうじであそぼ) maths trainer")
    sub = parser.add_subparsers(dest="command", required=True)
    for register in COMMANDS:
        register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    for position, arg in enumerate(argv, 1):
        # Bytes that are not UTF-8 reach Python as lone surrogates, which no message could print.
        if any("\ud800" <= ch <= "\udfff" for ch in arg):
            return fail(translate(CLI_TEXT["not_utf8"], default_language(), position=position))
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:
        # The reader went away (`suji odds show … | head`): not an error worth a traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except DiceError as error:
        return fail(error.message(getattr(args, "lang", None) or default_language()))

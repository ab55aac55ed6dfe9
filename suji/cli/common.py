"""What every command of `suji` shares: the language, the dice options, JSON output and its one error shape.

A command module (check, roll, solve, …) adds its own options beside its handler and calls these; data flows
argv → argparse → a handler → the library → print (text in the reader's language, or one JSON object a line).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from suji.core.i18n import LANGUAGES, N_
from suji.rules.dice import Roll

CLI_TEXT = {
    "not_utf8": N_("Argument %(position)s is not UTF-8 text. Type it again (or set the terminal to UTF-8)."),
    "no_file": N_("There is no file “%(path)s”."),
    "is_dir": N_("“%(path)s” is a folder, not a file."),
    "unreadable": N_("“%(path)s” cannot be read."),
    "not_regular": N_(
        "“%(path)s” is not a regular file (a FIFO or a device, which may never end): give a file, or “-” to "
        "read standard input."
    ),
    "bad_port": N_("The port must be a whole number from 1 to 65535."),
    "bad_host": N_("“%(host)s” is not an address this computer can listen on."),
    "bad_threads": N_("The number of threads must be a whole number from 1 to 64."),
    "bad_connection_limit": N_("The connection limit must be a whole number from 10 to 100000."),
    "line_not_utf8": N_("This line is not UTF-8 text."),
    "line_too_long": N_("This line is too long: at most %(limit)s characters."),
    "cannot_listen": N_("Cannot listen on %(host)s port %(port)s: %(reason)s."),
}

DEV_TOOL = (
    "suji {command} is a developer tool: it is in a checkout of the project (pip install -e .), not in the "
    "installed package."
)


def default_language() -> str:
    """ja when the environment's locale is Japanese, else en."""
    for var in ("SUJI_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        if value:
            return "ja" if value.startswith("ja") else "en"
    return "en"


def language(args: argparse.Namespace) -> str:
    """The language of a command's messages: its --lang, else the environment's."""
    return getattr(args, "lang", None) or default_language()


def add_dice_arguments(parser: argparse.ArgumentParser, required: bool = True) -> None:
    """The dice options shared by check, solve, hint and advise."""
    target = parser.add_mutually_exclusive_group(required=required)
    target.add_argument("--target-dice", nargs=3, metavar="T", help="the three target dice (e.g. 4 4 6)")
    target.add_argument("--target", type=int, help="one target number instead of target dice")
    parser.add_argument(
        "--number-dice", nargs="+", required=required, metavar="D", help="number dice, e.g. 2 1 4 1 3"
    )
    parser.add_argument(
        "--operator-dice", nargs="+", required=required, metavar="O",
        help="operator dice: + - * / x10 x11 x12 ^2 sqrt (or + − × ÷ ×10 ×11 ×12 ² √)",
    )  # fmt: skip


def add_lang_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lang", choices=LANGUAGES, default=None, help="language of messages (ja or en)")


def roll_from_args(args: argparse.Namespace) -> Roll:
    """Build the Roll named by the dice options (raises DiceError)."""
    return Roll.of(
        number_dice=args.number_dice,
        operator_dice=args.operator_dice,
        target_dice=args.target_dice or (),
        target=args.target,
    )


def print_json(data: object) -> None:
    """One JSON object on one line (UTF-8 as it is: Japanese stays readable)."""
    print(json.dumps(data, ensure_ascii=False))


def json_error(code: str, message: str, **where: object) -> dict:
    """The one shape of an error in JSON output: ``{…where, "error": {"code", "message"}}`` (as the web API's)."""
    return {**where, "error": {"code": code, "message": message}}


def fail(message: str) -> int:
    """Say what is wrong on standard error, as `suji: …`, and give the exit status of a bad command line."""
    print(f"suji: {message}", file=sys.stderr)
    return 2


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


def non_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return value


def dev_tools() -> bool:
    """Whether the developer tools (suji.dev) are here: a checkout has them, an installed wheel leaves them out."""
    from importlib.util import find_spec

    return find_spec("suji.dev") is not None


def no_dev_tool(args: argparse.Namespace) -> int:
    print(DEV_TOOL.format(command=args.command), file=sys.stderr)
    return 2


class NotRegularFile(OSError):
    """A path that is not a regular file (a FIFO, a device): reading it may wait for ever."""


def open_regular(path: str):  # noqa: ANN201 - a binary file
    """Open a regular file for reading; NotRegularFile for a FIFO or a device, found without waiting on it."""
    import fcntl
    import os
    import stat

    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO opens at once instead of waiting for a writer
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(path)
        if not stat.S_ISREG(mode):
            raise NotRegularFile(path)
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb")

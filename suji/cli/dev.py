"""The developer tools on the command line: `suji bench`, `suji i18n`, `suji loadtest`, `suji classload`.

They live in suji.dev, which a checkout has and the built package leaves out: there each says where it is.
"""

from __future__ import annotations

import argparse
import sys

from suji.cli.common import dev_tools, no_dev_tool
from suji.core.i18n import LANGUAGES


def register_bench(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench", help="benchmark the rules engine and the solver, printing medians")
    p.add_argument("--rolls", type=int, default=200, help="how many seeded rolls")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--only", default=None, help="run only the benchmarks whose name contains this")
    p.add_argument("--json", action="store_true", help="one JSON object: each row's median and p95 in ms")
    p.set_defaults(func=cmd_bench)


def register_i18n(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "i18n",
        help="translations: extract, update, compile, all, fill FILE.json, check (gaps), "
        "lint (textlint on the Japanese), kanji-grades [KANJIDIC2.xml.gz] (the furigana's grade table)",
    )
    p.add_argument(
        "action", choices=("extract", "update", "compile", "all", "fill", "check", "lint", "kanji-grades")
    )
    p.add_argument("file", nargs="?", help="with fill: a JSON object {msgid: translation}; "
                   "with kanji-grades: the KANJIDIC2 file (default Debian's kanjidic-xml)")  # fmt: skip
    p.add_argument("--locale", default="ja", choices=LANGUAGES)
    p.set_defaults(func=cmd_i18n)


def register_load(sub: argparse._SubParsersAction) -> None:
    if dev_tools():
        from suji.dev import classload
        from suji.dev.loadtest import add_arguments as loadtest_arguments

        p = sub.add_parser(
            "loadtest", help="measure /api/check under load on 127.0.0.1 (requests/s, latency)"
        )
        loadtest_arguments(p)
        p.set_defaults(func=cmd_loadtest)
        # Class mode under load (suji.dev.classload, stdlib only at import): the options of its own parser.
        p = sub.add_parser("classload", parents=[classload.build_parser(add_help=False)],
                           help="class mode under load: N pupils answering at once through suji serve")  # fmt: skip
        p.set_defaults(func=classload.run)
    else:  # an installed wheel: the developer tools say where they are
        for command in ("loadtest", "classload"):
            p = sub.add_parser(command, help="(a developer tool, in a checkout of the project)")
            p.add_argument("rest", nargs=argparse.REMAINDER)
            p.set_defaults(func=no_dev_tool)


def cmd_i18n(args: argparse.Namespace) -> int:
    if not dev_tools():
        return no_dev_tool(args)
    from suji.dev import catalogs

    if args.action in ("lint", "kanji-grades"):
        return _japanese(args)
    if args.action in ("extract", "all"):
        catalogs.extract()
    if args.action in ("update", "all"):
        catalogs.update()
    if args.action == "fill":
        if not args.file:
            print("suji i18n fill needs a JSON file", file=sys.stderr)
            return 2
        catalogs.fill(args.file, args.locale)
    if args.action in ("compile", "all", "fill"):
        catalogs.compile_catalogs()
    missing = catalogs.untranslated(args.locale)
    if missing:
        print(f"{len(missing)} messages have no {args.locale} translation:")
        for msgid in missing:
            print(f"  {msgid}")
    # Only the steps that finish a translation fail on gaps, so `extract && update && fill F` runs to the end.
    return 1 if missing and args.action in ("fill", "check", "all") else 0


def _japanese(args: argparse.Namespace) -> int:
    """`suji i18n lint` and `suji i18n kanji-grades`: the Japanese text's checks and data (suji.dev.japanese)."""
    import tempfile
    from pathlib import Path

    from suji.dev import japanese

    if args.action == "kanji-grades":
        source = Path(args.file) if args.file else japanese.KANJIDIC2
        if not source.exists():
            print(f"suji: no KANJIDIC2 file at {source} (apt-get install kanjidic-xml)", file=sys.stderr)
            return 2
        print(f"wrote {japanese.write_kanji_grades(source)}")
        return 0
    try:
        result = japanese.lint(Path(tempfile.mkdtemp(prefix="suji-textlint-")))
    except FileNotFoundError as error:
        print(f"suji: {error}", file=sys.stderr)
        return 2
    print(result.stdout or "textlint: 0 problems", end="" if result.stdout else "\n")
    return result.returncode


def cmd_bench(args: argparse.Namespace) -> int:
    if not dev_tools():
        return no_dev_tool(args)
    from suji.dev import bench

    return bench.main(args)


def cmd_loadtest(args: argparse.Namespace) -> int:
    from suji.dev import loadtest

    if args.requests < 1 or args.clients < 1 or not 1 <= args.threads <= 64 or args.time_limit <= 0:
        print("suji loadtest: --requests, --clients and --time-limit must be positive, --threads 1 to 64",
              file=sys.stderr)  # fmt: skip
        return 2
    return loadtest.run(args)

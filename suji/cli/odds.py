"""`suji odds build|show|status|facts`: the exact odds table, built once, looked up, and the game's exact facts.

build: every row solved once into one file (`suji.solver.odds.build`, resumable); show: a roll's best score for
every target number, from the table or live; status: complete, being built or missing; facts: the exact figures
of the whole game by level (`suji.solver.odds.facts`).
"""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction

from suji.cli.common import add_lang_argument, language, non_negative, positive, print_json
from suji.core.decimals import decimal_text, percent_text
from suji.core.i18n import N_, translate
from suji.rules.dice import Roll
from suji.solver.levels import FULL_LEVEL, LEVELS


def register(sub: argparse._SubParsersAction) -> None:
    odds = sub.add_parser(
        "odds", help="the exact odds table: build it, look a roll up, the game's exact facts"
    )
    odds_sub = odds.add_subparsers(dest="odds_command", required=True)
    p = odds_sub.add_parser("build", help="solve every roll once (resumable; Ctrl+C keeps finished parts)")
    p.add_argument("--workers", type=positive, default=None, help="processes (default: all cores)")
    p.add_argument("--path", help="the table file (default: $SUJI_ODDS_PATH or ~/.local/share/suji)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--nice", type=non_negative, default=0, help="lower the priority of the work (0-19)")
    p.add_argument("--parent-pid", type=int, default=None, help=argparse.SUPPRESS)
    add_lang_argument(p)
    p.set_defaults(func=cmd_odds_build)
    p = odds_sub.add_parser("show", help="every makeable target number of a roll with its best score")
    p.add_argument("--number-dice", nargs="+", required=True, metavar="D", help="number dice, e.g. 2 1 4 1 3")
    p.add_argument(
        "--operator-dice", nargs="+", required=True, metavar="O", help="operator dice, e.g. + + ^2 -"
    )
    p.add_argument(
        "--level", type=int, choices=LEVELS, default=FULL_LEVEL, help="only the operators of a drill level"
    )
    p.add_argument("--path", help="the table file")
    add_lang_argument(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_odds_show)
    p = odds_sub.add_parser("facts", help="exact figures over every equally likely roll, by level")
    p.add_argument("--path", help="the table file")
    p.add_argument(
        "--write", nargs="?", const="", default=None, metavar="FILE",
        help="write the facts JSON (default: the file shipped in the package) from a complete table",
    )  # fmt: skip
    add_lang_argument(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_odds_facts)
    p = odds_sub.add_parser("status", help="is the table there, complete, or how far its build has got")
    p.add_argument("--path", help="the table file")
    add_lang_argument(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_odds_status)


ODDS_TEXT = {
    "progress": N_("%(done)s of %(total)s parts (%(percent)s)"),
    "left": N_("about %(time)s left"),
    "minutes": N_("%(minutes)s min %(seconds)s s"),
    "seconds": N_("%(seconds)s s"),
    "complete": N_("The odds table is complete: %(path)s (%(size)s MB)."),
    "stopped": N_(
        "Stopped: %(done)s of %(total)s parts are done and kept. Run “suji odds build” again to go on from there."
    ),
    "source_table": N_("From the odds table (%(path)s)."),
    "source_live": N_("Worked out live by the solver (no usable odds table)."),
    "show_line": N_("%(target)s: best score %(score)s"),
    "show_none": N_("No target number can be made with these dice."),
    "show_count": N_("%(count)s of %(total)s target numbers can be made."),
    "not_number_dice": N_(
        "The odds table covers five number dice (A A B B C) and four operator dice (A A A B)."
    ),
    "status_complete": N_("Complete: %(path)s (%(size)s MB, rules %(rules)s)."),
    "status_building": N_("Being built: %(done)s of %(total)s parts done (%(percent)s)."),
    "status_partial": N_("Not finished: %(done)s of %(total)s parts done. Run “suji odds build” to go on."),
    "facts_source_table": N_("Exact figures from the odds table at %(path)s."),
    "facts_source_stored": N_("Exact figures stored with suji (no usable odds table here)."),
    "facts_none": N_("No figures: there is no usable odds table and none are stored. Run “suji odds build”."),
    "facts_written": N_("Wrote %(path)s."),
    "facts_need_table": N_("Writing the facts needs a complete odds table. %(reason)s"),
    "level_title": N_("Level %(level)s (%(operators)s):"),
    "p_make": N_("  A roll can make a target: %(percent)s (%(fraction)s)"),
    "mean": N_("  Mean best score (0 when nothing can be made): %(decimal)s (%(fraction)s)"),
    "distribution": N_("  Best score: %(scores)s"),
    "hardest": N_("  Hardest target numbers: %(targets)s"),
    "easiest": N_("  Easiest target numbers: %(targets)s"),
}


def _duration(seconds: float, lang: str) -> str:
    seconds = int(round(seconds))
    if seconds >= 60:
        return translate(ODDS_TEXT["minutes"], lang, minutes=seconds // 60, seconds=seconds % 60)
    return translate(ODDS_TEXT["seconds"], lang, seconds=seconds)


def _progress_line(progress: object, lang: str, width: int = 30) -> str:
    filled = int(width * progress.fraction)  # type: ignore[attr-defined]
    bar = "█" * filled + "·" * (width - filled)
    text = translate(
        ODDS_TEXT["progress"], lang, done=progress.done, total=progress.total,  # type: ignore[attr-defined]
        percent=percent_text(progress.fraction),  # type: ignore[attr-defined]
    )  # fmt: skip
    if progress.seconds_left is not None and progress.done < progress.total:  # type: ignore[attr-defined]
        text += " · " + translate(ODDS_TEXT["left"], lang, time=_duration(progress.seconds_left, lang))  # type: ignore[attr-defined]
    return f"[{bar}] {text}"


def _odds_path(args: argparse.Namespace):
    from pathlib import Path

    from suji.solver.odds import default_path

    return Path(args.path).expanduser() if args.path else default_path()


def cmd_odds_build(args: argparse.Namespace) -> int:
    import signal
    import time

    from suji.solver.odds import TableError
    from suji.solver.odds.build import BuildStopped, build, part_status

    lang = language(args)
    path = _odds_path(args)
    tty = sys.stderr.isatty()
    last = [0.0]

    def show(progress: object) -> None:
        if args.quiet:
            return
        now = time.monotonic()
        done = progress.done == progress.total  # type: ignore[attr-defined]
        if tty:
            print(
                "\r" + _progress_line(progress, lang), end="\n" if done else "", file=sys.stderr, flush=True
            )
        elif done or now - last[0] >= 10:
            print(_progress_line(progress, lang), file=sys.stderr, flush=True)
            last[0] = now

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    try:
        try:
            build(path, workers=args.workers, on_progress=show, nice=args.nice, parent_pid=args.parent_pid)
        except KeyboardInterrupt:  # stopped before its loop of parts began (the loop says BuildStopped itself)
            raise BuildStopped(*part_status(path)) from None
    except TableError as error:
        print(f"suji: {error.message(lang)}", file=sys.stderr)
        return 1
    except BuildStopped as stopped:
        if tty and not args.quiet:
            print(file=sys.stderr)
        print(translate(ODDS_TEXT["stopped"], lang, done=stopped.done, total=stopped.total), file=sys.stderr)
        return 1
    size = decimal_text(Fraction(path.stat().st_size, 10**6), 1, trim=False)
    print(translate(ODDS_TEXT["complete"], lang, path=path, size=size))
    return 0


def cmd_odds_show(args: argparse.Namespace) -> int:
    from suji.solver.odds import TABLE, TableError, best_by_target, open_table

    lang = language(args)
    roll = Roll.of(number_dice=args.number_dice, operator_dice=args.operator_dice, target_dice=(1,))
    table = None
    problem = None
    try:
        table = open_table(_odds_path(args))
    except TableError as error:
        if error.code != "missing":
            problem = error
    best, source = best_by_target(roll.number_dice, roll.operator_dice, args.level, table=table)
    if args.json:
        print_json(
            {
                "number_dice": list(roll.number_dice),
                "operator_dice": list(roll.operator_dice),
                "level": args.level,
                "source": source,
                "best": {str(t): s for t, s in sorted(best.items())},
            }
        )
        return 0 if best else 1
    if problem is not None:
        print(f"suji: {problem.message(lang)}", file=sys.stderr)
    if source == TABLE:
        print(translate(ODDS_TEXT["source_table"], lang, path=_odds_path(args)))
    else:
        print(translate(ODDS_TEXT["source_live"], lang))
    if not best:
        print(translate(ODDS_TEXT["show_none"], lang))
        return 1
    from suji.solver.odds import target_list

    print(translate(ODDS_TEXT["show_count"], lang, count=len(best), total=len(target_list())))
    for target, score in sorted(best.items()):
        print(translate(ODDS_TEXT["show_line"], lang, target=target, score=score))
    return 0


def cmd_odds_status(args: argparse.Namespace) -> int:
    from suji.solver.odds import TableError, open_table
    from suji.solver.odds.build import build_running, part_status

    lang = language(args)
    path = _odds_path(args)
    try:
        table = open_table(path)
    except TableError as error:
        done, total = part_status(path)
        running = build_running(path)
        if args.json:
            state = "building" if running else ("partial" if done else error.code)
            print_json({"path": str(path), "state": state, "done": done, "total": total})
            return 1
        if running:
            percent = percent_text(Fraction(done, total))
            print(translate(ODDS_TEXT["status_building"], lang, done=done, total=total, percent=percent))
        elif done:
            print(translate(ODDS_TEXT["status_partial"], lang, done=done, total=total))
        else:
            print(error.message(lang))
        return 1
    size = decimal_text(Fraction(path.stat().st_size, 10**6), 1, trim=False)
    if args.json:
        print_json(
            {"path": str(path), "state": "complete", "size_bytes": path.stat().st_size, **table.header}
        )
    else:
        print(
            translate(ODDS_TEXT["status_complete"], lang, path=path, size=size, rules=table.header["rules"])
        )
    return 0


def cmd_odds_facts(args: argparse.Namespace) -> int:
    from pathlib import Path

    from suji.rules.dice import OPERATOR_FACES
    from suji.solver.levels import LEVEL_OPERATORS
    from suji.solver.odds import TableError, open_table
    from suji.solver.odds.facts import (
        FACTS_FILE,
        compute_facts,
        hardest_and_easiest,
        stored_facts,
        write_facts,
    )

    lang = language(args)
    path = _odds_path(args)
    try:
        table = open_table(path)
    except TableError as error:
        table, reason = None, error
    if args.write is not None:
        if table is None:
            print(
                "suji: " + translate(ODDS_TEXT["facts_need_table"], lang, reason=reason.message(lang)),
                file=sys.stderr,
            )
            return 1
        target = Path(args.write) if args.write else FACTS_FILE
        try:
            write_facts(compute_facts(table), target)
        except TableError as error:  # the file changed or was damaged while it was read
            print(f"suji: {error.message(lang)}", file=sys.stderr)
            return 1
        print(translate(ODDS_TEXT["facts_written"], lang, path=target))
        return 0
    try:
        facts = compute_facts(table) if table is not None else stored_facts()
    except TableError:  # the file changed or was damaged while it was read: the stored figures
        table, facts = None, stored_facts()
    if facts is None:
        print("suji: " + translate(ODDS_TEXT["facts_none"], lang), file=sys.stderr)
        return 1
    source = "table" if table is not None else "stored"
    if args.json:
        print_json({"source": source, **{k: v for k, v in facts.items() if k != "sample"}})
        return 0
    if table is not None:
        print(translate(ODDS_TEXT["facts_source_table"], lang, path=path))
    else:
        print(translate(ODDS_TEXT["facts_source_stored"], lang))
    for level in (3, 2, 1):
        data = facts["levels"][str(level)]
        print()
        operators = " ".join(f for f in OPERATOR_FACES if f in LEVEL_OPERATORS[level])
        print(translate(ODDS_TEXT["level_title"], lang, level=level, operators=operators))
        p = data["p_make"]
        print(translate(ODDS_TEXT["p_make"], lang, percent=percent_text(Fraction(p["fraction"]), 2), fraction=p["fraction"]))
        m = data["mean_best_score"]
        print(translate(ODDS_TEXT["mean"], lang, decimal=decimal_text(Fraction(m["fraction"]), 3, trim=False), fraction=m["fraction"]))
        scores = ", ".join(
            f"{s}: {percent_text(Fraction(v['fraction']), 2)}"
            for s, v in data["best_score_distribution"].items()
            if Fraction(v["fraction"]) >= Fraction(1, 200)
        )
        print(translate(ODDS_TEXT["distribution"], lang, scores=scores))
        hardest, easiest = hardest_and_easiest(data)
        listed = lambda pairs: ", ".join(f"{t} ({percent_text(Fraction(v['fraction']), 2)})" for t, v in pairs)  # noqa: E731
        print(translate(ODDS_TEXT["hardest"], lang, targets=listed(hardest)))
        print(translate(ODDS_TEXT["easiest"], lang, targets=listed(easiest)))
    return 0

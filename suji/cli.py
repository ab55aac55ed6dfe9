"""The command line: `suji check`, `suji roll`, `suji bench`, `suji i18n` … thin over the library.

Exit status: 0 success (for `check`: valid and a target made), 1 a formula that is invalid or misses, 2 a bad
command line.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence

from suji.core.i18n import LANGUAGES, N_, translate
from suji.rules.dice import DiceError, Roll, random_roll


# Messages for dice given on the command line or to the API.
def default_language() -> str:
    """ja when the environment's locale is Japanese, else en."""
    for var in ("SUJI_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        if value:
            return "ja" if value.startswith("ja") else "en"
    return "en"


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
    print(json.dumps(data, ensure_ascii=False))


CLI_TEXT = {
    "not_utf8": N_("Argument %(position)s is not UTF-8 text. Type it again (or set the terminal to UTF-8)."),
    "no_file": N_("There is no file “%(path)s”."),
    "is_dir": N_("“%(path)s” is a folder, not a file."),
    "unreadable": N_("“%(path)s” cannot be read."),
    "bad_port": N_("The port must be a whole number from 1 to 65535."),
    "bad_host": N_("“%(host)s” is not an address this computer can listen on."),
    "bad_threads": N_("The number of threads must be a whole number from 1 to 64."),
    "line_not_utf8": N_("This line is not UTF-8 text."),
    "line_too_long": N_("This line is too long: at most %(limit)s characters."),
    "cannot_listen": N_("Cannot listen on %(host)s port %(port)s: %(reason)s."),
}
MAX_BATCH_LINE = 10_000


# ---- suji check ------------------------------------------------------------------------------------------

CHECK_TEXT = {
    "made": N_("✓ %(formula)s = %(value)s: target %(target)s made."),
    "missed": N_("✗ %(formula)s = %(value)s: not a target (%(targets)s)."),
    "invalid": N_("✗ Not a valid formula (%(column)s): %(message)s"),
    "invalid_nocol": N_("✗ Not a valid formula: %(message)s"),
    "scored": N_("Scored formula: %(formula)s"),
    "removed": N_("Redundant dice removed: %(dice)s"),
    "points": N_("Operator points %(points)s × number dice %(dice)s = %(total)s"),
    "costs": N_("Re-rolled %(rerolled)s, set %(set_faces)s: −%(cost)s"),
    "score": N_("Score: %(score)s"),
    "steps": N_("How it is worked out:"),
    "steps_scored": N_("The scored formula, worked out:"),
}


def print_working(data: dict, lang: str) -> None:
    """The working as lines: each step (as maths) and the whole line after it, the reason at each new phase."""
    for key, title in (("formula", "steps"), ("scored_formula", "steps_scored")):
        shown = data.get(key)
        if not shown:
            continue
        print(translate(CHECK_TEXT[title], lang))
        print(f"  {shown['formula']}")
        phase = None
        for step in shown["steps"]:
            if step["phase"] != phase:
                phase = step["phase"]
                print(f"  ({step['reason']})")
            print(f"  {step['text']:<24} → {step['line']}")


def cmd_check(args: argparse.Namespace) -> int:
    from suji.rules.formula import COLUMN_MESSAGE
    from suji.rules.scoring import check, costs

    lang = args.lang or default_language()
    roll = roll_from_args(args)
    result = check(args.formula, roll, rerolled=args.rerolled, set_faces=args.set_faces)
    from suji.rules.working import checked_working

    steps = checked_working(result, lang, roll) if args.steps else None
    if args.json:
        data = result.to_dict(lang)
        if args.steps:
            data["steps"] = steps
        print_json(data)
    elif not result.valid:
        error = result.error
        assert error is not None
        if error.column is not None:
            column = translate(COLUMN_MESSAGE, lang, column=error.column)
            print(translate(CHECK_TEXT["invalid"], lang, column=column, message=error.message(lang)))
            print(error.caret(args.formula))
        else:
            print(translate(CHECK_TEXT["invalid_nocol"], lang, message=error.message(lang)))
    else:
        t = lambda key, **kw: translate(CHECK_TEXT[key], lang, **kw)  # noqa: E731
        if result.target is not None:
            print(t("made", formula=args.formula, value=result.value, target=result.target))
        else:
            targets = " ".join(map(str, roll.targets))
            print(t("missed", formula=args.formula, value=result.value, targets=targets))
        print(t("scored", formula=result.scored_formula))
        if result.removed_tokens:
            print(t("removed", dice=" ".join(result.removed_tokens)))
        print(t("points", points=result.operator_points, dice=result.number_dice_used, total=result.points))
        if result.rerolled or result.set_faces:
            cost = costs(result.rerolled, result.set_faces)
            print(t("costs", rerolled=result.rerolled, set_faces=result.set_faces, cost=cost))
        print(t("score", score=result.score))
        if steps:
            print_working(steps, lang)
    return 0 if result.valid and result.target is not None else 1


# ---- suji roll -------------------------------------------------------------------------------------------

ROLL_TEXT = {
    "targets": N_("Target dice: %(dice)s  →  targets: %(targets)s"),
    "numbers": N_("Number dice: %(dice)s"),
    "operators": N_("Operator dice: %(dice)s"),
}


def cmd_roll(args: argparse.Namespace) -> int:
    lang = args.lang or default_language()
    roll = random_roll(args.seed)
    if args.json:
        print_json(roll.to_dict())
        return 0
    t = lambda key, **kw: translate(ROLL_TEXT[key], lang, **kw)  # noqa: E731
    print(t("targets", dice=" ".join(map(str, roll.target_dice)), targets=" ".join(map(str, roll.targets))))
    print(t("numbers", dice=" ".join(map(str, roll.number_dice))))
    print(t("operators", dice=" ".join(roll.operator_dice)))
    return 0


# ---- suji solve / hint / advise --------------------------------------------------------------------------

SOLVE_TEXT = {
    "none": N_("No target can be made with these dice."),
    "target": N_("%(target)s: best score %(score)s with %(formula)s (%(solutions)s irreducible formulas)"),
    "unreachable": N_("%(target)s: cannot be made"),
    "missing_field": N_("This line has no “%(field)s”."),
    "bad_line": N_("This line is not a JSON object with target_dice, number_dice and operator_dice."),
}


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


def cmd_solve(args: argparse.Namespace) -> int:
    lang = args.lang or default_language()
    if args.batch:
        status = 0
        try:
            source = open(args.batch, "rb") if args.batch != "-" else sys.stdin.buffer
        except FileNotFoundError:
            print(f"suji: {translate(CLI_TEXT['no_file'], lang, path=args.batch)}", file=sys.stderr)
            return 2
        except IsADirectoryError:
            print(f"suji: {translate(CLI_TEXT['is_dir'], lang, path=args.batch)}", file=sys.stderr)
            return 2
        except OSError:
            print(f"suji: {translate(CLI_TEXT['unreadable'], lang, path=args.batch)}", file=sys.stderr)
            return 2
        with source as lines:
            for number, raw in enumerate(lines, 1):
                # Each line on its own: a bad line is reported with its number, and the batch goes on.
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError:
                    message = translate(CLI_TEXT["line_not_utf8"], lang)
                    print_json({"line": number, "error": {"code": "bad_line", "message": message}})
                    status = 1
                    continue
                if not line.strip():
                    continue
                if len(line) > MAX_BATCH_LINE:
                    message = translate(CLI_TEXT["line_too_long"], lang, limit=MAX_BATCH_LINE)
                    print_json({"line": number, "error": {"code": "bad_line", "message": message}})
                    status = 1
                    continue
                try:
                    print_json(_solve_dict(_batch_roll(line), args.level))
                except DiceError as error:
                    print_json(
                        {
                            "line": number,
                            "error": {"code": error.code, "message": error.message(lang)},
                        }
                    )
                    status = 1
                except KeyError as error:
                    message = translate(SOLVE_TEXT["missing_field"], lang, field=error.args[0])
                    print_json({"line": number, "error": {"code": "bad_line", "message": message}})
                    status = 1
                except (ValueError, TypeError, RecursionError):
                    message = translate(SOLVE_TEXT["bad_line"], lang)
                    print_json({"line": number, "error": {"code": "bad_line", "message": message}})
                    status = 1
                sys.stdout.flush()
        return status
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
            print(
                t(
                    "target",
                    target=target,
                    score=best["score"],
                    formula=best["formula"],
                    solutions=best["solutions"],
                )
            )
        else:
            print(t("unreachable", target=target))
    return 0 if data["best"] else 1


def cmd_hint(args: argparse.Namespace) -> int:
    from suji.solver.hints import hints, on_track
    from suji.solver.search import solve

    lang = args.lang or default_language()
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


def cmd_advise(args: argparse.Namespace) -> int:
    from suji.solver.advice import ADVICE_TEXT, advise

    lang = args.lang or default_language()
    roll = roll_from_args(args)
    try:
        advice = advise(roll, rerolled=args.rerolled, set_faces=args.set_faces, workers=args.workers)
    except DiceError as error:
        print(f"suji: {error.message(lang)}", file=sys.stderr)
        return 2
    if args.json:
        print_json(advice.to_dict(lang))
        return 0
    for option in advice.options[: args.top]:
        print(
            translate(
                ADVICE_TEXT["summary"], lang,
                choice=option.label(lang), percent=f"{float(option.probability):.1%}",
                fraction=str(option.probability), expected=f"{float(option.expected_score):.2f}",
            )
        )  # fmt: skip
    return 0


# ---- suji odds -------------------------------------------------------------------------------------------

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
        percent=f"{progress.fraction:.1%}",  # type: ignore[attr-defined]
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
    from suji.solver.odds.build import BuildStopped, build

    lang = args.lang or default_language()
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
        build(path, workers=args.workers, on_progress=show, nice=args.nice, parent_pid=args.parent_pid)
    except TableError as error:
        print(f"suji: {error.message(lang)}", file=sys.stderr)
        return 1
    except BuildStopped as stopped:
        if tty and not args.quiet:
            print(file=sys.stderr)
        print(translate(ODDS_TEXT["stopped"], lang, done=stopped.done, total=stopped.total), file=sys.stderr)
        return 1
    size = f"{path.stat().st_size / 1e6:.1f}"
    print(translate(ODDS_TEXT["complete"], lang, path=path, size=size))
    return 0


def cmd_odds_show(args: argparse.Namespace) -> int:
    from suji.solver.odds import TABLE, TableError, best_by_target, open_table

    lang = args.lang or default_language()
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

    lang = args.lang or default_language()
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
            percent = f"{done / total:.1%}"
            print(translate(ODDS_TEXT["status_building"], lang, done=done, total=total, percent=percent))
        elif done:
            print(translate(ODDS_TEXT["status_partial"], lang, done=done, total=total))
        else:
            print(error.message(lang))
        return 1
    size = f"{path.stat().st_size / 1e6:.1f}"
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
    from suji.solver.odds import TableError, open_table
    from suji.solver.odds.facts import (
        FACTS_FILE,
        compute_facts,
        hardest_and_easiest,
        stored_facts,
        write_facts,
    )
    from suji.solver.search import LEVEL_OPERATORS

    lang = args.lang or default_language()
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
        write_facts(compute_facts(table), target)
        print(translate(ODDS_TEXT["facts_written"], lang, path=target))
        return 0
    facts = compute_facts(table) if table is not None else stored_facts()
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
        print(translate(ODDS_TEXT["p_make"], lang, percent=f"{p['decimal']:.2%}", fraction=p["fraction"]))
        m = data["mean_best_score"]
        print(translate(ODDS_TEXT["mean"], lang, decimal=f"{m['decimal']:.3f}", fraction=m["fraction"]))
        scores = ", ".join(
            f"{s}: {v['decimal']:.2%}"
            for s, v in data["best_score_distribution"].items()
            if v["decimal"] >= 0.005
        )
        print(translate(ODDS_TEXT["distribution"], lang, scores=scores))
        hardest, easiest = hardest_and_easiest(data)
        listed = lambda pairs: ", ".join(f"{t} ({v['decimal']:.2%})" for t, v in pairs)  # noqa: E731
        print(translate(ODDS_TEXT["hardest"], lang, targets=listed(hardest)))
        print(translate(ODDS_TEXT["easiest"], lang, targets=listed(easiest)))
    return 0


# ---- suji i18n -------------------------------------------------------------------------------------------


def cmd_i18n(args: argparse.Namespace) -> int:
    if not _dev_tools():
        return _no_dev_tool(args)
    from suji.dev import catalogs

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


def cmd_bench(args: argparse.Namespace) -> int:
    if not _dev_tools():
        return _no_dev_tool(args)
    from suji.dev import bench

    return bench.main(args)


# ---- suji serve, suji loadtest ---------------------------------------------------------------------------


def _check_server_options(args: argparse.Namespace, lang: str) -> str | None:
    """A message when the port, host or threads cannot work, before anything starts."""
    import ipaddress
    import socket

    if not 1 <= args.port <= 65535:
        return translate(CLI_TEXT["bad_port"], lang)
    if not 1 <= args.threads <= 64:
        return translate(CLI_TEXT["bad_threads"], lang)
    host = args.host
    try:
        ipaddress.ip_address(host)
    except ValueError:
        looks_numeric = host.replace(".", "").isdigit()
        try:
            if looks_numeric or not host or any(ch.isspace() for ch in host):
                raise OSError
            socket.getaddrinfo(host, args.port, type=socket.SOCK_STREAM)
        except (OSError, UnicodeError):
            return translate(CLI_TEXT["bad_host"], lang, host=host)
    return None


def cmd_serve(args: argparse.Namespace) -> int:
    # Imported here so that `suji check` and friends never import Flask.
    from suji.web.serve import serve

    lang = default_language()
    problem = _check_server_options(args, lang)
    if problem:
        print(f"suji: {problem}", file=sys.stderr)
        return 2
    try:
        return serve(host=args.host, port=args.port, threads=args.threads)
    except OSError as error:  # the address is taken, or not one of this computer's
        reason = error.strerror or str(error)
        print(f"suji: {translate(CLI_TEXT['cannot_listen'], lang, host=args.host, port=args.port, reason=reason)}",
              file=sys.stderr)  # fmt: skip
        return 2


def cmd_loadtest(args: argparse.Namespace) -> int:
    from suji.dev import loadtest

    if args.requests < 1 or args.clients < 1 or not 1 <= args.threads <= 64 or args.time_limit <= 0:
        print("suji loadtest: --requests, --clients and --time-limit must be positive, --threads 1 to 64",
              file=sys.stderr)  # fmt: skip
        return 2

    return loadtest.run(args)


# ---- suji worksheet --------------------------------------------------------------------------------------


def cmd_dice_nets(args: argparse.Namespace) -> int:
    from pathlib import Path

    from suji.worksheets.sheet import output_path_problem

    lang = args.lang or default_language()
    output = args.output
    problem = output_path_problem(output, lang)
    if problem:
        print(f"suji: {problem}", file=sys.stderr)
        return 2
    from suji.worksheets.dice_nets import dice_nets_pdf  # ReportLab only here

    data = dice_nets_pdf(lang, args.paper)
    if output == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        try:
            Path(output).write_bytes(data)
        except OSError as error:
            print(f"suji: {output}: {error.strerror or error}", file=sys.stderr)
            return 2
    return 0


def cmd_worksheet(args: argparse.Namespace) -> int:
    """`suji worksheet`: validate the options like the web form, build the sheet, write pdf, html or json."""
    from pathlib import Path

    from suji.worksheets.sheet import SHEET_TEXTS, build_worksheet, output_path_problem, parse_settings

    lang = args.lang or default_language()
    options = {
        name: getattr(args, name)
        for name in ("count", "level", "seed", "paper", "versions", "targets", "title")
    }
    options["lang"] = lang
    options["name"] = "no" if getattr(args, "no_name_line", False) else "yes"
    options["key"] = "no" if getattr(args, "no_key", False) else "yes"
    options["steps"] = "yes" if getattr(args, "steps", False) else "no"
    settings, errors = parse_settings({k: str(v) for k, v in options.items()}, lang)
    if errors:
        for error in errors:
            print(f"suji: {error.message(lang)}", file=sys.stderr)
        return 2
    output: str = getattr(args, "output", "-") or "-"
    fmt = getattr(args, "format", None) or (
        Path(output).suffix.lstrip(".").lower() if output != "-" else "json"
    )
    if fmt not in ("pdf", "html", "json"):
        fmt = "json"
    # Checked before the sheet is built, so a typo in the path costs nothing.
    problem = output_path_problem(output, lang)
    if problem:
        print(f"suji: {problem}", file=sys.stderr)
        return 2
    worksheet = build_worksheet(settings)
    if fmt == "pdf":
        from suji.worksheets.pdf import worksheet_pdf

        data = worksheet_pdf(worksheet)
    elif fmt == "html":
        from suji.worksheets.html import worksheet_html

        data = worksheet_html(worksheet).encode("utf-8")
    else:
        data = (json.dumps(worksheet.to_dict(), ensure_ascii=False) + "\n").encode("utf-8")
    if output == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        Path(output).write_bytes(data)
        # The seed on stderr too, for a sheet made without one: it is how to print the same sheet again.
        print(translate(SHEET_TEXTS["seed"], lang, seed=worksheet.settings.seed), file=sys.stderr)
    return 0


# ---- the parser ------------------------------------------------------------------------------------------

Command = Callable[[argparse.Namespace], int]


DEV_TOOL = (
    "suji {command} is a developer tool: it is in a checkout of the project (pip install -e .), not in the "
    "installed package."
)


def _dev_tools() -> bool:
    """Whether the developer tools (suji.dev) are here: a checkout has them, an installed wheel leaves them out."""
    from importlib.util import find_spec

    return find_spec("suji.dev") is not None


def _no_dev_tool(args: argparse.Namespace) -> int:
    print(DEV_TOOL.format(command=args.command), file=sys.stderr)
    return 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="suji", description="Sūji de Asobo (すうじであそぼ) maths trainer")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("check", help="check and score a formula against a roll")
    p.add_argument("formula")
    add_dice_arguments(p)
    p.add_argument(
        "--rerolled", type=_non_negative, default=0, help="how many dice were re-rolled (each costs points)"
    )
    p.add_argument(
        "--set-faces",
        type=_non_negative,
        default=0,
        help="how many dice were set to a chosen face (each costs points)",
    )
    p.add_argument("--steps", action="store_true", help="show how the value is worked out, step by step")
    add_lang_argument(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("roll", help="roll the dice (seeded)")
    p.add_argument("--seed", default=None, help="seed for the random roll")
    add_lang_argument(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_roll)

    p = sub.add_parser("solve", help="every target of a roll: best score, a best formula, solution count")
    add_dice_arguments(p, required=False)
    p.add_argument("--batch", metavar="FILE", help="one JSON roll per line (- for standard input)")
    p.add_argument("--level", type=int, choices=(1, 2, 3), help="only the operators of a drill level")
    add_lang_argument(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_solve)

    p = sub.add_parser(
        "hint", help="hints one step at a time, and 'still on track?' for the start of a formula"
    )
    add_dice_arguments(p)
    p.add_argument("--level", type=int, choices=(1, 2, 3, 4), default=4, help="how many hints (1-4)")
    p.add_argument("--prefix", help="the start of a formula: can it still be finished to a target?")
    add_lang_argument(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_hint)

    p = sub.add_parser("advise", help="re-roll advice: odds and expected score of every choice")
    add_dice_arguments(p)
    p.add_argument("--rerolled", type=_non_negative, default=0, help="dice already re-rolled for this target")
    p.add_argument("--set-faces", type=_non_negative, default=0, help="dice already set for this target")
    p.add_argument("--top", type=int, default=10, help="how many choices to print (text output)")
    p.add_argument(
        "--workers", type=int, default=min(2, os.cpu_count() or 1), help="processes that solve the outcomes"
    )
    add_lang_argument(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_advise)

    odds = sub.add_parser(
        "odds", help="the exact odds table: build it, look a roll up, the game's exact facts"
    )
    odds_sub = odds.add_subparsers(dest="odds_command", required=True)
    p = odds_sub.add_parser("build", help="solve every roll once (resumable; Ctrl+C keeps finished parts)")
    p.add_argument("--workers", type=_positive, default=None, help="processes (default: all cores)")
    p.add_argument("--path", help="the table file (default: $SUJI_ODDS_PATH or ~/.local/share/suji)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--nice", type=_non_negative, default=0, help="lower the priority of the work (0-19)")
    p.add_argument("--parent-pid", type=int, default=None, help=argparse.SUPPRESS)
    add_lang_argument(p)
    p.set_defaults(func=cmd_odds_build)
    p = odds_sub.add_parser("show", help="every makeable target number of a roll with its best score")
    p.add_argument("--number-dice", nargs="+", required=True, metavar="D", help="number dice, e.g. 2 1 4 1 3")
    p.add_argument(
        "--operator-dice", nargs="+", required=True, metavar="O", help="operator dice, e.g. + + ^2 -"
    )
    p.add_argument(
        "--level", type=int, choices=(1, 2, 3), default=3, help="only the operators of a drill level"
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

    p = sub.add_parser("bench", help="benchmark the rules engine and the solver, printing medians")
    p.add_argument("--rolls", type=int, default=200, help="how many seeded rolls")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--only", default=None, help="run only the benchmarks whose name contains this")
    p.add_argument("--json", action="store_true", help="one JSON object: each row's median and p95 in ms")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser(
        "i18n", help="translations: extract, update, compile, all, fill FILE.json, check (gaps)"
    )
    p.add_argument("action", choices=("extract", "update", "compile", "all", "fill", "check"))
    p.add_argument("file", nargs="?", help="with fill: a JSON object {msgid: translation}")
    p.add_argument("--locale", default="ja", choices=LANGUAGES)
    p.set_defaults(func=cmd_i18n)

    p = sub.add_parser("serve", help="start the web app on waitress (http://127.0.0.1:8000 by default)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (0.0.0.0 for the whole network)")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--threads", type=int, default=8, help="waitress worker threads")
    p.set_defaults(func=cmd_serve)

    if _dev_tools():
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
            p.set_defaults(func=_no_dev_tool)

    p = sub.add_parser(
        "dice-nets", help="printable dice: nets of one player's 12 dice, the rules, a score sheet (PDF)"
    )
    add_lang_argument(p)
    p.add_argument("--paper", choices=("a4", "letter"), default="a4")
    p.add_argument("-o", "--output", default="-", help="the PDF file to write (- for standard output)")
    p.set_defaults(func=cmd_dice_nets)

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
    p.add_argument("--no-key", action="store_true", help="leave out the answer key")
    p.add_argument(
        "--steps", action="store_true", help="print how each key formula is worked out, step by step"
    )
    p.add_argument(
        "--format", choices=("pdf", "html", "json"), default=None, help="default: from -o, else json"
    )
    p.add_argument("-o", "--output", default="-", help="the file to write (- for standard output)")
    p.set_defaults(func=cmd_worksheet)

    return parser


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


def _non_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    for position, arg in enumerate(argv, 1):
        # Bytes that are not UTF-8 reach Python as lone surrogates, which no message could print.
        if any("\ud800" <= ch <= "\udfff" for ch in arg):
            lang = default_language()
            print(f"suji: {translate(CLI_TEXT['not_utf8'], lang, position=position)}", file=sys.stderr)
            return 2
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:
        # The reader went away (`suji odds show … | head`): not an error worth a traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except DiceError as error:
        lang = getattr(args, "lang", None) or default_language()
        print(f"suji: {error.message(lang)}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

"""`suji bench`: time the rules engine, the solver and re-roll advice on seeded standard rolls.

Benchmarks live in suji.dev.timing.BENCHMARKS, name → function(rolls, seed) → list of Timing rows; add one with
``@register("name")``. `suji bench --only NAME` runs those whose name contains NAME. Each benchmark times its
subject and a baseline in the same run, on the same inputs, so the figures compare on one machine.

    suji bench                 # every benchmark, 200 rolls
    suji bench --only check --rolls 500 --seed 3

The figures are wall-clock times of single calls (time.perf_counter_ns), so they vary with the machine's load;
the median is the figure to quote, p95 shows the slow tail.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections.abc import Callable, Sequence

from suji.core import native
from suji.dev import timing
from suji.dev.timing import Timing, register, time_calls
from suji.rules.dice import Roll, random_roll
from suji.rules.language.evaluate import evaluate, is_formula
from suji.rules.language.spelling import Face

# The goal the rules engine is held to (issue 2): check() on a typical 9-dice answer, median on a 2-core machine.
CHECK_GOAL_MS = 5.0


# ---- typical answers -------------------------------------------------------------------------------------


def typical_answer(roll: Roll, rng: random.Random, tries: int = 20_000) -> tuple[Face, ...] | None:
    """A random valid formula using every die of the roll (each 6 read as 6 or 9 at random), or None."""
    faces: list[Face] = [
        *(rng.choice((6, 9)) if d == 6 else d for d in roll.number_dice),
        *roll.operator_dice,
    ]
    for _ in range(tries):
        rng.shuffle(faces)
        if is_formula(faces):
            return tuple(faces)
    return None


def typical_answers(rolls: int, seed: int) -> list[tuple[str, Roll]]:
    """(formula text, roll) for `rolls` seeded standard rolls: all 5 number dice and all 4 operator dice."""
    from suji.rules.language.printing import format_faces

    answers = []
    for i in range(rolls):
        roll = random_roll(f"bench:{seed}:{i}")
        faces = typical_answer(roll, random.Random(f"bench-answer:{seed}:{i}"))
        if faces is not None:
            answers.append((format_faces(faces), roll))
    return answers


# ---- baselines: the same check with a naive stripper -----------------------------------------------------


def bruteforce_strip(faces: Sequence[Face], value_of: Callable[[Sequence[Face]], object]) -> tuple[int, ...]:
    """Stripping by the definition: every subset of the dice in order, the valid ones with the same value,
    fewest dice, then highest score. `value_of` gives a comparable exact value or None."""
    from suji.rules.scoring import formula_score

    n = len(faces)
    value = value_of(faces)
    best: tuple[int, int] | None = None
    best_kept: tuple[int, ...] = tuple(range(n))
    for mask in range(1, 1 << n):
        kept = tuple(i for i in range(n) if mask >> i & 1)
        sub = [faces[i] for i in kept]
        sub_value = value_of(sub)
        if sub_value is None or sub_value != value:
            continue
        key = (len(kept), -formula_score(sub))
        if best is None or key < best:
            best, best_kept = key, kept
    return best_kept


def sympy_value_of(faces: Sequence[Face]):  # noqa: ANN201 - a SymPy expression or None
    """The value of a face sequence as a SymPy number (the arithmetic the checker once used), or None."""
    import sympy

    value = evaluate(faces)
    if value is None:
        return None
    total = sympy.Integer(0)
    for r, c in value:
        total += sympy.Rational(c.numerator, c.denominator) * sympy.sqrt(r)
    return total


def check_with(strip: Callable[[Sequence[Face]], tuple[int, ...]]) -> Callable[[str, Roll], object]:
    """`suji.rules.scoring.check` with another stripper in place of strip_redundant."""
    from suji.rules import scoring

    def run(text: str, roll: Roll) -> object:
        saved = scoring.strip_redundant
        scoring.strip_redundant = lambda faces, value=None: strip(faces)  # works the value out itself
        try:
            return scoring.check(text, roll)
        finally:
            scoring.strip_redundant = saved

    return run


@register("check")
def bench_check(rolls: int, seed: int) -> list[Timing]:
    """check() on typical 9-dice answers, against check() with brute-force stripping (exact and SymPy)."""
    from suji.rules.scoring import check

    answers = typical_answers(rolls, seed)
    if answers:
        check(*answers[0])  # build the parser and warm the caches before timing
    rows = [time_calls("check", check, answers)]
    exact_strip = check_with(lambda faces: bruteforce_strip(faces, evaluate))
    rows.append(time_calls("check, baseline: brute-force strip (exact)", exact_strip, answers))
    # The SymPy baseline is some 100 times slower: time it on a tenth of the answers.
    sympy_strip = check_with(lambda faces: bruteforce_strip(faces, sympy_value_of))
    few = answers[: max(1, len(answers) // 10)] if answers else []
    rows.append(time_calls("check, baseline: brute-force strip (SymPy)", sympy_strip, few))
    return rows


# ---- the solver ------------------------------------------------------------------------------------------

# The goals the solver is held to (issue 3), on a 2-core machine.
SOLVE_GOAL_MEDIAN_MS = 30.0
SOLVE_GOAL_P95_MS = 150.0
SOLVE_GOAL_SPEEDUP = 200.0  # issue 23 (30 before)
ADVISE_GOAL_MS = 2000.0
# With the odds table (issue 10): advice by lookup, and one row of the table.
ADVISE_TABLE_GOAL_MEDIAN_MS = 20.0
ADVISE_TABLE_GOAL_P95_MS = 50.0
LOOKUP_GOAL_MS = 0.1
LOOKUPS = 2000
ROUTE_GOAL_MS = 1000.0  # issue 12: the worst accepted request of a route answers within a second
# The brute-force reference takes a few tenths of a second a roll, advice a second or two: they run on the
# first rolls only, and the speed-up compares the solver with the reference on exactly those rolls.
REFERENCE_ROLLS = 40
ADVICE_ROLLS = 12


def _fresh_solve(roll: Roll) -> object:
    """solve() with its cache of terms emptied first, so every roll is timed from scratch."""
    from suji.solver import search as solver
    from suji.solver import terms

    terms.clear_cache()
    return solver.solve(roll)


@register("solve")
def bench_solve(rolls: int, seed: int) -> list[Timing]:
    """solve() on seeded standard rolls, against the brute-force reference on the first of them."""
    from suji.solver.listing import reference_solve

    inputs = [(random_roll(f"bench-solve:{seed}:{i}"),) for i in range(rolls)]
    _fresh_solve(*inputs[0])  # warm up imports and the grammar
    few = inputs[: min(rolls, REFERENCE_ROLLS)]
    return [
        time_calls("solve", _fresh_solve, inputs),
        time_calls(f"solve, first {len(few)} rolls", _fresh_solve, few),
        time_calls(f"brute-force reference, first {len(few)} rolls", reference_solve, few),
    ]


@register("advise")
def bench_advise(rolls: int, seed: int) -> list[Timing]:
    """advise() on the first seeded rolls: by lookup in the odds table, and live on two processes.

    The same rolls in the same run. The table's row cache is emptied before each call, so every lookup
    inflates its row from the file as a first question about a roll would.
    """
    from suji.solver.advice import advise
    from suji.solver.odds import table_or_none
    from suji.solver.odds.table import _inflate

    inputs = [(random_roll(f"bench-advise:{seed}:{i}"),) for i in range(min(rolls, ADVICE_ROLLS))]
    workers = min(2, os.cpu_count() or 1)
    rows = []
    table = table_or_none()
    if table is not None:

        def by_lookup(roll: Roll) -> object:
            _inflate.cache_clear()
            return advise(roll, table=table)

        by_lookup(inputs[0][0])  # warm up imports
        rows.append(time_calls("advise, odds table (in the request's thread)", by_lookup, inputs))
        rows[-1].key = "advise_table"
    else:
        print(
            "suji bench: no usable odds table, so advice is timed live only (suji odds build)",
            file=sys.stderr,
        )
    rows.append(
        time_calls(
            f"advise, live ({workers} processes, as without a table)",
            lambda r: advise(r, workers=workers),
            inputs,
        )
    )
    rows[-1].key = "advise_live"
    return rows


@register("lookup")
def bench_lookup(rolls: int, seed: int) -> list[Timing]:
    """One row of the odds table (inflated from the file, the row cache emptied first) for random rolls."""
    from suji.solver.odds import space, table_or_none
    from suji.solver.odds.table import _inflate

    table = table_or_none()
    if table is None:
        print("suji bench: no usable odds table to time lookups in (suji odds build)", file=sys.stderr)
        return []
    rng = random.Random(f"bench-lookup:{seed}")
    numbers, operators = list(space.number_sets()), list(space.full_operator_sets())
    keys = [
        (rng.choice(numbers), rng.choice(operators), rng.choice(space.target_list())) for _ in range(LOOKUPS)
    ]

    def lookup(n: tuple, ops: tuple, target: int) -> object:
        _inflate.cache_clear()
        return table.best_score(n, ops, (target,))

    timing = time_calls("odds table: one lookup (row read from the file)", lookup, keys)
    timing.key = "lookup"
    return [timing]


# The heaviest request of each route that computes, at the caps (issue 12): each should answer within about
# half a second on the 2-core development machine. A fresh seed each call defeats the pages' caches.
WORST_REQUESTS: tuple[tuple[str, str, str, dict | None], ...] = (
    ("matches, N at the cap", "GET", "/lessons/dice-monsters/experiment/matches?n=60&seed={i}", None),
    ("matches chart, N at the cap", "GET", "/lessons/dice-monsters/experiment/matches/chart.svg?n=60&seed={i}", None),
    ("9am ties, N at the cap", "GET", "/lessons/nine-am/experiment/ties?n=700&seed={i}", None),
    ("9am strategies, N at the cap", "GET", "/lessons/nine-am/experiment/strategies?n=1500&seed={i}", None),
    ("Gooball turns, N at the cap", "GET", "/lessons/gooball/experiment/turns?n=6000&seed={i}", None),
    ("monster designer, N at the cap", "GET", "/lessons/dice-monsters/designer?dice=20+20+4+4+2&n=60&seed={i}", None),
    ("Sūji targets, N at the cap", "GET", "/lessons/suji/experiment/targets?n=30000&seed={i}", None),
    ("Sūji advice, N at the cap", "GET", "/lessons/suji/experiment/advice?n=50&seed={i}", None),
    ("solve, 4 target dice", "POST", "/api/solve",
     {"target_dice": [6, 6, 8, 8], "number_dice": [6, 6, 8, 8, 1], "operator_dice": ["+", "÷", "÷", "√"]}),
    ("hint, 4 target dice", "POST", "/api/hint",
     {"target_dice": [6, 6, 8, 8], "number_dice": [6, 6, 8, 8, 1], "operator_dice": ["+", "÷", "÷", "√"]}),
)  # fmt: skip
ROUTE_CALLS = 3


@register("routes")
def bench_routes(rolls: int, seed: int) -> list[Timing]:
    """The heaviest accepted request of each computing route, through `suji serve`, beside POST /api/check.

    The server runs in its own process as in production (suji.dev.loadtest starts it), so the figures include
    waitress, the session and the CSRF check, like a browser's.
    """
    from urllib.parse import quote

    from suji.dev import loadtest

    port = loadtest.free_port()
    server = loadtest.start_server(port, 4)
    try:
        client = loadtest.Client(port)

        def request(method: str, path: str, body: dict | None, i: int) -> None:
            url = quote(path.format(i=f"{seed}{i}"), safe="/?=&+")
            data = json.dumps(body, ensure_ascii=False).encode("utf-8") if body is not None else None
            status = client.fetch(method, url, data)
            if status != 200:
                raise RuntimeError(f"{url}: {status}")

        check_body = {"formula": "21²+4+1", "target_dice": [4, 4, 6], "number_dice": [2, 1, 4, 1, 3],
                      "operator_dice": ["+", "+", "²", "−"]}  # fmt: skip
        request("POST", "/api/check", check_body, 0)  # warm up imports, the grammar and the catalogs
        rows = [time_calls("baseline: POST /api/check", lambda i: request("POST", "/api/check", check_body, i),
                           [(i,) for i in range(20)])]  # fmt: skip
        for name, method, path, body in WORST_REQUESTS:
            calls = [(i,) for i in range(ROUTE_CALLS)]
            rows.append(time_calls(name, lambda i, m=method, p=path, b=body: request(m, p, b, i), calls))
            rows[-1].key = "route"
        return rows
    finally:
        server.terminate()
        server.wait(timeout=10)


def goals(rows: Sequence[Timing]) -> list[str]:
    """One line per goal that these rows measure: the figure and whether it is met."""
    by_name = {row.name: row for row in rows}
    lines = []

    def line(text: str, ok: bool) -> None:
        lines.append(f"goal: {text} — {'met' if ok else 'NOT met'}")

    if "check" in by_name:
        line(f"check median ≤ {CHECK_GOAL_MS:g} ms", by_name["check"].median_ms <= CHECK_GOAL_MS)
    if "solve" in by_name:
        solve = by_name["solve"]
        line(f"solve median ≤ {SOLVE_GOAL_MEDIAN_MS:g} ms", solve.median_ms <= SOLVE_GOAL_MEDIAN_MS)
        line(f"solve p95 ≤ {SOLVE_GOAL_P95_MS:g} ms", solve.p95_ms <= SOLVE_GOAL_P95_MS)
        pair = [r for r in rows if r.name.startswith(("solve, first", "brute-force reference, first"))]
        if len(pair) == 2:
            speedup = pair[1].median_ms / pair[0].median_ms
            line(f"solve ≥ {SOLVE_GOAL_SPEEDUP:g}× faster than brute force (median {speedup:.0f}×)",
                 speedup >= SOLVE_GOAL_SPEEDUP)  # fmt: skip
    for row in rows:
        if row.key == "advise_live":
            line(f"{row.name} median ≤ {ADVISE_GOAL_MS / 1000:g} s", row.median_ms <= ADVISE_GOAL_MS)
        if row.key == "advise_table":
            line(f"advise by lookup median ≤ {ADVISE_TABLE_GOAL_MEDIAN_MS:g} ms",
                 row.median_ms <= ADVISE_TABLE_GOAL_MEDIAN_MS)  # fmt: skip
            line(
                f"advise by lookup p95 ≤ {ADVISE_TABLE_GOAL_P95_MS:g} ms",
                row.p95_ms <= ADVISE_TABLE_GOAL_P95_MS,
            )
        if row.key == "route":
            line(f"{row.name}: slowest ≤ {ROUTE_GOAL_MS:g} ms", max(row.seconds) * 1000 <= ROUTE_GOAL_MS)
        if row.key == "lookup":
            line(f"one lookup median ≤ {LOOKUP_GOAL_MS:g} ms", row.median_ms <= LOOKUP_GOAL_MS)
    lines.extend(bench_practice.goal_lines(list(rows)))
    lines.extend(bench_heavy.goal_lines(list(rows)))
    keyed = {row.key: row for row in rows if row.key}
    if "advise_table" in keyed and "advise_live" in keyed:
        ratio = keyed["advise_live"].median_ms / keyed["advise_table"].median_ms
        lines.append(f"advise by lookup is {ratio:.0f}× faster than live (medians, same rolls, same run)")
    return lines


# ---- the command -----------------------------------------------------------------------------------------


def report(rows: Sequence[Timing]) -> str:
    """The table `suji bench` prints."""
    width = max([len("benchmark"), *(len(r.name) for r in rows)])
    lines = [f"{'benchmark':<{width}}  {'count':>6}  {'median ms':>10}  {'p95 ms':>10}"]
    for r in rows:
        lines.append(f"{r.name:<{width}}  {r.count:>6}  {r.median_ms:>10.3f}  {r.p95_ms:>10.3f}")
    return "\n".join(lines)


def main(args: argparse.Namespace) -> int:
    """Run the benchmarks named by args.only (all when None) on args.rolls rolls from args.seed."""
    selected = [name for name in timing.BENCHMARKS if args.only is None or args.only in name]
    if not selected:
        print(
            f"suji bench: no benchmark matches {args.only!r} (have: {', '.join(timing.BENCHMARKS)})", file=sys.stderr
        )
        return 2
    if args.rolls < 1:
        print("suji bench: --rolls must be at least 1", file=sys.stderr)
        return 2
    rows: list[Timing] = []
    for name in selected:
        rows.extend(timing.BENCHMARKS[name](args.rolls, args.seed))
    if getattr(args, "json", False):
        data: dict[str, object] = {}
        if args.only is not None and "advise" in args.only:
            data["advise_table"] = None  # stays null when there is no table to time
        for row in rows:
            name = row.name if row.key in ("", "route") else row.key
            data[name] = {"median_ms": round(row.median_ms, 3), "p95_ms": round(row.p95_ms, 3)}
        print(json.dumps(data, ensure_ascii=False))
        return 0
    print(f"suji bench: {args.rolls} seeded rolls (seed {args.seed}); {native.summary()}")
    print(report(rows))
    for line in goals(rows):
        print(line)
    return 0


# Registered last: they register their benchmarks here ("heavy": issue 21, bounded requests; "practice": issue 22).
from suji.dev import bench_heavy, bench_practice  # noqa: E402

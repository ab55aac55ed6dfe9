"""`suji bench --only heavy`: the server CPU of the dearest requests a client can send, beside the old limits.

Each row is the CPU time (time.thread_time: the request's own thread, where all its work is done) of one request
through the app (Flask's test client: the settings read, the sheet made, drawn and sent), each with a new seed
so nothing comes from a cache:
- the largest worksheet the web allows (suji.web.worksheets.MAX_PROBLEMS in all, level 3, the working in the
  key), as a PDF, a print view and JSON, and a new class of 20 level-3 problems (the class limit);
- the baseline, in the same run: the largest sheet before the limit (40 problems × 6 versions, the same
  settings), made and drawn by the library as the PDF request made it (issue 21: 2.4 s).
The goal (issue 21): nothing a client sends costs more than 1 s of server CPU.
"""

from __future__ import annotations

import os
import tempfile
import time

from suji.dev.timing import Timing, register

HEAVY_GOAL_MS = 1000.0
CALLS = 3


def _cpu(name: str, key: str, calls: list) -> Timing:  # noqa: ANN001 - callables of no arguments
    row = Timing(name, key=key)
    for call in calls:
        start = time.thread_time()
        call()
        row.seconds.append(time.thread_time() - start)
    return row


@register("heavy")
def bench_heavy(rolls: int, seed: int) -> list[Timing]:
    """The rows above (`rolls` is not used: the requests are fixed; `seed` varies their seeds)."""
    from suji.web import create_app
    from suji.web.worksheets import MAX_PROBLEMS
    from suji.worksheets.pdf import worksheet_pdf
    from suji.worksheets.sheet import build_worksheet, parse_settings

    os.environ.setdefault("SUJI_ODDS_BUILD", "0")
    instance = tempfile.mkdtemp(prefix="suji-bench-heavy-")
    before = os.environ.get("SUJI_INSTANCE_PATH")
    os.environ["SUJI_INSTANCE_PATH"] = instance
    try:
        app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "bench"})
    finally:
        if before is None:
            os.environ.pop("SUJI_INSTANCE_PATH")
        else:
            os.environ["SUJI_INSTANCE_PATH"] = before
    client = app.test_client()
    versions = 2
    count = MAX_PROBLEMS // versions
    query = f"count={count}&versions={versions}&level=3&steps=yes"

    def get(path: str) -> None:
        response = client.get(path)
        if response.status_code != 200:
            raise RuntimeError(f"{path}: {response.status_code}")

    def new_class(i: int) -> None:
        response = client.post("/class/new", data={"count": "20", "level": "3", "seed": f"bench{seed}c{i}"})
        if response.status_code != 303:
            raise RuntimeError(f"/class/new: {response.status_code}")

    get(f"/worksheets/sheet.pdf?{query}&seed=warm{seed}")  # imports, fonts, the database
    new_class(-1)
    largest = f"{MAX_PROBLEMS} problems in all, level 3, with steps"
    rows = [
        _cpu(f"worksheet PDF, {largest}", "heavy_pdf",
             [lambda i=i: get(f"/worksheets/sheet.pdf?{query}&seed=b{seed}p{i}") for i in range(CALLS)]),
        _cpu(f"worksheet print view, {largest}", "heavy_print",
             [lambda i=i: get(f"/worksheets/print?{query}&seed=b{seed}h{i}") for i in range(CALLS)]),
        _cpu(f"worksheet JSON, {largest}", "heavy_json",
             [lambda i=i: get(f"/worksheets/sheet.json?{query}&seed=b{seed}j{i}") for i in range(CALLS)]),
        _cpu("new class, 20 level-3 problems", "heavy_class", [lambda i=i: new_class(i) for i in range(CALLS)]),
    ]  # fmt: skip

    def old_largest(i: int) -> None:
        settings, errors = parse_settings(
            {"count": "40", "versions": "6", "level": "3", "steps": "yes", "seed": f"b{seed}old{i}"}
        )
        assert not errors
        worksheet_pdf(build_worksheet(settings))

    rows.append(_cpu("baseline: PDF of 40 × 6 (the largest before), library", "heavy_baseline",
                     [lambda i=i: old_largest(i) for i in range(2)]))  # fmt: skip
    return rows


def goal_lines(rows: list[Timing]) -> list[str]:
    """The goal lines of these rows (suji.dev.bench.goals calls this)."""
    keyed = {row.key: row for row in rows if row.key.startswith("heavy")}
    lines = []
    for key, row in keyed.items():
        if key != "heavy_baseline":
            slowest = max(row.seconds) * 1000
            lines.append(
                f"goal: {row.name}: the dearest call ≤ {HEAVY_GOAL_MS:g} ms of CPU ({slowest:.0f} ms) — "
                f"{'met' if slowest <= HEAVY_GOAL_MS else 'NOT met'}"
            )
    if "heavy_pdf" in keyed and "heavy_baseline" in keyed:
        ratio = keyed["heavy_baseline"].median_ms / keyed["heavy_pdf"].median_ms
        lines.append(f"the largest PDF the web makes costs 1/{ratio:.1f} of the largest before (medians, same run)")
    return lines

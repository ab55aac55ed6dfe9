"""`suji bench --only practice`: choosing the next practice item, beside what a drill's new roll costs.

Three rows on the same machine in the same run:
- "practice: choose + certify": the library's choice (suji.learner.selection.choose, every bank item's
  predicted chance for the pupil, recency, review) and the witness check the server makes before serving;
- "practice: GET /api/practice/next": the whole request in the app (the signed cookie, the profile and its
  last answers read from SQLite, the item statistics, the choice, the JSON), for a pupil with a history, each
  call a fresh choice (an answer, not timed, comes between two);
- the baseline, "drill: a new certified roll": what the drill does for "New roll" (suji.solver.problems
  .certified_roll, solving rolls until one can be made at the level).
The chooser reads no odds table: the solving was done when the item bank was built, so the work on the request
thread is bounded by the bank's size whether a table is there or not.
"""

from __future__ import annotations

import random
import tempfile
import time
from datetime import date

from suji.dev.timing import Timing, register, time_calls

CHOOSE_GOAL_MEDIAN_MS = 20.0  # issue 22
CHOOSE_GOAL_P95_MS = 50.0
HISTORY = 200  # answers the timed pupil has before the timing starts


def _learner_after(answers: int, seed: int):  # noqa: ANN202 - a Learner and its recent item keys
    """A learner model after `answers` answers of a middling synthetic pupil, and the keys it answered."""
    from datetime import datetime, timedelta

    from suji.learner.bank import load
    from suji.learner.mastery import reference
    from suji.learner.model import ItemRating, Learner, update
    from suji.learner.selection import ItemStats, after_answer, choose

    bank, rng = load(), random.Random(f"bench-practice:{seed}")
    refs, learner, stats, recent = reference(bank), Learner(), ItemStats.empty(bank), []
    now = datetime(2026, 1, 5, 16)
    for n in range(answers):
        choice = choose(bank, learner, stats, recent, rng, now.date(), refs)
        made = rng.random() < 0.75
        step = update(learner, choice.item, ItemRating(), 1.0 if made else 0.0, now)
        learner = after_answer(step.learner, choice.item, made, choice.mode, choice.family, now.date(), refs)
        recent.insert(0, choice.item.key)
        now += timedelta(minutes=1 + n % 3)
    return learner, recent


@register("practice")
def bench_practice(rolls: int, seed: int) -> list[Timing]:
    """The next practice item, chosen by the library and through the app, against a drill's new roll."""
    from suji.learner.bank import load
    from suji.learner.items import certify
    from suji.learner.mastery import reference
    from suji.learner.selection import ItemStats, choose
    from suji.solver.problems import certified_roll

    bank = load()
    refs = reference(bank)
    learner, recent = _learner_after(HISTORY, seed)
    rng = random.Random(f"bench-practice-choose:{seed}")
    stats = ItemStats(rng_corrections(len(bank), rng), rng_plays(len(bank), rng))  # every item played

    def choose_and_certify(i: int) -> object:
        choice = choose(bank, learner, stats, recent, rng, date(2026, 2, 1), refs)
        return certify(choice.item, every_route=False)

    choose_and_certify(0)
    rows = [
        time_calls("practice: choose + certify (library)", choose_and_certify, [(i,) for i in range(rolls)])
    ]
    rows[-1].key = "practice_choose"
    rows.append(_through_the_app(min(rolls, 100), seed))
    rows.append(
        time_calls(
            "baseline: drill, a new certified roll (levels 1, 2, 3 in turn)",
            lambda i: certified_roll(1 + i % 3, f"bench-drill:{seed}:{i}"),
            [(i,) for i in range(min(rolls, 60))],
        )
    )
    rows[-1].key = "practice_baseline"
    return rows


def rng_corrections(n: int, rng: random.Random):  # noqa: ANN201 - an array
    import numpy as np

    return np.array([rng.gauss(0, 0.3) for _ in range(n)])


def rng_plays(n: int, rng: random.Random):  # noqa: ANN201 - an array
    import numpy as np

    return np.array([rng.randrange(0, 40) for _ in range(n)], dtype=np.int64)


def _through_the_app(calls: int, seed: int) -> Timing:
    """GET /api/practice/next in the app (Flask's test client, SQLite in a temporary instance folder)."""
    import os

    from suji.web import create_app

    with tempfile.TemporaryDirectory(prefix="suji-bench-") as instance:
        saved = os.environ.get("SUJI_INSTANCE_PATH")
        os.environ["SUJI_INSTANCE_PATH"] = instance
        try:
            app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "bench"})
            client = app.test_client()
            rng = random.Random(f"bench-practice-app:{seed}")

            def answer() -> None:
                problem = client.get("/api/practice/next").get_json()["problem"]
                client.post("/api/practice/answer", json={"id": problem["id"], "give_up": rng.random() < 0.3,
                                                          "formula": "1", "seconds": 30})  # fmt: skip

            for _ in range(HISTORY // 4):  # a pupil with a history (and item statistics in the database)
                answer()

            timing = Timing("practice: GET /api/practice/next (the app, SQLite)")
            for _ in range(calls):
                start = time.perf_counter_ns()
                client.get("/api/practice/next")  # a fresh choice: the last problem was answered
                timing.seconds.append((time.perf_counter_ns() - start) / 1e9)
                problem = client.get("/api/practice/next").get_json()["problem"]  # the same one, untimed
                client.post("/api/practice/answer", json={"id": problem["id"], "give_up": True})
            timing.key = "practice_next"
            with app.app_context():
                from suji.web.extensions import db

                db.session.remove()
                db.engine.dispose()
            return timing
        finally:
            if saved is None:
                os.environ.pop("SUJI_INSTANCE_PATH", None)
            else:
                os.environ["SUJI_INSTANCE_PATH"] = saved


def goal_lines(rows: list[Timing]) -> list[str]:
    """The goal lines of these rows (suji.dev.bench.goals calls this)."""
    keyed = {row.key: row for row in rows if row.key.startswith("practice")}
    lines = []
    for key in ("practice_choose", "practice_next"):
        if key in keyed:
            row = keyed[key]
            ok = row.median_ms <= CHOOSE_GOAL_MEDIAN_MS and row.p95_ms <= CHOOSE_GOAL_P95_MS
            lines.append(
                f"goal: {row.name} median ≤ {CHOOSE_GOAL_MEDIAN_MS:g} ms and p95 ≤ {CHOOSE_GOAL_P95_MS:g} ms — "
                f"{'met' if ok else 'NOT met'}"
            )
    if "practice_next" in keyed and "practice_baseline" in keyed:
        ratio = keyed["practice_baseline"].median_ms / keyed["practice_next"].median_ms
        lines.append(f"the next practice item takes 1/{ratio:.1f} of a drill's new roll (medians, same run)")
    return lines

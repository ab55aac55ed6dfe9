"""Load test of class mode: a teacher and N pupils on a real `suji serve` on 127.0.0.1, all at once.

    python -m suji.dev.classload [--students 40] [--problems 10] [--threads 8] [--database-url URL] [--json]
    suji classload [same options]

The server runs in its own process with a fresh instance folder (SQLite there, or the database of
--database-url, e.g. PostgreSQL). The teacher makes a session and starts it; then every pupil, one thread each
with its own keep-alive connection, cookies and CSRF token like a browser, joins and answers every problem with no
think time: every third pupil first sends a formula that misses, then the best formula; each answer's redirect
is followed as a browser would, then "next problem". Meanwhile the teacher's dashboard polls the results JSON at
its real interval (1.5 s).

Printed: answer requests (the POST only) p50/p95/max in ms, joins p95, the time from the last answer's
response until a dashboard poll showed every answer, and how many attempts were lost or doubled compared with
what the pupils sent (both must be 0). Exits 1 on any failed request, loss or doubling.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from urllib.parse import urlencode

from suji.dev.loadtest import HOST, free_port, percentile, start_server

_TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')
_CODE = re.compile(r'id="join-code"[^>]*>(\w+)<')
POLL_SECONDS = 1.5  # the dashboard's interval (suji.web.classroom.POLL_MS)


class Browser:
    """One browser: a keep-alive connection, its cookies, the last CSRF token it saw."""

    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection(HOST, port, timeout=60)
        self.cookies: dict[str, str] = {"suji_lang": "ja"}
        self.token = ""

    def request(self, method: str, path: str, form: dict | None = None) -> tuple[int, str, str]:
        """(status, Location, body) of one request; cookies are kept, a CSRF token on the page remembered."""
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if form is not None:
            body = urlencode({**form, "csrf_token": self.token})
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        text = response.read().decode("utf-8")
        for cookie in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = cookie.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        if match := _TOKEN.search(text):
            self.token = match.group(1)
        location = response.getheader("Location", "") or ""
        return response.status, location.replace(f"http://{HOST}", "").split("://", 1)[-1], text

    def follow(self, method: str, path: str, form: dict | None = None) -> tuple[int, str]:
        """A request and, after a 303, the page it leads to (as a browser would load it)."""
        status, location, text = self.request(method, path, form)
        if status == 303 and location:
            path = location if location.startswith("/") else "/" + location.split("/", 1)[-1]
            status, _, text = self.request("GET", path)
        return status, text


def run_load(port: int, students: int, count: int) -> dict:
    """Drive one class on the server at `port`; the figures."""
    from suji.play import classroom as core

    seed = "classload"
    settings = core.ClassSettings(count=count, level=1, seed=seed)
    problems = core.choose_problems(settings)  # the server chooses the very same problems from the seed

    teacher = Browser(port)
    teacher.request("GET", "/class/new")
    status, location, _ = teacher.request("POST", "/class/new", {"count": count, "level": 1, "seed": seed,
                                                                 "hints": "yes", "hint_cost": "yes"})  # fmt: skip
    if status != 303:
        raise RuntimeError(f"making the class failed: {status}")
    session_id = int(location.rstrip("/").rsplit("/", 1)[1])
    _, _, page = teacher.request("GET", f"/class/{session_id}")
    code = _CODE.search(page).group(1)  # type: ignore[union-attr]
    teacher.request("POST", f"/class/{session_id}/start", {})

    lock = threading.Lock()
    answer_ms: list[float] = []
    join_ms: list[float] = []
    errors: list[str] = []
    sent = {"attempts": 0}
    last_answer = [0.0]
    go = threading.Barrier(students)

    def pupil(number: int) -> None:
        browser = Browser(port)
        mine: list[float] = []
        try:
            browser.request("GET", f"/join/{code}")
            go.wait()
            t0 = time.perf_counter()
            status, _, _ = browser.request("POST", "/join", {"code": code, "nickname": f"生徒{number + 1}"})
            with lock:
                join_ms.append((time.perf_counter() - t0) * 1000)
            if status != 303:
                raise RuntimeError(f"join: {status}")
            attempts = 0
            for index, problem in enumerate(problems):
                tries = [str(problem.roll.number_dice[0])] if number % 3 == 0 else []  # a value, no target
                for attempt, formula in enumerate([*tries, problem.best_formula]):
                    t0 = time.perf_counter()
                    status, location, _ = browser.request(
                        "POST",
                        f"/class/s/{code}/answer",
                        {"problem": index, "attempt": attempt, "formula": formula},
                    )
                    done = time.perf_counter()
                    mine.append((done - t0) * 1000)
                    if status != 303 or "join" in location:
                        raise RuntimeError(f"answer: {status} {location}")
                    attempts += 1
                    with lock:
                        last_answer[0] = max(last_answer[0], done)
                    browser.request("GET", location or f"/class/s/{code}")
                status, _ = browser.follow("POST", f"/class/s/{code}/next", {"problem": index})
                if status != 200:
                    raise RuntimeError(f"next: {status}")
            with lock:
                sent["attempts"] += attempts
        except Exception as error:  # noqa: BLE001 - every failure is counted and reported
            with lock:
                errors.append(f"pupil {number}: {error!r}")
            try:
                go.abort()
            except threading.BrokenBarrierError:
                pass
        finally:
            with lock:
                answer_ms.extend(mine)

    expected = students * count + sum(count for n in range(students) if n % 3 == 0)
    polls: list[tuple[float, int, float]] = []  # (when, attempts seen, poll ms)
    stop = threading.Event()

    def dashboard() -> None:
        board = Browser(port)
        board.cookies.update(teacher.cookies)
        while not stop.is_set():
            t0 = time.perf_counter()
            status, _, text = board.request("GET", f"/api/class/{session_id}/results")
            t1 = time.perf_counter()
            if status == 200:
                polls.append((t1, json.loads(text)["attempts"], (t1 - t0) * 1000))
                if polls[-1][1] >= expected:
                    return
            stop.wait(POLL_SECONDS)

    watcher = threading.Thread(target=dashboard)
    threads = [threading.Thread(target=pupil, args=(n,)) for n in range(students)]
    start = time.perf_counter()
    watcher.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - start
    watcher.join(timeout=30)
    stop.set()
    seen_all = next((when for when, seen, _ in polls if seen >= expected), None)

    # What the dashboard holds now, pupil by pupil, against what each pupil sent.
    _, _, text = teacher.request("GET", f"/api/class/{session_id}/results")
    final = json.loads(text)
    lost = doubled = 0
    for row in final["rows"]:
        number = int(row["name"].removeprefix("生徒")) - 1
        for cell in row["cells"]:
            want = 2 if number % 3 == 0 else 1
            got = cell["attempts"] if cell else 0
            lost += max(0, want - got)
            doubled += max(0, got - want)
    lost += (students - len(final["rows"])) * count
    answer_ms.sort()
    join_ms.sort()
    poll_ms = sorted(p[2] for p in polls)
    return {
        "students": students, "problems": count, "answers_sent": sent["attempts"], "answers_expected": expected,
        "answers_on_dashboard": final["attempts"], "lost": lost, "doubled": doubled, "errors": len(errors),
        "error_samples": errors[:3], "seconds": round(elapsed, 2),
        "answer_p50_ms": round(percentile(answer_ms, 50), 1), "answer_p95_ms": round(percentile(answer_ms, 95), 1),
        "answer_max_ms": round(answer_ms[-1], 1) if answer_ms else None,
        "join_p95_ms": round(percentile(join_ms, 95), 1),
        "dashboard_poll_p95_ms": round(percentile(poll_ms, 95), 1) if poll_ms else None,
        "dashboard_all_shown_after_s": round(max(0.0, seen_all - last_answer[0]), 2) if seen_all else None,
    }  # fmt: skip


def build_parser(add_help: bool = True) -> argparse.ArgumentParser:
    """The options (also `suji classload`'s, which takes this parser as its parent)."""
    parser = argparse.ArgumentParser(
        prog="suji classload", description=__doc__.split("\n\n")[0], add_help=add_help
    )
    parser.add_argument("--students", type=int, default=40, help="pupils answering at once (default 40)")
    parser.add_argument("--problems", type=int, default=10, help="problems each (1-20, default 10)")
    parser.add_argument("--threads", type=int, default=8, help="waitress worker threads (default 8)")
    parser.add_argument(
        "--database-url", default=None, help="SUJI_DATABASE_URL for the server (default SQLite)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.students <= 500 or not 1 <= args.problems <= 20 or not 1 <= args.threads <= 64:
        print("suji classload: --students 1-500, --problems 1-20, --threads 1-64", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="suji-classload-") as instance:
        os.environ["SUJI_INSTANCE_PATH"] = instance  # the server's own database, thrown away afterwards
        if args.database_url:
            os.environ["SUJI_DATABASE_URL"] = args.database_url
        port = free_port()
        server = start_server(port, args.threads)
        try:
            figures = run_load(port, args.students, args.problems)
        finally:
            server.terminate()
            server.wait(timeout=10)
    failed = figures["errors"] or figures["lost"] or figures["doubled"]
    if args.json:
        print(json.dumps(figures, ensure_ascii=False))
        return 1 if failed else 0
    print(f"{figures['students']} pupils × {figures['problems']} problems on suji serve ({args.threads} threads, "
          f"{'SQLite' if not args.database_url else 'SUJI_DATABASE_URL'}): {figures['answers_sent']} answers in "
          f"{figures['seconds']} s, {figures['errors']} errors")  # fmt: skip
    print(f"answer requests: p50 {figures['answer_p50_ms']} ms, p95 {figures['answer_p95_ms']} ms, "
          f"slowest {figures['answer_max_ms']} ms; joins p95 {figures['join_p95_ms']} ms")  # fmt: skip
    print(f"dashboard: every answer shown {figures['dashboard_all_shown_after_s']} s after the last one "
          f"(polling every {POLL_SECONDS} s; a poll p95 {figures['dashboard_poll_p95_ms']} ms)")  # fmt: skip
    print(f"lost {figures['lost']}, doubled {figures['doubled']} "
          f"(dashboard {figures['answers_on_dashboard']} of {figures['answers_expected']} expected)")  # fmt: skip
    for sample in figures["error_samples"]:
        print(f"  {sample}", file=sys.stderr)
    return 1 if failed else 0


def main(argv: Sequence[str] | None = None) -> int:
    return run(build_parser().parse_args(sys.argv[1:] if argv is None else argv))


if __name__ == "__main__":
    sys.exit(main())

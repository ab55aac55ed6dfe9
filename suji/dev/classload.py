"""Load test of class mode: teachers and their classes of pupils on real `suji serve` processes, all at once.

    python -m suji.dev.classload [--classes 1] [--students 40] [--problems 10] [--processes 1] [--threads 8]
                                 [--proxy auto|nginx|python] [--database-url URL | --fresh-postgres URL]
                                 [--homework] [--json]
    suji classload [same options]

The servers run as processes of their own, each with its own instance folder, on one database (a fresh SQLite
file, the database of --database-url, or a new database that --fresh-postgres makes on a PostgreSQL server and
drops afterwards) and one secret key. With --processes P > 1 they stand
behind one address: Debian's nginx with the repository's deploy/nginx/suji-proxy.conf, or a small round-robin
proxy (suji.dev.proxies), so consecutive requests land on different processes, as behind a real load balancer.
Each of the K teachers makes a session and starts it; then every pupil of every class, one thread each with its
own keep-alive connection, cookies and CSRF token like a browser, joins and answers every problem with no think
time: every third pupil first sends a formula that misses, then the best formula; each answer's redirect is
followed as a browser would, then "next problem". Meanwhile every teacher's dashboard polls the results JSON at
its real interval (1.5 s).

Printed: answer requests (the POST only) p50/p95/p99/max in ms, joins p95 and p99, the time from the last
answer's response until the dashboards showed every answer, and how many attempts were lost or doubled
compared with what the pupils sent, on the dashboards and counted in the database itself (all must be 0).
Exits 1 on any failed request, loss or doubling. With --homework the same servers take homework instead of a
live lesson: suji.dev.homeload (teachers sign up and set it, every pupil signs in with their card and does it).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import secrets
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence

from suji.dev.browsing import Browser, record_failure  # noqa: F401 - Browser is also read from here (tests)
from suji.dev.loadtest import HOST, free_port, percentile

_CODE = re.compile(r'id="join-code"[^>]*>(\w+)<')
POLL_SECONDS = 1.5  # the dashboard's interval (suji.web.classroom.POLL_MS)


class Teacher:
    """One class: its teacher's browser, the session's public id, the join code and the problems."""

    def __init__(self, port: int, count: int, number: int) -> None:
        from suji.play import classroom as core

        seed = f"classload-{number}"
        settings = core.ClassSettings(count=count, level=1, seed=seed)
        self.problems = core.choose_problems(settings)  # the server chooses the very same problems from the seed
        self.browser = Browser(port)
        self.browser.request("GET", "/class/new")
        status, location, _ = self.browser.request("POST", "/class/new", {
            "count": count, "level": 1, "seed": seed, "hints": "yes", "hint_cost": "yes"})  # fmt: skip
        if status != 303:
            raise RuntimeError(f"making class {number} failed: {status}")
        self.session_id = location.rstrip("/").rsplit("/", 1)[1]
        _, _, page = self.browser.request("GET", f"/class/{self.session_id}")
        self.code = _CODE.search(page).group(1)  # type: ignore[union-attr]
        status, _, _ = self.browser.request("POST", f"/class/{self.session_id}/start", {})
        if status != 303:
            raise RuntimeError(f"starting class {number} failed: {status}")


def attempts_in_database(database_url: str, session_ids: Sequence[str]) -> dict[str, int]:
    """Every attempt stored, by the session's public id, counted in the database itself."""
    from sqlalchemy import create_engine, text

    if database_url.startswith(("postgresql://", "postgres://")):
        database_url = "postgresql+psycopg://" + database_url.split("://", 1)[1]
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(text(
                "SELECT s.public_id, count(a.id) FROM class_sessions s "
                "LEFT JOIN class_attempts a ON a.session_id = s.id GROUP BY s.public_id"
            )).all()  # fmt: skip
    finally:
        engine.dispose()
    found = {str(public): int(n) for public, n in rows}
    return {session_id: found.get(session_id, 0) for session_id in session_ids}


def run_load(port: int, students: int, count: int, classes: int = 1, database_url: str | None = None) -> dict:
    """Drive `classes` classes of `students` pupils on the server (or proxy) at `port`; the figures."""
    teachers = [Teacher(port, count, k) for k in range(classes)]

    lock = threading.Lock()
    answer_ms: list[float] = []
    join_ms: list[float] = []
    errors: list[str] = []
    sent = {"attempts": 0}
    last_answer = [0.0]
    go = threading.Barrier(students * classes)

    def pupil(teacher: Teacher, number: int) -> None:
        code, problems = teacher.code, teacher.problems
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
            record_failure(lock, errors, f"class {teacher.code} pupil {number}: {error!r}", go)
        finally:
            with lock:
                answer_ms.extend(mine)

    expected = students * count + sum(count for n in range(students) if n % 3 == 0)  # a class's attempts
    polls: list[tuple[float, int, float]] = []  # (when, the attempts one dashboard saw, poll ms)
    shown_all: dict[str, float] = {}
    stop = threading.Event()

    def dashboard(teacher: Teacher) -> None:
        board = Browser(port)
        board.cookies.update(teacher.browser.cookies)
        while not stop.is_set():
            t0 = time.perf_counter()
            status, _, text = board.request("GET", f"/api/class/{teacher.session_id}/results")
            t1 = time.perf_counter()
            if status == 200:
                seen = json.loads(text)["attempts"]
                with lock:
                    polls.append((t1, seen, (t1 - t0) * 1000))
                if seen >= expected:
                    with lock:
                        shown_all[teacher.session_id] = t1
                    return
            stop.wait(POLL_SECONDS)

    watchers = [threading.Thread(target=dashboard, args=(t,)) for t in teachers]
    threads = [threading.Thread(target=pupil, args=(t, n)) for t in teachers for n in range(students)]
    start = time.perf_counter()
    for t in watchers + threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - start
    for t in watchers:
        t.join(timeout=30)
    stop.set()
    seen_all = max(shown_all.values()) if len(shown_all) == len(teachers) else None

    # What each dashboard holds now, pupil by pupil, against what each pupil sent.
    lost = doubled = on_dashboards = 0
    for teacher in teachers:
        _, _, text = teacher.browser.request("GET", f"/api/class/{teacher.session_id}/results")
        final = json.loads(text)
        on_dashboards += final["attempts"]
        present = set()
        for row in final["rows"]:
            number = int(row["name"].removeprefix("生徒")) - 1
            present.add(number)
            for cell in row["cells"]:
                want = 2 if number % 3 == 0 else 1
                got = cell["attempts"] if cell else 0
                lost += max(0, want - got)
                doubled += max(0, got - want)
        lost += sum((2 if n % 3 == 0 else 1) * count for n in range(students) if n not in present)
    in_database = attempts_in_database(database_url, [t.session_id for t in teachers]) if database_url else {}
    answer_ms.sort()
    join_ms.sort()
    poll_ms = sorted(p[2] for p in polls)
    return {
        "classes": classes, "students": students, "problems": count, "answers_sent": sent["attempts"],
        "answers_expected": expected * classes, "answers_on_dashboard": on_dashboards, "lost": lost,
        "doubled": doubled, "answers_in_database": sum(in_database.values()) if in_database else None,
        "lost_in_database": sum(max(0, expected - n) for n in in_database.values()) if in_database else None,
        "doubled_in_database": sum(max(0, n - expected) for n in in_database.values()) if in_database else None,
        "errors": len(errors), "error_samples": errors[:3], "seconds": round(elapsed, 2),
        "answer_p50_ms": round(percentile(answer_ms, 50), 1), "answer_p95_ms": round(percentile(answer_ms, 95), 1),
        "answer_p99_ms": round(percentile(answer_ms, 99), 1),
        "answer_max_ms": round(answer_ms[-1], 1) if answer_ms else None,
        "join_p95_ms": round(percentile(join_ms, 95), 1), "join_p99_ms": round(percentile(join_ms, 99), 1),
        "dashboard_poll_p95_ms": round(percentile(poll_ms, 95), 1) if poll_ms else None,
        "dashboard_all_shown_after_s": round(max(0.0, seen_all - last_answer[0]), 2) if seen_all else None,
    }  # fmt: skip


def start_servers(processes: int, threads: int, database_url: str, folder: str,
                  proxied: bool) -> list[tuple[subprocess.Popen, int]]:  # fmt: skip
    """`processes` × `suji serve` on one database and one secret key, each with an instance folder of its own."""
    from suji.dev.proxies import wait_for_port

    secret = secrets.token_hex(32)
    servers = []
    try:
        for n in range(processes):
            port = free_port()
            instance = os.path.join(folder, f"instance-{n}")
            env = dict(os.environ, SUJI_SECRET_KEY=secret, SUJI_ODDS_BUILD="0", SUJI_INSTANCE_PATH=instance,
                       SUJI_DATABASE_URL=database_url, SUJI_TRUSTED_PROXIES="1" if proxied else "0")  # fmt: skip
            command = [sys.executable, "-m", "suji.cli", "serve", "--host", HOST, "--port", str(port),
                       "--threads", str(threads)]  # fmt: skip
            process = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            servers.append((process, port))
            wait_for_port(port, process)
    except Exception:
        stop_servers(servers)
        raise
    return servers


def stop_servers(servers: list[tuple[subprocess.Popen, int]]) -> None:
    for process, _ in servers:
        process.terminate()
    for process, _ in servers:
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextlib.contextmanager
def fresh_database(server_url: str | None) -> Iterator[str | None]:
    """A new, empty database on the PostgreSQL server at `server_url` for the block (dropped after), or None."""
    if not server_url:
        yield None
        return
    import psycopg
    from sqlalchemy.engine import make_url

    url = make_url(server_url)
    name = f"suji_classload_{secrets.token_hex(4)}"
    with psycopg.connect(url.set(drivername="postgresql").render_as_string(hide_password=False),
                         autocommit=True) as server:  # fmt: skip
        server.execute(f'CREATE DATABASE "{name}"')
        try:
            yield url.set(database=name).render_as_string(hide_password=False)
        finally:
            server.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


def build_parser(add_help: bool = True) -> argparse.ArgumentParser:
    """The options (also `suji classload`'s, which takes this parser as its parent)."""
    parser = argparse.ArgumentParser(
        prog="suji classload", description=__doc__.split("\n\n")[0], add_help=add_help
    )
    parser.add_argument("--classes", type=int, default=1, help="classes at once, each with its teacher (default 1)")
    parser.add_argument("--students", type=int, default=40, help="pupils a class (default 40)")
    parser.add_argument("--problems", type=int, default=10, help="problems each (1-20, default 10)")
    parser.add_argument("--processes", type=int, default=1,
                        help="suji serve processes on the one database, behind one proxy when more than 1")  # fmt: skip
    parser.add_argument("--threads", type=int, default=8, help="waitress worker threads a process (default 8)")
    parser.add_argument("--proxy", choices=("auto", "nginx", "python"), default="auto",
                        help="in front of several processes: nginx (auto: when installed) or a small Python one")  # fmt: skip
    parser.add_argument(
        "--database-url", default=None, help="SUJI_DATABASE_URL for the servers (default a fresh SQLite file)"
    )
    parser.add_argument("--fresh-postgres", default=None, metavar="SERVER_URL",
                        help="make a new database on this PostgreSQL server for the run, and drop it afterwards")  # fmt: skip
    parser.add_argument("--homework", action="store_true",
                        help="homework instead of a live lesson: each teacher signs up, makes a class, prints its cards "
                             "and sets a problem set; every pupil signs in and does it at once (suji.dev.homeload)")  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def run(args: argparse.Namespace) -> int:
    if (not 1 <= args.students <= 500 or not 1 <= args.problems <= 20 or not 1 <= args.threads <= 64
            or not 1 <= args.classes <= 50 or not 1 <= args.processes <= 16 or args.classes * args.students > 2000):
        print("suji classload: --classes 1-50, --students 1-500 (at most 2000 pupils in all), --problems 1-20, "
              "--processes 1-16, --threads 1-64", file=sys.stderr)  # fmt: skip
        return 2
    if args.homework and args.students > 60:
        print("suji classload: --homework takes at most 60 pupils a class (a roster's limit)", file=sys.stderr)
        return 2
    from suji.dev.proxies import start_proxy

    proxy = None
    with tempfile.TemporaryDirectory(prefix="suji-classload-") as folder, fresh_database(args.fresh_postgres) as fresh:
        database_url = fresh or args.database_url or f"sqlite:///{os.path.join(folder, 'suji.sqlite3')}"
        proxied = args.processes > 1
        servers = start_servers(args.processes, args.threads, database_url, folder, proxied)
        try:
            port = servers[0][1]
            if proxied:
                port = free_port()
                proxy = start_proxy(port, [p for _, p in servers], args.proxy)
            if args.homework:
                from suji.dev import homeload

                figures = homeload.run_load(port, args.students, args.problems, args.classes, database_url)
            else:
                figures = run_load(port, args.students, args.problems, args.classes, database_url)
        finally:
            if proxy is not None:
                proxy.stop()
            stop_servers(servers)
    figures["processes"] = args.processes
    figures["threads"] = args.threads
    figures["proxy"] = type(proxy).__name__.lower() if proxy is not None else None
    figures["database"] = "postgresql" if database_url.startswith("postgres") else "sqlite"
    where = f"{args.processes} × suji serve ({args.threads} threads each"
    where += f", behind {figures['proxy']})" if proxied else ")"
    if args.homework:
        return homeload.print_figures(figures, where, args.json)
    failed = (figures["errors"] or figures["lost"] or figures["doubled"] or figures["lost_in_database"]
              or figures["doubled_in_database"])  # fmt: skip
    if args.json:
        print(json.dumps(figures, ensure_ascii=False))
        return 1 if failed else 0
    print(f"{args.classes} classes × {figures['students']} pupils × {figures['problems']} problems on {where}, "
          f"{figures['database']}: {figures['answers_sent']} answers in {figures['seconds']} s, "
          f"{figures['errors']} errors")  # fmt: skip
    print(f"answer requests: p50 {figures['answer_p50_ms']} ms, p95 {figures['answer_p95_ms']} ms, "
          f"p99 {figures['answer_p99_ms']} ms, slowest {figures['answer_max_ms']} ms; "
          f"joins p95 {figures['join_p95_ms']} ms, p99 {figures['join_p99_ms']} ms")  # fmt: skip
    print(f"dashboards: every answer shown {figures['dashboard_all_shown_after_s']} s after the last one "
          f"(polling every {POLL_SECONDS} s; a poll p95 {figures['dashboard_poll_p95_ms']} ms)")  # fmt: skip
    print(f"lost {figures['lost']}, doubled {figures['doubled']} "
          f"(dashboards {figures['answers_on_dashboard']} of {figures['answers_expected']} expected); "
          f"in the database {figures['answers_in_database']}: lost {figures['lost_in_database']}, "
          f"doubled {figures['doubled_in_database']}")  # fmt: skip
    for sample in figures["error_samples"]:
        print(f"  {sample}", file=sys.stderr)
    return 1 if failed else 0


def main(argv: Sequence[str] | None = None) -> int:
    return run(build_parser().parse_args(sys.argv[1:] if argv is None else argv))


if __name__ == "__main__":
    sys.exit(main())

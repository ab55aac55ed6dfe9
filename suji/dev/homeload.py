"""Load test of homework: K teachers' classes of N pupils all doing a fixed problem set at once (`--homework`).

    suji classload --homework [--classes 30] [--students 30] [--problems 5] [--processes 2]
                              [--fresh-postgres URL] [--json]        (the servers: suji.dev.classload's)

How data flows, every step through the real pages (suji.dev.browsing.Browser: keep-alive, cookies, CSRF):

    set-up, before the clock (each class from a school address of its own, 127.0.0.(k+2), as K schools would
    be; four classes at a time): the teacher signs up ─▶ makes a class ─▶ pastes the roster of N pupils ─▶
    prints the sign-in cards (the PDF, read with pypdf: a code exists only on its card, the database keeps
    its hash) ─▶ sets the homework (a fixed set: --problems problems of level 1, a seed of its own) ─▶ its id
    from the class page; the same form read by suji.play.school.homework gives the very problems the server
    chose, so each pupil knows a best formula.
    timed: every pupil one thread with its own connection; all wait at one barrier, then sign in at /signin
    with their card's code, open /my/homework/<id> and answer every problem with no think time (every third
    pupil first sends a formula that misses, then the best one), following each redirect and the "Next
    problem" link as a browser does. Each answer the server took (a 303 back to the homework) is counted.
    afterwards: the database itself (homework_in_database): each pupil's attempts against those they sent
    (lost, doubled), problems done and work finished; and each teacher's report of the homework (200, every
    pupil finished).

Printed: answer requests (the POST only) p50/p95/p99/max, sign-ins p95/p99, the counts; exit 1 on any failed
request, answer lost or doubled, or a pupil not finished.
"""

from __future__ import annotations

import io
import json
import re
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

from suji.dev.browsing import Browser, record_failure
from suji.dev.loadtest import percentile

PASSWORD = "homework load test"
_CARD = re.compile(r"(?:No\. \d+|\d+番)(.*?)(?:Sign-in code|ログインコード)([A-Z0-9]{4}-[A-Z0-9]{4})")
_FINISHED = re.compile(r"(\d+) of (\d+) finished")
SETUP_THREADS = 4  # classes set up at once (each teacher's steps in order)


def school_address(number: int) -> str:
    """The loopback address class `number` comes from: K schools, not one (sign-ups are limited per address)."""
    return f"127.0.0.{number + 2}"


def pupil_name(number: int) -> str:
    return f"Pupil{number + 1:02d}"


def card_codes(pdf: bytes) -> dict[str, str]:
    """The sign-in codes a PDF of class cards prints (English), by the pupil's name as printed."""
    import pypdf  # the `test` extra, as for the tests that read the cards

    text = "".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(pdf)).pages).replace("\n", "")
    return {"".join(name.split()): code for name, code in _CARD.findall(text)}


class Homeroom:
    """One class made through the pages: its teacher's browser, the class, the cards' codes, the homework."""

    def __init__(self, port: int, number: int, students: int, count: int) -> None:
        from suji.play.school import homework as rules

        self.number, self.address = number, school_address(number)
        self.browser = browser = Browser(port, self.address)
        browser.cookies["suji_lang"] = "en"  # the report's words are read below
        browser.request("GET", "/teacher/signup")
        password = {"password": PASSWORD, "password_again": PASSWORD}
        self._step("sign-up", browser.request("POST", "/teacher/signup",
                                              {"email": f"teacher{number}@school{number}.example", **password}))  # fmt: skip
        browser.request("GET", "/teacher/classes/new")
        _, location, _ = self._step("class", browser.request("POST", "/teacher/classes/new", {"name": f"{number + 1}組"}))
        self.class_id = location.split("#")[0].rstrip("/").rsplit("/", 1)[1]
        page = f"/teacher/classes/{self.class_id}"
        browser.request("GET", page)
        roster = "\n".join(f"{n + 1} {pupil_name(n)}" for n in range(students))
        self._step("roster", browser.request("POST", f"{page}/pupils", {"roster": roster}))
        browser.request("GET", page)
        status, _, _ = browser.request("POST", f"{page}/cards.pdf", {"which": "new"})
        self.codes = card_codes(browser.last_body) if status == 200 else {}
        if len(self.codes) != students:
            raise RuntimeError(f"class {number}: cards {status}, {len(self.codes)} codes read of {students}")
        due = (datetime.now(UTC) + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")
        form = {"title": f"Homework {number + 1}", "kind": "fixed", "count": str(count), "level": "1",
                "seed": f"homeload-{number}", "version": "A", "due_at": due, "hints": "yes", "hint_cost": "yes"}  # fmt: skip
        browser.request("GET", f"{page}/homework/new")
        self._step("homework", browser.request("POST", f"{page}/homework/new", form))
        _, _, text = browser.request("GET", page)
        found = [h for h in re.findall(rf"{page}/homework/([\w-]+)\"", text) if h != "new"]
        if len(found) != 1:
            raise RuntimeError(f"class {number}: {len(found)} homework on the class page")
        self.homework_id = found[0]
        homework, errors = rules.parse_homework(form, datetime.now(UTC).replace(tzinfo=None), UTC)
        if errors:
            raise RuntimeError(f"class {number}: {errors}")
        self.problems = rules.problems(rules.with_seed(homework))  # the server's own choice from the same form

    def _step(self, what: str, reply: tuple[int, str, str]) -> tuple[int, str, str]:
        if reply[0] != 303:
            said = re.findall(r'class="[^"]*error[^"]*"[^>]*>([^<]{1,200})<', reply[2])
            raise RuntimeError(f"class {self.number}: {what} answered {reply[0]} {said[:1]}")
        return reply

    def report(self) -> tuple[int, int | None, int | None]:
        """The teacher's report of the homework: its status and "F of N finished"."""
        status, _, text = self.browser.request("GET", f"/teacher/classes/{self.class_id}/homework/{self.homework_id}")
        match = _FINISHED.search(text)
        return status, int(match.group(1)) if match else None, int(match.group(2)) if match else None


def homework_in_database(database_url: str, homework_ids: Sequence[str]) -> dict[tuple[str, str], tuple[int, int, bool]]:
    """Each pupil's work on these homework, counted in the database itself: (homework id, pupil's name) ->
    (attempts stored, problems done, finished)."""
    from sqlalchemy import bindparam, create_engine, text

    if database_url.startswith(("postgresql://", "postgres://")):
        database_url = "postgresql+psycopg://" + database_url.split("://", 1)[1]
    engine = create_engine(database_url)
    query = text(
        "SELECT a.public_id, p.name, "
        "(SELECT count(*) FROM assignment_attempts t WHERE t.work_id = w.id), "
        "(SELECT count(*) FROM assignment_answers s WHERE s.work_id = w.id AND s.done = :yes), "
        "w.finished_at IS NOT NULL "
        "FROM assignment_work w JOIN class_assignments a ON a.id = w.assignment_id "
        "JOIN class_pupils p ON p.id = w.pupil_id WHERE a.public_id IN :ids"
    ).bindparams(bindparam("ids", expanding=True))
    try:
        with engine.connect() as connection:
            rows = connection.execute(query, {"ids": list(homework_ids), "yes": True}).all()
    finally:
        engine.dispose()
    return {(str(hw), str(name)): (int(attempts), int(done), bool(finished)) for hw, name, attempts, done, finished in rows}


def tally(sent: dict[tuple[str, str], int], stored: dict[tuple[str, str], tuple[int, int, bool]],
          count: int) -> dict[str, int]:  # fmt: skip
    """What the database holds against what each pupil sent: answers lost, doubled, pupils not finished."""
    lost = sum(max(0, n - stored.get(key, (0, 0, False))[0]) for key, n in sent.items())
    doubled = sum(max(0, stored[key][0] - sent.get(key, 0)) for key in stored)
    unfinished = sum(1 for key in sent if stored.get(key, (0, 0, False))[1:] != (count, True))
    return {"lost": lost, "doubled": doubled, "unfinished": unfinished,
            "answers_in_database": sum(s[0] for s in stored.values()),
            "finished_in_database": sum(1 for s in stored.values() if s[2])}  # fmt: skip


def run_load(port: int, students: int, count: int, classes: int, database_url: str) -> dict:
    """Set up `classes` classes of `students` pupils with homework of `count` problems, let every pupil do it at
    once on the server (or proxy) at `port`, and count; the figures."""
    started = time.perf_counter()
    with ThreadPoolExecutor(SETUP_THREADS) as pool:
        rooms = list(pool.map(lambda k: Homeroom(port, k, students, count), range(classes)))
    setup_seconds = time.perf_counter() - started

    lock = threading.Lock()
    answer_ms: list[float] = []
    signin_ms: list[float] = []
    page_ms: list[float] = []  # the pupils' GETs after signing in (their page, each problem, each result)
    errors: list[str] = []
    sent: dict[tuple[str, str], int] = {}
    go = threading.Barrier(students * classes)

    def pupil(room: Homeroom, number: int) -> None:
        name, hw = pupil_name(number), room.homework_id
        home = f"/my/homework/{hw}"
        browser = Browser(port, room.address)
        mine: list[float] = []
        pages: list[float] = []

        def page(path: str) -> str:
            """A page the pupil's browser loads after a redirect or a link: timed, and it must be there."""
            t0 = time.perf_counter()
            status, _, text = browser.request("GET", path)
            pages.append((time.perf_counter() - t0) * 1000)
            if status != 200:
                raise RuntimeError(f"GET {path}: {status}")
            return text

        try:
            browser.request("GET", "/signin")
            go.wait()
            t0 = time.perf_counter()
            status, location, _ = browser.request("POST", "/signin", {"code": room.codes[name]})
            with lock:
                signin_ms.append((time.perf_counter() - t0) * 1000)
            if status != 303:
                raise RuntimeError(f"sign-in: {status}")
            page(location or "/my/")
            text = page(home)
            for index, problem in enumerate(room.problems):
                misses = [str(problem.roll.number_dice[0])] if number % 3 == 0 else []  # a value, no target
                for attempt, formula in enumerate([*misses, problem.best_formula]):
                    t0 = time.perf_counter()
                    status, location, _ = browser.request(
                        "POST", f"{home}/answer", {"problem": index, "attempt": attempt, "formula": formula}
                    )
                    mine.append((time.perf_counter() - t0) * 1000)
                    if status != 303 or not location.startswith(home):
                        raise RuntimeError(f"answer: {status} {location}")
                    with lock:
                        sent[(hw, name)] = sent.get((hw, name), 0) + 1
                    text = page(location)
                if index + 1 < count:  # the result's "Next problem" link
                    page(f"{home}?p={index + 1}")
            if 'id="finished"' not in text:
                raise RuntimeError("the last page is not the finished homework")
        except Exception as error:  # noqa: BLE001 - every failure is counted and reported
            record_failure(lock, errors, f"class {room.number} {name}: {error!r}", go)
        finally:
            with lock:
                answer_ms.extend(mine)
                page_ms.extend(pages)

    threads = [threading.Thread(target=pupil, args=(r, n)) for r in rooms for n in range(students)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - start

    reports = [room.report() for room in rooms]
    reports_ok = sum(1 for status, done, of in reports if status == 200 and done == of == students)
    counted = tally(sent, homework_in_database(database_url, [r.homework_id for r in rooms]), count)
    answer_ms.sort()
    signin_ms.sort()
    page_ms.sort()
    requests = len(answer_ms) + len(signin_ms) + len(page_ms)  # the timed phase's, each pupil's /signin form aside
    expected = classes * sum(count * (2 if n % 3 == 0 else 1) for n in range(students))
    return {
        "mode": "homework", "classes": classes, "students": students, "problems": count,
        "answers_expected": expected, "answers_sent": sum(sent.values()), **counted,
        "pupils_finished_expected": classes * students, "reports_ok": reports_ok,
        "errors": len(errors), "error_samples": errors[:3], "setup_seconds": round(setup_seconds, 2),
        "seconds": round(elapsed, 2), "answer_p50_ms": round(percentile(answer_ms, 50), 1),
        "answer_p95_ms": round(percentile(answer_ms, 95), 1), "answer_p99_ms": round(percentile(answer_ms, 99), 1),
        "answer_max_ms": round(answer_ms[-1], 1) if answer_ms else None,
        "signin_p50_ms": round(percentile(signin_ms, 50), 1), "signin_p95_ms": round(percentile(signin_ms, 95), 1),
        "signin_p99_ms": round(percentile(signin_ms, 99), 1), "page_p50_ms": round(percentile(page_ms, 50), 1),
        "page_p95_ms": round(percentile(page_ms, 95), 1), "requests": requests,
        "requests_per_s": round(requests / elapsed, 1) if elapsed else None,
    }  # fmt: skip


def failed(figures: dict) -> bool:
    """Whether the run failed: any error, an answer lost or doubled, a pupil not finished, a report not right."""
    return bool(figures["errors"] or figures["lost"] or figures["doubled"] or figures["unfinished"]
                or figures["answers_sent"] != figures["answers_expected"]
                or figures["reports_ok"] != figures["classes"])  # fmt: skip


def print_figures(figures: dict, where: str, as_json: bool) -> int:
    """Print the figures (one JSON object with `as_json`); the exit status."""
    import sys

    if as_json:
        print(json.dumps(figures, ensure_ascii=False))
        return 1 if failed(figures) else 0
    print(f"homework: {figures['classes']} classes × {figures['students']} pupils × {figures['problems']} problems "
          f"on {where}, {figures['database']}: {figures['answers_sent']} answers in {figures['seconds']} s "
          f"(set-up {figures['setup_seconds']} s), {figures['errors']} errors")  # fmt: skip
    print(f"answer requests: p50 {figures['answer_p50_ms']} ms, p95 {figures['answer_p95_ms']} ms, "
          f"p99 {figures['answer_p99_ms']} ms, slowest {figures['answer_max_ms']} ms; "
          f"sign-ins p95 {figures['signin_p95_ms']} ms, p99 {figures['signin_p99_ms']} ms; pages (GET) p50 "
          f"{figures['page_p50_ms']} ms, p95 {figures['page_p95_ms']} ms; {figures['requests']} requests, "
          f"{figures['requests_per_s']} a second")  # fmt: skip
    print(f"in the database: {figures['answers_in_database']} answers of {figures['answers_expected']} expected, "
          f"lost {figures['lost']}, doubled {figures['doubled']}; finished {figures['finished_in_database']} of "
          f"{figures['pupils_finished_expected']} pupils ({figures['unfinished']} not); teachers' reports showing "
          f"every pupil finished: {figures['reports_ok']} of {figures['classes']}")  # fmt: skip
    for sample in figures["error_samples"]:
        print(f"  {sample}", file=sys.stderr)
    return 1 if failed(figures) else 0

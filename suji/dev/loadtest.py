"""Load test: start `suji serve` on 127.0.0.1 and time a bounded burst of POST /api/check requests.

    suji loadtest [--requests 6000] [--clients 8] [--time-limit 60]
    python -m suji.dev.loadtest

The server runs in its own process (as in production), the clients are threads here, each with one keep-alive
connection and its own session and CSRF token, like a browser tab. Only loopback traffic; the run stops after
a fixed number of requests or the time limit, whichever comes first. Prints requests/s and latency
percentiles; exits 1 if any request failed.

The check load also runs a bare baseline in the same run: a Flask app with one JSON endpoint and nothing else,
on waitress with the same settings, driven the same way, the two taking turns (ROUNDS bursts each). Its requests/s is what the stack itself allows, and
the ratio says how much of it suji's /api/check keeps (`--json` prints requests_per_s, baseline_requests_per_s,
ratio, p50_ms, p99_ms, errors and compiled_twins: how many hot modules run compiled, suji.core.native).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import secrets
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Sequence

from suji.core import native

HOST = "127.0.0.1"
# A mix of what pupils send: made targets, misses, invalid text, redundant dice.
BODIES = [
    {"formula": "21²+4+1", "target_dice": [4, 4, 6], "number_dice": [2, 1, 4, 1, 3],
     "operator_dice": ["+", "+", "^2", "-"], "rerolled": 3},
    {"formula": "447+2", "target_dice": [4, 4, 6], "number_dice": [4, 4, 7, 2, 3],
     "operator_dice": ["+", "-", "*", "sqrt"]},
    {"formula": "8+2÷11×11", "target": 10, "number_dice": [8, 2, 1, 1], "operator_dice": ["+", "/", "x11"]},
    {"formula": "3+√4²", "target": 7, "number_dice": [3, 4, 1, 2], "operator_dice": ["+", "sqrt", "^2"]},
    {"formula": "12++3", "target_dice": [1, 2, 5], "number_dice": [1, 2, 3, 5, 8],
     "operator_dice": ["+", "+"]},
    {"formula": "52×3−1", "target_dice": [1, 5, 2], "number_dice": [5, 2, 3, 1, 6],
     "operator_dice": ["×", "−", "+", "²"]},
]  # fmt: skip
_TOKEN = re.compile(r'<meta name="csrf-token" content="([^"]+)"')


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def baseline_app():  # noqa: ANN201 - a Flask app
    """The bare baseline: a page with a CSRF-token meta and a cookie (as the clients expect), and a JSON POST."""
    from flask import Flask, jsonify, make_response, request

    app = Flask("suji-baseline")

    @app.get("/")
    def page():  # noqa: ANN202
        response = make_response('<meta name="csrf-token" content="baseline">')
        response.set_cookie("session", "baseline")
        return response

    @app.post("/api/check")
    def check():  # noqa: ANN202
        return jsonify({"valid": isinstance(request.get_json(silent=True), dict)})

    return app


def serve_baseline(port: int, threads: int) -> None:
    """Serve the baseline app on waitress with the settings `suji serve` uses."""
    from waitress import serve

    serve(baseline_app(), host=HOST, port=port, threads=threads, ident="", channel_timeout=60)


def start_server(port: int, threads: int, baseline: bool = False) -> subprocess.Popen:
    """`suji serve` (or the bare baseline) on 127.0.0.1:port in a child process, once it accepts connections."""
    # A load test never starts building the odds table; it uses the table that is there, if any.
    env = dict(os.environ, SUJI_SECRET_KEY=secrets.token_hex(32), SUJI_ODDS_BUILD="0")
    command = [
        sys.executable,
        "-m",
        "suji.cli",
        "serve",
        "--host",
        HOST,
        "--port",
        str(port),
        "--threads",
        str(threads),
    ]
    if baseline:
        command = [
            sys.executable,
            "-c",
            f"from suji.dev.loadtest import serve_baseline; serve_baseline({port}, {threads})",
        ]
    process = subprocess.Popen(command, env=env, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("the server did not start")
        try:
            with socket.create_connection((HOST, port), timeout=0.5):
                return process
        except OSError:
            time.sleep(0.1)
    process.terminate()
    raise RuntimeError("the server did not start within 30 s")


class Client:
    """One browser-like client: a keep-alive connection, a session cookie and the page's CSRF token."""

    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection(HOST, port, timeout=30)
        self.connection.request("GET", "/")
        response = self.connection.getresponse()
        page = response.read().decode("utf-8")
        cookie = response.getheader("Set-Cookie", "")
        match = _TOKEN.search(page)
        if response.status != 200 or not match or not cookie:
            raise RuntimeError("could not get a session and a CSRF token from /")
        self.headers = {
            "Content-Type": "application/json",
            "Cookie": cookie.split(";", 1)[0],
            "X-CSRFToken": match.group(1),
            "Accept-Language": "ja",
        }

    def fetch(self, method: str, path: str, body: bytes | None = None) -> int:
        """One request on the keep-alive connection; the status (the body is read and dropped)."""
        headers = (
            self.headers
            if body is not None
            else {k: v for k, v in self.headers.items() if k != "Content-Type"}
        )
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        response.read()
        return response.status

    def check(self, body: bytes, path: str = "/api/check") -> bool:
        """POST to `path` (/api/check) once; True when the answer is 200 with a JSON object."""
        self.connection.request("POST", path, body=body, headers=self.headers)
        response = self.connection.getresponse()
        data = response.read()
        return response.status == 200 and data.startswith(b"{")


def percentile(sorted_values: Sequence[float], p: float) -> float:
    """The p-th percentile (nearest rank) of already sorted values."""
    if not sorted_values:
        return float("nan")
    rank = max(1, min(len(sorted_values), round(p / 100 * len(sorted_values) + 0.5)))
    return sorted_values[rank - 1]


def advice_bodies(count: int = 60) -> list[dict]:
    """Seeded standard rolls, as a game asks /api/advise about them."""
    from suji.rules.dice import random_roll

    bodies = []
    for i in range(count):
        roll = random_roll(f"loadtest-advise:{i}")
        bodies.append(
            {"target_dice": list(roll.target_dice), "number_dice": list(roll.number_dice),
             "operator_dice": list(roll.operator_dice)}
        )  # fmt: skip
    return bodies


ENDPOINTS = {"check": "/api/check", "advise": "/api/advise"}


def load(port: int, requests: int, clients: int, time_limit: float, endpoint: str = "check") -> dict:
    """Send up to `requests` requests from `clients` threads, for at most `time_limit` seconds."""
    source = advice_bodies() if endpoint == "advise" else BODIES
    bodies = [json.dumps(b, ensure_ascii=False).encode("utf-8") for b in source]
    path = ENDPOINTS[endpoint]
    lock = threading.Lock()
    issued = 0
    latencies: list[float] = []
    errors: list[str] = []
    ready = [Client(port) for _ in range(clients)]
    start = time.perf_counter()
    deadline = start + time_limit

    def worker(client: Client) -> None:
        nonlocal issued
        mine: list[float] = []
        while True:
            with lock:
                if issued >= requests or time.perf_counter() > deadline:
                    break
                n = issued
                issued += 1
            t0 = time.perf_counter()
            try:
                ok = client.check(bodies[n % len(bodies)], path)
            except (OSError, http.client.HTTPException) as error:
                ok = False
                errors.append(repr(error))
            mine.append(time.perf_counter() - t0)
            if not ok and len(errors) < 1000:
                errors.append("bad response")
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=worker, args=(c,)) for c in ready]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - start
    return figures([(latencies, len(errors), elapsed)], clients)


def pages_under_advice(port: int, questions: int = 9, pages: int = 20) -> dict:
    """GET / from new visitors while `questions` players each ask live advice about other dice, beside the same
    GET / before any question (the baseline, same run). Each player asks as the game page does: again after
    Retry-After while the answer is 202 (being worked out) or 503 (queue full), until it is 200.

    Issue 21: without the odds table nine questions held the server's threads and GET / took 12 s.
    """
    def page() -> float:
        t0 = time.perf_counter()
        connection = http.client.HTTPConnection(HOST, port, timeout=600)
        connection.request("GET", "/")
        response = connection.getresponse()
        response.read()
        connection.close()
        if response.status != 200:
            raise RuntimeError(f"GET /: {response.status}")
        return time.perf_counter() - t0

    page()  # warm up
    before = sorted(page() for _ in range(pages))
    players = [Client(port) for _ in range(questions)]
    for player in players:  # a question may wait long in a queue (it did before issue 21: minutes)
        player.connection.sock.settimeout(600)
    bodies = [json.dumps(b).encode() for b in advice_bodies(questions)]
    statuses: dict[int, int] = {}
    answered: list[float] = []
    lock = threading.Lock()
    start = time.perf_counter()

    def play(client: Client, body: bytes) -> None:
        while True:
            client.connection.request("POST", "/api/advise", body=body, headers=client.headers)
            response = client.connection.getresponse()
            response.read()
            with lock:
                statuses[response.status] = statuses.get(response.status, 0) + 1
            if response.status != 200 and response.getheader("Retry-After"):
                time.sleep(int(response.getheader("Retry-After")))  # as the page does: ask again then
                continue
            with lock:
                answered.append(time.perf_counter() - start)
            return

    threads = [threading.Thread(target=play, args=(c, b)) for c, b in zip(players, bodies, strict=True)]
    for thread in threads:
        thread.start()
    during = []
    while len(answered) < questions and len(during) < pages:
        during.append(page())
    during.sort()
    for thread in threads:
        thread.join()
    return {
        "questions": questions, "statuses": dict(sorted(statuses.items())),
        "all_answered_s": round(max(answered), 2),
        "page_before_p50_ms": round(percentile(before, 50) * 1000, 1),
        "page_before_max_ms": round(before[-1] * 1000, 1),
        "page_during_p50_ms": round(percentile(during, 50) * 1000, 1) if during else None,
        "page_during_max_ms": round(during[-1] * 1000, 1) if during else None,
        "pages_during": len(during),
    }  # fmt: skip


def figures(parts: Sequence[tuple[list[float], int, float]], clients: int) -> dict:
    """Requests/s and latency percentiles of one or more bursts: (latencies, errors, seconds) each."""
    latencies = sorted(x for part in parts for x in part[0])
    elapsed = sum(part[2] for part in parts)
    return {
        "requests": len(latencies),
        "errors": sum(part[1] for part in parts),
        "seconds": round(elapsed, 3),
        "requests_per_second": round(len(latencies) / elapsed, 1) if elapsed else 0.0,
        "p50_ms": round(percentile(latencies, 50) * 1000, 2),
        "p95_ms": round(percentile(latencies, 95) * 1000, 2),
        "p99_ms": round(percentile(latencies, 99) * 1000, 2),
        "max_ms": round(latencies[-1] * 1000, 2) if latencies else None,
        "clients": clients,
        "latencies": latencies,
    }


def measure(args: argparse.Namespace, endpoint: str) -> dict:
    """Start `suji serve`, warm it up, load it, stop it; the figures."""
    port = free_port()
    server = start_server(port, args.threads)
    try:
        # Warm up imports and caches (advice: one request, so the rolls measured are not already solved).
        load(port, 1 if endpoint == "advise" else min(200, args.requests), 1, args.time_limit, endpoint)
        return load(port, args.requests, args.clients, args.time_limit, endpoint)
    finally:
        server.terminate()
        server.wait(timeout=10)


# suji and the baseline take turns, a third of the requests each time: a machine that slows down or speeds up during
# the run (other work on it, a shared host) then weighs on both alike instead of on whichever ran at that moment.
ROUNDS = 3


def measure_against_baseline(args: argparse.Namespace) -> tuple[dict, dict]:
    """POST /api/check on `suji serve` and on the bare baseline, in turns; the figures of each."""
    ports = [free_port(), free_port()]
    servers = [start_server(ports[0], args.threads), start_server(ports[1], args.threads, baseline=True)]
    parts: list[list[tuple[list[float], int, float]]] = [[], []]
    try:
        for port in ports:
            load(port, min(200, args.requests), 1, args.time_limit)
        per_round = max(1, args.requests // ROUNDS)
        for _ in range(ROUNDS):
            for side, port in enumerate(ports):
                burst = load(port, per_round, args.clients, args.time_limit / ROUNDS)
                parts[side].append((burst["latencies"], burst["errors"], burst["seconds"]))
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=10)
    return figures(parts[0], args.clients), figures(parts[1], args.clients)


def run(args: argparse.Namespace) -> int:
    """Start the server, load it, print the figures, stop the server (for /api/check: beside the baseline)."""
    endpoint = getattr(args, "endpoint", "check")
    if endpoint == "advise-pages":
        port = free_port()
        server = start_server(port, args.threads)
        try:
            found = pages_under_advice(port, args.clients)
        finally:
            server.terminate()
            server.wait(timeout=10)
        if getattr(args, "json", False):
            print(json.dumps(found))
        else:
            print(
                f"GET / while {found['questions']} players ask live advice (waitress, {args.threads} threads): "
                f"p50 {found['page_during_p50_ms']} ms, slowest {found['page_during_max_ms']} ms over "
                f"{found['pages_during']} pages; before the questions p50 {found['page_before_p50_ms']} ms, slowest "
                f"{found['page_before_max_ms']} ms; every question answered after {found['all_answered_s']} s "
                f"(answers by status: {found['statuses']})"
            )
        return 0
    if endpoint == "check":
        found, base = measure_against_baseline(args)
    else:
        found, base = measure(args, endpoint), None
    ratio = round(found["requests_per_second"] / base["requests_per_second"], 3) if base else None
    if getattr(args, "json", False):
        print(json.dumps({
            "requests_per_s": found["requests_per_second"],
            "baseline_requests_per_s": base["requests_per_second"] if base else None,
            "ratio": ratio, "p50_ms": found["p50_ms"], "p99_ms": found["p99_ms"],
            "errors": found["errors"] + (base["errors"] if base else 0),
            "compiled_twins": native.summary(),  # the server runs with the same files and environment
        }))  # fmt: skip
        return 1 if found["errors"] else 0
    print(
        f"POST {ENDPOINTS[endpoint]} on waitress ({args.threads} threads), {found['clients']} keep-alive "
        f"clients: {found['requests']} requests in {found['seconds']} s, {found['errors']} errors; "
        f"{native.summary()}"
    )
    print(
        f"{found['requests_per_second']} requests/s; latency p50 {found['p50_ms']} ms, "
        f"p95 {found['p95_ms']} ms, p99 {found['p99_ms']} ms, slowest {found['max_ms']} ms"
    )
    if base:
        print(
            f"baseline (a bare Flask JSON endpoint, same waitress settings, same run, in turns with suji): "
            f"{base['requests_per_second']} requests/s; suji keeps {ratio:.0%} of it"
        )
    return 1 if found["errors"] else 0


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of `suji loadtest` (and of `python -m suji.dev.loadtest`)."""
    p.add_argument("--requests", type=int, default=6000, help="how many requests in all")
    p.add_argument("--clients", type=int, default=8, help="client threads, one keep-alive connection each")
    p.add_argument("--time-limit", type=float, default=60.0, help="stop after this many seconds")
    p.add_argument("--threads", type=int, default=8, help="waitress worker threads")
    p.add_argument(
        "--endpoint", choices=("check", "advise", "advise-pages"), default="check",
        help="check: POST /api/check; advise: POST /api/advise on seeded standard rolls; advise-pages: GET / "
             "while --clients players ask live advice (without the odds table), beside GET / alone",
    )  # fmt: skip
    p.add_argument("--json", action="store_true", help="one JSON object with the figures and the baseline's")


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m suji.dev.loadtest [options]`, the same as `suji loadtest [options]`."""
    parser = argparse.ArgumentParser(prog="python -m suji.dev.loadtest")
    add_arguments(parser)
    return run(parser.parse_args(sys.argv[1:] if argv is None else argv))


if __name__ == "__main__":
    sys.exit(main())

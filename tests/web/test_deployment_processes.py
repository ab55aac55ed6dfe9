"""The proof of issue 21 on real processes: app servers on one PostgreSQL database behind nginx (with the
repository's deploy/nginx/suji-proxy.conf; a small round-robin proxy of suji.dev.proxies where nginx is not
installed), every request landing on another process than the one before, each process with an instance folder
of its own: a class (a teacher and two pupils), a game and the daily puzzle work as on one server; a database
outage answers 503 from every process and they all carry on when it is back. Also: `suji serve` keeps serving
a new visitor while 150 idle connections are open (waitress's own limit was 100).

Slow (servers start as processes); skips with the reason without PostgreSQL (SUJI_TEST_POSTGRES_URL).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from test_deployment import postgres  # noqa: F401 - the fixture: a new PostgreSQL database

from suji.dev.classload import Browser
from suji.dev.loadtest import free_port
from suji.dev.proxies import HOST, REPOSITORY, start_proxy, wait_for_port

pytestmark = pytest.mark.slow

GUNICORN_CONF = REPOSITORY / "deploy" / "gunicorn.conf.py"
_DIE = re.compile(r'data-kind="(number|operator)" data-face="([^"]+)"')
_TARGETS = re.compile(r'<ul class="targets">(.*?)</ul>', re.S)


def hidden_fields(html: str, action: str) -> dict:
    """The hidden fields of the form posting to `action` (the CSRF token among them)."""
    form = re.search(r'<form[^>]*action="' + re.escape(action) + r'"[^>]*>(.*?)</form>', html, re.S)
    assert form, f"no form for {action}"
    return dict(re.findall(r'type="hidden" name="(\w+)" value="([^"]*)"', form.group(1)))


def best_on(html: str) -> str:
    """The best formula for the dice and targets a game page shows (the solver's)."""
    from suji import Roll
    from suji.play import games

    dice = _DIE.findall(html)
    targets = re.findall(r"<li>(\d+)</li>", _TARGETS.search(html).group(1))
    roll = Roll.of([int(f) for k, f in dice if k == "number"], [f for k, f in dice if k == "operator"],
                   [int(d) for d in targets[0]])  # fmt: skip
    return games.best_for(roll)[1]


class Client(Browser):
    """classload's browser (keep-alive, cookies, the CSRF token of the last form), with JSON and a count."""

    sent = 0

    def request(self, method, path, form=None):  # noqa: ANN001, ANN201
        Client.sent += 1
        return super().request(method, path, form)

    def page(self, path: str) -> str:
        status, _, text = self.request("GET", path)
        assert status == 200, (path, status)
        return text

    def post(self, path: str, form: dict, expect: int = 303) -> str:
        status, location, _ = self.request("POST", path, form)
        assert status == expect, (path, status)
        return location

    def json(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        Client.sent += 1
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()), "X-CSRFToken": self.token}
        data = None
        if body is not None:
            data, headers["Content-Type"] = json.dumps(body), "application/json"
        response = self._send(method, path, data, headers)
        self.used = True
        return response.status, json.loads(response.read().decode("utf-8"))


def start_app_servers(tmp_path: Path, env: dict) -> list[tuple[subprocess.Popen, int, str]]:
    """Three app processes: suji serve, gunicorn with deploy/gunicorn.conf.py (when installed), suji serve; each
    with its own instance folder. (process, port, what it is)."""
    try:
        import gunicorn  # noqa: F401

        kinds = ["suji serve", "gunicorn", "suji serve"]
    except ImportError:  # the `deploy` extra is not installed: waitress only
        kinds = ["suji serve"] * 3
    servers = []
    for n, kind in enumerate(kinds):
        port = free_port()
        if kind == "gunicorn":
            command = [sys.executable, "-m", "gunicorn", "-c", str(GUNICORN_CONF), "-b", f"{HOST}:{port}", "-w", "1",
                       "suji.web.wsgi:app"]  # fmt: skip
        else:
            command = [sys.executable, "-m", "suji", "serve", "--host", HOST, "--port", str(port)]
        process_env = {**os.environ, **env, "SUJI_INSTANCE_PATH": str(tmp_path / f"instance-{n}")}
        process = subprocess.Popen(command, env=process_env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=open(tmp_path / f"server-{n}.log", "wb"))  # fmt: skip
        servers.append((process, port, kind))
    for process, port, _ in servers:
        wait_for_port(port, process)
    return servers


def stop(servers) -> None:  # noqa: ANN001
    for process, _, _ in servers:
        process.terminate()
    for process, _, _ in servers:
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


def test_a_class_a_game_and_the_daily_puzzle_with_every_request_on_another_process(postgres, tmp_path):  # noqa: F811
    server, name, url = postgres
    proxy_port = free_port()
    public = f"http://{HOST}:{proxy_port}"
    env = {"SUJI_DATABASE_URL": url, "SUJI_SECRET_KEY": secrets.token_hex(32), "SUJI_TRUSTED_PROXIES": "1",
           "SUJI_PUBLIC_URL": public, "SUJI_ODDS_BUILD": "0", "SUJI_LANG": "en"}  # fmt: skip
    servers = start_app_servers(tmp_path, env)
    proxy = start_proxy(proxy_port, [port for _, port, _ in servers])
    try:
        Client.sent = 0
        # ---- a class: the teacher makes it and starts it, two pupils join and answer, the teacher ends it ----
        teacher = Client(proxy_port)
        teacher.cookies["suji_lang"] = "en"
        teacher.page("/class/new")
        location = teacher.post("/class/new", {"count": 2, "level": 1, "seed": "deploy", "hints": "yes",
                                               "hint_cost": "yes"})  # fmt: skip
        session_id = location.rsplit("/", 1)[1]
        board = teacher.page(f"/class/{session_id}")
        code = re.search(r'id="join-code"[^>]*>(\w+)<', board).group(1)
        assert f"{public}/join/{code}" in board and re.search(re.escape(public) + r"/class/teach/[\w-]{43}", board)
        teacher.post(f"/class/{session_id}/start", {})
        from suji.play import classroom as core

        problems = core.choose_problems(core.ClassSettings(count=2, level=1, seed="deploy"))
        for nickname in ("Aki", "Ben"):
            pupil = Client(proxy_port)
            pupil.page(f"/join/{code}")
            assert pupil.post("/join", {"code": code, "nickname": nickname}).endswith(f"/class/s/{code}")
            assert json.dumps(pupil.json("GET", f"/api/class/{code}/state")[1]).find('"running"') > 0
            pupil.page(f"/class/s/{code}")
            status, hint = pupil.json("POST", f"/api/class/{code}/hint", {"step": 0, "roll": "0"})
            assert status == 200 and hint["hints_used"] == 1
            for index, problem in enumerate(problems):
                pupil.page(f"/class/s/{code}")
                pupil.post(f"/class/s/{code}/answer", {"problem": index, "attempt": 0, "formula": problem.best_formula})
                pupil.page(f"/class/s/{code}")
                pupil.post(f"/class/s/{code}/next", {"problem": index})
        status, results = teacher.json("GET", f"/api/class/{session_id}/results")
        assert status == 200 and results["students"] == 2 and results["attempts"] == 4
        assert all(cell["solved"] for row in results["rows"] for cell in row["cells"])
        teacher.page(f"/class/{session_id}")
        teacher.post(f"/class/{session_id}/end", {})
        status, _, csv = teacher.request("GET", f"/class/{session_id}/results.csv")
        assert status == 200 and "Aki" in csv and "Ben" in csv

        # ---- a game: a solo game of one target, answered with the best formula ----
        player = Client(proxy_port)
        player.page("/games/")
        game = player.post("/games/solo", {"targets": 1})
        html = player.page(game)
        formula = best_on(html)
        if formula:
            player.post(f"{game}/answer", {**hidden_fields(html, f"{game}/answer"), "formula": formula})
        else:  # a roll that makes no target (random: about one solo game in four here): the hand is given up
            player.post(f"{game}/giveup", {**hidden_fields(html, f"{game}/giveup"), "sure": "give-up"})
        player.page(game)

        # ---- the daily puzzle: a nickname, the day's roll answered, the leaderboard ----
        html = player.page("/games/daily")
        player.post("/games/nickname", {"nickname": "Chie", "next": "/games/daily"})
        html = player.page("/games/daily")
        player.post("/games/daily/answer", {**hidden_fields(html, "/games/daily/answer"), "formula": best_on(html)})
        assert "Chie" in Client(proxy_port).page("/games/daily")  # the leaderboard, read from another process

        # ---- every request went to another process than the one before, and every process served ----
        landed = proxy.upstreams(at_least=Client.sent)  # nginx logs a request just after answering it
        assert len(landed) == Client.sent
        assert all(a != b for a, b in zip(landed, landed[1:], strict=False)), landed
        assert set(landed) == {port for _, port, _ in servers}
        import psycopg
        from test_deployment import _libpq

        with psycopg.connect(_libpq(url)) as db:  # …and all of it is in the database
            assert db.execute("SELECT count(*) FROM class_attempts").fetchone()[0] == 4
            assert db.execute("SELECT count(*) FROM daily_entries").fetchone()[0] == 1
            assert db.execute("SELECT count(*) FROM games WHERE status = 'finished'").fetchone()[0] == 1

        # ---- the database goes away: every process answers 503 with Retry-After, then carries on ----
        server.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
        server.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))
        for _ in servers:
            visitor = Client(proxy_port)
            visitor.cookies["suji_lang"] = "ja"
            visitor.connection.request("GET", "/games/daily", headers={"Cookie": "suji_lang=ja"})
            response = visitor.connection.getresponse()
            page = response.read().decode("utf-8")
            assert response.status == 503 and int(response.getheader("Retry-After")) > 0
            assert '<html lang="ja">' in page and "少し待って" in page  # the app's own page, never the server's
            status, error = visitor.json("GET", "/api/practice/next")
            assert status == 503 and error["error"]["code"] == "database_unavailable"
        server.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        for _ in servers:
            assert Client(proxy_port).page("/games/daily")
    finally:
        proxy.stop()
        stop(servers)
    for n in range(len(servers)):
        assert "Traceback" not in (tmp_path / f"server-{n}.log").read_text(errors="replace")


def open_sockets(pid: int) -> int:
    """How many sockets the process `pid` has open (its listening one and every connection it accepted)."""
    folder = Path(f"/proc/{pid}/fd")
    found = 0
    for fd in folder.iterdir():
        try:
            found += os.readlink(fd).startswith("socket:")
        except OSError:  # closed meanwhile
            pass
    return found


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts the server's sockets in /proc (Linux)")
def test_suji_serve_serves_a_new_visitor_while_150_idle_connections_are_open(tmp_path):
    """With waitress's own limit (100) the visitor waited until idle connections timed out (60 s), and by then
    they were closed: here the visitor is answered while the server still holds all 150."""
    port = free_port()
    env = {**os.environ, "SUJI_INSTANCE_PATH": str(tmp_path), "SUJI_SECRET_KEY": "test", "SUJI_ODDS_BUILD": "0"}
    env.pop("SUJI_CONNECTION_LIMIT", None)  # the default is what is tested
    process = subprocess.Popen([sys.executable, "-m", "suji", "serve", "--port", str(port)], env=env,
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    idle = []
    try:
        wait_for_port(port, process)
        for _ in range(150):  # one device's worth of open, silent connections: more than waitress's own limit
            idle.append(socket.create_connection((HOST, port)))
        visitor = Client(port)
        status, _, _ = visitor.request("GET", "/")
        assert status == 200
        assert open_sockets(process.pid) >= 150 + 1  # every idle connection accepted and still open
    finally:
        for connection in idle:
            connection.close()
        process.terminate()
        process.wait(timeout=20)


def test_the_nginx_site_sample_passes_nginx_t(tmp_path):
    """deploy/nginx/suji-site.conf as an operator installs it (its certificate paths pointed at a throwaway one)
    is a configuration nginx accepts."""
    import shutil

    from suji.dev.proxies import nginx_binary

    nginx = nginx_binary()
    if nginx is None or shutil.which("openssl") is None:
        pytest.skip("needs Debian's nginx and openssl")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=suji.test",
                    "-keyout", str(tmp_path / "key.pem"), "-out", str(tmp_path / "cert.pem")],
                   check=True, capture_output=True)  # fmt: skip
    site = (REPOSITORY / "deploy" / "nginx" / "suji-site.conf").read_text()
    site = re.sub(r"ssl_certificate [^;]+;", f"ssl_certificate {tmp_path / 'cert.pem'};", site)
    site = re.sub(r"ssl_certificate_key [^;]+;", f"ssl_certificate_key {tmp_path / 'key.pem'};", site)
    site = site.replace("include snippets/suji-proxy.conf;", f"include {REPOSITORY / 'deploy/nginx/suji-proxy.conf'};")
    (tmp_path / "site.conf").write_text(site)
    (tmp_path / "nginx.conf").write_text(f"""
pid {tmp_path}/nginx.pid;
error_log {tmp_path}/error.log;
events {{ }}
http {{
    access_log off;
    client_body_temp_path {tmp_path};
    proxy_temp_path {tmp_path};
    include {tmp_path}/site.conf;
}}
""")
    checked = subprocess.run([nginx, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
                             capture_output=True, text=True)  # fmt: skip
    assert checked.returncode == 0, checked.stderr
    assert "syntax is ok" in checked.stderr


@pytest.mark.parametrize(("trusted", "seen"), [("1", "203.0.113.7"), ("0", "127.0.0.1")])
def test_gunicorn_with_the_sample_settings_passes_a_trusted_proxys_client_address_on(tmp_path, trusted, seen):
    """Behind nginx under gunicorn (deploy/gunicorn.conf.py, SUJI_TRUSTED_PROXIES=1) the app sees the address nginx
    sends in X-Forwarded-For, as under `suji serve` (test_deployment); trusting no proxy, the connection's."""
    pytest.importorskip("gunicorn", reason="the `deploy` extra (gunicorn) is not installed")
    import http.client

    # The app as deploy/ serves it (suji.web.wsgi), with one more route that answers the address it sees.
    (tmp_path / "address_app.py").write_text(
        "from flask import request\n"
        "from suji.web.wsgi import app\n"
        "app.add_url_rule('/test-address', 'test_address', lambda: request.remote_addr or '')\n"
    )
    port = free_port()
    env = {**os.environ, "SUJI_SECRET_KEY": secrets.token_hex(32), "SUJI_TRUSTED_PROXIES": trusted,
           "SUJI_ODDS_BUILD": "0", "SUJI_INSTANCE_PATH": str(tmp_path / "instance")}  # fmt: skip
    env.pop("SUJI_DATABASE_URL", None)  # the instance folder's SQLite
    command = [sys.executable, "-m", "gunicorn", "-c", str(GUNICORN_CONF), "--pythonpath", str(tmp_path),
               "-b", f"{HOST}:{port}", "-w", "1", "address_app:app"]  # fmt: skip
    log = open(tmp_path / "gunicorn.log", "wb")  # noqa: SIM115 - the server's, closed below
    process = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log)
    try:
        wait_for_port(port, process)
        connection = http.client.HTTPConnection(HOST, port, timeout=60)
        connection.request("GET", "/test-address", headers={"X-Forwarded-For": "203.0.113.7"})
        response = connection.getresponse()
        assert (response.status, response.read().decode()) == (200, seen)
        connection.close()
    finally:
        stop([(process, port, "gunicorn")])
        log.close()
    assert "Traceback" not in (tmp_path / "gunicorn.log").read_text(errors="replace")

"""Several app processes behind one address, for the load test and the deployment test: nginx with the
repository's own proxy settings (deploy/nginx/suji-proxy.conf), or a small round-robin proxy written here
where nginx cannot be started.

    clients ──▶ 127.0.0.1:port ──(request 1, 2, 3 … to process 1, 2, 3, 1 …)──▶ app processes on other ports

Both send each request to the next process in turn and tell the app the client's address, scheme and host in
X-Forwarded-* (the app believes them with SUJI_TRUSTED_PROXIES=1), and both say afterwards which process
answered each request (`upstreams()`), so a test can show that consecutive requests landed on different ones.
"""

from __future__ import annotations

import http.client
import itertools
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

HOST = "127.0.0.1"
REPOSITORY = Path(__file__).resolve().parents[2]
PROXY_SNIPPET = REPOSITORY / "deploy" / "nginx" / "suji-proxy.conf"
# Headers that belong to one connection, not to the request (RFC 9110 § 7.6.1)
HOP_BY_HOP = frozenset(
    ["connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailer",
     "transfer-encoding", "upgrade", "proxy-connection"]
)  # fmt: skip


def nginx_binary() -> str | None:
    """Debian's nginx, if it is installed."""
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.path.exists(p)), None)


def wait_for_port(port: int, process: subprocess.Popen | None = None, seconds: float = 60) -> None:
    """Return once something accepts connections on 127.0.0.1:port (RuntimeError if `process` ends first)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the process for port {port} ended (status {process.returncode})")
        try:
            with socket.create_connection((HOST, port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port} after {seconds} s")


class Nginx:
    """nginx in a folder of its own (configuration, logs, temporary files), in front of `backends`."""

    LOG_FORMAT = "$upstream_addr $status $request_method $request_uri"

    def __init__(self, port: int, backends: list[int]) -> None:
        binary = nginx_binary()
        if binary is None:
            raise RuntimeError("nginx is not installed")
        self.port, self.backends = port, backends
        self.folder = Path(tempfile.mkdtemp(prefix="suji-nginx-"))
        for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (self.folder / name).mkdir()
        os.chmod(self.folder, 0o755)
        for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            os.chmod(self.folder / name, 0o777)  # nginx's workers run as another user when started by root
        servers = "\n".join(f"        server {HOST}:{p};" for p in backends)
        (self.folder / "nginx.conf").write_text(f"""
worker_processes 1;
pid {self.folder}/nginx.pid;
error_log {self.folder}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    log_format upstreams '{self.LOG_FORMAT}';
    access_log {self.folder}/access.log upstreams;
    client_body_temp_path {self.folder}/body;
    proxy_temp_path {self.folder}/proxy;
    fastcgi_temp_path {self.folder}/fastcgi;
    uwsgi_temp_path {self.folder}/uwsgi;
    scgi_temp_path {self.folder}/scgi;
    upstream suji {{
{servers}
        keepalive 64;
    }}
    server {{
        listen {HOST}:{port};
        client_max_body_size 128k;
        location / {{
            include {PROXY_SNIPPET};
        }}
    }}
}}
""")
        self.process = subprocess.Popen(
            [binary, "-p", str(self.folder), "-c", str(self.folder / "nginx.conf"), "-g", "daemon off;"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )  # fmt: skip
        try:
            wait_for_port(port, self.process, 20)
        except RuntimeError as error:
            message = self.process.stderr.read().decode(errors="replace") if self.process.stderr else ""
            self.stop()
            raise RuntimeError(f"nginx did not start: {message.strip() or error}") from None

    def upstreams(self, at_least: int = 0, wait: float = 10.0) -> list[int]:
        """The port of the process that answered each request so far, in order (nginx's access log).

        nginx writes a request's line once the request is finished, which may be just after its client has read
        the response: with `at_least`, the log is read again (for up to `wait` seconds) until it has that many.
        """
        deadline = time.monotonic() + wait
        while True:
            log = self.folder / "access.log"
            ports = []
            for line in log.read_text(encoding="utf-8", errors="replace").splitlines() if log.exists() else []:
                address = line.split(" ", 1)[0]
                ports.append(int(address.rsplit(":", 1)[1]) if ":" in address else 0)
            if len(ports) >= at_least or time.monotonic() >= deadline:
                return ports
            time.sleep(0.05)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)  # finish what is under way, then stop
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stderr:
            self.process.stderr.close()
        shutil.rmtree(self.folder, ignore_errors=True)


class RoundRobin:
    """A small threaded HTTP proxy: each request to the next backend, with X-Forwarded-For, -Proto and -Host."""

    def __init__(self, port: int, backends: list[int]) -> None:
        self.port, self.backends = port, backends
        self._turn = itertools.cycle(range(len(backends)))
        self._lock = threading.Lock()
        self._log: list[int] = []
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive with the clients, as nginx

            def log_message(self, *args: object) -> None:  # quiet
                pass

            def _forward(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                with proxy._lock:
                    backend = proxy.backends[next(proxy._turn)]
                    proxy._log.append(backend)
                headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
                forwarded = self.headers.get("X-Forwarded-For")
                headers["X-Forwarded-For"] = f"{forwarded}, {self.client_address[0]}" if forwarded else self.client_address[0]
                headers["X-Forwarded-Proto"] = "http"
                headers["X-Forwarded-Host"] = self.headers.get("Host", f"{HOST}:{proxy.port}")
                connection = http.client.HTTPConnection(HOST, backend, timeout=120)
                try:
                    connection.request(self.command, self.path, body=body, headers=headers)
                    response = connection.getresponse()
                    data = response.read()
                    self.send_response_only(response.status, response.reason)
                    for name, value in response.getheaders():
                        if name.lower() not in HOP_BY_HOP and name.lower() != "content-length":
                            self.send_header(name, value)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    if self.command != "HEAD":
                        self.wfile.write(data)
                except OSError:
                    self.send_error(502)
                finally:
                    connection.close()

            do_GET = do_POST = do_HEAD = do_PUT = do_DELETE = _forward  # noqa: N815

        self.server = ThreadingHTTPServer((HOST, port), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def upstreams(self, at_least: int = 0, wait: float = 10.0) -> list[int]:
        """The backend each request went to, in order (noted before it is forwarded, so never late)."""
        with self._lock:
            return list(self._log)

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def start_proxy(port: int, backends: list[int], kind: str = "auto") -> Nginx | RoundRobin:
    """nginx in front of `backends` on `port` (kind "nginx", or "auto" when it is installed), else the
    round-robin proxy above (kind "python", or "auto" without nginx)."""
    if kind == "nginx" or (kind == "auto" and nginx_binary() is not None):
        return Nginx(port, backends)
    return RoundRobin(port, backends)

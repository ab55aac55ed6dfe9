"""A load test's browser: one keep-alive connection with its cookies and CSRF token, as a pupil's or a teacher's
browser would hold them, and the one way a load test counts a failed pupil.

    request (method, path, form + the last CSRF token) ──▶ the server ──▶ (status, Location, body); cookies and
    the page's new token kept for the next request

Used by suji.dev.classload (a live lesson) and suji.dev.homeload (homework), which share nothing else of each
other's: kept here so that neither imports the other back.
"""

from __future__ import annotations

import http.client
import re
import threading
from urllib.parse import urlencode

from suji.dev.loadtest import HOST

_TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


def record_failure(lock: threading.Lock, errors: list[str], message: str, go: threading.Barrier) -> None:
    """Count one pupil's failure, and free the pupils waiting at the start line (a broken start must not hang)."""
    with lock:
        errors.append(message)
    try:
        go.abort()
    except threading.BrokenBarrierError:
        pass


class Browser:
    """One browser: a keep-alive connection (from `source`, a loopback address, if given), its cookies, the last
    CSRF token it saw, the last response's body as sent (a PDF, say)."""

    def __init__(self, port: int, source: str | None = None) -> None:
        self.connection = http.client.HTTPConnection(HOST, port, timeout=120,
                                                     source_address=(source, 0) if source else None)  # fmt: skip
        self.last_body = b""
        self.cookies: dict[str, str] = {"suji_lang": "ja"}
        self.token = ""
        self.used = False  # whether the connection has carried a request (a server may close it when idle)

    def _send(self, method: str, path: str, body: str | None, headers: dict) -> http.client.HTTPResponse:
        try:
            self.connection.request(method, path, body=body, headers=headers)
            return self.connection.getresponse()
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            if not self.used:
                raise
            # A kept-alive connection the server had closed meanwhile: a browser sends again on a new one
            self.connection.close()
            self.connection.request(method, path, body=body, headers=headers)
            return self.connection.getresponse()

    def request(self, method: str, path: str, form: dict | None = None) -> tuple[int, str, str]:
        """(status, Location, body) of one request; cookies are kept, a CSRF token on the page remembered."""
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if form is not None:
            body = urlencode({**form, "csrf_token": self.token})
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        response = self._send(method, path, body, headers)
        self.used = True
        self.last_body = response.read()
        text = self.last_body.decode("utf-8", errors="replace")
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

"""The web app: `create_app()` builds a Flask app around the suji library (drills, API, games, lessons…).

Run it with `suji serve` (waitress) or any WSGI server: `gunicorn -w 4 'suji.web:create_app()'`.
"""

from __future__ import annotations

import importlib
import os
import secrets
import time
from pathlib import Path
from typing import Any

from flask import Flask, request
from flask.sessions import SecureCookieSessionInterface

from suji.core.resources import resource_dir
from suji.solver.odds.table import default_path
from suji.web import models
from suji.web.extensions import babel, csrf
from suji.web.i18n import select_locale

# Every response gets this policy: no inline script or style anywhere, so the JS and CSS live in static/.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; "
    "base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)
MAX_CONTENT_LENGTH = 64 * 1024


class _SessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session, with Secure also set whenever the request itself came over HTTPS."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or (bool(request) and request.is_secure)


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build and configure the app; `test_config` overrides the configuration (tests)."""
    app = Flask(
        __name__,
        instance_relative_config=True,
        instance_path=os.environ.get("SUJI_INSTANCE_PATH") or None,
        template_folder=str(resource_dir("templates")),
        static_folder="static",
    )
    https = os.environ.get("SUJI_HTTPS") == "1"
    app.config.from_mapping(
        MAX_CONTENT_LENGTH=MAX_CONTENT_LENGTH,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=https,
        # A drill page may stay open for a whole lesson: the token lives as long as the session.
        WTF_CSRF_TIME_LIMIT=None,
        BABEL_TRANSLATION_DIRECTORIES=str(resource_dir("translations")),
        BABEL_DEFAULT_LOCALE="ja",
        JSON_AS_ASCII=False,
        # The odds table (suji.solver.odds): $SUJI_ODDS_PATH or the user's data folder, as for the command line.
        ODDS_PATH=str(default_path()),
    )
    if test_config is not None:
        app.config.from_mapping(test_config)
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        secret = os.environ.get("SUJI_SECRET_KEY") or _instance_secret(Path(app.instance_path))
        app.config["SECRET_KEY"] = secret
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    app.json.sort_keys = False  # type: ignore[attr-defined]  # keys in the order `suji check --json` prints
    app.session_interface = _SessionInterface()

    babel.init_app(app, locale_selector=select_locale)
    csrf.init_app(app)
    models.init_app(app)  # the games' database and migrations (opened on first use)

    # One line per area. Others add theirs the same way (a module suji/web/<name>.py with a blueprint `bp`).
    _register(app, "suji.web.main")
    _register(app, "suji.web.drill")
    _register(app, "suji.web.api")
    _register(app, "suji.web.lessons")
    _register(app, "suji.web.worksheets")
    _register(app, "suji.web.games")
    _register(app, "suji.web.first")
    _register(app, "suji.web.classroom")

    from suji.web import errors

    errors.init_app(app)
    app.context_processor(_odds_context)
    app.after_request(_security_headers)
    return app


_odds_seen: dict[str, tuple[float, object]] = {}


def _odds_context() -> dict[str, Any]:
    """`odds_status()` for templates: the odds table's state, looked at most once a second per table path."""
    from flask import current_app

    from suji.solver.odds.build import table_status

    def odds_status() -> object:
        path = current_app.config["ODDS_PATH"]
        seen = _odds_seen.get(path)
        now = time.monotonic()
        if seen is None or now - seen[0] > 1.0:
            seen = _odds_seen[path] = (now, table_status(path))
        return seen[1]

    return {"odds_status": odds_status}


def _register(app: Flask, module: str) -> None:
    """Register the blueprint `bp` of `module`."""
    app.register_blueprint(importlib.import_module(module).bp)


def _instance_secret(instance: Path) -> str:
    """The secret key kept in the instance folder, created on first use (safe when several workers race)."""
    path = instance / "secret_key"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        for _ in range(50):  # another worker may be writing it right now
            key = path.read_text(encoding="ascii").strip()
            if key:
                return key
            time.sleep(0.02)
        raise RuntimeError(f"{path} is empty") from None
    key = secrets.token_hex(32)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(key)
    return key


def _security_headers(response):  # type: ignore[no-untyped-def]
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "same-origin"
    response.headers["X-Frame-Options"] = "DENY"
    # Pages follow the language cookie or Accept-Language.
    response.vary.add("Cookie")
    response.vary.add("Accept-Language")
    return response

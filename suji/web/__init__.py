"""The web app: `create_app()` builds a Flask app around the suji library (drills, API, games, lessons…).

Run it with `suji serve` (waitress) or any WSGI server: `gunicorn -c deploy/gunicorn.conf.py suji.web.wsgi:app`
(the README's "Deployment"). Before it serves anyone it checks its settings, its secret key and its database
(suji.web.startup) and refuses to start, with a message, when one is wrong.
"""

from __future__ import annotations

import importlib
import inspect
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask
from flask.json.provider import DefaultJSONProvider

from suji.core.caching import Fresh
from suji.core.resources import resource_dir
from suji.web import clients, models, startup
from suji.web import settings as web_settings
from suji.web.extensions import babel, csrf, login_manager
from suji.web.i18n import select_locale
from suji.web.settings import Settings
from suji.web.signing import Request, SessionInterface

# Every response gets this policy: no inline script or style anywhere, so the JS and CSS live in static/.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; "
    "base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)
MAX_CONTENT_LENGTH = 64 * 1024


COMPACT = {"separators": (",", ":")}  # what Flask asks of every JSON answer outside debug mode


class JsonProvider(DefaultJSONProvider):
    """Flask's JSON, text as it is (no \\u escapes) and keys in the order given, with one compact encoder."""

    ensure_ascii = False
    sort_keys = False  # keys in the order `suji check --json` prints

    def __init__(self, app: Flask) -> None:
        super().__init__(app)
        # json.dumps builds a new encoder for every call whose options are not its defaults; an encoder keeps
        # nothing from one call to the next, so one serves every answer of every thread.
        self._compact = json.JSONEncoder(
            ensure_ascii=False, sort_keys=False, separators=(",", ":"), default=self.default
        )

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if kwargs == COMPACT and self.ensure_ascii is False and self.sort_keys is False:
            return self._compact.encode(obj)
        return super().dumps(obj, **kwargs)


class App(Flask):
    """Flask, asking whether a hook or a view is a coroutine function the cheap way first; suji's JSON."""

    json_provider_class = JsonProvider

    def ensure_sync(self, func: Callable) -> Callable:
        # Flask asks inspect for every hook and view of every request (eight times for /api/check), and
        # inspect unwraps and type-checks each time. A function or bound method whose code has no coroutine
        # flag (and no marker saying it is one anyway) is synchronous: it is used as it is. Anything else goes
        # to Flask.
        # (A bound method shows its function's code and attributes; `hasattr` would raise and catch an
        # AttributeError for every plain function.)
        code = getattr(func, "__code__", None)
        if code is not None and not code.co_flags & inspect.CO_COROUTINE:
            if "_is_coroutine_marker" not in func.__dict__:
                return func
        return super().ensure_sync(func)


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build and configure the app; `test_config` overrides the configuration (tests)."""
    settings = Settings.from_environ()
    startup.check_settings(settings)  # a setting that cannot be read stops here, with a message naming it
    app = App(
        __name__,
        instance_relative_config=True,
        instance_path=settings.instance_path,
        template_folder=str(resource_dir("templates")),
        static_folder="static",
    )
    app.config.from_mapping(
        MAX_CONTENT_LENGTH=MAX_CONTENT_LENGTH,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=settings.https,
        # A drill page may stay open for a whole lesson: the token lives as long as the session.
        WTF_CSRF_TIME_LIMIT=None,
        BABEL_TRANSLATION_DIRECTORIES=str(resource_dir("translations")),
        BABEL_DEFAULT_LOCALE="ja",
        JSON_AS_ASCII=False,
    )
    if test_config is not None:
        app.config.from_mapping(test_config)
    settings = settings.with_config(app.config)
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    web_settings.init_app(app, settings)
    app.request_class = Request  # Flask's, its cookies parsed once per Cookie header (suji.web.signing)
    app.session_interface = SessionInterface()  # Flask's signed cookie, each signature checked once

    babel.init_app(app, locale_selector=select_locale)
    csrf.init_app(app)
    models.init_app(app)  # the games' database and migrations
    with app.app_context():
        startup.check_database(app)  # reachable and writable, or a message now rather than a 500 for a pupil
        app.config["SECRET_KEY"] = startup.secret_key(app, settings)  # one key for every process on the database
    login_manager.init_app(app)  # the signed-in teacher (suji.web.accounts)

    # One line per area. Others add theirs the same way (a module suji/web/<name>.py with a blueprint `bp`).
    _register(app, "suji.web.main")
    _register(app, "suji.web.drill")
    _register(app, "suji.web.api")
    _register(app, "suji.web.lessons")
    _register(app, "suji.web.worksheets")
    _register(app, "suji.web.games")
    _register(app, "suji.web.first")
    _register(app, "suji.web.classroom")
    _register(app, "suji.web.practice")
    _register(app, "suji.web.accounts")
    _register(app, "suji.web.classes")
    _register(app, "suji.web.pupils")

    from suji.web import errors, furigana, logs

    errors.init_app(app)  # and a database that fails answers 503 with Retry-After
    clients.init_app(app)  # a browser's signed id, for the limits on wrong codes
    logs.init_app(app)  # waitress's "Task queue depth" warning once a minute at most
    furigana.init_app(app)  # the furigana switch, and ruby on every Japanese page on its way out
    app.context_processor(_odds_context)
    app.context_processor(_costs_context)
    app.after_request(_security_headers)
    if settings.trusted_proxies:
        # Behind N proxies (nginx, a load balancer) the client's address, the scheme, the host, the port and the
        # mount point are what the proxies say in X-Forwarded-*, trusting the last N of each; never otherwise,
        # or any client could claim any address (and so a fresh allowance of wrong codes).
        from werkzeug.middleware.proxy_fix import ProxyFix

        hops = settings.trusted_proxies
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops, x_port=hops, x_prefix=hops)
    return app


_odds_seen: Fresh[str, object] = Fresh("odds_status", 1.0)


def _odds_context() -> dict[str, Any]:
    """`odds_status()` for templates: the odds table's state, looked at most once a second per table path."""
    from flask import current_app

    from suji.solver.odds.build import table_status

    def odds_status() -> object:
        return _odds_seen.get(current_app.config["ODDS_PATH"], table_status)

    return {"odds_status": odds_status}


def _costs_context() -> dict[str, Any]:
    """`dice_costs` for templates: what a re-rolled die and a set face cost (suji.rules.scoring)."""
    from suji.rules.scoring import REROLL_COST, SET_FACE_COST

    return {"dice_costs": {"reroll": REROLL_COST, "set_face": SET_FACE_COST}}


def _register(app: Flask, module: str) -> None:
    """Register the blueprint `bp` of `module`."""
    app.register_blueprint(importlib.import_module(module).bp)


SECURITY_HEADERS = (
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "same-origin"),
    ("X-Frame-Options", "DENY"),
)
SECURITY_HEADER_NAMES = frozenset(name.lower() for name, _ in SECURITY_HEADERS)
# Pages follow the language cookie or Accept-Language.
VARY = ("Cookie", "Accept-Language")
VARY_TEXT = ", ".join(VARY)
SECURITY_AND_VARY = (*SECURITY_HEADERS, ("Vary", VARY_TEXT))
SECURITY_AND_VARY_NAMES = SECURITY_HEADER_NAMES | {"vary"}


def _security_headers(response):  # type: ignore[no-untyped-def]
    headers = response.headers
    # One look at the names already there: `name in headers` raises and catches a KeyError (an HTTP exception in
    # werkzeug) for every absent name, which cost more than the rest of this hook.
    present = {name.lower() for name, _ in headers}
    if present.isdisjoint(SECURITY_AND_VARY_NAMES):  # the usual case (a JSON answer, a page): all added
        # (what `extend` does, without its two generators asking each argument whether it is a mapping)
        for name, value in SECURITY_AND_VARY:
            headers.add(name, value)
        return response
    if present.isdisjoint(SECURITY_HEADER_NAMES):
        headers.extend(SECURITY_HEADERS)
    else:
        for name, value in SECURITY_HEADERS:
            headers[name] = value
    if "vary" in present:
        for name in VARY:
            response.vary.add(name)
    else:  # set in one go: parsing the header set costs more than the rest of this hook
        headers["Vary"] = VARY_TEXT
    return response

"""Error answers: one JSON shape for every API and form endpoint, and a page in the reader's language.

Every error a person can cause is a `suji.core.errors.SujiError` (a code and its parameters); it is translated
here, at the edge, in the language of the request: the `lang` of a JSON body when one was given (the API sets
`g.error_lang`), else the page's language. JSON answers always have the shape
``{"error": {"code": ..., "message": ...}}`` (with ``"column"`` or ``"fields"`` when they say where); pages get
the error page. HTTP errors (400, 404, 405, 413, 500) and a missing CSRF token take the same two roads.

A database that cannot be reached or written (a server restarting, a network fault, a full or read-only disk, a
lock held too long) is no mistake of the app's: it answers 503 with Retry-After, in the same two shapes, and its
page touches nothing but cookies, so it can always be drawn. A request that failed is rolled back at its end
(`rollback_quietly`): with the database gone that rollback fails too, and it must not turn the answer into a
500 (or a bare page from the WSGI server).
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, g, jsonify, render_template, request
from flask_babel import gettext, lazy_gettext
from flask_wtf.csrf import CSRFError
from sqlalchemy import exc as sql_errors
from werkzeug.exceptions import HTTPException, InternalServerError
from werkzeug.wrappers import Response

from suji.core.errors import SujiError
from suji.web.i18n import select_locale

logger = logging.getLogger(__name__)
RETRY_AFTER_SECONDS = 15
# What a database that is not there (or cannot be written, or is too busy) raises through SQLAlchemy.
DATABASE_DOWN = (
    sql_errors.OperationalError,  # connection refused or lost, server shutting down, read-only, locked too long
    sql_errors.InterfaceError,
    sql_errors.DisconnectionError,
    sql_errors.TimeoutError,  # no free connection in the pool in time
)

# status → (code, title, explanation)
ERRORS: dict[int, tuple[str, object, object]] = {
    400: ("bad_request", lazy_gettext("Bad request"), lazy_gettext("The request could not be understood.")),
    404: ("not_found", lazy_gettext("Page not found"), lazy_gettext("There is no page at this address.")),
    405: (
        "method_not_allowed",
        lazy_gettext("Not allowed"),
        lazy_gettext("This address does not accept that kind of request."),
    ),
    413: ("too_large", lazy_gettext("Too much data"), lazy_gettext("The request is too large.")),
    429: (
        "busy",
        lazy_gettext("Too many requests"),
        lazy_gettext("Too many requests at once. Wait a moment."),
    ),
    503: (
        "database_unavailable",
        lazy_gettext("Not available just now"),
        lazy_gettext("The app cannot reach its data just now. Wait a moment, then try again."),
    ),
    500: (
        "server_error",
        lazy_gettext("Something went wrong"),
        lazy_gettext("Something went wrong on our side. Please try again."),
    ),
}
CSRF_MESSAGE = lazy_gettext(
    "The form has expired or is missing its security token. Reload the page and try again."
)


def init_app(app: Flask) -> None:
    """Register the handlers for SujiError, 400, 404, 405, 413, 500, a missing or wrong CSRF token and a database
    that is not there (503), and the quiet rollback at the end of every request that failed."""
    for error_class in DATABASE_DOWN:
        app.register_error_handler(error_class, _database_down)
    app.teardown_request(rollback_quietly)
    app.register_error_handler(SujiError, _suji_error)
    app.register_error_handler(CSRFError, _csrf_error)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(InternalServerError, _server_error)


def error_lang() -> str:
    """The language errors of this request are answered in."""
    return g.get("error_lang") or select_locale()


def wants_json() -> bool:
    """Whether this request is answered in JSON: the API, or a script that sent or asked for JSON."""
    if request.path.startswith("/api/") or request.is_json:
        return True
    best = request.accept_mimetypes.best_match(("text/html", "application/json"))
    return (
        best == "application/json" and request.accept_mimetypes[best] > request.accept_mimetypes["text/html"]
    )


def error_response(error: dict[str, Any], status: int = 400) -> Response:
    """The JSON body every error has: {"error": {"code", "message", …}} with `status`."""
    response = jsonify({"error": error})
    response.status_code = status
    return response


def render_error(status: int, code: str, title: object, message: object) -> Response | tuple[str, int]:
    """One error as JSON (for the API and scripts) or as a page, in the reader's language."""
    if wants_json():
        return error_response({"code": code, "message": str(message)}, status)
    return render_template("errors/error.html", status=status, title=title, message=message), status


def _suji_error(error: SujiError) -> Response | tuple[str, int]:
    """A mistake that escaped its view: 400, said in the reader's language."""
    lang = error_lang()
    if wants_json():
        return error_response(error.to_dict(lang), 400)
    return render_error(400, error.code, gettext("Bad request"), error.message(lang))


def _csrf_error(error: CSRFError) -> Response | tuple[str, int]:
    return render_error(400, "csrf", gettext("Bad request"), CSRF_MESSAGE)


def _http_error(error: HTTPException) -> Response | tuple[str, int] | HTTPException:
    status = error.code or 500
    if status < 400:  # redirects raised as exceptions (e.g. a missing trailing slash) pass through
        return error
    code, title, message = ERRORS.get(status, ERRORS[400] if status < 500 else ERRORS[500])
    return render_error(status, code, title, message)


def _server_error(error: Exception) -> Response | tuple[str, int]:
    code, title, message = ERRORS[500]
    return render_error(500, code, title, message)


def _database_down(error: Exception) -> Response:
    """503 with Retry-After: the database is not there (or cannot be written) just now; one line in the log."""
    logger.warning("database unavailable (%s %s): %s", request.method, request.path,
                   str(getattr(error, "orig", None) or error).strip().splitlines()[:1])  # fmt: skip
    rollback_quietly(error)
    code, title, message = ERRORS[503]
    found = render_error(503, code, title, message)
    response = found if isinstance(found, Response) else Response(found[0], status=found[1], mimetype="text/html")
    response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response.headers["Cache-Control"] = "no-store"
    return response


def rollback_quietly(error: BaseException | None = None) -> None:
    """Roll back what a failed request began; a database that is gone cannot fail the answer a second time."""
    if error is None:
        return
    from suji.web.extensions import db

    try:
        db.session.rollback()
    except sql_errors.SQLAlchemyError as failed:
        logger.info("rollback after a failed request failed too: %s", type(failed).__name__)

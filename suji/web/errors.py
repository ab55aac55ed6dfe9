"""Error pages: a clear message in the page's language for any bad request (JSON under /api/)."""

from __future__ import annotations

from flask import Flask, render_template, request
from flask_babel import gettext, lazy_gettext
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError
from werkzeug.wrappers import Response

from suji.web.api import error_response

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
    """Register the handlers for 400, 404, 405, 413, 500 and a missing or wrong CSRF token."""
    app.register_error_handler(CSRFError, _csrf_error)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(InternalServerError, _server_error)


def render_error(status: int, code: str, title: object, message: object) -> Response | tuple[str, int]:
    """One error as JSON (under /api/) or as a page, in the page's language."""
    if request.path.startswith("/api/"):
        return error_response(code, str(message), status)
    return render_template("errors/error.html", status=status, title=title, message=message), status


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

"""Flask extensions, created unbound here and initialised in `create_app` (so blueprints can import them)."""

from __future__ import annotations

from flask import current_app, session
from flask_babel import Babel
from flask_login import LoginManager
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy

from suji.web.signing import CsrfProtect

babel = Babel()
csrf = CsrfProtect()  # Flask-WTF's, each token's signature checked once (suji.web.signing)
db = SQLAlchemy()  # the games' database, bound in suji.web.models.init_app
migrate = Migrate()


class TeacherLogins(LoginManager):
    """Flask-Login's manager, its after-request hook (run for every response) looking the session up once."""

    def _update_remember_cookie(self, response):  # type: ignore[no-untyped-def]
        # Flask-Login's own rule: refresh or clear the remember-me cookie when the session asks for it.
        data = session._get_current_object()
        if "_remember" not in data and current_app.config.get("REMEMBER_COOKIE_REFRESH_EACH_REQUEST"):
            data["_remember"] = "set"
        if "_remember" in data:
            operation = data.pop("_remember", None)
            if operation == "set" and "_user_id" in data:
                self._set_cookie(response)
            elif operation == "clear":
                self._clear_cookie(response)
        return response


login_manager = TeacherLogins()  # the signed-in teacher (suji.web.accounts), in the signed session cookie

"""Flask extensions, created unbound here and initialised in `create_app` (so blueprints can import them)."""

from __future__ import annotations

from flask_babel import Babel
from flask_login import LoginManager
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy

from suji.web.signing import CsrfProtect

babel = Babel()
csrf = CsrfProtect()  # Flask-WTF's, each token's signature checked once (suji.web.signing)
db = SQLAlchemy()  # the games' database, bound in suji.web.models.init_app
migrate = Migrate()
login_manager = LoginManager()  # the signed-in teacher (suji.web.accounts), in the signed session cookie

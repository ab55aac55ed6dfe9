"""Flask extensions, created unbound here and initialised in `create_app` (so blueprints can import them)."""

from __future__ import annotations

import threading

from flask_babel import Babel
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect

babel = Babel()
csrf = CSRFProtect()
db = SQLAlchemy()  # the games' database, bound in suji.web.models.init_app
migrate = Migrate()

# Re-roll advice keeps a core busy for a second or several: one at a time in this process (the drill API and
# the games share it), so a class asking together cannot stall every other page; the others hear "busy".
advice_slot = threading.BoundedSemaphore(1)

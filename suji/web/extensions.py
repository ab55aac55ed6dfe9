"""Flask extensions, created unbound here and initialised in `create_app` (so blueprints can import them)."""

from __future__ import annotations

from flask_babel import Babel
from flask_wtf.csrf import CSRFProtect

babel = Babel()
csrf = CSRFProtect()

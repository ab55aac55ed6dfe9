"""The app for WSGI servers other than `suji serve`: `gunicorn -c deploy/gunicorn.conf.py suji.web.wsgi:app`.

Each worker process builds its own app from the environment (suji.web.settings) and checks it before it serves
anyone (suji.web.startup): a wrong setting, a shared database without SUJI_SECRET_KEY or a database that cannot
be written stops the worker with the message in the server's log.
"""

from __future__ import annotations

from suji.web import create_app

app = create_app()

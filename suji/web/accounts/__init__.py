"""Teacher accounts on the web: sign up, log in, log out, change the password (Flask-Login keeps who is in).

    rules      what a login name and a password must be; AccountError (pure, no Flask)
    passwords  argon2id hashes (argon2-cffi)
    models     the teachers and the refused logins (migration 0003_teachers)
    limits     wrong logins counted per account and per address, in the database
    store      the transactions the pages and `suji teacher …` share
    views      /teacher/signup, /teacher/login, /teacher/logout, /teacher/password

`teacher_login_required` guards every teacher page of the other areas (the classes); it sends a browser that
is not signed in to the login page, which comes back to the page after. Nothing is sent to the address: a
forgotten password is reset by the person who runs the server, `suji teacher reset-password EMAIL`.
"""

from __future__ import annotations

from suji.web.accounts import views  # noqa: E402,F401  (the routes join the blueprint)
from suji.web.accounts.access import bp, current_teacher, teacher_login_required

__all__ = ["bp", "current_teacher", "teacher_login_required"]

"""Bounded expensive work across every server process: slots kept in the database, one per client, N in all.

Data flows: a request that would cost real work (live advice, a worksheet, a new class) → `take(kind, client,
limit)` inserts a row in work_slots with the first free slot number below `limit` → the work → `release`. The
primary key (kind, slot) is what bounds the work: however many processes race, two cannot hold the same number,
and the unique (kind, client) lets each client hold one slot of a kind. A process that dies holding a slot
leaves a row that expires (`seconds`) and is cleared by the next `take`.

Refusals are exceptions with the seconds after which asking again makes sense: `Busy` (every slot taken: 503
with Retry-After) and `Held` (this client already holds one: 429 with Retry-After, and the job it holds, so that
asking again about the same job is waiting for it, not a second job). `refusal_response` says either in the
reader's language, as JSON for the API and scripts or as the error page.
"""

from __future__ import annotations

import hashlib
import math
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from functools import wraps
from typing import Any

from flask import request, session
from sqlalchemy import delete, func, insert, select
from sqlalchemy.exc import IntegrityError
from werkzeug.wrappers import Response

from suji.core.i18n import N_, translate
from suji.web.extensions import db
from suji.web.models import ensure_schema, utcnow
from suji.web.work_models import WorkSlot

ADVICE, HEAVY = "advice", "heavy"
HEAVY_SECONDS = 60.0  # a worksheet or a class whose process died stops counting after this
HEAVY_MESSAGES = {
    "busy": N_("Many worksheets and classes are being made right now. Try again in %(seconds)s s."),
    "one_at_a_time": N_("Your last worksheet or class is still being made. Try again in %(seconds)s s."),
}
_TABLE = WorkSlot.__table__


@dataclass(frozen=True)
class Slot:
    """A slot held: free it with `release` (only its holder can: the token)."""

    kind: str
    number: int
    client: str
    job: str
    token: str


class Refused(Exception):
    """No slot for this work now; `retry_after` seconds later asking again makes sense."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(retry_after)
        self.retry_after = retry_after


class Busy(Refused):
    """Every slot of the kind is taken (by any process)."""


class Held(Refused):
    """This client already holds a slot of the kind, for `job`."""

    def __init__(self, retry_after: int, job: str) -> None:
        super().__init__(retry_after)
        self.job = job


def client_key() -> str:
    """Who is asking: the browser's session (its CSRF token), else its address."""
    token = session.get("csrf_token")
    return f"session:{token}" if token else f"address:{request.remote_addr}"


def _hashed(client: str) -> str:
    return hashlib.sha256(f"work-slot:{client}".encode()).hexdigest()


def seconds_text(seconds: float) -> int:
    """Whole seconds for Retry-After and for people: at least 1."""
    return max(1, math.ceil(seconds))


def take(kind: str, client: str, limit: int, seconds: float, job: str = "", typical: float = 1.0) -> Slot:
    """Hold one of the `limit` slots of `kind` for `client` (given up after `seconds` should this process die).

    Raises Held when the client holds one already, Busy when all are taken; `typical` is how long one piece of
    this work takes, for the Retry-After of a refusal.
    """
    ensure_schema()
    who = _hashed(client)
    token = secrets.token_hex(16)
    for _ in range(limit + 3):  # each try loses only to another process taking a slot at the same moment
        now = utcnow()
        with db.engine.begin() as connection:
            connection.execute(delete(_TABLE).where(_TABLE.c.kind == kind, _TABLE.c.expires_at < now))
            rows = connection.execute(
                select(_TABLE.c.slot, _TABLE.c.client, _TABLE.c.job).where(_TABLE.c.kind == kind)
            ).all()
        for row in rows:
            if row.client == who:
                raise Held(seconds_text(typical), row.job)
        free = sorted(set(range(limit)) - {row.slot for row in rows})
        if not free:
            raise Busy(seconds_text(typical))
        try:
            with db.engine.begin() as connection:
                connection.execute(insert(_TABLE).values(
                    kind=kind, slot=free[0], client=who, job=job, token=token, taken_at=now,
                    expires_at=now + timedelta(seconds=seconds),
                ))  # fmt: skip
        except IntegrityError:
            continue  # that number, or a slot for this client, was taken meanwhile: look again
        return Slot(kind, free[0], who, job, token)
    raise Busy(seconds_text(typical))


def release(slot: Slot) -> None:
    """Free a slot (nothing happens if it expired and another holder has it now)."""
    with db.engine.begin() as connection:
        connection.execute(delete(_TABLE).where(
            _TABLE.c.kind == slot.kind, _TABLE.c.slot == slot.number, _TABLE.c.token == slot.token
        ))  # fmt: skip


def working_on(kind: str, job: str) -> bool:
    """Whether some slot of `kind` (of any client, in any process) is doing `job` now."""
    ensure_schema()
    with db.engine.connect() as connection:
        found = connection.execute(
            select(func.count()).where(
                _TABLE.c.kind == kind, _TABLE.c.job == job, _TABLE.c.expires_at >= utcnow()
            )
        ).scalar()
    return bool(found)


def taken(kind: str) -> int:
    """How many slots of `kind` are held now."""
    ensure_schema()
    with db.engine.connect() as connection:
        return connection.execute(
            select(func.count()).where(_TABLE.c.kind == kind, _TABLE.c.expires_at >= utcnow())
        ).scalar() or 0


@contextmanager
def holding(kind: str, limit: int, seconds: float, typical: float = 1.0) -> Iterator[Slot]:
    """Hold a slot of `kind` for this request's client while the block runs (Busy or Held when there is none)."""
    slot = take(kind, client_key(), limit, seconds, typical=typical)
    try:
        yield slot
    finally:
        release(slot)


def refusal_response(
    refused: Refused, code: str, message: str, status: int | None = None
) -> Response | tuple[str, int]:
    """A refusal as JSON (the API's error shape, with "retry_after") or as the error page, with Retry-After.

    Busy answers 503, Held 429, unless `status` says otherwise.
    """
    from flask import render_template
    from flask_babel import gettext

    from suji.web.errors import error_response, wants_json

    status = status or (429 if isinstance(refused, Held) else 503)
    if wants_json() or request.path.endswith(".json"):  # a JSON address (a sheet's JSON) answers JSON too
        response = error_response({"code": code, "message": message, "retry_after": refused.retry_after}, status)
    else:
        title = gettext("Busy") if status == 503 else gettext("Too many requests")
        html = render_template("errors/error.html", status=status, title=title, message=message)
        response = Response(html, status=status, mimetype="text/html")
    response.headers["Retry-After"] = str(refused.retry_after)
    return response


def heavy(view: Callable[..., Any]) -> Callable[..., Any]:
    """A view whose work is bounded over every process: one at a time per client, HEAVY_LIMIT in all (the
    worksheets and new classes); refused with 503 or 429 and Retry-After, in the reader's language."""

    @wraps(view)
    def bounded_view(*args: Any, **kwargs: Any) -> Any:
        from flask import current_app

        from suji.web.errors import error_lang

        try:
            slot = take(HEAVY, client_key(), current_app.config["HEAVY_LIMIT"], HEAVY_SECONDS)
        except Refused as refused:
            code = "one_at_a_time" if isinstance(refused, Held) else "busy"
            message = translate(HEAVY_MESSAGES[code], error_lang(), seconds=refused.retry_after)
            return refusal_response(refused, code, message)
        try:
            return view(*args, **kwargs)
        finally:
            # The view's own transaction ends first, as the request's end would end it: on SQLite it may hold the
            # write lock (a read after its commit begins another), which freeing the slot needs.
            db.session.close()
            release(slot)

    return bounded_view

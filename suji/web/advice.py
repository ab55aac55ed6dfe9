"""Re-roll advice for the web: lookups in the odds table, else live solving off the request threads.

Data flows: a roll → the odds table when it is there (a few thousand lookups in the request's thread, in
milliseconds) → else the outcomes' best scores kept in the database (advice_outcomes, by the dice: what any
process solved serves every process) → else a question in the live queue: a slot in the database
(suji.web.slots: one per client, SUJI_ADVICE_QUEUE over every process) and a job on this process's advice
runner, one thread that solves the outcomes on the solver's pool (suji.web.solver_pool), stores them and frees
the slot. A request waits for the answer at most SUJI_ADVICE_WAIT seconds, and at most MAX_WAITERS request
threads of a process wait at once, so questions never hold the threads that serve pages.

What the callers answer: the advice (200); AdvicePending, "ask again in N s" (202 with Retry-After: the same
question then finds the stored answer); AdviceBusy, the queue is full (503 with Retry-After); AlreadyAsking,
this client's other question is still being worked out (429). Asking again about one's own pending dice is
waiting for them, not a second question.
"""

from __future__ import annotations

import json
import logging
import queue
import secrets
import threading

from flask import current_app
from sqlalchemy import delete, insert, select
from sqlalchemy.exc import IntegrityError
from werkzeug.wrappers import Response

from suji.core.caching import LruDict
from suji.core.i18n import N_, translate
from suji.rules.dice import Roll
from suji.solver.advice import Advice, RollKey, best_scores, choices, options_from_scores
from suji.solver.odds import TableError, table_or_none
from suji.web import slots, solver_pool
from suji.web.extensions import db
from suji.web.models import ensure_schema, utcnow
from suji.web.work_models import AdviceOutcome

log = logging.getLogger(__name__)
MAX_WAITERS = 2  # request threads of one process that may wait for live advice at once
TYPICAL_SECONDS = 2.0  # one live advice on two processes takes 0.6–2 s (README): for Retry-After
SLOT_SECONDS = 120.0  # a question whose process died stops counting after this
MAX_STORED = 2000  # advice outcome rows kept (about 15 KB each), the oldest deleted first
_OUTCOMES = AdviceOutcome.__table__

# A cache of what the database holds (a pure function of the dice), so a process reads each roll once.
_local: LruDict[str, dict] = LruDict("advice_outcomes")
_waiters = threading.BoundedSemaphore(MAX_WAITERS)
_jobs: dict[str, threading.Event] = {}  # the questions this process is working on, by roll key
_jobs_lock = threading.Lock()
_runner: threading.Thread | None = None
_queue: queue.SimpleQueue = queue.SimpleQueue()  # the questions this process's runner works through


class AlreadyAsking(Exception):
    """This client already waits for another live advice: one question at a time each."""


class AdviceRefused(Exception):
    """No advice yet: ask again `retry_after` seconds later."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(retry_after)
        self.retry_after = retry_after


class AdvicePending(AdviceRefused):
    """The question is being worked out (or waits its turn); its answer will be kept."""


class AdviceBusy(AdviceRefused):
    """The live queue is full (over every server process)."""


def roll_key(roll: Roll) -> str:
    """What the outcomes of a roll depend on: its number and operator dice as multisets, and its targets."""
    numbers = ",".join(str(n) for n in sorted(roll.number_dice))
    operators = ",".join(sorted(roll.operator_dice))
    return f"{numbers}|{operators}|{','.join(str(t) for t in roll.targets)}"


def _encode(scores: dict[RollKey, int | None]) -> str:
    return json.dumps(
        {"|".join((",".join(map(str, n)), ",".join(o))): s for (n, o), s in scores.items()},
        ensure_ascii=False, separators=(",", ":"),
    )  # fmt: skip


def _decode(text: str) -> dict[RollKey, int | None]:
    scores: dict[RollKey, int | None] = {}
    for key, score in json.loads(text).items():
        numbers, operators = key.split("|")
        scores[(tuple(int(n) for n in numbers.split(",")), tuple(operators.split(",")))] = score
    return scores


def stored_scores(key: str) -> dict | None:
    """The outcomes of a roll solved live before, by any process, or None."""
    found = _local.get(key)
    if found is not None:
        return found
    ensure_schema()
    with db.engine.connect() as connection:
        text = connection.execute(select(_OUTCOMES.c.scores_json).where(_OUTCOMES.c.roll_key == key)).scalar()
    if text is None:
        return None
    scores = _decode(text)
    _local.put(key, scores)
    return scores


def store_scores(key: str, scores: dict) -> None:
    """Keep the outcomes of a roll for every process (the oldest rows beyond MAX_STORED go)."""
    _local.put(key, scores)
    ensure_schema()
    try:
        with db.engine.begin() as connection:
            connection.execute(insert(_OUTCOMES).values(roll_key=key, scores_json=_encode(scores), created_at=utcnow()))
    except IntegrityError:
        return  # another process stored the same dice first
    with db.engine.begin() as connection:
        oldest_kept = (
            select(_OUTCOMES.c.created_at).order_by(_OUTCOMES.c.created_at.desc()).offset(MAX_STORED - 1).limit(1)
        ).scalar_subquery()
        connection.execute(delete(_OUTCOMES).where(_OUTCOMES.c.created_at < oldest_kept))


def advice_for(
    roll: Roll,
    rerolled: int = 0,
    set_faces: int = 0,
    table_path: str | None = None,
    client: str | None = None,
) -> Advice:
    """The advice for a standard roll: from the odds table when usable, else from the live queue (see above).

    `client` names who asks (suji.web.slots.client_key). Raises DiceError("not_standard") for dice the standard
    set cannot show, AdvicePending, AdviceBusy or AlreadyAsking when there is no answer yet.
    """
    found = choices(roll)
    keys = found.keys()
    table = table_or_none(table_path)
    if table is not None and table.covers(roll.number_dice, roll.operator_dice, roll.targets):
        try:
            return options_from_scores(found, best_scores(roll, keys, table=table), rerolled, set_faces)
        except TableError:
            pass  # the file stopped reading (replaced or damaged): it is checked again, the live queue answers
    key = roll_key(roll)
    scores = stored_scores(key)
    if scores is None:
        scores = _live(roll, keys, key, client or f"anonymous:{secrets.token_hex(8)}")
    return options_from_scores(found, scores, rerolled, set_faces)


def _live(roll: Roll, keys: list, key: str, client: str) -> dict:
    """The outcomes from the live queue, waited for a bounded time; AdviceRefused or AlreadyAsking without."""
    config = current_app.config  # the settings (suji.web.settings), as a test or an embedding app may change them
    with _jobs_lock:
        event = _jobs.get(key)
    if event is None and not slots.working_on(slots.ADVICE, key):
        try:
            slot = slots.take(
                slots.ADVICE, client, config["ADVICE_QUEUE"], SLOT_SECONDS, job=key, typical=TYPICAL_SECONDS
            )
        except slots.Held as held:
            if held.job != key:
                raise AlreadyAsking(client) from None
            # Its own question again: it waits for the answer (here, when this process works on it).
        except slots.Busy as busy:
            raise AdviceBusy(busy.retry_after) from None
        else:
            event = _submit(key, roll, keys, slot)
    if event is None:
        with _jobs_lock:
            event = _jobs.get(key)
    if event is not None and config["ADVICE_WAIT"] > 0 and _waiters.acquire(blocking=False):
        try:
            event.wait(config["ADVICE_WAIT"])
        finally:
            _waiters.release()
    scores = stored_scores(key)
    if scores is None:
        with _jobs_lock:
            ahead = len(_jobs)
        raise AdvicePending(slots.seconds_text(TYPICAL_SECONDS * max(1, ahead)))
    return scores


def _submit(key: str, roll: Roll, keys: list, slot: slots.Slot) -> threading.Event:
    """Queue a question on this process's advice runner; the event is set once it is answered or failed."""
    global _runner
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    event = threading.Event()
    with _jobs_lock:
        _jobs[key] = event
        if _runner is None or not _runner.is_alive():
            # A daemon thread: a server that ends does not wait for a question (its slot expires by itself).
            _runner = threading.Thread(target=_run, daemon=True, name="suji-advice")
            _runner.start()
    _queue.put((app, key, roll, keys, slot, event))
    return event


def _run() -> None:
    """The advice runner: one question after another, for the life of the process."""
    while True:
        _work(*_queue.get())


def _work(app, key: str, roll: Roll, keys: list, slot: slots.Slot, event: threading.Event) -> None:  # noqa: ANN001
    """Solve one question on the pool, keep its outcomes, free its slot, wake who waits."""
    try:
        with app.app_context():
            try:
                store_scores(key, solver_pool.outcome_scores(roll, keys))
            except Exception:  # a failure must not leave the slot held or the waiters waiting
                log.exception("live advice for %s failed", key)
            finally:
                try:
                    slots.release(slot)
                except Exception:  # the database is away: the slot expires by itself
                    log.exception("could not free the advice slot of %s", key)
    finally:
        with _jobs_lock:
            _jobs.pop(key, None)
        event.set()


MESSAGES = {
    "already_asking": N_("Your last question to the solver is still being worked out. Wait for its answer."),
    "advice_busy": N_("The solver is busy with other questions. Try again in %(seconds)s s."),
    "advice_pending": N_("The solver is still working on these dice. Ask again in %(seconds)s s."),
}


def refusal_response(error: Exception, lang: str) -> Response | tuple[str, int]:
    """What a refused advice question answers in `lang` (the API's and the games' alike): 429 AlreadyAsking,
    503 AdviceBusy and 202 AdvicePending, the last two with Retry-After; always the API's error shape."""
    from suji.web.errors import error_response

    if isinstance(error, AlreadyAsking):
        return error_response({"code": "already_asking", "message": translate(MESSAGES["already_asking"], lang)}, 429)
    assert isinstance(error, AdviceRefused)
    seconds = error.retry_after
    code = "advice_busy" if isinstance(error, AdviceBusy) else "advice_pending"
    message = translate(MESSAGES[code], lang, seconds=seconds)
    response = error_response({"code": code, "message": message, "retry_after": seconds}, 503 if code == "advice_busy" else 202)
    response.headers["Retry-After"] = str(seconds)
    return response


def pending_jobs() -> int:
    """How many live questions this process is working on or has queued."""
    with _jobs_lock:
        return len(_jobs)


def forget() -> None:
    """Forget the outcomes kept in this process (tests)."""
    _local.clear()

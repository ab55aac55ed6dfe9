"""Practice's storage and transactions: the pupil's signed cookie, serving the next item, recording an answer.

Who a pupil is: a cookie (`suji_practice`) signed with the app's secret, holding a random public id, the
sign-in code when this device knows it, and the problem being shown. Nothing is stored for a visitor who only
looks: the profile row is made by the first answer (or by asking for a sign-in code), and a cookie whose
profile was deleted starts a new one. The problem shown is in the cookie too, so asking again before answering
gives the same problem, on every tab of the device, without writing anything.

A problem's id is a token signed with the app's secret: the pupil's public id (a hash of it), the item, a random
name, when it was served, the chance the model gave and why it was chosen. An answer names it; a forged or
someone else's id is unknown (404), and the database refuses a second answer to the same name (409).

One answer is one transaction: the profile row is locked (SELECT … FOR UPDATE on PostgreSQL; SQLite takes the
write lock at BEGIN, suji.web.models), then the item's row; the update is worked out by the library
(suji.learner.model, selection, mastery) on what was read under the lock, and written with the answer's row.
Two answers at the same moment queue; neither is lost, and the same problem answered twice counts once.

A pupil of a teacher's class practises on a profile the class keeps (suji.web.classes): their card puts it in
this cookie on any device; the retention below leaves it to the class's (KEPT_ELSEWHERE), and the class's
adaptive homework serves it items of its own (choose_pending) kept in the class's rows.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta

from flask import current_app, g, request
from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy import Select, delete, select

from suji.core.caching import Fresh, LruDict, bounded
from suji.learner import bank as item_bank
from suji.learner.items import Item, certify
from suji.learner.mastery import Days, overall_rating, reference, typical_shares
from suji.learner.model import (
    ItemRating,
    Learner,
    Rating,
    best_route,
)
from suji.learner.selection import ADAPTIVE, MODES, REVIEW_GAP, ItemStats, choose
from suji.web.extensions import db
from suji.web.models import utcnow
from suji.web.practice.models import PracticeAnswer, PracticeItemStat, PracticeProfile, PracticeSigninFailure
from suji.web.settings import local_zone

COOKIE = "suji_practice"
DEFAULT_RETENTION_DAYS = 365
SIGNIN_WINDOW = timedelta(minutes=10)
SIGNIN_FAILURES = 10  # distinct wrong codes per browser and window
SIGNIN_ADDRESS_FAILURES = 200  # … and per address (a school's NAT: all its pupils together)
MAX_SECONDS = 24 * 3600.0
STATS_SECONDS = 5.0  # how old the item corrections the chooser reads may be (the database is the truth)
RECENT_KEYS = 60
HISTORY = 400  # answers the progress chart and the JSON history show


# The profiles another area keeps for as long as it keeps its own data (a class's pupils, suji.web.classes):
# each callable gives a SELECT of profile ids that the retention purge below leaves alone.
KEPT_ELSEWHERE: list[Callable[[], Select]] = []


class Conflict(Exception):
    """The problem was answered already."""


class UnknownProblem(Exception):
    """No such problem for this pupil (a forged, old or someone else's id)."""


@dataclass(frozen=True)
class Pending:
    """The problem shown: the item, a random name, when it was served, the model's chance, why, hints seen."""

    key: str
    nonce: str
    served: int  # seconds since the epoch (UTC)
    predicted: float
    mode: str = ADAPTIVE
    family: str | None = None
    hints: int = 0

    def to_list(self) -> list:
        return [self.key, self.nonce, self.served, self.predicted, self.mode, self.family, self.hints]

    @classmethod
    def from_list(cls, data: object) -> Pending | None:
        if not isinstance(data, list) or len(data) != 7:
            return None
        key, nonce, served, predicted, mode, family, hints = data
        if not (isinstance(key, str) and isinstance(nonce, str) and isinstance(served, int)):
            return None
        if not isinstance(predicted, int | float) or mode not in MODES:
            return None
        if not (family is None or isinstance(family, str)) or not isinstance(hints, int):
            return None
        return cls(key, nonce, served, float(predicted), mode, family, max(0, min(hints, 4)))

    @property
    def served_at(self) -> datetime:
        return from_epoch(self.served)


def epoch(moment: datetime) -> int:
    """Whole seconds since the epoch of a stored moment (naive UTC, as every stored time)."""
    return int(moment.replace(tzinfo=UTC).timestamp())


def from_epoch(seconds: int) -> datetime:
    return datetime.fromtimestamp(seconds, UTC).replace(tzinfo=None)


@dataclass(frozen=True)
class Holder:
    """What the pupil's cookie holds: the public id, the sign-in code if this device knows it, the problem."""

    public_id: str
    code: str | None = None
    pending: Pending | None = None


def _serializer(salt: str) -> URLSafeSerializer:
    return URLSafeSerializer(current_app.config["SECRET_KEY"], salt=salt)


def read_holder() -> Holder:
    """The pupil of this request: from the signed cookie, else a new public id (nothing stored yet)."""
    if "practice_holder" in g:
        return g.practice_holder
    holder = None
    raw = request.cookies.get(COOKIE, "")
    if 0 < len(raw) <= 2000:
        try:
            data = _serializer("practice-cookie").loads(raw)
        except (BadSignature, ValueError, TypeError):
            data = None
        if isinstance(data, dict) and isinstance(data.get("p"), str) and 16 <= len(data["p"]) <= 32:
            code = data.get("c") if isinstance(data.get("c"), str) else None
            holder = Holder(data["p"], code, Pending.from_list(data.get("q")))
    if holder is None:
        holder = Holder(secrets.token_urlsafe(16))
        g.practice_cookie_new = True
    g.practice_holder = holder
    return holder


def keep_holder(holder: Holder | None) -> None:
    """Set the cookie to `holder` with this request's answer (None: clear it)."""
    g.practice_holder = holder
    g.practice_cookie_set = True


def cookie_value(holder: Holder) -> str:
    data: dict = {"p": holder.public_id}
    if holder.code:
        data["c"] = holder.code
    if holder.pending:
        data["q"] = holder.pending.to_list()
    return _serializer("practice-cookie").dumps(data)


def retention_days() -> int:
    raw = current_app.config.get("SUJI_PRACTICE_RETENTION_DAYS")
    try:
        days = int(raw) if raw is not None else DEFAULT_RETENTION_DAYS
    except ValueError:
        days = DEFAULT_RETENTION_DAYS
    return max(1, days)


def time_limit() -> float | None:
    """SUJI_PRACTICE_TIME_LIMIT seconds, when time should weigh on the outcome (off by default)."""
    raw = current_app.config.get("SUJI_PRACTICE_TIME_LIMIT")
    try:
        limit = float(raw) if raw is not None else None
    except ValueError:
        return None
    return limit if limit and limit > 0 and math.isfinite(limit) else None


# ---- the problem's id ----


def _holder_tag(public_id: str) -> str:
    return hashlib.sha256(f"practice:{public_id}".encode()).hexdigest()[:16]


def problem_id(holder: Holder, pending: Pending) -> str:
    return _serializer("practice-problem").dumps([_holder_tag(holder.public_id), *pending.to_list()[:6]])


def problem_of(holder: Holder, token: object) -> Pending:
    """The problem a token names for this pupil, or UnknownProblem."""
    if not isinstance(token, str) or len(token) > 400:
        raise UnknownProblem
    try:
        data = _serializer("practice-problem").loads(token)
    except (BadSignature, ValueError, TypeError):
        raise UnknownProblem from None
    if not isinstance(data, list) or len(data) != 7 or data[0] != _holder_tag(holder.public_id):
        raise UnknownProblem
    pending = Pending.from_list([*data[1:], 0])
    if pending is None or item_bank.load().get(pending.key) is None:
        raise UnknownProblem
    if holder.pending is not None and holder.pending.nonce == pending.nonce:
        pending = replace(pending, hints=holder.pending.hints)  # the hints the page showed
    return pending


# ---- reading ----


def bank() -> item_bank.Bank:
    return item_bank.load()


_per_bank: LruDict[tuple[int, str], dict[str, float]] = LruDict("practice_bank_figures")


def references() -> dict[str, float]:
    """The difficulty of a typical item of each family (suji.learner.mastery.reference), once per bank."""
    key = (id(bank()), "references")
    found = _per_bank.get(key)
    if found is None:
        found = reference(bank())
        _per_bank.put(key, found)
    return found


def shares() -> dict[str, float]:
    """How often a typical problem needs each family (suji.learner.mastery.typical_shares), once per bank."""
    key = (id(bank()), "shares")
    found = _per_bank.get(key)
    if found is None:
        found = typical_shares(bank())
        _per_bank.put(key, found)
    return found


def overall(learner: Learner) -> float:
    """The rating pages and the API show (suji.learner.mastery.overall_rating)."""
    return overall_rating(learner, shares())


def profile_of(holder: Holder) -> PracticeProfile | None:
    return db.session.scalar(select(PracticeProfile).where(PracticeProfile.public_id == holder.public_id))


def learner_of(profile: PracticeProfile | None) -> Learner:
    return _learner_of_text(profile.learner_json) if profile is not None else Learner()


@bounded("practice_learner")
def _learner_of_text(text: str) -> Learner:
    # Keyed by the stored text itself: a cached value can never belong to another or a changed profile.
    return Learner.from_dict(json.loads(text))


def days_of(profile: PracticeProfile | None) -> Days:
    if profile is None:
        return Days()
    return Days(profile.days_last, profile.days_streak, profile.days_longest)


def _load_stats(url: str) -> ItemStats:
    rows = db.session.execute(
        select(PracticeItemStat.item_key, PracticeItemStat.correction, PracticeItemStat.plays)
    ).all()
    return ItemStats.of(bank(), {key: ItemRating(Rating(value, plays=plays)) for key, value, plays in rows})


_stats: Fresh[str, ItemStats] = Fresh("practice_item_stats", STATS_SECONDS)


def item_stats() -> ItemStats:
    """What answers taught about the items, read again from the database when older than STATS_SECONDS."""
    return _stats.get(current_app.config["SQLALCHEMY_DATABASE_URI"], _load_stats)


def local_day(moment: datetime) -> date:
    """The local day (SUJI_DAILY_TZ, as the daily puzzle's) of a stored moment."""
    return moment.replace(tzinfo=UTC).astimezone(local_zone()).date()


def answered(profile: PracticeProfile | None, nonce: str) -> bool:
    if profile is None:
        return False
    return (
        db.session.scalar(
            select(PracticeAnswer.id).where(
                PracticeAnswer.profile_id == profile.id, PracticeAnswer.problem == nonce
            )
        )
        is not None
    )


def recent_keys(profile: PracticeProfile | None, limit: int = RECENT_KEYS) -> list[str]:
    if profile is None:
        return []
    return list(
        db.session.scalars(
            select(PracticeAnswer.item_key)
            .where(PracticeAnswer.profile_id == profile.id)
            .order_by(PracticeAnswer.id.desc())
            .limit(limit)
        )
    )


# ---- serving ----


def pending_for(item: Item, learner: Learner, mode: str, now: datetime) -> Pending:
    """A problem of a chosen item (a mistake tried again), with the chance the model gives the pupil on it."""
    stats = item_stats()
    logit = best_route(learner, item, float(stats.corrections[bank().index[item.key]]))[0]
    chance = 1.0 / (1.0 + math.exp(-max(-40.0, logit)))
    return Pending(item.key, secrets.token_urlsafe(9), epoch(now), round(chance, 4), mode)


def next_problem(
    holder: Holder, now: datetime | None = None
) -> tuple[Holder, Pending, Item, PracticeProfile | None]:
    """The problem to show: the one the cookie holds while it is unanswered, else a new choice."""
    now = now or utcnow()
    profile = profile_of(holder)
    if holder.pending is not None and not answered(profile, holder.pending.nonce):
        item = bank().get(holder.pending.key)
        if item is not None:
            return holder, holder.pending, item, profile
    pending, item = choose_pending(profile, now)
    holder = replace(holder, pending=pending)
    keep_holder(holder)
    return holder, pending, item, profile


def choose_pending(profile: PracticeProfile | None, now: datetime) -> tuple[Pending, Item]:
    """A new problem chosen for the pupil by the learner model (also for a class's adaptive homework, which
    keeps the problem shown in its own row rather than in the cookie: suji.web.classes.work)."""
    learner = learner_of(profile)
    stats = item_stats()
    recent = recent_keys(profile)
    rng = random.Random(secrets.randbits(64))
    today = local_day(now)
    since = profile.since_review if profile is not None else REVIEW_GAP
    for _ in range(3):
        choice = choose(bank(), learner, stats, recent, rng, today, references(), since)
        if certify(
            choice.item, every_route=False
        ):  # true for a bank the tests passed; never serve one that is not
            break
        recent = [choice.item.key, *recent]
    pending = Pending(
        choice.item.key,
        secrets.token_urlsafe(9),
        epoch(now),
        round(choice.predicted, 4),
        choice.mode,
        choice.family,
    )
    return pending, choice.item


def purge_expired(now: datetime | None = None, days: int | None = None) -> int:
    """Delete the profiles (with their answers) whose last answer is more than `days` old (the retention
    period by default), and refused sign-ins older than the rate limit's window. Returns the profiles deleted.
    Runs whenever a profile is made; tests call it directly."""
    now = now or utcnow()
    cutoff = now - timedelta(days=days if days is not None else retention_days())
    stale = PracticeProfile.last_seen_at < cutoff
    for kept in KEPT_ELSEWHERE:  # a class's pupil's practice goes with the class, not after a year unused
        stale = stale & PracticeProfile.id.not_in(kept())
    old = select(PracticeProfile.id).where(stale).scalar_subquery()
    db.session.execute(delete(PracticeAnswer).where(PracticeAnswer.profile_id.in_(old)))
    gone = db.session.execute(delete(PracticeProfile).where(stale)).rowcount
    db.session.execute(
        delete(PracticeSigninFailure).where(PracticeSigninFailure.created_at < now - SIGNIN_WINDOW)
    )
    db.session.commit()
    return gone or 0


def latest(profile: PracticeProfile | None, limit: int = HISTORY) -> list[PracticeAnswer]:
    """The pupil's last `limit` answers, newest first."""
    if profile is None:
        return []
    return list(
        db.session.scalars(
            select(PracticeAnswer)
            .where(PracticeAnswer.profile_id == profile.id)
            .order_by(PracticeAnswer.id.desc())
            .limit(limit)
        )
    )


def history(profile: PracticeProfile | None, limit: int = HISTORY) -> list[PracticeAnswer]:
    """The pupil's last `limit` answers, oldest first (what the chart draws)."""
    return latest(profile, limit)[::-1]


def mistakes(profile: PracticeProfile | None, limit: int = 5) -> list[PracticeAnswer]:
    """The latest answers that missed their goal on an item not made since, newest first, one per item."""
    made, seen, found = set(), set(), []
    for row in latest(profile):
        if row.made_goal:
            made.add(row.item_key)
        elif row.item_key not in made and row.item_key not in seen and bank().get(row.item_key) is not None:
            found.append(row)
        seen.add(row.item_key)
        if len(found) >= limit:
            break
    return found

"""The games' database: players, games, rounds, answers and daily puzzle entries (Flask-SQLAlchemy).

SQLite in the instance folder by default (WAL, a busy timeout, and every transaction taking the write lock at
BEGIN so two writers queue instead of failing), or any SQLAlchemy URL from SUJI_DATABASE_URL (PostgreSQL when
several app servers share one database). The schema is made by the Alembic migrations in suji/web/migrations/,
applied automatically the first time the games need the database.

Every row that a request changes carries a version number (SQLAlchemy's version counter): an update made from
a stale copy, such as a form sent twice or two requests at once, fails instead of overwriting.
"""

from __future__ import annotations

import hashlib
import threading
from datetime import UTC, date, datetime
from pathlib import Path

from flask import Flask, current_app
from sqlalchemy import (
    Date,
    DateTime,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    event,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Mapped, mapped_column, relationship

from suji.play.games import (
    FINISHED,
    PLAYING,
    Hand,
    Match,
    ScoreTable,
    dice_text,
    number_faces,
    operator_faces,
    score_table,
)
from suji.rules.language.reader import MAX_FORMULA_LENGTH  # a stored formula holds at most so many characters
from suji.web.extensions import db, migrate

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
SQLITE_FILE = "suji.sqlite3"
BUSY_TIMEOUT_MS = 15000
_upgrade_lock = threading.Lock()


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def database_url(app: Flask) -> str:
    """The configured URL (a test's config, else SUJI_DATABASE_URL), else SQLite in the instance folder."""
    url = app.config.get("SQLALCHEMY_DATABASE_URI")  # SUJI_DATABASE_URL arrives here (suji.web.settings)
    if url:
        # "postgresql://" means psycopg 3 here (the driver the project installs), not psycopg2.
        if url.startswith("postgresql://") or url.startswith("postgres://"):
            url = "postgresql+psycopg://" + url.split("://", 1)[1]
        return url
    return "sqlite:///" + str(Path(app.instance_path) / SQLITE_FILE)


def init_app(app: Flask) -> None:
    """Bind the database and the migrations to the app (nothing is opened until the games need it)."""
    app.config["SQLALCHEMY_DATABASE_URI"] = database_url(app)
    app.config.setdefault("SQLALCHEMY_ENGINE_OPTIONS", {"pool_pre_ping": True})
    db.init_app(app)
    migrate.init_app(app, db, directory=str(MIGRATIONS))
    with app.app_context():
        engine = db.engine
        if engine.dialect.name == "sqlite":
            _sqlite_setup(engine, int(app.config.get("SQLITE_BUSY_TIMEOUT_MS", BUSY_TIMEOUT_MS)))


def _sqlite_setup(engine: Engine, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> None:
    """WAL, a busy timeout and BEGIN IMMEDIATE on every connection of a SQLite engine.

    pysqlite would start transactions itself, lazily and deferred: two requests that both read and then write
    could then deadlock and one fail at once with "database is locked". Taking the write lock at BEGIN makes the
    second wait (up to the busy timeout, 15 s; a test may set SQLITE_BUSY_TIMEOUT_MS) instead; readers are never
    blocked in WAL mode. A lock held longer than that (a backup, a stuck process) is an outage: 503.
    """

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection, record) -> None:  # type: ignore[no-untyped-def]
        dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection) -> None:  # type: ignore[no-untyped-def]
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def ensure_schema() -> None:
    """Apply the migrations once per app (the first request that needs the database), so no manual step."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    if app.extensions.get("suji_schema_ready"):
        return
    with _upgrade_lock:
        if app.extensions.get("suji_schema_ready"):
            return
        from flask_migrate import upgrade

        upgrade(directory=str(MIGRATIONS))
        app.extensions["suji_schema_ready"] = True


def migration_head() -> str:
    """The revision the migrations end at (the one a fresh database is upgraded to)."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory(str(MIGRATIONS)).get_current_head() or ""


def insert_or_keep(model: type, values: dict) -> None:
    """INSERT … ON CONFLICT DO NOTHING, in the database's own dialect: a row that is there already stays (the
    way to make a row that two requests may make at the same moment, before locking it)."""
    from sqlalchemy.dialects import postgresql, sqlite

    insert = postgresql.insert if db.session.get_bind().dialect.name == "postgresql" else sqlite.insert
    db.session.execute(insert(model).values(**values).on_conflict_do_nothing())


def token_hash(token: str) -> str:
    """The stored form of a player's cookie token (the token itself is never stored)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class AppSecret(db.Model):  # type: ignore[name-defined]
    """A secret the app keeps in its database: the key that signs cookies and forms when SUJI_SECRET_KEY is not
    set and the database is SQLite (suji.web.startup), so that every process on the database signs alike."""

    __tablename__ = "app_secrets"
    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(String(200), nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, nullable=False)


class Player(db.Model):  # type: ignore[name-defined]
    """An anonymous player, known by a random token in a cookie; the nickname is optional."""

    __tablename__ = "players"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, nullable=False)
    nickname: Mapped[str | None] = mapped_column(String(40), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, nullable=False)
    version: Mapped[int] = mapped_column(Integer, nullable=False, default=1)
    __mapper_args__ = {"version_id_col": version}

    games = relationship("Game", back_populates="player", cascade="all, delete-orphan", passive_deletes=True)
    daily_entries = relationship(
        "DailyEntry", back_populates="player", cascade="all, delete-orphan", passive_deletes=True
    )


class Game(db.Model):  # type: ignore[name-defined]
    """A solo game or a pass-and-play game, owned by the player (device) that started it."""

    __tablename__ = "games"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), index=True, nullable=False
    )
    mode: Mapped[str] = mapped_column(String(10), nullable=False)  # SOLO or PARTY
    rounds_total: Mapped[int] = mapped_column(Integer, nullable=False)
    status: Mapped[str] = mapped_column(String(10), nullable=False, default=PLAYING)  # or FINISHED
    current_round: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    current_seat: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    total: Mapped[int] = mapped_column(Integer, nullable=False, default=0)  # solo: the player's total
    best_total: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, nullable=False)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    version: Mapped[int] = mapped_column(Integer, nullable=False, default=1)
    __mapper_args__ = {"version_id_col": version}

    player = relationship("Player", back_populates="games")
    seats = relationship(
        "Seat",
        back_populates="game",
        order_by="Seat.seat",
        cascade="all, delete-orphan",
        passive_deletes=True,
    )
    rounds = relationship(
        "Round",
        back_populates="game",
        order_by="Round.number",
        cascade="all, delete-orphan",
        passive_deletes=True,
    )

    @property
    def finished(self) -> bool:
        return self.status == FINISHED

    def match(self) -> Match:
        """Where the game stands, as the rules see it."""
        return Match(
            players=len(self.seats), rounds=self.rounds_total, turn=(self.current_round, self.current_seat),
            total=self.total, best_total=self.best_total, status=self.status,
        )  # fmt: skip

    def store_match(self, match: Match) -> None:
        """Keep a move of the game (the finishing time is the server's, in UTC like every stored moment)."""
        if match.finished and not self.finished:
            self.finished_at = utcnow()
        self.current_round, self.current_seat = match.turn
        self.total, self.best_total, self.status = match.total, match.best_total, match.status

    def score_table(self) -> ScoreTable:
        """Scores per round and seat, totals and the winners so far."""
        rounds = [(r.target_dice, {a.seat: a.hand() for a in r.answers}) for r in self.rounds]
        return score_table([s.name for s in self.seats], rounds)


class Seat(db.Model):  # type: ignore[name-defined]
    """A named player at a pass-and-play table (solo games have one seat, the player)."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=False)
    seat: Mapped[int] = mapped_column(Integer, nullable=False)
    name: Mapped[str] = mapped_column(String(40), nullable=False)

    game = relationship("Game", back_populates="seats")


class Round(db.Model):  # type: ignore[name-defined]
    """One target of a game: its target dice stay for every player of the round."""

    __tablename__ = "rounds"
    __table_args__ = (UniqueConstraint("game_id", "number"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=False)
    number: Mapped[int] = mapped_column(Integer, nullable=False)
    target_dice: Mapped[str] = mapped_column(String(20), nullable=False)

    game = relationship("Game", back_populates="rounds")
    answers = relationship(
        "Answer",
        back_populates="round",
        order_by="Answer.seat",
        cascade="all, delete-orphan",
        passive_deletes=True,
    )


class _HandColumns:
    """The columns of one player's dice for one target: the current dice, the costs and the answer."""

    number_dice: Mapped[str] = mapped_column(String(40), nullable=False)
    operator_dice: Mapped[str] = mapped_column(String(40), nullable=False)
    rerolled: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    set_faces: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    rerolls_made: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    status: Mapped[str] = mapped_column(String(10), nullable=False, default="open")
    formula: Mapped[str] = mapped_column(String(MAX_FORMULA_LENGTH), nullable=False, default="")
    target: Mapped[int | None] = mapped_column(Integer, nullable=True)
    points: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    score: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    best_points: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    best_score: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    best_formula: Mapped[str] = mapped_column(String(MAX_FORMULA_LENGTH), nullable=False, default="")
    answered_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)

    def target_faces(self) -> tuple[int, ...]:
        raise NotImplementedError

    def hand(self) -> Hand:
        """The row as the rules' Hand."""
        return Hand(
            target_dice=self.target_faces(),
            number_dice=number_faces(self.number_dice),
            operator_dice=operator_faces(self.operator_dice),
            rerolled=self.rerolled, set_faces=self.set_faces, rerolls_made=self.rerolls_made,
            status=self.status, formula=self.formula, target=self.target, points=self.points,
            score=self.score, best_points=self.best_points, best_score=self.best_score,
            best_formula=self.best_formula,
        )  # fmt: skip

    def store(self, hand: Hand) -> None:
        """Copy a Hand's dice, costs and answer into the row."""
        self.number_dice = dice_text(hand.number_dice)
        self.operator_dice = dice_text(hand.operator_dice)
        for name in ("rerolled", "set_faces", "rerolls_made", "status", "formula", "target", "points", "score",
                     "best_points", "best_score", "best_formula"):  # fmt: skip
            setattr(self, name, getattr(hand, name))
        if not hand.is_open and self.answered_at is None:
            self.answered_at = utcnow()


class Answer(_HandColumns, db.Model):  # type: ignore[name-defined]
    """One player's go at one round: the dice as they are now, the costs so far, then the answer."""

    __tablename__ = "answers"
    __table_args__ = (UniqueConstraint("round_id", "seat"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id", ondelete="CASCADE"), nullable=False)
    seat: Mapped[int] = mapped_column(Integer, nullable=False)
    version: Mapped[int] = mapped_column(Integer, nullable=False, default=1)
    __mapper_args__ = {"version_id_col": version}

    round = relationship("Round", back_populates="answers")

    def target_faces(self) -> tuple[int, ...]:
        return number_faces(self.round.target_dice)


class DailyEntry(_HandColumns, db.Model):  # type: ignore[name-defined]
    """A player's daily puzzle of one day: one per player and day (the database refuses a second)."""

    __tablename__ = "daily_entries"
    __table_args__ = (UniqueConstraint("day", "player_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    day: Mapped[date] = mapped_column(Date, nullable=False, index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), nullable=False)
    target_dice: Mapped[str] = mapped_column(String(20), nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, nullable=False)
    version: Mapped[int] = mapped_column(Integer, nullable=False, default=1)
    __mapper_args__ = {"version_id_col": version}

    player = relationship("Player", back_populates="daily_entries")

    def target_faces(self) -> tuple[int, ...]:
        return number_faces(self.target_dice)

"""The web app's settings: read from the environment once, in one place, into one frozen value.

    SUJI_SECRET_KEY        the key that signs cookies and forms, the same in every process (required with a
                           database other than SQLite; with SQLite, one is made once and kept in the database)
    SUJI_HTTPS=1           cookies marked Secure (behind HTTPS)
    SUJI_INSTANCE_PATH     the instance folder (the SQLite database, the build log)
    SUJI_DATABASE_URL      an SQLAlchemy URL (PostgreSQL when several app servers share one database)
    SUJI_PUBLIC_URL        the address people use (https://suji.example.org, with a path if the app has one):
                           every absolute link and QR code is built on it (else on the request's host and scheme)
    SUJI_TRUSTED_PROXIES   how many proxies in front of the app to believe (X-Forwarded-For, -Proto, -Host,
                           -Port, -Prefix; default 0: those headers are ignored)
    SUJI_THREADS           `suji serve`'s worker threads (default 8)
    SUJI_CONNECTION_LIMIT  `suji serve`'s open connections at most (default 1000; waitress's own is 100)
    SUJI_DAILY_TZ          the time zone the daily puzzle changes in (default Asia/Tokyo)
    SUJI_SOLVER_PROCESSES  worker processes for live advice (default one per core, at most 2; 0: in-process)
    SUJI_ODDS_PATH         the odds table (default ~/.local/share/suji/odds-v1.suji, as for the command line)
    SUJI_ODDS_BUILD=0      no background build of the odds table by `suji serve`
    SUJI_CLASS_RETENTION_DAYS  how many days class sessions and their answers are kept (default 30)
    SUJI_CLASS_JOIN_LIMIT  wrong class codes one browser may try in 10 minutes (default 20)
    SUJI_CLASS_JOIN_ADDRESS_LIMIT  … and one address, all its browsers together (default 200)
    SUJI_PRACTICE_RETENTION_DAYS  how many days after a pupil's last answer their practice is kept (default 365)
    SUJI_PRACTICE_TIME_LIMIT  seconds after which a practice answer tells the model nothing (default: time off)
    SUJI_SCHOOL_YEAR_END   the month and day school years end on, MM-DD (default 03-31, as in Japan)
    SUJI_CLASS_KEEP_DAYS   how many days after its school year ends a teacher's class and everything about
                           its pupils is kept before it is deleted (default 90)
    SUJI_ADVICE_QUEUE      live advice questions (without the odds table) under way at once over every
                           server process sharing the database (default 4; one per client)
    SUJI_ADVICE_WAIT       seconds a request waits for live advice before answering "ask again" (default 1.5)
    SUJI_HEAVY_LIMIT       worksheets and new classes being made at once over every server process (default 4;
                           one per client)

`create_app` reads them with `Settings.from_environ()`, lets a test's config override them, keeps the value in
`app.extensions["suji.settings"]` and puts each setting into its Flask config key (CONFIG_KEYS), which the
views read as Flask apps do; no other module of the web app reads the environment.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import Flask, current_app, has_app_context

from suji.solver.odds.table import default_path

DAILY_TIMEZONE = "Asia/Tokyo"
EXTENSION_KEY = "suji.settings"
# Flask config keys a test (or an embedding app) may set instead of the environment -> Settings fields
CONFIG_KEYS = {
    "SECRET_KEY": "secret_key",
    "SQLALCHEMY_DATABASE_URI": "database_url",
    "SUJI_DAILY_TZ": "daily_tz",
    "SOLVER_PROCESSES": "solver_processes",
    "ODDS_PATH": "odds_path",
    "ODDS_BUILD": "odds_build",
    "SUJI_CLASS_RETENTION_DAYS": "class_retention_days",
    "SUJI_PRACTICE_RETENTION_DAYS": "practice_retention_days",
    "SUJI_PRACTICE_TIME_LIMIT": "practice_time_limit",
    "SUJI_SCHOOL_YEAR_END": "school_year_end",
    "SUJI_CLASS_KEEP_DAYS": "class_keep_days",
    "SUJI_PUBLIC_URL": "public_url",
    "SUJI_TRUSTED_PROXIES": "trusted_proxies",
    "SUJI_CLASS_JOIN_LIMIT": "class_join_limit",
    "SUJI_CLASS_JOIN_ADDRESS_LIMIT": "class_join_address_limit",
    "ADVICE_QUEUE": "advice_queue",
    "ADVICE_WAIT": "advice_wait",
    "HEAVY_LIMIT": "heavy_limit",
}
# The settings read as whole numbers, with the range each must lie in (a value outside it stops the start-up
# with a message naming the setting: suji.web.startup).
NUMBERS = {
    "SUJI_TRUSTED_PROXIES": ("trusted_proxies", 0, 10),
    "SUJI_THREADS": ("threads", 1, 64),
    "SUJI_CONNECTION_LIMIT": ("connection_limit", 10, 100_000),
    "SUJI_CLASS_JOIN_LIMIT": ("class_join_limit", 1, 10_000),
    "SUJI_CLASS_JOIN_ADDRESS_LIMIT": ("class_join_address_limit", 1, 1_000_000),
    "SUJI_ADVICE_QUEUE": ("advice_queue", 1, 1000),
    "SUJI_HEAVY_LIMIT": ("heavy_limit", 1, 1000),
}
DEFAULT_THREADS = 8
DEFAULT_CONNECTION_LIMIT = 1000


@dataclass(frozen=True)
class Settings:
    """Everything the web app takes from its environment."""

    secret_key: str | None = None
    https: bool = False
    instance_path: str | None = None
    database_url: str | None = None
    daily_tz: str = DAILY_TIMEZONE
    solver_processes: int | None = None  # None: one per core, at most 2
    odds_path: str = ""
    odds_build: bool = True
    class_retention_days: int | None = None  # None: the class mode's default (30)
    practice_retention_days: int | None = None  # None: practice's default (365)
    practice_time_limit: float | None = None  # None: time does not change a practice answer's outcome
    school_year_end: tuple[int, int] = (3, 31)  # (month, day)
    class_keep_days: int | None = None  # None: the default (suji.play.school.roster.DEFAULT_KEEP_DAYS)
    public_url: str | None = None  # None: links are built on the request's own host and scheme
    trusted_proxies: int = 0
    threads: int = DEFAULT_THREADS
    connection_limit: int = DEFAULT_CONNECTION_LIMIT
    class_join_limit: int = 20  # distinct wrong class codes a browser may try in 10 minutes
    class_join_address_limit: int = 200  # … and an address (a school's NAT: every class of the school)
    # Settings whose text could not be read: (name, text), refused at start-up with a message (suji.web.startup).
    invalid: tuple[tuple[str, str], ...] = ()
    advice_queue: int = 4  # live advice questions at once, over every process (suji.web.advice)
    advice_wait: float = 1.5  # seconds a request waits for live advice
    heavy_limit: int = 4  # worksheets and new classes being made at once, over every process (suji.web.slots)

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """The settings named by the environment (blank values count as unset)."""
        env = os.environ if environ is None else environ

        def get(name: str) -> str | None:
            value = env.get(name, "").strip()
            return value or None

        processes = get("SUJI_SOLVER_PROCESSES")
        retention = get("SUJI_CLASS_RETENTION_DAYS")
        practice_days = get("SUJI_PRACTICE_RETENTION_DAYS")
        practice_limit = get("SUJI_PRACTICE_TIME_LIMIT")
        keep = get("SUJI_CLASS_KEEP_DAYS")
        numbers: dict[str, int] = {}
        invalid = []
        for name, (field, low, high) in NUMBERS.items():
            text = get(name)
            if text is None:
                continue
            if text.isascii() and text.isdigit() and low <= int(text) <= high:
                numbers[field] = int(text)
            else:
                invalid.append((name, text))
        public_url = get("SUJI_PUBLIC_URL")
        if public_url is not None and not public_url_ok(public_url):
            invalid.append(("SUJI_PUBLIC_URL", public_url))
            public_url = None
        return cls(
            secret_key=get("SUJI_SECRET_KEY"),
            https=get("SUJI_HTTPS") == "1",
            instance_path=get("SUJI_INSTANCE_PATH"),
            database_url=get("SUJI_DATABASE_URL"),
            daily_tz=get("SUJI_DAILY_TZ") or DAILY_TIMEZONE,
            solver_processes=int(processes) if processes is not None and processes.isdigit() else None,
            odds_path=str(default_path()),  # reads SUJI_ODDS_PATH / XDG_DATA_HOME like the command line
            odds_build=get("SUJI_ODDS_BUILD") != "0",
            class_retention_days=int(retention) if retention is not None and retention.isdigit() else None,
            practice_retention_days=int(practice_days)
            if practice_days is not None and practice_days.isdigit()
            else None,
            practice_time_limit=_seconds(practice_limit),
            school_year_end=month_day(get("SUJI_SCHOOL_YEAR_END")),
            class_keep_days=int(keep) if keep is not None and keep.isdigit() else None,
            public_url=public_url.rstrip("/") if public_url else None,
            invalid=tuple(invalid),
            **numbers,
            advice_wait=_wait_seconds(get("SUJI_ADVICE_WAIT"), 1.5),
        )

    def with_config(self, config: Mapping[str, Any]) -> Settings:
        """These settings with the Flask config keys of CONFIG_KEYS that `config` sets taking their place."""
        changes = {field: config[key] for key, field in CONFIG_KEYS.items() if config.get(key) is not None}
        return replace(self, **changes) if changes else self

    @property
    def pool_size(self) -> int:
        """How many solver processes live advice uses."""
        if self.solver_processes is not None:
            return self.solver_processes
        return min(2, os.cpu_count() or 1)


def public_url_ok(text: str) -> bool:
    """Whether `text` is an address links can be built on: http(s), a host, perhaps a port and a path; no query,
    fragment, user name, space or control character."""
    from urllib.parse import urlsplit

    if any(ch.isspace() or ord(ch) < 32 or ch == "\\" for ch in text):
        return False
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - raises ValueError for a port that is not one
    except ValueError:
        return False
    return (
        parts.scheme in ("http", "https") and bool(parts.hostname) and not parts.query and not parts.fragment
        and "@" not in parts.netloc and not text.endswith(("?", "#"))
    )  # fmt: skip


def _seconds(text: str | None) -> float | None:
    """A positive number of seconds, or None for anything else."""
    try:
        value = float(text) if text is not None else None
    except ValueError:
        return None
    return value if value is not None and 0 < value < float("inf") else None
def month_day(text: str | None, default: tuple[int, int] = (3, 31)) -> tuple[int, int]:
    """A month and day written MM-DD ("03-31"), else `default` (a day no year has, such as 02-30, too)."""
    from datetime import date

    month, _, day = (text or "").partition("-")
    if month.isdigit() and day.isdigit():
        try:
            date(2001, int(month), int(day))
            return int(month), int(day)
        except ValueError:
            pass
    return default


def init_app(app: Flask, settings: Settings) -> None:
    """Keep `settings` on the app and put each into the config key the app and its extensions read."""
    app.extensions[EXTENSION_KEY] = settings
    for key, field in CONFIG_KEYS.items():
        value = getattr(settings, field)
        if value is not None:
            app.config[key] = value
    app.config["SESSION_COOKIE_SECURE"] = settings.https


def local_zone() -> ZoneInfo:
    """The app's time zone for the days and times people read (the daily puzzle's day, a class's date):
    SUJI_DAILY_TZ, Japan by default; UTC if the name is not a zone this machine knows."""
    name = current_app.config.get("SUJI_DAILY_TZ") or DAILY_TIMEZONE
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def local_time(moment: datetime) -> str:
    """A stored moment (UTC) as the school reads it, in the app's time zone: 2026年12月2日 11:43 (suji.core.dates)."""
    from suji.core.dates import moment_text
    from suji.web.i18n import select_locale

    return moment_text(moment, select_locale(), local_zone())


def local_date(moment: datetime) -> str:
    """The day of a stored moment (UTC) in the app's time zone: 12月2日 (suji.core.dates)."""
    from suji.core.dates import date_text
    from suji.web.i18n import select_locale

    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return date_text(aware.astimezone(local_zone()).date(), select_locale())


def current_settings() -> Settings:
    """The running app's settings; outside an app (a worker, a script), the environment's."""
    if has_app_context():
        found = current_app.extensions.get(EXTENSION_KEY)
        if found is not None:
            return found
    return Settings.from_environ()


def _wait_seconds(text: str | None, default: float) -> float:
    """Seconds from 0 to 30, else `default`."""
    try:
        value = float(text) if text is not None else default
    except ValueError:
        return default
    return value if 0 <= value <= 30 else default

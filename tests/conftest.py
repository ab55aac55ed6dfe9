"""Shared fixtures. Web: `app`, `client`, `runner` (flaskr style); `csrf_app`/`csrf_client` keep CSRF on."""

from __future__ import annotations

import os
import sqlite3
import tempfile
from pathlib import Path

import jinja2
import pytest
from hypothesis import settings

# No Hypothesis deadline anywhere: CI shares its machine, and a first example that loads a grammar or a catalog
# may take longer than later ones. Speed is measured by `suji bench`, not by tests.
settings.register_profile("suji", deadline=None)
settings.load_profile("suji")

# No test may find, use or start building the real odds table: each run gets an empty place for it (tests that
# need a table make their own), and a server started by a test never builds one.
os.environ["SUJI_ODDS_BUILD"] = "0"
os.environ["SUJI_ODDS_PATH"] = str(Path(tempfile.mkdtemp(prefix="suji-odds-")) / "odds.suji")


# Teachers' passwords hashed with a cheap argon2id in tests (suji.web.accounts.passwords): production's 64 MiB a
# hash would be most of the time of the tests that log in many times.
CHEAP_PASSWORDS = {"TEACHER_PASSWORD_COST": "test"}


class TemplateCodeCache(jinja2.BytecodeCache):
    """Jinja's compiled templates kept in memory for the whole run.

    Every test gets a new app, and a new app compiles each template again on its first page: that was most of a
    page test's time. Jinja keys the code by template name and source checksum, so a page renders exactly as it
    would from a fresh compile.
    """

    def __init__(self) -> None:
        self.code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key in self.code:
            bucket.bytecode_from_string(self.code[bucket.key])

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.code[bucket.key] = bucket.bytecode_to_string()


@pytest.fixture(scope="session")
def template_code() -> TemplateCodeCache:
    return TemplateCodeCache()


def pytest_configure(config: pytest.Config) -> None:
    """Tell tiers.examples whether this is the quick tier (a run that leaves the slow tests out)."""
    import tiers

    tiers.quick_tier = "not slow" in (config.option.markexpr or "")


@pytest.fixture(scope="session")
def migrated_database(tmp_path_factory) -> Path:
    """An SQLite database made by the migrations once per run; each test's app starts from a copy of it.

    Running the migrations for every test would cost more than the rest of many tests; the tests that are about
    the migrations themselves (a fresh instance, the schema against the models, PostgreSQL) make their own.
    """
    from suji.web import create_app
    from suji.web.extensions import db
    from suji.web.models import SQLITE_FILE, ensure_schema

    instance = tmp_path_factory.mktemp("migrated") / "instance"
    before = os.environ.get("SUJI_INSTANCE_PATH")
    os.environ["SUJI_INSTANCE_PATH"] = str(instance)
    try:
        app = create_app({"TESTING": True, "SECRET_KEY": "test"})
        with app.app_context():
            ensure_schema()
            db.session.remove()
            db.engine.dispose()  # the last connection closed: SQLite moves the WAL into the one file
    finally:
        if before is None:
            os.environ.pop("SUJI_INSTANCE_PATH", None)
        else:
            os.environ["SUJI_INSTANCE_PATH"] = before
    database = instance / SQLITE_FILE
    with sqlite3.connect(database) as connection:  # and to be sure nothing is left in a -wal file
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return database


@pytest.fixture
def app(tmp_path, monkeypatch, migrated_database, template_code):
    """The web app for tests: CSRF off (the CSRF tests use `csrf_app`), a throwaway instance folder whose
    database starts at the migrations' head (a copy of `migrated_database`)."""
    import shutil

    from suji.web import create_app

    instance = tmp_path / "instance"
    instance.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(migrated_database, instance / migrated_database.name)
    monkeypatch.setenv("SUJI_INSTANCE_PATH", str(instance))
    made = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "test", **CHEAP_PASSWORDS})
    made.extensions["suji_schema_ready"] = True  # the copy is at the head already
    made.jinja_env.bytecode_cache = template_code
    return made


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def csrf_app(tmp_path, monkeypatch, template_code):
    """The web app as in production: CSRF protection on."""
    from suji.web import create_app

    monkeypatch.setenv("SUJI_INSTANCE_PATH", str(tmp_path / "instance"))
    made = create_app({"TESTING": True, "SECRET_KEY": "test", **CHEAP_PASSWORDS})
    made.jinja_env.bytecode_cache = template_code
    return made


@pytest.fixture
def csrf_client(csrf_app):
    return csrf_app.test_client()


@pytest.fixture(scope="module")
def browser():
    """Debian's chromium through Playwright, for a whole browser-test module (skips when either is missing)."""
    from browser_support import chromium, require_chromium

    with chromium(require_chromium()) as launched:
        yield launched

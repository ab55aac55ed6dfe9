"""Shared fixtures. Web: `app`, `client`, `runner` (flaskr style); `csrf_app`/`csrf_client` keep CSRF on."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

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


@pytest.fixture
def app(tmp_path, monkeypatch):
    """The web app for tests: CSRF off (the CSRF tests use `csrf_app`), a throwaway instance folder."""
    from suji.web import create_app

    monkeypatch.setenv("SUJI_INSTANCE_PATH", str(tmp_path / "instance"))
    return create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "test"})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def csrf_app(tmp_path, monkeypatch):
    """The web app as in production: CSRF protection on."""
    from suji.web import create_app

    monkeypatch.setenv("SUJI_INSTANCE_PATH", str(tmp_path / "instance"))
    return create_app({"TESTING": True, "SECRET_KEY": "test"})


@pytest.fixture
def csrf_client(csrf_app):
    return csrf_app.test_client()


@pytest.fixture(scope="module")
def browser():
    """Debian's chromium through Playwright, for a whole browser-test module (skips when either is missing)."""
    from browser_support import chromium, require_chromium

    with chromium(require_chromium()) as launched:
        yield launched

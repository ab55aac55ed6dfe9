"""What the real-browser tests share: Debian's chromium through Playwright, the app served in a thread, screenshots.

Each browser test module starts with ``sync_api = require_chromium()``, which skips the module with a clear reason
when Playwright or /usr/bin/chromium is missing (never ``playwright install``: nothing can be downloaded here).
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
SHOTS = Path(__file__).parent / "screenshots"  # git-ignored: for a human look
# Without the background-networking flags chromium keeps trying hosts that this closed network refuses.
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]  # fmt: skip


def require_chromium():  # noqa: ANN201 - the playwright.sync_api module
    """Playwright's sync API, or skip the calling test module with the reason."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)", allow_module_level=True)
    return sync_api


@contextmanager
def serve(app) -> Iterator[str]:  # noqa: ANN001 - a Flask app
    """Serve the app on 127.0.0.1 and a free port in a thread; yields its base URL."""
    from werkzeug.serving import make_server

    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}"
    finally:
        httpd.shutdown()


@contextmanager
def chromium(sync_api) -> Iterator[object]:  # noqa: ANN001
    """Debian's chromium, headless, launched by Playwright."""
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


# A full-page shot draws a bar held at the foot of the screen (position: sticky) where the screen's foot was, over
# what lies there: for the shot the formula bar is laid back in its place, then held again.
_BARS = "document.querySelectorAll('.formula-bar').forEach(b => { b.style.position = '%s'; })"


def laid_out_box(locator) -> dict:  # noqa: ANN001 - a Playwright locator
    """The element's box once its page has loaded with its stylesheet: a box measured right after a navigation
    can be the browser's default layout (CI measured one so, twice, in runs where the page was still loading)."""
    locator.page.wait_for_load_state("load")
    box = locator.bounding_box()
    assert box is not None, locator
    return box


def shot(page, name: str) -> None:  # noqa: ANN001
    """Save a full-page screenshot as tests/screenshots/NAME.png."""
    SHOTS.mkdir(exist_ok=True)
    page.evaluate(_BARS % "static")
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    page.evaluate(_BARS % "")


@contextmanager
def served_app(instance: Path, **config: object) -> Iterator[tuple[object, str]]:
    """The app as in production (CSRF on), with its own instance folder, served in a thread: (app, base URL)."""
    from suji.web import create_app

    patch = pytest.MonkeyPatch()
    patch.setenv("SUJI_INSTANCE_PATH", str(instance))
    try:
        app = create_app({"SECRET_KEY": "browser-test", "TEACHER_PASSWORD_COST": "test", **config})
        with serve(app) as url:
            yield app, url
    finally:
        patch.undo()

"""Accessibility, measured (issue 26): axe-core on every page state, the Nu HTML Checker on every page's HTML.

The page states are tests/a11y_pages.py's tour: every page of the URL map, each lesson experiment (its live run
included), class pages as the teacher and as a pupil from the first look to the last page, the worksheet and
dice-net forms, practice, the teacher's accounts and classes pages. In both languages, axe-core (its default
rules: WCAG 2 A and AA and the best practices) runs on each state at 1280×800 and at 360×740, injected by
Playwright into a context with CSP bypassed; the HTML the server sent for each state goes to the Nu HTML Checker
(vnu.jar, run once per language on Debian's Java). Both expect nothing: 0 violations, 0 errors; and no state's
page is wider than the window at either size (a wide table scrolls in its own box).

The tools come from npm (.ci/a11y/package.json, installed by .ci/run) and Debian (default-jre-headless); each
check skips with the reason when its tool is missing. SUJI_A11Y_SHOTS=1 saves a screenshot of every state at both
sizes in tests/screenshots/a11y/ for a person to look at.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from a11y_pages import ONLY, Tour
from browser_support import SHOTS, require_chromium, served_app

pytestmark = pytest.mark.browser

sync_api = require_chromium()

TOOLS = Path(__file__).resolve().parents[2] / ".ci" / "a11y" / "node_modules"
AXE = TOOLS / "axe-core" / "axe.min.js"
VNU = TOOLS / "vnu-jar" / "build" / "dist" / "vnu.jar"
SIZES = ((1280, 800), (360, 740))
MINIMUM = 60 if not ONLY else 1  # states a language: the whole tour, or the part SUJI_A11Y_ONLY names


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with served_app(tmp_path_factory.mktemp("instance")) as (app, url):
        yield app, url


def _axe(page) -> list[dict]:  # noqa: ANN001
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    return page.evaluate(
        """async () => {
          const result = await axe.run(document, { resultTypes: ["violations"] });
          return result.violations.map(v => ({ id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map(n => n.target.join(" ") + (n.failureSummary ? " — " + n.failureSummary.split("\\n").slice(1, 2).join("") : "")) }));
        }"""
    )


@pytest.fixture(scope="module", params=["en", "ja"])
def walked(request, server, browser, tmp_path_factory):
    """The tour in one language: the axe violations found and the HTML files written for the checker."""
    lang = request.param
    app, url = server
    tour = Tour(browser, url, lang, app)
    html_dir = tmp_path_factory.mktemp(f"html-{lang}")
    names: dict[str, str] = {}
    violations: list[str] = []
    sideways: list[str] = []  # states whose page is wider than the window (a phone would scroll it sideways)
    shots = os.environ.get("SUJI_A11Y_SHOTS") == "1"
    try:
        for number, visit in enumerate(tour.visits()):
            page = visit.page
            for width, height in SIZES:
                page.set_viewport_size({"width": width, "height": height})
                if AXE.exists():
                    for v in _axe(page):
                        nodes = "; ".join(v["nodes"][:3]) + (" …" if len(v["nodes"]) > 3 else "")
                        violations.append(f"{visit.name} [{lang} {width}] {v['id']} ({v['impact']}): {v['help']}: {nodes}")
                wide = page.evaluate("document.documentElement.scrollWidth")
                if wide > width + 1:
                    sideways.append(f"{visit.name} [{lang} {width}]: {wide} px wide")
                if shots:
                    (SHOTS / "a11y").mkdir(parents=True, exist_ok=True)
                    page.screenshot(path=str(SHOTS / "a11y" / f"{lang}-{width}-{number:03d}.png"), full_page=True)
            page.set_viewport_size({"width": 1280, "height": 800})
            file = html_dir / f"{number:03d}.html"
            file.write_text(visit.html, encoding="utf-8")
            names[file.name] = visit.name
    finally:
        tour.close()
    return {"lang": lang, "violations": violations, "sideways": sideways, "html_dir": html_dir, "names": names}


def test_no_page_scrolls_sideways(walked):
    """A wide table scrolls in its own box; the page itself fits the window at 360 and at 1280 px."""
    assert len(walked["names"]) > MINIMUM
    assert walked["sideways"] == [], "\n".join(walked["sideways"])


def test_axe_finds_no_violation(walked):
    if not AXE.exists():
        pytest.skip(f"axe-core is not installed ({AXE}; cd .ci/a11y && npm ci)")
    assert len(walked["names"]) > MINIMUM  # the tour really went round
    assert walked["violations"] == [], f"{len(walked['violations'])} violations:\n" + "\n".join(walked["violations"])


def test_the_html_checker_finds_no_error(walked):
    java = shutil.which("java")
    if not VNU.exists():
        pytest.skip(f"the Nu HTML Checker is not installed ({VNU}; cd .ci/a11y && npm ci)")
    if java is None:
        pytest.skip("no Java to run the Nu HTML Checker (apt-get install default-jre-headless)")
    run = subprocess.run(
        [java, "-Xss2m", "-jar", str(VNU), "--format", "json", "--stdout", "--exit-zero-always", "--errors-only",
         str(walked["html_dir"])],
        capture_output=True, text=True, check=True, timeout=600,
    )  # fmt: skip
    messages = json.loads(run.stdout)["messages"]
    errors = [
        f"{walked['names'].get(Path(m.get('url', '')).name, m.get('url'))} [{walked['lang']}] line {m.get('lastLine')}: "
        f"{m['message']} — {m.get('extract', '').strip()[:120]!r}"
        for m in messages
        if m["type"] in ("error", "non-document-error")
    ]
    assert len(walked["names"]) > MINIMUM
    assert errors == [], f"{len(errors)} errors:\n" + "\n".join(errors)

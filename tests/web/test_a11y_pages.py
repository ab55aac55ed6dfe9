"""The accessibility tour (tests/a11y_pages.py) covers every page of the app: a new GET route is either visited or
named as something other than a page."""

from __future__ import annotations

from a11y_pages import NOT_PAGES, REACH, Tour, plain_routes, unvisited_endpoints


def test_every_page_is_visited(app):
    assert unvisited_endpoints(app) == [], "add a Tour method to REACH (or the route to NOT_PAGES)"
    endpoints = {r.endpoint for r in app.url_map.iter_rules()}
    assert set(REACH) <= endpoints and set(NOT_PAGES) <= endpoints  # no stale names
    assert all(callable(getattr(Tour, method, None)) for method in REACH.values())
    assert "/" in plain_routes(app) and "/worksheets/dice" in plain_routes(app)

"""Opening a drill page in a test client, as a browser would: the page names its roll with a signed token."""

from __future__ import annotations

import re


def open_drill(client, level: int, **kwargs) -> str:  # noqa: ANN001 - a Flask test client
    """GET /drill/LEVEL and return the roll token the page carries (for check, value, hints)."""
    html = client.get(f"/drill/{level}", **kwargs).get_data(as_text=True)
    found = re.search(r'data-roll="([^"]+)"', html)
    assert found, "the drill page carries no roll token"
    return found.group(1)

"""SymPy and Lark stay off the request path: the package reads, works out and prints formulas with neither (issue
23), and a page that reached for either would load it, seconds of import, into a server process."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys

# Every lesson page (the Silence lesson printed its spread with SymPy once), the drill, the API's check and value
# with a root and a fraction, a worksheet preview and the home page.
SCRIPT = r"""
import json, sys
from suji.web import create_app
app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False})
client = app.test_client()
statuses = []
for url in ("/", "/lessons/", "/lessons/silence", "/lessons/suji", "/lessons/nine-am", "/lessons/dice-monsters",
            "/lessons/gooball", "/drill/1", "/drill/3", "/worksheets/"):
    statuses.append(client.get(url, headers={"Accept-Language": "ja"}).status_code)
roll = {"number_dice": [8, 3, 2, 1, 4], "operator_dice": ["×", "÷", "+", "√"], "target_dice": [1, 2, 3]}
for path, formula in (("/api/check", "√8×3"), ("/api/check", "8÷3+2"), ("/api/value", "√8×3÷")):
    statuses.append(client.post(path, json={**roll, "formula": formula}).status_code)
print(json.dumps({"statuses": statuses, "loaded": sorted(m for m in ("sympy", "lark") if m in sys.modules)}))
"""


def test_pages_and_the_api_never_load_sympy_or_lark(tmp_path):
    env = dict(
        os.environ, SUJI_INSTANCE_PATH=str(tmp_path), SUJI_SECRET_KEY=secrets.token_hex(32), SUJI_ODDS_BUILD="0"
    )
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, check=True)
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert set(found["statuses"]) == {200}, found
    assert found["loaded"] == []

"""Odd JSON bodies (lone surrogates, absurd nesting) get a clear 400, never a 500."""

from __future__ import annotations

import json

import pytest

SURROGATE_FORMULA = (
    '{"formula": "\\ud800", "target_dice": [1, 2, 3], "number_dice": [1], "operator_dice": ["+"]}'
)
SURROGATE_DIE = (
    '{"formula": "1", "target_dice": [1, 2, 3], "number_dice": ["\\ud800"], "operator_dice": ["+"]}'
)
DEEP = "[" * 5000 + "]" * 5000


@pytest.mark.parametrize("path", ["/api/check", "/api/value", "/api/solve", "/api/hint"])
@pytest.mark.parametrize("body", [SURROGATE_FORMULA, SURROGATE_DIE, DEEP])
def test_api_refuses_odd_json_with_a_message(client, path, body):
    response = client.post(
        path, data=body, content_type="application/json", headers={"Accept-Language": "ja"}
    )
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error["code"] == "not_json"
    assert any("\u3040" <= ch <= "\u30ff" for ch in error["message"])  # kana: the message is in Japanese


@pytest.mark.parametrize("body", [SURROGATE_FORMULA, DEEP])
def test_live_value_in_the_daily_puzzle_survives_odd_json(client, body):
    response = client.post("/games/daily/value", data=body, content_type="application/json")
    assert response.status_code == 200
    assert response.get_json()["valid"] is False


def test_unknown_characters_are_named_printably(client):
    body = json.dumps({"formula": "1\u200b", "target": 1, "number_dice": [1], "operator_dice": ["+"]})
    data = client.post("/api/check", data=body, content_type="application/json").get_json()
    assert data["error"]["code"] == "unknown_char" and "U+200B" in data["error"]["message"]

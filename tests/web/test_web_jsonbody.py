"""Odd JSON bodies (lone surrogates, absurd nesting) get a clear 400, never a 500."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tiers import examples

from suji.web.jsonbody import MAX_DEPTH, _plain, _surely_plain

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


# ---- the fast path: the bytes alone show a body plain, and never wrongly ----------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(st.characters(codec="utf-8"), max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=12,
)
surrogates = st.integers(0xD800, 0xDFFF).map(chr)


@settings(max_examples=examples(300))
@given(
    json_values,
    st.booleans(),
    st.lists(surrogates, max_size=2),
    st.sampled_from(["utf-8", "utf-16", "utf-32"]),
)
def test_a_body_seen_plain_by_its_bytes_is_plain(value, ascii_only, odd, encoding):
    value = [value, *odd] if odd else value
    text = json.dumps(value, ensure_ascii=ascii_only)
    raw = text.encode(encoding, "surrogatepass")
    parsed = json.loads(raw)  # as Flask reads a body
    if _surely_plain(raw):
        assert _plain(parsed, 0)
    usual = (
        not odd and not ascii_only and encoding == "utf-8"
    )  # ascii_only spells 😀 as two surrogate escapes
    if usual and text.count("[") + text.count("{") <= MAX_DEPTH:
        assert _surely_plain(raw)  # the usual body takes the fast path


@given(st.binary(max_size=60))
def test_any_bytes_seen_plain_parse_to_plain_json(raw):
    try:
        parsed = json.loads(raw)
    except ValueError:
        return
    if _surely_plain(raw):
        assert _plain(parsed, 0)

"""The JSON API: /api/check answers what `suji check --json` prints; bad requests get 400 and a message."""

from __future__ import annotations

import json

import pytest

from suji.cli import main as cli_main
from suji.dice import Roll
from suji.web import drill

SEED_EXAMPLE = {
    "formula": "21²+4+1",
    "target_dice": [4, 4, 6],
    "number_dice": [2, 1, 4, 1, 3],
    "operator_dice": ["+", "+", "^2", "-"],
    "rerolled": 3,
}


def cli_json(capsys, body: dict, lang: str) -> dict:
    """What `suji check --json` prints for the same request."""
    argv = ["check", body["formula"], "--json", "--lang", lang]
    if "target_dice" in body:
        argv += ["--target-dice", *map(str, body["target_dice"])]
    if "target" in body:
        argv += ["--target", str(body["target"])]
    argv += ["--number-dice", *map(str, body["number_dice"]), "--operator-dice", *body["operator_dice"]]
    argv += ["--rerolled", str(body.get("rerolled", 0)), "--set-faces", str(body.get("set_faces", 0))]
    cli_main(argv)
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize(
    "body",
    [
        SEED_EXAMPLE,
        {
            "formula": "447+2",
            "target_dice": [4, 4, 6],
            "number_dice": [4, 4, 7, 2, 3],
            "operator_dice": ["+"],
        },
        {
            "formula": "8+2÷11×11",
            "target": 10,
            "number_dice": [8, 2, 1, 1],
            "operator_dice": ["+", "/", "x11"],
        },
        {"formula": "3+√4²", "target": 7, "number_dice": [3, 4], "operator_dice": ["+", "sqrt", "^2"]},
        {"formula": "12++3", "target": 15, "number_dice": [1, 2, 3], "operator_dice": ["+", "+"]},
        {"formula": "99", "target": 99, "number_dice": [6, 6], "operator_dice": ["+"], "set_faces": 1},
        {"formula": "(1+2)", "target": 3, "number_dice": [1, 2], "operator_dice": ["+"]},
    ],
)
def test_check_matches_the_command_line(client, capsys, body, lang):
    response = client.post("/api/check", json={**body, "lang": lang})
    assert response.status_code == 200
    assert response.get_json() == cli_json(capsys, body, lang)
    # Same keys in the same order as the CLI prints them.
    assert list(json.loads(response.get_data(as_text=True))) == list(cli_json(capsys, body, lang))


def test_check_follows_the_page_language(client):
    body = {"formula": "1++2", "target": 3, "number_dice": [1, 2], "operator_dice": ["+", "+"]}
    ja = client.post("/api/check", json=body, headers={"Accept-Language": "ja"}).get_json()
    en = client.post("/api/check", json=body, headers={"Accept-Language": "en"}).get_json()
    assert ja["error"]["code"] == en["error"]["code"] == "adjacent_operators"
    assert "演算記号" in ja["error"]["message"] and "side by side" in en["error"]["message"]


BAD = [
    ({}, "missing_field", "“formula” is missing."),
    ({**SEED_EXAMPLE, "formula": 12}, "not_text", "“formula” must be a text."),
    ({**SEED_EXAMPLE, "number_dice": "2 1 4"}, "not_list", "“number_dice” must be a list."),
    ({**SEED_EXAMPLE, "number_dice": [1] * 9}, "too_many_dice", "at most 8"),
    ({**SEED_EXAMPLE, "operator_dice": ["+", "%"]}, "unknown_operator_die", "“%” is not an operator die."),
    ({**SEED_EXAMPLE, "number_dice": [0, 1]}, "unknown_number_die", "“0” is not a number die."),
    ({**SEED_EXAMPLE, "number_dice": [{"a": 1}]}, "unknown_number_die", "is not a number die"),
    ({**SEED_EXAMPLE, "number_dice": [True]}, "unknown_number_die", "is not a number die"),
    ({**SEED_EXAMPLE, "target": 446}, "both_targets", "not both"),
    ({k: v for k, v in SEED_EXAMPLE.items() if k != "target_dice"}, "no_target", "Give the target dice"),
    ({**SEED_EXAMPLE, "rerolled": -1}, "not_count", "“rerolled” must be a whole number"),
    ({**SEED_EXAMPLE, "set_faces": "2"}, "not_count", "“set_faces” must be a whole number"),
    ({**SEED_EXAMPLE, "lang": "fr"}, "bad_lang", "“lang” must be"),
    ([1, 2, 3], "not_json", "Send one JSON object"),
    ("text", "not_json", "Send one JSON object"),
]


@pytest.mark.parametrize(("body", "code", "message"), BAD)
def test_malformed_check_requests(client, body, code, message):
    response = client.post("/api/check", json=body, headers={"Accept-Language": "en"})
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error["code"] == code
    assert message in error["message"]


def test_malformed_request_message_in_japanese(client):
    response = client.post("/api/check", json={}, headers={"Accept-Language": "ja"})
    assert response.get_json()["error"]["message"] == "「formula」がありません。"
    response = client.post(
        "/api/check", json={**SEED_EXAMPLE, "operator_dice": ["%"]}, headers={"Accept-Language": "ja"}
    )
    assert response.status_code == 400 and "%" in response.get_json()["error"]["message"]
    assert (
        response.get_json()["error"]["message"] != "“%” is not an operator die. Use + − × ÷ ×10 ×11 ×12 ² √."
    )


@pytest.mark.parametrize(
    ("data", "content_type"),
    [
        (b"{not json", "application/json"),
        (b"\x00\xff\xfe binary junk", "application/json"),
        (json.dumps(SEED_EXAMPLE).encode(), "text/plain"),
        (b"formula=1%2B2", "application/x-www-form-urlencoded"),
        (b"", "application/json"),
    ],
)
def test_non_json_bodies(client, data, content_type):
    response = client.post(
        "/api/check", data=data, content_type=content_type, headers={"Accept-Language": "ja"}
    )
    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "not_json"
    assert "JSON" in response.get_json()["error"]["message"]


def test_huge_body_is_413_json(client):
    response = client.post("/api/check", data=b"[" * 100_000, content_type="application/json")
    assert response.status_code == 413
    assert response.get_json()["error"]["code"] == "too_large"


def test_wrong_method_and_unknown_api_path(client):
    response = client.get("/api/check", headers={"Accept-Language": "ja"})
    assert response.status_code == 405
    assert response.get_json()["error"] == {
        "code": "method_not_allowed",
        "message": "このアドレスは、そのやり方では使えません。",
    }
    response = client.post("/api/nothing-here", json={})
    assert response.status_code == 404 and response.get_json()["error"]["code"] == "not_found"


def test_value_uses_the_drill_roll(client, monkeypatch):
    roll = Roll.of([2, 1, 4, 1, 3], ["+", "+", "²", "÷"], [4, 4, 6])
    monkeypatch.setattr(drill, "_new_roll", lambda level, seed: roll)
    assert client.post("/api/value", json={"formula": "21²"}).status_code == 400  # no drill yet
    client.get("/drill/2")
    data = client.post("/api/value", json={"formula": "21²"}).get_json()
    assert data["valid"] and data["value"] == "441" and data["target"] is None
    data = client.post("/api/value", json={"formula": "21²+4+1"}).get_json()
    assert data["target"] == 446
    data = client.post("/api/value", json={"formula": "1÷3"}).get_json()
    assert data["value"] == "1/3" and data["display"] == "1/3"
    data = client.post("/api/value", json={"formula": "21+", "lang": "ja"}).get_json()
    assert (
        not data["valid"]
        and data["error"]["code"] == "ends_with_operator"
        and "式" in data["error"]["message"]
    )
    data = client.post("/api/value", json={"formula": "7"}).get_json()
    assert data["error"]["code"] == "not_rolled"


def test_value_with_dice_and_surds(client):
    body = {"formula": "√2", "target": 1, "number_dice": [2], "operator_dice": ["sqrt"]}
    data = client.post("/api/value", json=body).get_json()
    assert data["value"] == "sqrt(2)" and data["display"] == "√2"

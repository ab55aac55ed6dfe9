"""The JSON API: /api/check answers what `suji check --json` prints; bad requests get 400 and a message."""

from __future__ import annotations

import json
import re

import pytest
from drill_support import open_drill
from examples import EXAMPLE_ROLL_ARGS

from suji.cli import main as cli_main
from suji.core.furigana import strip_ruby
from suji.rules.dice import Roll
from suji.web import drill_rolls

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
    assert "記号がとなり合って" in ja["error"]["message"] and "side by side" in en["error"]["message"]


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
    monkeypatch.setattr(drill_rolls, "roll_at", lambda level, seed: roll)
    assert client.post("/api/value", json={"formula": "21²"}).status_code == 400  # no drill page
    roll_token = open_drill(client, 2)
    assert client.post("/api/value", json={"formula": "21²", "roll": roll_token + "x"}).status_code == 400
    data = client.post("/api/value", json={"formula": "21²", "roll": roll_token}).get_json()
    assert data["valid"] and data["value"] == "441" and data["target"] is None
    data = client.post("/api/value", json={"formula": "21²+4+1", "roll": roll_token}).get_json()
    assert data["target"] == 446
    data = client.post("/api/value", json={"formula": "1÷3", "roll": roll_token}).get_json()
    assert data["value"] == "1/3" and data["display"] == "1/3"
    # Ending with an operator is an unfinished formula, not a mistake: no error, a neutral message.
    data = client.post("/api/value", json={"formula": "21+", "lang": "ja", "roll": roll_token}).get_json()
    assert not data["valid"] and data["unfinished"] and data["error"] is None and "式" in data["message"]
    # which die each piece of the unfinished text uses, so the page greys them out without reading it
    assert [p["die"] for p in data["dice"]] == ["n0", "n1", "o0"]
    data = client.post("/api/value", json={"formula": "21+", "lang": "en", "roll": roll_token}).get_json()
    assert data["unfinished"] and "Keep going" in data["message"]
    # this roll has no √ die: "21+√" is not unfinished but a mistake already
    data = client.post("/api/value", json={"formula": "21+√", "lang": "en", "roll": roll_token}).get_json()
    assert not data["unfinished"] and data["error"]["code"] == "not_rolled"
    data = client.post("/api/value", json={"formula": "21++", "lang": "ja", "roll": roll_token}).get_json()
    assert not data["unfinished"] and data["error"]["code"] == "adjacent_operators"
    data = client.post("/api/value", json={"formula": "7", "roll": roll_token}).get_json()
    assert data["error"]["code"] == "not_rolled"


def test_value_with_dice_and_surds(client):
    body = {"formula": "√2", "target": 1, "number_dice": [2], "operator_dice": ["sqrt"]}
    data = client.post("/api/value", json=body).get_json()
    assert data["value"] == "sqrt(2)" and data["display"] == "√2"


# ---- the solver's endpoints ----

SOLVE_BODY = {k: v for k, v in SEED_EXAMPLE.items() if k not in ("formula", "rerolled")}


@pytest.mark.parametrize("level", [None, 1, 3])
def test_solve_matches_the_command_line(client, capsys, level):
    body = {**SOLVE_BODY} if level is None else {**SOLVE_BODY, "level": level}
    data = client.post("/api/solve", json=body).get_json()
    argv = ["solve", "--json", "--target-dice", "4", "4", "6", "--number-dice", "2", "1", "4", "1", "3"]
    argv += ["--operator-dice", "+", "+", "^2", "-"] + (["--level", str(level)] if level else [])
    cli_main(argv)
    assert data == json.loads(capsys.readouterr().out)
    if level != 1:
        assert data["best"]["446"]["score"] == 24


def test_hint_matches_the_command_line(client, capsys):
    data = client.post("/api/hint", json={**SOLVE_BODY, "level": 2, "prefix": "21²", "lang": "en"}).get_json()
    argv = ["hint", "--json", "--lang", "en", "--level", "2", "--prefix", "21²"]
    argv += EXAMPLE_ROLL_ARGS
    cli_main(argv)
    assert data == json.loads(capsys.readouterr().out)
    assert len(data["hints"]) == 2 and data["track"]["on_track"]


@pytest.mark.parametrize(
    ("path", "body"),
    [("/api/solve", {"level": 4}), ("/api/hint", {"level": 0}), ("/api/hint", {"prefix": 3}),
     ("/api/advise", {"rerolled": -2})],
)  # fmt: skip
def test_solver_endpoints_refuse_bad_fields(client, path, body):
    response = client.post(path, json={**SOLVE_BODY, **body}, headers={"Accept-Language": "ja"})
    assert response.status_code == 400 and response.get_json()["error"]["message"]


@pytest.mark.slow
def test_advise_answers_live_and_keeps_the_outcomes(app, client):
    """Without the odds table the advice is solved live (off the request thread) and its outcomes kept."""
    from suji.web import advice

    advice.forget()
    answer = client.post("/api/advise", json=SOLVE_BODY, headers={"Accept-Language": "en"})
    while answer.status_code == 202:  # being worked out: wait for it, then ask again (as the game page does)
        for event in list(advice._jobs.values()):
            event.wait()
        answer = client.post("/api/advise", json=SOLVE_BODY, headers={"Accept-Language": "en"})
    assert answer.status_code == 200 and answer.get_json()["best"]
    advice.forget()  # this process forgets: the database still has them
    # The same dice with other costs spent: answered from the kept outcomes, with the costs applied.
    again = client.post("/api/advise", json={**SOLVE_BODY, "rerolled": 3}, headers={"Accept-Language": "en"})
    assert again.status_code == 200
    assert again.get_json()["best"]["expected_score"] != answer.get_json()["best"]["expected_score"]


def test_advise_refuses_custom_dice(client):
    body = {"target": 10, "number_dice": [9, 1], "operator_dice": ["+"]}
    response = client.post("/api/advise", json=body, headers={"Accept-Language": "en"})
    assert response.status_code == 400 and response.get_json()["error"]["code"] == "not_standard"


def test_solve_refuses_rolls_too_big_for_the_solver(client):
    body = {**SOLVE_BODY, "number_dice": [1, 2, 3, 4, 5, 6]}
    response = client.post("/api/solve", json=body, headers={"Accept-Language": "en"})
    assert response.status_code == 400 and response.get_json()["error"]["code"] == "too_many_dice"


def test_hint_lists_the_hints_one_step_further_each(client):
    data = client.post("/api/hint", json={**SOLVE_BODY, "lang": "en"}).get_json()
    assert [h["level"] for h in data["hints"]] == [1, 2, 3, 4] and data["track"] is None
    assert "446" in data["hints"][0]["message"] and "points" in data["hints"][-1]["message"]


def test_drill_hints_and_on_track(client, monkeypatch):
    roll = Roll.of([2, 1, 4, 1, 3], ["+", "+", "²", "−"], [4, 4, 6])
    monkeypatch.setattr(drill_rolls, "roll_at", lambda level, seed: roll)
    assert client.post("/api/drill/hint", json={"step": 0}).status_code == 400  # no drill page
    html = client.get("/drill/3").get_data(as_text=True)
    assert 'id="hint-button"' in html and 'data-hint-url="/api/drill/hint"' in html
    roll_token = re.search(r'data-roll="([^"]+)"', html).group(1)
    first = client.post("/api/drill/hint", json={"step": 0, "lang": "en", "roll": roll_token}).get_json()
    assert first["more"] and "446" in first["hint"]
    last = client.post("/api/drill/hint", json={"step": 3, "lang": "en", "roll": roll_token}).get_json()
    assert not last["more"] and "A best answer" in last["hint"]
    bad = client.post(
        "/api/drill/hint", json={"step": 4, "roll": roll_token}, headers={"Accept-Language": "ja"}
    )
    assert bad.status_code == 400 and "step" in bad.get_json()["error"]["message"]
    track = client.post(
        "/api/drill/on-track", json={"formula": "21²+", "lang": "en", "roll": roll_token}
    ).get_json()
    assert track["on_track"] and 446 in track["targets"] and "Still on track" in track["message"]
    track = client.post(
        "/api/drill/on-track", json={"formula": "7", "lang": "ja", "roll": roll_token}
    ).get_json()
    assert not track["on_track"] and "7" in track["message"]


def test_check_page_shows_the_best_possible_score(client, monkeypatch):
    roll = Roll.of([2, 1, 4, 1, 3], ["+", "+", "²", "−"], [4, 4, 6])
    monkeypatch.setattr(drill_rolls, "roll_at", lambda level, seed: roll)
    roll_token = open_drill(client, 3)
    response = client.post(
        "/drill/3/check",
        data={"formula": "21²+4+1", "roll": roll_token},
        headers={"Accept-Language": "ja"},
        follow_redirects=True,
    )
    html = strip_ruby(response.get_data(as_text=True))
    assert "このレベルでとれるいちばん高い得点" in html and 'id="best-score">35点<' in html

"""`suji solve`, `suji solve --batch`, `suji hint` and `suji advise` on the command line."""

from __future__ import annotations

import json

from examples import EXAMPLE_ROLL_ARGS

from suji.cli import main
from suji.rules.dice import Roll
from suji.rules.scoring import check

DICE = EXAMPLE_ROLL_ARGS
ROLL = Roll.of(number_dice=[2, 1, 4, 1, 3], operator_dice=["+", "+", "²", "−"], target_dice=[4, 4, 6])


def test_solve_json(capsys):
    assert main(["solve", *DICE, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["targets"] == [446, 449, 464, 494, 644, 944]
    assert set(data["best"]) == {"446", "944"}
    for target, best in data["best"].items():
        assert set(best) == {"score", "formula", "tokens", "solutions"}
        result = check(best["formula"], ROLL)
        assert result.target == int(target) and result.score == best["score"]
        assert "".join(best["tokens"]) == best["formula"]


def test_solve_text_in_japanese(capsys):
    assert main(["solve", *DICE, "--lang", "ja"]) == 0
    out = capsys.readouterr().out
    assert "449：作れません" in out and "最高得点" in out


def test_solve_batch_one_line_per_roll_in_order(tmp_path, capsys):
    rolls = [
        {"target_dice": [4, 4, 6], "number_dice": [2, 1, 4, 1, 3], "operator_dice": ["+", "+", "^2", "-"]},
        {"target_dice": [8, 8, 8], "number_dice": [1, 1, 1, 1, 1], "operator_dice": ["+", "+", "+", "x10"]},
        {"target_dice": [1, 2, 5], "number_dice": [5, 2, 1, 3, 3], "operator_dice": ["×", "÷", "−", "√"]},
    ]
    path = tmp_path / "rolls.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rolls), encoding="utf-8")
    assert main(["solve", "--batch", str(path)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 3
    assert lines[0]["targets"][0] == 446 and "446" in lines[0]["best"]
    assert lines[1] == {"targets": [888], "best": {}}
    assert lines[2]["targets"] == [125, 152, 215, 251, 512, 521]


def test_solve_batch_reports_bad_lines_and_goes_on(tmp_path, capsys):
    path = tmp_path / "rolls.jsonl"
    path.write_text(
        '[1]\n{"number_dice": [1], "operator_dice": ["q"], "target": 3}\n{"target": 3}\n', encoding="utf-8"
    )
    assert main(["solve", "--batch", str(path), "--lang", "en"]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["line"] for line in lines] == [1, 2, 3]
    assert lines[1]["error"]["code"] == "unknown_operator_die"
    assert "number_dice" in lines[2]["error"]["message"]


def test_solve_batch_refuses_a_fifo_without_waiting_for_a_writer(tmp_path, capsys):
    import os

    fifo = tmp_path / "rolls.jsonl"
    os.mkfifo(fifo)  # nobody ever writes to it: a reader that opened it would wait for ever
    assert main(["solve", "--batch", str(fifo), "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert "is not a regular file" in err and "“-”" in err


def test_solve_needs_dice_or_batch(capsys):
    assert main(["solve"]) == 2


def test_hint_levels_and_prefix(capsys):
    assert main(["hint", *DICE, "--level", "2", "--prefix", "21²+", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [h["level"] for h in data["hints"]] == [1, 2]
    assert data["track"]["on_track"] is True and data["track"]["targets"] == [446]


def test_advise_json_and_text(capsys):
    assert main(["advise", "--target-dice", "6", "6", "5", "--number-dice", "2", "2", "2", "2", "2",
                 "--operator-dice", "/", "/", "+", "sqrt", "--json"]) == 0  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    assert data["best"]["kind"] == "reroll" and data["options"][0] == data["best"]
    assert main(["advise", "--target", "3", "--number-dice", "1", "2", "--operator-dice", "+"]) == 2

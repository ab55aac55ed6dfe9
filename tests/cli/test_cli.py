"""suji.cli: `suji check` and `suji roll` — exit statuses, --json, operator spellings, languages, seeds."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from suji.cli import main
from suji.rules.dice import random_roll

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
JSON_KEYS = {
    "valid",
    "error",
    "value",
    "display",
    "target",
    "scored_formula",
    "scored_tokens",
    "removed_tokens",
    "operator_points",
    "number_dice_used",
    "score",
}
SEED_DICE = ["--target-dice", "4", "4", "6", "--number-dice", "2", "1", "4", "1", "3"]


@pytest.fixture(autouse=True)
def english_environment(monkeypatch):
    """Messages in English unless a test asks otherwise, whatever the machine's locale."""
    for var in ("SUJI_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def run_json(capsys, *argv: str) -> tuple[int, dict]:
    status, out, _ = run(capsys, *argv, "--json")
    assert out.count("\n") == 1  # one JSON object on one line
    return status, json.loads(out)


def test_check_made_exits_0_and_explains(capsys):
    status, out, _ = run(
        capsys, "check", "21²+4+1", *SEED_DICE, "--operator-dice", "+", "+", "^2", "-", "--rerolled", "3"
    )
    assert status == 0
    assert out.splitlines() == [
        "✓ 21²+4+1 = 446: target 446 made.",
        "Scored formula: 21²+4+1",
        "Operator points 6 × number dice 4 = 24",
        "Re-rolled 3, set 0: −3",
        "Score: 21",
    ]


def test_check_json_has_exactly_the_documented_keys(capsys):
    argv = ["check", "21²+4+1", *SEED_DICE, "--operator-dice", "+", "+", "^2", "-", "--rerolled", "3"]
    status, data = run_json(capsys, *argv)
    assert status == 0
    assert set(data) == JSON_KEYS
    assert data == {
        "valid": True,
        "error": None,
        "value": "446",
        "display": "446",
        "target": 446,
        "scored_formula": "21²+4+1",
        "scored_tokens": ["2", "1", "²", "+", "4", "+", "1"],
        "removed_tokens": [],
        "operator_points": 6,
        "number_dice_used": 4,
        "score": 21,
    }


def test_check_json_shows_removed_dice_and_set_face_cost(capsys):
    argv = ["check", "8+2÷11×11", "--target", "10", "--number-dice", "8", "2", "1", "1", "--operator-dice"]
    status, data = run_json(capsys, *argv, "+", "/", "x11", "--set-faces", "1")
    assert status == 0
    assert data["scored_formula"] == "8+2"
    assert data["removed_tokens"] == ["÷", "1", "1", "×11"]
    assert (data["operator_points"], data["number_dice_used"], data["score"]) == (1, 2, 0)


@pytest.mark.parametrize(
    ("formula", "numbers", "operators", "value", "display"),
    [
        ("1÷3", ["1", "3"], ["/"], "1/3", "1/3"),
        ("√8", ["8"], ["sqrt"], "2*sqrt(2)", "2√2"),
        ("√2+1", ["2", "1"], ["sqrt", "+"], "1 + sqrt(2)", "1+√2"),
        ("√8×3", ["8", "3"], ["sqrt", "x"], "6*sqrt(2)", "6√2"),
    ],
)
def test_check_json_value_text_and_miss_exits_1(capsys, formula, numbers, operators, value, display):
    """The JSON keeps `value` in machine form (SymPy's spelling) and adds the pupil's spelling as `display`."""
    argv = ["check", formula, "--target", "5", "--number-dice", *numbers, "--operator-dice", *operators]
    status, data = run_json(capsys, *argv)
    assert status == 1
    assert data["valid"] is True and data["target"] is None and data["score"] == 0
    assert (data["value"], data["display"]) == (value, display)
    status = main(["check", formula, "--target", "5", "--number-dice", *numbers, "--operator-dice", *operators])
    assert f"= {display}: not a target" in capsys.readouterr().out  # the verdict line: the pupil's spelling


def test_check_invalid_exits_1(capsys):
    status, data = run_json(
        capsys, "check", "5++4", "--target", "9", "--number-dice", "5", "4", "--operator-dice", "+", "+"
    )
    assert status == 1
    assert set(data) == JSON_KEYS
    assert data["valid"] is False and data["value"] is None and data["scored_formula"] is None
    assert data["error"]["code"] == "adjacent_operators" and data["error"]["column"] == 3
    status, out, _ = run(
        capsys, "check", "5++4", "--target", "9", "--number-dice", "5", "4", "--operator-dice", "+", "+"
    )
    assert status == 1
    assert out.splitlines() == [
        "✗ Not a valid formula (column 3): Two operators stand side by side at “+”. Put a number between them.",
        "5++4",
        "  ^",
    ]
    status, out, _ = run(capsys, "check", " ", "--target", "9", "--number-dice", "5", "--operator-dice", "+")
    assert (status, out) == (1, "✗ Not a valid formula: Write a formula.\n")


def test_check_miss_exits_1(capsys):
    status, out, _ = run(capsys, "check", "21²+4+3", *SEED_DICE, "--operator-dice", "+", "+", "^2", "-")
    assert status == 1
    assert out.splitlines()[0] == "✗ 21²+4+3 = 448: not a target (446 449 464 494 644 944)."
    assert out.splitlines()[-1] == "Score: 0"


def test_operator_dice_ascii_or_printed_give_the_same_result(capsys):
    printed = {"+": "+", "-": "−", "*": "×", "/": "÷", "x10": "×10", "x11": "×11", "^2": "²", "sqrt": "√"}
    cases = (
        ("21²+4+1−3", "443", ["+", "-", "^2", "+", "*"]),
        ("√4+21×11−3", "230", ["+", "-", "x11", "sqrt", "+"]),
        ("4÷2×10+31²", "981", ["/", "x10", "+", "^2"]),
    )
    for formula, value, ascii_ops in cases:
        results = [
            run_json(capsys, "check", formula, *SEED_DICE, "--operator-dice", *ops)
            for ops in (ascii_ops, [printed[op] for op in ascii_ops])
        ]
        assert results[0] == results[1]
        status, data = results[0]
        assert (status, data["valid"], data["value"]) == (1, True, value)


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "5+4", "--target", "9", "--number-dice", "5", "4", "--operator-dice", "+", "?"],
        ["check", "5+4", "--target", "9", "--number-dice", "5", "0", "--operator-dice", "+"],
        ["check", "5+4", "--target", "0", "--number-dice", "5", "4", "--operator-dice", "+"],
    ],
)
def test_bad_dice_exit_2(capsys, argv):
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert err.startswith("suji: ") and err.count("\n") == 1


def test_bad_operator_die_message_in_japanese(capsys):
    argv = [
        "check",
        "5+4",
        "--target",
        "9",
        "--number-dice",
        "5",
        "4",
        "--operator-dice",
        "+",
        "?",
        "--lang",
        "ja",
    ]
    status, _, err = run(capsys, *argv)
    assert status == 2
    assert "?" in err and JAPANESE.search(err)


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "5+4", "--target", "9", "--number-dice", "5", "4"],  # no operator dice
        ["check", "5+4", "--target", "9", "--operator-dice", "+"],  # no number dice
        ["check", "5+4", "--number-dice", "5", "4", "--operator-dice", "+"],  # no target
        [
            "check",
            "5+4",
            "--target",
            "9",
            "--target-dice",
            "1",
            "2",
            "3",
            "--number-dice",
            "5",
            "--operator-dice",
            "+",
        ],
        ["check", "--target", "9", "--number-dice", "5", "--operator-dice", "+"],  # no formula
        ["check", "5", "--target", "x", "--number-dice", "5", "--operator-dice", "+"],
        ["check", "5", "--target", "5", "--number-dice", "5", "--operator-dice", "+", "--rerolled", "-1"],
        ["check", "5", "--target", "5", "--number-dice", "5", "--operator-dice", "+", "--lang", "fr"],
        ["nonsense"],
        [],
    ],
)
def test_bad_command_line_exits_2(capsys, argv):
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    assert "usage" in capsys.readouterr().err


def test_lang_ja_really_prints_japanese(capsys):
    argv = [
        "check",
        "21²+4+1",
        *SEED_DICE,
        "--operator-dice",
        "+",
        "+",
        "^2",
        "-",
        "--rerolled",
        "3",
        "--lang",
        "ja",
    ]
    status, out, _ = run(capsys, *argv)
    assert status == 0
    lines = out.splitlines()
    assert len(lines) == 5
    assert all(JAPANESE.search(line) for line in lines)
    assert "Score" not in out and "target" not in out
    assert "446" in lines[0] and "21" in lines[-1]


def test_lang_ja_error_and_caret_under_full_width_text(capsys):
    argv = [
        "check",
        "５＋＋４",
        "--target",
        "9",
        "--number-dice",
        "5",
        "4",
        "--operator-dice",
        "+",
        "+",
        "--lang",
        "ja",
    ]
    status, out, _ = run(capsys, *argv)
    assert status == 1
    first, text, caret = out.splitlines()
    assert JAPANESE.search(first) and "column" not in first
    assert (text, caret) == ("５＋＋４", "    ^")


def test_json_error_message_follows_lang(capsys):
    argv = ["check", "5++4", "--target", "9", "--number-dice", "5", "4", "--operator-dice", "+", "+"]
    _, english = run_json(capsys, *argv, "--lang", "en")
    _, japanese = run_json(capsys, *argv, "--lang", "ja")
    assert english["error"]["code"] == japanese["error"]["code"]
    assert JAPANESE.search(japanese["error"]["message"]) and not JAPANESE.search(english["error"]["message"])


def test_language_from_the_environment(capsys, monkeypatch):
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    _, out, _ = run(capsys, "roll", "--seed", "1")
    assert JAPANESE.search(out)
    monkeypatch.setenv("SUJI_LANG", "en")
    _, out, _ = run(capsys, "roll", "--seed", "1")
    assert not JAPANESE.search(out)


def test_roll_seed_json_is_reproducible(capsys):
    first = run_json(capsys, "roll", "--seed", "42")
    second = run_json(capsys, "roll", "--seed", "42")
    assert first == second
    status, data = first
    assert status == 0
    assert data == random_roll("42").to_dict()
    assert run_json(capsys, "roll", "--seed", "43")[1] != data


def test_roll_text(capsys):
    status, out, _ = run(capsys, "roll", "--seed", "7")
    roll = random_roll("7")
    assert status == 0
    assert out.splitlines() == [
        f"Target dice: {' '.join(map(str, roll.target_dice))}  →  targets: {' '.join(map(str, roll.targets))}",
        f"Number dice: {' '.join(map(str, roll.number_dice))}",
        f"Operator dice: {' '.join(roll.operator_dice)}",
    ]


def _suji_executable() -> str:
    candidate = Path(sys.executable).with_name("suji")
    return str(candidate) if candidate.exists() else shutil.which("suji") or "suji"


@pytest.mark.slow
def test_suji_entry_point_in_a_subprocess(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("SUJI_LANG", "LC_ALL", "LC_MESSAGES", "LANG")}
    argv = [
        _suji_executable(),
        "check",
        "21^2+4+1",
        *SEED_DICE,
        "--operator-dice",
        "+",
        "+",
        "^2",
        "-",
        "--json",
    ]
    made = subprocess.run(argv + ["--rerolled", "3"], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert made.returncode == 0, made.stderr
    assert json.loads(made.stdout)["score"] == 21
    missed = subprocess.run(
        [*argv[:2], "21^2+4", *argv[3:]], capture_output=True, text=True, cwd=tmp_path, env=env
    )
    assert missed.returncode == 1
    assert json.loads(missed.stdout)["value"] == "445"
    bad = subprocess.run([argv[0], "check", "5"], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert bad.returncode == 2
    rolls = [
        subprocess.run(
            [argv[0], "roll", "--seed", "9", "--json"], capture_output=True, text=True, env=env
        ).stdout
        for _ in range(2)
    ]
    assert rolls[0] == rolls[1] and json.loads(rolls[0]) == random_roll("9").to_dict()

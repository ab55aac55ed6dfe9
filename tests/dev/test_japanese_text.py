"""textlint (preset-japanese, preset-jtf-style) finds no problem in the catalog's or the templates' Japanese.

.ci/run installs textlint into .ci/textlint (npm); without it this test skips and says so. The rules are all
on (.ci/textlint/.textlintrc.json): a rule turned off there must say why on its own line.
"""

from __future__ import annotations

import json

import pytest

from suji.dev import japanese


@pytest.mark.slow  # node and its dictionary take some 30 s to start
def test_textlint_finds_no_problem_in_the_japanese(tmp_path):
    if japanese.textlint_command() is None:
        pytest.skip(f"textlint is not installed in {japanese.TEXTLINT_DIR} (.ci/run npm-installs it)")
    result = japanese.lint(tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_lint_text_holds_every_japanese_message_with_placeholders_filled(tmp_path):
    catalog, templates = japanese.write_lint_text(tmp_path)
    text = catalog.read_text(encoding="utf-8")
    assert "%(" not in text and "「3」：勝負する（3以上が必要）" in text
    assert len(text.split("\n\n")) > 1000
    assert "すうじであそぼ" in templates.read_text(encoding="utf-8")


def test_every_rule_turned_off_says_why():
    config = json.loads((japanese.TEXTLINT_DIR / ".textlintrc.json").read_text(encoding="utf-8"))
    presets = {name: value for name, value in config["rules"].items() if name.startswith("preset-")}
    assert presets == {"preset-japanese": presets["preset-japanese"], "preset-jtf-style": presets["preset-jtf-style"]}
    reasons = config.get("//", {})
    for preset in presets.values():
        if isinstance(preset, dict):
            assert all(reasons.get(rule) for rule, on in preset.items() if on is False)

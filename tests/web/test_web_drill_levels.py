"""Drills keep to their level: hints, "still on track?" and the best answer use only the level's operators."""

from __future__ import annotations

import re

import pytest
from drill_support import open_drill

from suji.core import caching
from suji.rules.dice import Roll
from suji.solver.search import LEVEL_OPERATORS, solve
from suji.web import drill_rolls

# A roll with a different best answer at each level: 472−25 (5), 475−2÷2 (20), 752−4²÷2 (40).
ROLL = Roll.of([4, 5, 7, 2, 2], ["×", "−", "÷", "²"], [4, 7, 4])


@pytest.fixture
def level_client(client, monkeypatch):
    monkeypatch.setattr(drill_rolls, "roll_at", lambda level, seed: ROLL)
    caching.clear_all()  # the solver's answers and checks of other tests' rolls go
    return client


def _operators(formula: str) -> set[str]:
    return set(re.findall(r"×1[012]|[+−×÷²√]", formula))


@pytest.mark.parametrize("level", [1, 2, 3])
def test_hints_and_on_track_keep_to_the_level(level_client, level):
    token = open_drill(level_client, level)
    allowed = LEVEL_OPERATORS[level]
    best = solve(ROLL, allowed).top
    assert best is not None and (solve(ROLL).top.score > best.score or level == 3)
    last = level_client.post("/api/drill/hint", json={"roll": token, "step": 3, "lang": "en"}).get_json()
    assert best.formula in last["hint"] and _operators(best.formula) <= allowed
    track = level_client.post("/api/drill/on-track", json={"roll": token, "formula": "47", "lang": "en"})
    data = track.get_json()
    if data["best"]:
        assert _operators(data["best"]["formula"]) <= allowed


@pytest.mark.parametrize("level", [1, 2])
def test_the_best_answer_after_a_try_keeps_to_the_level(level_client, level):
    token = open_drill(level_client, level)
    page = level_client.post(f"/drill/{level}/check", follow_redirects=True, data={"roll": token, "formula": "4×5"},
                             headers={"Accept-Language": "en"}).get_data(as_text=True)  # fmt: skip
    best = solve(ROLL, LEVEL_OPERATORS[level]).top
    shown = re.search(r'<span class="scored-formula">(.*?)</span>\s*=', page, re.S)
    assert shown and "".join(re.findall(r">([^<]+)<", shown.group(0))).strip().startswith(best.formula[:2])
    assert f'id="best-score">{best.score} points<' in page
    assert "²" not in re.sub(r"<[^>]+>", "", page.split('id="best-answer"')[1].split("</section>")[0])


def test_a_miss_keeps_the_best_answer_behind_a_tap(level_client):
    token = open_drill(level_client, 3)
    miss = level_client.post("/drill/3/check", follow_redirects=True, data={"roll": token, "formula": "4×5"},
                             headers={"Accept-Language": "en"}).get_data(as_text=True)  # fmt: skip
    assert '<details id="best-answer"><summary>Show the best answer</summary>' in miss
    made = level_client.post("/drill/3/check", follow_redirects=True, data={"roll": token, "formula": "752−4²÷2"},
                             headers={"Accept-Language": "en"}).get_data(as_text=True)  # fmt: skip
    assert '<div id="best-answer">' in made and '<details id="best-answer">' not in made


def test_a_score_above_the_levels_best_is_praised_not_left_unexplained(level_client):
    token = open_drill(level_client, 1)
    page = level_client.post("/drill/1/check", follow_redirects=True, data={"roll": token, "formula": "752−4²÷2"},
                             headers={"Accept-Language": "en"}).get_data(as_text=True)  # fmt: skip
    assert 'id="best-score">5 points<' in page and 'id="beat-level"' in page and "40 points are more than that" in page
    token = open_drill(level_client, 1)
    level_best = level_client.post("/drill/1/check", follow_redirects=True, data={"roll": token, "formula": "472−25"},
                                   headers={"Accept-Language": "en"}).get_data(as_text=True)  # fmt: skip
    assert 'id="beat-level"' not in level_best


@pytest.mark.parametrize("level", [1, 2, 3])
def test_the_drill_says_how_hard_the_roll_is(level_client, level):
    html = level_client.get(f"/drill/{level}", headers={"Accept-Language": "en"}).get_data(as_text=True)
    solution = solve(ROLL, LEVEL_OPERATORS[level])
    expected = f"{len(solution.best)} of these targets can be made at this level; the best score is {solution.top.score}."
    assert expected in html


def _all_hints(client, token: str) -> None:
    for step in range(4):
        assert client.post("/api/drill/hint", json={"roll": token, "step": step, "lang": "en"}).status_code == 200


def _streak(page: str) -> str:
    return re.search(r'class="streak"[^>]*>(.*?)</', page, re.S).group(1)


def test_only_the_last_hints_formula_written_again_is_copied(level_client):
    # After the last hint (the whole best formula), that formula, in any order, is not the pupil's own; another
    # formula is, whatever the pupil saw (a pupil was told "the hint showed this formula" for 998−12²).
    best = solve(ROLL, LEVEL_OPERATORS[3]).top
    token = open_drill(level_client, 3)
    _all_hints(level_client, token)
    page = level_client.post("/drill/3/check", follow_redirects=True, data={"roll": token, "formula": best.formula},
                             headers={"Accept-Language": "en"}).get_data(as_text=True)  # fmt: skip
    assert "The last hint showed this whole formula" in page and "(from the hint)" in page
    own = next(
        f for t, fs in sorted(solve(ROLL, LEVEL_OPERATORS[3]).formulas.items()) for f in fs
        if sorted(map(str, f)) != sorted(map(str, best.faces))
    )  # a formula of other dice (or another target)
    level_client.post("/drill/3/new", data={"roll": token})
    token = open_drill(level_client, 3)
    _all_hints(level_client, token)
    page = level_client.post("/drill/3/check", follow_redirects=True, data={"roll": token, "formula": "".join(map(str, own))},
                             headers={"Accept-Language": "en"}).get_data(as_text=True)  # fmt: skip
    assert "The last hint showed this whole formula" not in page and "(from the hint)" not in page
    assert 'class="verdict made' in page or "verdict made" in page


def test_the_last_hints_formula_in_another_order_is_still_copied():
    from suji.rules.scoring import check
    from suji.web.drill import copied_from_hint

    roll = Roll.of([3, 5, 6, 8, 6], ["+", "×", "+", "²"], [4, 8, 7])  # the last hint: 3+56×8+6² = 487
    solution = solve(roll, LEVEL_OPERATORS[3])
    assert solution.top.formula == "3+56×8+6²"
    for formula, copied in (("56×8+3+6²", True), ("6²+56×8+3", True), ("3+56×8+6²", True), ("39+56×8", False), ("6+59×8", False)):
        result = check(formula, roll)
        assert result.target is not None, formula
        assert copied_from_hint(roll, solution, 4, result) is copied, formula
        assert copied_from_hint(roll, solution, 3, result) is False  # the whole formula was not shown

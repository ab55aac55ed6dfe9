"""Certified problems: reproducible by seed, solvable at their level, with the level's dice."""

from __future__ import annotations

import pytest

from suji.rules.scoring import check
from suji.solver.problems import certified_roll, problem_set
from suji.solver.search import LEVEL_OPERATORS


@pytest.mark.parametrize("level", [1, 2, 3])
def test_problem_sets_are_reproducible_and_solvable(level):
    first = problem_set(6, level, seed="class-3b")
    again = problem_set(6, level, seed="class-3b")
    assert [p.roll for p in first] == [p.roll for p in again]
    assert [p.roll for p in first] != [p.roll for p in problem_set(6, level, seed="class-3c")]
    for problem in first:
        top = problem.solution.top
        assert top is not None
        used = {f for f in top.faces if isinstance(f, str)}
        assert used <= LEVEL_OPERATORS[level]
        result = check(top.formula, problem.roll)
        assert result.valid and result.target == top.target and result.score == top.score


def test_higher_levels_show_their_dice():
    for seed in range(10):
        assert set(certified_roll(2, seed).roll.operator_dice) & (LEVEL_OPERATORS[2] - LEVEL_OPERATORS[1])
        assert set(certified_roll(3, seed).roll.operator_dice) & {"²", "√"}


def test_bad_level():
    with pytest.raises(ValueError):
        certified_roll(4, 1)

"""What a class's not-target tries made instead (issue 26, item 15): something a teacher can act on."""

from __future__ import annotations

from suji.play import classroom as core
from suji.play.classroom.misses import miss_of, summarize
from suji.play.classroom.settings import ClassSettings
from suji.rules.dice import Roll

ROLL = Roll.of([2, 1, 4, 1, 3], ["+", "+", "^2", "-"], [4, 4, 6])  # targets 446 449 464 494 644 944


def test_a_miss_is_its_value_the_nearest_target_and_the_dice_left_out():
    miss = miss_of(ROLL, "21²+4")
    assert (miss.value, miss.nearest) == ("445", 446)  # one short of 446: a slip, not a wrong idea
    assert sorted(miss.left_over) == sorted(["1", "3", "+", "−"])
    assert miss_of(ROLL, "2+1+4+1+3") is None  # three + dice: the checker's own error, named apart
    assert miss_of(ROLL, "21²+4+1") is None  # 446, a target: no miss
    made = miss_of(ROLL, "4+3")
    assert made.value == "7" and made.nearest == 446


def test_the_summary_names_the_common_values_and_the_dice_most_tries_left_out():
    summary = summarize(ROLL, ["21+4", "21+4", "21²+4+13", "2+1+4+1+3"])
    assert summary.tries == 3  # the error is not a not-target try
    assert [(m.value, n) for m, n in summary.values] == [("25", 2), ("458", 1)]
    assert summary.left_over == (("−", 3), ("+", 2))  # − in every try: this class does not subtract
    assert summary.lines("en") == [
        "made 25 (nearest target 446), 2 times",
        "made 458 (nearest target 464)",
        "left over: − in 3 of 3, + in 2 of 3",
    ]
    assert summary.lines("ja")[2] == "使わなかったサイコロ：−（3回中3回）、+（3回中2回）"
    assert summarize(ROLL, ["2+1+4+1+3"]) is None and summarize(ROLL, []) is None
    assert summarize(ROLL, ["21+4"]).left_over == ()  # one try that left dice out says nothing about the class


def test_the_grid_shows_it_under_the_most_common_mistake():
    problem = core.ClassProblem(1, 3, ROLL, 24, "21²+4+1")
    grid = core.results((problem,), [("Ken", 0, {})], [(0, "not_target", 2)], {0: ["21+4", "21+4"]})
    assert grid.columns[0].mistake_lines("en") == [
        "made 25 (nearest target 446), 2 times", "left over: + in 2 of 2, 1 in 2 of 2"
    ]  # fmt: skip
    other = core.results((problem,), [("Ken", 0, {})], [(0, "adjacent_operators", 2)], {0: ["21+4"]})
    assert other.columns[0].mistake_lines("en") == []  # another mistake says what it is already


def test_a_class_problem_keeps_the_printed_key_s_best():
    problems = core.choose_problems(ClassSettings(count=6, level=1, seed="key-best"))
    assert all(p.key_score is not None and p.key_score <= p.best_score for p in problems)
    assert any(p.key_differs for p in problems)  # level 1: × ÷ and the other dice often score more
    again = core.ClassProblem.from_dict(problems[0].to_dict())
    assert again == problems[0]
    old = {k: v for k, v in problems[0].to_dict().items() if k != "key_score"}  # a session made before
    assert core.ClassProblem.from_dict(old).key_score is None and not core.ClassProblem.from_dict(old).key_differs

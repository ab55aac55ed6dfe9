"""suji.play.classroom: settings, problems as the worksheet's, codes, names, grading, hints, the grid, the CSV."""

from __future__ import annotations

import csv
import io

import pytest

from suji.play import classroom as core
from suji.play.classroom import ClassError, ClassSettings, Progress
from suji.rules.dice import Roll
from suji.rules.language.errors import FormulaError
from suji.rules.scoring import check
from suji.worksheets import sheet


def test_settings_are_read_like_the_worksheet_form():
    settings, errors = core.parse_settings(
        {"count": "８", "level": "Mixed", "seed": " abc ", "version": "b", "time_limit": "15", "hints": "yes",
         "hint_cost": "no"}
    )  # fmt: skip
    assert errors == []
    assert settings == ClassSettings(8, "mixed", "abc", 1, 15, True, False)
    assert settings.version_label == "B"


@pytest.mark.parametrize(
    ("field", "value", "code"),
    [("count", "0", "count"), ("count", "21", "count"), ("count", "x", "count"), ("level", "4", "sheet"),
     ("seed", "a\nb", "sheet"), ("seed", "😀", "sheet"), ("version", "G", "version"), ("time_limit", "0", "time_limit"),
     ("time_limit", "181", "time_limit"), ("hints", "maybe", "yes_no"), ("hint_cost", "", "yes_no")],
)  # fmt: skip
def test_bad_settings_are_named_with_a_message_in_both_languages(field, value, code):
    _, errors = core.parse_settings({field: value})
    assert [(e.field, e.code) for e in errors] == [(field, code)]
    english, japanese = errors[0].message("en"), errors[0].message("ja")
    assert english and japanese and english != japanese


def test_an_empty_time_limit_means_none():
    settings, errors = core.parse_settings({"time_limit": " "})
    assert errors == [] and settings.time_limit is None


def test_problems_are_the_worksheets_problems_for_the_same_seed_and_version():
    for level, version in ((1, 0), (sheet.MIXED, 2)):
        settings = ClassSettings(count=4, level=level, seed="class-42", version=version)
        problems = core.choose_problems(settings)
        printed = sheet.build_worksheet(sheet.Settings(count=4, level=level, seed="class-42", versions=3))
        assert [p.roll for p in problems] == [p.roll for p in printed.versions[version].problems]
        assert [p.level for p in problems] == [p.level for p in printed.versions[version].problems]
        assert [p.number for p in problems] == [1, 2, 3, 4]
    other = core.choose_problems(ClassSettings(count=4, level=1, seed="class-43"))
    assert [p.roll for p in other] != [
        p.roll for p in core.choose_problems(ClassSettings(count=4, seed="class-42"))
    ]


def test_best_score_is_with_every_die_and_its_formula_makes_it():
    for problem in core.choose_problems(ClassSettings(count=5, level=1, seed="best")):
        result = check(problem.best_formula, problem.roll)
        assert result.target is not None and result.score == problem.best_score
        # At least as good as the worksheet key, which keeps to the level's operators.
        assert problem.best_score >= core.level_solution(problem.roll, 1).top.score


def test_problems_survive_a_round_trip_through_json():
    problems = core.choose_problems(ClassSettings(count=3, level=3, seed="json"))
    assert tuple(core.ClassProblem.from_dict(p.to_dict()) for p in problems) == problems
    settings = ClassSettings(count=3, level="mixed", seed="s", version=2, time_limit=5, hints=False)
    assert ClassSettings.from_dict(settings.to_dict()) == settings


def test_a_new_seed_is_chosen_only_when_none_is_given():
    assert core.with_seed(ClassSettings(seed="x")).seed == "x"
    assert core.with_seed(ClassSettings()).seed.isdigit()
    with pytest.raises(ValueError):
        core.choose_problems(ClassSettings())


def test_codes_have_no_look_alikes_and_are_read_forgivingly():
    assert not set("0O1IL5S2Z8B") & set(core.CODE_ALPHABET)
    codes = {core.new_code() for _ in range(200)}
    assert all(len(c) == 6 and set(c) <= set(core.CODE_ALPHABET) for c in codes)
    assert core.new_code(taken=codes) not in codes
    assert core.clean_code(" km4-7tq ".replace("4", "3")) == "KM37TQ"
    assert core.clean_code("ＫＭ３７ＴＱ") == "KM37TQ"
    for bad, code in (("", "no_code"), ("KM37T", "bad_code"), ("KM37TQQ", "bad_code"), ("KM3OTQ", "unknown_code"),
                      ("x" * 10_000, "bad_code")):  # fmt: skip
        with pytest.raises(ClassError) as caught:
            core.clean_code(bad)
        assert caught.value.code == code


def test_names_follow_the_leaderboards_rules_and_compare_without_case():
    assert core.clean_name("  Ken   Sato ") == "Ken Sato"
    assert core.name_key("KEN") == core.name_key("ken") == core.name_key("ｋｅｎ")
    for bad, code in (("", "nickname_length"), ("a" * 21, "nickname_length"), ("<b>", "nickname_chars")):
        with pytest.raises(ClassError) as caught:
            core.clean_name(bad)
        assert caught.value.code == code
        assert caught.value.message("ja") != caught.value.message("en")


ROLL = Roll.of([2, 1, 4, 1, 3], ["+", "+", "^2", "-"], [4, 4, 6])
PROBLEM = core.ClassProblem(1, 3, ROLL, best_score=24, best_formula="21²+4+1")


def test_a_made_target_scores_and_ends_the_problem():
    progress, attempt = core.grade("２１^2 + 4 + 1", PROBLEM, Progress(), ClassSettings())
    # kept in print, as the grid and the CSV show it
    assert progress == Progress(attempts=1, solved=True, done=True, score=24, formula="21²+4+1")
    assert attempt.error_code is None and attempt.number == 1 and attempt.formula == "21²+4+1"


def test_misses_use_up_the_tries_and_end_the_problem_at_zero():
    settings = ClassSettings()
    progress = Progress()
    for number, formula in enumerate(["2+1", "４３ - 1", "21²+4"], start=1):
        progress, attempt = core.grade(formula, PROBLEM, progress, settings)
        assert attempt.error_code == core.NOT_TARGET and attempt.number == number and attempt.score == 0
        assert progress.attempts == number and progress.done == (number == core.MAX_ATTEMPTS)
    assert progress.formula == "21²+4"  # the last one, in print
    assert not progress.solved and progress.score == 0
    with pytest.raises(ClassError) as caught:
        core.grade("21²+4+1", PROBLEM, progress, settings)
    assert caught.value.code == "problem_done"


@pytest.mark.parametrize(
    ("formula", "code"),
    [("3+3", "used_too_often"), ("21²＋＋4", "adjacent_operators"), ("7+1", "not_rolled"), ("21²+", "ends_with_operator")],
)
def test_a_formula_the_checker_refuses_is_no_try(formula, code):
    # As in practice: a slip of the finger never costs one of the three tries (nor, where only the first try
    # counts, the problem). The checker's error is raised and the progress is left as it was.
    settings = ClassSettings()
    before = Progress(attempts=2, hints_used=1)
    with pytest.raises(FormulaError) as caught:
        core.grade(formula, PROBLEM, before, settings)
    assert caught.value.code == code
    after, attempt = core.grade("21²+4+1", PROBLEM, before, settings)  # the mended formula is the third try
    assert attempt.number == 3 and after.solved and after.score == 24 - core.hint_price(PROBLEM, settings)
    for lang in ("ja", "en"):
        text = core.not_a_try(caught.value, lang)
        assert text.startswith(caught.value.message(lang)) and text != caught.value.message(lang)
    assert core.not_a_try(caught.value, "ja") != core.not_a_try(caught.value, "en")


def test_an_empty_formula_is_refused_and_not_counted():
    with pytest.raises(ClassError) as caught:
        core.grade("   ", PROBLEM, Progress(), ClassSettings())
    assert caught.value.code == "empty_formula"


def test_hints_cost_a_quarter_of_the_best_score_when_the_teacher_says_so():
    assert core.hint_price(PROBLEM, ClassSettings(hint_cost=True)) == 6
    assert core.hint_price(core.ClassProblem(1, 1, ROLL, 45, ""), ClassSettings()) == 12  # rounded up
    assert core.hint_price(PROBLEM, ClassSettings(hint_cost=False)) == 0
    progress = Progress()
    for step in range(2):
        progress, hint = core.take_hint(PROBLEM, progress, ClassSettings(), step)
        assert hint.message("ja")
    progress, _ = core.take_hint(PROBLEM, progress, ClassSettings(), 0)  # seen before: free
    assert progress.hints_used == 2
    progress, _ = core.grade("21²+4+1", PROBLEM, progress, ClassSettings())
    assert progress.score == 24 - 2 * 6
    four = Progress(hints_used=4)
    assert core.grade("21²+4+1", PROBLEM, four, ClassSettings())[0].score == 0
    assert core.grade("21²+4+1", PROBLEM, four, ClassSettings(hint_cost=False))[0].score == 24


def test_hints_come_in_order_and_only_when_allowed():
    for settings, progress, step, code in (
        (ClassSettings(hints=False), Progress(), 0, "no_hints"),
        (ClassSettings(), Progress(), 1, "not_step"),
        (ClassSettings(), Progress(), 4, "not_step"),
        (ClassSettings(), Progress(), True, "not_step"),
        (ClassSettings(), Progress(), "0", "not_step"),
        (ClassSettings(), Progress(done=True), 0, "problem_done"),
    ):
        with pytest.raises(ClassError) as caught:
            core.take_hint(PROBLEM, progress, settings, step)
        assert caught.value.code == code


def test_skipping_scores_zero():
    assert core.skip(Progress(attempts=1)) == Progress(attempts=1, done=True)
    with pytest.raises(ClassError):
        core.skip(Progress(done=True))


def _grid():
    problems = (PROBLEM, core.ClassProblem(2, 1, ROLL, 10, "x"))
    students = [
        ("Aki", 2, {0: Progress(1, 0, True, True, 24, "21²+4+1"), 1: Progress(3, 1, False, True, 0)}),
        ("-Ben", 1, {0: Progress(2, 0, True, True, 20), 1: Progress(1, 0, False, False, 0, "-1+2")}),
        ("ちえ", 0, {}),
    ]
    mistakes = [(0, "not_target", 1), (1, "not_target", 2), (1, "adjacent_operators", 2), (1, "skipped", 1)]
    return core.results(problems, students, mistakes)


def test_the_grid_totals_shares_and_most_common_mistake():
    grid = _grid()
    assert [(r.name, r.total, r.best_total) for r in grid.rows] == [
        ("Aki", 24, 34),
        ("-Ben", 20, 34),
        ("ちえ", 0, 34),
    ]
    assert grid.rows[2].cells == (None, None)
    first, second = grid.columns
    assert (first.solved, first.students, first.percent_solved, first.tried) == (2, 3, 67, 2)
    assert (second.solved, second.percent_solved) == (0, 0)
    assert (first.mistake, first.mistake_count) == ("not_target", 1)
    # A tie (2 and 2) goes to the code first in alphabetical order, on every server.
    assert (second.mistake, second.mistake_count) == ("adjacent_operators", 2)
    assert grid.attempts == 7 and grid.best_total == 34
    assert core.mistake_name("adjacent_operators", "ja") != core.mistake_name("adjacent_operators", "en")
    assert core.mistake_name("something_new", "en") == "Another mistake"
    assert core.mistake_name(None, "en") == ""


def test_every_checker_error_code_has_a_mistake_name():
    from suji.rules.language import errors as formula

    assert set(formula.MESSAGES) <= set(core.MISTAKE_NAMES)


def test_csv_has_a_bom_translated_headers_and_safe_names():
    data = core.results_csv(_grid(), "ja")
    assert data.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert rows[0][:4] == ["番号", "名前", "合計", "最高得点"]  # a school's class list: 番号, 名前 (issue 25)
    assert len(rows[0]) == 4 + 2 * 7 and len(rows) == 4
    assert rows[0][10] == "第1問の式"
    # 番号 is the class number (出席番号) a pupil gave: none here (the grid with numbers: tests/web/test_web_classroom.py)
    assert rows[1][:11] == ["", "Aki", "24", "34", "24", "24", "1", "0", "○", "お題の数ができた", "21²+4+1"]  # ○ for solved
    assert rows[1][11:18] == ["0", "10", "3", "1", "×", "お題の数にならなかった", ""]  # × for not solved, not いいえ
    assert rows[2][1] == "'-Ben"  # a spreadsheet must not read a name as a formula
    # not finished: no score, no verdict yet; and a formula is no spreadsheet formula either
    assert rows[2][11:18] == ["", "10", "1", "0", "", "", "'-1+2"]
    assert rows[3] == ["", "ちえ", "0", "34", "", "24", "", "", "", "", "", "", "10", "", "", "", "", ""]
    assert "はい" not in data.decode("utf-8-sig") and "いいえ" not in data.decode("utf-8-sig")
    english = core.results_csv(_grid(), "en").decode("utf-8-sig")
    assert english.startswith("No.,Name,Total,Best score") and ",solved," in english


def test_csv_tells_a_skip_from_a_miss_in_a_column_of_its_own():
    grid = core.results(
        (PROBLEM,),
        [("Cho", 1, {0: Progress(1, 0, False, True, 0)}), ("Dan", 1, {0: Progress(3, 0, False, True, 0)}),
         ("Eri", 1, {0: Progress(1, 0, True, True, 24)})],
        [],
    )  # fmt: skip  # a skip after one try, three tries missed, a target made
    rows = list(csv.reader(io.StringIO(core.results_csv(grid, "en").decode("utf-8-sig"))))
    assert rows[0][8:10] == ["Problem 1 solved", "Problem 1 outcome"]
    assert [r[8] for r in rows[1:]] == ["not solved", "not solved", "solved"]  # two values only: a count works
    assert [r[9] for r in rows[1:]] == ["Skipped", "no target in the tries", "made a target"]


def test_the_hints_lead_to_the_best_answer_the_class_scores_against():
    settings = core.with_seed(ClassSettings(count=4, level=2, seed="hints-best"))
    for problem in core.choose_problems(settings):
        assert core.level_solution(problem.roll).top.score == problem.best_score
        steps = core.problem_hints(problem)
        assert len(steps) == core.HINT_STEPS


@pytest.mark.parametrize(("solved", "students", "percent"), [(1, 8, 13), (5, 16, 31), (3, 8, 38), (1, 2, 50), (0, 0, 0)])
def test_the_share_solved_rounds_half_up(solved, students, percent):
    # 1 of 8 is 12.5%: the grid says 13% (round() said 12, half to even), from the exact share
    from fractions import Fraction

    from suji.play.classroom.results import ProblemColumn

    problem = core.choose_problems(ClassSettings(count=1, level=1, seed="share"))[0]
    column = ProblemColumn(problem, students, solved, students, students, None, 0)
    assert column.percent_solved == percent
    assert column.share_solved == (Fraction(solved, students) if students else 0)

"""The reports' pure rules (issue 24, part 4): an assignment's report, the alerts, skills over weeks, one pupil's
report and every CSV, against plain references worked out by hand or by a second route."""

from __future__ import annotations

import csv
import io
from datetime import date, datetime, timedelta
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from suji.learner.families import FAMILIES
from suji.play.classroom import ClassProblem, Progress
from suji.play.school import progress as pr
from suji.play.school import reports as rp
from suji.rules.dice import Roll

NOW = datetime(2026, 5, 20, 3, 0)
ADDED = datetime(2026, 4, 6, 0, 0)


def problem(number: int, best: int = 10) -> ClassProblem:
    return ClassProblem(number, 1, Roll((1, 2, 3), (1, 2, 3, 4, 5), ("+", "-", "+", "-")), best, "1+2")


def rows_of(data: bytes) -> list[list[str]]:
    assert data.startswith("\ufeff".encode())
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))


# ---- an assignment ----


def test_an_assignment_report_counts_each_status_and_the_first_try_when_asked():
    problems = (problem(1), problem(2, 20))
    works = [
        rp.PupilWork("Hana", 1),  # not started
        rp.PupilWork(
            "Ken", 2, NOW, None, cells={0: Progress(1, 0, True, True, 8, "1+2")}, first_scores={0: 8}
        ),
        rp.PupilWork(
            "Mia",
            3,
            NOW,
            NOW,
            cells={0: Progress(2, 0, True, True, 9, "1+2"), 1: Progress(3, 0, False, True, 0, "")},
            first_scores={0: 0, 1: 0},
        ),  # fmt: skip
        rp.PupilWork(
            "Sora",
            4,
            NOW,
            NOW,
            True,
            cells={0: Progress(1, 0, True, True, 10, ""), 1: Progress(1, 0, True, True, 20, "")},
            first_scores={0: 10, 1: 20},
            late_problems=frozenset({1}),
        ),  # fmt: skip
    ]
    mistakes = [(0, "not_target", 2), (1, "syntax", 2), (1, "not_target", 1)]
    report = rp.assignment_report(problems, works, mistakes)
    assert [r.status for r in report.rows] == [rp.NOT_STARTED, rp.WORKING, rp.FINISHED, rp.FINISHED_LATE]
    assert [r.score for r in report.rows] == [0, 8, 9, 30] and report.best_total == 30
    assert report.finished == 2 and report.count(rp.NOT_STARTED) == 1
    assert (report.mistake, report.mistake_count) == ("not_target", 3)  # 2 + 1 over both problems
    assert [c.mistake for c in report.columns] == [
        "not_target",
        "syntax",
    ]  # the tie of problem 2 goes to "syntax"
    assert [r.late for r in report.rows] == [False, False, False, True]
    first_only = rp.assignment_report(problems, works, mistakes, first_attempt_only=True)
    assert [r.score for r in first_only.rows] == [0, 8, 0, 30]  # Mia's first try missed
    lines = rows_of(rp.report_csv(first_only, "en"))
    assert lines[0][:6] == ["No.", "Name", "Status", "Score", "Best possible", "Late"]
    assert lines[3][:6] == ["3", "Mia", "Finished", "0", "30", "no"] and lines[3][6:] == ["0", "0"]
    assert lines[4][5] == "yes" and lines[1][6:] == ["", ""]


def test_a_skipped_problem_is_not_the_most_common_mistake():
    """Skips show in the grid (→ 0); the mistakes named to the teacher are the formulas' own."""
    problems = (problem(1), problem(2, 20))
    works = [
        rp.PupilWork(
            "Ken",
            2,
            NOW,
            NOW,
            cells={0: Progress(3, 0, False, True, 0, ""), 1: Progress(1, 0, True, True, 20, "")},
        )
    ]
    report = rp.assignment_report(problems, works, [(0, "skipped", 5), (0, "not_rolled", 1)])
    assert (report.mistake, report.mistake_count) == ("not_rolled", 1)
    assert [c.mistake for c in report.columns] == ["not_rolled", None]
    only_skips = rp.assignment_report(problems, works, [(0, "skipped", 2)])
    assert (only_skips.mistake, only_skips.mistake_count) == (None, 0)


def test_adaptive_practice_reports_items_made():
    works = [rp.PupilWork("Hana", 1, NOW, NOW, items_done=10, items_made=7, seconds=605.0)]
    report = rp.assignment_report((), works, [])
    assert report.rows[0].score == 7 and report.best_total == 0
    assert rows_of(rp.report_csv(report, "en"))[1][6:] == ["10", "7", "10.1"]  # 605 s is 10.08 minutes


# ---- alerts ----


def test_misses_in_a_row_end_at_a_made_answer_of_the_same_skill():
    root, times = frozenset({"root"}), frozenset({"times"})
    answers = [(False, root), (False, root | times), (True, times), (False, root), (False, times)]
    assert rp.misses_in_a_row(answers) == {"root": 3}
    assert rp.misses_in_a_row([*answers, (True, root)]) == {}
    assert (
        rp.misses_in_a_row([(False, frozenset())] * 5) == {}
    )  # an answer asking for no skill counts for none


@given(st.lists(st.tuples(st.booleans(), st.frozensets(st.sampled_from(FAMILIES), max_size=3)), max_size=30))
def test_misses_in_a_row_agree_with_reading_each_skill_backwards(answers):
    found = rp.misses_in_a_row(answers)
    for skill in FAMILIES:
        run = 0
        for made, skills in reversed(
            answers
        ):  # the reference: the latest answers of that skill, back to a made one
            if skill in skills:
                if made:
                    break
                run += 1
        assert found.get(skill, 0) == (run if run >= 3 else 0)


def test_inactive_after_seven_days_and_never_active_after_seven_days_on_the_roster():
    assert rp.inactive(NOW - timedelta(days=7), ADDED, NOW) is None
    assert rp.inactive(NOW - timedelta(days=7, seconds=1), ADDED, NOW) == "inactive"
    assert rp.inactive(None, NOW - timedelta(days=3), NOW) is None
    assert rp.inactive(None, NOW - timedelta(days=8), NOW) == "never_active"


def test_not_started_two_days_before_it_is_due_and_only_when_open():
    due = NOW + timedelta(days=2)
    assert rp.not_started_soon(None, due, False, NOW)
    assert not rp.not_started_soon(None, due, True, NOW)
    assert not rp.not_started_soon(None, due + timedelta(minutes=1), False, NOW)
    assert not rp.not_started_soon(NOW + timedelta(hours=1), due, False, NOW)  # not open yet
    assert not rp.not_started_soon(None, NOW - timedelta(minutes=1), False, NOW)  # past: late, another story


def test_class_alerts_come_by_kind_then_in_the_roster_order():
    root = frozenset({"root"})
    pupils = [
        rp.PupilFacts("p1", "Hana", ADDED, NOW - timedelta(days=10)),
        rp.PupilFacts("p2", "Ken", ADDED, NOW, [(False, root)] * 4),
        rp.PupilFacts("p3", "Mia", NOW - timedelta(days=1), None),  # new: no alert yet
        rp.PupilFacts("p4", "Sora", ADDED, None),
    ]
    due = [rp.DueWork("Sheet 3", None, NOW + timedelta(days=1), frozenset({"p1"})),
           rp.DueWork("Later", None, NOW + timedelta(days=5), frozenset())]  # fmt: skip
    alerts = rp.class_alerts(pupils, due, NOW)
    assert [(a.kind, a.pupil_id) for a in alerts] == [
        ("misses", "p2"), ("not_started", "p2"), ("not_started", "p3"), ("not_started", "p4"),
        ("inactive", "p1"), ("never_active", "p4"),
    ]  # fmt: skip
    assert alerts[0].params == {"count": 4, "skill": "root"} and alerts[4].params["days"] == 10
    assert (
        alerts[0].message("en", lambda k, v, lang: "√" if k == "skill" else v)
        == "Ken missed 4 in a row on √."
    )
    assert (
        alerts[1]
        .message("ja", lambda k, v, lang: "5月21日" if k == "due" else v)
        .startswith("Kenさんは「Sheet 3」")
    )
    lines = rows_of(rp.alerts_csv(alerts, "en", lambda a: a.kind))
    assert lines[0] == ["Name", "Alert"] and lines[1] == ["Ken", "misses"] and len(lines) == 7


# ---- skills over weeks ----


def test_weeks_start_on_monday_the_current_one_last():
    starts = rp.week_starts(date(2026, 5, 20), 6)  # a Wednesday
    assert starts[-1] == date(2026, 5, 18) and starts[0] == date(2026, 4, 13)
    assert all(d.weekday() == 0 for d in starts) and len(starts) == 6


def test_each_answer_counts_in_its_week_for_each_of_its_skills():
    starts = rp.week_starts(date(2026, 5, 20), 3)
    answers = [
        rp.Answered(date(2026, 5, 4), True, frozenset({"times", "plus_minus"})),
        rp.Answered(date(2026, 5, 10), False, frozenset({"times"})),  # Sunday: still the week of the 4th
        rp.Answered(date(2026, 5, 11), False, frozenset({"root"})),
        rp.Answered(date(2026, 5, 3), True, frozenset({"times"})),  # before the weeks shown
        rp.Answered(date(2026, 5, 19), True, frozenset()),
    ]
    weeks = rp.skill_weeks(answers, starts, FAMILIES)
    assert weeks["times"] == (rp.WeekCell(2, 1), rp.WeekCell(), rp.WeekCell())
    assert weeks["root"][1] == rp.WeekCell(1, 0) and weeks["root"][1].band == "low"
    assert pr.activity_weeks(answers, starts) == (rp.WeekCell(2, 1), rp.WeekCell(1, 0), rp.WeekCell(1, 1))
    assert [rp.WeekCell(a, m).band for a, m in [(0, 0), (4, 1), (5, 3), (5, 4)]] == [
        "none",
        "low",
        "mid",
        "high",
    ]


def test_a_formula_in_print_has_the_skills_of_its_dice():
    assert pr.formula_skills("3×5+√4") == {"times", "plus_minus", "root"}
    assert pr.formula_skills("3×4+√9") == {"times", "plus_minus", "root", "six_as_nine"}  # no die shows a 9
    assert pr.formula_skills("21²+4") == {"joined", "square", "plus_minus"}
    assert pr.formula_skills("6×12+4") == {"constants", "plus_minus"}
    assert pr.formula_skills("") == pr.formula_skills("3++") == pr.formula_skills("x" * 300) == frozenset()


def test_a_pupils_row_and_the_grids_foot():
    starts = rp.week_starts(date(2026, 5, 20), 2)
    answers = [rp.Answered(date(2026, 5, 19), True, frozenset({"times"}))] * 3
    row = pr.pupil_progress("p1", "Hana", 1, {"times": "proficient", "root": "attempted"}, answers, starts)
    other = pr.pupil_progress("p2", "Ken", None, {"times": "familiar"}, [], starts)
    assert row.levels["divide"] == "not_started" and row.total("times") == rp.WeekCell(3, 3)
    assert (row.answered, row.made, row.active_weeks) == (3, 3, 1) and other.answered == 0
    assert pr.at_least([row, other], "times") == 2 and pr.at_least([row, other], "times", "proficient") == 1
    missed = [rp.Alert("misses", "Hana", {"skill": "divide", "count": 3})]
    assert pr.strengths(row.levels, missed) == (("times",), ("divide", "root"))


def test_a_pupils_report_as_csv():
    starts = rp.week_starts(date(2026, 5, 20), 2)
    progress = pr.pupil_progress("p1", "=Hana", 3, {"times": "mastered"},
                                 [rp.Answered(date(2026, 5, 19), False, frozenset({"times"}))], starts)  # fmt: skip
    homework = pr.WorkLine("Sheet 3", "fixed", NOW, rp.FINISHED_LATE, 25, 60, late=True, class_finished=2,
                           class_pupils=3, class_mean=Fraction(101, 4))  # fmt: skip
    adaptive = pr.WorkLine("Practice", "adaptive", NOW, rp.WORKING, 4, None, done=6)
    lesson = pr.WorkLine("", "live", NOW, rp.NOT_STARTED, None, 30)
    report = pr.PupilReport(progress, tuple(starts), (homework, adaptive), (lesson,), (), None)
    lines = rows_of(pr.pupil_csv(report, "en", lambda s, lang: s, lambda lv, lang: lv.upper(),
                                 lambda st, lang: st, lambda when: when.date().isoformat()))  # fmt: skip
    assert lines[0][:5] == ["No.", "Name", "Part", "Skill", "Level now"] and len(lines[0]) == 5 + 2 * 2
    times = lines[1 + FAMILIES.index("times")]
    assert times == ["3", "'=Hana", "Skills", "times", "MASTERED", "0", "0", "0", "1"]  # the formula guard
    assert lines[len(FAMILIES) + 1] == []
    work = lines[len(FAMILIES) + 3 :]
    assert work[0] == ["3", "'=Hana", "Homework and lessons", "Sheet 3", "finished_late", "2026-05-20", "25", "60",
                       "", "yes", "25.3"]  # 25.25 rounds half up  # fmt: skip
    assert work[1][6:9] == ["4", "", "6"] and work[2][3] == "Live lesson" and work[2][6] == ""


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_status_and_short_skill_name_reads_in_both_languages(lang):
    from suji.core.i18n import translate

    assert all(translate(name, lang) for name in [*rp.STATUS_NAMES.values(), *pr.SHORT_NAMES.values()])
    assert set(pr.SHORT_NAMES) == set(FAMILIES)


def test_a_pupil_sees_the_class_mean_only_once_enough_have_finished():
    assert rp.class_mean([]) is None
    for finished in range(1, rp.MEAN_MIN_GROUP):
        assert rp.class_mean([7] * finished) is None  # the last to finish would learn the others' scores
    assert rp.class_mean([10, 0, 5, 5, 20]) == 8


def test_the_same_alert_for_many_pupils_is_one_line_of_the_class_page():
    due = {"title": "Sheet 3", "due": "5 Dec"}
    other = {"title": "Sheet 4", "due": "6 Dec"}
    alerts = [rp.Alert("misses", "Ken", {"count": 3, "skill": "times"}, "k")]
    alerts += [rp.Alert("not_started", n, due, n.lower()) for n in ("Hana", "Ken", "Mia")]
    alerts += [rp.Alert("not_started", n, other, n.lower()) for n in ("Hana", "Ken")]  # two: named one by one
    alerts += [rp.Alert("never_active", n, {"days": 7}, n.lower()) for n in ("Yui", "Sora", "Rin", "Aoi")]
    lines = rp.grouped(alerts)
    assert [(a.kind, a.pupils) for a in lines] == [
        ("misses", 1), ("not_started", 3), ("not_started", 1), ("not_started", 1), ("never_active", 4)]
    assert lines[1].message("en") == "3 pupils have not started “Sheet 3”, due 5 Dec."
    assert lines[4].message("en") == "4 pupils have not signed in yet." and lines[4].pupil_id == ""
    assert lines[2].message("en") == "Hana has not started “Sheet 4”, due 6 Dec."
    assert "3人" in lines[1].message("ja") or "3" in lines[1].message("ja")


def test_a_school_years_months_run_from_april_to_this_month():
    from suji.play.school.reports import month_periods

    starts, ends = month_periods(date(2026, 4, 1), date(2026, 12, 5))
    assert starts == [date(2026, m, 1) for m in range(4, 13)]
    assert ends == [date(2026, m, 1) for m in range(5, 13)] + [date(2026, 12, 6)]  # the last runs to today
    starts, ends = month_periods(date(2026, 4, 1), date(2027, 3, 31))  # a year that is over: all twelve
    assert len(starts) == 12 and starts[9] == date(2027, 1, 1) and ends[-1] == date(2027, 4, 1)
    assert month_periods(date(2026, 4, 1), date(2026, 4, 1)) == ([date(2026, 4, 1)], [date(2026, 4, 2)])


@given(st.lists(st.tuples(st.integers(0, 400), st.booleans(), st.integers(1, 5)), max_size=30))
def test_answers_counted_by_the_month_add_up_as_one_by_one(answers):
    """An Answered that stands for n answers counts as n answers of that day, in a month as in a week."""
    from suji.play.school.progress import activity_weeks
    from suji.play.school.reports import Answered, month_periods, skill_weeks

    first = date(2026, 4, 1)
    starts, ends = month_periods(first, date(2027, 3, 31))
    grouped = [Answered(first + timedelta(days=d), made, frozenset({"times"}), n) for d, made, n in answers]
    single = [Answered(a.day, a.made, a.skills) for a in grouped for _ in range(a.times)]
    assert skill_weeks(grouped, starts, ["times"], ends) == skill_weeks(single, starts, ["times"], ends)
    assert activity_weeks(grouped, starts, ends) == activity_weeks(single, starts, ends)
    inside = sum(n for d, _, n in answers if first + timedelta(days=d) < date(2027, 4, 1))
    assert sum(c.answered for c in activity_weeks(grouped, starts, ends)) == inside

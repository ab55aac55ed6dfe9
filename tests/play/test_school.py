"""The classes a teacher keeps for a year, the pure part (issue 24): class names and school years, rosters as
typed, one pupil's details, the retention's dates, homework's form, its window, deadlines and first attempts."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from suji.play.classroom import Progress
from suji.play.school import homework, roster
from suji.play.school.errors import SchoolError

TOKYO = ZoneInfo("Asia/Tokyo")


# ---- classes and school years ----


@pytest.mark.parametrize(
    "day, year", [(date(2026, 4, 1), 2026), (date(2027, 3, 31), 2026), (date(2027, 1, 10), 2026),
                  (date(2026, 3, 31), 2025), (date(2026, 12, 31), 2026)],
)  # fmt: skip
def test_the_school_year_is_named_by_the_year_it_starts_in(day, year):
    assert roster.current_school_year(day) == year
    assert roster.default_year_end(year) == date(year + 1, 3, 31)


def test_school_years_that_end_in_summer_or_in_december():
    assert roster.default_year_end(2026, (7, 20)) == date(2027, 7, 20)  # September to July
    assert roster.default_year_end(2026, (12, 20)) == date(2026, 12, 20)  # January to December
    assert roster.current_school_year(date(2026, 5, 1), (12, 20)) == 2026
    assert roster.current_school_year(date(2026, 9, 1), (7, 20)) == 2026
    assert roster.current_school_year(date(2026, 7, 1), (7, 20)) == 2025


def test_a_class_from_the_form():
    info = roster.parse_class({"name": "  4年 2組 ", "school_year": "２０２６", "leaderboard": "anonymous"},
                              date(2026, 5, 1))  # fmt: skip
    assert info == roster.ClassInfo("4年 2組", 2026, date(2027, 3, 31), "anonymous")
    assert roster.parse_class({"name": "Maple"}, date(2027, 2, 1)).school_year == 2026  # empty: this year
    assert roster.parse_class({"name": "Maple", "school_year": "2026", "ends_on": "2027-07-20"},
                              date(2026, 9, 1)).ends_on == date(2027, 7, 20)  # fmt: skip


@pytest.mark.parametrize(
    "form, field",
    [({"name": ""}, "name"), ({"name": "x" * 41}, "name"), ({"name": "a\x00b"}, "name"),
     ({"name": "A", "school_year": "1999"}, "school_year"), ({"name": "A", "school_year": "20.5"}, "school_year"),
     ({"name": "A", "school_year": "2026", "ends_on": "2025-03-31"}, "ends_on"),
     ({"name": "A", "school_year": "2026", "ends_on": "yesterday"}, "ends_on"),
     ({"name": "A", "school_year": "2026", "ends_on": "2030-01-01"}, "ends_on"),
     ({"name": "A", "leaderboard": "public"}, "leaderboard")],
)  # fmt: skip
def test_a_bad_class_form_names_its_field(form, field):
    with pytest.raises(SchoolError) as error:
        roster.parse_class(form, date(2026, 5, 1))
    assert error.value.field == field
    assert error.value.message("ja") and error.value.message("en")


def test_data_is_kept_a_set_time_after_the_school_year():
    assert roster.data_kept_until(date(2027, 3, 31)) == date(2027, 6, 29)
    assert roster.data_kept_until(date(2027, 3, 31), 0) == date(2027, 3, 31)


# ---- rosters ----


def test_a_roster_as_typed_or_pasted_from_a_spreadsheet():
    text = "1 さとう はな\n２　すずき\n\n3, Ken\n4.Mia\n5\tLee Ann\nヨシ\n12番 たろう"
    assert roster.parse_roster(text) == (
        roster.RosterLine("さとう はな", 1), roster.RosterLine("すずき", 2), roster.RosterLine("Ken", 3),
        roster.RosterLine("Mia", 4), roster.RosterLine("Lee Ann", 5), roster.RosterLine("ヨシ", None),
        roster.RosterLine("たろう", 12),
    )  # fmt: skip
    assert roster.parse_roster("2026年生まれ") == (
        roster.RosterLine("2026年生まれ", None),
    )  # a name, not a number


@pytest.mark.parametrize(
    "text, line, words",
    [("1 Ken\n2 ken", 2, "already a pupil"), ("1 Ken\n1 Mia", 2, "already Ken's"), ("Ken\n100 Mia", 2, "1 to 99"),
     ("Ken\n<b>x</b>", 2, "letters"), ("Ken\nMia\n" + "x" * 21, 3, "1 to 20")],
)  # fmt: skip
def test_a_bad_roster_line_is_named_with_its_reason(text, line, words):
    with pytest.raises(SchoolError) as error:
        roster.parse_roster(text)
    assert error.value.params["line"] == line
    assert words in error.value.message("en") and f"{line}" in error.value.message("ja")


def test_every_bad_line_of_a_roster_is_named_at_once():
    # A bad character on line 3, a name twice on line 5, a name too long on line 6: all three in one message, so
    # the teacher mends the list once rather than meeting each in turn.
    text = "1 Hana\n2 Ken\n3 <b>\n4 Mia\n5 ken\n6 " + "x" * 25 + "\n7 Sora"
    with pytest.raises(SchoolError) as error:
        roster.parse_roster(text)
    assert error.value.params["line"] == 3 and [e.params["line"] for e in error.value.params["more"]] == [5, 6]
    for lang in ("en", "ja"):
        message = error.value.message(lang)
        assert message.index("3") < message.index("ken") < message.index("x" * 25)
    assert "letters" in error.value.message("en") and "already a pupil" in error.value.message("en")
    assert "1 to 20" in error.value.message("en")
    assert roster.parse_roster("1 Hana\n2 Ken") == (roster.RosterLine("Hana", 1), roster.RosterLine("Ken", 2))


def test_a_roster_has_at_most_sixty_pupils_and_at_least_one():
    with pytest.raises(SchoolError, match="roster_empty"):
        roster.parse_roster(" \n \n")
    with pytest.raises(SchoolError, match="roster_size"):
        roster.parse_roster("\n".join(f"P{i}" for i in range(11)), already=50)


@given(st.lists(st.text(min_size=0, max_size=30), max_size=8))
def test_any_text_is_a_roster_or_a_refusal_never_a_crash(lines):
    try:
        found = roster.parse_roster("\n".join(lines))
    except SchoolError as error:
        assert error.message("ja") and error.message("en")
    else:
        assert len({roster.name_key(p.name) for p in found}) == len(found)


def test_one_pupil_and_their_accommodations():
    info = roster.parse_pupil({"name": "Ken", "number": "７", "extra_time": "1.5", "free_hints": "yes"})
    assert info == roster.PupilInfo("Ken", 7, "1.5", True) and info.time_factor == 1.5
    assert roster.PupilInfo("Mia", extra_time="untimed").time_factor is None
    for form in ({"name": "Ken", "extra_time": "3"}, {"name": "Ken", "free_hints": "maybe"}, {"name": ""}):
        with pytest.raises(SchoolError):
            roster.parse_pupil(form)


def test_extra_time_stretches_a_limit_or_lifts_it():
    assert (
        roster.timed(600, "1") == 600 and roster.timed(600, "1.5") == 900 and roster.timed(600, "2") == 1200
    )
    assert roster.timed(600, "untimed") is None and roster.timed(None, "2") is None


# ---- homework ----

NOW = datetime(2026, 5, 18, 3, 0)  # 12:00 in Tokyo


def _form(**changes):
    base = {"title": "Week 20", "kind": "fixed", "count": "4", "level": "2", "seed": "3b", "version": "B",
            "opens_at": "2026-05-18T15:00", "due_at": "2026-05-22"}  # fmt: skip
    return {**base, **changes}


def test_homework_from_the_form_is_the_printed_sheets_problems():
    from suji.solver.problems import version_problems, version_seed

    work, errors = homework.parse_homework(_form(), NOW, TOKYO)
    assert errors == []
    assert work.opens_at == datetime(2026, 5, 18, 6, 0) and work.due_at == datetime(2026, 5, 22, 14, 59)
    sheet = version_problems(4, 2, version_seed("3b", 1))
    assert [p.roll for p in homework.problems(work)] == [p.roll for p in sheet]


def test_adaptive_homework_is_a_number_of_items_or_of_minutes():
    work, errors = homework.parse_homework(
        _form(kind="adaptive", amount_kind="minutes", amount="20"), NOW, TOKYO
    )
    assert errors == [] and (work.kind, work.amount_kind, work.amount) == ("adaptive", "minutes", 20)
    _, errors = homework.parse_homework(_form(kind="adaptive", amount_kind="items", amount="0"), NOW, TOKYO)
    assert [e.field for e in errors] == ["amount"]


@pytest.mark.parametrize(
    "changes, fields",
    [({"title": ""}, ["title"]), ({"due_at": ""}, ["due_at"]), ({"due_at": "2026-05-18T14:00"}, ["due_at"]),
     ({"opens_at": "soon"}, ["opens_at"]), ({"count": "50"}, ["count"]), ({"version": "Q"}, ["version"]),
     ({"kind": "quiz"}, ["kind"]), ({"time_limit": "0"}, ["time_limit"]), ({"due_at": "2028-01-01"}, ["due_at"]),
     ({"first_attempt_only": "perhaps"}, ["first_attempt_only"])],
)  # fmt: skip
def test_a_bad_homework_form_names_each_field(changes, fields):
    _, errors = homework.parse_homework(_form(**changes), NOW, TOKYO)
    assert [e.field for e in errors] == fields
    assert all(e.message("ja") and e.message("en") for e in errors)


def test_the_window_opens_then_work_is_late_but_still_taken():
    work, _ = homework.parse_homework(_form(), NOW, TOKYO)
    assert homework.window(work, NOW) == homework.NOT_OPEN
    assert homework.window(work, datetime(2026, 5, 20)) == homework.OPEN
    assert homework.window(work, datetime(2026, 5, 23)) == homework.LATE


def test_a_timed_set_stops_at_the_pupils_own_deadline():
    work, _ = homework.parse_homework(_form(time_limit="20"), NOW, TOKYO)
    start = datetime(2026, 5, 19, 8, 0)
    assert homework.deadline(work, start, "1") == start + timedelta(minutes=20)
    assert homework.deadline(work, start, "1.5") == start + timedelta(minutes=30)
    assert homework.deadline(work, start, "2") == start + timedelta(minutes=40)
    assert homework.deadline(work, start, "untimed") is None and homework.deadline(work, None, "1") is None


def test_only_the_first_attempt_counts_when_the_teacher_says_so():
    made_on_second = Progress(attempts=2, solved=True, done=True, score=9)
    assert homework.counted(made_on_second, 0, False) == 9
    assert homework.counted(made_on_second, 0, True) == 0
    assert homework.counted(Progress(attempts=1, solved=True, done=True, score=9), 9, True) == 9
    assert homework.counted(Progress(attempts=1), None, False) == 0  # not finished yet


def test_the_pupils_list_says_not_open_open_due_late_or_done():
    start = datetime(2026, 5, 18, 0, 0)
    hw = homework.Homework("Sheet", opens_at=start, due_at=start + timedelta(days=3))
    at = [start - timedelta(minutes=1), start + timedelta(hours=1), start + timedelta(days=2, hours=1),
          start + timedelta(days=3, minutes=1)]  # fmt: skip
    assert [homework.pupil_status(hw, now, False) for now in at] == ["not_open", "open", "due", "late"]
    assert {homework.pupil_status(hw, now, True) for now in at} == {"done"}  # finished: done, late or not
    assert homework.pupil_status(homework.Homework("Open", due_at=None), start, False) == "open"


def test_adaptive_homework_is_done_after_its_items_or_its_minutes():
    items = homework.Homework("x", kind=homework.ADAPTIVE, amount_kind=homework.ITEMS, amount=3)
    minutes = homework.Homework("x", kind=homework.ADAPTIVE, amount_kind=homework.MINUTES, amount=2)
    assert [homework.adaptive_done(items, n, 0.0) for n in (2, 3)] == [False, True]
    assert [homework.adaptive_done(minutes, 9, s) for s in (119.0, 120.0)] == [False, True]
    served = datetime(2026, 5, 18, 9, 0)
    assert homework.item_seconds(served, served + timedelta(seconds=42)) == 42.0
    assert homework.item_seconds(served, served + timedelta(hours=3)) == homework.MAX_ITEM_SECONDS  # left open
    assert homework.item_seconds(served, served - timedelta(seconds=5)) == 0.0


def test_a_live_sessions_end_moves_for_extra_time_or_goes():
    ends = datetime(2026, 5, 18, 9, 30)  # a 20-minute lesson (with any pauses and "+5 minutes" already in it)
    assert roster.extended_end(ends, 20, "1") == ends
    assert roster.extended_end(ends, 20, "1.5") == ends + timedelta(minutes=10)
    assert roster.extended_end(ends, 20, "2") == ends + timedelta(minutes=20)
    assert roster.extended_end(ends, 20, "untimed") is None
    assert roster.extended_end(None, None, "2") is None  # no time limit: nothing to extend

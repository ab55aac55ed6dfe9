"""suji.core.spreadsheet: the one CSV writer, and its guard against cells a spreadsheet would run as formulas."""

from __future__ import annotations

import csv
import io
from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from suji.core.spreadsheet import FORMULA_STARTS, cell, csv_bytes

# What a pupil could type as a name or a formula, with the starts spreadsheets read as formulas (OWASP's list: a tab
# or a carriage return before "=" is skipped by some spreadsheets).
ATTACKS = ["=1+1", "+1+1", "-1+1", "@SUM(A1)", "\t=1+1", "\r=1+1", "\n=1+1", "＝1+1", "＋1", "－1", "＠A1"]


def rows_of(data: bytes) -> list[list[str]]:
    assert data.startswith(b"\xef\xbb\xbf")  # the byte-order mark: spreadsheets read Japanese right
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))


@pytest.mark.parametrize("text", ATTACKS)
def test_a_cell_that_could_run_as_a_formula_is_quoted(text):
    assert cell(text) == "'" + text
    assert rows_of(csv_bytes([[text]])) == [["'" + text]]


def test_plain_texts_and_numbers_are_written_as_they_are():
    assert rows_of(csv_bytes([["Aki", "ちえ", "21²+4+1", "", 3, -2, 1.5, " =1"]])) == [
        ["Aki", "ちえ", "21²+4+1", "", "3", "-2", "1.5", " =1"]
    ]
    assert csv_bytes([["a"], ["b"]]).endswith(b"a\r\nb\r\n")


@given(st.text(max_size=12))
def test_no_written_cell_starts_like_a_formula(text):
    (written,) = rows_of(csv_bytes([[text]]))[0] or [""]
    assert written[:1] not in FORMULA_STARTS
    assert written in (text, "'" + text)


def test_every_csv_the_app_writes_is_guarded():
    """Class mode's results, an assignment's report, the skills grid and the alerts: a name of "\\t=1+1" is text."""
    from suji import Roll
    from suji.play import classroom as core
    from suji.play.classroom import ClassProblem, Progress
    from suji.play.school import reports

    bad = "\t=1+1"
    problem = ClassProblem(1, 3, Roll.of([2, 1, 4, 1, 3], ["+", "+", "²", "−"], [4, 4, 6]), 24, "21²+4+1")
    grid = core.results((problem,), [(bad, 1, {0: Progress(1, 0, True, True, 3, "\r=2")})], [])
    written = rows_of(core.results_csv(grid, "en"))
    assert written[1][1] == "'" + bad and written[1][-1] == "'\r=2"

    report = reports.assignment_report((problem,), [reports.PupilWork(name=bad, number=1)], [])
    assert rows_of(reports.report_csv(report, "ja"))[1][1] == "'" + bad

    skills = reports.skills_csv([(bad, None, {}, {})], ["plus_minus"], [date(2026, 4, 6)],
                                lambda s, lang: s, lambda level, lang: level, "en")  # fmt: skip
    assert rows_of(skills)[1][1] == "'" + bad

    alert = reports.Alert(kind="inactive", pupil=bad, params={})
    alerts = rows_of(reports.alerts_csv([alert], "en", lambda a: "@" + a.pupil))
    assert alerts[1] == ["'" + bad, "'@" + bad]

"""Mastery levels, what an answer changed, days in a row, sign-in codes and the rating chart."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import date, timedelta

import pytest

from suji.learner.chart import Point, rating_chart
from suji.learner.families import FAMILIES, FAMILY_INDEX, ROOT_FAMILY
from suji.learner.mastery import (
    ATTEMPTED,
    FAMILIAR,
    MASTERED,
    NOT_STARTED,
    PROFICIENT,
    Days,
    changes,
    display_rating,
    level,
    overall_rating,
)
from suji.learner.model import Learner, Rating, Skill
from suji.learner.signin import SigninError, clean_code, code_hash, new_code, printed
from suji.play.classroom.codes import CODE_ALPHABET


def skill(answered: int, made: int, recent: tuple = ()) -> Skill:
    return Skill(Rating(0.0, 1.0, answered, None), made, recent)


def test_the_mastery_levels():
    assert level(skill(0, 0), 0.99) == NOT_STARTED
    assert level(skill(3, 0), 0.9) == ATTEMPTED  # tried, never made
    assert level(skill(3, 1), 0.4) == ATTEMPTED  # made once, but a typical item is still unlikely
    assert level(skill(3, 1), 0.5) == FAMILIAR
    assert level(skill(20, 3), 0.2) == FAMILIAR  # goals made again and again: familiar, however hard it still is
    assert level(skill(20, 2), 0.2) == ATTEMPTED
    assert level(skill(6, 3), 0.7) == PROFICIENT
    assert level(skill(6, 2), 0.95) == FAMILIAR  # not enough goals made yet for more
    assert level(skill(9, 5, (1.0, 1.0, 0.75)), 0.85) == MASTERED
    assert level(skill(9, 5, (1.0, 0.0, 1.0)), 0.95) == PROFICIENT  # a recent miss: not mastered


def with_root(value: float, answered: int, made: int, recent: tuple = (), theta: float = 0.0) -> Learner:
    skills = list(Learner().skills)
    skills[FAMILY_INDEX[ROOT_FAMILY]] = Skill(Rating(value, 1.0, answered, None), made, recent)
    return Learner(Rating(theta), tuple(skills))


def test_changes_say_which_family_moved_and_how_the_rating_went():
    refs = dict.fromkeys(FAMILIES, 0.0)
    before = with_root(0.0, 2, 0)
    after = with_root(0.3, 3, 1, theta=0.2)  # a first √ made, a typical √ item now at 62%
    found = changes(before, after, refs)
    assert [(c.code, c.family, c.level) for c in found[:-1]] == [("level_up", ROOT_FAMILY, FAMILIAR)]
    assert (found[-1].code, found[-1].points) == ("rating_up", 20)
    down = changes(after, with_root(-1.0, 4, 1, theta=-0.1), refs)
    assert [(c.code, c.level or c.points) for c in down] == [("level_down", ATTEMPTED), ("rating_down", 30)]
    assert [c.code for c in changes(before, before, refs)] == ["rating_same"]
    first_try = changes(Learner(), with_root(-0.2, 1, 0), refs)
    assert [c.code for c in first_try] == ["rating_same"]  # a first try is no news


def test_the_overall_rating_counts_each_family_by_how_often_it_is_needed():
    shares = dict.fromkeys(FAMILIES, 0.0) | {ROOT_FAMILY: 0.25}
    assert overall_rating(with_root(-2.0, 5, 0, theta=1.0), shares) == pytest.approx(0.5)
    assert display_rating(0.5) == 1050 and display_rating(-1.234) == 877


def test_days_in_a_row():
    monday = date(2026, 11, 30)
    days = Days().answered_on(monday)
    assert (days.streak, days.longest) == (1, 1)
    days = days.answered_on(monday).answered_on(monday + timedelta(days=1))
    assert (days.streak, days.current(monday + timedelta(days=2))) == (2, 2)  # alive until a day is missed
    assert days.current(monday + timedelta(days=3)) == 0
    later = days.answered_on(monday + timedelta(days=5))
    assert (later.streak, later.longest) == (1, 2)


def test_sign_in_codes():
    code = new_code()
    assert len(code) == 8 and set(code) <= set(CODE_ALPHABET)
    assert printed("KM47TQXA") == "KM47-TQXA"
    for typed in ("km47-tqxa", " KM47 TQXA ", "ｋｍ４７－ＴＱＸＡ", "KM47_TQXA"):
        assert clean_code(typed) == "KM47TQXA"
    for typed, why in (
        ("", "no_code"),
        ("KM47", "bad_code"),
        ("KM47TQX0", "unknown_code"),
        ("ĶM47TQXA", "bad_code"),
    ):
        with pytest.raises(SigninError) as raised:
            clean_code(typed)
        assert raised.value.code == why
        assert raised.value.message("ja") and raised.value.message("en")
    assert code_hash("KM47TQXA") != code_hash("KM47TQXC") and len(code_hash("KM47TQXA")) == 64


def test_the_rating_chart_is_plain_svg_with_words_for_a_screen_reader():
    start = date(2026, 11, 1)
    points = [
        Point(start + timedelta(days=i // 5), 1000 + 7 * i - (i % 3) * 10, i % 2 == 0) for i in range(30)
    ]
    svg = rating_chart(points, "My rating", "From 1000 to 1190", lambda d: f"{d.month}/{d.day}")
    tree = ET.fromstring(svg)  # well-formed
    ns = "{http://www.w3.org/2000/svg}"
    assert tree.find(f"{ns}title").text == "My rating" and tree.find(f"{ns}desc").text == "From 1000 to 1190"
    assert len(tree.findall(f"{ns}circle")) == 30 and "<style" not in svg and "<script" not in svg
    assert "11/1" in svg and "11/6" in svg  # a label where a new day starts
    assert 'viewBox="0 0' in svg and "http" not in svg.replace("http://www.w3.org/2000/svg", "")
    escaped = rating_chart(points[:2], "<b>", "&", lambda d: "<x>")
    assert "<b>" not in escaped and "&lt;b&gt;" in escaped
    assert (
        rating_chart([Point(start, 1000, True)], "t", "d", str).count("<circle") == 1
    )  # one answer still draws


def test_skills_back_to_one_level_after_one_answer_are_one_line():
    """After a pupil's first miss the page listed five "… is back to Attempted" lines, one a skill."""
    from suji.learner.mastery import Change, change_lines, change_message

    down = [Change("level_down", f, ATTEMPTED) for f in ("plus_minus", "times", "four_dice")]
    lines = change_lines([*down, Change("level_down", "root", FAMILIAR), Change("rating_down", points=80)], "en")
    assert lines[0] == ("+ and − (adding and taking away), × (times) and Using four number dice are back to "
                        "Attempted. Keep practising and they will come back.")  # fmt: skip
    assert lines[1:] == [change_message(Change("level_down", "root", FAMILIAR), "en"),
                         change_message(Change("rating_down", points=80), "en")]  # fmt: skip
    ja = change_lines(down, "ja")
    assert len(ja) == 1 and ja[0].startswith("「") and ja[0].count("「") == 4  # three skills and the level
    one = [Change("level_up", "times", FAMILIAR)]
    assert change_lines(one, "en") == [change_message(one[0], "en")]  # a single change reads as before

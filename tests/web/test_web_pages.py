"""Web pages through the Flask test client, in both languages: home, drills, the language switch."""

from __future__ import annotations

import re

import pytest
from drill_support import open_drill

from suji.core.furigana import strip_ruby
from suji.rules.dice import Roll
from suji.web import drill_rolls

JA = {"Accept-Language": "ja-JP,ja;q=0.9"}
EN = {"Accept-Language": "en-GB,en;q=0.9"}
# A fixed roll for the drill pages: the seed's example, 21²+4+1 = 446.
ROLL = Roll.of([2, 1, 4, 1, 3], ["+", "+", "²", "−"], [4, 4, 6])


@pytest.fixture
def fixed_roll(monkeypatch):
    monkeypatch.setattr(drill_rolls, "roll_at", lambda level, seed: ROLL)
    return ROLL


@pytest.mark.parametrize(
    ("headers", "expected"),
    [(JA, ["すうじであそぼ", "サイコロの計算ゲーム", "れんしゅうを始める", 'lang="ja"']),
     (EN, ["Sūji de Asobo", "is a dice game", "Start a drill", 'lang="en"'])],
)  # fmt: skip
def test_home_in_both_languages(client, headers, expected):
    response = client.get("/", headers=headers)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    for text in expected:
        assert text in html
    assert "/static/dice.svg" in html
    assert 'href="/drill/1"' in html


def test_first_visit_without_accept_language_is_japanese(client):
    html = client.get("/").get_data(as_text=True)
    assert '<html lang="ja">' in html


def test_language_switch_sets_a_cookie_and_goes_back(client):
    response = client.post("/language", data={"lang": "en", "next": "/drill/"}, headers=JA)
    assert response.status_code == 303
    assert response.headers["Location"] == "/drill/"
    cookie = response.headers["Set-Cookie"]
    assert "suji_lang=en" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    # The cookie beats Accept-Language from now on.
    html = client.get("/drill/", headers=JA).get_data(as_text=True)
    assert '<html lang="en">' in html and "Drills" in html


def test_language_switch_refuses_open_redirects_and_unknown_languages(client):
    response = client.post("/language", data={"lang": "fr", "next": "//evil.example/"})
    assert response.headers["Location"] == "/"
    assert "suji_lang" not in response.headers.get("Set-Cookie", "")


def test_drill_index_lists_the_levels(client):
    html = client.get("/drill/", headers=JA).get_data(as_text=True)
    for level in (1, 2, 3):
        assert f'href="/drill/{level}"' in html
    assert "レベル1" in html and "レベル3" in html


@pytest.mark.parametrize(
    ("headers", "label", "op"),
    [(JA, "数字ダイス：2", "記号ダイス：たす"), (EN, "Number die: 2", "Operator die: plus")],
)
def test_drill_page_shows_the_roll_as_labelled_dice(client, fixed_roll, headers, label, op):
    html = client.get("/drill/1", headers=headers).get_data(as_text=True)
    assert html.count('class="die die-number"') == 5
    assert html.count('class="die die-operator') == 4  # at level 1, × ÷ ² √ … are marked as bonus dice too
    assert f'aria-label="{label}"' in html and f'aria-label="{op}"' in html
    for target in (446, 464, 644, 449, 494, 944):
        assert f"<li>{target}</li>" in html
    assert 'name="csrf-token"' in html and "/static/drill.js" in html


def test_unknown_level_is_404_in_japanese(client):
    response = client.get("/drill/7", headers=JA)
    assert response.status_code == 404
    assert "ページが見つかりません" in response.get_data(as_text=True)


def test_check_made_target_counts_the_streak(client, fixed_roll):
    roll_token = open_drill(client, 1)
    response = client.post(
        "/drill/1/check", follow_redirects=True, data={"formula": "21^2+4+1", "roll": roll_token}, headers=JA
    )
    html = strip_ruby(response.get_data(as_text=True))
    assert response.status_code == 200
    assert "お題の数ができました" in html and "446" in html
    assert "記号の点6 × 数字ダイス4個 = 24点" in html
    assert "連続正解：1" in html
    # Checking the same roll again does not count twice.
    html = client.post(
        "/drill/1/check", follow_redirects=True, data={"formula": "21^2+4+1", "roll": roll_token}
    ).get_data(as_text=True)
    assert "連続正解：1" in strip_ruby(html)
    # A new roll after a made target keeps the streak.
    client.post("/drill/1/new")
    html = client.get("/drill/1", headers=EN).get_data(as_text=True)
    assert "Streak: 1" in html


def test_check_strikes_out_redundant_dice(client, monkeypatch):
    roll = Roll.of([5, 1, 1, 2, 3], ["+", "−", "+", "²"], target=5)
    monkeypatch.setattr(drill_rolls, "roll_at", lambda level, seed: roll)
    roll_token = open_drill(client, 1)
    html = client.post(
        "/drill/1/check", follow_redirects=True, data={"formula": "5+1-1", "roll": roll_token}, headers=EN
    ).get_data(as_text=True)
    assert "Target made!" in html
    assert re.search(r'<del class="tok"[^>]*>\+</del><del class="tok"[^>]*>1</del>', html)
    assert "Operator points 0 × number dice 1 = 0" in html


def test_check_a_miss(client, fixed_roll):
    roll_token = open_drill(client, 1)
    form = {"formula": "1+2", "roll": roll_token}
    assert "お題の数ではありません" in client.post("/drill/1/check", follow_redirects=True, data=form, headers=JA).get_data(
        as_text=True
    )
    html = client.post("/drill/1/check", follow_redirects=True, data=form, headers=EN).get_data(as_text=True)
    assert "Not a target" in html and "Streak: 0" in html


@pytest.mark.parametrize(("formula", "ja", "en"), [
    ("1++2", "記号", "operator"),
    ("", "式を書いてください", "Write a formula"),
    ("9+9", "", ""),
    ("\x00\xff" * 50, "", ""),
])  # fmt: skip
def test_a_formula_the_checker_refuses_is_no_try(client, fixed_roll, formula, ja, en):
    """As in practice, homework and class mode: back to the roll with the text in the box, why, and the streak kept."""
    roll_token = open_drill(client, 1)
    made = client.post("/drill/1/check", follow_redirects=True, data={"formula": "21^2+4+1", "roll": roll_token},
                       headers=EN).get_data(as_text=True)  # fmt: skip
    assert "Streak: 1" in made
    client.post("/drill/1/new")
    roll_token = open_drill(client, 1)
    form = {"formula": formula, "roll": roll_token}
    response = client.post("/drill/1/check", data=form, headers=EN)
    assert response.status_code == 303 and "/drill/1/result" not in response.headers["Location"]
    html = client.get(response.headers["Location"], headers=EN).get_data(as_text=True)
    said = re.search(r'<p class="flash flash-error">(.*?)</p>', html, re.S).group(1)
    assert en in said and said.endswith("Mend it and send it again: your streak is as it was.")
    assert "Streak: 1" in html and "Not a valid formula" not in html and 'data-roll="' in html
    if formula.isprintable():
        assert f'value="{formula}"' in html  # the text kept in the box, to mend
    response = client.post("/drill/1/check", data=form, headers=JA)
    html = strip_ruby(client.get(response.headers["Location"], headers=JA).get_data(as_text=True))
    said = re.search(r'<p class="flash flash-error">(.*?)</p>', html, re.S).group(1)
    assert ja in said and said.endswith("直してもう一度送ってください。連続正解はそのままです。")
    assert "連続正解：1" in html


def test_check_without_a_drill_goes_back_to_the_drill_keeping_the_formula(client):
    response = client.post("/drill/2/check", data={"formula": "1+2"}, headers=EN)
    assert response.status_code == 303 and "/drill/2?formula=1%2B2" in response.headers["Location"]
    html = client.get(response.headers["Location"], headers=EN).get_data(as_text=True)
    assert "out of date" in html and 'value="1+2"' in html


def test_each_page_checks_the_roll_it_shows(client):
    # Two tabs: a level-1 page, then a level-3 page, then a new level-1 roll. The first page still checks
    # (and values) its own roll, and it no longer moves the streak.
    first = open_drill(client, 1)
    open_drill(client, 3)
    client.post("/drill/1/new")
    second = open_drill(client, 1)
    assert first != second
    from suji.web.drill_rolls import drill_roll

    with client.application.test_request_context():
        first_roll, second_roll = drill_roll(first), drill_roll(second)
    solution_formula = __import__("suji.solver.search", fromlist=["solve"]).solve(first_roll).top.formula
    html = client.post(
        "/drill/1/check", follow_redirects=True, data={"formula": solution_formula, "roll": first}, headers=EN
    ).get_data(as_text=True)
    assert "Target made!" in html and "Streak: 0" in html
    value = client.post("/api/value", json={"formula": solution_formula, "roll": first}).get_json()
    assert value["target"] is not None
    assert first_roll != second_roll


def test_new_roll_changes_the_seed(client):
    client.get("/drill/3")
    client.get("/drill/1")
    with client.session_transaction() as session:
        first, other = session["drills"]["3"]["seed"], session["drills"]["1"]["seed"]
    assert client.post("/drill/3/new").status_code == 303
    with client.session_transaction() as session:
        # each level keeps its own roll
        assert session["drills"]["3"]["seed"] != first and session["drills"]["1"]["seed"] == other


def test_optional_areas_appear_in_the_menu_only_when_installed(app):
    from flask import Blueprint

    from suji.web import create_app

    if "worksheets.index" not in app.view_functions:
        html = app.test_client().get("/", headers=EN).get_data(as_text=True)
        assert 'href="/worksheets/"' not in html
    app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "test"})
    if "worksheets.index" not in app.view_functions:
        extra = Blueprint("worksheets", __name__, url_prefix="/worksheets")
        extra.add_url_rule("/", "index", lambda: "sheets")
        app.register_blueprint(extra)
    html = app.test_client().get("/", headers=EN).get_data(as_text=True)
    assert 'href="/worksheets/"' in html and "Worksheets" in html


@pytest.mark.parametrize("path", ["/static/style.css", "/static/drill.js", "/static/dice.svg"])
def test_static_files(client, path):
    response = client.get(path)
    assert response.status_code == 200
    assert "Content-Security-Policy" in response.headers
    response.close()


def test_home_leads_to_every_area(client):
    html = client.get("/", headers=JA).get_data(as_text=True)
    assert "ほかの遊び方" in html
    assert 'href="/drill/1"' in html
    for href in ('href="/games/"', 'href="/worksheets/"', 'href="/lessons/"'):
        assert html.count(href) >= 2, href  # in the menu and on the page itself


def test_a_drill_result_is_a_page_of_its_own(client, fixed_roll):
    """Redirect-after-POST: reloading the result, or switching its language, never checks the formula again."""
    roll_token = open_drill(client, 1)
    response = client.post("/drill/1/check", data={"formula": "21^2+4+1", "roll": roll_token}, headers=EN)
    assert response.status_code == 303 and response.headers["Location"].endswith("/drill/1/result")
    first = client.get("/drill/1/result", headers=EN).get_data(as_text=True)
    again = client.get("/drill/1/result", headers=EN).get_data(as_text=True)
    assert "Target made!" in first and "Streak: 1" in first and "Streak: 1" in again
    switched = client.post("/language", data={"lang": "ja", "next": "/drill/1/result"})
    assert switched.headers["Location"] == "/drill/1/result"
    html = strip_ruby(client.get("/drill/1/result").get_data(as_text=True))
    assert "お題の数ができました" in html and "連続正解：1" in html
    # Another level has no result yet: its result page sends the student to the drill.
    assert client.get("/drill/2/result").status_code == 303


def test_a_drill_formula_is_checked_once_for_its_post_and_its_result_page(client, fixed_roll, monkeypatch):
    """The POST checks the formula; the result page it redirects to (and a reload of it) shows that check, and
    the best answer of the roll is checked once for all its result pages. The page shows the formula in print."""
    from suji.core import caching
    from suji.rules import scoring
    from suji.web import drill

    caching.clear_all()
    checked: list[str] = []
    real_check = scoring.check

    def counting_check(formula, roll, *args, **kwargs):  # noqa: ANN001, ANN202
        checked.append(str(getattr(formula, "text", formula)))
        return real_check(formula, roll, *args, **kwargs)

    monkeypatch.setattr(drill, "check", counting_check)
    monkeypatch.setattr("suji.solver.search.check", counting_check)
    roll_token = open_drill(client, 1)
    client.post("/drill/1/check", data={"formula": "21^2+4+1", "roll": roll_token}, headers=EN)
    assert checked == ["21^2+4+1"]
    first = client.get("/drill/1/result", headers=EN).get_data(as_text=True)
    after_first = len(checked)  # and the roll's best answer at the level, if it has one
    second = client.get("/drill/1/result", headers=EN).get_data(as_text=True)
    assert checked.count("21^2+4+1") == 1 and len(checked) == after_first <= 2  # nothing checked again
    assert first == second and '<span class="printed-formula">21²+4+1</span> = <strong>446</strong>' in first


def test_a_certified_drill_roll_is_not_solved_again_for_its_page(client, monkeypatch):
    """certified_roll keeps the solution it certified the roll with: the drill page's solve_at_level finds it."""
    from suji.core import caching
    from suji.solver import search

    caching.clear_all()
    solved: list = []
    real_solve = search.solve
    monkeypatch.setattr(
        search, "solve", lambda roll, allowed=None: solved.append(roll) or real_solve(roll, allowed)
    )
    monkeypatch.setattr("suji.solver.problems.solve", search.solve)
    assert client.get("/drill/2").status_code == 200
    certified = solved[-1]  # the roll certified last is the one the page shows
    assert solved.count(certified) == 1


def test_a_refused_formula_from_an_old_roll_says_the_page_was_out_of_date(client, fixed_roll):
    """The reason would be about dice the pupil no longer sees: the page says it was out of date instead."""
    old = open_drill(client, 1)
    client.post("/drill/1/new")
    open_drill(client, 1)
    response = client.post("/drill/1/check", data={"formula": "1++2", "roll": old}, headers=EN)
    html = client.get(response.headers["Location"], headers=EN).get_data(as_text=True)
    said = re.search(r'<p class="flash flash-error">(.*?)</p>', html, re.S).group(1)
    assert said == "That page was out of date, so here is the current roll. Your formula is kept."
    assert 'value="1++2"' in html

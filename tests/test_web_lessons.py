"""Lesson pages through the Flask test client, in both languages: answers checked on the server, bad input."""

from __future__ import annotations

import html as htmllib
import re

import pytest

JA = {"Accept-Language": "ja-JP,ja;q=0.9"}
EN = {"Accept-Language": "en-GB,en;q=0.9"}

LESSONS = {
    "nine-am": ("朝 9 時の授業", "9am Class"),
    "dice-monsters": ("ダイスモンスター", "Dice Monsters"),
    "silence": ("授業中はしずかに！", "Silence in Class!"),
    "gooball": ("グーボール", "Gooball"),
}


def test_index_lists_every_lesson(client):
    html = client.get("/lessons/", headers=EN).get_data(as_text=True)
    for slug, (_, title) in LESSONS.items():
        assert f'href="/lessons/{slug}"' in html and title in html
    assert "確率のレッスン" in client.get("/lessons/", headers=JA).get_data(as_text=True)


@pytest.mark.parametrize("slug", LESSONS)
@pytest.mark.parametrize(("headers", "lang"), [(JA, 0), (EN, 1)])
def test_lesson_page_in_both_languages(client, slug, headers, lang):
    response = client.get(f"/lessons/{slug}", headers=headers)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert LESSONS[slug][lang] in html
    assert f'lang="{("ja", "en")[lang]}"' in html
    assert html.count('class="answer-form"') in range(4, 7)
    assert f'href="/lessons/{slug}/play"' in html


@pytest.mark.parametrize(
    ("slug", "key", "answer"),
    [("nine-am", "awake", "1/2"), ("nine-am", "bad", "17.5"), ("silence", "even", "11"),
     ("silence", "cheating", "37.5%"), ("gooball", "bump", "11/24"), ("gooball", "reach", "3分の2"),
     ("dice-monsters", "skill", "13/96"), ("dice-monsters", "d6d6", "7/12")],
)  # fmt: skip
def test_right_answers_are_accepted(client, slug, key, answer):
    html = client.post(f"/lessons/{slug}/step/{key}", data={"answer": answer}, headers=EN).get_data(
        as_text=True
    )
    assert 'class="verdict correct"' in html
    # The lesson remembers the step as answered.
    assert f'id="step-{key}" class="step done"' in client.get(f"/lessons/{slug}", headers=EN).get_data(
        as_text=True
    )


def test_wrong_close_and_unreadable_answers(client):
    html = client.post("/lessons/nine-am/step/called", data={"answer": "1/5"}, headers=EN).get_data(
        as_text=True
    )
    assert 'class="verdict wrong"' in html and "you wrote 1/5" in html
    html = client.post("/lessons/nine-am/step/called", data={"answer": "16.7%"}, headers=EN).get_data(
        as_text=True
    )
    assert 'class="verdict close"' in html
    html = client.post("/lessons/nine-am/step/called", data={"answer": "1/0"}, headers=JA).get_data(
        as_text=True
    )
    assert "分母" in html
    html = client.post("/lessons/nine-am/step/called", data={"answer": "x" * 5000}, headers=EN).get_data(
        as_text=True
    )
    assert "too long" in html


def test_unknown_lesson_step_and_experiment_are_404_in_the_page_language(client):
    for url in ("/lessons/chess", "/lessons/chess/play", "/lessons/silence/experiment/nope",
                "/lessons/silence/experiment/nope/chart.svg"):  # fmt: skip
        assert client.get(url, headers=JA).status_code == 404
    assert client.post("/lessons/silence/step/nope", data={"answer": "1"}).status_code == 404


@pytest.mark.parametrize("slug", LESSONS)
def test_every_experiment_page_and_chart(client, slug):
    html = client.get(f"/lessons/{slug}", headers=EN).get_data(as_text=True)
    keys = re.findall(rf'href="/lessons/{slug}/experiment/([\w-]+)"', html)
    assert keys
    for key in keys:
        page = client.get(f"/lessons/{slug}/experiment/{key}?n=40&seed=3", headers=EN)
        assert page.status_code == 200
        assert f"/lessons/{slug}/experiment/{key}/chart.svg?n=40&amp;seed=3" in page.get_data(as_text=True)
        chart = client.get(f"/lessons/{slug}/experiment/{key}/chart.svg?n=40&seed=3", headers=JA)
        assert chart.mimetype == "image/svg+xml"
        assert b"<desc" in chart.data and b"<script" not in chart.data


@pytest.mark.parametrize("n", ["0", "-5", "abc", "1e9", "100001", "１" * 13])
def test_bad_number_of_trials_is_a_clear_message(client, n):
    response = client.get(f"/lessons/silence/experiment/totals?n={n}", headers=JA)
    assert response.status_code == 400
    assert "回数は 1 から 100000 までの整数" in response.get_data(as_text=True)
    response = client.get(f"/lessons/silence/experiment/totals?n={n}", headers=EN)
    assert "must be a whole number from 1 to 100000" in response.get_data(as_text=True)


def test_simulation_follows_n_and_seed(client):
    a = client.get("/lessons/silence/experiment/totals?n=500&seed=9", headers=EN).get_data(as_text=True)
    b = client.get("/lessons/silence/experiment/totals?n=500&seed=9", headers=EN).get_data(as_text=True)
    c = client.get("/lessons/silence/experiment/totals?n=500&seed=10", headers=EN).get_data(as_text=True)
    assert a == b and a != c
    assert "1/216" in a and "N = 500" in a


def test_monster_matches_show_the_stored_ten_thousand_games(client):
    html = client.get("/lessons/dice-monsters/experiment/matches?n=20", headers=EN).get_data(as_text=True)
    assert html.count(">10000<") == 6


@pytest.mark.parametrize(
    ("dice", "status", "text"),
    [("4 6 8 12 20", 200, "50 sides"), ("4 6", 400, "at least 4 dice"), ("20 20 10 10", 400, "60 in total"),
     ("<script>", 400, "whole numbers")],
)  # fmt: skip
def test_monster_designer(client, dice, status, text):
    response = client.get(
        "/lessons/dice-monsters/designer", query_string={"dice": dice, "n": "20"}, headers=EN
    )
    assert response.status_code == status
    assert text in response.get_data(as_text=True)
    assert "<script>" not in response.get_data(as_text=True).split("</header>")[1]


def _form(html):
    return {
        name: htmllib.unescape(value)
        for name, value in re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', html)
    }


@pytest.mark.parametrize("slug", LESSONS)
def test_play_a_game_to_the_end_in_japanese(client, slug):
    html = client.get(f"/lessons/{slug}/play?seed=12", headers=JA).get_data(as_text=True)
    for _ in range(300):
        choices = [htmllib.unescape(c) for c in re.findall(r'name="choice" value="([^"]+)"', html)]
        if not choices:
            break
        data = {**_form(html.split('class="panel decision"')[1]), "choice": choices[0]}
        response = client.post(f"/lessons/{slug}/play", data=data, headers=JA)
        assert response.status_code == 200
        html = response.get_data(as_text=True)
        # The outcome is shown after each choice (or, when nothing happened yet, the next question).
        assert "何が起きたか" in html or 'class="panel decision"' in html
    assert 'class="panel result"' in html


def test_impossible_choice_and_tampered_game(client):
    response = client.post(
        "/lessons/gooball/play", data={"seed": "3", "moves": "", "choice": "teleport"}, headers=EN
    )
    assert response.status_code == 400 and "not possible now" in response.get_data(as_text=True)
    response = client.post(
        "/lessons/gooball/play", data={"seed": "3", "moves": "x,y", "choice": "centre"}, headers=JA
    )
    assert response.status_code == 400 and "新しいゲーム" in response.get_data(as_text=True)
    response = client.post("/lessons/gooball/play", data={"seed": "-1", "moves": ""}, headers=EN)
    assert response.status_code == 400 and "seed must be" in response.get_data(as_text=True)


def test_answers_need_the_csrf_token(csrf_client):
    response = csrf_client.post("/lessons/silence/step/even", data={"answer": "11"}, headers=EN)
    assert response.status_code == 400
    page = csrf_client.get("/lessons/silence", headers=EN).get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    response = csrf_client.post(
        "/lessons/silence/step/even", data={"answer": "11", "csrf_token": token}, headers=EN
    )
    assert 'class="verdict correct"' in response.get_data(as_text=True)


# ---- Sūji de Asobo in numbers (estimates from the stored, solver-checked rolls) ------------------------------


def test_suji_lesson_is_listed_and_shows_the_stored_estimates(client):
    html = client.get("/lessons/", headers=EN).get_data(as_text=True)
    assert 'href="/lessons/suji"' in html and "Sūji de Asobo in numbers" in html
    assert "needs the solver" not in html
    for headers, title, words in ((EN, "Sūji de Asobo in numbers", "estimates from seeded random rolls"),
                                  (JA, "数字で見る すうじであそぼ", "推定値")):  # fmt: skip
        html = client.get("/lessons/suji", headers=headers).get_data(as_text=True)
        assert title in html and words in html
        assert html.count('class="answer-form"') in range(4, 7)
        assert 'href="/lessons/suji/play"' not in html  # no game: the lesson is about the statistics
        assert html.count("95%") >= 3 and "/ 2000" in html


@pytest.mark.parametrize(
    ("key", "answer", "verdict"),
    [("six", "11/36", "correct"), ("different", "3分の2", "correct"), ("targets", "12", "correct"),
     ("times", "0.7", "close"), ("six", "1/6", "wrong")],
)  # fmt: skip
def test_suji_exact_answers(client, key, answer, verdict):
    html = client.post(f"/lessons/suji/step/{key}", data={"answer": answer}, headers=JA).get_data(
        as_text=True
    )
    assert f'class="verdict {verdict}"' in html


def test_suji_answer_read_from_the_simulation_accepts_a_range(client):
    from suji.lessons.suji_stats import stored_figures

    pct = f"{stored_figures().reach.value * 100:.0f}%"
    html = client.post("/lessons/suji/step/reach", data={"answer": pct}, headers=EN).get_data(as_text=True)
    assert 'class="verdict correct"' in html and "within the range of the estimate" in html
    assert "Exact answer" not in html  # an estimate has no exact answer to show
    html = client.post("/lessons/suji/step/reach", data={"answer": pct[:-1]}, headers=JA).get_data(
        as_text=True
    )
    assert 'class="verdict close"' in html and "% の記号" in html


def test_suji_experiments_use_the_students_n_up_to_the_stored_rolls(client):
    html = client.get("/lessons/suji/experiment/value?n=300&seed=4", headers=EN).get_data(as_text=True)
    assert "answer at once" in html and "300 rolls picked with seed 4 from 2000" in html
    assert "%</td>" not in html.split("<tbody>")[1].split("</tbody>")[0]  # points, not percents
    html = client.get("/lessons/suji/experiment/reach", headers=JA).get_data(as_text=True)
    assert "推定値" in html and "お題" in html
    response = client.get("/lessons/suji/experiment/reach?n=2001", headers=EN)
    assert response.status_code == 400 and "from 1 to 2000" in response.get_data(as_text=True)
    chart = client.get("/lessons/suji/experiment/best/chart.svg?n=500&seed=2", headers=EN)
    assert chart.mimetype == "image/svg+xml" and b"no target" in chart.data and b"<script" not in chart.data


# ---- the answer flow: a hint after a wrong answer, the explanation only when right or asked for ---------------

CALLED_EXPLANATION = "one of them is your desk"  # from the explanation of nine-am "called"


def test_a_wrong_answer_gets_a_hint_not_the_explanation(client):
    for answer, verdict in (("1/5", "wrong"), ("16.7%", "close")):
        html = client.post("/lessons/nine-am/step/called", data={"answer": answer}, headers=EN).get_data(
            as_text=True
        )
        assert f'class="verdict {verdict}"' in html
        assert CALLED_EXPLANATION not in html and "Exact answer" not in html
        assert 'class="hint"' in html and "how many desks" in html
        assert 'formaction="/lessons/nine-am/step/called/show#step-called"' in html
    html = client.post("/lessons/nine-am/step/called", data={"answer": "1/5"}, headers=JA).get_data(
        as_text=True
    )
    assert "ちがうよ" in html and "おしい" not in html and "答えを見る" in html


def test_a_right_answer_shows_the_explanation(client):
    html = client.post("/lessons/nine-am/step/called", data={"answer": "1/6"}, headers=EN).get_data(
        as_text=True
    )
    assert 'class="verdict correct"' in html and CALLED_EXPLANATION in html and "Exact answer: 1/6" in html
    assert "/step/called/show" not in html


def test_show_the_answer_reveals_it_without_marking_the_step_done(client):
    html = client.post("/lessons/nine-am/step/called/show", data={"answer": "1/5"}, headers=EN).get_data(
        as_text=True
    )
    assert 'class="verdict shown"' in html and CALLED_EXPLANATION in html and "Exact answer: 1/6" in html
    assert 'id="step-called" class="step"' in html  # not done: the student did not answer it
    assert client.post("/lessons/nine-am/step/nope/show").status_code == 404


def test_show_the_answer_needs_the_csrf_token(csrf_client):
    assert csrf_client.post("/lessons/silence/step/even/show", headers=EN).status_code == 400
    page = csrf_client.get("/lessons/silence", headers=EN).get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    html = csrf_client.post(
        "/lessons/silence/step/even/show", data={"csrf_token": token}, headers=EN
    ).get_data(as_text=True)
    assert 'class="verdict shown"' in html and "symmetric around 10.5" in html


def test_a_decimal_comma_answer_is_accepted(client):
    html = client.post("/lessons/silence/step/cheating", data={"answer": "0,375"}, headers=JA).get_data(
        as_text=True
    )
    assert 'class="verdict correct"' in html


# ---- experiments: N and the seed are read separately; the first view of "who starts" ---------------------------


def test_a_bad_n_keeps_the_students_seed(client):
    response = client.get("/lessons/dice-monsters/experiment/start?n=100000&seed=2", headers=EN)
    html = response.get_data(as_text=True)
    assert response.status_code == 400 and "from 1 to 20000" in html
    assert 'id="seed" name="seed" type="text" inputmode="numeric" value="2"' in html
    assert "chart.svg?n=10000&amp;seed=2" in html
    response = client.get("/lessons/silence/experiment/totals?n=500&seed=-3", headers=EN)
    html = response.get_data(as_text=True)
    assert response.status_code == 400 and "seed must be" in html and "N = 500" in html


def test_who_starts_first_view_uses_ten_thousand_trials_and_says_one_in_twenty_misses(client):
    html = client.get("/lessons/dice-monsters/experiment/start", headers=EN).get_data(as_text=True)
    assert "N = 10000" in html and "About 1 run in 20 misses" in html
    assert "20 回に 1 回" in client.get("/lessons/dice-monsters/experiment/start", headers=JA).get_data(
        as_text=True
    )


# ---- the game pages at the end, and the Silence card table ---------------------------------------------------


def _play_to_the_end(client, slug, query, headers):
    html = client.get(f"/lessons/{slug}/play?{query}", headers=headers).get_data(as_text=True)
    for _ in range(300):
        choices = [htmllib.unescape(c) for c in re.findall(r'name="choice" value="([^"]+)"', html)]
        if not choices:
            return html
        data = {**_form(html.split('class="panel decision"')[1]), "choice": choices[0]}
        html = client.post(f"/lessons/{slug}/play", data=data, headers=headers).get_data(as_text=True)
    raise AssertionError("the game did not end")


def test_a_finished_dice_monsters_game_has_no_round_header(client):
    html = _play_to_the_end(client, "dice-monsters", "seed=12", EN)
    header = re.search(r'<h2 id="dice-h">(.*?)</h2>', html).group(1)
    assert header.startswith("Game over") and "Round" not in header
    assert "Monster 1" not in html and "Monster 2" not in html and not re.search(r"\d\.0\b", html)


def test_silence_board_never_passes_the_end(client):
    for seed in (12, 13, 14):
        html = _play_to_the_end(client, "silence", f"seed={seed}", EN)
        marker = int(re.search(r"Patience marker: (\d+) of 100", html).group(1))
        assert marker <= 100


def test_silence_card_table_shows_the_spread(client):
    html = client.get("/lessons/silence", headers=EN).get_data(as_text=True)
    assert "risk: spread (standard deviation)" in html
    assert "11√15/4 ≈ 10.65" in html  # Cheating: 2 · 11 · √(3/8 · 5/8)
    assert "ばらつき" in client.get("/lessons/silence", headers=JA).get_data(as_text=True)

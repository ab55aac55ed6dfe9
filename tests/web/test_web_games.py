"""The game pages end to end through the Flask test client: solo, pass-and-play, the daily puzzle, names,
history, bad and replayed requests, the database (schema, restart, concurrent daily answers).

The tests read the dice from the database only to find an answer with the solver, as a player would by
looking; every move goes through the pages.
"""

from __future__ import annotations

import random
import re
import threading
from datetime import date
from html import unescape

import pytest
from sqlalchemy import func, select, text

from suji.play import games
from suji.web import games as web_games
from suji.web.extensions import db
from suji.web.games import common as games_common
from suji.web.models import Answer, DailyEntry, Game, Player

DAY = date(2025, 5, 5)
SURE = {"sure": "give-up"}  # the yes that the page's script (or its box) adds to a give-up


@pytest.fixture(autouse=True)
def fixed_day_and_dice(monkeypatch, request):
    """The daily puzzle's day, fixed so a test never straddles midnight; seeded dice, so every run is the same."""
    monkeypatch.setattr(games_common, "today", lambda: DAY)
    if "app" in request.fixturenames:
        request.getfixturevalue("app").config["SUJI_GAMES_RNG"] = random.Random(2025)


def page(client, url: str, lang: str = "en") -> str:
    client.set_cookie("suji_lang", lang)
    response = client.get(url)
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    return response.get_data(as_text=True)


def flashes(html: str) -> list[str]:
    return [unescape(m) for m in re.findall(r'class="flash flash-\w+">([^<]*)<', html)]


def fields(html: str, action: str) -> dict:
    """The hidden fields of the form posting to `action`."""
    form = re.search(r'<form[^>]*action="' + re.escape(action) + r'"[^>]*>(.*?)</form>', html, re.S)
    assert form, f"no form for {action}"
    return dict(re.findall(r'type="hidden" name="(\w+)" value="([^"]*)"', form.group(1)))


def current(app, game_id: int) -> Answer:
    with app.app_context():
        game = db.session.get(Game, game_id)
        answer = game.rounds[game.current_round].answers[game.current_seat]
        db.session.expunge_all()
        return answer


def hand_of(app, game_id: int) -> games.Hand:
    with app.app_context():
        game = db.session.get(Game, game_id)
        return game.rounds[game.current_round].answers[game.current_seat].hand()


def start_solo(client, targets: int = 3) -> int:
    client.set_cookie("suji_lang", "en")
    response = client.post("/games/solo", data={"targets": str(targets)})
    assert response.status_code == 303
    return int(response.headers["Location"].rsplit("/", 1)[1])


def post(client, url: str, data: dict, lang: str = "en") -> str:
    """POST, follow the redirect, and return the page."""
    client.set_cookie("suji_lang", lang)
    response = client.post(url, data=data)
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    return page(client, response.headers["Location"], lang)


def best_formula(hand: games.Hand) -> str | None:
    best, formula = games.best_for(hand.roll)
    return formula or None


# ---- solo ----


def test_a_solo_game_from_start_to_finish(app, client):
    game_id = start_solo(client, 3)
    html = page(client, f"/games/{game_id}")
    assert "Target 1 of 3" in html and 'id="formula"' in html
    expected_total = expected_best = 0
    for number in range(3):
        if number == 0:  # a re-roll of two dice first: 2 points
            before = hand_of(app, game_id)
            html = post(
                client,
                f"/games/{game_id}/reroll",
                {**fields(html, f"/games/{game_id}/reroll"), "die": ["n0", "o2"]},
            )
            after = hand_of(app, game_id)
            assert (after.rerolled, after.cost) == (2, 2)
            assert (
                after.number_dice[1:] == before.number_dice[1:]
                and after.operator_dice[:2] == before.operator_dice[:2]
            )
            assert "Spent so far: 2 re-rolled, 0 set, −2 points" in html
        hand = hand_of(app, game_id)
        formula = best_formula(hand)
        form = fields(html, f"/games/{game_id}/answer")
        if formula:
            html = post(client, f"/games/{game_id}/answer", {**form, "formula": formula})
            stored = hand_of(app, game_id)
            assert stored.status == games.ANSWERED and stored.score == games.apply_costs(
                stored.points, hand.rerolled
            )
            assert stored.points == stored.best_points  # the solver's formula is a best one
        else:
            html = post(client, f"/games/{game_id}/giveup", {**form, **SURE})
            stored = hand_of(app, game_id)
            assert stored.status == games.GAVE_UP and stored.score == 0
        expected_total += stored.score
        expected_best += stored.best_score
        assert f"Score: {stored.score}" in html
        if stored.best_formula:
            assert f"Best possible with these dice: {stored.best_score}" in html
        else:
            assert "No target could be made with these dice." in html
        assert f"Total: {expected_total}" in html
        if number < 2:
            html = post(client, f"/games/{game_id}/next", fields(html, f"/games/{game_id}/next"))
            assert f"Target {number + 2} of 3" in html
    assert f"Your total: {expected_total}" in html
    assert f"The best total with the same dice: {expected_best}" in html
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert (game.status, game.total, game.best_total) == ("finished", expected_total, expected_best)
    index = page(client, "/games/")
    assert f"{expected_total} points (best possible {expected_best}), 3 targets" in index
    assert f'href="/games/{game_id}"' in index.split('id="recent-games"')[1]


def test_the_number_of_targets_is_checked(client):
    assert start_solo(client, 10)
    response = client.post("/games/solo", data={"targets": "11"})
    assert response.status_code == 303
    assert "Choose a number from 1 to 10." in flashes(page(client, "/games/"))
    response = client.post("/games/solo", data={})  # 5 by default
    html = page(client, response.headers["Location"])
    assert "Target 1 of 5" in html


def test_a_replayed_request_changes_nothing(app, client):
    game_id = start_solo(client)
    html = page(client, f"/games/{game_id}")
    form = {**fields(html, f"/games/{game_id}/reroll"), "die": ["n1"]}
    post(client, f"/games/{game_id}/reroll", form)
    dice = hand_of(app, game_id)
    html = post(client, f"/games/{game_id}/reroll", form)  # the same request again
    assert hand_of(app, game_id) == dice and dice.rerolled == 1
    assert flashes(html) == [
        "That was already done (the page may have been sent twice). Here is the game as it is now."
    ]
    html = post(client, f"/games/{game_id}/reroll", form, lang="ja")
    assert flashes(html) == [
        "それはもう終わっています（ページが2回送られたのかもしれません）。いまのゲームを見せます。"
    ]


@pytest.mark.parametrize(
    ("data", "message"),
    [({"die": ["n5"]}, "There is no such die."), ({"die": ["q1"]}, "There is no such die."),
     ({"die": []}, "Choose at least one die to re-roll."), ({"die": ["n1", "n1"]}, "Each die can be chosen only once."),
     ({"die": ["n1"], "step": "²"}, "That was already done"), ({"die": ["n1"], "turn": "99"}, "That was already done"),
     ({"die": ["n1"], "step": ""}, "That was already done")],
)  # fmt: skip
def test_forged_rerolls_get_a_message(app, client, data, message):
    game_id = start_solo(client)
    before = hand_of(app, game_id)
    html = page(client, f"/games/{game_id}")
    html = post(client, f"/games/{game_id}/reroll", {**fields(html, f"/games/{game_id}/reroll"), **data})
    assert flashes(html)[0].startswith(message)
    assert hand_of(app, game_id) == before


@pytest.mark.parametrize(
    ("die", "face", "message"),
    [("n4", "6", "That die has no such face."), ("o0", "√", "That die has no such face."),
     ("o9", "+", "There is no such die."), ("n0", "<b>", "That die has no such face."),
     ("n0", "", "That die has no such face.")],
)  # fmt: skip
def test_forged_set_faces_get_a_message(app, client, die, face, message):
    game_id = start_solo(client)
    html = page(client, f"/games/{game_id}")
    html = post(
        client, f"/games/{game_id}/set", {**fields(html, f"/games/{game_id}/set"), "die": die, "face": face}
    )
    assert flashes(html) == [message]
    assert hand_of(app, game_id).set_faces == 0


def test_set_a_face_costs_five(app, client):
    game_id = start_solo(client)
    hand = hand_of(app, game_id)
    face = next(f for f in games.die_faces("o3") if f != hand.operator_dice[3])
    html = page(client, f"/games/{game_id}")
    html = post(
        client, f"/games/{game_id}/set", {**fields(html, f"/games/{game_id}/set"), "die": "o3", "face": face}
    )
    after = hand_of(app, game_id)
    assert after.operator_dice[3] == face and after.set_faces == 1 and after.cost == 5
    assert "−5 points" in html


def test_a_bad_formula_is_handed_back_with_the_reason(app, client):
    game_id = start_solo(client)
    html = page(client, f"/games/{game_id}")
    client.set_cookie("suji_lang", "ja")
    response = client.post(
        f"/games/{game_id}/answer", data={**fields(html, f"/games/{game_id}/answer"), "formula": "((("}
    )
    assert response.status_code == 303 and "formula=" in response.headers["Location"]
    html = page(client, response.headers["Location"], "ja")
    assert flashes(html)[0].startswith("その式はつかえません")
    assert 'value="((("' in html  # kept in the box to fix
    assert hand_of(app, game_id).is_open


def test_another_players_game_is_not_found(app, client):
    game_id = start_solo(client)
    stranger = app.test_client()
    stranger.set_cookie("suji_lang", "en")
    response = stranger.get(f"/games/{game_id}")
    assert response.status_code == 404 and "There is no such game on this device." in response.get_data(
        as_text=True
    )
    html = page(client, f"/games/{game_id}")
    response = stranger.post(
        f"/games/{game_id}/reroll", data={**fields(html, f"/games/{game_id}/reroll"), "die": "n0"}
    )
    assert response.status_code == 404
    assert stranger.get(f"/games/{game_id}/advice").status_code == 404
    assert stranger.post(f"/games/{game_id}/value", json={"formula": "1"}).status_code == 404
    assert client.get("/games/999999").status_code == 404
    assert hand_of(app, game_id).rerolled == 0


def test_a_give_up_without_the_players_yes_asks_on_the_page_first(app, client):
    # A tap on "Give up" before the page's script has loaded sends the form without the script's question.
    game_id = start_solo(client, 1)
    html = page(client, f"/games/{game_id}", "ja")
    form = fields(html, f"/games/{game_id}/giveup")
    response = client.post(f"/games/{game_id}/giveup", data=form)
    assert response.status_code == 303 and "give_up=ask" in response.headers["Location"]
    assert hand_of(app, game_id).is_open  # nothing given up yet
    asked = page(client, response.headers["Location"], "ja")
    box = re.search(r'<div class="confirm-answer" id="confirm-give-up".*?</div>', asked, re.S)
    assert box and "このお題をあきらめますか" in box.group(0)
    form = re.search(r'<form class="give-up" id="give-up-form".*?</form>', asked, re.S)
    assert form and box.group(0) in form.group(0)  # its "yes" sends the give-up form, with the yes
    assert 'type="submit" name="sure" value="give-up"' in box.group(0)
    assert f'href="/games/{game_id}" id="keep-playing"' in box.group(0)  # "no": the page as it was
    assert 'id="confirm-give-up"' not in page(client, f"/games/{game_id}", "ja")  # asked only when sent back
    html = post(client, f"/games/{game_id}/giveup", {**fields(asked, f"/games/{game_id}/giveup"), **SURE})
    assert hand_of(app, game_id).status == games.GAVE_UP
    assert 'id="confirm-give-up"' not in page(client, f"/games/{game_id}?give_up=ask")  # nothing open to give up


def test_a_daily_give_up_without_the_players_yes_asks_first(app, client):
    html = page(client, "/games/daily")
    response = client.post("/games/daily/giveup", data=daily_form(html, "/games/daily/giveup"))
    assert response.status_code == 303 and "give_up=ask" in response.headers["Location"]
    asked = page(client, response.headers["Location"])
    assert 'id="confirm-give-up"' in asked and "Give up this target? It scores 0 points." in asked
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(DailyEntry).where(
            DailyEntry.status != games.OPEN)) == 0  # fmt: skip
    post(client, "/games/daily/giveup", {**daily_form(asked, "/games/daily/giveup"), **SURE})
    with app.app_context():
        assert db.session.scalars(select(DailyEntry)).one().status == games.GAVE_UP


def test_a_finished_game_takes_no_more_moves(app, client):
    game_id = start_solo(client, 1)
    html = page(client, f"/games/{game_id}")
    form = fields(html, f"/games/{game_id}/answer")
    html = post(client, f"/games/{game_id}/giveup", {**form, **SURE})
    assert "Game over" in html
    for action, extra in (
        ("reroll", {"die": "n0"}),
        ("answer", {"formula": "1+2"}),
        ("giveup", {}),
        ("next", {}),
    ):
        html = post(client, f"/games/{game_id}/{action}", {**form, **extra})
        assert flashes(html) == ["This game is over."]


@pytest.mark.slow
def test_advice_on_request(app, client):
    from suji.web import advice

    game_id = start_solo(client)
    response = client.get(f"/games/{game_id}/advice")
    while response.status_code == 202:  # live advice being worked out: wait for it, then ask again (as the page)
        for event in list(advice._jobs.values()):
            event.wait()
        response = client.get(f"/games/{game_id}/advice")
    assert response.status_code == 200
    options = response.get_json()["options"]
    assert 1 <= len(options) <= web_games.ADVICE_SHOWN
    assert options[0]["kind"] in ("answer", "reroll", "set") and "expected score" in options[0]["text"]
    scores = [float(o["expected_score_decimal"]) for o in options]
    assert scores == sorted(scores, reverse=True)


@pytest.mark.slow
def test_advice_reads_for_a_child(app, client):
    """Whole points and percents unless there is a tenth (36 points, not 36.00), and the page's ruby on the kanji."""
    import re

    from suji.web import advice

    game_id = start_solo(client)
    client.set_cookie("suji_lang", "ja")
    response = client.get(f"/games/{game_id}/advice")
    while response.status_code == 202:
        for event in list(advice._jobs.values()):
            event.wait()
        response = client.get(f"/games/{game_id}/advice")
    options = response.get_json()["options"]
    assert options
    for option in options:
        numbers = re.findall(r"\d+(?:\.\d+)?", option["text"].split("：", 1)[1])
        assert numbers and not any(n.endswith(".0") or n.endswith("0") and "." in n for n in numbers), option["text"]
        assert "<ruby>確率<rp>" in option["text_html"] and "<ruby>得点<rp>" in option["text_html"], option["text_html"]
        assert re.sub(r"<rp>.*?</rp>|<rt>.*?</rt>|</?ruby>", "", option["text_html"]) == option["text"]


def test_the_live_value_uses_the_servers_dice(app, client):
    game_id = start_solo(client)
    hand = hand_of(app, game_id)
    digit = str(hand.number_dice[0])
    data = client.post(f"/games/{game_id}/value", json={"formula": digit}).get_json()
    assert data["valid"] and data["value"] == digit
    missing = next(
        str(d) for d in range(1, 10) if d not in hand.number_dice and not (d == 9 and 6 in hand.number_dice)
    )
    data = client.post(f"/games/{game_id}/value", json={"formula": missing}).get_json()
    assert not data["valid"] and data["error"]["message"]


# ---- pass-and-play ----


def start_party(client, names, rounds=2) -> int:
    response = client.post("/games/party", data={"name": names, "rounds": str(rounds)})
    assert response.status_code == 303, response.get_data(as_text=True)[:300]
    return int(response.headers["Location"].rsplit("/", 1)[1])


def test_pass_and_play_two_players_two_rounds(app, client):
    game_id = start_party(client, ["Aki", "Ben", "", ""], rounds=2)
    html = page(client, f"/games/{game_id}")
    assert "Round 1 of 2" in html and "Aki's turn" in html
    seen = []
    for turn, (round_number, seat) in enumerate(games.turn_order(2, 2)):
        answer = current(app, game_id)
        hand = hand_of(app, game_id)
        seen.append((round_number, seat, hand.target_dice))
        form = fields(html, f"/games/{game_id}/answer")
        formula = best_formula(hand) if seat == 0 else None  # Aki answers well, Ben gives up
        if formula:
            html = post(client, f"/games/{game_id}/answer", {**form, "formula": formula})
        else:
            html = post(client, f"/games/{game_id}/giveup", {**form, **SURE})
        assert answer.seat == seat
        if turn == 0:
            assert "Pass the device to Ben" in html
        if turn == 1:
            assert "Next round: Aki starts" in html
        if turn < 3:
            html = post(client, f"/games/{game_id}/next", fields(html, f"/games/{game_id}/next"))
    assert seen[0][2] == seen[1][2] and seen[2][2] == seen[3][2]  # the target dice stay for the round
    with app.app_context():
        game = db.session.get(Game, game_id)
        scores = [[a.score for a in r.answers] for r in game.rounds]
    totals = [sum(s[0] for s in scores), sum(s[1] for s in scores)]
    assert totals[1] == 0
    if totals[0] > 0:
        assert f"Aki wins with {totals[0]} points!" in html
    else:
        assert "A tie! Aki, Ben share first place with 0 points." in html
    table = html.split('id="score-table"')[1].split("</table>")[0]
    assert re.findall(r"<td[^>]*>(\d+)</td>", table.split("<tfoot>")[1]) == [str(t) for t in totals]


def test_pass_and_play_tie(app, client):
    game_id = start_party(client, ["Aki", "Ben", "Chie"], rounds=1)
    html = page(client, f"/games/{game_id}")
    for seat in range(3):
        html = post(client, f"/games/{game_id}/giveup", {**fields(html, f"/games/{game_id}/answer"), **SURE})
        if seat < 2:
            html = post(client, f"/games/{game_id}/next", fields(html, f"/games/{game_id}/next"))
    assert "A tie! Aki, Ben, Chie share first place with 0 points." in html
    assert html.count('class="winner"') == 3
    assert "tie: Aki, Ben, Chie" in page(client, "/games/")


@pytest.mark.parametrize(
    ("names", "message"),
    [(["Aki"], "Write the names of 2 to 6 players."), ([f"P{i}" for i in range(7)], "Write the names of 2 to 6 players."),
     (["Aki", "aki"], "Two players have the same name: aki"),
     (["Aki", "<script>x</script>"], "A name may use only letters, digits, kana, kanji, spaces, - and _."),
     (["Aki", "x" * 21], "A name must be 1 to 20 characters long.")],
)  # fmt: skip
def test_bad_player_names(client, names, message):
    client.set_cookie("suji_lang", "en")
    response = client.post("/games/party", data={"name": names, "rounds": "2"})
    html = response.get_data(as_text=True)
    assert response.status_code == 400 and message in html
    assert "<script>x" not in html
    if "<script>x</script>" in names:
        assert "&lt;script&gt;x&lt;/script&gt;" in html  # kept in the field, escaped


def test_bad_rounds(client):
    response = client.post("/games/party", data={"name": ["Aki", "Ben"], "rounds": "0"})
    assert response.status_code == 400


# ---- the daily puzzle ----


def daily_form(html: str, action: str = "/games/daily/answer") -> dict:
    return fields(html, action)


def test_daily_puzzle_is_the_days_roll_and_answered_once(app, client):
    html = page(client, "/games/daily")
    hand = games.daily_hand(DAY)
    assert re.findall(r'data-kind="number" data-face="(\d)"', html) == [str(f) for f in hand.number_dice]
    assert "Nobody has answered yet today." in html
    formula = best_formula(hand)
    if formula:
        html = post(client, "/games/daily/answer", {**daily_form(html), "formula": formula})
    else:
        html = post(client, "/games/daily/giveup", {**daily_form(html), **SURE})
    with app.app_context():
        entry = db.session.scalars(select(DailyEntry)).one()
        assert entry.day == DAY and entry.status != games.OPEN
        score = entry.score
    assert f"Score: {score}" in html and "(no name)" in html
    # Answered without a nickname: not asked to choose one "before you answer" any more.
    assert "before you answer" not in html and "Choose a nickname and it shows there." in html
    again = post(client, "/games/daily/giveup", {"day": DAY.isoformat(), "step": "0"})
    assert flashes(again) == ["You have already answered today's puzzle. Come back tomorrow!"]
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(DailyEntry)) == 1


def test_daily_rerolls_give_the_same_dice_for_the_same_choice(app):
    dice = []
    for _ in range(2):
        client = app.test_client()
        html = page(client, "/games/daily")
        post(client, "/games/daily/reroll", {**daily_form(html, "/games/daily/reroll"), "die": ["n0", "o3"]})
        html = page(client, "/games/daily")
        html = post(client, "/games/daily/reroll", {**daily_form(html, "/games/daily/reroll"), "die": ["n2"]})
        dice.append(re.findall(r'data-kind="\w+" data-face="([^"]+)"', html.split('id="formula-form"')[0]))
    assert dice[0] == dice[1]
    expected = games.daily_reroll(games.daily_reroll(games.daily_hand(DAY), DAY, ["n0", "o3"]), DAY, ["n2"])
    assert dice[0] == [str(f) for f in expected.number_dice + expected.operator_dice]
    with app.app_context():
        entries = db.session.scalars(select(DailyEntry)).all()
        assert [(e.rerolled, e.rerolls_made) for e in entries] == [(3, 2), (3, 2)]


def test_a_daily_form_from_another_day(client):
    html = post(client, "/games/daily/giveup", {"day": "2025-05-04", "step": "0"})
    assert flashes(html) == ["That puzzle is from another day. Here is today's puzzle."]


def test_leaderboard_order_and_escaped_names(app):
    scores = []
    for name in ("Aki", "Ben", "Chie"):
        client = app.test_client()
        post(client, "/games/nickname", {"nickname": name, "next": "/games/daily"})
        html = page(client, "/games/daily")
        hand = games.daily_hand(DAY)
        if name != "Ben" and best_formula(hand):
            post(client, "/games/daily/answer", {**daily_form(html), "formula": best_formula(hand)})
        else:
            post(client, "/games/daily/giveup", {**daily_form(html), **SURE})
    with app.app_context():
        player = db.session.scalars(select(Player).where(Player.nickname == "Chie")).one()
        player.nickname = "<b>Chie</b>"  # written behind the form's back: the page must still escape it
        db.session.commit()
        scores = [e.score for e in db.session.scalars(select(DailyEntry).order_by(DailyEntry.id))]
    html = page(app.test_client(), "/games/daily")
    board = html.split('id="leaderboard"')[1].split("</table>")[0]
    names = re.findall(r"<td>\d+</td>\s*<td>([^<]*)</td>", board)
    assert "&lt;b&gt;Chie&lt;/b&gt;" in names and "<b>Chie" not in html
    if scores[0] > 0:
        assert names == ["Aki", "&lt;b&gt;Chie&lt;/b&gt;", "Ben"]  # equal scores: the earlier answer first
    assert "Answers today: 3" in html


def test_nickname_is_validated_in_both_languages(app, client):
    html = post(client, "/games/nickname", {"nickname": "<script>", "next": "/games/"})
    assert flashes(html) == ["A name may use only letters, digits, kana, kanji, spaces, - and _."]
    html = post(client, "/games/nickname", {"nickname": "", "next": "/games/"}, lang="ja")
    assert flashes(html) == ["名前は1〜20文字にしてください。"]
    html = post(client, "/games/nickname", {"nickname": "さくら５", "next": "https://evil.example/"})
    assert flashes(html) == ["Your name is saved."] and 'value="さくら５"' in html
    with app.app_context():
        assert db.session.scalars(select(Player.nickname)).all() == ["さくら５"]


def test_delete_my_history(app, client):
    start_solo(client)
    html = page(client, "/games/daily")
    post(client, "/games/daily/giveup", {**daily_form(html), **SURE})
    post(client, "/games/nickname", {"nickname": "Aki", "next": "/games/"})
    assert "Delete everything" in page(client, "/games/history/delete")
    response = client.post("/games/history/delete")
    assert response.status_code == 303 and "suji_player=;" in response.headers["Set-Cookie"]
    with app.app_context():
        for model in (Player, Game, Answer, DailyEntry):
            assert db.session.scalar(select(func.count()).select_from(model)) == 0
    html = page(client, "/games/")
    assert flashes(html) == ["Your history is deleted."] and "No games yet." in html
    html = page(client, "/games/history/delete")
    assert "There is no history to delete." in html


def test_forms_need_the_csrf_token(csrf_client):
    response = csrf_client.post("/games/solo", data={"targets": "3"})
    assert response.status_code == 400


def test_pages_are_in_japanese(client):
    html = page(client, "/games/", "ja")
    assert "今日の問題" in html and "ひとりで" in html
    game_id = start_solo(client)
    html = page(client, f"/games/{game_id}", "ja")
    assert "ふりなおす" in html and "あきらめる" in html and "答える" in html


# ---- the database ----


def test_a_fresh_instance_gets_the_schema_in_wal_mode(tmp_path, monkeypatch):
    # not the `app` fixture (its database is a copy made by the migrations once): an empty instance folder
    from suji.web import create_app
    from suji.web.models import migration_head

    monkeypatch.setenv("SUJI_INSTANCE_PATH", str(tmp_path / "fresh"))
    app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "test"})
    # The start-up opened the file (to see that it can be written: suji.web.startup); the schema comes on first use.
    assert (tmp_path / "fresh" / "suji.sqlite3").exists()
    with app.app_context():
        assert db.session.execute(text("SELECT count(*) FROM sqlite_master")).scalar() == 0
    app.test_client().get("/games/")
    with app.app_context():
        assert db.session.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert db.session.execute(text("PRAGMA busy_timeout")).scalar() == 15000
        assert db.session.execute(text("SELECT version_num FROM alembic_version")).scalar() == migration_head()
    assert app.config["SQLALCHEMY_DATABASE_URI"].endswith("/fresh/suji.sqlite3")  # in the instance folder


@pytest.mark.slow  # two apps and two migrations (0.4 s)
def test_games_survive_a_restart(tmp_path, monkeypatch):
    from suji.web import create_app

    monkeypatch.setenv("SUJI_INSTANCE_PATH", str(tmp_path / "instance"))
    config = {"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "test"}
    first = create_app(config).test_client()
    game_id = start_solo(first, 2)
    cookie = first.get_cookie("suji_player").value
    second = create_app(config).test_client()
    second.set_cookie("suji_player", cookie)
    assert "Target 1 of 2" in page(second, f"/games/{game_id}")


def test_suji_database_url_is_used(tmp_path, monkeypatch):
    from suji.web import create_app

    url = f"sqlite:///{tmp_path / 'elsewhere.db'}"
    monkeypatch.setenv("SUJI_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.setenv("SUJI_DATABASE_URL", url)
    app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "test"})
    start_solo(app.test_client())
    assert app.config["SQLALCHEMY_DATABASE_URI"] == url and (tmp_path / "elsewhere.db").exists()


def answer_daily_at_once(app, clients) -> list[int]:
    """Every client answers (gives up) the daily puzzle at the same moment, each in its own thread."""
    forms = [daily_form(page(c, "/games/daily")) for c in clients]
    barrier = threading.Barrier(len(clients))
    statuses: list[int] = []

    def go(client, form):
        barrier.wait()
        statuses.append(client.post("/games/daily/giveup", data={**form, **SURE}).status_code)

    threads = [threading.Thread(target=go, args=(c, f)) for c, f in zip(clients, forms, strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return statuses


@pytest.mark.slow
def test_many_players_answer_the_daily_puzzle_at_once(app):
    clients = [app.test_client() for _ in range(50)]
    for i, c in enumerate(clients):
        post(c, "/games/nickname", {"nickname": f"p{i}", "next": "/games/"})
    assert answer_daily_at_once(app, clients) == [303] * 50
    with app.app_context():
        rows = db.session.execute(select(DailyEntry.player_id, DailyEntry.status)).all()
        assert len(rows) == 50 and len({r.player_id for r in rows}) == 50
        assert {r.status for r in rows} == {games.GAVE_UP}


def test_one_player_answering_from_many_tabs_at_once_is_stored_once(app):
    first = app.test_client()
    post(first, "/games/nickname", {"nickname": "Aki", "next": "/games/"})
    cookie = first.get_cookie("suji_player").value
    tabs = [app.test_client() for _ in range(8)]
    for tab in tabs:
        tab.set_cookie("suji_player", cookie)
    assert answer_daily_at_once(app, tabs) == [303] * 8
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(DailyEntry)) == 1
        assert db.session.scalar(select(func.count()).select_from(Player)) == 1


def test_a_game_result_shows_how_the_value_was_worked_out(app, client):
    """A wrong value opens "How is it worked out?" under the result; a made target keeps it closed."""
    game_id = start_solo(client)
    hand = hand_of(app, game_id)
    html = page(client, f"/games/{game_id}")
    digits = [str(d) for d in hand.number_dice[:2]]
    formula = f"{digits[0]}{digits[1]}"  # a two-dice number: valid, and worked out in one step
    html = post(  # "sure": answered anyway when the value is none of the targets (the page asks first)
        client, f"/games/{game_id}/answer",
        {**fields(html, f"/games/{game_id}/answer"), "formula": formula, "sure": formula},
    )  # fmt: skip
    stored = hand_of(app, game_id)
    assert 'id="working"' in html and "How is it worked out?" in html
    assert ('<details id="working" open>' in html) == (stored.target is None)
    assert f"{digits[0]} {digits[1]} → {formula}" in html


def test_the_daily_ranking_shares_ranks_and_tells_equal_names_apart(app):
    clients = [app.test_client() for _ in range(3)]
    for c, name in zip(clients, ["Aki", "Aki", "Ben"], strict=True):
        post(c, "/games/nickname", {"nickname": name, "next": "/games/"})
    assert answer_daily_at_once(app, clients) == [303] * 3  # all give up: 0 points each
    html = page(clients[0], "/games/daily")
    rows = re.findall(r"<tr(?: class=\"me\")?><td>(\d+)</td>\s*<td>(.*?)</td>", html, re.S)
    assert [rank for rank, _ in rows] == ["1", "1", "1"]  # equal scores share a rank
    tags = re.findall(r'<span class="tag">(#\w+)</span>', html)
    assert len(tags) == 2 and tags[0] != tags[1]  # the two Akis are told apart, Ben needs no mark
    assert html.count("(you)") == 1
    assert 'id="next-puzzle"' in html and 'class="local-time"' in html
    with app.test_request_context():
        day = games_common.today()
        assert web_games.next_puzzle_at(day).date() == day + __import__("datetime").timedelta(days=1)
        assert web_games.next_puzzle_at(day).utcoffset() is not None
        # Scores 30, 30, 20: ranks 1, 1, 3 (the third place is third, not second).
        entries = db.session.scalars(select(DailyEntry).order_by(DailyEntry.id)).all()
        for entry, score in zip(entries, (30, 30, 20), strict=True):
            entry.score = score
        db.session.commit()
        assert [p.rank for p in web_games.leaderboard(day)] == [1, 1, 3]


def test_a_reroll_says_what_changed_and_marks_the_dice(app, client):
    game_id = start_solo(client)
    before = hand_of(app, game_id)
    html = page(client, f"/games/{game_id}")
    html = post(
        client, f"/games/{game_id}/reroll", {**fields(html, f"/games/{game_id}/reroll"), "die": ["n1"]}
    )
    after = hand_of(app, game_id)
    # Named as everywhere (advice, menus): where the die sits, its kind and its face, then the new face.
    expected = f"Changed: number die 2 (A) showing {before.number_dice[1]} → now {after.number_dice[1]}."
    assert expected in html
    assert re.search(r'class="die die-number changed"[^>]*data-index="1"', html)
    assert "(just changed)" in html
    again = page(client, f"/games/{game_id}")
    assert "Changed:" not in again and "die-number changed" not in again  # said and marked once
    assert "number die 1 (A) showing" in again  # the set-a-face menu names dice the same way


@pytest.mark.slow
def test_advice_names_dice_the_way_the_page_does(app, client):
    from suji.solver.advice import RolledDie

    assert RolledDie("number", 3, "B", 7).label("en") == "number die 4 (B) showing 7"
    assert "数字ダイス" in RolledDie("number", 3, "B", 7).label("ja")
    game_id = start_solo(client)
    options = client.get(f"/games/{game_id}/advice").get_json()["options"]
    for option in options:
        if option["kind"] != "answer":
            assert "die " in option["label"] and "showing" in option["label"], option["label"]


def test_a_hand_that_cannot_make_a_target_says_so(app, client, monkeypatch):
    from suji.play.games import Hand

    game_id = start_solo(client)
    with app.app_context():
        game = db.session.get(Game, game_id)
        answer = game.rounds[0].answers[0]
        # 1 1 1 1 1 with × × × ×11 cannot reach 8 8 8's targets.
        answer.store(Hand((8, 8, 8), (1, 1, 1, 1, 1), ("×", "×", "×", "×11")))
        db.session.commit()
    html = page(client, f"/games/{game_id}")
    assert 'id="no-target"' in html and "cannot make any of the targets" in html
    with app.app_context():
        game = db.session.get(Game, game_id)
        game.rounds[0].answers[0].store(Hand((1, 2, 5), (1, 2, 5, 3, 3), ("+", "+", "×", "²")))
        db.session.commit()
    assert 'id="no-target"' not in page(client, f"/games/{game_id}")  # 125 is on the dice


def test_play_again_keeps_the_players(app, client):
    client.set_cookie("suji_lang", "en")
    response = client.post("/games/party", data={"name": ["Aki", "Ben", "Chie"], "rounds": "1"})
    game_id = int(response.headers["Location"].rsplit("/", 1)[1])
    for _ in range(3):
        html = page(client, f"/games/{game_id}")
        html = post(client, f"/games/{game_id}/giveup", {**fields(html, f"/games/{game_id}/giveup"), **SURE})
        if 'id="play-again"' in html:
            break
        post(client, f"/games/{game_id}/next", fields(html, f"/games/{game_id}/next"))
    assert 'id="play-again"' in html and "same players" in html
    form = re.search(r'<form method="post" action="/games/party">(.*?)</form>', html, re.S).group(1)
    names = re.findall(r'name="name" value="([^"]*)"', form)
    rounds = re.search(r'name="rounds" value="(\d+)"', form).group(1)
    again = client.post("/games/party", data={"name": names, "rounds": rounds})
    new_id = int(again.headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        assert [s.name for s in db.session.get(Game, new_id).seats] == ["Aki", "Ben", "Chie"]
        assert new_id != game_id


def test_game_json_errors_have_the_apis_shape(client):
    """{"error": {"code", "message"}} everywhere, as the API answers."""
    response = client.get("/games/999999/advice", headers={"Accept-Language": "en"})
    assert response.status_code == 404
    assert response.get_json()["error"]["code"] == "no_game" and response.get_json()["error"]["message"]
    api = client.post("/api/check", json={}).get_json()
    assert set(api["error"]) >= {"code", "message"}


def test_history_dates_follow_the_daily_puzzles_calendar(app):
    from datetime import datetime

    with app.test_request_context():
        # 20:00 UTC on 30 November is already 1 December in Japan, the daily puzzle's time zone.
        assert web_games.local_day(datetime(2026, 11, 30, 20, 0)) == "2026-12-01"
        assert web_games.local_day(datetime(2026, 11, 30, 10, 0)) == "2026-11-30"


def test_recent_games_are_dated_in_words_not_iso(app, client):
    """Issue 26: a pupil reads 3 Dec (12月3日), never 2026-12-03."""
    start_solo(client)
    for lang, pattern in (("en", r"\d{1,2} [A-Z][a-z]{2}"), ("ja", r"\d{1,2}月\d{1,2}日")):
        html = page(client, "/games/", lang)
        recent = re.search(r'<ul class="recent-games" id="recent-games">(.*?)</ul>', html, re.S).group(1)
        assert re.search(pattern, recent) and not re.search(r"\d{4}-\d{2}-\d{2}", recent)

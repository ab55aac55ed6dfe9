"""Practice on the web: the JSON contract, the pages in both languages, the pupil's own data, one answer one
transaction (SQLite here; tests/web/test_practice_postgres.py runs the same on PostgreSQL)."""

from __future__ import annotations

import json
import re
import threading
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from suji.learner.bank import load
from suji.learner.items import item_key
from suji.rules.dice import Roll
from suji.web.extensions import db
from suji.web.models import utcnow
from suji.web.practice import store
from suji.web.practice.models import PracticeAnswer, PracticeItemStat, PracticeProfile, PracticeSigninFailure


def roll_of(problem: dict) -> Roll:
    return Roll(tuple(problem["target_dice"]), tuple(problem["number_dice"]), tuple(problem["operator_dice"]))


def witness(problem: dict) -> str:
    """A formula that reaches the problem's goal (the bank's proof of it)."""
    return load().get(item_key(roll_of(problem), problem["goal_score"])).witness_formula


def next_problem(client) -> dict:
    response = client.get("/api/practice/next")
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-store"
    return response.get_json()["problem"]


def answer(client, problem: dict, formula: str | None = None, **extra) -> tuple[int, dict]:
    body = {"id": problem["id"], "formula": witness(problem) if formula is None else formula, **extra}
    response = client.post("/api/practice/answer", json=body)
    return response.status_code, response.get_json()


def rows(app, model, **where) -> int:
    with app.app_context():
        query = select(func.count()).select_from(model)
        for name, value in where.items():
            query = query.where(getattr(model, name) == value)
        return db.session.scalar(query)


def profile_id(app, client) -> int | None:
    cookie = client.get_cookie(store.COOKIE)
    if cookie is None:
        return None
    with app.app_context(), app.test_request_context(headers={"Cookie": f"{store.COOKIE}={cookie.value}"}):
        profile = store.profile_of(store.read_holder())
        return profile.id if profile else None


# ---- the contract ----


def test_the_next_problem_has_the_contracts_shape_and_stays_until_answered(app, client):
    data = client.get("/api/practice/next").get_json()
    problem = data["problem"]
    assert set(problem) == {"id", "target_dice", "targets", "number_dice", "operator_dice", "level", "goal_score",
                            "predicted_success"}  # fmt: skip
    assert (
        len(problem["target_dice"]) == 3
        and len(problem["number_dice"]) == 5
        and len(problem["operator_dice"]) == 4
    )
    assert set(problem["operator_dice"]) <= {"+", "−", "×", "÷", "×10", "×11", "×12", "²", "√"}
    assert problem["level"] in (1, 2, 3) and isinstance(problem["goal_score"], int)
    assert 0 < problem["predicted_success"] < 1 and problem["targets"] == list(roll_of(problem).targets)
    assert data["learner"] == {"rating": 0.0, "answered": 0}
    assert next_problem(client)["id"] == problem["id"]  # asking again before answering: the same problem
    assert rows(app, PracticeProfile) == 0  # looking stores nothing: the first answer makes the profile


def test_an_answer_has_the_contracts_shape_and_counts_once(app, client):
    problem = next_problem(client)
    status, data = answer(client, problem, hints_used=0, seconds=12.5)
    assert status == 200
    assert set(data) >= {"made_goal", "score", "outcome", "learner"}
    assert data["made_goal"] is True and data["outcome"] == 1.0 and data["score"] >= problem["goal_score"]
    learner = data["learner"]
    assert learner["answered"] == 1 and learner["rating"] > 0
    assert set(learner["skills"]) >= {"plus_minus", "times", "divide", "constants", "square", "root", "joined",
                                       "six_as_nine"}  # fmt: skip
    assert all(set(s) == {"rating", "level"} for s in learner["skills"].values())
    assert {s["level"] for s in learner["skills"].values()} <= {"not_started", "attempted", "familiar", "proficient",
                                                                "mastered"}  # fmt: skip
    status, again = answer(client, problem)
    assert status == 409 and again["error"]["code"] == "answered" and again["error"]["message"]
    assert rows(app, PracticeAnswer) == 1
    assert next_problem(client)["id"] != problem["id"]  # answered: a new problem next


def test_unknown_forged_and_other_pupils_ids_are_404(app, client):
    problem = next_problem(client)
    other = app.test_client()
    status, data = answer(other, problem)  # another pupil's problem
    assert status == 404 and data["error"]["code"] == "unknown_problem"
    altered = problem["id"][:-2] + ("BB" if problem["id"].endswith("AA") else "AA")  # never the id itself
    for forged in ("", "x" * 50, altered, 7, None, ["a"]):
        response = client.post("/api/practice/answer", json={"id": forged, "formula": "1+2"})
        assert response.status_code == 404 and set(response.get_json()["error"]) == {"code", "message"}


def test_giving_up_and_wrong_formulas_score_nothing_and_hints_lower_the_outcome(app, client):
    problem = next_problem(client)
    response = client.post("/api/practice/answer", json={"id": problem["id"], "give_up": True})
    assert response.status_code == 200 and response.get_json()["outcome"] == 0.0
    problem = next_problem(client)
    one_die = str(problem["number_dice"][0])  # a formula of the rolled dice that makes no target
    status, data = answer(client, problem, formula=one_die)
    assert status == 200 and data["made_goal"] is False and data["outcome"] == 0.0 and data["score"] == 0
    problem = next_problem(client)
    status, data = answer(client, problem, hints_used=2)
    assert data["made_goal"] is True and data["outcome"] == 0.5
    with app.app_context():
        kinds = [
            (a.gave_up, a.error_code, a.hints_used)
            for a in db.session.scalars(select(PracticeAnswer).order_by(PracticeAnswer.id))
        ]
    assert kinds == [(True, None, 0), (False, "not_target", 0), (False, None, 2)]


def unrolled_digit(problem: dict) -> str:
    return str(next(d for d in range(1, 10) if d not in problem["number_dice"] and not (d == 9 and 6 in problem["number_dice"])))


@pytest.mark.parametrize(
    "typed, code",
    [("", "empty"), ("   ", "empty"), ("1+", "ends_with_operator"), ("1++2", "adjacent_operators"),
     (None, "not_rolled")],
)  # fmt: skip
def test_text_that_is_no_formula_of_the_dice_is_not_graded(app, client, typed, code):
    # An empty box or a slip of the finger (the live line has flagged it already) is no answer: the pupil hears
    # why, nothing is kept, no rating moves, and the same problem waits for the mended formula.
    problem = next_problem(client)
    typed = unrolled_digit(problem) if typed is None else typed
    before = client.get("/api/practice/next").get_json()["learner"]
    status, data = answer(client, problem, formula=typed)
    assert status == 400 and data["error"]["code"] == code and data["error"]["message"]
    assert rows(app, PracticeAnswer) == 0
    again = client.get("/api/practice/next").get_json()
    assert again["problem"]["id"] == problem["id"] and again["learner"] == before
    status, data = answer(client, problem)  # the mended formula is graded as usual
    assert status == 200 and data["made_goal"] is True and rows(app, PracticeAnswer) == 1


@pytest.mark.parametrize("typed", ["", "1++2"])
def test_the_practice_page_keeps_a_slip_and_says_what_is_wrong(app, client, typed):
    play = client.get("/practice/", headers={"Accept-Language": "ja"}).get_data(as_text=True)
    problem_id = re.search(r'name="id" value="([^"]+)"', play).group(1)
    response = client.post("/practice/answer", data={"id": problem_id, "formula": typed}, headers={"Accept-Language": "ja"})
    assert response.status_code == 303 and "/practice/result" not in response.headers["Location"]
    page = client.get(response.headers["Location"], headers={"Accept-Language": "ja"}).get_data(as_text=True)
    message = "式を書いてください" if not typed else "記号がとなり合っています"
    assert message in page and f'value="{typed}"' in page
    assert re.search(r'name="id" value="([^"]+)"', page).group(1) == problem_id
    assert rows(app, PracticeAnswer) == 0


@pytest.mark.parametrize(
    "body, code",
    [
        ({"formula": "1+2", "hints_used": 5}, "not_count"),
        ({"formula": "1+2", "hints_used": True}, "not_count"),
        ({"formula": "1+2", "seconds": -1}, "not_seconds"),
        ({"formula": "1+2", "seconds": "fast"}, "not_seconds"),
        ({"formula": 12}, "not_text"),
        ({}, "missing_field"),
        ({"give_up": "yes"}, "not_flag"),
    ],
)
def test_malformed_answers_get_the_apis_error_shape(app, client, body, code):
    problem = next_problem(client)
    response = client.post("/api/practice/answer", json={"id": problem["id"], **body, "lang": "ja"})
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error["code"] == code and re.search(r"[ぁ-んァ-ン一-龥]", error["message"])
    assert client.post("/api/practice/answer", data="nope").get_json()["error"]["code"] == "not_json"


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_formula_too_long_is_refused_not_graded(app, client, lang):
    """5,000 characters are not an answer: 400 (or the page again, the text kept), nothing kept, the problem open."""
    problem = next_problem(client)
    response = client.post("/api/practice/answer", json={"id": problem["id"], "formula": "1+" * 2500, "lang": lang})
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error["code"] == "too_long" and "200" in error["message"]
    client.set_cookie("suji_lang", lang)
    play = client.get("/practice/").get_data(as_text=True)
    problem_id = re.search(r'name="id" value="([^"]+)"', play).group(1)
    page = client.post("/practice/answer", data={"id": problem_id, "formula": "2+" * 2500})
    assert page.status_code == 303 and "/practice/result/" not in page.headers["Location"]
    again = client.get(page.headers["Location"]).get_data(as_text=True)
    assert ("長すぎ" in again if lang == "ja" else "too long" in again) and "2+2+2+" in again
    assert rows(app, PracticeAnswer) == 0
    assert answer(client, next_problem(client))[0] == 200  # the pupil carries on: nothing was lost


def test_the_page_counts_hints_and_still_on_track_answers(app, client):
    problem = next_problem(client)
    shown = []
    for step in range(4):
        data = client.post("/api/practice/hint", json={"id": problem["id"], "step": step}).get_json()
        assert data["step"] == step and data["hints_used"] == step + 1
        shown.append(data["hint"])
    assert data["more"] is False and witness(problem).replace("−", "−") in shown[-1]
    skip = client.post("/api/practice/hint", json={"id": problem["id"], "step": 9})
    assert skip.status_code == 400
    again = client.post(
        "/api/practice/hint", json={"roll": problem["id"], "step": 1}
    ).get_json()  # drill.js' key
    assert again["hint"] == shown[1] and again["hints_used"] == 4  # seen before: not counted again
    track = client.post(
        "/api/practice/on-track", json={"id": problem["id"], "formula": witness(problem)[:1]}
    ).get_json()
    assert track["on_track"] is True and track["message"]
    status, data = answer(client, problem)  # hints_used 0 from the client: the server's count wins
    assert data["outcome"] == 0.0 and data["made_goal"] is True


def test_progress_has_the_learner_and_the_history(app, client):
    for _ in range(3):
        answer(client, next_problem(client))
    data = client.get("/api/practice/progress").get_json()["learner"]
    assert data["answered"] == 3 and data["days_in_a_row"] == 1 and len(data["history"]) == 3
    assert data["history"][-1]["rating"] == data["rating"]
    assert all(h["made_goal"] for h in data["history"])


def test_csrf_protects_the_answers(csrf_client):
    problem = csrf_client.get("/api/practice/next").get_json()["problem"]
    response = csrf_client.post("/api/practice/answer", json={"id": problem["id"], "give_up": True})
    assert response.status_code == 400 and response.get_json()["error"]["code"] == "csrf"
    page = csrf_client.get("/practice/").get_data(as_text=True)
    token = re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)
    problem = csrf_client.get("/api/practice/next").get_json()["problem"]
    ok = csrf_client.post(
        "/api/practice/answer", json={"id": problem["id"], "give_up": True}, headers={"X-CSRFToken": token}
    )
    assert ok.status_code == 200


# ---- pages ----


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_pages_in_both_languages(app, client, lang):
    client.set_cookie("suji_lang", lang)
    words = {
        "ja": ("マイ練習", "目標", "自分の成長", "自分のデータ"),
        "en": ("Practice", "Goal", "My progress", "My data"),
    }[lang]
    play = client.get("/practice/").get_data(as_text=True)
    assert f'<html lang="{lang}">' in play and words[0] in play and words[1] in play
    assert 'id="drill"' in play and "drill.js" in play and 'data-hint-url="/api/practice/hint"' in play
    problem_id = re.search(r'name="id" value="([^"]+)"', play).group(1)
    formula = witness(next_problem(client))
    result = client.post("/practice/answer", data={"id": problem_id, "formula": formula})
    assert result.status_code == 303 and "/practice/result/" in result.headers["Location"]
    page = client.get(result.headers["Location"]).get_data(as_text=True)
    assert (
        'id="verdict"' in page
        and 'id="changes"' in page
        and ("レート" in page if lang == "ja" else "rating" in page)
    )
    for url, word in (("/practice/progress", words[2]), ("/practice/me", words[3]), ("/practice/signin", ""),
                      ("/practice/delete", "")):  # fmt: skip
        html = client.get(url).get_data(as_text=True)
        assert f'<html lang="{lang}">' in html and word in html, url
    progress = client.get("/practice/progress").get_data(as_text=True)
    assert (
        "<svg" in progress
        and 'id="skills"' in progress
        and "http"
        not in progress.split("<svg", 1)[1].split("</svg>")[0].replace("http://www.w3.org/2000/svg", "")
    )


def test_someone_elses_result_page_is_not_found(app, client):
    play = client.get("/practice/").get_data(as_text=True)
    problem_id = re.search(r'name="id" value="([^"]+)"', play).group(1)
    where = client.post("/practice/give-up", data={"id": problem_id, "sure": "give-up"}).headers["Location"]
    assert client.get(where).status_code == 200
    assert app.test_client().get(where).status_code == 404
    assert client.get("/practice/result/999999").status_code == 404


@pytest.mark.parametrize("lang, question", [("en", "Give up this problem?"), ("ja", "この問題をギブアップしますか")])
def test_giving_up_without_the_pupils_yes_asks_on_the_page_first(app, client, lang, question):
    # Giving up counts as not solved: the page's script asks first; a form without its yes (a tap before the script
    # loaded) counts nothing and brings the page back with the question, whose "yes" sends the form with the yes.
    headers = {"Accept-Language": lang}
    play = client.get("/practice/", headers=headers).get_data(as_text=True)
    problem_id = re.search(r'name="id" value="([^"]+)"', play).group(1)
    assert 'id="confirm-give-up"' not in play and f'data-confirm="{question}' in play
    response = client.post("/practice/give-up", data={"id": problem_id}, headers=headers)
    assert response.status_code == 303 and "give_up=ask" in response.headers["Location"]
    assert rows(app, PracticeAnswer) == 0
    asked = client.get(response.headers["Location"], headers=headers).get_data(as_text=True)
    form = re.search(r'<form class="give-up" id="give-up-form".*?</form>', asked, re.S).group(0)
    box = re.search(r'<div class="confirm-answer" id="confirm-give-up".*?</div>', form, re.S).group(0)
    assert question in box and 'type="submit" name="sure" value="give-up"' in box
    assert f'name="id" value="{problem_id}"' in form
    done = client.post("/practice/give-up", data={"id": problem_id, "sure": "give-up"}, headers=headers)
    assert "/practice/result/" in done.headers["Location"] and rows(app, PracticeAnswer, gave_up=True) == 1


def test_an_old_page_keeps_the_formula_and_shows_the_problem_now(app, client):
    response = client.post("/practice/answer", data={"id": "forged", "formula": "1+2"})
    assert response.status_code == 303 and "formula=1%2B2" in response.headers["Location"]
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert 'value="1+2"' in page


def test_try_my_mistakes_again_serves_the_missed_item(app, client):
    missed = next_problem(client)
    client.post("/api/practice/answer", json={"id": missed["id"], "give_up": True})
    answer(client, next_problem(client))
    progress = client.get("/practice/progress").get_data(as_text=True)
    assert 'id="mistakes"' in progress
    assert client.post("/practice/mistakes").status_code == 303
    again = next_problem(client)
    assert (again["target_dice"], again["number_dice"], again["goal_score"]) == (
        missed["target_dice"], missed["number_dice"], missed["goal_score"])  # fmt: skip
    answer(client, again)  # made now: no longer a mistake to try again
    assert 'id="no-mistakes"' in client.get("/practice/progress").get_data(as_text=True)


# ---- the pupil's own data ----


def test_a_sign_in_code_carries_the_practice_to_another_browser(app, client):
    for _ in range(2):
        answer(client, next_problem(client))
    assert 'id="make-code"' in client.get("/practice/me").get_data(as_text=True)
    client.post("/practice/code")
    me = client.get("/practice/me").get_data(as_text=True)
    code = re.search(r'id="signin-code">([A-Z0-9-]+)<', me).group(1)
    assert re.fullmatch(r"[A-Z0-9]{4}-[A-Z0-9]{4}", code)
    card = client.get("/practice/card.pdf")
    assert (
        card.status_code == 200
        and card.data.startswith(b"%PDF")
        and card.headers["Content-Type"] == "application/pdf"
    )
    from io import BytesIO

    from pypdf import PdfReader

    text = PdfReader(BytesIO(card.data)).pages[0].extract_text()
    assert code in text
    second = app.test_client()
    assert second.get("/practice/signin").status_code == 200
    assert f"/practice/signin#{code.replace('-', '')}" in text.replace(
        "\n", ""
    )  # the QR's address, on the card
    wrong = second.post("/practice/signin", data={"code": "AAAA-AAAA"})
    assert wrong.status_code == 400 and "code" in wrong.get_data(as_text=True).lower()
    signed = second.post("/practice/signin", data={"code": code.lower()})
    assert signed.status_code == 303
    assert second.get("/api/practice/progress").get_json()["learner"]["answered"] == 2
    answer(second, next_problem(second))  # the second browser answers: the first sees it
    assert client.get("/api/practice/progress").get_json()["learner"]["answered"] == 3
    assert code in second.get("/practice/me").get_data(as_text=True)  # the code shows there too
    client.post("/practice/code")  # a new code: the old one signs nobody in
    assert app.test_client().post("/practice/signin", data={"code": code}).status_code == 400
    assert code not in second.get("/practice/me").get_data(as_text=True)


def test_wrong_codes_are_rate_limited_in_the_database(app, client):
    wrong = [f"AAAA-AA{a}{b}" for a in "CDEF" for b in "GHJK"][: store.SIGNIN_FAILURES + 1]
    client.get("/practice/signin")  # the browser's own signed id (suji.web.clients)
    for code in wrong[:-2]:
        assert client.post("/practice/signin", data={"code": code}).status_code == 400
        # the same wrong code again (typed differently) is no new guess: it does not bring the limit nearer
        assert client.post("/practice/signin", data={"code": code.lower()}).status_code == 400
    assert client.post("/practice/signin", data={"code": wrong[-2]}).status_code == 400
    assert rows(app, PracticeSigninFailure) == 2 * (store.SIGNIN_FAILURES - 1) + 1
    assert client.post("/practice/signin", data={"code": wrong[-1]}).status_code == 429
    # another browser at the same address (a school's NAT) still signs in
    other = app.test_client()
    other.get("/practice/signin")
    assert other.post("/practice/signin", data={"code": wrong[-1]}).status_code == 400
    with app.app_context():
        for row in db.session.scalars(select(PracticeSigninFailure)):
            row.created_at -= store.SIGNIN_WINDOW + timedelta(seconds=1)
        db.session.commit()
    assert client.post("/practice/signin", data={"code": wrong[-1]}).status_code == 400


def test_the_download_holds_everything_and_delete_removes_the_rows(app, client):
    for _ in range(3):
        answer(client, next_problem(client))
    pid = profile_id(app, client)
    download = client.get("/practice/my-data.json")
    assert "attachment" in download.headers["Content-Disposition"]
    data = json.loads(download.data)
    assert len(data["answers"]) == 3 and data["profile"]["answered"] == 3 and data["retention_days"] == 365
    assert "public_id" not in json.dumps(data) and all(a["formula"] for a in data["answers"])
    assert rows(app, PracticeAnswer, profile_id=pid) == 3
    assert client.get("/practice/delete").status_code == 200
    assert client.post("/practice/delete").status_code == 303
    assert rows(app, PracticeAnswer, profile_id=pid) == 0 and rows(app, PracticeProfile, id=pid) == 0
    assert client.get_cookie(store.COOKIE) is None  # and the cookie is gone
    assert rows(app, PracticeItemStat) >= 1  # what answers taught about items names nobody and stays
    assert json.loads(client.get("/practice/my-data.json").data)["profile"] is None
    answer(client, next_problem(client))  # a fresh start is a new profile, under an id never used before
    assert rows(app, PracticeProfile) == 1 and profile_id(app, client) > pid


def test_profiles_are_purged_after_the_retention_period(app, client):
    answer(client, next_problem(client))
    old, new = app.test_client(), app.test_client()
    answer(old, next_problem(old))
    with app.app_context():
        row = db.session.get(PracticeProfile, profile_id(app, old))
        row.last_seen_at = utcnow() - timedelta(days=366)
        db.session.commit()
    answer(new, next_problem(new))  # a new profile: the expired ones go
    assert rows(app, PracticeProfile) == 2 and profile_id(app, old) is None
    with app.app_context():
        assert store.purge_expired(utcnow() + timedelta(days=400)) == 2


def test_time_weighs_only_when_the_setting_says(app, client, monkeypatch):
    app.config["SUJI_PRACTICE_TIME_LIMIT"] = 60
    # Both pupils start alike and draw the same chance to aim at, so they get the same item (or one within the
    # selection's tie of it): the difference in their gains is the time's, not the items'.
    monkeypatch.setattr("suji.web.practice.store.secrets.randbits", lambda bits: 12345)
    slow, quick = app.test_client(), app.test_client()
    answer(slow, next_problem(slow), seconds=45.0)
    answer(quick, next_problem(quick), seconds=5.0)
    ratings = [c.get("/api/practice/progress").get_json()["learner"]["rating"] for c in (slow, quick)]
    assert 0 < ratings[0] < ratings[1]


# ---- one answer, one transaction ----


def test_the_same_answer_sent_at_once_from_many_tabs_counts_once(app, client):
    problem = next_problem(client)
    cookie = client.get_cookie(store.COOKIE).value
    tabs = []
    for _ in range(6):
        tab = app.test_client()
        tab.set_cookie(store.COOKIE, cookie)
        tabs.append(tab)
    barrier = threading.Barrier(len(tabs))
    statuses: list[int] = []

    def send(tab) -> None:
        barrier.wait()
        statuses.append(answer(tab, problem)[0])

    threads = [threading.Thread(target=send, args=(t,)) for t in tabs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(statuses) == [200] + [409] * 5
    assert rows(app, PracticeAnswer) == 1
    assert client.get("/api/practice/progress").get_json()["learner"]["answered"] == 1


def test_one_pupil_answering_on_two_devices_at_the_same_moment_loses_nothing(app, client):
    client.post("/practice/code")
    code = re.search(
        r'id="signin-code">([A-Z0-9-]+)<', client.get("/practice/me").get_data(as_text=True)
    ).group(1)
    devices = [client]
    for _ in range(3):
        other = app.test_client()
        other.post("/practice/signin", data={"code": code})
        devices.append(other)
    rounds = 4

    def send(device, problem, barrier, statuses) -> None:
        barrier.wait()
        statuses.append(answer(device, problem)[0])

    for _ in range(rounds):
        problems = [next_problem(d) for d in devices]
        barrier = threading.Barrier(len(devices))
        statuses: list[int] = []
        threads = [
            threading.Thread(target=send, args=(d, p, barrier, statuses))
            for d, p in zip(devices, problems, strict=True)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert statuses == [200] * len(devices)
    total = rounds * len(devices)
    learner = client.get("/api/practice/progress").get_json()["learner"]
    assert learner["answered"] == total and len(learner["history"]) == total
    with app.app_context():
        profile = db.session.get(PracticeProfile, profile_id(app, client))
        assert store.learner_of(profile).rating.plays == total and profile.answered == total


def test_pupils_answering_the_same_item_at_once_all_count_for_it(app):
    pupils = [app.test_client() for _ in range(6)]
    problems = [next_problem(p) for p in pupils]
    # Every pupil gets the first one's item as a mistake to try again would: the same item for all.
    item = load().get(item_key(roll_of(problems[0]), problems[0]["goal_score"]))
    with app.app_context():
        pendings = [
            store.Pending(item.key, f"same-{i}", store.epoch(utcnow()), 0.5) for i in range(len(pupils))
        ]
    holders = []
    for p in pupils:
        cookie = p.get_cookie(store.COOKIE).value
        with app.test_request_context(headers={"Cookie": f"{store.COOKIE}={cookie}"}):
            holders.append(store.read_holder())
    barrier = threading.Barrier(len(pupils))
    errors: list[BaseException] = []

    def send(holder, pending) -> None:
        from suji.web.practice import answers

        try:
            with app.app_context():
                barrier.wait()
                answers.record(holder, pending, item.witness_formula, 0, 10.0)
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=send, args=pair) for pair in zip(holders, pendings, strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    with app.app_context():
        stat = db.session.get(PracticeItemStat, item.key)
        assert (stat.plays, stat.made) == (len(pupils), len(pupils))


def test_after_a_goal_made_the_result_shows_the_best_answer_only_when_it_scores_more(app, client):
    """The route's witness (what the model expects the pupil to manage) is the answer shown after a miss; after a
    goal made, a pupil who scored 40 was shown a 4-point "way to do it". Now the page names the solver's best
    when it scores more, or says theirs scores as much as any answer can; digits lined up are told to score 0."""
    from suji.rules.scoring import check
    from suji.solver.search import solve

    client.set_cookie("suji_lang", "en")
    seen = set()
    for _ in range(4):
        play = client.get("/practice/").get_data(as_text=True)
        problem_id = re.search(r'name="id" value="([^"]+)"', play).group(1)
        problem = next_problem(client)
        roll, formula = roll_of(problem), witness(problem)
        done = client.post("/practice/answer", data={"id": problem_id, "formula": formula})
        page = client.get(done.headers["Location"]).get_data(as_text=True)
        mine, top = check(formula, roll), solve(roll).top
        assert "The most points" in page and "One way to do it" not in page
        if top.score > mine.score:
            assert f"An answer with more points: {top.formula} = {top.target} ({top.score} points)" in page
            seen.add("higher")
        else:
            assert f"Your answer scores as much as any answer can: {mine.score} points." in page
            seen.add("matched")
        assert ('id="digits-only"' in page) == (mine.operator_points == 0)
    assert seen  # at least one of the two kinds was met

"""Hostile input (issue 12): no route answers 500, the command line never prints a traceback, formulas fuzzed in
bulk keep their exact values, the worst known requests are refused or capped, and a killed writer leaves a
sound database.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from examples import EXAMPLE_ROLL_ARGS
from grammar_reference import to_sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from suji_reference import reference_value, same_value

from suji.rules.dice import OPERATOR_FACES, random_roll
from suji.rules.scoring import check

# ---- every route, generated requests ---------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=12), inner, max_size=6),
    max_leaves=20,
)
FIELD_NAMES = st.sampled_from(
    ["formula", "target", "target_dice", "number_dice", "operator_dice", "level", "prefix", "rerolled",
     "set_faces", "lang", "n", "seed", "step", "answer", "nickname", "next", "targets", "count", "face", "die",
     "dice", "players", "moves", "csrf_token", "x"]
)  # fmt: skip
PATH_TEXT = st.text(
    st.characters(blacklist_characters="/?#%", blacklist_categories=("Cs",)), min_size=1, max_size=20
)


def _rules():
    from suji.web import create_app

    app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "x"})
    return [r for r in app.url_map.iter_rules() if r.endpoint != "static"]


RULES = _rules()


def _argument(converter) -> st.SearchStrategy:
    name = type(converter).__name__
    if name == "IntegerConverter":
        return st.integers(0, 2**70) | st.sampled_from([0, 1, 2, 3, 2**63, 2**63 - 1, 10**30])
    return PATH_TEXT | st.sampled_from(
        ["suji", "nine-am", "dice-monsters", "silence", "gooball", "matches", "reach"]
    )


@pytest.mark.slow  # every route × 12 generated requests (13 s): the quick tier leaves it to the full run
@pytest.mark.parametrize("rule", RULES, ids=lambda r: f"{sorted(r.methods - {'HEAD', 'OPTIONS'})}{r.rule}")
@settings(max_examples=12, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_no_route_answers_500(client, rule, data):
    """Generated path arguments, query strings, JSON bodies and form fields, on every route of the URL map."""
    values = {name: data.draw(_argument(conv)) for name, conv in rule._converters.items()}
    try:
        path = rule.build(values, append_unknown=False)[1]
    except Exception:  # noqa: BLE001 - a value the converter itself refuses: nothing to request
        return
    query = data.draw(st.dictionaries(FIELD_NAMES, st.text(max_size=12), max_size=3))
    for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
        if method == "GET":
            response = client.get(path, query_string=query)
        elif data.draw(st.booleans()):
            body = data.draw(st.dictionaries(FIELD_NAMES, JSON_VALUES, max_size=6) | JSON_VALUES)
            response = client.open(path, method=method, json=body)
        else:
            form = data.draw(st.dictionaries(FIELD_NAMES, st.text(max_size=40), max_size=6))
            response = client.open(path, method=method, data=form)
        assert response.status_code < 500, (method, path, response.status_code)


@pytest.mark.parametrize(
    "target", ["/%0D/evil.example", "/\t/evil.example", "/\r/evil.example", "//evil.example", "/\\evil.example",
               "https://evil.example/", "/ /evil.example", "/\u3000/x"],
)  # fmt: skip
def test_the_language_switch_never_leaves_the_site(client, target):
    from urllib.parse import unquote, urlsplit

    # As decoded from the form: a control character, a space or a backslash sends the student home.
    response = client.post("/language", data={"lang": "en", "next": unquote(target)})
    assert response.status_code == 303 and response.headers["Location"] == "/"
    # Left percent-encoded, the target is a path on this site or the home page, never another host.
    location = client.post("/language", data={"lang": "en", "next": target}).headers["Location"]
    assert not urlsplit(location).netloc and not location.startswith("//")


def test_the_language_switch_keeps_a_real_page(client):
    response = client.post("/language", data={"lang": "ja", "next": "/lessons/suji?x=1"})
    assert response.headers["Location"] == "/lessons/suji?x=1"


@pytest.mark.parametrize(
    "suffix", ["", "/advice", "/value", "/answer", "/reroll", "/set", "/giveup", "/next"]
)
def test_game_ids_beyond_64_bits_are_not_found(client, suffix):
    path = f"/games/9223372036854775808{suffix}"
    response = client.get(path) if suffix in ("", "/advice") else client.post(path, data={})
    assert response.status_code == 404


@pytest.mark.parametrize("level", [2.0, "2", True, [2], None])
def test_levels_must_be_whole_numbers(client, level):
    body = {"target_dice": [4, 4, 6], "number_dice": [2, 1, 4, 1, 3], "operator_dice": ["+", "+", "²", "−"]}
    for path in ("/api/hint", "/api/solve"):
        response = client.post(path, json={**body, "level": level})
        if level is None and path == "/api/solve":
            assert response.status_code == 200
            continue
        assert response.status_code == 400 and response.get_json()["error"]["message"]


# ---- the worst requests the attack found: each refused or capped ----------------------------------------------


@pytest.mark.parametrize(
    "path",
    ["/lessons/dice-monsters/experiment/matches?n=10000&seed=123", "/lessons/nine-am/experiment/ties?n=5000",
     "/lessons/dice-monsters/designer?dice=20+20+4+4+2&n=2000", "/lessons/gooball/experiment/turns?n=20000",
     "/lessons/nine-am/experiment/strategies?n=5000", "/lessons/suji/experiment/advice?n=1000"],
)  # fmt: skip
def test_the_slowest_lesson_requests_are_refused_with_the_limit(client, path):
    response = client.get(path, headers={"Accept-Language": "en"})
    assert response.status_code == 400 and "whole number from 1 to" in response.get_data(as_text=True)


def test_every_experiment_is_capped_by_its_measured_cost():
    """Each cap is the experiment's own (no simulation may take the global 100,000 when a trial is slow)."""
    from suji.lessons import dice_monsters, gooball, nine_am, silence, suji_stats

    caps = {(m.LESSON.slug, e.key): e.max_trials for m in (nine_am, dice_monsters, silence, gooball, suji_stats)
            for e in m.LESSON.experiments}  # fmt: skip
    assert caps[("dice-monsters", "matches")] <= 60 and caps[("nine-am", "ties")] <= 700
    assert caps[("suji", "advice")] <= 50 and caps[("gooball", "turns")] <= 6000


@pytest.mark.parametrize(
    "dice",
    [{"target_dice": [1, 2, 3, 4], "number_dice": [9, 1, 2, 3, 4], "operator_dice": ["+", "√", "√", "−"]},
     {"target": 12, "number_dice": [9, 3], "operator_dice": ["+"]},
     {"target": 7, "number_dice": [4, 9, 1], "operator_dice": ["√", "√", "+"]}],
)  # fmt: skip
def test_custom_rolls_that_need_every_formula_listed_are_refused(client, dice):
    for path in ("/api/solve", "/api/hint"):
        response = client.post(path, json=dice, headers={"Accept-Language": "ja"})
        assert response.status_code == 400 and response.get_json()["error"]["code"] == "slow_roll"


# ---- the command line ------------------------------------------------------------------------------------------

ROLL = EXAMPLE_ROLL_ARGS


def run_suji(*args: str | bytes, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "suji", *args], input=stdin, capture_output=True, timeout=120,
        env={**os.environ, "SUJI_LANG": "en"},
    )  # fmt: skip


@pytest.mark.parametrize(
    "args",
    [["check", b"21\xc2\xb2+\xff", *ROLL], ["hint", *ROLL, "--prefix", b"\xff"], ["roll", "--seed", b"\xff"],
     ["solve", "--batch", "/nonexistent/rolls.jsonl"], ["solve", "--batch", "/"],
     ["worksheet", "-o", "/missing/dir/x.json"], ["worksheet", "-o", "/tmp"],
     ["serve", "--port", "-1"], ["serve", "--port", "99999"], ["serve", "--host", "999.1.1.1"],
     ["serve", "--threads", "0"], ["loadtest", "--threads", "0"], ["odds", "build", "--workers", "0"]],
    ids=lambda a: " ".join(x if isinstance(x, str) else repr(x) for x in a),
)  # fmt: skip
@pytest.mark.slow
def test_bad_command_lines_get_one_line_and_exit_2(args):
    result = run_suji(*args)
    err = result.stderr.decode("utf-8", "replace")
    assert result.returncode == 2, err
    assert "Traceback" not in err and err.strip() and "\n" not in err.strip().splitlines()[-1]
    assert result.stdout == b""


@pytest.mark.slow
def test_a_batch_reports_bad_lines_and_goes_on(tmp_path):
    good = json.dumps({"target_dice": [1, 2, 3], "number_dice": [1, 2, 3], "operator_dice": ["+"]})
    lines = [good.encode(), b"\xff\xfe not utf-8", b"[" * 100_000, b'{"number_dice": [1]}', good.encode()]
    batch = tmp_path / "rolls.jsonl"
    batch.write_bytes(b"\n".join(lines) + b"\n")
    result = run_suji("solve", "--batch", str(batch))
    assert result.returncode == 1 and b"Traceback" not in result.stderr
    answers = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert len(answers) == 5
    assert [a.get("line") for a in answers] == [None, 2, 3, 4, None]
    assert answers[0] == answers[4] and "best" in answers[0]


# ---- formulas fuzzed in bulk --------------------------------------------------------------------------------

FUZZ_FORMULAS = 10_000


@pytest.mark.slow
def test_fuzzed_formulas_never_raise_and_keep_their_exact_value():
    """A seeded slice of the 100,000-formula fuzz: random tokens on random rolls through check()."""
    rng = random.Random("issue-12-fuzz")
    alphabet = [*"123456789", *OPERATOR_FACES, "x", "/", "^2", "sqrt", "(", " ", "0", "=", "９"]
    valid = 0
    for _ in range(FUZZ_FORMULAS):
        roll = random_roll(rng.random())
        if rng.random() < 0.7:  # the roll's own dice in a random order: often a formula, often not
            faces = [str(f) for f in (*roll.number_dice, *roll.operator_dice)]
            text = "".join(rng.sample(faces, rng.randint(1, len(faces))))
        else:
            text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 14)))
        result = check(text, roll)
        if result.valid:
            valid += 1
            faces = tuple(d.face for d in result.dice)
            assert same_value(to_sympy(result.exact), reference_value(faces)), text
    assert valid > FUZZ_FORMULAS // 20  # the fuzz reaches valid formulas too, not only errors


# ---- a writer killed in the middle -----------------------------------------------------------------------------

WRITER = """
import sys
from suji.web import create_app
app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "k"})
client = app.test_client()
print("ready", flush=True)
while True:
    client.post("/games/solo", data={"targets": "3"})
"""


@pytest.mark.slow
def test_a_writer_killed_mid_write_leaves_a_sound_database(tmp_path):
    instance = tmp_path / "instance"
    env = {**os.environ, "SUJI_INSTANCE_PATH": str(instance)}
    writer = subprocess.Popen([sys.executable, "-c", WRITER], env=env, stdout=subprocess.PIPE)
    try:
        assert writer.stdout.readline().strip() == b"ready"
        database = instance / "suji.sqlite3"
        for _ in range(3000):  # until some games are written (the bound only keeps a broken run from hanging)
            if database.exists():
                with sqlite3.connect(database) as db:
                    try:
                        if db.execute("select count(*) from games").fetchone()[0] >= 20:
                            break
                    except sqlite3.OperationalError:
                        pass
            time.sleep(0.1)
        writer.send_signal(signal.SIGKILL)
    finally:
        writer.kill()
        writer.wait()
    with sqlite3.connect(database) as db:
        assert db.execute("pragma integrity_check").fetchone()[0] == "ok"
        written = db.execute("select count(*) from games").fetchone()[0]
    assert written >= 20
    from suji.web import create_app

    app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "k",
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}"})  # fmt: skip
    client = app.test_client()
    assert client.post("/games/solo", data={"targets": "3"}).status_code == 303  # and it takes new games


# ---- shutdown ------------------------------------------------------------------------------------------------


def _children(pid: int) -> set[int]:
    found = set()
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as f:
            found.update(int(p) for p in f.read().split())
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.slow
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL])
def test_stopping_the_server_stops_its_solver_processes(tmp_path, monkeypatch, how):
    from suji.dev import loadtest

    if not os.path.exists("/proc/self/task"):
        pytest.skip("needs /proc")
    monkeypatch.setenv("SUJI_ODDS_PATH", str(tmp_path / "none.suji"))  # no table: advice uses the pool
    monkeypatch.setenv("SUJI_INSTANCE_PATH", str(tmp_path / "instance"))
    # The pool's first answer (workers started, the solver imported) may take longer than the page's wait of 1.5 s;
    # this test needs the workers to exist, not the wait to be short.
    monkeypatch.setenv("SUJI_ADVICE_WAIT", "30")
    port = loadtest.free_port()
    server = loadtest.start_server(port, 4)
    try:
        client = loadtest.Client(port)
        body = json.dumps({"target_dice": [4, 4, 6], "number_dice": [2, 1, 4, 1, 3],
                           "operator_dice": ["+", "+", "^2", "-"]}).encode()  # fmt: skip
        assert client.check(body, "/api/advise")
        children = _children(server.pid)
        assert children  # the solver's pool (and the resource tracker) run beside the server
        server.send_signal(how)
        server.wait(timeout=60)
        # A worker watches its parent once a second; the bound only keeps a broken run from hanging forever.
        for _ in range(1200):
            if not any(_alive(pid) for pid in children):
                break
            time.sleep(0.1)
        assert not any(_alive(pid) for pid in children)
    finally:
        server.kill()
        server.wait()


# Every form that carries a `next` (where to go afterwards), with where it goes when `next` is refused, and the
# form's other fields. A CR or LF in `next` gave a 500 on the nickname form (the Location header refused it).
NEXT_FORMS = [
    ("/language", "/", {"lang": "en"}),
    ("/furigana", "/", {"grade": "3"}),
    ("/games/nickname", "/games/", {"nickname": "Aki"}),
    ("/teacher/login", None, {"email": "nobody@example.org", "password": "wrong password 1"}),
]
BAD_NEXTS = ["/games/\r\nSet-Cookie: x=1", "/games/\n", "/games/\r", "\r\n/games/", "/games/\t", "/games/\x00",
             "/games/\x7f", "/games/\u2028", "//evil.example/", "/games//\\evil.example", "https://evil.example/",
             "/\\evil.example", "/games/ /x", "/games/\u3000", "games/", "", "/" * 3000]  # fmt: skip


@pytest.mark.parametrize("path, fallback, fields", NEXT_FORMS)
@pytest.mark.parametrize("target", BAD_NEXTS)
def test_every_next_field_refuses_control_characters_and_other_hosts(client, path, fallback, fields, target):
    from urllib.parse import urlsplit

    response = client.post(path, data={**fields, "next": target})
    assert response.status_code < 500, (path, repr(target), response.status_code)
    location = response.headers.get("Location", "")
    assert not any(ch in location for ch in "\r\n\t\x00\\") and not urlsplit(location).netloc
    assert not location.startswith("//")
    if fallback is not None:
        assert response.status_code == 303 and location == fallback, (path, repr(target), location)


@pytest.mark.parametrize("path, kept, fields", [
    ("/language", "/lessons/suji?x=1", {"lang": "ja"}),
    ("/furigana", "/drill/?level=2", {"grade": "3"}),
    ("/games/nickname", "/games/daily", {"nickname": "Aki"}),
])  # fmt: skip
def test_every_next_field_keeps_a_real_page(client, path, kept, fields):
    response = client.post(path, data={**fields, "next": kept})
    assert response.status_code == 303 and response.headers["Location"] == kept


def test_the_nickname_form_goes_back_only_within_the_games(client):
    response = client.post("/games/nickname", data={"nickname": "Aki", "next": "/teacher/"})
    assert response.headers["Location"] == "/games/"


def test_safe_next_itself():
    from suji.web.redirects import safe_next

    assert safe_next("/games/daily", within="/games/") == "/games/daily"
    assert safe_next("/games/\r\n", within="/games/") == "/games/"
    assert safe_next(None) == "/" and safe_next(["/x"]) == "/"  # type: ignore[arg-type]
    assert safe_next("/a?b=%0D%0A") == "/a?b=%0D%0A"  # percent-encoded, it is a harmless query

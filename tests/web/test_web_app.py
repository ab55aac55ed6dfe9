"""The app object's cheap paths (suji.web.App, JsonProvider, CsrfProtect): each gives what Flask's own would."""

from __future__ import annotations

import json

import pytest
from flask import Blueprint, Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from suji.web import App, JsonProvider
from suji.web.signing import CsrfProtect


def flask_outcome(call):  # noqa: ANN001, ANN201 - what a call to ensure_sync gives: the function, or the refusal
    try:
        return "gives", call()
    except RuntimeError as refused:  # Flask without its async extra refuses a coroutine function
        return "refuses", str(refused)


def test_plain_functions_and_methods_are_used_as_they_are(app):
    def view() -> str:
        return "ok"

    class Hooks:
        def after(self, response):  # noqa: ANN001, ANN202
            return response

    method = Hooks().after
    assert isinstance(app, App)
    assert app.ensure_sync(view) is view
    assert app.ensure_sync(method) is method
    assert Flask.ensure_sync(app, view) is view  # as Flask itself decides


def test_a_coroutine_function_goes_to_flask(app):
    async def view() -> str:
        return "ok"

    ours, flasks = flask_outcome(lambda: app.ensure_sync(view)), flask_outcome(lambda: Flask.ensure_sync(app, view))
    assert ours[0] == flasks[0]
    if ours[0] == "refuses":
        assert ours[1] == flasks[1]
    else:  # wrapped to run synchronously, not handed back as a coroutine function
        assert ours[1] is not view


def test_a_function_marked_as_a_coroutine_function_goes_to_flask(app, monkeypatch):
    def view() -> str:
        return "ok"

    view._is_coroutine_marker = object()  # what inspect.markcoroutinefunction sets (Python 3.12 on)
    asked = []
    monkeypatch.setattr(Flask, "ensure_sync", lambda self, func: asked.append(func) or func)
    app.ensure_sync(view)
    assert asked == [view]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20,
)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=json_values)
def test_json_answers_are_written_as_json_dumps_writes_them(app, value):
    compact = app.json.dumps(value, separators=(",", ":"))
    expected = json.dumps(value, ensure_ascii=False, sort_keys=False, separators=(",", ":"))
    assert compact == expected
    assert app.json.dumps(value) == json.dumps(value, ensure_ascii=False, sort_keys=False)


def test_a_json_answer_keeps_its_text_and_key_order(app):
    assert isinstance(app.json, JsonProvider)
    with app.test_request_context("/"):
        body = app.json.response({"z": "21²", "a": "√"}).get_data(as_text=True)
    assert body == '{"z":"21²","a":"√"}\n'
    app.json.ensure_ascii = True  # a provider set otherwise takes Flask's own way, with the new setting
    assert app.json.dumps({"z": "²"}, separators=(",", ":")) == '{"z":"\\u00b2"}'


@pytest.fixture
def protected():
    """A small app with suji's CSRF protection: an exempt view, an exempt blueprint and a protected view."""
    app = Flask("csrf-rules")
    app.secret_key = "test"
    protect = CsrfProtect(app)

    @app.post("/open")
    @protect.exempt
    def open_view() -> str:
        return "ok"

    @app.post("/shut")
    def shut_view() -> str:
        return "ok"

    free = Blueprint("free", __name__)

    @free.post("/free")
    def free_view() -> str:
        return "ok"

    protect.exempt(free)
    app.register_blueprint(free)
    return app.test_client()


def test_exempt_views_and_blueprints_go_unchecked_and_the_rest_are_checked(protected):
    assert protected.post("/open").status_code == 200
    assert protected.post("/free").status_code == 200
    assert protected.post("/shut").status_code == 400
    assert protected.post("/nowhere").status_code == 404

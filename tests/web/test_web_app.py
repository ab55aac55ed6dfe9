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


# ---- the request body (suji.web.signing.Request.stream) ------------------------------------------------------


def body_app() -> Flask:
    """An app with suji's Request that echoes the body it read, as werkzeug's request would read it."""
    from suji.web.signing import Request

    echo = Flask("body-echo")
    echo.request_class = Request
    echo.config["MAX_CONTENT_LENGTH"] = 64

    @echo.post("/")
    def read():  # noqa: ANN202
        from flask import request

        return {"ours": request.get_data(as_text=True), "form": dict(request.form)}

    return echo


def environ_for(body: bytes, length: str | None, terminated: bool = False) -> dict:
    import io

    from werkzeug.test import EnvironBuilder

    environ = EnvironBuilder(path="/", method="POST", data=body, content_type="application/json").get_environ()
    environ["wsgi.input"] = io.BytesIO(body)
    if length is None:
        environ.pop("CONTENT_LENGTH", None)
    else:
        environ["CONTENT_LENGTH"] = length
    if terminated:
        environ["wsgi.input_terminated"] = True
    return environ


def answer(app: Flask, environ: dict) -> tuple[int, bytes]:
    status = []
    body = b"".join(app.wsgi_app(environ, lambda s, h, e=None: status.append(int(s.split()[0]))))
    return status[0], body


@pytest.mark.parametrize(
    ("body", "length", "terminated"),
    [
        (b'{"formula": "1+2"}', "18", False),  # the usual case: read at once
        (b'{"formula": "1+2"}', "18", True),  # waitress says its input ends where the body does
        (b'{"formula": "1+2"}', "5", False),  # a Content-Length shorter than what follows: that many bytes
        (b'{"formula": "1+2"}', None, True),  # no length (chunked): werkzeug reads to the end, within the limit
        (b'{"formula": "1+2"}', None, False),  # no length and no end: werkzeug reads nothing
        (b"", "0", False),
    ],
)
def test_a_body_reads_as_werkzeug_reads_it(body, length, terminated):
    from werkzeug.wrappers import Request as WerkzeugRequest

    app = body_app()
    status, text = answer(app, environ_for(body, length, terminated))
    expected = WerkzeugRequest(environ_for(body, length, terminated))
    expected.max_content_length = 64
    assert status == 200
    assert json.loads(text)["ours"] == expected.get_data(as_text=True)


def test_a_body_longer_than_the_limit_is_413_and_a_short_one_400():
    app = body_app()
    assert answer(app, environ_for(b"x" * 65, "65"))[0] == 413
    # The client promised more than it sent (a server that does not buffer the body): refused, not a 500.
    assert answer(app, environ_for(b'{"a": 1}', "30"))[0] == 400


def test_a_form_body_is_still_parsed():
    import io

    from werkzeug.test import EnvironBuilder

    environ = EnvironBuilder(path="/", method="POST", data={"a": "1"}).get_environ()
    body = environ["wsgi.input"].read()
    environ["wsgi.input"] = io.BytesIO(body)
    status, text = answer(body_app(), environ)
    assert status == 200
    assert json.loads(text)["form"] == {"a": "1"}


@pytest.mark.parametrize(
    ("length", "transfer_encoding"),
    [
        ("18", None),
        (None, None),
        ("18", "chunked"),  # a streamed body: no length, whatever Content-Length says
        ("18", "gzip, chunked"),
        ("18", "gzip"),
        ("-3", None),  # not a length: 0, as werkzeug says
        ("x1", None),
        (" 7 ", None),
        ("١٢", None),  # digits werkzeug does not take
    ],
)
def test_the_content_length_is_werkzeugs(length, transfer_encoding):
    from werkzeug.wrappers import Request as WerkzeugRequest

    from suji.web.signing import Request

    environ = environ_for(b'{"formula": "1+2"}', length)
    if transfer_encoding is not None:
        environ["HTTP_TRANSFER_ENCODING"] = transfer_encoding
    assert Request(dict(environ)).content_length == WerkzeugRequest(dict(environ)).content_length

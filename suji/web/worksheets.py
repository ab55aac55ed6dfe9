"""Worksheet pages: the settings form, the print view, the PDF and the JSON of a sheet.

Everything a sheet needs is in its URL (a GET query string), so a teacher can bookmark or share it: the same URL
always gives the same dice. A URL without a seed is sent on to the same URL with a new one. Bad settings show
the form again with the messages (status 400), except for the JSON, which answers like the API:
{"error": {"code": "bad_settings", "message", "fields"}} in the page's language.

A seed the server picked is marked in the URL of the form and of the print view (new_seed=1): the form then shows
it beside the links but leaves its seed box empty, so that pressing "Make" again gives new dice, while a seed the
teacher typed stays in the box. The mark changes nothing on the sheet; the seed still names it.
"""

from __future__ import annotations

import re
from dataclasses import replace

from flask import Blueprint, Response, g, jsonify, redirect, render_template, request, url_for

from suji.core.caching import LruDict
from suji.core.i18n import sentences
from suji.solver.problems import new_seed
from suji.web.errors import error_response
from suji.web.furigana import grade_for_print, teacher_page
from suji.web.i18n import select_locale
from suji.web.slots import heavy
from suji.worksheets.html import worksheet_html
from suji.worksheets.sheet import (
    MAX_SEED_LENGTH,
    MAX_TITLE_LENGTH,
    MAX_VERSIONS,
    MIN_VERSIONS,
    PAPERS,
    Settings,
    SettingsError,
    build_worksheet,
    count_range,
    parse_settings,
)

bp = Blueprint("worksheets", __name__, url_prefix="/worksheets")

# The query parameters a sheet's URL may carry; anything else is ignored.
FIELDS = ("count", "level", "seed", "lang", "paper", "versions", "targets", "title", "name", "key", "steps",
          "score", "furigana")  # fmt: skip
NEW_SEED = "new_seed"  # the mark of a seed the server picked (see the module docstring)
# The problems of all versions of one sheet from the web: each is solved (about 13 ms at level 3) and drawn, and
# 30 keep the dearest request (a level-3 PDF with the working in its key) under 1 s of CPU on the 2-core
# development machine (README, `suji bench --only heavy`). The command line makes larger sets.
MAX_PROBLEMS = 30


def _read() -> tuple[Settings, list[SettingsError]]:
    params = {name: request.args[name] for name in FIELDS if name in request.args}
    # A sheet's furigana starts from the reader's own choice (the switch's cookie), else 4年.
    params.setdefault("furigana", str(grade_for_print()))
    return parse_settings(params, default_lang=select_locale(), max_total=MAX_PROBLEMS)


def _seed_was_picked() -> bool:
    return request.args.get(NEW_SEED) == "1"


def _with_seed(endpoint: str, settings: Settings, mark: bool = False) -> Response:
    """Redirect to `endpoint` with the settings and a new seed, so the URL names exactly this sheet; `mark` adds
    the new-seed mark (for the form and the print view, whose "Change the settings" leads back to the form)."""
    # Only the seed is picked here: the sheet is made once, by the request the redirect leads to (which may
    # land on another server process, whose cache this one could not warm).
    query = replace(settings, seed=new_seed()).query() | ({NEW_SEED: "1"} if mark else {})
    return redirect(url_for(endpoint, **query), code=302)


def _form(settings: Settings, errors: list[SettingsError], status: int = 200) -> tuple[str, int]:
    lang = select_locale()
    picked = _seed_was_picked()
    query = settings.query()
    return render_template(
        "worksheets/index.html",
        s=settings,
        errors=[(e.field, e.message(lang)) for e in errors],
        error_fields={e.field for e in errors},
        ready=bool(request.args) and not errors,
        limits={
            # The web's own cap on problems in all (the form offers no count it would refuse).
            "count": count_range(MAX_PROBLEMS), "versions": (MIN_VERSIONS, MAX_VERSIONS),
            "seed": MAX_SEED_LENGTH, "title": MAX_TITLE_LENGTH,
        },
        papers=PAPERS,
        query=query,
        # A picked seed stays out of the box (Make again: new dice); "keep" puts it there, as if typed.
        seed_value="" if picked else request.args.get("seed", settings.seed),
        seed_picked=picked,
        print_query=query | ({NEW_SEED: "1"} if picked else {}),
    ), status  # fmt: skip


@bp.get("/")
@teacher_page
def index() -> tuple[str, int] | Response:
    """The settings form; once submitted, also the links to the print view and the PDF of that sheet."""
    settings, errors = _read()
    if errors:
        return _form(settings, errors, 400)
    if request.args and not settings.seed:
        return _with_seed("worksheets.index", settings, mark=True)
    return _form(settings, [])


@bp.get("/print")
@heavy
def print_view() -> tuple[str, int] | Response:
    """The sheet as a printable page: one sheet of paper per version, then the answer key."""
    settings, errors = _read()
    if errors:
        return _form(settings, errors, 400)
    if not settings.seed:
        return _with_seed("worksheets.print_view", settings, mark=True)
    worksheet = build_worksheet(settings)
    g.suji_furigana_done = True  # the sheet carries its own grade's ruby (suji.worksheets.html)
    query = settings.query()
    form_query = query | ({NEW_SEED: "1"} if _seed_was_picked() else {})
    html = worksheet_html(
        worksheet,
        stylesheet_href=url_for("static", filename="worksheets.css"),
        script_href=url_for("static", filename="worksheets.js"),
        icon_href=url_for("static", filename="favicon.svg"),
        toolbar={
            "settings": url_for("worksheets.index", **form_query),
            "pdf": url_for("worksheets.pdf", **query),
        },
    )
    return Response(html, mimetype="text/html")


@bp.get("/sheet.pdf")
@heavy
def pdf() -> tuple[str, int] | Response:
    """The sheet as a PDF download (ReportLab)."""
    from suji.worksheets.pdf import worksheet_pdf  # ReportLab is imported only when a PDF is asked for

    settings, errors = _read()
    if errors:
        return _form(settings, errors, 400)
    if not settings.seed:
        return _with_seed("worksheets.pdf", settings)
    data = worksheet_pdf(build_worksheet(settings))
    response = Response(data, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'attachment; filename="{download_name(settings, "pdf")}"'
    return response


@bp.get("/sheet.json")
@heavy
def json() -> tuple[str, int] | Response:
    """The sheet as JSON: for each version and problem the dice and the key (as `suji worksheet --format json`)."""
    settings, errors = _read()
    if errors:
        return _json_error(errors)
    if not settings.seed:
        return _with_seed("worksheets.json", settings)
    return jsonify(build_worksheet(settings).to_dict())


def _json_error(errors: list[SettingsError]) -> Response:
    """Status 400 and the API's error body: every message in one text, and the fields they are about."""
    lang = select_locale()
    body = {
        "code": "bad_settings",
        "message": sentences(lang, *(e.message(lang) for e in errors)),
        "fields": [e.field for e in errors],
    }
    return error_response(body, 400)


def download_name(settings: Settings, ext: str) -> str:
    """A safe file name for a sheet: suji-worksheet-L<level>-<seed>.<ext>, the seed reduced to [A-Za-z0-9_-]."""
    seed = re.sub(r"[^A-Za-z0-9_-]+", "-", settings.seed).strip("-")[:40] or "sheet"
    return f"suji-worksheet-L{settings.level}-{seed}.{ext}"


# ---- printable dice ------------------------------------------------------------------------------------------


def _dice_choice(name: str, allowed: tuple[str, ...], default: str) -> str | None:
    value = request.args.get(name, default)
    return value if value in allowed else None


@bp.get("/dice")
@teacher_page
def dice() -> tuple[str, int]:
    """Printable dice: the nets of one player's twelve dice, the rules on a page and a score sheet (PDF)."""
    lang = _dice_choice("lang", ("ja", "en"), select_locale())
    paper = _dice_choice("paper", PAPERS, "a4")
    status = 200 if lang and paper else 400
    return render_template(
        "worksheets/dice.html", lang=lang or select_locale(), paper=paper or "a4", papers=PAPERS,
        bad=status == 400,
    ), status  # fmt: skip


@bp.get("/dice.pdf")
def dice_pdf() -> tuple[str, int] | Response:
    """The dice nets as a PDF download (suji.worksheets.dice_nets, as `suji dice-nets`)."""
    from suji.worksheets.dice_nets import dice_nets_pdf  # ReportLab only when a PDF is asked for

    lang = _dice_choice("lang", ("ja", "en"), select_locale())
    paper = _dice_choice("paper", PAPERS, "a4")
    if not lang or not paper:
        return dice()
    response = Response(_dice_nets(lang, paper, dice_nets_pdf), mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'attachment; filename="suji-dice-{lang}-{paper}.pdf"'
    return response


_NETS: LruDict[tuple[str, str], bytes] = LruDict("dice_nets_pdf")


def _dice_nets(lang: str, paper: str, make) -> bytes:  # noqa: ANN001 - dice_nets_pdf
    """The PDF of each (language, paper), made once: there are only four."""
    found = _NETS.get((lang, paper))
    if found is None:
        found = make(lang, paper)
        _NETS.put((lang, paper), found)
    return found

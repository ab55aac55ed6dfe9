"""The teacher's sign-in cards: a PDF with one card a pupil (the class, the name, the code, a QR code).

POST /teacher/classes/<id>/cards.pdf (which=new: the pupils without a card yet; which=all: new cards for
everyone, once the teacher said yes on the page that asks, sure=yes) and POST /teacher/classes/<id>/pupils/<pupil>/card.pdf (one pupil's new card, a lost one say). Only
a code's hash is stored, so a card cannot be printed twice: printing makes new codes, and the old cards stop
working (a device signed in with one is signed out). The PDF is suji.worksheets.signin_card's, in the
teacher's language; the QR code opens /signin#CODE, whose code never reaches the server's logs.
"""

from __future__ import annotations

from flask import flash, make_response, redirect, render_template, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response

from suji.web.accounts.models import Teacher
from suji.web.classes import signin, store
from suji.web.classes.access import bp, class_required, pupil_in
from suji.web.classes.models import ClassPupil, SchoolClass
from suji.web.classes.views import CLASS_PAGE, STALE, lang
from suji.web.links import attachment


def _pdf(cls: SchoolClass, made: list[tuple[ClassPupil, str]], name: str) -> Response:
    from suji.worksheets.signin_card import (  # ReportLab only when a PDF is asked for
        ClassCard,
        class_cards_pdf,
    )

    base = url_for("pupils.signin", _external=True)
    cards = [ClassCard(cls.name, p.name, p.number, code, f"{base}#{code.replace('-', '')}") for p, code in made]
    paper = "letter" if request.form.get("paper") == "letter" else "a4"
    response = make_response(class_cards_pdf(cards, lang(), paper))
    response.headers["Content-Type"] = "application/pdf"
    response.headers["Content-Disposition"] = attachment(name)
    return response


@bp.post("/teacher/classes/<class_id>/cards.pdf")
@class_required
def cards(teacher: Teacher, cls: SchoolClass) -> Response:
    """New cards for the pupils without one (which=new) or for everyone (which=all), as one PDF."""
    pupils = store.pupils_of(cls)
    if request.form.get("which") != "all":
        pupils = [p for p in pupils if p.signin_hash is None]
    elif request.form.get("sure") != "yes" and pupils:
        # Every card and every signed-in device of the class ends with this one press: the page asks first.
        return make_response(render_template("classes/cards_confirm.html", teacher=teacher, cls=cls, count=len(pupils)))
    if not pupils:
        flash(gettext("Every pupil has a card already. To replace them all, print new cards for everyone."), "info")
        return redirect(url_for("classes.show", class_id=cls.public_id) + "#cards", code=303)
    try:
        made = signin.make_cards(pupils)
    except signin.Conflict:
        flash(str(STALE), "error")
        return redirect(url_for("classes.show", class_id=cls.public_id) + "#cards", code=303)
    return _pdf(cls, made, f"suji-cards-{cls.name}-{cls.school_year}.pdf")


@bp.post("/teacher/classes/<class_id>/pupils/<pupil_id>/card.pdf")
@class_required
def pupil_card(teacher: Teacher, cls: SchoolClass, pupil_id: str) -> Response:
    """A new card for one pupil (their old one stops working)."""
    pupil = pupil_in(cls, pupil_id)
    try:
        made = signin.make_cards([pupil])
    except signin.Conflict:
        flash(str(STALE), "error")
        return redirect(url_for("classes.edit_pupil", class_id=cls.public_id, pupil_id=pupil.public_id), code=303)
    return _pdf(cls, made, f"suji-card-{cls.name}-{pupil.name}.pdf")


def cards_part(cls: SchoolClass) -> tuple[str, dict]:
    """The class page's panel of sign-in cards."""
    pupils = store.pupils_of(cls)
    return "classes/_cards.html", {"with_card": sum(1 for p in pupils if p.signin_hash), "pupil_count": len(pupils),
                                   "signin_url": url_for("pupils.signin", _external=True)}  # fmt: skip


if cards_part not in CLASS_PAGE:
    CLASS_PAGE.append(cards_part)

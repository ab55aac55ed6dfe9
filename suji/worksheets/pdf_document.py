"""The canvas every PDF of the project starts on: embedded fonts only, and metadata that says what the file is.

Data flows: (page size, title, language, subject, creation time) → a ReportLab Canvas that the worksheets, the
printable dice and the sign-in card draw on → its bytes.

- Fonts: the canvas's first font is the embedded Latin font (suji.worksheets.fonts), so no PDF names Helvetica
  unless the font files are missing.
- Metadata: the title and subject in the document's language, the app as author and creator, the language in the
  catalog (/Lang, which screen readers and text-to-speech read), and the viewer shows the title, not the file
  name. The creation date is the time the file was made: `created` if given, else SOURCE_DATE_EPOCH (the
  reproducible-builds convention: a fixed time gives the very same bytes), else now, to the second, in UTC.
- Same content, same ID: ReportLab's invariant mode keeps the random file ID and its own fixed date out; the date
  is written by our formatter instead.
- Tagging: ReportLab's open-source toolkit writes /Lang, the document information and viewer preferences, but has
  no API for a structure tree (no StructTreeRoot, no marked content with MCIDs), so the PDFs are not tagged; the
  web pages carry the same content accessibly (worksheet print view, the dice page).
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from typing import BinaryIO

from reportlab.pdfgen.canvas import Canvas

import suji
from suji.core.i18n import N_, translate
from suji.worksheets.fonts import latin_font

APP_NAME = N_("Sūji de Asobo")


def creation_time(created: datetime | None = None) -> datetime:
    """When a PDF is made: `created`, else SOURCE_DATE_EPOCH when set, else now (UTC, whole seconds)."""
    if created is not None:
        return created.astimezone(UTC) if created.tzinfo else created.replace(tzinfo=UTC)
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch.isdecimal():
        return datetime.fromtimestamp(int(epoch), UTC)
    return datetime.now(UTC).replace(microsecond=0)


def pdf_date(moment: datetime) -> str:
    """A PDF date string (ISO 32000 7.9.4) for a UTC time: D:YYYYMMDDHHmmSS+00'00'."""
    return f"D:{moment.astimezone(UTC):%Y%m%d%H%M%S}+00'00'"


def new_canvas(
    out: BinaryIO,
    pagesize: tuple[float, float],
    *,
    title: str,
    lang: str,
    subject: str = "",
    created: datetime | None = None,
) -> Canvas:
    """A canvas writing to `out` with the project's fonts and metadata (see the module's docstring)."""
    c = Canvas(out, pagesize=pagesize, pageCompression=1, invariant=1, lang=lang, initialFontName=latin_font())
    app = translate(APP_NAME, lang)
    c.setTitle(title)
    c.setAuthor(f"{app} (suji)")
    c.setCreator(f"suji {suji.__version__}")
    c.setSubject(subject or title)
    date = pdf_date(creation_time(created))
    c.setDateFormatter(lambda *_: date)
    c.setViewerPreference("DisplayDocTitle", "true")
    return c

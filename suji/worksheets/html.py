"""The print-ready HTML of a worksheet (templates/worksheets/print.html), for the web app and `suji worksheet`.

Rendered with plain Jinja and the gettext catalogs (no Flask), so the command line writes the very page the
web app serves. Each version is laid out page by page as `Version.pages()` shares it out, like the PDF: every
page a sheet of paper of its own that names the version, its problem boxes sharing the page's height (CSS). On the web the stylesheet and script are linked (the site's CSP forbids inline ones); a file
written by the command line carries its stylesheet inside, so it prints on its own.
"""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape

from suji.core.caching import bounded
from suji.core.furigana import annotate_html
from suji.core.i18n import translations
from suji.core.resources import resource_dir
from suji.worksheets.sheet import Worksheet, form_parts, sheet_texts

STYLESHEET = Path(__file__).resolve().parent.parent / "web" / "static" / "worksheets.css"


@bounded("sheet_environment")
def _environment(lang: str) -> Environment:
    env = Environment(
        loader=FileSystemLoader(str(resource_dir("templates"))),
        autoescape=select_autoescape(["html"]),
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.install_gettext_translations(translations(lang), newstyle=True)  # type: ignore[attr-defined]
    return env


def worksheet_html(
    worksheet: Worksheet,
    stylesheet_href: str | None = None,
    script_href: str | None = None,
    toolbar: dict[str, str] | None = None,
    icon_href: str | None = None,
) -> str:
    """The print view of `worksheet` in its own language.

    With `stylesheet_href` the page links its stylesheet, else it carries it inline. `toolbar` (links
    "settings" and "pdf") adds a screen-only bar with a print button; it never reaches the paper. A Japanese
    sheet has ruby on the kanji above its `furigana` grade (suji.core.furigana).
    """
    lang = worksheet.settings.lang
    template = _environment(lang).get_template("worksheets/print.html")
    page = template.render(
        ws=worksheet,
        s=worksheet.settings,
        t=sheet_texts(lang),
        lang=lang,
        inline_css=None if stylesheet_href else STYLESHEET.read_text(encoding="utf-8"),
        stylesheet_href=stylesheet_href,
        script_href=script_href,
        toolbar=toolbar,
        icon_href=icon_href,
        form=form_parts,
    )
    # A Japanese sheet carries ruby above its grade (the key, for the teacher, is marked to keep none).
    return annotate_html(page, worksheet.settings.furigana) if lang == "ja" else page

"""Translated messages for the library and the command line (gettext catalogs in translations/).

The web app uses Flask-Babel over the same catalogs; this module serves code that must not import Flask.
Message texts are English msgids marked with `N_` where they are defined and translated when shown.
"""

from __future__ import annotations

from functools import cache

from babel.support import NullTranslations, Translations

from suji.resources import resource_dir

LANGUAGES = ("ja", "en")
DEFAULT_LANGUAGE = "ja"


def N_(message: str) -> str:  # noqa: N802 - the gettext convention for "mark for extraction only"
    """Mark `message` for extraction without translating it yet."""
    return message


@cache
def translations(lang: str) -> NullTranslations:
    """The compiled catalog for `lang` (English msgids fall through untranslated)."""
    if lang not in LANGUAGES:
        lang = DEFAULT_LANGUAGE
    return Translations.load(str(resource_dir("translations")), [lang], domain="messages")


def translate(message: str, lang: str, /, **params: object) -> str:
    """Translate `message` into `lang` and fill in its ``{placeholders}``."""
    text = translations(lang).gettext(message)
    return text.format(**params) if params else text

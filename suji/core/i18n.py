"""Translated messages for the library and the command line (gettext catalogs in translations/).

The web app uses Flask-Babel over the same catalogs; this module serves code that must not import Flask.
Message texts are English msgids marked with `N_` where they are defined and translated when shown.
"""

from __future__ import annotations

from functools import cache

from babel.support import NullTranslations, Translations

from suji.core.resources import resource_dir

LANGUAGES = ("ja", "en")
DEFAULT_LANGUAGE = "ja"


def N_(message: str) -> str:  # noqa: N802 - the gettext convention for "mark for extraction only"
    """Mark `message` for extraction without translating it yet."""
    return message


def NP_(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802 - like N_, for a singular/plural pair
    """Mark a singular/plural pair for extraction (an ngettext entry); translate it with `translate_plural`."""
    return (singular, plural)


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


def translate_plural(singular: str, plural: str, n: int, lang: str, /, **params: object) -> str:
    """Translate the form of `singular`/`plural` that fits the count `n` and fill in its ``{placeholders}``.

    The catalog's plural rule picks the form (English: one or other; Japanese has a single form).
    ``{n}`` is filled with `n` unless `params` give it.
    """
    text = translations(lang).ngettext(singular, plural, n)
    return text.format(**{"n": n, **params})

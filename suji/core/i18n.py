"""Translated messages for the library and the command line (gettext catalogs in translations/).

The web app uses Flask-Babel over the same catalogs; this module serves code that must not import Flask.
Message texts are English msgids marked with `N_` where they are defined and translated when shown.

One placeholder style everywhere, the one gettext and Jinja's `_()` use: ``%(name)s``, and a literal percent sign
written ``%%``. Every message is formatted when it is translated, with or without parameters, so a msgid reads
the same in Python, in a template and in the catalogs (pybabel checks a translation keeps its placeholders).
"""

from __future__ import annotations

from babel.support import NullTranslations, Translations

from suji.core.caching import bounded
from suji.core.resources import resource_dir

LANGUAGES = ("ja", "en")
DEFAULT_LANGUAGE = "ja"


def N_(message: str) -> str:  # noqa: N802 - the gettext convention for "mark for extraction only"
    """Mark `message` for extraction without translating it yet."""
    return message


def NP_(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802 - like N_, for a singular/plural pair
    """Mark a singular/plural pair for extraction (an ngettext entry); translate it with `translate_plural`."""
    return (singular, plural)


@bounded("translations")
def translations(lang: str) -> NullTranslations:
    """The compiled catalog for `lang` (English msgids fall through untranslated)."""
    if lang not in LANGUAGES:
        lang = DEFAULT_LANGUAGE
    return Translations.load(str(resource_dir("translations")), [lang], domain="messages")


def template(message: str, lang: str, /) -> str:
    """The translation of `message` with its ``%(placeholders)s`` still to fill (with `fill`), for printing code
    that fills the same text many times (a page number on every page)."""
    return translations(lang).gettext(message)


def fill(text: str, /, **params: object) -> str:
    """Fill the ``%(placeholders)s`` of a translated text (``%%`` becomes %)."""
    return text % params


def translate(message: str, lang: str, /, **params: object) -> str:
    """Translate `message` into `lang` and fill in its ``%(placeholders)s``."""
    return fill(translations(lang).gettext(message), **params)


def translate_plural(singular: str, plural: str, n: int, lang: str, /, **params: object) -> str:
    """Translate the form of `singular`/`plural` that fits the count `n` and fill in its ``%(placeholders)s``.

    The catalog's plural rule picks the form (English: one or other; Japanese has a single form).
    ``%(n)s`` is filled with `n` unless `params` give it.
    """
    return fill(translations(lang).ngettext(singular, plural, n), **{"n": n, **params})


def bracketed(text: str, lang: str) -> str:
    """A remark after a word, in the language's own brackets: "1 (you)", 「1（あなた）」 (full-width, no space)."""
    return f"（{text}）" if lang == "ja" else f" ({text})"


def sentence_gap(lang: str) -> str:
    """What goes between two sentences: a space in English, nothing in Japanese (。 ends each)."""
    return "" if lang == "ja" else " "


def sentences(lang: str, *texts: str) -> str:
    """Sentences one after another, with the language's gap between them (`sentence_gap`)."""
    return sentence_gap(lang).join(texts)


def labelled(label: str, text: str, lang: str) -> str:
    """A label and what it labels: "Haruto: ✓", 「はると：✓」 (a full-width colon, no space)."""
    return f"{label}：{text}" if lang == "ja" else f"{label}: {text}"

"""Maintain the gettext catalogs in translations/: extract, update, compile (pybabel, wrapped).

    suji i18n extract   # scan suji/ and templates/ into translations/messages.pot
    suji i18n update    # merge the .pot into translations/{ja,en}/LC_MESSAGES/messages.po
    suji i18n compile   # write the .mo files the app and the CLI read
Run all three after adding or changing a message, then translate the new entries in the ja catalog.
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.frontend import CommandLineInterface

from suji.core.i18n import LANGUAGES
from suji.core.resources import resource_dir

KEYWORDS = [
    "N_",
    "NP_:1,2",
    "_",
    "gettext",
    "lazy_gettext",
    "ngettext:1,2",
    "lazy_ngettext:1,2",
    "pgettext:1c,2",
]


def _pybabel(*args: str) -> None:
    CommandLineInterface().run(["pybabel", "-q", *args])


def extract(output: str | Path | None = None) -> Path:
    """Scan the source and templates for messages into messages.pot (or into `output`, e.g. for a test)."""
    root = resource_dir("translations").parent
    pot = Path(output) if output is not None else resource_dir("translations") / "messages.pot"
    keywords = [arg for k in KEYWORDS for arg in ("-k", k)]
    _pybabel(
        "extract", "-F", str(root / "babel.cfg"), "--no-location", "--sort-output", "--omit-header",
        *keywords, "-o", str(pot), str(root / "suji"), str(root / "templates"),
    )  # fmt: skip
    return pot


def update() -> None:
    """Merge messages.pot into each language's catalog (creating it if missing)."""
    folder = resource_dir("translations")
    pot = folder / "messages.pot"
    for lang in LANGUAGES:
        po = folder / lang / "LC_MESSAGES" / "messages.po"
        if po.exists():
            _pybabel(
                "update",
                "-i",
                str(pot),
                "-d",
                str(folder),
                "-l",
                lang,
                "--no-fuzzy-matching",
                "--ignore-obsolete",
                "--no-wrap",  # the catalogs keep one line a message (as `fill` writes them): small diffs, easy merges
            )
        else:
            _pybabel("init", "-i", str(pot), "-d", str(folder), "-l", lang)


def compile_catalogs() -> None:
    """Compile every .po into the .mo read at run time."""
    _pybabel("compile", "-d", str(resource_dir("translations")), "--use-fuzzy")


def catalog_path(lang: str) -> Path:
    """The .po file of one language."""
    return resource_dir("translations") / lang / "LC_MESSAGES" / "messages.po"


def untranslated(lang: str = "ja") -> list[str]:
    """The msgids of `lang`'s catalog that have no translation (or only a fuzzy one)."""
    from babel.messages.pofile import read_po

    with catalog_path(lang).open("rb") as f:
        catalog = read_po(f, locale=lang)
    missing = []
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy or not all(strings):
            missing.append(message.id if isinstance(message.id, str) else message.id[0])
    return missing


def fill(json_path: str | Path, lang: str = "ja") -> list[str]:
    """Set translations from a JSON object {msgid: translation} (plural ids: the singular id as key).

    Returns the msgids still untranslated afterwards. Translators keep such a file while they work; applying it
    again is harmless.
    """
    import json

    from babel.messages.pofile import read_po, write_po

    table = json.loads(Path(json_path).read_text(encoding="utf-8"))
    path = catalog_path(lang)
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang)
    for message in catalog:
        if not message.id:
            continue
        key = message.id if isinstance(message.id, str) else message.id[0]
        if key in table:
            value = table[key]
            if isinstance(message.id, str):
                message.string = value
            else:
                message.string = tuple(
                    value if isinstance(value, str) else v for v in (value,) * len(message.id)
                )
            message.flags.discard("fuzzy")
    with path.open("wb") as f:
        write_po(f, catalog, width=0)
    return untranslated(lang)

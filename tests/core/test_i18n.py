"""suji.core.i18n and the catalogs in translations/: complete Japanese, nothing missing, .mo files up to date.

These tests only read the repository's catalogs; extraction and compilation go to temporary files.
"""

from __future__ import annotations

import io
import re
import string

import pytest
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

from suji import cli
from suji.core.i18n import LANGUAGES, translate, translations
from suji.core.resources import resource_dir
from suji.dev import catalogs
from suji.rules.dice import DiceError
from suji.rules.language import errors as formula

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def load_po(lang: str):
    with catalogs.catalog_path(lang).open("rb") as f:
        return read_po(f, locale=lang)


def msgid(message) -> str:
    return message.id if isinstance(message.id, str) else message.id[0]


def table(catalog) -> dict:
    """msgid → translation(s), the part of a catalog that gettext reads."""
    # Plural messages have tuple ids and lists of strings: make both hashable and comparable.
    return {
        (tuple(message.id) if isinstance(message.id, list) else message.id): (
            tuple(message.string) if isinstance(message.string, list | tuple) else message.string
        )
        for message in catalog
        if message.id
    }


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


@pytest.fixture(scope="module")
def extracted(tmp_path_factory):
    """The messages the source and templates use now, extracted into a temporary .pot."""
    pot = tmp_path_factory.mktemp("catalog") / "messages.pot"
    catalogs.extract(pot)
    with pot.open("rb") as f:
        return {msgid(m) for m in read_po(f) if m.id}


def test_every_message_has_a_japanese_translation():
    missing = catalogs.untranslated("ja")
    assert missing == [], f"{len(missing)} messages have no Japanese translation: {missing}"


def test_every_message_used_in_the_code_is_in_the_catalogs(extracted):
    for lang in LANGUAGES:
        in_catalog = {msgid(m) for m in load_po(lang) if m.id}
        missing = sorted(extracted - in_catalog)
        assert missing == [], (
            f"run suji i18n extract && suji i18n update; not in the {lang} catalog: {missing}"
        )


def test_extraction_finds_the_engine_and_cli_messages(extracted):
    used = {
        *formula.MESSAGES.values(),
        formula.COLUMN_MESSAGE,
        *cli.CHECK_TEXT.values(),
        *cli.ROLL_TEXT.values(),
        *DiceError.MESSAGES.values(),
    }
    assert used <= extracted, sorted(used - extracted)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_compiled_mo_files_match_the_po_files(lang, tmp_path):
    po = load_po(lang)
    compiled = tmp_path / "messages.mo"
    with compiled.open("wb") as f:
        write_mo(f, po, use_fuzzy=True)  # as `suji i18n compile` does
    with compiled.open("rb") as f:
        expected = table(read_mo(f))
    committed_path = resource_dir("translations") / lang / "LC_MESSAGES" / "messages.mo"
    with committed_path.open("rb") as f:
        committed = table(read_mo(f))
    stale = sorted(k if isinstance(k, str) else k[0] for k in expected.keys() ^ committed.keys())
    changed = sorted(str(k) for k in expected.keys() & committed.keys() if expected[k] != committed[k])
    assert (stale, changed) == ([], []), "run suji i18n compile"


def test_japanese_translations_keep_the_placeholders():
    wrong = []
    for message in load_po("ja"):
        if not message.id or not message.string:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            if text and placeholders(text) != placeholders(ids[0]):
                wrong.append((ids[0], text))
    assert wrong == []


def test_translate_fills_placeholders_in_each_language():
    english = translate(formula.MESSAGES["too_long"], "en", limit=200)
    japanese = translate(formula.MESSAGES["too_long"], "ja", limit=200)
    assert english == "The formula is too long: at most 200 characters."
    assert "200" in japanese and JAPANESE.search(japanese)
    assert translate(formula.MESSAGES["empty"], "en") == "Write a formula."


def test_unknown_language_falls_back_to_japanese():
    assert translations("fr").gettext(formula.MESSAGES["empty"]) == translations("ja").gettext(
        formula.MESSAGES["empty"]
    )
    assert JAPANESE.search(translate(formula.MESSAGES["empty"], "fr"))


def test_stored_japanese_sample_is_natural_text():
    # a few messages a pupil sees first, translated (not copied) and not left as English
    for message in (
        formula.MESSAGES["adjacent_operators"],
        cli.CHECK_TEXT["score"],
        cli.ROLL_TEXT["numbers"],
    ):
        text = translate(message, "ja", token="+", score=3, dice="1 2")
        assert JAPANESE.search(text) and text != message % {"token": "+", "score": 3, "dice": "1 2"}


def test_catalog_files_parse_without_errors():
    for lang in LANGUAGES:
        data = catalogs.catalog_path(lang).read_bytes()
        read_po(io.BytesIO(data), locale=lang, abort_invalid=True)


def test_japanese_says_furinaosu_one_way():
    """Re-rolling is ふりなおす everywhere (not 振り直す, not ふり直す): one register for pupils."""
    from pathlib import Path

    catalog = Path(__file__).resolve().parents[2] / "translations" / "ja" / "LC_MESSAGES" / "messages.po"
    text = catalog.read_text(encoding="utf-8")
    assert "振り直" not in text and "ふり直" not in text and "ふりなお" in text


def test_japanese_sentences_and_lists_use_japanese_punctuation():
    """No ASCII space between Japanese sentences, no ASCII comma in a Japanese list."""
    import re
    from pathlib import Path

    catalog = Path(__file__).resolve().parents[2] / "translations" / "ja" / "LC_MESSAGES" / "messages.po"
    japanese = r"[\u3040-\u30ff\u4e00-\u9fff]"
    for line in catalog.read_text(encoding="utf-8").splitlines():
        if not line.startswith("msgstr"):
            continue
        assert not re.search(r"[。！？] \S", line), line
        assert not re.search(japanese + r", ?" + japanese, line), line


def test_one_placeholder_style_and_no_lone_percent_sign():
    """Every message is a %-format, in Python as in Jinja's _(): placeholders are %(name)s, a literal % is %%.

    A lone % in a translation (「%」) or a leftover {name} would break the text or show the braces; a
    translation must keep exactly the placeholders of its msgid.
    """
    from pathlib import Path

    from babel.messages.pofile import read_po

    placeholder = re.compile(r"%\((\w+)\)s")
    for lang in LANGUAGES:
        root = Path(__file__).resolve().parents[2] / "translations" / lang / "LC_MESSAGES" / "messages.po"
        with open(root, "rb") as f:
            catalog = read_po(f)
        for message in catalog:
            if not message.id:
                continue
            ids = [message.id] if isinstance(message.id, str) else list(message.id)
            texts = [message.string] if isinstance(message.string, str) else list(message.string)
            for text in [*ids, *texts]:
                assert not re.search(r"\{\w+\}", text), ("a {name} placeholder", text)
                assert not re.search(r"%(?![%(])", placeholder.sub("", text).replace("%%", "")), (
                    "lone %",
                    text,
                )
            wanted = set(placeholder.findall(ids[-1])) | set(placeholder.findall(ids[0]))
            for text in texts:
                if text:
                    assert set(placeholder.findall(text)) <= wanted | {"n"}, (message.id, text)


def test_remarks_and_labels_use_each_languages_punctuation():
    from suji.core.i18n import bracketed, labelled

    assert "1" + bracketed("you", "en") == "1 (you)" and "1" + bracketed("あなた", "ja") == "1（あなた）"
    assert labelled("Haruto", "✓", "en") == "Haruto: ✓" and labelled("はると", "✓", "ja") == "はると：✓"


def test_sentences_follow_each_other_with_the_languages_gap():
    from suji.core.i18n import sentence_gap, sentences

    assert sentences("en", "One.", "Two.") == "One. Two."
    assert sentences("ja", "一つ。", "二つ。") == "一つ。二つ。"
    assert sentences("en", "Alone.") == "Alone." and sentence_gap("ja") == ""

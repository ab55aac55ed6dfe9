"""Text a person types, read the one way every layer reads it: full-width digits, whole numbers, hidden characters.

A pupil on a Japanese keyboard types ３ as often as 3, so every reader of a number folds full-width digits first
(`FULL_WIDTH_DIGITS`, `whole_number`); a message that repeats what was typed shows invisible, control and broken
characters as U+XXXX (`shown`); a text that reaches print may hold only what the printed pages can draw
(`printable`: the sheet's PDF and the dice nets use the same fonts). No Flask and nothing above core here.
"""

from __future__ import annotations

import unicodedata

from suji.core.caching import bounded

# Full-width digits as a Japanese keyboard types them, to their ASCII forms.
FULL_WIDTH_DIGITS = str.maketrans("０１２３４５６７８９", "0123456789")


def whole_number(text: object, low: int, high: int, digits: int = 4, grouped: bool = False) -> int | None:
    """A whole number from `low` to `high` typed as at most `digits` digits (full-width too), else None.

    The one reader of a typed whole number (forms, dice, levels, counts, seeds). Only digits count: a sign, a
    decimal point, a space inside or any other script's digits make it None; `grouped` lets commas group the
    digits (10,000 or １０，０００) where a number can be large.
    """
    folded = str(text if text is not None else "").strip().translate(FULL_WIDTH_DIGITS)
    if grouped:
        folded = folded.replace(",", "").replace("，", "")
    if not folded.isascii() or not folded.isdigit() or len(folded) > digits:
        return None
    number = int(folded)
    return number if low <= number <= high else None


def hidden(char: str) -> bool:
    """Whether a character cannot be seen as itself: a control, format, unassigned or broken one, a space
    other than the plain one (U+3000, a no-break space), or a combining mark standing alone."""
    return char != " " and unicodedata.category(char)[0] in "CZM"


def shown(text: str, limit: int | None = None) -> str:
    """`text` (its first `limit` characters) as a message may repeat it: hidden characters as U+XXXX."""
    return "".join(f"U+{ord(c):04X}" if hidden(c) else c for c in (text if limit is None else text[:limit]))


def quoted_chars(chars: list[str], lang: str) -> str:
    """Characters for a message, each in quotes (「」 in Japanese), a hidden one as its code point."""
    marks = ("「", "」") if lang == "ja" else ("“", "”")
    return ("" if lang == "ja" else ", ").join(f"{marks[0]}{shown(c)}{marks[1]}" for c in chars)


def clean_line(value: str) -> str | None:
    """One line of free text (a title, a seed): NFC-normalised, outer spaces off; None when it holds control
    characters (a newline, NUL …). An accent typed as a separate mark (e + ´) becomes one printable letter, and a
    thin, en or em space pasted from a word processor becomes a plain space."""
    text = unicodedata.normalize("NFC", value).strip()
    if any(unicodedata.category(c).startswith("C") for c in text):
        return None
    return "".join(" " if unicodedata.category(c) == "Zs" and not printable(c) else c for c in text)


# The printed pages' Japanese font is IPAGothic, embedded (suji.worksheets.fonts), or without its file the CID
# font HeiseiKakuGo-W5 (Adobe-Japan1 through the UniJIS-UCS2-H CMap): what a teacher types must print with
# either. Both have Windows Japanese (cp932) but for a few characters IPAGothic lacks, and these beyond it: the
# long vowels of romanised Japanese ("Sūji") and a few symbols teachers like. tests/worksheets/test_worksheets.py
# checks them against the CMap when poppler-data is installed and against ipag.ttf when fonts-ipafont-gothic is.
_JAPANESE_FONT_EXTRAS = frozenset("ĀāĒēĪīŌōŪūǍǎǐǑǒǔ‼⁉↔⇦⇧⇨⇩▶▷◀◁☀☁☂☃☎♠♡♢♣♤♥♦♧♨♩♬❶❷❸❹❺❻❼❽❾⅓⅔")
_NOT_IN_IPAGOTHIC = frozenset("∑")  # in cp932 and the CMap, not in ipag.ttf (IPAfont 00303)
_SYMBOL_FONT_CHARS = frozenset("−√")  # in Liberation Sans, and in Symbol where it is missing (not in cp1252)


def _encodes(char: str, codec: str) -> bool:
    try:
        char.encode(codec)
    except UnicodeEncodeError:
        return False
    return True


@bounded("pdf_can_print")
def printable(char: str) -> bool:
    """Whether the printed pages' fonts can draw `char`: the Latin font (cp1252, − √) or the Japanese font.

    The Japanese font is IPAGothic or, where its file is missing, the CID font that viewers draw with their own
    Adobe-Japan1 font through a 2-byte CMap. cp932 (every character of Japanese Windows) is, but for ∑, in both;
    emoji, hangul or simplified Chinese are in neither. The answer does not depend on the machine: a URL that
    makes a sheet on one server makes it on every other.
    """
    if len(char) != 1 or unicodedata.category(char).startswith("C"):
        return False
    return (
        _encodes(char, "cp1252")
        or char in _SYMBOL_FONT_CHARS
        or char in _JAPANESE_FONT_EXTRAS
        or (_encodes(char, "cp932") and char not in _NOT_IN_IPAGOTHIC)
    )


def unprintable_chars(text: str) -> list[str]:
    """The distinct characters of `text` the printed pages cannot draw, in order of appearance."""
    return list(dict.fromkeys(c for c in text if not printable(c)))

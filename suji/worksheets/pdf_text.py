"""Text on a PDF page, laid out the one way both PDFs (the worksheet and the dice nets) lay it out.

    text + TextFonts (suji.worksheets.fonts: which font draws each character) ──wrap──▶ lines that fit a width
                                                               ──fit_size / fit_text──▶ the size that fits

Line breaks follow the two scripts' rules: Latin text breaks at spaces, and a word or a formula (8+2÷11,
21²+4+1) moves to the next line whole; Japanese has no spaces and may break between any two characters, but
never before a character a Japanese line does not start with (、。ー small kana …) nor after an opening bracket.
"""

from __future__ import annotations

import unicodedata

from suji.worksheets.fonts import TextFonts

NO_LINE_END = frozenset("「『（【〈《")  # opening brackets stay with what they open
NO_LINE_START = frozenset("、。，．・：；！？）」』】〉》ーぁぃぅぇぉっゃゅょァィゥェォッャュョ々…")


def _is_wide(char: str) -> bool:
    return unicodedata.east_asian_width(char) in ("W", "F")


def _carry_from(line: str, char: str) -> int:
    """Where to break `line` when `char` does not fit after it: the index of the first character carried over."""
    k = len(line)
    if not _is_wide(char) or char in NO_LINE_START:
        # A Latin word or a formula (8+2÷11, 21²+4+1) moves whole, and takes a 、 or 。 after it along.
        while k > 0 and line[k - 1] != " " and not _is_wide(line[k - 1]):
            k -= 1
        if char in NO_LINE_START and k == len(line):
            k -= 1  # the line ends in a Japanese character: it goes along with the 、 or 。
    while k > 0 and line[k - 1] in NO_LINE_END:
        k -= 1
    return k if k > 0 else len(line)


def wrap(fonts: TextFonts, text: str, size: float, width: float, bold: bool = False) -> list[str]:
    """Break `text` into lines no wider than `width` at `size` points (a word longer than a line is cut)."""
    lines: list[str] = []
    line = ""
    for char in text:
        trial = line + char
        if not line or fonts.width(trial, size, bold) <= width:
            line = trial
        elif char == " ":
            lines.append(line)
            line = ""
        else:
            k = _carry_from(line, char)
            lines.append(line[:k])
            line = line[k:].lstrip() + char
    if line:
        lines.append(line)
    return [ln.strip() for ln in lines]


def fit_size(
    fonts: TextFonts, text: str, size: float, min_size: float, width: float, bold: bool = False, step: float = 0.25
) -> float:
    """The largest size from `size` down to `min_size` (by `step`) at which `text` fits `width` on one line
    (else `min_size`)."""
    while size > min_size and fonts.width(text, size, bold) > width:
        size -= step
    return size


def fit_text(
    fonts: TextFonts, text: str, size: float, min_size: float, width: float, bold: bool = False
) -> tuple[float, list[str]]:
    """The largest size from `size` down to `min_size` (half points) at which `text` fits on one line of `width`;
    if none does, `text` wrapped at `min_size`. Returns the size and the lines."""
    trial = size
    while trial >= min_size:
        if fonts.width(text, trial, bold) <= width:
            return trial, [text]
        trial -= 0.5
    return min_size, wrap(fonts, text, min_size, width, bold)

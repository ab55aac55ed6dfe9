"""Furigana by school grade: which kanji a pupil has learnt, their readings, and ruby on the others.

Data flows text → words with readings → pieces marked for ruby → HTML (`ruby_html`, `annotate_html`) or
the PDFs' own drawing (`pieces`):

- the grade of a kanji comes from the 学年別漢字配当表 (kanji_grades.txt beside this module, extracted once from
  KANJIDIC2 by `suji i18n kanji-grades`); a kanji not taught in primary school counts as grade 7, above all;
- readings come from MeCab with UniDic (the `fugashi` and `unidic-lite` packages, no service): each word's
  reading is aligned with its written form so the okurigana stay outside the ruby (選ぶ → 選[えら]ぶ), and a
  small table (`READINGS`) corrects the few words of this app that the dictionary reads otherwise;
- a run of kanji that holds one above the chosen grade gets one ruby with the run's reading (得点[とくてん]),
  the way textbooks print a word a pupil has not learnt the kanji of. Every occurrence gets it on a screen
  (a pupil does not read a page from the top, and parts of it appear later); a sheet may print it once.

The setting is a grade 1–6, or 0 for none (`parse_grade`); pupil pages default to 4 (`PUPIL_DEFAULT`).
"""

from __future__ import annotations

import html
import re
import threading
from dataclasses import dataclass
from pathlib import Path

from suji.core.caching import bounded, computed_once

GRADES = (1, 2, 3, 4, 5, 6)
NONE = 0  # no furigana
PUPIL_DEFAULT = 4  # the pupil pages' grade until a reader chooses another
ABOVE_PRIMARY = 7  # the grade of a kanji not in the table: taught after primary school, or never
_GRADES_FILE = Path(__file__).with_name("kanji_grades.txt")
_KANJI = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff々〆]")
_KANJI_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff々〆]+")

# Words of this app that UniDic reads otherwise, written form → reading (hiragana). Checked by reading every
# word of the catalog (tests/core/test_furigana.py lists the words whose reading the tests pin).
READINGS: dict[str, str] = {
    "何も": "なにも",  # UniDic gives 何 one reading, なん: right before a counter (何点, 何回), not before a particle
    "何が": "なにが",
    "何を": "なにを",
    "何に": "なにに",
    "何か": "なにか",
    "空": "から",  # 空のまま, 空なら: the app's 空 is "empty", never "sky"
    "明日": "あした",  # a pupil says あした
    "日本語": "にほんご",
    "ひそひそ話": "ひそひそばなし",
}


def parse_grade(value: str | None, default: int) -> int:
    """The furigana grade a setting names ("0"/"none" → none, "1"…"6"), else `default`."""
    if value is None:
        return default
    value = value.strip().lower()
    if value in ("0", "none"):
        return NONE
    if value.isdigit() and int(value) in GRADES:
        return int(value)
    return default


@computed_once
def grade_table() -> dict[str, int]:
    """Kanji → the primary-school grade that teaches it (1–6)."""
    table: dict[str, int] = {}
    for line in _GRADES_FILE.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            grade, kanji = line.split("\t")
            table.update(dict.fromkeys(kanji, int(grade)))
    return table


def kanji_grade(character: str) -> int:
    """The grade that teaches `character` (1–6), 7 for another kanji, 0 for what is not a kanji."""
    if not _KANJI.fullmatch(character):
        return 0
    if character in "々〆":
        return 0  # the repeat mark takes the grade of the kanji before it (a run is judged as a whole)
    return grade_table().get(character, ABOVE_PRIMARY)


def needs_ruby(text: str, grade: int) -> bool:
    """Whether `text` holds a kanji above `grade` (never, with no furigana)."""
    return grade != NONE and any(kanji_grade(ch) > grade for ch in text)


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece of text and, for a run of kanji, its reading in hiragana (None for other text)."""

    text: str
    reading: str | None = None


_tagger = None
_tagger_lock = threading.Lock()


def _analyse(text: str) -> list[tuple[str, str | None]]:
    """MeCab's words of `text`: (written form, reading in katakana or None)."""
    global _tagger
    with _tagger_lock:  # one MeCab tagger per process, not safe to share between threads at once
        if _tagger is None:
            import fugashi

            _tagger = fugashi.Tagger()
        return [(word.surface, getattr(word.feature, "kana", None)) for word in _tagger(text)]


def _hiragana(text: str) -> str:
    return "".join(chr(ord(ch) - 0x60) if "ァ" <= ch <= "ヶ" else ch for ch in text)


def _align(surface: str, reading: str) -> list[Piece]:
    """Split a word into its kanji runs with their readings and the kana between them (選ぶ → 選[えら] ぶ)."""
    parts = re.split(f"({_KANJI_RUN.pattern})", surface)
    pattern = "".join("(.+?)" if _KANJI_RUN.fullmatch(p) else re.escape(_hiragana(p)) for p in parts if p)
    match = re.fullmatch(pattern, _hiragana(reading))
    if match is None:  # the reading does not follow the written kana: one ruby over the whole word
        return [Piece(surface, _hiragana(reading))]
    readings = iter(match.groups())
    return [Piece(p, next(readings)) if _KANJI_RUN.fullmatch(p) else Piece(p) for p in parts if p]


@bounded("furigana_pieces")
def pieces(text: str) -> tuple[Piece, ...]:
    """`text` as pieces, each run of kanji with its reading (None where no reading is known)."""
    if not _KANJI.search(text):
        return (Piece(text),)
    words = _analyse(text)
    result: list[Piece] = []
    i = 0
    while i < len(words):
        # A word of READINGS may span several of MeCab's words (お + 題): take the longest that starts here.
        for j in range(len(words), i, -1):
            joined = "".join(surface for surface, _ in words[i:j])
            if joined in READINGS:
                result.extend(_align(joined, READINGS[joined]))
                i = j
                break
        else:
            surface, reading = words[i]
            i += 1
            if not _KANJI.search(surface):
                result.append(Piece(surface))
            elif reading and reading != "*":
                result.extend(_align(surface, reading))
            else:
                result.append(Piece(surface))
    # MeCab drops white space; put the text back exactly as it was between the words.
    return tuple(_restore_spacing(text, result))


def _restore_spacing(text: str, found: list[Piece]) -> list[Piece]:
    out: list[Piece] = []
    position = 0
    for piece in found:
        start = text.find(piece.text, position)
        if start < 0:  # cannot happen for MeCab's own words; keep the text whole rather than lose any
            return [Piece(text)]
        if start > position:
            out.append(Piece(text[position:start]))
        out.append(piece)
        position = start + len(piece.text)
    if position < len(text):
        out.append(Piece(text[position:]))
    return out


def ruby_html(text: str, grade: int) -> str:
    """`text` as escaped HTML, with `<ruby>` on every run of kanji that holds one above `grade`."""
    if not needs_ruby(text, grade):
        return html.escape(text, quote=False)
    out = []
    for piece in pieces(text):
        if piece.reading and needs_ruby(piece.text, grade):
            out.append(
                f"<ruby>{html.escape(piece.text)}<rp>（</rp><rt>{html.escape(piece.reading)}</rt><rp>）</rp></ruby>"
            )
        else:
            out.append(html.escape(piece.text, quote=False))
    return "".join(out)


# Elements whose text cannot carry ruby (script, a select's options, the tab's title, charts drawn in SVG)
# or already does.
_SKIP = frozenset({"script", "style", "title", "textarea", "option", "select", "svg", "ruby", "rt", "rp",
                   "code", "pre", "template"})  # fmt: skip
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
                   "track", "wbr"})  # fmt: skip
_TOKEN = re.compile(r"<!--.*?-->|<![^>]*>|<[^>]*>", re.S)
_TAG = re.compile(r"<\s*(/?)\s*([a-zA-Z][\w:-]*)([^>]*)>", re.S)
_OTHER_LANG = re.compile(r"""\blang\s*=\s*["']?(?!ja)[a-z]""", re.I)
_NO_RUBY = re.compile(r"""\bdata-furigana\s*=\s*["']?no\b""", re.I)


def annotate_html(document: str, grade: int) -> str:
    """Put `<ruby>` on the kanji above `grade` in the text of an HTML page or fragment.

    Only text between tags changes: attributes, scripts, options, titles, SVG and anything marked
    `lang` other than ja or `data-furigana="no"` (a pupil's own name, whose reading nobody knows) stay as
    they are. The text is HTML-escaped already; it is unescaped to be read and escaped again.
    """
    if grade == NONE or not _KANJI.search(document):
        return document
    out: list[str] = []
    skip: list[tuple[str, int]] = []  # the element that started a skipped region, and how deep in it we are
    position = 0
    for token in _TOKEN.finditer(document):
        text = document[position : token.start()]
        if text:
            out.append(text if skip or not _KANJI.search(text) else _annotate_text(text, grade))
        out.append(token.group(0))
        position = token.end()
        tag = _TAG.fullmatch(token.group(0))
        if tag is None:
            continue
        closing, name, attributes = tag.group(1) == "/", tag.group(2).lower(), tag.group(3)
        if skip:
            outer, depth = skip[-1]
            if name == outer and not attributes.rstrip().endswith("/"):
                skip[-1] = (outer, depth - 1 if closing else depth + 1)
                if skip[-1][1] == 0:
                    skip.pop()
            continue
        if closing or name in _VOID or attributes.rstrip().endswith("/"):
            continue
        if name in _SKIP or _OTHER_LANG.search(attributes) or _NO_RUBY.search(attributes):
            skip.append((name, 1))
    tail = document[position:]
    out.append(tail if skip or not _KANJI.search(tail) else _annotate_text(tail, grade))
    return "".join(out)


def _annotate_text(escaped: str, grade: int) -> str:
    # Keep the white space around the text as it was (indentation of the template).
    lead = len(escaped) - len(escaped.lstrip())
    trail = len(escaped.rstrip())
    core = escaped[lead:trail]
    return escaped[:lead] + ruby_html(html.unescape(core), grade) + escaped[trail:]


_RUBY_ANNOTATION = re.compile(r"<rp>.*?</rp>|<rt>.*?</rt>|</?ruby>", re.S)


def strip_ruby(document: str) -> str:
    """`document` without the ruby `annotate_html` added: the text as written, for reading or searching."""
    return _RUBY_ANNOTATION.sub("", document)

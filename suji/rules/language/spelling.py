"""How each die face is written: the one spelling table of the formula language.

    SPELLINGS ──scanner()──▶ the pattern that splits a text into die faces (the reader's first step)
              ──grammar_terminals()──▶ the terminals of grammar/suji.lark (a test holds the file to this text)
              ──operator_face()──▶ a die named on the command line or in the API ("x10", "sqrt", "＾２")

A formula and a die name are read with the same spellings: whatever a pupil may type in a formula also names a
die, and the other way round. The faces themselves, as printed on the dice (+ − × ÷ ×10 ×11 ×12 ² √), are the
canonical names every other module uses. Digits are ASCII or full-width (suji.core.text folds them).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from suji.core.caching import computed_once
from suji.core.text import FULL_WIDTH_DIGITS

Face = int | str  # a number die's digit, or an operator face as printed

# Operator faces, printed as on the dice. These strings are the canonical names used everywhere.
PLUS, MINUS, TIMES, DIVIDE = "+", "−", "×", "÷"
TIMES10, TIMES11, TIMES12 = "×10", "×11", "×12"
SQUARE, ROOT = "²", "√"
OPERATOR_FACES: tuple[str, ...] = (PLUS, MINUS, TIMES, DIVIDE, TIMES10, TIMES11, TIMES12, SQUARE, ROOT)
CONSTANT_FACES = {TIMES10: 10, TIMES11: 11, TIMES12: 12}

# Spaces a formula may hold anywhere, and inside the spellings that are written in two parts (2 乗, ^ 2).
SPACE_CHARS = " \t\u3000"
_SPACE_CLASS = r"[ \t\u3000]"  # the same characters as a pattern (so the grammar file shows them escaped)
_GAP = _SPACE_CLASS + "*"


@dataclass(frozen=True)
class Spelling:
    """The ways to write one kind of die: exact symbols, words (any case), and patterns with a gap inside.

    `name` is the grammar's terminal; `face` the face it reads as (None for DIGIT: the digit itself).
    `priority` orders terminals that can start alike (2乗 before the digit 2, **2 before *).
    """

    name: str
    face: str | None
    symbols: tuple[str, ...] = ()
    words: tuple[str, ...] = ()
    patterns: tuple[str, ...] = ()
    priority: int = 0

    def regex(self) -> str:
        """One regular expression for every spelling: the longest alternatives first, words in any case."""
        parts = [re.escape(s) for s in sorted(self.symbols, key=len, reverse=True)]
        words = sorted(self.words, key=len, reverse=True)
        if words:
            parts.append("(?i:" + "|".join(re.escape(w) for w in words) + ")")
        return "|".join([*parts[: len(self.symbols)], *self.patterns, *parts[len(self.symbols) :]])


SPELLINGS: tuple[Spelling, ...] = (
    # ², 2乗 (the 2 belongs to the square die, so ２１２乗 is 21 squared), ^2 and **2, also as a Japanese keyboard
    # types them in full width (＾２, ＊＊２), and the words sq and square (never the start of sqrt).
    Spelling(
        "SQUARE", SQUARE, ("²",), (),
        (f"[2２]{_GAP}乗", f"[\\^＾]{_GAP}[2２]", f"(?:\\*\\*|＊＊){_GAP}[2２]", "(?i:sq(?!rt)(?:uare)?)"), 3,
    ),
    Spelling("ROOT", ROOT, ("√", "平方根", "ルート"), ("sqrt", "root"), (), 3),
    Spelling("DIGIT", None, (), (), ("[0-9０-９]",)),
    Spelling("PLUS", PLUS, ("+", "＋"), ("plus",)),
    # The Japanese long-vowel mark ー is what a pupil's IME often gives for a minus, so it is read as one.
    Spelling("MINUS", MINUS, ("-", "−", "－", "–", "ー"), ("minus",)),
    Spelling("TIMES", TIMES, ("*", "x", "X", "×", "＊", "✕", "ｘ"), ("times",)),
    Spelling("DIVIDE", DIVIDE, ("/", "÷", "／"), ("div",)),
)  # fmt: skip
FACE_OF_TERMINAL: dict[str, str | None] = {s.name: s.face for s in SPELLINGS}
TERMINAL_OF_FACE: dict[str, str] = {s.face: s.name for s in SPELLINGS if s.face is not None}
SPACE_TERMINAL = "WS"

GRAMMAR_BEGIN = (
    "// ---- terminals: generated from suji/rules/language/spelling.py (tests check this block) ----"
)
GRAMMAR_END = "// ---- end of the generated terminals ----"


def _ordered() -> list[Spelling]:
    return sorted(SPELLINGS, key=lambda s: -s.priority)  # stable: the table's order within a priority


def grammar_terminals() -> str:
    """The terminal block of grammar/suji.lark, written from the table (what the file must say)."""
    lines = [GRAMMAR_BEGIN]
    for spelling in SPELLINGS:
        name = f"{spelling.name}.{spelling.priority}" if spelling.priority else spelling.name
        pattern = spelling.regex().replace("/", "\\/")  # Lark's regular expressions are written /…/
        lines.append(f"{name}: /{pattern}/")
    lines.append(f"{SPACE_TERMINAL}: /{_SPACE_CLASS}+/")
    lines.append(GRAMMAR_END)
    return "\n".join(lines)


@computed_once
def scanner() -> re.Pattern[str]:
    """Every spelling as one pattern with a named group per terminal (WS for spaces), tried by priority."""
    groups = [f"(?P<{s.name}>{s.regex()})" for s in _ordered()]
    return re.compile("|".join([*groups, f"(?P<{SPACE_TERMINAL}>{_SPACE_CLASS}+)"]))


# Marks a character that is not a whole spelling on its own in `single_characters` (None marks a space).
NOT_SINGLE = object()


@computed_once
def single_characters() -> dict[str, Face | None]:
    """The characters that are a whole spelling by themselves, whichever of them follows: each one-character
    symbol (its face), each digit, ASCII or full width (its value), and each space (None). Only * and ＊ are left
    out: they may begin **2 and ＊＊２. Every longer spelling needs a character not in this table (乗, ^, a letter
    other than x), so a text of these characters alone is read a character at a time, without the pattern
    (suji.rules.language.reader); tests/rules/test_reader.py holds that reading to the pattern's."""
    table: dict[str, Face | None] = {}
    for spelling in SPELLINGS:
        if spelling.face is not None:
            table.update({s: spelling.face for s in spelling.symbols if len(s) == 1 and s not in "*＊"})
    table.update({d: digit_value(d) for d in "0123456789０１２３４５６７８９"})
    table.update(dict.fromkeys(SPACE_CHARS))
    return table


def digit_value(text: str) -> int:
    """The digit a DIGIT spelling stands for (３ is 3)."""
    return int(text.translate(FULL_WIDTH_DIGITS))


def face_of_match(kind: str, text: str) -> Face:
    """The face one scanned spelling reads as: the digit for DIGIT, the operator face otherwise."""
    face = FACE_OF_TERMINAL[kind]
    return digit_value(text) if face is None else face


def constant_die(times: Face | None, tens: Face | None, units: Face | None) -> str | None:
    """The constant die that three faces in a row may stand for ("×", 1, 1 → "×11"), or None.

    The one home of the ×10 ×11 ×12 ambiguity: text reads "×11" as a × die and two 1 dice or as the ×11 die,
    and every reader (the readings of a formula, the dice a typed text uses, a die's name) asks here.
    """
    if times == TIMES and tens == 1 and units in (0, 1, 2):
        return f"×1{units}"
    return None


def scan_faces(text: str) -> list[Face] | None:
    """The faces of a short text read with the table (spaces skipped), or None if a character is no spelling."""
    pattern = scanner()
    faces: list[Face] = []
    pos = 0
    while pos < len(text):
        found = pattern.match(text, pos)
        if found is None:
            return None
        if found.lastgroup != SPACE_TERMINAL:
            faces.append(face_of_match(found.lastgroup, found.group()))  # type: ignore[arg-type]
        pos = found.end()
    return faces


@computed_once
def die_names() -> dict[str, str]:
    """The usual names of the operator dice, each with its face: every symbol and word of the table (words in
    lower case) and every times symbol with 10, 11 and 12. A lookup for `operator_face` before it reads a name
    with the scanner; tests check that the scanner reads each of them the same."""
    names: dict[str, str] = {}
    for spelling in SPELLINGS:
        if spelling.face is not None:
            names.update(dict.fromkeys((*spelling.symbols, *spelling.words), spelling.face))
    times = next(s for s in SPELLINGS if s.face == TIMES)
    for symbol in (*times.symbols, *times.words):
        for face, number in CONSTANT_FACES.items():
            names[f"{symbol}{number}"] = face
    names.update(
        {"^2": SQUARE, "**2": SQUARE, "2乗": SQUARE, "＾２": SQUARE, "＊＊２": SQUARE, "２乗": SQUARE}
    )
    return names


def operator_face(name: object) -> str | None:
    """The operator face a die's name stands for (x10 → ×10, sqrt → √, ＾２ → ²), or None.

    A name is any spelling of one operator face, as in a formula; a constant die is a times spelling and its
    number (x10, ＊１２).
    """
    text = str(name)
    known = die_names().get(text)
    if known is not None:
        return known
    faces = scan_faces(text)
    if not faces:
        return None
    if len(faces) == 1 and type(faces[0]) is str:
        return faces[0]
    if len(faces) == 3:
        return constant_die(*faces)
    return None

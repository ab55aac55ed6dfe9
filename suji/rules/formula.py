"""Formulas as text: the Lark grammar, readings of ambiguous text, die tokens and the exact SymPy value.

Data flows one way: text → raw tokens (the grammar's Lark lexer) → readings (a × followed by 1 0/1/2 may be a
constant die) → the dice of each reading, read by the language's automaton (suji.rules.language, the grammar
die by die) → a Reading, or the FormulaError the grammar's LALR parser names where the automaton stops. A
Reading's value is worked out by suji.rules.exact (the one arithmetic of production); `Reading.sympy_value`
builds it again from the LALR parse tree with SymPy, the independent check the tests hold it to. User text
never reaches sympify, parse_expr or eval.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from itertools import combinations

import sympy
from lark import Lark, Token, Transformer, Tree
from lark.exceptions import UnexpectedInput, UnexpectedToken

from suji.core.caching import computed_once
from suji.core.errors import SujiError
from suji.core.i18n import N_
from suji.core.resources import resource_dir
from suji.rules.dice import CONSTANT_FACES, DIVIDE, MINUS, PLUS, ROOT, SQUARE, TIMES
from suji.rules.exact import Face
from suji.rules.language import accepts

MAX_FORMULA_LENGTH = 200
# A text with many "×1d" spots could be read in 2^k ways; readings beyond this many are not tried.
MAX_READINGS = 64

_FULLWIDTH = str.maketrans("０１２３４５６７８９", "0123456789")
_FACE_OF_TYPE = {
    "PLUS": PLUS,
    "MINUS": MINUS,
    "TIMES": TIMES,
    "DIVIDE": DIVIDE,
    "SQUARE": SQUARE,
    "ROOT": ROOT,
}
_BINARY = {"PLUS", "MINUS", "TIMES", "DIVIDE"}
_PARENTHESES = set("()（）[]{}［］｛｝")

# Every message a formula error can carry (English msgids; translations/ holds Japanese).
MESSAGES = {
    "empty": N_("Write a formula."),
    "too_long": N_("The formula is too long: at most %(limit)s characters."),
    "unknown_char": N_("“%(char)s” is not on any die. Use digits, + − × ÷, ×10 ×11 ×12, ² and √."),
    "parentheses": N_("Parentheses are not allowed in Sūji de Asobo."),
    "equals": N_("Write only the formula, without “=”."),
    "adjacent_operators": N_("Two operators stand side by side at “%(token)s”. Put a number between them."),
    "starts_with_operator": N_("A formula cannot start with “%(token)s”. Only − may stand at the start."),
    "ends_with_operator": N_("The formula ends with “%(token)s”. A number must come after it."),
    "const_then_number": N_(
        "No number may come right after “%(token)s”. ×10, ×11 and ×12 go after a number, and an operator comes next."
    ),
    "const_misplaced": N_("“%(token)s” must come right after a number."),
    "square_misplaced": N_("“²” (squared) must come right after a number."),
    "root_misplaced": N_("“√” (square root) must come right before a number."),
    "number_after_square": N_("Put an operator between “²” and the next number."),
    "syntax": N_("The formula cannot be read at “%(token)s”."),
    "zero": N_("No die shows 0."),
    "not_rolled": N_("There is no “%(face)s” die in this roll."),
    "used_too_often": N_("“%(face)s” is used more times than it was rolled (%(count)s)."),
    "nine_needs_six": N_("A 9 needs a die showing 6 (turned upside down)."),
    "division_by_zero": N_("Division by zero."),
}
COLUMN_MESSAGE = N_("column %(column)s")


class FormulaError(SujiError):
    """A formula that cannot be read or played: `code` names the problem, `column` (1-based) says where."""

    MESSAGES = MESSAGES

    def __init__(self, code: str, column: int | None = None, **params: object) -> None:
        super().__init__(code, column=column, **params)

    def caret(self, text: str) -> str:
        """The formula with a caret under the column of the error (full-width characters count double)."""
        if self.column is None:
            return text
        pad = sum(2 if unicodedata.east_asian_width(ch) in "FW" else 1 for ch in text[: self.column - 1])
        return f"{text}\n{' ' * pad}^"

    def unfinished_in(self, text: str) -> bool:
        """Whether more dice could still make `text` a formula: it ends with an operator or a √.

        A formula being built ends like that after every operator tap; that is not a mistake yet.
        """
        if self.code == "ends_with_operator":
            return True
        return self.code == "root_misplaced" and self.column is not None and self.column >= len(text.rstrip())

    def to_dict(self, lang: str = "en") -> dict:
        """The error as JSON-ready data; `column` is always there (null when the error has no place)."""
        return {"column": None, **super().to_dict(lang)}

    def __repr__(self) -> str:
        return f"FormulaError({self.code!r}, column={self.column!r}, {self.params!r})"


@dataclass(frozen=True)
class UsedDie:
    """One die in a formula: its face (an int for a digit, the printed symbol for an operator) and its column."""

    face: Face
    column: int

    @property
    def text(self) -> str:
        return str(self.face)


@dataclass
class Reading:
    """One way to read a formula text: its dice in order (a formula of the language) and its tokens."""

    dice: tuple[UsedDie, ...]
    tokens: tuple[Token, ...] = field(repr=False)

    @cached_property
    def faces(self) -> tuple[Face, ...]:
        return tuple(d.face for d in self.dice)

    @cached_property
    def tree(self) -> Tree:
        """The grammar's LALR parse tree of the tokens (built on demand: checking needs only the automaton)."""
        return _parse_tree(list(self.tokens))

    def sympy_value(self) -> sympy.Expr:
        """The exact value as SymPy builds it from the parse tree: an independent check of suji.rules.exact."""
        return SympyBuilder().transform(self.tree)


def format_faces(faces: tuple[Face, ...] | list[Face]) -> str:
    """The canonical print of a formula: digits and + − × ÷ ×10 ×11 ×12 ² √, no spaces."""
    return "".join(str(f) for f in faces)


@computed_once
def formula_parser() -> Lark:
    """The LALR parser for grammar/suji.lark, built once."""
    path = resource_dir("grammar") / "suji.lark"
    return Lark(path.read_text(encoding="utf-8"), parser="lalr", lexer="basic", start="formula")


class SympyBuilder(Transformer):
    """Build the exact SymPy value from a parse tree (Integer, Rational, sqrt; never sympify)."""

    def number(self, digits: list[Token]) -> sympy.Integer:
        return sympy.Integer(int("".join(str(d).translate(_FULLWIDTH) for d in digits)))

    def factor(self, children: list) -> sympy.Expr:
        value = next(c for c in children if not isinstance(c, Token))
        kinds = {c.type for c in children if isinstance(c, Token)}
        if "SQUARE" in kinds:
            value = value**2
        if "ROOT" in kinds:
            value = sympy.sqrt(value)
        return value

    def mulop(self, children: list[Token]) -> str:
        return children[0].type

    def addop(self, children: list[Token]) -> str:
        return children[0].type

    def sign(self, children: list[Token]) -> str:
        return "SIGN"

    def term(self, children: list) -> sympy.Expr:
        value = children[0]
        pending = None
        for child in children[1:]:
            if isinstance(child, Token):  # a constant die
                value = value * CONSTANT_FACES[_face(child)]
            elif isinstance(child, str):
                pending = child
            elif pending == "TIMES":
                value = value * child
            else:
                if child == 0:
                    raise FormulaError("division_by_zero")
                value = value / child
        return value

    def formula(self, children: list) -> sympy.Expr:
        sign = 1
        if children and children[0] == "SIGN":
            sign = -1
            children = children[1:]
        total = sign * children[0]
        for op, value in zip(children[1::2], children[2::2], strict=True):
            total = total + value if op == "PLUS" else total - value
        return total


def _face(token: Token) -> Face:
    """The die face a token stands for."""
    if token.type == "DIGIT":
        return int(str(token).translate(_FULLWIDTH))
    if token.type == "CONST":
        return str(token)
    return _FACE_OF_TYPE[token.type]


@computed_once
def _scanner() -> tuple[re.Pattern[str], frozenset[str]]:
    """The grammar's terminals as one regular expression, tried in the order Lark's own lexer tries them (by
    priority, then longest pattern), and the terminals it skips (spaces).

    Lark's basic lexer is this same alternation plus a Token per match with line bookkeeping; formulas are one
    line, so the scan below makes the same tokens at about half the cost (tests compare it with Lark's lexer).
    """
    lexer = formula_parser()._build_lexer()
    pattern = "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in lexer.terminals)
    return re.compile(pattern, lexer.g_regex_flags), frozenset(lexer.ignore_types)


def _scan(text: str) -> tuple[list[Token], int | None]:
    """The tokens of `text` up to the first character no die shows, and that character's index (None: none)."""
    pattern, ignored = _scanner()
    match = pattern.match
    tokens: list[Token] = []
    pos, end = 0, len(text)
    while pos < end:
        found = match(text, pos)
        if found is None:
            return tokens, pos
        value = found.group()
        after = pos + len(value)
        if found.lastgroup not in ignored:
            # Lark's Token: type, text, start, line, column, end line, end column, end (a formula is one line)
            tokens.append(Token(found.lastgroup, value, pos, 1, pos + 1, 1, after + 1, after))
        pos = after
    return tokens, None


def _lex(text: str) -> list[Token]:
    """Split the text into raw tokens with the grammar's terminals."""
    tokens, bad = _scan(text)
    if bad is None:
        return tokens
    char = text[bad]
    if char in _PARENTHESES:
        raise FormulaError("parentheses", bad + 1)
    if char in "=＝":
        raise FormulaError("equals", bad + 1)
    raise FormulaError("unknown_char", bad + 1, char=_shown(char))


@dataclass(frozen=True)
class Piece:
    """A piece of a formula text as the reader splits it: where it is (0-based, end exclusive) and the die face
    it stands for (None: a character no die shows). "×1d" stays three pieces here; see `pieces`."""

    start: int
    end: int
    face: Face | None


def pieces(text: str) -> list[Piece]:
    """The text split by the grammar's lexer into die faces, going on past characters it cannot read.

    For a formula still being written (it may end with an operator, or hold a typo): the page greys out the
    dice the text already uses. Spaces are left out.
    """
    found: list[Piece] = []
    offset = 0
    rest = text[:MAX_FORMULA_LENGTH]
    while rest:
        tokens, bad = _scan(rest)
        found += [Piece(offset + t.start_pos, offset + t.end_pos, _face(t)) for t in tokens]
        if bad is None:
            break
        found.append(Piece(offset + bad, offset + bad + 1, None))
        offset += bad + 1
        rest = rest[bad + 1 :]
    return found


def _shown(char: str) -> str:
    """A character as a message can show it: invisible, control and broken (surrogate) ones as U+XXXX."""
    if unicodedata.category(char)[0] in "CZ" and char != " ":
        return f"U+{ord(char):04X}"
    return char


def constant_die(times: Face | None, tens: Face | None, units: Face | None) -> str | None:
    """The constant die that three faces in a row may stand for ("×", 1, 1 → "×11"), or None.

    The one home of the ×10 ×11 ×12 ambiguity: text reads "×11" as a × die and two 1 dice or as the ×11 die,
    and every reader (the readings below, the dice a typed text uses) asks here which it may be.
    """
    if times == TIMES and tens == 1 and units in (0, 1, 2):
        return f"×1{units}"
    return None


def _constant_spots(tokens: list[Token]) -> list[int]:
    """Indexes i where tokens i, i+1, i+2 read "× 1 0/1/2": a constant die or a × die and a two-digit number."""
    faces = [_face(t) if t.type in ("TIMES", "DIGIT") else None for t in tokens]
    return [i for i in range(len(tokens) - 2) if constant_die(*faces[i : i + 3])]


def _merge(tokens: list[Token], spots: tuple[int, ...]) -> list[Token]:
    """The token list with the "× 1 d" at each spot merged into one CONST token."""
    merged: list[Token] = []
    skip = 0
    wanted = set(spots)
    for i, tok in enumerate(tokens):
        if skip:
            skip -= 1
            continue
        if i in wanted:
            face = f"×1{_face(tokens[i + 2])}"
            merged.append(
                Token("CONST", face, tok.start_pos, tok.line, tok.column, end_pos=tokens[i + 2].end_pos)
            )
            skip = 2
        else:
            merged.append(tok)
    return merged


def _syntax_error(prev: Token | None, tok: Token) -> FormulaError:
    """Name the mistake when the parser meets `tok` after `prev` (None at the start)."""
    p = prev.type if prev is not None else None
    t = tok.type
    at_prev = prev.column if prev is not None else 1
    if t == "$END":
        if p is None:
            return FormulaError("empty")
        if p == "ROOT":
            return FormulaError("root_misplaced", at_prev)
        return FormulaError("ends_with_operator", at_prev, token=_face(prev))
    col = tok.column
    if t in _BINARY:
        if p is None:
            return FormulaError("starts_with_operator", col, token=_face(tok))
        if p == "ROOT":
            return FormulaError("root_misplaced", at_prev)
        return FormulaError("adjacent_operators", col, token=_face(tok))
    if t == "CONST":
        return FormulaError("const_misplaced", col, token=_face(tok))
    if t == "DIGIT" and p == "CONST":
        return FormulaError("const_then_number", col, token=_face(prev))
    if t == "DIGIT" and p == "SQUARE":
        return FormulaError("number_after_square", col)
    if t == "SQUARE":
        return FormulaError("square_misplaced", col)
    if t == "ROOT":
        return FormulaError("root_misplaced", col)
    return FormulaError("syntax", col, token=str(tok))


def _parse_tree(tokens: list[Token]) -> Tree:
    """Parse one token list with the grammar's LALR parser; raise FormulaError naming the mistake."""
    interactive = formula_parser().parse_interactive("")
    prev = None
    try:
        for tok in tokens:
            interactive.feed_token(tok)
            prev = tok
        return interactive.feed_eof(prev)
    except UnexpectedToken as exc:
        raise _syntax_error(prev, exc.token) from None
    except UnexpectedInput:  # pragma: no cover - defensive: any other Lark complaint
        raise FormulaError("syntax", getattr(prev, "column", 1), token=str(prev or "")) from None


def _parse_tokens(tokens: list[Token]) -> Reading:
    """One reading of a token list: its dice when they form a formula, else the FormulaError naming the mistake.

    The language's automaton decides (tests hold it to the grammar: it accepts exactly the token sequences the
    LALR parser does); only when it refuses is the LALR parser run, to say what is wrong and where.
    """
    dice = tuple(UsedDie(_face(tok), tok.column) for tok in tokens)
    if not accepts(tuple(d.face for d in dice)):
        _parse_tree(tokens)
        raise FormulaError("syntax", tokens[-1].column if tokens else 1, token="")  # pragma: no cover
    for die in dice:
        if die.face == 0:
            raise FormulaError("zero", die.column)
    return Reading(dice, tuple(tokens))


def readings(text: str, constant_dice: int | None = None) -> Iterator[Reading | FormulaError]:
    """Every reading of `text`, each a Reading or the FormulaError that reading runs into.

    `constant_dice` is how many constant dice the roll has (None: unknown). Readings that merge "× 1 d" into a
    constant die come first when the roll has such a die; readings needing more constant dice than the roll
    has are skipped, since no roll could play them.
    """
    if len(text) > MAX_FORMULA_LENGTH:
        raise FormulaError("too_long", None, limit=MAX_FORMULA_LENGTH)
    if not text.strip():
        raise FormulaError("empty")
    tokens = _lex(text)
    if not tokens:
        raise FormulaError("empty")
    spots = _constant_spots(tokens)
    most = len(spots) if constant_dice is None else min(len(spots), constant_dice)
    count = 0
    for size in range(most, -1, -1):  # readings with constant dice first (none when the roll has none)
        for chosen in combinations(spots, size):
            if count == MAX_READINGS:
                return
            count += 1
            try:
                yield _parse_tokens(_merge(tokens, chosen))
            except FormulaError as error:
                yield error


def parse(text: str) -> Reading:
    """The first valid reading of `text` (constant dice preferred), or the FormulaError of the first reading."""
    first_error = None
    for reading in readings(text, constant_dice=None):
        if isinstance(reading, Reading):
            return reading
        first_error = first_error or reading
    assert first_error is not None
    raise first_error


def prefix_readings(text: str, constant_dice: int | None = None) -> list[tuple[UsedDie, ...]]:
    """The dice of the start of a formula, one tuple per reading, without parsing (it may end in an operator).

    Used by "still on track?": the text need not be a whole formula yet. Raises FormulaError for text that
    cannot be the start of any formula (unknown characters, parentheses, too long).
    """
    if len(text) > MAX_FORMULA_LENGTH:
        raise FormulaError("too_long", None, limit=MAX_FORMULA_LENGTH)
    tokens = _lex(text)
    spots = _constant_spots(tokens)
    most = len(spots) if constant_dice is None else min(len(spots), constant_dice)
    found = []
    for size in range(most, -1, -1):
        for chosen in combinations(spots, size):
            if len(found) == MAX_READINGS:
                return found
            found.append(tuple(UsedDie(_face(tok), tok.column) for tok in _merge(tokens, chosen)))
    return found

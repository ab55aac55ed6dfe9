"""The grammar of record as the tests read it: grammar/suji.lark through Lark's own lexer and LALR parser, and
each parse tree's value built with SymPy. The package never uses Lark or SymPy; these are what it is held to.

    text ──Lark's lexer──▶ tokens ──(× 1 d merged into CONST, as the reader does)──▶ LALR parse tree or the error
         ──SympyBuilder──▶ the exact value as SymPy builds it
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

import sympy
from lark import Lark, Token, Transformer, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedToken

from suji.core.resources import resource_dir

CONSTANTS = {"×10": 10, "×11": 11, "×12": 12}
FACE_OF_TYPE = {"PLUS": "+", "MINUS": "−", "TIMES": "×", "DIVIDE": "÷", "SQUARE": "²", "ROOT": "√"}
_FULL_WIDTH = str.maketrans("０１２３４５６７８９", "0123456789")
_BINARY = {"PLUS", "MINUS", "TIMES", "DIVIDE"}


@cache
def parser() -> Lark:
    """The LALR parser of grammar/suji.lark."""
    text = (resource_dir("grammar") / "suji.lark").read_text(encoding="utf-8")
    return Lark(text, parser="lalr", lexer="basic", start="formula")


def grammar_text() -> str:
    return (resource_dir("grammar") / "suji.lark").read_text(encoding="utf-8")


def lark_tokens(text: str) -> list[Token] | int:
    """Lark's tokens of `text`, or the 1-based column of the first character it cannot read."""
    try:
        return list(parser().lex(text))
    except UnexpectedCharacters as error:
        return error.column


def face(token: Token) -> int | str:
    """The die face a token stands for."""
    if token.type == "DIGIT":
        return int(str(token).translate(_FULL_WIDTH))
    if token.type == "CONST":
        return str(token)
    return FACE_OF_TYPE[token.type]


def _constant_spots(tokens: list[Token]) -> list[int]:
    faces = [face(t) if t.type in ("TIMES", "DIGIT") else None for t in tokens]
    return [
        i for i in range(len(tokens) - 2) if faces[i] == "×" and faces[i + 1] == 1 and faces[i + 2] in (0, 1, 2)
    ]


def _merge(tokens: list[Token], spots: tuple[int, ...]) -> list[Token]:
    merged: list[Token] = []
    skip = 0
    for i, tok in enumerate(tokens):
        if skip:
            skip -= 1
            continue
        if i in spots:
            const = f"×1{face(tokens[i + 2])}"
            merged.append(Token("CONST", const, tok.start_pos, tok.line, tok.column, end_pos=tokens[i + 2].end_pos))
            skip = 2
        else:
            merged.append(tok)
    return merged


def token_readings(tokens: list[Token]) -> list[list[Token]]:
    """Every reading of a token list (each "× 1 d" a constant die or not), the most constant dice first."""
    spots = _constant_spots(tokens)
    return [_merge(tokens, chosen) for size in range(len(spots), -1, -1) for chosen in combinations(spots, size)]


def syntax_error(prev: Token | None, tok: Token) -> tuple[str, int | None, object]:
    """(code, column, token) of the mistake when the parser meets `tok` after `prev`: the error the reader
    gives, named from the LALR parser's point of view."""
    p = prev.type if prev is not None else None
    t = tok.type
    at_prev = prev.column if prev is not None else 1
    if t == "$END":
        if p is None:
            return "empty", None, None
        if p == "ROOT":
            return "root_misplaced", at_prev, None
        return "ends_with_operator", at_prev, face(prev)
    col = tok.column
    if t in _BINARY:
        if p is None:
            return "starts_with_operator", col, face(tok)
        if p == "ROOT":
            return "root_misplaced", at_prev, None
        return "adjacent_operators", col, face(tok)
    if t == "CONST":
        return "const_misplaced", col, face(tok)
    if t == "DIGIT" and p == "CONST":
        return "const_then_number", col, face(prev)
    if t == "DIGIT" and p == "SQUARE":
        return "number_after_square", col, None
    if t == "SQUARE":
        return "square_misplaced", col, None
    if t == "ROOT":
        return "root_misplaced", col, None
    return "syntax", col, str(tok)


def parse_tokens(tokens: list[Token]) -> Tree | tuple[str, int | None, object]:
    """The LALR parse tree of one token list, or (code, column, token) of its mistake."""
    interactive = parser().parse_interactive("")
    prev = None
    try:
        for tok in tokens:
            interactive.feed_token(tok)
            prev = tok
        return interactive.feed_eof(prev)
    except UnexpectedToken as exc:
        return syntax_error(prev, exc.token)


class SympyBuilder(Transformer):
    """The exact SymPy value of a parse tree (Integer, Rational, sqrt; never sympify)."""

    def number(self, digits: list[Token]) -> sympy.Integer:
        return sympy.Integer(int("".join(str(d).translate(_FULL_WIDTH) for d in digits)))

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
                value = value * CONSTANTS[str(child)]
            elif isinstance(child, str):
                pending = child
            elif pending == "TIMES":
                value = value * child
            else:
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


def sympy_value(tree: Tree) -> sympy.Expr:
    return SympyBuilder().transform(tree)


def to_sympy(value) -> sympy.Expr:  # noqa: ANN001 - a suji.rules.exact Value
    """A Value (((radicand, coefficient), …)) as a SymPy number."""
    total = sympy.Integer(0)
    for r, c in value:
        total += sympy.Rational(c.numerator, c.denominator) * sympy.sqrt(r)
    return total

"""Show the working: the steps of evaluating a formula, one operation a step, with exact intermediate values.

A pupil who writes 2+3×4 and expects 20 learns nothing from "14"; the lines 2+3×4 → 2+12 → 14 show where the
20 went wrong. Data flows one way: die faces → a reading of the formula's structure (terms, factors, the dice
between them; the faces are validated by suji.rules.exact first) → steps in the order of RULES.md §1 "Formula",
each rewriting one stretch of the current line into a single value → a Working, which `to_dict` turns into
JSON for a page (values as text in the dice's symbols, each line as parts so the new part can be highlighted).

The order of the steps, the same precedence suji.rules.exact and the SymPy checker use:
1. "number": digits side by side become one number (2 6 → 26); a single digit needs no step.
2. ² and √ on their own numbers, factor by factor from left to right.
3. × ÷ ×10 ×11 ×12 from left to right within each term, terms from left to right.
4. the leading − sign, which negates the first term only.
5. + and − from left to right.

Values are exact: internally sums of rational multiples of square roots of squarefree integers (suji.rules.exact's
Value), and to the outside SymPy numbers built from ints (Rational, sqrt of an Integer), never from text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import sympy

from suji.core.i18n import N_, translate
from suji.rules.dice import CONSTANT_FACES, DIVIDE, MINUS, OPERATOR_FACES, PLUS, ROOT, SQUARE, TIMES
from suji.rules.exact import Face, Value, is_formula, squarefree_split, to_sympy
from suji.rules.formula import format_faces

NUMBER = "number"  # the op of a step that joins digits into one number (every other op is a die face)
TEXT_MINUS = "−"  # U+2212, as printed on the dice: values never show an ASCII hyphen

# The phases of RULES.md §1 in the order they are worked, each with the one-line reason a page may show.
PHASES = ("number", "power", "product", "sign", "sum")
REASONS = {
    "number": N_("Digits side by side make one number."),
    "power": N_("² and √ belong to their own number: work them out first."),
    "product": N_("× and ÷ (and ×10, ×11, ×12) come before + and −, from left to right."),
    "sign": N_("The − at the start belongs to the first number only."),
    "sum": N_("Last come + and −, from left to right."),
}


# ---- exact values --------------------------------------------------------------------------------------


def _value(d: dict[int, Fraction]) -> Value:
    """The canonical Value of radicand → coefficient: sorted, squarefree, no zero coefficients."""
    return tuple((r, c) for r, c in sorted(d.items()) if c)


def _int(n: int) -> Value:
    return _value({1: Fraction(n)})


def _mul(a: Value, b: Value) -> Value:
    out: dict[int, Fraction] = {}
    for r1, c1 in a:
        for r2, c2 in b:
            k, r = squarefree_split(r1 * r2)  # √r1·√r2 = k√r
            out[r] = out.get(r, Fraction(0)) + c1 * c2 * k
    return _value(out)


def _div(a: Value, b: Value) -> Value:
    # A divisor is always one factor (n, n², √n), so a monomial c√r, and 1/(c√r) = (1/(c·r))·√r.
    if len(b) != 1:
        raise ValueError("the divisor must be a single term")  # zero, or a sum: no formula divides by one
    ((r, c),) = b
    return _mul(a, ((r, 1 / (c * r)),))


def _add(a: Value, b: Value, sign: int = 1) -> Value:
    out = dict(a)
    for r, c in b:
        out[r] = out.get(r, Fraction(0)) + sign * c
    return _value(out)


def _sqrt(a: Value) -> Value:
    # √ only ever roots a number or a squared number: a positive integer.
    ((r, c),) = a
    assert r == 1 and c.denominator == 1 and c > 0
    k, rest = squarefree_split(c.numerator)
    return ((rest, Fraction(k)),)


def _surds(value: sympy.Expr | int | Fraction) -> Value:
    """Read a SymPy number of the form Σ q·√r (q rational, r a positive integer) back into a Value."""
    if isinstance(value, bool):
        raise TypeError("a value is a number, not a bool")
    if isinstance(value, int | Fraction):
        return _value({1: Fraction(value)})
    out: dict[int, Fraction] = {}
    for term in sympy.Add.make_args(value):
        coeff, rest = term.as_coeff_Mul()
        if not coeff.is_Rational:
            raise ValueError(f"not a value a formula can have: {value}")
        if rest == 1:
            radicand = 1
        elif rest.is_Pow and rest.exp == sympy.S.Half and rest.base.is_Integer and rest.base > 0:
            radicand = int(rest.base)
        else:
            raise ValueError(f"not a value a formula can have: {value}")
        k, r = squarefree_split(radicand)
        out[r] = out.get(r, Fraction(0)) + Fraction(int(coeff.p), int(coeff.q)) * k
    return _value(out)


# ---- printing ------------------------------------------------------------------------------------------


def _monomial_text(r: int, c: Fraction) -> str:
    """|c|·√r without its sign: 7/2, √2, 2√2, 3√2/2 (the denominator last, as a pupil writes it)."""
    p, q = abs(c.numerator), c.denominator
    if r == 1:
        text = str(p)
    else:
        text = f"√{r}" if p == 1 else f"{p}√{r}"
    return text if q == 1 else f"{text}/{q}"


def pretty(value: sympy.Expr | int | Fraction) -> str:
    """A value as the app prints it: 14, 7/2, 2√2, 3√2/2, 3+√2, −7/2, 1−√2 (no spaces, the dice's symbols).

    A surd with a fraction is written 3√2/2, never (3/2)√2: read by the game's own rules (√ roots only the
    number after it, left to right) 3√2/2 is 3×√2÷2, the right value, and no parentheses are needed. The
    rational part comes first, then the surds by increasing radicand, as SymPy orders them.
    """
    terms = _surds(value)
    if not terms:
        return "0"
    parts = []
    for k, (r, c) in enumerate(terms):
        if c < 0:
            parts.append(TEXT_MINUS)
        elif k:
            parts.append(PLUS)
        parts.append(_monomial_text(r, c))
    return "".join(parts)


def _is_plain(value: sympy.Expr) -> bool:
    """A positive integer or a bare √n: text that reads the same in any place of a line."""
    terms = _surds(value)
    if len(terms) != 1:
        return False
    ((r, c),) = terms
    return c > 0 and c.denominator == 1 and (r == 1 or c == 1)


def _needs_brackets(value: sympy.Expr, before: str | None) -> bool:
    """Whether a value standing after the face `before` (None: at the start) must be bracketed to read right.

    Only a value at the start of a line may be negative or a sum; after ÷, 2√2 or 7/2 would be read by the
    game's left-to-right rule as ÷2×√2 or ÷7÷2, so anything but an integer or a bare √n is bracketed there.
    """
    if before is None:
        return False
    terms = _surds(value)
    if len(terms) != 1 or terms[0][1] < 0:
        return True
    return before == DIVIDE and not _is_plain(value)


def _shown(value: sympy.Expr, before: str | None) -> str:
    text = pretty(value)
    return f"({text})" if _needs_brackets(value, before) else text


def _operand(value: sympy.Expr) -> str:
    """A value as the operand of ² or √ in a step's text: bracketed unless an integer or a bare √n."""
    text = pretty(value)
    return text if _is_plain(value) else f"({text})"


# ---- the working ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Part:
    """One part of a line of working: an exact value or an operator die, and the faces it stands for.

    `span` is (start, end) into the formula's faces, end exclusive.
    """

    span: tuple[int, int]
    value: sympy.Expr | None = None
    face: str | None = None

    @property
    def text(self) -> str:
        """The value printed by `pretty`, or the operator face."""
        return pretty(self.value) if self.value is not None else str(self.face)


def _line_texts(parts: Sequence[Part]) -> list[str]:
    """Each part's text as it stands in the line, values bracketed where their place would misread them."""
    texts = []
    for k, part in enumerate(parts):
        if part.value is None:
            texts.append(str(part.face))
        else:
            before = parts[k - 1].face if k else None
            texts.append(_shown(part.value, before))
    return texts


def _parts_dict(parts: Sequence[Part], changed: int | None) -> list[dict]:
    return [
        {
            "kind": "value" if part.value is not None else "operator",
            "text": text,
            "span": list(part.span),
            "changed": k == changed,
        }
        for k, (part, text) in enumerate(zip(parts, _line_texts(parts), strict=True))
    ]


@dataclass(frozen=True)
class WorkingStep:
    """One operation: `op` (a die face, or NUMBER for joining digits) on exact `operands` gives `result`.

    `span` is the stretch of the formula's faces this step's result stands for (start inclusive, end
    exclusive); `parts` is the whole line after the step, in which `parts[changed]` is the result.
    Operands: "number" the digits; ², √, the leading − and ×10/×11/×12 the one value they act on; + − × ÷
    the values left and right of the die.
    """

    op: str
    phase: str
    operands: tuple[sympy.Expr, ...]
    result: sympy.Expr
    span: tuple[int, int]
    parts: tuple[Part, ...]
    changed: int

    @property
    def line(self) -> str:
        """The whole expression after this step: 2+12."""
        return "".join(_line_texts(self.parts))

    @property
    def text(self) -> str:
        """The step as pure maths: 2 6 → 26, 21² = 441, √8 = 2√2, 3 × 4 = 12, −(12) = −12, 2 + 12 = 14."""
        result = pretty(self.result)
        if self.op == NUMBER:
            return f"{' '.join(pretty(d) for d in self.operands)} → {result}"
        if self.op == SQUARE:
            return f"{_operand(self.operands[0])}² = {result}"
        if self.op == ROOT:
            return f"√{_operand(self.operands[0])} = {result}"
        if self.phase == "sign":
            return f"{TEXT_MINUS}({pretty(self.operands[0])}) = {result}"
        left = pretty(self.operands[0])
        if len(_surds(self.operands[0])) > 1:
            left = f"({left})"  # a sum (only in the + − phase) reads as one value in brackets: (3+√2) + 1
        if self.op in CONSTANT_FACES:
            return f"{left} × {CONSTANT_FACES[self.op]} = {result}"
        return f"{left} {self.op} {_shown(self.operands[1], self.op)} = {result}"

    def reason(self, lang: str = "en") -> str:
        """Why this step comes now (one line for the pupil, translated)."""
        return translate(REASONS[self.phase], lang)

    def to_dict(self, lang: str = "en") -> dict:
        """The step as JSON-ready data: values as `pretty` text, SymPy's text of the result beside it."""
        return {
            "op": self.op,
            "phase": self.phase,
            "operands": [pretty(v) for v in self.operands],
            "result": pretty(self.result),
            "result_sympy": str(self.result),
            "span": list(self.span),
            "text": self.text,
            "reason": self.reason(lang),
            "line": self.line,
            "line_parts": _parts_dict(self.parts, self.changed),
            "changed_part": self.changed,
        }


@dataclass(frozen=True)
class Working:
    """The working of a formula: the line before any step (`start`, one part a die), the steps, the value."""

    faces: tuple[Face, ...]
    start: tuple[Part, ...]
    steps: tuple[WorkingStep, ...]
    value: sympy.Expr

    @property
    def formula(self) -> str:
        return format_faces(self.faces)

    @property
    def lines(self) -> list[str]:
        """Every line of the working, the formula first and the value last: ["2+3×4", "2+12", "14"]."""
        return ["".join(_line_texts(self.start))] + [step.line for step in self.steps]

    def to_dict(self, lang: str = "en") -> dict:
        """The working as JSON-ready data (see the module docstring for the order of the steps)."""
        return {
            "formula": self.formula,
            "faces": list(self.faces),
            "lines": self.lines,
            "start_parts": _parts_dict(self.start, None),
            "steps": [step.to_dict(lang) for step in self.steps],
            "value": pretty(self.value),
            "value_sympy": str(self.value),
        }


# ---- reading the structure -----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Factor:
    """[√] digits [²]: the index of the √ (or None), the span of the digits, the index of the ² (or None)."""

    root: int | None
    digits: tuple[int, int]
    square: int | None

    @property
    def start(self) -> int:
        return self.digits[0] if self.root is None else self.root

    @property
    def end(self) -> int:
        return self.digits[1] if self.square is None else self.square + 1


@dataclass(frozen=True)
class _Link:
    """A die after the first factor of a term: × or ÷ with the factor after it, or a constant die (no factor)."""

    face: str
    index: int
    factor: _Factor | None


@dataclass(frozen=True)
class _Term:
    start: int
    end: int
    first: _Factor
    links: tuple[_Link, ...]


def _read_factor(faces: Sequence[Face], i: int) -> tuple[_Factor, int]:
    root = None
    if faces[i] == ROOT:
        root, i = i, i + 1
    start = i
    while i < len(faces) and type(faces[i]) is int:
        i += 1
    square = None
    if i < len(faces) and faces[i] == SQUARE:
        square, i = i, i + 1
    return _Factor(root, (start, i if square is None else square), square), i


def _read(faces: Sequence[Face]) -> tuple[bool, list[_Term], list[int]]:
    """The sign (whether the formula starts with −), the terms, and the indexes of the + − dice between them.

    Only called on faces that suji.rules.exact accepts, so every read below finds what the grammar promises.
    """
    n = len(faces)
    signed = faces[0] == MINUS
    i = 1 if signed else 0
    terms: list[_Term] = []
    addops: list[int] = []
    while True:
        start = i
        first, i = _read_factor(faces, i)
        links: list[_Link] = []
        while i < n and faces[i] not in (PLUS, MINUS):
            face = faces[i]
            assert isinstance(face, str)
            if face in CONSTANT_FACES:
                links.append(_Link(face, i, None))
                i += 1
            else:
                factor, j = _read_factor(faces, i + 1)
                links.append(_Link(face, i, factor))
                i = j
        terms.append(_Term(start, i, first, tuple(links)))
        if i == n:
            return signed, terms, addops
        addops.append(i)
        i += 1


def _check_faces(faces: Sequence[Face]) -> tuple[Face, ...]:
    faces = tuple(faces)
    for face in faces:
        if isinstance(face, bool) or not (
            (isinstance(face, int) and 1 <= face <= 9) or (isinstance(face, str) and face in OPERATOR_FACES)
        ):
            raise ValueError(f"not a die face: {face!r}")
    if not is_formula(faces):
        raise ValueError(f"not a formula: {format_faces(faces)}")
    return faces


class _Board:
    """The line being worked: parts that steps merge, and the steps recorded so far."""

    def __init__(self, faces: tuple[Face, ...]) -> None:
        self.parts = [
            Part((k, k + 1), value=sympy.Integer(f)) if type(f) is int else Part((k, k + 1), face=str(f))
            for k, f in enumerate(faces)
        ]
        self.start = tuple(self.parts)
        self.steps: list[WorkingStep] = []

    def step(
        self, op: str, phase: str, operands: Sequence[Value], result: Value, span: tuple[int, int]
    ) -> None:
        # A step's result replaces exactly the parts that cover its span: the earlier steps inside the span
        # have already merged them into values, with the dice still between them.
        first = next(k for k, p in enumerate(self.parts) if p.span[0] == span[0])
        last = next(k for k, p in enumerate(self.parts) if p.span[1] == span[1])
        value = to_sympy(result)
        self.parts[first : last + 1] = [Part(span, value=value)]
        self.steps.append(
            WorkingStep(
                op, phase, tuple(to_sympy(v) for v in operands), value, span, tuple(self.parts), first
            )
        )


def working(faces: Sequence[Face]) -> Working:
    """The steps of evaluating a formula of die faces (digits 1–9, operators as printed on the dice).

    Raises ValueError when the faces are not a formula (suji.rules.exact.is_formula decides).
    """
    faces = _check_faces(faces)
    signed, terms, addops = _read(faces)
    board = _Board(faces)
    factors = [f for t in terms for f in (t.first, *(link.factor for link in t.links)) if f is not None]

    def digits_value(factor: _Factor) -> int:
        return int("".join(str(faces[k]) for k in range(*factor.digits)))

    # 1. numbers of several dice
    for factor in factors:
        s, e = factor.digits
        if e - s > 1:
            digits = [_int(int(faces[k])) for k in range(s, e)]  # type: ignore[arg-type]
            board.step(NUMBER, "number", digits, _int(digits_value(factor)), (s, e))

    # 2. ² and √, factor by factor. In √n² the ² is applied first and √ then roots n² (as the SymPy checker,
    # suji.rules.formula.SympyBuilder, builds it; suji.rules.exact takes √n² as n outright, the same value). So √9² is
    # √81 = 9, and ²'s step never has a surd to square.
    values: dict[_Factor, Value] = {}
    for factor in factors:
        value = _int(digits_value(factor))
        if factor.square is not None:
            squared = _mul(value, value)
            board.step(SQUARE, "power", [value], squared, (factor.digits[0], factor.square + 1))
            value = squared
        if factor.root is not None:
            rooted = _sqrt(value)
            board.step(ROOT, "power", [value], rooted, (factor.root, factor.end))
            value = rooted
        values[factor] = value

    # 3. × ÷ and the constant dice, left to right in each term: a constant multiplies everything before it
    # in its term (2÷11×11 is (2÷11)×11), exactly like a × die followed by its number.
    term_values = []
    for term in terms:
        acc = values[term.first]
        for link in term.links:
            if link.factor is None:
                result = _mul(acc, _int(CONSTANT_FACES[link.face]))
                board.step(link.face, "product", [acc], result, (term.start, link.index + 1))
            else:
                right = values[link.factor]
                result = _mul(acc, right) if link.face == TIMES else _div(acc, right)
                board.step(link.face, "product", [acc, right], result, (term.start, link.factor.end))
            acc = result
        term_values.append(acc)

    # 4. the sign negates the first term only (−2² is −4, −3+5 is 2): its span starts at the − die.
    if signed:
        negated = _mul(term_values[0], _int(-1))
        board.step(MINUS, "sign", [term_values[0]], negated, (0, terms[0].end))
        term_values[0] = negated

    # 5. + and −, left to right.
    total = term_values[0]
    for index, term, value in zip(addops, terms[1:], term_values[1:], strict=True):
        face = str(faces[index])
        result = _add(total, value, 1 if face == PLUS else -1)
        board.step(face, "sum", [total, value], result, (0, term.end))
        total = result

    return Working(faces, board.start, tuple(board.steps), to_sympy(total))


def checked_working(result: object, lang: str = "en", roll: object = None) -> dict | None:
    """The working of a checked formula (a suji.rules.scoring.CheckResult) and of its scored, stripped form.

    {"formula": Working.to_dict, "scored_formula": the same for the stripped formula, or None when no die was
    stripped}; None for an invalid formula. The stripped form's working shows why dropping ÷1 changes nothing.
    """
    if not getattr(result, "valid", False):
        return None
    faces = tuple(d.face for d in result.dice)  # type: ignore[attr-defined]
    kept = tuple(faces[i] for i in result.kept)  # type: ignore[attr-defined]
    numbers = getattr(roll, "number_dice", ())
    return {
        "formula": working(faces).to_dict(lang),
        "scored_formula": working(kept).to_dict(lang) if kept != faces else None,
        # A 9 in the formula with no die showing 9: a 6 turned upside down (the working starts from the 9).
        "six_as_nine": 9 in faces and 9 not in numbers and 6 in numbers,
    }

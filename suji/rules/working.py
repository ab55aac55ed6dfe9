"""Show the working: the steps of evaluating a formula, one operation a step, with exact intermediate values.

A pupil who writes 2+3×4 and expects 20 learns nothing from "14"; the lines 2+3×4 → 2+12 → 14 show where the
20 went wrong. The steps are the evaluator's own record (suji.rules.language.evaluate.Trace): the working is how
the value was worked out, not a second working-out. Data flows one way: die faces → the evaluator's steps, in
the order of RULES.md §1 "Formula" → lines of parts, each step rewriting one stretch of the line into its value
→ a Working, which `to_dict` turns into JSON for a page (values in the pupil's spelling, each line as parts so
the new part can be highlighted; the machine's spelling of each result beside it).

The order of the steps, the same precedence as the evaluator's:
1. "number": digits side by side become one number (2 6 → 26); a single digit needs no step.
2. ² and √ on their own numbers, factor by factor from left to right (√n²: ² first, then √).
3. × ÷ ×10 ×11 ×12 from left to right within each term, terms from left to right.
4. the leading − sign, which negates the first term only.
5. + and − from left to right.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from suji.core.i18n import N_, translate
from suji.rules.exact import Value, rational_value
from suji.rules.language.evaluate import NUMBER, PHASES, Step, traced
from suji.rules.language.printing import format_faces, machine_text, pupil_text
from suji.rules.language.spelling import CONSTANT_FACES, DIVIDE, OPERATOR_FACES, ROOT, SQUARE, Face

__all__ = ["NUMBER", "PHASES", "REASONS", "Part", "Working", "WorkingStep", "checked_working", "working"]

TEXT_MINUS = "−"  # U+2212, as printed on the dice: values never show an ASCII hyphen

# The one-line reason a page may show for each phase.
REASONS = {
    "number": N_("Digits side by side make one number."),
    "power": N_("² and √ belong to their own number: work them out first."),
    "product": N_("× and ÷ (and ×10, ×11, ×12) come before + and −, from left to right."),
    "sign": N_("The − at the start belongs to the first number only."),
    "sum": N_("Last come + and −, from left to right."),
}


# ---- values in a line --------------------------------------------------------------------------------------


def _is_plain(value: Value) -> bool:
    """A positive integer or a bare √n: text that reads the same in any place of a line."""
    if len(value) != 1:
        return False
    ((r, c),) = value
    return c > 0 and c.denominator == 1 and (r == 1 or c == 1)


def _needs_brackets(value: Value, before: str | None) -> bool:
    """Whether a value standing after the face `before` (None: at the start) must be bracketed to read right.

    Only a value at the start of a line may be negative or a sum; after ÷, 2√2 or 7/2 would be read by the
    game's left-to-right rule as ÷2×√2 or ÷7÷2, so anything but an integer or a bare √n is bracketed there.
    """
    if before is None:
        return False
    if len(value) != 1 or value[0][1] < 0:
        return True
    return before == DIVIDE and not _is_plain(value)


def _in_line(value: Value, before: str | None) -> str:
    text = pupil_text(value)
    return f"({text})" if _needs_brackets(value, before) else text


def _operand(value: Value) -> str:
    """A value as the operand of ² or √ in a step's text: bracketed unless an integer or a bare √n."""
    text = pupil_text(value)
    return text if _is_plain(value) else f"({text})"


# ---- the working ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Part:
    """One part of a line of working: an exact value or an operator die, and the faces it stands for.

    `span` is (start, end) into the formula's faces, end exclusive.
    """

    span: tuple[int, int]
    value: Value | None = None
    face: str | None = None

    @property
    def text(self) -> str:
        """The value in the pupil's spelling, or the operator face."""
        return pupil_text(self.value) if self.value is not None else str(self.face)


def _line_texts(parts: Sequence[Part]) -> list[str]:
    """Each part's text as it stands in the line, values bracketed where their place would misread them."""
    texts = []
    for k, part in enumerate(parts):
        if part.value is None:
            texts.append(str(part.face))
        else:
            texts.append(_in_line(part.value, parts[k - 1].face if k else None))
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
    """One operation of the evaluation (`op`, `phase`, `operands`, `result`, `span`: see Step) and the whole
    line after it: `parts`, in which `parts[changed]` is the result."""

    op: str
    phase: str
    operands: tuple[Value, ...]
    result: Value
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
        result = pupil_text(self.result)
        if self.op == NUMBER:
            return f"{' '.join(pupil_text(d) for d in self.operands)} → {result}"
        if self.op == SQUARE:
            return f"{_operand(self.operands[0])}² = {result}"
        if self.op == ROOT:
            return f"√{_operand(self.operands[0])} = {result}"
        if self.phase == "sign":
            return f"{TEXT_MINUS}({pupil_text(self.operands[0])}) = {result}"
        left = pupil_text(self.operands[0])
        if len(self.operands[0]) > 1:
            left = f"({left})"  # a sum (only in the + − phase) reads as one value in brackets: (3+√2) + 1
        if self.op in CONSTANT_FACES:
            return f"{left} × {CONSTANT_FACES[self.op]} = {result}"
        return f"{left} {self.op} {_in_line(self.operands[1], self.op)} = {result}"

    def reason(self, lang: str = "en") -> str:
        """Why this step comes now (one line for the pupil, translated)."""
        return translate(REASONS[self.phase], lang)

    def to_dict(self, lang: str = "en") -> dict:
        """The step as JSON-ready data: values in the pupil's spelling, the machine's spelling of the result beside
        it (`result_sympy`: the text SymPy prints for it)."""
        return {
            "op": self.op,
            "phase": self.phase,
            "operands": [pupil_text(v) for v in self.operands],
            "result": pupil_text(self.result),
            "result_sympy": machine_text(self.result),
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
    value: Value

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
            "value": pupil_text(self.value),
            "value_sympy": machine_text(self.value),
        }


def _lines(faces: tuple[Face, ...], steps: Sequence[Step]) -> tuple[tuple[Part, ...], list[WorkingStep]]:
    """The line before any step (one part a die) and each step with the line after it: a step's result replaces
    exactly the parts that cover its span (the earlier steps inside the span have already merged them)."""
    parts = [
        Part((k, k + 1), value=rational_value(f)) if type(f) is int else Part((k, k + 1), face=str(f))
        for k, f in enumerate(faces)
    ]
    start = tuple(parts)
    shown: list[WorkingStep] = []
    for step in steps:
        first = next(k for k, p in enumerate(parts) if p.span[0] == step.span[0])
        last = next(k for k, p in enumerate(parts) if p.span[1] == step.span[1])
        parts[first : last + 1] = [Part(step.span, value=step.result)]
        shown.append(
            WorkingStep(step.op, step.phase, step.operands, step.result, step.span, tuple(parts), first)
        )
    return start, shown


def _check_faces(faces: Sequence[Face]) -> tuple[Face, ...]:
    faces = tuple(faces)
    for face in faces:
        if isinstance(face, bool) or not (
            (isinstance(face, int) and 1 <= face <= 9) or (isinstance(face, str) and face in OPERATOR_FACES)
        ):
            raise ValueError(f"not a die face: {face!r}")
    return faces


def working(faces: Sequence[Face]) -> Working:
    """The steps of evaluating a formula of die faces (digits 1–9, operators as printed on the dice).

    Raises ValueError when the faces are not a formula (the evaluator decides).
    """
    faces = _check_faces(faces)
    found = traced(faces)
    if found is None:
        raise ValueError(f"not a formula: {format_faces(faces)}")
    value, steps = found
    start, shown = _lines(faces, steps)
    return Working(faces, start, tuple(shown), value)


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

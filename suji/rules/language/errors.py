"""What can be wrong with a formula: FormulaError, its codes and their messages (translated at the edge)."""

from __future__ import annotations

import unicodedata

from suji.core.errors import SujiError
from suji.core.i18n import N_

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

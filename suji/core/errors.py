"""The one error base class: a code, the parameters of its message and, for text, a column.

Every mistake a person can make (a formula, a die, a move, an answer, a setting, a request) is raised as a
`SujiError` subclass whose `MESSAGES` map its codes to English msgids. Nothing is translated where the error is
raised: the edge (the command line, a page, the JSON API) calls `message(lang)` or `to_dict(lang)` in the
reader's language, so one error reads right in Japanese and in English, and the JSON shape is the same
everywhere: ``{"code": ..., "message": ...}`` plus ``"column"`` when the error is about a place in a text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from suji.core.i18n import translate


class SujiError(ValueError):
    """A translated-at-the-edge error: `code` keys the class's MESSAGES; `params` fill its placeholders.

    A parameter may be a callable taking the language (a text that is itself translated, such as a die's name).
    """

    MESSAGES: ClassVar[Mapping[str, str]] = {}

    def __init__(self, code: str, /, *, column: int | None = None, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.column = column
        self.params = params

    def message_params(self, lang: str) -> dict[str, Any]:
        """The values the message's placeholders are filled with (a subclass may add or shape some)."""
        return {k: (v(lang) if callable(v) else v) for k, v in self.params.items()}

    def message(self, lang: str = "en") -> str:
        """The explanation in the reader's language."""
        return translate(self.MESSAGES[self.code], lang, **self.message_params(lang))

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        """The error as JSON-ready data: code, message and (for an error in a text) the column."""
        data: dict[str, Any] = {"code": self.code, "message": self.message(lang)}
        if self.column is not None:
            data["column"] = self.column
        return data

    def __str__(self) -> str:
        return f"{self.code}: {self.params}" if self.params else self.code

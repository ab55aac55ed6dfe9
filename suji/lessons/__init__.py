"""Probability lessons from four dice games and from Sūji de Asobo itself (library only, no Flask).

Each game module holds one game: its rules engine, simple bots, exact values (fractions) and seeded
simulations, and its `LESSON` (what the pages show, with the hooks a lesson needs beyond the standard parts:
its game's replay, extra figures). `steps` holds the question model and `answers` the safe answer reader shared
by all lessons. `lessons()` is the one list the pages read.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from suji.core.caching import computed_once

if TYPE_CHECKING:
    from suji.lessons.lesson import Lesson

# slug -> the module that holds the lesson, in the order the index shows them
LESSON_MODULES: dict[str, str] = {
    "nine-am": "suji.lessons.nine_am",
    "dice-monsters": "suji.lessons.dice_monsters",
    "silence": "suji.lessons.silence",
    "gooball": "suji.lessons.gooball",
    "suji": "suji.lessons.suji_stats",
}
LESSON_SLUGS: tuple[str, ...] = tuple(LESSON_MODULES)


@computed_once
def lessons() -> dict[str, Lesson]:
    """Every lesson by slug (the modules are imported on first use: the Sūji lesson reads the odds)."""
    return {slug: import_module(name).LESSON for slug, name in LESSON_MODULES.items()}

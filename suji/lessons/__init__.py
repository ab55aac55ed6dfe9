"""Probability lessons from four dice games and from Sūji de Asobo itself (library only, no Flask).

Each game module holds one game: its rules engine, simple bots, exact values (fractions) and seeded
simulations. `steps` holds the question model and `answers` the safe answer reader shared by all lessons.
"""

from __future__ import annotations

LESSON_SLUGS: tuple[str, ...] = ("nine-am", "dice-monsters", "silence", "gooball", "suji")

"""Gooball, the rules as values: a d12 of power, a move of up to power + 5 inches, 15 points to win.

RULES.md §2. Everything else in the package reads these numbers; the two ways a gooball can head for the
centre (`CAREFUL`, `FULL`) are the strategies of the bots, of the exact model and of the simulations alike.
Nothing here imports the rest of the package.
"""

from __future__ import annotations

from suji.core.i18n import N_

SIDES = 12
EXTRA = 5  # move up to power + 5 inches
GOAL = 15
RADIUS = 0.5  # inches: half a die
MAX_ROUNDS = 200  # a safety stop for simulated games (never reached in practice)

CAREFUL, FULL = "careful", "full"
BOT_NAMES = {CAREFUL: N_("stop just past the centre"), FULL: N_("always move the full distance")}

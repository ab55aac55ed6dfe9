"""The worked example of RULES.md (targets from 4 4 6; 21²+4+1 = 446) as the command line takes its roll."""

from __future__ import annotations

EXAMPLE_ROLL_ARGS = "--target-dice 4 4 6 --number-dice 2 1 4 1 3 --operator-dice + + ^2 -".split()

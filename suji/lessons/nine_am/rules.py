"""9am Class, the rules as values: the scores, the dice, the turns, and what a status die means.

RULES.md §2. Everything else in the package reads these numbers: the exact odds count over them, the game
plays by them, the lesson quotes them. Nothing here imports the rest of the package.
"""

from __future__ import annotations

START_SCORE = 20
TURNS = 12  # 9:10 to 11:00
STUDENT_DIE = 6
VARIANTS = (4, 6, 8, 10, 12, 20)  # the professor die has as many sides as there are students
AWAKE_FROM = 4  # 4–6 awake, 1–3 asleep

GOOD, BAD = "good", "bad"
STAY, BREAK = "stay", "break"
START, ROLL, PROFESSOR, CHOICE, OVER = "start", "roll", "professor", "choice", "over"  # stages of a turn


def is_awake(status: int) -> bool:
    """4, 5 and 6 are awake; 1, 2 and 3 are asleep."""
    return status >= AWAKE_FROM

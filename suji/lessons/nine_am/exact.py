"""9am Class, the exact odds: fractions counted over the rules, for the game, the questions and the trials.

Data flows: the rules (a d6 status, awake from 4, n desks) → these fractions → the game, which shows some of
them to the student before a choice, and the lesson, which puts them beside its simulations.
"""

from __future__ import annotations

from fractions import Fraction

from suji.lessons.nine_am.rules import GOOD, START_SCORE, STUDENT_DIE, TURNS, is_awake


def p_awake() -> Fraction:
    """P(a student die shows 4, 5 or 6)."""
    return Fraction(sum(1 for face in range(1, STUDENT_DIE + 1) if is_awake(face)), STUDENT_DIE)


def p_called(students: int, on_break: int = 0) -> Fraction:
    """P(a given student present is called in a turn) when `on_break` others are out (the professor "
    "re-rolls)."""
    return Fraction(1, students - on_break)


def mean_die() -> Fraction:
    """The average face of a d6: (1 + … + 6)/6 = 7/2."""
    return Fraction(sum(range(1, STUDENT_DIE + 1)), STUDENT_DIE)


def expected_change(choice: str) -> Fraction:
    """Expected change of the called awake student's own score: look good +7/2, look bad 0."""
    return mean_die() if choice == GOOD else Fraction(0)


def expected_damage(students: int) -> Fraction:
    """Expected total points the others lose when an awake student makes everyone else look bad."""
    # Each of the other students' statuses is a fresh d6 roll, so each loses 7/2 on average.
    return (students - 1) * mean_die()


def p_tie_break_win(tied: int) -> Fraction:
    """P(a given one of `tied` students wins the tie-break): the procedure treats them all alike."""
    return Fraction(1, tied)


def expected_final_grade_all_good() -> Fraction:
    """Expected final grade when everyone always looks good and nobody takes a bathroom break.

    Each call is +d6 or −d6 with equal chance. (A student who takes a break when they know their die shows
    asleep avoids some −d6 calls, so with breaks this is no longer the whole story.)
    """
    per_call = p_awake() * mean_die() - (1 - p_awake()) * mean_die()
    return START_SCORE + TURNS * per_call  # per_call is 0, so the grade stays 20 on average

"""Every sub-formula of a formula with the formula's own value, found in one walk with shared prefixes.

The stripping of redundant dice (RULES.md "Redundant dice", suji.rules.scoring.strip_redundant) asks which choices
of a formula's dice, kept in order, form a formula of the same value. Evaluating each choice on its own
(`has_value`, as `plain_equal_sub_formulas` does) walks the same first dice again and again: the 11 dice of
5²+31×4−2÷6 have 2,046 proper choices. Here the choices grow a die at a time from a tree of kept prefixes, each
prefix's automaton state and partial value computed once and handed to every choice that starts with it:

    faces ──kept prefixes (the automaton's moves, the arithmetic of suji.rules.language.evaluate)──▶
        the choices that end in an accepting state with the same value ──▶ (size, kept indexes), smallest first

A prefix the automaton refuses, or one that divides by zero, can never become a formula, so its whole branch is
dropped. The prefixes grow a size at a time, so the search ends at the smallest size with a match. The arithmetic of each move
is `_walk`'s (suji.rules.language.evaluate), written out again over immutable state so that a prefix can be
shared: tests/rules/test_subformulas.py holds the matches to `plain_equal_sub_formulas`, which asks `has_value`
of every choice on its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from suji.rules.exact import squarefree_split
from suji.rules.language.automaton import (
    ACCEPTING,
    CONSTANT,
    DIGIT,
    ROOTED,
    SIGN,
    SQUARED,
    START,
    TRANSITIONS,
    accepts,
)
from suji.rules.language.evaluate import has_value
from suji.rules.language.spelling import CONSTANT_FACES, DIVIDE, PLUS, TIMES, Face

Kept = tuple[int, ...]
Sums = tuple[tuple[int, int, int], ...]  # ((radicand, numerator, denominator), ...): the terms summed so far


def _add_term(sums: Sums, r: int, num: int, den: int) -> Sums:
    """The sums with the term num/den·√r added (unreduced, as `_walk` keeps them)."""
    for k, (radicand, n, d) in enumerate(sums):
        if radicand == r:
            return (*sums[:k], (r, n * den + num * d, d * den), *sums[k + 1 :])
    return (*sums, (r, num, den))


def _ends_with_value(terms: dict[int, tuple[int, int]], state: int, sign: int, p: int, q: int, r: int,
                     started: bool, op: str, root: bool, squared: bool, number: int, sums: Sums) -> bool:  # fmt: skip
    """Whether the prefix, closed by the end as `_walk` closes a formula, has the value with these `value_terms`
    (compared as `has_value` compares: unreduced, by cross-multiplication). A division by zero has no value."""
    if state != CONSTANT:  # the end closes the last factor
        if root and not squared and number:
            p2, r2 = squarefree_split(number)
        else:
            p2, r2 = (number * number if squared and not root else number), 1
        if not started:
            p, q, r = p2, 1, r2
        else:
            if op == TIMES:
                p *= p2
            elif p2 == 0:
                return False
            else:
                q = q * p2 * r2
            if r2 != 1:
                a, r = squarefree_split(r * r2)
                p *= a
    p *= sign
    # The last term joins the sums (its radicand's, or a sum of its own), and every nonzero sum must be wanted.
    found = 0
    joined = False
    for radicand, num, den in sums:
        if radicand == r:
            num, den, joined = num * q + p * den, den * q, True
        if num == 0:
            continue
        found += 1
        wanted = terms.get(radicand)
        if wanted is None or num * wanted[1] != wanted[0] * den:
            return False
    if not joined and p != 0:
        found += 1
        wanted = terms.get(r)
        if wanted is None or p * wanted[1] != wanted[0] * q:
            return False
    return found == len(terms)


def equal_sub_formulas(faces: Sequence[Face], terms: dict[int, tuple[int, int]]) -> list[Kept]:
    """The proper sub-formulas (kept indexes, in order) of `faces` whose value has these `value_terms`: all of the
    fewest dice that any has, in the order `itertools.combinations` lists them; [] when none has the value.

    The prefixes grow a die a time, all those of one size together (breadth first), so the search ends at the
    first size with a match, as the plain search does, while every prefix is still worked out once.
    """
    n = len(faces)
    classes = [DIGIT if type(f) is int else f for f in faces]
    moves = TRANSITIONS
    # A prefix: (where its next die may start, kept indexes, then the state of `_walk`'s loop after them).
    frontier: list[tuple] = [(0, (), START, 1, 0, 0, 0, False, TIMES, False, False, 0, ())]
    for _size in range(1, n):
        grown: list[tuple] = []
        found: list[Kept] = []
        for start, kept, state, sign, p, q, r, started, op, root, squared, number, sums in frontier:
            for j in range(start, n):
                face = faces[j]
                nxt = moves[state].get(classes[j])
                if nxt is None:
                    continue
                here = (*kept, j)
                if type(face) is int:
                    prefix = (
                        j + 1,
                        here,
                        nxt,
                        sign,
                        p,
                        q,
                        r,
                        started,
                        op,
                        root,
                        squared,
                        number * 10 + face,
                        sums,
                    )
                elif nxt == ROOTED:
                    prefix = (j + 1, here, nxt, sign, p, q, r, started, op, True, squared, number, sums)
                elif nxt == SQUARED:
                    prefix = (j + 1, here, nxt, sign, p, q, r, started, op, root, True, number, sums)
                elif nxt == SIGN:
                    prefix = (j + 1, here, nxt, -1, p, q, r, started, op, root, squared, number, sums)
                else:  # a constant die, × ÷ or + −: the factor before it is complete (unless a constant closed it)
                    p1, q1, r1, started1 = p, q, r, started
                    if state != CONSTANT:
                        if root and not squared and number:
                            p2, r2 = squarefree_split(number)
                        else:
                            p2, r2 = (number * number if squared and not root else number), 1
                        if not started:
                            p1, q1, r1, started1 = p2, 1, r2, True
                        else:
                            if op == TIMES:
                                p1 *= p2
                            elif p2 == 0:
                                continue  # a division by zero: no formula starts with these dice
                            else:
                                q1 *= p2 * r2
                            if r2 != 1:
                                a, r1 = squarefree_split(r1 * r2)
                                p1 *= a
                    if nxt == CONSTANT:
                        prefix = (j + 1, here, nxt, sign, p1 * CONSTANT_FACES[face], q1, r1, started1, op, False,
                                  False, 0, sums)  # fmt: skip
                    elif face == TIMES or face == DIVIDE:
                        prefix = (j + 1, here, nxt, sign, p1, q1, r1, started1, face, False, False, 0, sums)
                    else:  # + or −: the term is complete
                        prefix = (j + 1, here, nxt, 1 if face == PLUS else -1, 0, 0, 0, False, TIMES, False, False,
                                  0, _add_term(sums, r1, sign * p1, q1))  # fmt: skip
                grown.append(prefix)
                if nxt in ACCEPTING and _ends_with_value(terms, *prefix[2:]):
                    found.append(here)
        if found:
            return found  # parents in combinations' order, each one's children in it too: so are these
        frontier = grown
    return []


def plain_equal_sub_formulas(faces: Sequence[Face], terms: dict[int, tuple[int, int]]) -> list[Kept]:
    """The plain reference of `equal_sub_formulas`: every choice of dice, fewest first, evaluated on its own."""
    shapes = [1 if type(f) is int else f for f in faces]
    for size in range(1, len(faces)):
        same_size = [
            kept
            for kept in combinations(range(len(faces)), size)
            if accepts([shapes[i] for i in kept]) and has_value([faces[i] for i in kept], terms)
        ]
        if same_size:
            return same_size
    return []

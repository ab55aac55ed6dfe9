"""Every sub-formula of a formula with the formula's own value, found term by term, the last term looked up.

The stripping of redundant dice (RULES.md "Redundant dice", suji.rules.scoring.strip_redundant) asks which choices
of a formula's dice, kept in order, form a formula of the same value. Evaluating each choice on its own
(`has_value`, as `plain_equal_sub_formulas` does) walks the same dice again and again: the 11 dice of
5²+31×4−2÷6 have 2,046 proper choices. A formula is a sum of terms, and a term (its dice between two kept + −)
is a monomial p/q·√r whatever comes before or after it, so the search splits there:

    faces ──terms: kept dice without + −, grown a die at a time, a size at a time──▶ each term's value, worked
        out once, filed by value (and listed for the + − dice that may follow it)
          ──choices: a leading −, then term, + or −, term…, each met with each term once──▶ what a choice still
            lacks is one term's value or nothing matches, so its last term is looked up by that value
          ──▶ the kept indexes of every match of the fewest dice, in `itertools.combinations` order

Most formulas have nothing to strip, and proving that means meeting every choice: here a choice's last term,
where most choices differ, costs one dictionary look-up for all of them. A term that divides by zero (custom
dice may show 0) has no value, so no choice keeps it. The arithmetic of each move is `_walk`'s
(suji.rules.language.evaluate), written out again so that a term is shared by every choice that keeps it:
tests/rules/test_subformulas.py holds the matches to `plain_equal_sub_formulas`, which asks `has_value` of every
choice on its own.

Where it is built, the walk in C (suji/rules/language/subformula_walk.pyx) answers first: the same matches from one
depth-first walk over 64-bit ints, on a roll's formulas about ten times as fast and touching a small fraction of
the memory. It gives up (None) on what it would not hold exactly or soon (a number beyond 64 bits, more than 24
dice, 8 radicands or 1,024 matches, roots of long numbers too slow to factor: its module lists them), and
`search_equal_sub_formulas` below answers those, and everything where the walk is not built (no C compiler at
install, SUJI_NATIVE=0).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from math import gcd

from suji.rules.exact import squarefree_split
from suji.rules.language.automaton import (
    CONSTANT,
    DIGIT,
    DIGITS,
    OPERATOR,
    ROOTED,
    SQUARED,
    TRANSITIONS,
    accepts,
)
from suji.rules.language.evaluate import has_value
from suji.rules.language.spelling import CONSTANT_FACES, MINUS, PLUS, TIMES, Face

try:
    from suji.rules.language.subformula_walk import walk_equal_sub_formulas
except ImportError:  # not built here, or built from another text (suji.core.native): the search answers alone
    walk_equal_sub_formulas = None

Kept = tuple[int, ...]
Key = tuple[int, int, int]  # a monomial p/q·√r as (r, p, q) in lowest terms with q > 0; zero is ZERO
ZERO: Key = (1, 0, 1)
# What a choice's terms still lack: (r, numerator, denominator) per radicand, in lowest terms, no zeros.
Need = tuple[tuple[int, int, int], ...]


def _less(need: Need, sign: int, p: int, q: int, r: int) -> Need:
    """need − sign·p/q·√r, in lowest terms, the zeros left out."""
    rest = []
    joined = False
    for entry in need:
        if entry[0] == r:
            joined = True
            num = entry[1] * q - sign * p * entry[2]
            if num:
                den = entry[2] * q
                g = gcd(num, den)
                rest.append((r, num // g, den // g))
        else:
            rest.append(entry)
    if not joined and p:
        g = gcd(p, q)
        rest.append((r, -sign * p // g, q // g))
    return tuple(rest)


def equal_sub_formulas(faces: Sequence[Face], terms: dict[int, tuple[int, int]]) -> list[Kept]:
    """The proper sub-formulas (kept indexes, in order) of `faces` whose value has these `value_terms`: all of the
    fewest dice that any has, in the order `itertools.combinations` lists them; [] when none has the value.

    The walk in C answers when it is built and the numbers fit; `search_equal_sub_formulas` otherwise.
    """
    if walk_equal_sub_formulas is not None:
        walked = walk_equal_sub_formulas(faces, terms)
        if walked is not None:
            return walked
    return search_equal_sub_formulas(faces, terms)


def search_equal_sub_formulas(faces: Sequence[Face], terms: dict[int, tuple[int, int]]) -> list[Kept]:
    """`equal_sub_formulas` by the term-by-term search, in Python (the twin: compiled), whatever the numbers.

    Terms (kept dice without + −) grow a die at a time, all of one size together. A choice (kept dice ending
    with a + or −, or none, or a leading −) meets each term once, whichever of the two comes later: as its last
    term, looked up by the value the choice still needs, or as one more term before a + or −, which makes a
    longer choice. So when the terms of size s are all in, every match of at most s dice has been met, and the
    search ends at the first size with a match, as the plain search does.
    """
    n = len(faces)
    # One pass over the dice makes every table of the search (each comprehension would be a call of its own).
    ops = []  # the + and − dice, as (die, sign, bit)
    minuses = []  # the − dice, each of which may be a leading −
    inner = []  # the other dice: those a term may keep
    classes = []  # each die's class for the automaton (DIGIT for a number)
    middles: list[list[tuple]] = []  # by first die: the terms a + or − may follow
    # The choices by the die they end with (the empty one and a leading − too): (sign of the next term, need,
    # mask, size), in the order of those dice, so that a term meets only the choices that end before it.
    ends: list[tuple[int, list]] = [(-1, [])]
    # A term being grown: (next index into `inner`, first die, mask, automaton state, the factors before the
    # last one as p/q·√r (q == 0: none yet), how the last joins them (× or ÷), whether it is rooted, its number).
    # It starts empty, before its first die (a digit or a √: the automaton after an operator).
    level = []
    ops_before = [0] * n  # how many + and − dice come before each die a term may keep
    for j, face in enumerate(faces):
        middles.append([])
        if type(face) is int:
            classes.append(DIGIT)
        else:
            classes.append(face)
            if face == PLUS or face == MINUS:
                sign_die = (j, 1 if face == PLUS else -1, 1 << j)
                ops.append(sign_die)
                if face == MINUS:
                    minuses.append(sign_die)
                ends.append((j, []))
                continue
        level.append((len(inner), j, 0, OPERATOR, 0, 0, 0, TIMES, False, 0))
        inner.append(j)
        ops_before[j] = len(ops)
    last_op = ops[-1][0] if ops else -1
    best = n - 1  # the most dice a match may have: a proper sub-formula, or fewer once one is found
    found: list[int] = []  # the matches of `best` dice, as bit masks of the kept dice
    filed: dict[Key, list[tuple[int, int, int]]] = {}  # the terms by value: (first die, mask, size)
    waiting: dict[Key, list[tuple[int, int, int]]] = {}  # the choices by the value their last term needs
    choices_after = dict(ends)
    follows: list[list | None] = [None] * n  # the + and − dice after each die, as (die, sign, bit)
    # Choices still to make: (need, sign, a term p/q·√r, mask, size, the + and − dice that may follow the term):
    # the need less the term, then one choice for each of those dice. The first two have the empty term (p = 0):
    # the empty choice (a pseudo die before the first) and a leading − for each − die.
    need = tuple([(r, num, den) for r, (num, den) in terms.items()])
    todo: list[tuple] = [(need, 1, 0, 1, 1, 0, -1, [(-1, 1, 0)]), (need, 1, 0, 1, 1, 0, 0, minuses)]
    moves = TRANSITIONS
    size = 0
    m = len(inner)
    while level and size < best:
        size += 1
        grown = []  # the terms that may still grow: those whose last die is not the last die a term may keep
        for k0, first, mask, state, p, q, r, op, root, number in level:
            for k in range(k0, m if size > 1 else k0 + 1):  # an empty term takes just its first die
                j = inner[k]
                face = faces[j]
                nxt = moves[state].get(classes[j])
                if nxt is None:
                    continue
                bit = mask | (1 << j)
                if nxt == ROOTED:
                    if k + 1 < m:
                        grown.append((k + 1, first, bit, nxt, p, q, r, op, True, number))
                    continue
                # The last factor closes: the number ends here (the term may end with it), or a constant die, × or
                # ÷ follows it. Its value (squared, and under a √: the root; √n² is n) joins the term's factors.
                closed = number
                squared = False
                if nxt == DIGITS:
                    closed = number * 10 + face  # type: ignore[operator]
                    if k + 1 < m:
                        grown.append((k + 1, first, bit, nxt, p, q, r, op, root, closed))
                elif nxt == SQUARED:
                    squared = True
                    if k + 1 < m:
                        grown.append((k + 1, first, bit, nxt, p, q, r, op, root, closed))
                else:
                    squared = state == SQUARED
                if not q and nxt == DIGITS and not root:
                    p1, q1, r1 = closed, 1, 1  # a term of one plain number so far (the usual case)
                elif state == CONSTANT and nxt != DIGITS and nxt != SQUARED:
                    p1, q1, r1 = p, q, r  # a constant die closed the factor already
                else:
                    if squared:
                        p2, r2 = (closed if root else closed * closed), 1
                    else:
                        p2, r2 = squarefree_split(closed) if root and closed else (closed, 1)
                    if not q:
                        p1, q1, r1 = p2, 1, r2
                    else:
                        p1, q1, r1 = p, q, r
                        if op == TIMES:
                            p1 *= p2
                        elif p2 == 0:
                            continue  # divides by zero: not a term, and no term goes on from these dice
                        else:
                            q1 *= p2 * r2
                        if r2 != 1:
                            a, r1 = squarefree_split(r1 * r2)
                            p1 *= a
                if nxt != DIGITS and nxt != SQUARED:  # a constant die, × or ÷
                    if nxt != CONSTANT:
                        if k + 1 < m:
                            grown.append((k + 1, first, bit, nxt, p1, q1, r1, face, False, 0))  # type: ignore[arg-type]
                        continue
                    p1 *= CONSTANT_FACES[face]  # type: ignore[index]
                    if k + 1 < m:
                        grown.append((k + 1, first, bit, nxt, p1, q1, r1, op, False, 0))
                # A term p1/q1·√r1 of `size` dice, from `first` to j: filed, and met with the choices so far.
                if p1 == 0:
                    key = ZERO
                elif q1 == 1:  # no ÷ in the term: nothing to reduce (most terms)
                    key = (r1, p1, 1)
                else:
                    g = gcd(p1, q1)
                    key = (r1, p1 // g, q1 // g)
                same = filed.get(key)
                if same is None:
                    filed[key] = [(first, bit, size)]
                else:
                    same.append((first, bit, size))
                for after, choice_mask, choice_size in waiting.get(key, ()):
                    total = choice_size + size
                    if first > after and total <= best:
                        if total < best:
                            best, found = total, []
                        found.append(choice_mask | bit)
                if j < last_op:
                    follow = follows[j]
                    if follow is None:
                        follow = follows[j] = ops[ops_before[j] :]
                    middles[first].append((bit, size, p1, q1, r1, follow))
                    room = best - size - 2
                    for after, bucket in ends:
                        if after > first:
                            break
                        for sign, need, choice_mask, choice_size in bucket:
                            if choice_size <= room:
                                todo.append(
                                    (need, sign, p1, q1, r1, choice_mask | bit, choice_size + size, follow)
                                )
        level = grown
        while todo:  # the new choices: each meets the terms so far
            need, sign, p, q, r, mask, size0, follow = todo.pop()
            if p:
                if len(need) == 1 and need[0][0] == r and q == 1 == need[0][2]:
                    # `_less` of a whole term from a whole need of the same radicand (most choices), written out
                    num = need[0][1] - sign * p
                    need = ((r, num, 1),) if num else ()
                else:
                    need = _less(need, sign, p, q, r)
            size0 += 1
            single = len(need) < 2  # one term can make up the need
            if need:
                r, num, den = need[0]
            for after, sign, bit in follow:
                mask2 = mask | bit
                if single:  # the choice waits for a term of the value it needs, and meets those filed
                    key = (r, sign * num, den) if need else ZERO
                    same = waiting.get(key)
                    if same is None:
                        waiting[key] = [(after, mask2, size0)]
                    else:
                        same.append((after, mask2, size0))
                    for first, term_mask, term_size in filed.get(key, ()):
                        total = size0 + term_size
                        if first > after and total <= best:
                            if total < best:
                                best, found = total, []
                            found.append(mask2 | term_mask)
                choices_after[after].append((sign, need, mask2, size0))
                if size0 + 3 <= best:  # room for a term, a + or −, and a last term
                    for first in range(after + 1, last_op):
                        for term_mask, term_size, p3, q3, r3, follow2 in middles[first]:
                            if size0 + term_size + 2 <= best:
                                todo.append(
                                    (need, sign, p3, q3, r3, mask2 | term_mask, size0 + term_size, follow2)
                                )
    if not found:  # (most formulas)
        return []
    return sorted(tuple(i for i in range(n) if mask >> i & 1) for mask in found)


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

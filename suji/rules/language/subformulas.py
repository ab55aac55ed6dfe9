"""Every sub-formula of a formula with the formula's own value, found term by term, the last term looked up.

The stripping of redundant dice (RULES.md "Redundant dice", suji.rules.scoring.strip_redundant) asks which choices
of a formula's dice, kept in order, form a formula of the same value. Evaluating each choice on its own
(`has_value`, as `plain_equal_sub_formulas` does) walks the same dice again and again: the 11 dice of
5²+31×4−2÷6 have 2,046 proper choices. A formula is a sum of terms, and a term (its dice between two kept + −)
is a monomial p/q·√r whatever comes before or after it, so the search splits there:

    faces ──every term: kept dice without + −, grown a die at a time (`_terms`)──▶ each term's value, worked out
        once, filed by value, and listed for the + − dice that may follow it
          ──`_join`: a leading −, then term, + or −, term…; what is still missing for the value is a single
            term's value or nothing matches, so the last term is looked up by that value, not tried one by one
          ──▶ the kept indexes of every match of the fewest dice, in `itertools.combinations` order

Most formulas have nothing to strip, and proving that means meeting every choice: here a choice's last term,
where most choices differ, costs one dictionary look-up for all of them. A term that divides by zero (custom
dice may show 0) has no value, so no choice keeps it. The arithmetic of each move is `_walk`'s
(suji.rules.language.evaluate), written out again so that a term is shared by every choice that keeps it:
tests/rules/test_subformulas.py holds the matches to `plain_equal_sub_formulas`, which asks `has_value` of every
choice on its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from math import gcd

from suji.rules.exact import squarefree_split
from suji.rules.language.automaton import CONSTANT, DIGIT, DIGITS, ROOTED, SQUARED, TRANSITIONS, accepts
from suji.rules.language.evaluate import has_value
from suji.rules.language.spelling import CONSTANT_FACES, MINUS, PLUS, ROOT, TIMES, Face

Kept = tuple[int, ...]
Key = tuple[int, int, int]  # a monomial p/q·√r as (r, p, q) in lowest terms with q > 0; zero is ZERO
ZERO: Key = (1, 0, 1)
# What `_terms` hands `_join`: the terms by value, as (first die, kept dice as a bit mask, size); and per first
# die the terms after which a + or − die may come, as (mask, size, p, q, r, the (die, sign, bit) that may follow).
Filed = dict[Key, list[tuple[int, int, int]]]
Middles = list[list[tuple[int, int, int, int, int, list[tuple[int, int, int]]]]]


def _key(p: int, q: int, r: int) -> Key:
    if p == 0:
        return ZERO
    g = gcd(p, q)
    return (r, p // g, q // g)


def _value_key(terms: dict[int, tuple[int, int]], sign: int) -> Key | None:
    """The key of a single term with `sign` and these `value_terms`, or None when no single term has them."""
    if not terms:
        return ZERO
    if len(terms) > 1:
        return None
    ((r, (num, den)),) = terms.items()
    return (r, sign * num, den)


def _terms(faces: Sequence[Face], after_ops: list[int], terms: dict[int, tuple[int, int]]) -> tuple[Filed, Middles, int]:
    """Every term of kept dice (no + or −), a size at a time, filed by value; and the most dice a match may have.

    A term that is alone the value (or, after a leading −, its negative) is a match of its size, so no match
    has more dice and no term is grown past that size.
    """
    n = len(faces)
    moves = TRANSITIONS
    inner = [j for j in range(n) if faces[j] != PLUS and faces[j] != MINUS]
    classes = [DIGIT if type(f) is int else f for f in faces]
    last_op = after_ops[-1] if after_ops else -1
    follow = [[(o, 1 if faces[o] == PLUS else -1, 1 << o) for o in after_ops if o > j] for j in range(n)]
    plain_key, signed_key = _value_key(terms, 1), _value_key(terms, -1)
    first_minus = next((j for j in range(n) if faces[j] == MINUS), n)
    filed: Filed = {}
    middles: Middles = [[] for _ in range(n)]
    most = n - 1  # a proper sub-formula

    def file(first: int, last: int, mask: int, size: int, p: int, q: int, r: int) -> None:
        nonlocal most
        key = _key(p, q, r)
        same = filed.get(key)
        if same is None:
            filed[key] = [(first, mask, size)]
        else:
            same.append((first, mask, size))
        if last < last_op:
            middles[first].append((mask, size, p, q, r, follow[last]))
        if key == plain_key:
            most = min(most, size)
        elif key == signed_key and first > first_minus:
            most = min(most, size + 1)

    # A term being grown: (next index into `inner`, first die, mask, automaton state, the factors before the
    # last one as p/q·√r (q == 0: none yet), how the last joins them (× or ÷), whether it is rooted, its number).
    level: list[tuple[int, int, int, int, int, int, int, str, bool, int]] = []
    for k, j in enumerate(inner):
        if most < 1:
            break
        face = faces[j]
        if type(face) is int:
            level.append((k + 1, j, 1 << j, DIGITS, 0, 0, 0, TIMES, False, face))
            file(j, j, 1 << j, 1, face, 1, 1)
        elif face == ROOT:
            level.append((k + 1, j, 1 << j, ROOTED, 0, 0, 0, TIMES, True, 0))
    size = 1
    while level and size < most:
        size += 1
        grown = []
        for k0, first, mask, state, p, q, r, op, root, number in level:
            for k in range(k0, len(inner)):
                j = inner[k]
                face = faces[j]
                nxt = moves[state].get(classes[j])
                if nxt is None:
                    continue
                bit = mask | (1 << j)
                if nxt == DIGITS:  # the number grows; closed here, the term ends
                    number2 = number * 10 + face  # type: ignore[operator]
                    grown.append((k + 1, first, bit, nxt, p, q, r, op, root, number2))
                    p2, r2 = squarefree_split(number2) if root and number2 else (number2, 1)
                elif nxt == ROOTED:
                    grown.append((k + 1, first, bit, nxt, p, q, r, op, True, number))
                    continue
                elif nxt == SQUARED:  # √n² is n
                    grown.append((k + 1, first, bit, nxt, p, q, r, op, root, number))
                    p2, r2 = (number if root else number * number), 1
                else:  # a constant die, × or ÷: the last factor joins the term (unless a constant closed it)
                    if state == CONSTANT:
                        p1, q1, r1 = p, q, r
                    else:
                        if root and state != SQUARED and number:
                            p2, r2 = squarefree_split(number)
                        else:
                            p2, r2 = (number * number if state == SQUARED and not root else number), 1
                        if not q:
                            p1, q1, r1 = p2, 1, r2
                        else:
                            p1, q1, r1 = p, q, r
                            if op == TIMES:
                                p1 *= p2
                            elif p2 == 0:
                                continue  # a division by zero: no term goes on from these dice
                            else:
                                q1 *= p2 * r2
                            if r2 != 1:
                                a, r1 = squarefree_split(r1 * r2)
                                p1 *= a
                    if nxt != CONSTANT:
                        grown.append((k + 1, first, bit, nxt, p1, q1, r1, face, False, 0))  # type: ignore[arg-type]
                        continue
                    p1 *= CONSTANT_FACES[face]  # type: ignore[index]
                    grown.append((k + 1, first, bit, nxt, p1, q1, r1, op, False, 0))
                    file(first, j, bit, size, p1, q1, r1)
                    continue
                # The term ends with this die: the last factor, worth p2·√r2, joins the ones before it.
                if not q:
                    p1, q1, r1 = p2, 1, r2
                else:
                    p1, q1, r1 = p, q, r
                    if op == TIMES:
                        p1 *= p2
                    elif p2 == 0:
                        continue  # divides by zero: not a term (a longer number may still follow)
                    else:
                        q1 *= p2 * r2
                    if r2 != 1:
                        a, r1 = squarefree_split(r1 * r2)
                        p1 *= a
                file(first, j, bit, size, p1, q1, r1)
        level = grown
    return filed, middles, most


def _join(faces: Sequence[Face], after_ops: list[int], filed: Filed, middles: Middles, most: int,
          terms: dict[int, tuple[int, int]]) -> list[int]:  # fmt: skip
    """The masks of every choice of at most `most` dice (the fewest found) that sums its terms to the value.

    A choice so far ends with a kept + or − die (or is empty, or a leading −): `need` is what its terms still
    lack, (r, numerator, denominator) in lowest terms, the zeros left out.
    """
    last_op = after_ops[-1] if after_ops else -1
    need0 = tuple((r, num, den) for r, (num, den) in terms.items())
    # (the die the next term must come after, that term's sign, need, mask, size)
    todo = [(-1, 1, need0, 0, 0)]
    todo += [(j, -1, need0, 1 << j, 1) for j in after_ops if faces[j] == MINUS]
    best = most
    found: list[int] = []
    while todo:
        after, sign, need, mask, size = todo.pop()
        if not need:
            key: Key | None = ZERO
        elif len(need) == 1:
            r, num, den = need[0]
            key = (r, sign * num, den)
        else:
            key = None  # two radicands: no single term can be what is missing
        for first, term_mask, term_size in filed.get(key, ()) if key is not None else ():
            total = size + term_size
            if first > after and total <= best:
                if total < best:
                    best, found = total, []
                found.append(mask | term_mask)
        if size + 3 > best:  # a term, a + or −, and a last term: three dice at least
            continue
        for first in range(after + 1, last_op):
            for term_mask, term_size, p, q, r, follow in middles[first]:
                size2 = size + term_size + 1
                if size2 + 1 > best:
                    continue
                # need − sign·p/q·√r
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
                need2 = tuple(rest)
                mask2 = mask | term_mask
                for op, op_sign, op_bit in follow:
                    todo.append((op, op_sign, need2, mask2 | op_bit, size2))
    return found


def equal_sub_formulas(faces: Sequence[Face], terms: dict[int, tuple[int, int]]) -> list[Kept]:
    """The proper sub-formulas (kept indexes, in order) of `faces` whose value has these `value_terms`: all of the
    fewest dice that any has, in the order `itertools.combinations` lists them; [] when none has the value."""
    n = len(faces)
    after_ops = [j for j in range(n) if faces[j] == PLUS or faces[j] == MINUS]
    filed, middles, most = _terms(faces, after_ops, terms)
    found = _join(faces, after_ops, filed, middles, most, terms)
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

"""Terms: every part of a formula between its + and − signs that a roll's dice can make, grouped by dice and value.

    DiceCounts ──numbers──▶ every number by usage code (a digit at a time) ──factors──▶ with √ and ²
    factors ──Terms (× ÷ and constants, a factor at a time)──▶ values by usage code ──terms_of──▶ faces

A term is factors ([√] number [²]) joined by × ÷, with ×10/×11/×12 after a factor; it never holds + or −. The
dice are counted as usage codes (one 5-bit field a distinct face, added up as ints:
suji.solver.dice_counts.DiceCounts), so "do these dice fit in the roll" and "are these dice among those" are an
addition and a mask. `Terms` grows every term a factor at a time as sets of values per set of dice (terms with
the same dice and value are one entry), and spells out the faces only for the values asked for (`terms_of`),
working backwards from the value: a factor's faces follow from its dice and value (its number's digits, with
the √ and ² it uses), so factors are kept as values only.

Given the largest target (`terms_for(dice, top)`), terms that can never be in a sum making a target are left
out as they are grown: `DiceCounts.room` bounds what the dice left beside a term can add, take away or divide
by, so a value beyond that bound is dropped with every term that would be grown from it. With fewer than two ÷
dice, or without + and − dice, only whole terms are summed, and a fraction (7÷2) is grown only while
`DiceCounts.multiplier`, the most the dice left can still multiply it by, is at least its denominator (7÷2×4).

Values are exact: ints, and reduced (numerator, denominator) pairs for fractions (suji.rules.exact's rationals
for hot loops). A √ of a non-square is irrational and left out (the caller lists every formula for rolls where
such a term could still add up to a whole target).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from math import gcd, inf, isqrt

from suji.core.caching import LruDict
from suji.rules.dice import CONSTANT_FACES, DIVIDE, ROOT, SQUARE, TIMES, face_readings
from suji.rules.exact import (
    Rational,
    at_most,
    divide_all,
    divide_within,
    multiply_all,
    multiply_within,
    q_div,
    q_mul,
)
from suji.solver.dice_counts import DiceCounts, Faces


def numbers(dice: DiceCounts, limit: Callable[[int], float] | None = None) -> dict[int, set[int]]:
    """Every number the number dice can make, by usage code; a 6 may be read as 9. A number's faces are its
    digits, so only values are kept.

    With a `limit` (by usage code), only the numbers up to it: a number's digits after it and its dice's limit
    only ever grow and shrink, so one beyond its limit is not grown on either.
    """
    dies = [(dice.bit[face], face_readings(face)) for face in dice.numbers]
    bias, high = dice.bias, dice.high
    found: dict[int, set[int]] = {}
    # A digit at a time: the numbers of k + 1 dice are those of k dice with one more die's digit after them.
    level: dict[int, set[int]] = {0: {0}}
    most: dict[int, float] = {}  # the limit by usage code, looked up once
    while level:
        grown: dict[int, set[int]] = {}
        for usage, values in level.items():
            for bit, readings in dies:
                joined = usage + bit
                if (joined + bias) & high:
                    continue
                if limit is None:
                    made = {v * 10 + d for v in values for d in readings}
                else:
                    cap = most.get(joined)
                    if cap is None:
                        cap = most[joined] = limit(joined)
                    made = {x for v in values for d in readings if (x := v * 10 + d) <= cap}
                    if not made:
                        continue
                into = grown.get(joined)
                if into is None:  # the first numbers of these dice: kept as they are
                    grown[joined] = made
                else:
                    into |= made
        found.update(grown)
        level = grown
    return found


def factors(dice: DiceCounts, bound: Callable[[int], float] | None = None) -> dict[int, set[int]]:
    """Every factor ([√] number [²]) with a rational value, grouped by usage code: the values. A factor's faces
    follow from its dice and value (`factor_spelling`).

    With a `bound` (by usage code), only the factors up to it. A root of a number beyond it may be within, so
    the numbers are limited by the root's bound squared where a √ die may come before them.
    """
    square = dice.bit[SQUARE] if dice.mulops.get(SQUARE, 0) else 0
    root = dice.bit[ROOT] if dice.mulops.get(ROOT, 0) else 0
    limit = bound
    if bound is not None and root:

        def limit(usage: int) -> float:
            rooted = bound(usage + root) ** 2 if dice.fits(usage + root) else 0
            return max(bound(usage), rooted)

    plain = numbers(dice, limit)
    groups: dict[int, set[int]] = {}
    for usage, values in plain.items():
        groups[usage] = values
        if square:
            groups[usage + square] = {n * n for n in values}
        if root:
            roots = {r for r in map(isqrt, values) if r * r in values}
            if roots:
                groups[usage + root] = roots
            if square and dice.fits(usage + root + square):
                groups[usage + root + square] = set(values)  # √n² is n
    if bound is not None:
        for usage, values in list(groups.items()):
            if not root and usage in plain:  # without a √ die `limit` is `bound`: made within it already
                continue
            if dice.fits(usage):
                most = bound(usage)
                if max(values) > most:
                    values = groups[usage] = {v for v in values if v <= most}
            if not values:
                del groups[usage]
    return groups


def factor_spelling(dice: DiceCounts, usage: int, value: int) -> Faces:
    """The faces of the one factor with these dice and value: its number's digits, with the √ and ² it uses."""
    square = usage & dice.square_field
    root = usage & dice.root_field
    if root and square:
        return (ROOT, *map(int, str(value)), SQUARE)
    if square:
        return (*map(int, str(isqrt(value))), SQUARE)
    if root:
        return (ROOT, *map(int, str(value * value)))
    return tuple(map(int, str(value)))


class Terms:
    """Every term (factors joined by × ÷, constant dice after factors): for each set of dice, the set of values.

    Terms are grown a factor at a time as sets of values per set of dice (so terms with the same dice and
    value are one entry). Faces are spelled out (`terms_of`) only for the few values that make a target, by
    working backwards from the value.
    """

    def __init__(self, dice: DiceCounts, top: int | None = None) -> None:
        bias, high = dice.bias, dice.high
        self.bias, self.high, self._dice = bias, high, dice
        # With the largest target `top`, a term can only matter up to a bound: top, plus what the dice left can
        # take away when there is a − die (no term is negative). Growing a term never makes it smaller but by
        # ÷, so a term is grown on only while a division by the dice left can still bring it within its bound.
        self._caps: dict[int, tuple[float, float, int]] = {}
        self._top, self._minus = top, dice.minus > 0
        caps, cap = self._caps, self._cap
        # Only ÷ makes a term a fraction, and a sum of whole numbers and a single fraction is never whole: with
        # fewer than two ÷ dice, or without + and − dice (a formula of one term), a fraction matters only on its
        # way to a whole term (7÷2 of 7÷2×4), so one whose denominator is beyond what the dice left can still
        # multiply it by is never made or grown.
        divides = dice.mulops.get(DIVIDE, 0)
        self.whole_only = whole_only = divides < 2 or not (dice.plus or dice.minus)
        # The factors ([√] number [²]) by their dice: their values (their faces follow from dice and value).
        # Without a ÷ die a term is at least each of its factors, so one beyond its bound is never in a term
        # that matters. A factor after a ÷ die is a divisor: with whole terms only, the divisors are at most the
        # product of the term's other factors and constants, which is at most what the dice left beside them can
        # make (DiceCounts.room). When fractions are summed, no bound.
        bound: Callable[[int], float] | None
        if top is None or not whole_only:
            bound = None
        elif divides:
            room = dice.room
            bound = lambda u: max((caps.get(u) or cap(u))[1], room(u)[0])  # noqa: E731
        else:
            bound = lambda u: (caps.get(u) or cap(u))[1]  # noqa: E731
        self._factors = {u: values for u, values in factors(dice, bound).items() if not (u + bias) & high}
        factor_groups = list(self._factors.items())
        f_least = {u: min(values) for u, values in factor_groups}  # each factor group's smallest value
        self.consts = [(c, CONSTANT_FACES[c], dice.bit[c]) for c in CONSTANT_FACES if dice.mulops.get(c)]
        self.mulops = [(op, dice.bit[op]) for op in (TIMES, DIVIDE) if dice.mulops.get(op)]
        multipliers = bool(dice.mulops.get(TIMES, 0) or self.consts)
        # factor_groups fitting beside a usage code, by the part of it that factors use (number, ² and √ dice).
        fitting: dict[int, list[tuple[int, set[int]]]] = {}
        factor_part = sum(31 * dice.bit[f] for f in dice.bit if type(f) is int or f in (SQUARE, ROOT))
        # The ÷ dice's field of a usage code: a term without them is whole.
        self._divide_field = divide_field = 31 * dice.bit[DIVIDE] if dice.mulops.get(DIVIDE, 0) else 0

        # A term is "open" when it ends with a factor (a constant die may follow) and "closed" after a constant.
        # A usage code's terms all have as many × ÷ and constant dice, one more each round: each usage code is met
        # in one round only, so its values are kept as they are (never changed afterwards).
        self.open: dict[int, set[Rational]] = {}
        self.closed: dict[int, set[Rational]] = {}
        frontier_open: dict[int, set[Rational]] = dict(self._factors)  # type: ignore[arg-type]
        frontier_closed: dict[int, set[Rational]] = {}
        while frontier_open or frontier_closed:
            # Products are made within their bound, and so are the factors without a ÷ die (see above): the open
            # terms without a ÷ die need no second look after the first round, nor in it without a ÷ die.
            frontier_open = self._growable(frontier_open, within=bool(self.open) or not divide_field)
            frontier_closed = self._growable(frontier_closed)
            grown_open: dict[int, set[Rational]] = defaultdict(set)
            grown_closed: dict[int, set[Rational]] = defaultdict(set)
            # The first round's open terms are the factors: a × b and b × a are one product, made once (b's
            # usage code not below a's). The other order adds nothing: a value left out of the frontier is beyond
            # its bound, and so is its product beyond the product's (fewer dice left, the bound is no larger).
            factors_only = not self.open
            for usage, values in frontier_open.items():
                self.open[usage] = values
                for _, k, bit in self.consts:
                    if not (usage + bit + bias) & high:
                        multiply_all(values, (k,), grown_closed[usage + bit])
            for usage, values in frontier_closed.items():
                self.closed[usage] = values
            for frontier in (frontier_open, frontier_closed):
                for usage, values in frontier.items():
                    whole = fractions = None
                    for op, bit in self.mulops:
                        with_op = usage + bit
                        if (with_op + bias) & high:
                            continue
                        groups = fitting.get(with_op & factor_part)
                        if groups is None:
                            key = with_op & factor_part
                            used = key + bias  # added once, not once a factor group
                            groups = fitting[key] = [
                                group for group in factor_groups if not (used + group[0]) & high
                            ]
                        if whole is None:
                            if not usage & divide_field:  # no ÷ die: every value is whole
                                whole, fractions = values, ()
                            else:
                                whole = [v for v in values if type(v) is int]
                                fractions = (
                                    [v for v in values if type(v) is not int] if len(whole) < len(values) else ()
                                )
                            least, largest = (min(whole), max(whole)) if whole else (0, 0)
                        for u, f_values in groups:
                            joined = with_op + u
                            if op == TIMES:
                                if factors_only and u < usage:
                                    continue
                                # Products beyond the bound would be dropped before the next round: not made.
                                cap_joined = caps.get(joined) or cap(joined)
                                bound = cap_joined[1]
                                if whole and least * f_least[u] <= bound:
                                    products = {x for v in whole for f in f_values if (x := v * f) <= bound}
                                    into = grown_open.get(joined)
                                    if into is None:  # the first products of these dice: kept as they are
                                        grown_open[joined] = products
                                    else:
                                        into |= products
                                if fractions and whole_only:
                                    # Only those the next round keeps (_growable): within the bound, and a
                                    # denominator the dice left can still multiply away.
                                    multiply_within(fractions, f_values, grown_open[joined], bound, cap_joined[2])
                                elif fractions:
                                    multiply_all(fractions, f_values, grown_open[joined])
                            elif whole_only:
                                # Without a × or constant die nothing can multiply a fraction back to a whole term.
                                most = (caps.get(joined) or cap(joined))[2] if multipliers else 1
                                # v ÷ f is whole only when f ≤ v, and a fraction is kept only when the dice left
                                # can multiply its denominator away (f ≤ v × most).
                                if f_least[u] > largest * most:
                                    pass  # every quotient below 1 / most
                                elif most == 1:  # whole quotients only (the most common case), made here
                                    quotients = {v // f for v in whole for f in f_values if not v % f}
                                    if quotients:
                                        into = grown_open.get(joined)
                                        if into is None:
                                            grown_open[joined] = quotients
                                        else:
                                            into |= quotients
                                else:
                                    _divide_whole(whole, f_values, grown_open[joined], most)
                                if fractions:  # two ÷ dice in one term: a fraction divided again
                                    divide_within(fractions, f_values, grown_open[joined], most)
                            else:
                                divide_all(values, f_values, grown_open[joined])
            frontier_open, frontier_closed = grown_open, grown_closed
        # The terms a sum may use (with fewer than two ÷ dice, whole ones only).
        self.by_usage: dict[int, set[Rational]] = {}
        opened, closed = self.open, self.closed
        for u in [*opened, *(u for u in closed if u not in opened)]:
            values = opened[u] | closed[u] if u in closed and u in opened else opened.get(u) or closed[u]
            bound = (caps.get(u) or cap(u))[0]
            if not u & self._divide_field:
                if values and max(values) > bound:  # type: ignore[type-var,operator]
                    values = {v for v in values if v <= bound}  # type: ignore[operator]
            elif whole_only:
                values = {v for v in values if type(v) is int and v <= bound}
            else:
                values = at_most(values, bound)  # type: ignore[arg-type]
            if values:
                self.by_usage[u] = values
        self._faces: dict[tuple[int, Rational, bool], list[Faces]] = {}
        self._split: dict[int, list[tuple[str, int, set[int], int]]] = {}

    def _cap(self, usage: int) -> tuple[float, float, int]:
        """(The largest value a term with these dice can have and still be in a sum that makes a target, the
        largest it can have and still be grown into such a term, the largest number the dice left can still
        multiply it by); no bound on values without a largest target."""
        dice = self._dice
        most, divisors, multiplier = dice._bounds(usage)  # each usage code once: the caps are kept
        final = inf if self._top is None else self._top + (most if self._minus else 0)
        found = self._caps[usage] = (final, final * divisors, multiplier)
        return found

    def _growable(self, frontier: dict[int, set[Rational]], within: bool = False) -> dict[int, set[Rational]]:
        """The frontier without the values that no growing can bring within their bound, nor (with fewer than
        two ÷ dice) the fractions that the dice left cannot multiply back to a whole number.

        `within`: the values of usage codes without a ÷ die are known to be within their bound already.
        """
        kept = {}
        caps, cap, whole_only, divide_field = self._caps, self._cap, self.whole_only, self._divide_field
        for usage, values in frontier.items():
            if not values:
                continue
            if not usage & divide_field:  # no ÷ die: whole values, often all within their bound
                if within:
                    kept[usage] = values
                    continue
                bound = (caps.get(usage) or cap(usage))[1]
                if max(values) > bound:  # type: ignore[type-var,operator]
                    values = {v for v in values if v <= bound}  # type: ignore[operator]
            elif whole_only:
                _, bound, most = caps.get(usage) or cap(usage)
                values = {
                    v
                    for v in values
                    if (v <= bound if type(v) is int else v[1] <= most and v[0] <= bound * v[1])  # type: ignore[operator,index]
                }
            else:
                values = at_most(values, (caps.get(usage) or cap(usage))[1])  # type: ignore[arg-type]
            if values:
                kept[usage] = values
        return kept

    def _spell(self, usage: int, value: Rational, is_open: bool) -> list[Faces]:
        """Every term with these dice and value that ends with a factor (open) or a constant die (closed)."""
        key = (usage, value, is_open)
        found = self._faces.get(key)
        if found is not None:
            return found
        found = []
        if is_open:
            if value in self._factors.get(usage, ()):
                found.append(factor_spelling(self._dice, usage, value))  # type: ignore[arg-type]
            for op, f_usage, f_values, rest in self._splits(usage):
                # A parent may be a fraction even when only whole terms are summed (7÷2 of 7÷2×4).
                rest_open, rest_closed = self.open.get(rest, ()), self.closed.get(rest, ())
                if op == TIMES and type(value) is int and not rest & self._divide_field:
                    # Whole terms without a ÷ die: the parents are the whole quotients.
                    parents = [(value // f, f) for f in f_values if not value % f]
                elif op == TIMES:
                    parents = [(q_div(value, f), f) for f in f_values]
                else:
                    parents = [(q_mul(value, f), f) for f in f_values]
                for parent, f_value in parents:
                    if parent in rest_open or parent in rest_closed:
                        b = factor_spelling(self._dice, f_usage, f_value)
                        found.extend(a + (op,) + b for a in self.terms_of(rest, parent))
        else:
            for face, k, bit in self.consts:
                rest = usage - bit
                if self.within(bit, usage) and rest:
                    parent = q_div(value, k)
                    if parent in self.open.get(rest, ()):
                        found.extend(f + (face,) for f in self._spell(rest, parent, True))
        self._faces[key] = found
        return found

    def _splits(self, usage: int) -> list[tuple[str, int, set[int], int]]:
        """The ways a term with these dice can end with × or ÷ and a factor: (the operator, the factor's dice and
        values, the dice of the term before it, which has terms), worked out once a usage code."""
        found = self._split.get(usage)
        if found is None:
            high, opened, closed = self.high, self.open, self.closed
            found = self._split[usage] = [
                (op, f_usage, f_values, rest)
                for op, bit in self.mulops
                for f_usage, f_values in self._factors.items()
                # within(f_usage + bit, usage), and the dice left make a term
                if ((usage | high) - f_usage - bit) & high == high
                and ((rest := usage - bit - f_usage) in opened or rest in closed)
            ]
        return found

    def within(self, part: int, whole: int) -> bool:
        """Whether the dice of `part` are among those of `whole` (no 5-bit field of part exceeds whole's)."""
        # Each field's top bit is free; a field that would go below zero borrows it.
        return ((whole | self.high) - part) & self.high == self.high

    def terms_of(self, usage: int, value: Rational) -> list[Faces]:
        """Every term (as faces) with these dice and this value."""
        found = []
        if value in self.open.get(usage, ()):
            found.extend(self._spell(usage, value, True))
        if value in self.closed.get(usage, ()):
            found.extend(self._spell(usage, value, False))
        return found


def _divide_whole(values: set[int], divisors: set[int], into: set[Rational], most: int) -> None:
    """Add v ÷ f to `into` for every whole value and divisor, leaving out the fractions whose denominator is
    beyond `most` (what the dice left can still multiply by; the caller makes whole quotients only itself)."""
    for f in divisors:
        for v in values:
            if not v % f:
                into.add(v // f)
            else:
                g = gcd(v, f)
                if f // g <= most:
                    into.add((v // g, f // g))


_TERMS = LruDict("solver_terms")  # DiceCounts key → Terms


def terms_for(dice: DiceCounts, top: int | None = None) -> Terms:
    """The terms of these number and ×/÷/constant/²/√ dice that can matter for targets up to `top` (None: every
    term), cached: re-roll advice solves many rolls that differ only in their + and − dice, which terms never
    use but for whether a − die can take a large term back down, and whether there is a sign die at all."""
    key = (
        tuple(sorted(dice.numbers.elements())),
        tuple(sorted(dice.mulops.elements())),
        top,
        dice.minus > 0,
        not (dice.plus or dice.minus),  # a formula of one term: whole terms only (see Terms)
    )
    terms = _TERMS.get(key)
    if terms is None:
        terms = Terms(dice, top)
        _TERMS.put(key, terms)
    return terms


def clear_cache() -> None:
    """Forget every roll's terms (the benchmark times each solve from scratch)."""
    _TERMS.clear()

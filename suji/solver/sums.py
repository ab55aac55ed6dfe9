"""Sums: the signed sums of terms that land on a target, found without listing the formulas that miss.

    Terms (suji.solver.terms) ──term_groups──▶ one TermGroup a set of dice (its values, their range)
    TermGroups + the + and − dice ──find_sums──▶ every multiset of signed terms whose sum is a target
    a hit ──spell_sum──▶ every formula writing it (each spelling of each term, each order the signs allow)

`find_sums` grows multisets of term groups whose dice fit in the roll (group indexes never decrease, so each
multiset once), keeping the range their sum can take, and drops a branch as soon as no target is in reach, even
with the most that the dice left can still add or take away (suji.solver.terms.DiceCounts.room). For
each multiset it loops over the values of all terms but the one with the most values and looks that last one
up by the value it would need: in the sorted whole values when they are few, else by trying each target.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import permutations, product

from suji.rules.dice import MINUS, PLUS
from suji.rules.exact import Rational, q_add, q_float, q_neg
from suji.rules.language.spelling import Face
from suji.solver.terms import DiceCounts, Faces, Terms

# A term picked for a sum: (sign, usage code, value).
Picked = tuple[int, int, Rational]
# What find_sums reports: the picked terms, how many are positive and negative, and the target they make.
OnHit = Callable[[list[Picked], int, int, int], None]


@dataclass(frozen=True, slots=True)
class TermGroup:
    """The terms of one set of dice: their values, the range of those values (a little widened, to compare
    floats safely), the whole values sorted and the fractional ones."""

    usage: int
    values: set[Rational]
    lo: float
    hi: float
    whole: list[int]
    fractions: list[Rational]


def term_groups(terms: Terms) -> list[TermGroup]:
    groups = []
    for usage in sorted(terms.by_usage):
        values = terms.by_usage[usage]
        whole = sorted([v for v in values if type(v) is int])
        fractions = [v for v in values if type(v) is not int]
        floats = [v[0] / v[1] for v in fractions]
        if whole:
            floats += (whole[0], whole[-1])
        groups.append(TermGroup(usage, values, min(floats) - 1e-6, max(floats) + 1e-6, whole, fractions))
    return groups


def _partial_sums(others: Sequence[tuple[int, TermGroup]]) -> Iterator[tuple[tuple[Rational, ...], Rational]]:
    """Each choice of one value per signed group, with the sum of the choice (an int while it stays whole)."""
    signs = [s for s, _ in others]
    for combo in product(*(g.values for _, g in others)):
        partial: Rational = 0
        for s, v in zip(signs, combo, strict=True):
            if type(partial) is int and type(v) is int:
                partial = partial + v if s > 0 else partial - v
            else:
                partial = q_add(partial, v if s > 0 else q_neg(v))
        yield combo, partial


def find_sums(dice: DiceCounts, terms: Terms, targets: set[int], on_hit: OnHit) -> None:
    """Call on_hit(picked, p, q, target) for every multiset of signed terms whose sum is a target.

    p and q count the positive and negative terms; which orders the sign dice allow is the caller's business.
    """
    _SumSearch(dice, terms, targets, on_hit).run()


class _SumSearch:
    """One search: the roll's term groups, the sign dice, the targets and where to report each hit."""

    def __init__(self, dice: DiceCounts, terms: Terms, targets: set[int], on_hit: OnHit) -> None:
        self.bias, self.high = dice.bias, dice.high
        self.plus, self.minus = dice.plus, dice.minus
        self.targets, self.on_hit = targets, on_hit
        self.low_target, self.high_target = min(targets), max(targets)
        self.many = len(targets)  # more values in range than targets: try the targets instead
        self.most_terms = 1 + dice.plus + dice.minus
        self.room = dice.room  # what the dice left beside a multiset's can still add or take away
        self.groups = term_groups(terms)
        self._compatible: list[list[int] | None] = [None] * len(self.groups)
        # fits[p][q]: whether p positive and q negative terms fit the sign dice (looked up, not worked out, in
        # the search's innermost loop).
        most = self.most_terms + 1
        self.fits = [[self.fits_signs(p, q) for q in range(most + 1)] for p in range(most + 1)]

    def run(self) -> None:
        for i, group in enumerate(self.groups):
            for sign in (1, -1):
                p, q = int(sign > 0), int(sign < 0)
                if self.fits_signs(p, q):
                    lo, hi = (group.lo, group.hi) if sign > 0 else (-group.hi, -group.lo)
                    self.grow([(sign, group)], group.usage, i, p, q, lo, hi)

    def fits_signs(self, p: int, q: int) -> bool:
        """Whether p positive and q negative terms fit the sign dice: a positive term first needs no die, a
        negative term first needs the leading − die."""
        if q > self.minus:
            return False
        return (p >= 1 and p - 1 <= self.plus) or (q >= 1 and p <= self.plus)

    def compatible_with(self, i: int) -> list[int]:
        """The groups j ≥ i whose dice fit beside group i's (a term may repeat if the dice allow); worked out on
        first use, since a roll without + or − dice never needs them."""
        found = self._compatible[i]
        if found is None:
            usage, bias, high, groups = self.groups[i].usage, self.bias, self.high, self.groups
            found = self._compatible[i] = [
                j for j in range(i, len(groups)) if not (usage + groups[j].usage + bias) & high
            ]
        return found

    def grow(self, chosen: list[tuple[int, TermGroup]], usage: int, last: int, p: int, q: int, lo: float,
             hi: float) -> None:  # fmt: skip
        """Evaluate the multiset `chosen` (p positive, q negative terms; its sum within [lo, hi]) if a target is
        in reach, then every multiset one term larger."""
        low_target, high_target = self.low_target, self.high_target
        if lo <= high_target and hi >= low_target:
            self.evaluate(chosen, p, q)
        if p + q == self.most_terms:
            return
        fits = self.fits
        # What one more term may be: positive (with a − die left for later, or a sum that can still come down
        # to a target), negative (if a + die is left for later, or the sum can still reach up to a target).
        add_plus, add_minus = fits[p + 1][q], fits[p][q + 1]
        minus_left, plus_after_minus = q < self.minus, fits[p + 1][q + 1]
        if not (add_plus or add_minus):
            return
        bias, high, groups, room = self.bias, self.high, self.groups, self.room
        # A multiset one term larger is only worth a call when a target is in its reach or in that of the terms
        # the dice left can still add (up to their room, and only with a sign die left for them): near the
        # leaves the room is small, so most branches end here.
        down_after_plus, up_after_plus = fits[p + 1][q + 1], fits[p + 2][q]
        down_after_minus, up_after_minus = fits[p][q + 2], plus_after_minus
        for i in self.compatible_with(last):
            group = groups[i]
            joined = usage + group.usage
            if (joined + bias) & high:
                continue
            reach = room(joined)[0]
            if add_plus and (minus_left or lo + group.lo <= high_target):
                new_lo, new_hi = lo + group.lo, hi + group.hi
                if (new_lo - reach if down_after_plus else new_lo) <= high_target and (
                    new_hi + reach if up_after_plus else new_hi
                ) >= low_target:
                    chosen.append((1, group))
                    self.grow(chosen, joined, i, p + 1, q, new_lo, new_hi)
                    chosen.pop()
            # With no + die left for later terms, a sum already below every target stays below.
            if add_minus and (plus_after_minus or hi - group.lo >= low_target):
                new_lo, new_hi = lo - group.hi, hi - group.lo
                if (new_lo - reach if down_after_minus else new_lo) <= high_target and (
                    new_hi + reach if up_after_minus else new_hi
                ) >= low_target:
                    chosen.append((-1, group))
                    self.grow(chosen, joined, i, p, q + 1, new_lo, new_hi)
                    chosen.pop()

    def evaluate(self, chosen: list[tuple[int, TermGroup]], p: int, q: int) -> None:
        """Report every sum of the chosen terms that lands on a target: each value of all terms but the one with
        the most values, and that last one looked up."""
        last, most = 0, -1
        for k, (_, group) in enumerate(chosen):
            if len(group.values) > most:
                last, most = k, len(group.values)
        s_last, g_last = chosen[last]
        others = chosen[:last] + chosen[last + 1 :]
        # The range the last term adds, with its sign.
        last_lo, last_hi = (g_last.lo, g_last.hi) if s_last > 0 else (-g_last.hi, -g_last.lo)
        low, high = self.low_target, self.high_target
        on_hit, landings = self.on_hit, self._landings
        if len(others) == 1:
            # The common case of a sum of two terms: only the other term's values that can bring the sum
            # within reach of a target, its whole values found by bisection.
            (s, g), u_last = others[0], g_last.usage
            v_lo, v_hi = low - last_hi, high - last_lo  # the range s·v must be in
            if s < 0:
                v_lo, v_hi = -v_hi, -v_lo
            whole = g.whole
            for v in whole[bisect_left(whole, v_lo) : bisect_right(whole, v_hi)]:
                for need, target in landings(v if s > 0 else -v, True, s_last, g_last):
                    on_hit([(s, g.usage, v), (s_last, u_last, need)], p, q, target)
            for v in g.fractions:
                partial = v if s > 0 else q_neg(v)
                near = q_float(partial)
                if near + last_hi < low or near + last_lo > high:
                    continue
                for need, target in landings(partial, False, s_last, g_last):
                    on_hit([(s, g.usage, v), (s_last, u_last, need)], p, q, target)
            return
        for combo, partial in _partial_sums(others):
            whole = type(partial) is int
            near = partial if whole else q_float(partial)
            if near + last_hi < low or near + last_lo > high:
                continue
            for need, target in landings(partial, whole, s_last, g_last):
                picked = [(s, g.usage, v) for (s, g), v in zip(others, combo, strict=True)]
                picked.append((s_last, g_last.usage, need))
                on_hit(picked, p, q, target)

    def _landings(self, partial: Rational, whole: bool, sign: int, group: TermGroup) -> Iterator[tuple[Rational, int]]:
        """The values `need` of the last term (added with `sign`) that make partial ± need a target, with it."""
        if whole:
            return self._whole_landings(partial, sign, group)  # type: ignore[arg-type]
        return self._fraction_landings(partial, sign, group)

    def _whole_landings(self, partial: int, sign: int, group: TermGroup) -> Iterator[tuple[Rational, int]]:
        targets = self.targets
        # The whole values of the last term that put the sum between the lowest and highest target: a few are
        # looked through in order, many are looked up target by target.
        lo, hi = (self.low_target - partial, self.high_target - partial) if sign > 0 else \
            (partial - self.high_target, partial - self.low_target)  # fmt: skip
        i, j = bisect_left(group.whole, lo), bisect_right(group.whole, hi)
        if j - i <= self.many:
            for need in group.whole[i:j]:
                t = partial + need if sign > 0 else partial - need
                if t in targets:
                    yield need, t
        else:
            for t in targets:
                need = t - partial if sign > 0 else partial - t
                if need in group.values:
                    yield need, t

    def _fraction_landings(self, partial: Rational, sign: int, group: TermGroup) -> Iterator[tuple[Rational, int]]:
        # A fractional partial sum needs a fractional last term (a whole one never lands on a whole target).
        if len(group.fractions) <= self.many:
            for need in group.fractions:
                t = q_add(partial, need if sign > 0 else q_neg(need))
                if type(t) is int and t in self.targets:
                    yield need, t
        else:
            for t in self.targets:
                need = q_add(t, q_neg(partial))
                if sign < 0:
                    need = q_neg(need)
                if need in group.values:
                    yield need, t


def arrangements(parts: list[tuple[int, Faces]], dice: DiceCounts, first: int = 0) -> Iterable[Faces]:
    """Every formula writing these signed terms in some order that the sign dice allow.

    `first` (1 or −1) keeps only the orders whose first term has that sign; 0 keeps all.
    """
    positive = sum(1 for s, _ in parts if s > 0)
    if len(parts) - positive > dice.minus:
        return
    for order in set(permutations(parts)):
        sign = order[0][0]
        if (first and sign != first) or positive - (sign > 0) > dice.plus:
            continue
        faces: list[Face] = [MINUS] if sign < 0 else []
        faces.extend(order[0][1])
        for s, term in order[1:]:
            faces.append(PLUS if s > 0 else MINUS)
            faces.extend(term)
        yield tuple(faces)


def spell_sum(terms: Terms, dice: DiceCounts, picked: list[Picked], first: int = 0) -> Iterable[Faces]:
    """Every formula writing these signed terms (any spelling of each, any order the sign dice allow)."""
    choices = [[(s, faces) for faces in terms.terms_of(u, v)] for s, u, v in picked]
    for parts in product(*choices):
        yield from arrangements(list(parts), dice, first)


def find_hits(dice: DiceCounts, terms: Terms, targets: set[int]) -> dict[int, set[Faces]]:
    """Every formula whose value is a target, grouped by target."""
    hits: dict[int, set[Faces]] = defaultdict(set)

    def on_hit(picked: list[Picked], p: int, q: int, target: int) -> None:
        hits[target].update(spell_sum(terms, dice, picked))

    find_sums(dice, terms, targets, on_hit)
    return hits

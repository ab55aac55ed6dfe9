"""Sums: the signed sums of terms that land on a target, found without listing the formulas that miss.

    Terms (suji.solver.terms) ──term_groups──▶ one TermGroup a set of dice (its values, their range)
    TermGroups + the + and − dice ──find_sums──▶ every multiset of signed terms whose sum is a target
    a hit ──spell_sum──▶ every formula writing it (each spelling of each term, each order the signs allow)

`find_sums` grows multisets of term groups whose dice fit in the roll (group indexes never decrease, so each
multiset once; each node keeps the groups that may still come next), keeping the range their sum can take, and
drops a branch as soon as no target is in reach, even with the most that the dice left can still add or take
away (suji.solver.terms.DiceCounts.room). For each multiset it loops over the values of all terms but the one
with the most values, only those that keep the sum within reach (by bisection in their sorted values), and
looks that last one up: with whole terms (fewer than two ÷ dice) by the values the targets need, one set test
for all targets; with fractions in the sorted whole values when they are few, else by trying each target.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import permutations, product
from typing import NamedTuple

from suji.rules.dice import MINUS, PLUS
from suji.rules.exact import Rational, q_add, q_float, q_neg
from suji.rules.language.spelling import Face
from suji.solver.terms import DiceCounts, Faces, Terms

# A term picked for a sum: (sign, usage code, value).
Picked = tuple[int, int, Rational]
# A group that may come next in a sum: (usage, lo, hi, group).
Candidate = tuple[int, float, float, "TermGroup"]
# What find_sums reports: the picked terms, how many are positive and negative, and the target they make.
OnHit = Callable[[list[Picked], int, int, int], None]


class TermGroup(NamedTuple):
    """The terms of one set of dice: their values, the range of those values (a little widened when some are
    fractions, to compare floats safely), the whole values sorted and the fractional ones."""

    usage: int
    values: set[Rational]
    lo: float
    hi: float
    whole: list[int]
    fractions: list[Rational]


def term_groups(terms: Terms) -> list[TermGroup]:
    """The term groups of a search, by usage code."""
    groups = []
    by_usage = terms.by_usage
    for usage in sorted(by_usage):
        values = by_usage[usage]
        if terms.whole_only:  # whole values only: the range is exact
            whole = sorted(values)  # type: ignore[type-var]
            groups.append(TermGroup(usage, values, whole[0], whole[-1], whole, []))
            continue
        whole = sorted([v for v in values if type(v) is int])
        fractions = [v for v in values if type(v) is not int]
        floats = [v[0] / v[1] for v in fractions]  # type: ignore[index]
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
        self.target_list = sorted(targets)
        self.low_target, self.high_target = min(targets), max(targets)
        self.many = len(targets)  # more values in range than targets: try the targets instead
        self.most_terms = 1 + dice.plus + dice.minus
        self.room = dice.room  # what the dice left beside a multiset's can still add or take away
        self.reach: dict[int, int] = {}  # the room's largest sum by usage code, looked up in the hot loop
        self.groups = term_groups(terms)
        # Whole terms only (always, unless two ÷ dice were rolled): the sums are ints and a quicker evaluation
        # looks the last term up by the values it would need.
        self.evaluate = self._evaluate_whole if terms.whole_only else self._evaluate_rational
        # fits[p][q]: whether p positive and q negative terms fit the sign dice (looked up, not worked out, in
        # the search's innermost loop).
        most = self.most_terms + 1
        self.fits = fits = [[self.fits_signs(p, q) for q in range(most + 2)] for p in range(most + 2)]
        # steps[p][q]: for a multiset of p positive and q negative terms, what one more term may be, worked out
        # once: positive (with a − die left for later, or a sum that can still come down to a target), negative
        # (if a + die is left for later, or the sum can still reach up to a target); whether the terms the dice
        # left can still add may take the sum down or up afterwards; whether the larger multiset is the last.
        self.steps = [
            [
                (
                    fits[p + 1][q],
                    fits[p][q + 1],
                    q < self.minus,
                    fits[p + 1][q + 1],
                    fits[p + 1][q + 1],
                    fits[p + 2][q],
                    fits[p][q + 2],
                    p + q + 1 == self.most_terms,
                )
                if fits[p + 1][q] or fits[p][q + 1]
                else None
                for q in range(most)
            ]
            for p in range(most)
        ]

    def run(self) -> None:
        low_target, high_target, most_terms = self.low_target, self.high_target, self.most_terms
        bias, high = self.bias, self.high
        everything = [(g.usage, g.lo, g.hi, g) for g in self.groups]
        for i, group in enumerate(self.groups):
            candidates = None
            for sign in (1, -1):
                p, q = int(sign > 0), int(sign < 0)
                if self.fits_signs(p, q):
                    lo, hi = (group.lo, group.hi) if sign > 0 else (-group.hi, -group.lo)
                    chosen = [(sign, group)]
                    if lo <= high_target and hi >= low_target:
                        self.evaluate(chosen, p, q)
                    if p + q < most_terms:
                        if candidates is None:
                            usage = group.usage
                            candidates = [c for c in everything[i:] if not (usage + c[0] + bias) & high]
                        self.grow(chosen, group.usage, candidates, p, q, lo, hi)

    def fits_signs(self, p: int, q: int) -> bool:
        """Whether p positive and q negative terms fit the sign dice: a positive term first needs no die, a
        negative term first needs the leading − die."""
        if q > self.minus:
            return False
        return (p >= 1 and p - 1 <= self.plus) or (q >= 1 and p <= self.plus)

    def grow(self, chosen: list[tuple[int, TermGroup]], usage: int, candidates: list[Candidate], p: int, q: int,
             lo: float, hi: float) -> None:  # fmt: skip
        """Evaluate every multiset one term larger than `chosen` (p positive, q negative terms; its sum within
        [lo, hi]) with a target in reach, and grow it in turn unless it is as large as the sign dice allow.

        `candidates` are the groups that may come next (at or after the last one chosen, so each multiset comes
        once; a term may repeat if the dice allow) whose dice fit beside `usage`."""
        step = self.steps[p][q]
        if step is None:
            return
        add_plus, add_minus, minus_left, plus_after_minus, down_after_plus, up_after_plus, down_after_minus, \
            last_size = step  # fmt: skip
        up_after_minus = plus_after_minus
        low_target, high_target = self.low_target, self.high_target
        bias, high, reach_of, evaluate = self.bias, self.high, self.reach, self.evaluate
        # A multiset one term larger is only worth a look when a target is in its reach or in that of the terms
        # the dice left can still add (up to their room, and only with a sign die left for them): near the
        # leaves the room is small, so most branches end here.
        for k, (g_usage, g_lo, g_hi, group) in enumerate(candidates):
            joined = usage + g_usage
            reach = reach_of.get(joined)
            if reach is None:
                reach = reach_of[joined] = self.room(joined)[0]
            after = None  # the candidates after this one, worked out when a larger multiset grows
            if add_plus and (minus_left or lo + g_lo <= high_target):
                new_lo, new_hi = lo + g_lo, hi + g_hi
                if (new_lo - reach if down_after_plus else new_lo) <= high_target and (
                    new_hi + reach if up_after_plus else new_hi
                ) >= low_target:
                    chosen.append((1, group))
                    if new_lo <= high_target and new_hi >= low_target:
                        evaluate(chosen, p + 1, q)
                    if not last_size:
                        after = [c for c in candidates[k:] if not (joined + c[0] + bias) & high]
                        if after:
                            self.grow(chosen, joined, after, p + 1, q, new_lo, new_hi)
                    chosen.pop()
            # With no + die left for later terms, a sum already below every target stays below.
            if add_minus and (plus_after_minus or hi - g_lo >= low_target):
                new_lo, new_hi = lo - g_hi, hi - g_lo
                if (new_lo - reach if down_after_minus else new_lo) <= high_target and (
                    new_hi + reach if up_after_minus else new_hi
                ) >= low_target:
                    chosen.append((-1, group))
                    if new_lo <= high_target and new_hi >= low_target:
                        evaluate(chosen, p, q + 1)
                    if not last_size:
                        if after is None:
                            after = [c for c in candidates[k:] if not (joined + c[0] + bias) & high]
                        if after:
                            self.grow(chosen, joined, after, p, q + 1, new_lo, new_hi)
                    chosen.pop()

    def _evaluate_whole(self, chosen: list[tuple[int, TermGroup]], p: int, q: int) -> None:
        """Report every sum of the chosen whole terms that lands on a target: the values of all terms but the one
        with the most values that keep the sum within reach (by bisection in their sorted values), and that
        last one looked up by the value each target needs."""
        on_hit, targets = self.on_hit, self.target_list
        if len(chosen) != 2:
            if len(chosen) == 1:
                sign, group = chosen[0]
                if sign > 0:  # one term, never negative
                    for t in targets:
                        if t in group.values:
                            on_hit([(sign, group.usage, t)], p, q, t)
            else:
                self._evaluate_many(chosen, p, q)
            return
        # The common case of a sum of two terms, written out.
        (s, g), (s_last, g_last) = chosen
        if len(g.values) > len(g_last.values):
            (s, g), (s_last, g_last) = chosen[1], chosen[0]
        if s_last > 0:
            v_lo, v_hi = self.low_target - g_last.hi, self.high_target - g_last.lo  # the range s·v must be in
        else:
            v_lo, v_hi = self.low_target + g_last.lo, self.high_target + g_last.hi
        if s < 0:
            v_lo, v_hi = -v_hi, -v_lo
        whole, last_values = g.whole, g_last.values
        for v in whole[bisect_left(whole, v_lo) : bisect_right(whole, v_hi)]:
            partial = v if s > 0 else -v
            needs = [t - partial for t in targets] if s_last > 0 else [partial - t for t in targets]
            if last_values.isdisjoint(needs):
                continue
            for t, need in zip(targets, needs, strict=True):
                if need in last_values:
                    on_hit([(s, g.usage, v), (s_last, g_last.usage, need)], p, q, t)

    def _evaluate_many(self, chosen: list[tuple[int, TermGroup]], p: int, q: int) -> None:
        """`_evaluate_whole` for three terms or more: the values of the first others that keep the sum within
        reach, each time, then those of the next (three terms, the common case, as two loops)."""
        on_hit, targets = self.on_hit, self.target_list
        last = max(range(len(chosen)), key=lambda k: len(chosen[k][1].values))
        s_last, g_last = chosen[last]
        others = chosen[:last] + chosen[last + 1 :]
        # rest[k]: the range the terms after others[k] add (the last one included), with their signs.
        lo, hi = (g_last.lo, g_last.hi) if s_last > 0 else (-g_last.hi, -g_last.lo)
        rest = [(lo, hi)]
        for s, g in reversed(others[1:]):
            lo, hi = (lo + g.lo, hi + g.hi) if s > 0 else (lo - g.hi, hi - g.lo)
            rest.append((lo, hi))
        rest.reverse()
        low, high, last_values, u_last = self.low_target, self.high_target, g_last.values, g_last.usage
        # Partial sums of all others but the final one, each with its picked terms.
        partials: list[tuple[int, list[Picked]]] = [(0, [])]
        for k in range(len(others) - 1):
            s, g = others[k]
            rest_lo, rest_hi = rest[k]
            whole, grown = g.whole, []
            for partial, picked in partials:
                v_lo, v_hi = low - partial - rest_hi, high - partial - rest_lo  # the range s·v must be in
                if s < 0:
                    v_lo, v_hi = -v_hi, -v_lo
                for v in whole[bisect_left(whole, v_lo) : bisect_right(whole, v_hi)]:
                    grown.append((partial + v if s > 0 else partial - v, [*picked, (s, g.usage, v)]))
            partials = grown
        s, g = others[-1]
        rest_lo, rest_hi = rest[-1]
        whole, usage = g.whole, g.usage
        for partial, picked in partials:
            v_lo, v_hi = low - partial - rest_hi, high - partial - rest_lo
            if s < 0:
                v_lo, v_hi = -v_hi, -v_lo
            for v in whole[bisect_left(whole, v_lo) : bisect_right(whole, v_hi)]:
                sum_ = partial + v if s > 0 else partial - v
                needs = [t - sum_ for t in targets] if s_last > 0 else [sum_ - t for t in targets]
                if last_values.isdisjoint(needs):
                    continue
                for t, need in zip(targets, needs, strict=True):
                    if need in last_values:
                        on_hit([*picked, (s, usage, v), (s_last, u_last, need)], p, q, t)

    def _evaluate_rational(self, chosen: list[tuple[int, TermGroup]], p: int, q: int) -> None:
        """Report every sum of the chosen terms (some of them fractions) that lands on a target: each value of all
        terms but the one with the most values, and that last one looked up."""
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

    def _landings(
        self, partial: Rational, whole: bool, sign: int, group: TermGroup
    ) -> Iterator[tuple[Rational, int]]:
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

    def _fraction_landings(
        self, partial: Rational, sign: int, group: TermGroup
    ) -> Iterator[tuple[Rational, int]]:
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

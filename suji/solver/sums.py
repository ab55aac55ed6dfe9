"""Sums: the signed sums of terms that land on a target, found without listing the formulas that miss.

    Terms (suji.solver.terms) ──term_groups──▶ one TermGroup a set of dice (its values, their range)
    TermGroups + the + and − dice ──find_sums──▶ every multiset of signed terms whose sum is a target
    a hit ──spell_sum──▶ every formula writing it (each spelling of each term, each order the signs allow)

`find_sums` grows multisets of term groups whose dice fit in the roll (group indexes never decrease, so each
multiset once; each node keeps the groups that may still come next), keeping the range their sum can take and
the set of its partial sums, and drops a branch, or a partial sum, as soon as no target is in reach, even with
the most that the dice left can still add or take away (suji.solver.dice_counts.DiceCounts.room). The groups come in
falling order of their largest values, so every term still to come is at most as large as the next one: a node
stops at the first candidate that, with as many such terms as the + dice allow, stays below every target (most
branches end as small terms that the dice left cannot make up for). A node works out once the values a last
term would need to land its partial sums on a target, added or taken away, when a target lies within a
candidate's range (the targets lie apart, so often none does); then the candidate is one set test
(`isdisjoint`), and only a group that passes is looked at value by value. A multiset one term short of the largest
the sign dice allow is grown only when the values its partial sums would need and the values its candidates hold, as
bitsets, meet (in `deeper`): most such multisets lead nowhere. Fractions (two ÷ dice) go the same
way in suji.rules.exact's rationals.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from itertools import permutations, product
from operator import itemgetter

from suji.core.caching import bounded
from suji.rules.dice import MINUS, PLUS
from suji.rules.exact import Rational, q_add, q_float, q_neg
from suji.rules.language.spelling import Face
from suji.solver.dice_counts import DiceCounts, Faces
from suji.solver.terms import Terms

# A term picked for a sum: (sign, usage code, value).
Picked = tuple[int, int, Rational]
# What find_sums reports: the picked terms, how many are positive and negative, and the target they make.
OnHit = Callable[[list[Picked], int, int, int], None]


# The terms of one set of dice: (usage code, lo, hi, values), lo and hi the range of the values (a little widened
# when some are fractions, to compare floats safely). A plain tuple: the search makes one a group and unpacks it
# in its loops.
TermGroup = tuple[int, float, float, set[Rational]]


def term_groups(terms: Terms) -> list[TermGroup]:
    """The term groups of a search, in falling order of their largest values (then by usage code)."""
    if terms.whole_only:  # whole values only: the range is exact
        groups = [(u, min(v), max(v), v) for u, v in sorted(terms.by_usage.items())]  # type: ignore[type-var]
    else:
        groups = []
        for usage, values in sorted(terms.by_usage.items()):
            floats = [q_float(v) for v in values]
            groups.append((usage, min(floats) - 1e-6, max(floats) + 1e-6, values))
    groups.sort(key=itemgetter(2), reverse=True)  # by the largest value; stable: ties stay in order of usage code
    return groups


def find_sums(dice: DiceCounts, terms: Terms, targets: set[int], on_hit: OnHit) -> None:
    """Call on_hit(picked, p, q, target) for every multiset of signed terms whose sum is a target.

    p and q count the positive and negative terms; which orders the sign dice allow is the caller's business.
    """
    _SumSearch(dice, terms, targets, on_hit).run()


def fits_signs(plus: int, minus: int, p: int, q: int) -> bool:
    """Whether p positive and q negative terms fit these sign dice: a positive term first needs no die, a
    negative term first needs the leading − die."""
    if q > minus:
        return False
    return (p >= 1 and p - 1 <= plus) or (q >= 1 and p <= plus)


SignTables = tuple[list[list[bool]], list[list[tuple | None]]]


@bounded("sign_tables")  # a few sizes of + and − dice, and every search asks for its own
def sign_tables(plus: int, minus: int) -> SignTables:
    """What the sign dice allow, as tables the search looks up rather than works out in its innermost loop.

    fits[p][q]: whether p positive and q negative terms fit the sign dice. steps[p][q]: for a multiset of p
    positive and q negative terms, what one more term may be: positive (with a − die left for later, or a sum
    that can still come down to a target), negative (if a + die is left for later, or the sum can still reach up
    to a target); whether the terms the dice left can still add may take the sum down or up afterwards; whether
    the larger multiset is the last; how many more positive terms this multiset may still take, at most (what
    the + dice and the places left allow). None when no term may come.
    """
    most_terms = 1 + plus + minus
    most = most_terms + 1
    fits = [[fits_signs(plus, minus, p, q) for q in range(most + 2)] for p in range(most + 2)]
    steps = [
        [
            (
                fits[p + 1][q],
                fits[p][q + 1],
                q < minus,
                fits[p + 1][q + 1],
                fits[p + 1][q + 1],
                fits[p + 2][q],
                fits[p][q + 2],
                p + q + 1 == most_terms,
                min(most_terms - p - q, plus + 1 - p),
            )
            if fits[p + 1][q] or fits[p][q + 1]
            else None
            for q in range(most)
        ]
        for p in range(most)
    ]
    return fits, steps


class _SumSearch:
    """One search: the roll's term groups, the sign dice, the targets and where to report each hit."""

    def __init__(self, dice: DiceCounts, terms: Terms, targets: set[int], on_hit: OnHit) -> None:
        self.bias, self.high = dice.bias, dice.high
        self.plus, self.minus = dice.plus, dice.minus
        self.targets, self.on_hit = targets, on_hit
        self.target_list = sorted(targets)
        self.low_target, self.high_target = min(targets), max(targets)
        self.most_terms = 1 + dice.plus + dice.minus
        # The number part of a usage code, and that of all the number dice.
        self.number_mask, self.all_numbers = dice.number_mask, dice.all_numbers
        self.room = dice.room  # what the dice left beside a multiset's can still add or take away
        self.reach: dict[int, int] = {}  # the room's largest sum by usage code, looked up in the hot loop
        self.groups = term_groups(terms)
        # Whole terms only (always, unless two ÷ dice were rolled): the sums are ints and a quicker evaluation
        # looks the last term up by the values it would need.
        self.whole = terms.whole_only
        # With whole terms, the values a last term would need are kept as bitsets where they are at most the
        # largest target (bit v set: v is needed), and so are each group's values up to it (`bits`, as asked):
        # a candidate is then one `&` of two ints. The targets, and the targets reflected (bit top − t), as bits.
        top = self.high_target
        self.target_bits = sum(1 << t for t in targets)
        self.reflected_bits = sum(1 << (top - t) for t in targets)
        self.bits_of: dict[int, int] = {}
        self.fits, self.steps = sign_tables(dice.plus, dice.minus)

    def run(self) -> None:
        most_terms, fits, low, top = self.most_terms, self.fits, self.low_target, self.high_target
        bias, high, whole, targets = self.bias, self.high, self.whole, self.targets
        # Groups come in falling order of their largest values: once a sum of the largest positive terms the
        # sign dice allow, each no larger than this group's, stays below every target, it does for every group after.
        most_plus = min(most_terms, self.plus + 1)
        for i, group in enumerate(self.groups):
            usage, g_lo, g_hi, values = group
            if g_hi * most_plus < low:
                break
            candidates = None
            if not values.isdisjoint(targets):  # one term, never negative
                for t in self.target_list:
                    if t in values:
                        self.on_hit([(1, usage, t)], 1, 0, t)
            if most_terms == 1:
                continue
            if usage & self.number_mask == self.all_numbers:  # no number die left for a term
                continue
            reach = self.room(usage)[0]
            for sign in (1, -1):
                p, q = int(sign > 0), int(sign < 0)
                if fits[p][q]:
                    lo, hi = (g_lo, g_hi) if sign > 0 else (-g_hi, -g_lo)
                    # The values that the terms left can still bring to a target, with their signs.
                    x_lo = low - reach if fits[p + 1][q] else low
                    x_hi = top + reach if fits[p][q + 1] else top
                    if whole:
                        if sign > 0:
                            sums = {v for v in values if x_lo <= v <= x_hi}  # type: ignore[operator]
                        else:
                            sums = {-v for v in values if x_lo <= -v <= x_hi}  # type: ignore[operator]
                    else:
                        sums = {
                            x for v in values if x_lo <= q_float(x := v if sign > 0 else q_neg(v)) <= x_hi
                        }
                    if sums:
                        if candidates is None:  # worked out once for both signs, and only when a sum is left
                            used = usage + bias  # the dice's bias added once, not once a group
                            candidates = [c for c in self.groups[i:] if not (used + c[0]) & high]
                        if candidates:
                            self.grow([(sign, group)], usage, candidates, p, q, lo, hi, sums)

    def grow(self, chosen: list[tuple[int, TermGroup]], usage: int, candidates: list[TermGroup], p: int, q: int,
             lo: float, hi: float, sums: set[Rational], need_up: set[Rational] | int | None = None,
             need_down: set[Rational] | int | None = None) -> None:  # fmt: skip
        """Report every multiset one term larger than `chosen` (p positive, q negative terms; their partial sums
        `sums`, within [lo, hi]) that lands on a target, and grow it in turn unless it is as large as the sign dice
        allow.

        `candidates` are the groups that may come next (at or after the last one chosen, so each multiset comes
        once; a term may repeat if the dice allow) whose dice fit beside `usage`, in falling order of their
        largest values: the loop stops at the first too small to reach a target even with as many more of its
        size as the + dice allow, as every one after it is smaller still. The values a last term added or
        taken away would need to land on a target are worked out once for the node (`need_up`, `need_down`, or
        given when the caller has them), so each candidate is one set test."""
        step = self.steps[p][q]
        if step is None:
            return
        add_plus, add_minus, minus_left, plus_after_minus, down_after_plus, up_after_plus, down_after_minus, \
            last_size, more_plus = step  # fmt: skip
        up_after_minus = plus_after_minus
        low_target, high_target = self.low_target, self.high_target
        bias, high, reach_of = self.bias, self.high, self.reach
        bits_of, number_mask, all_numbers = self.bits_of, self.number_mask, self.all_numbers
        targets, n_targets = self.target_list, len(self.target_list)
        # A multiset one term larger is only worth a look when a target is in its reach or in that of the terms
        # the dice left can still add (up to their room, and only with a sign die left for them): near the
        # leaves the room is small, so most branches end here.
        for k, group in enumerate(candidates):
            g_usage, g_lo, g_hi, g_values = group
            if hi + more_plus * g_hi < low_target:  # this term, and as many more as large, stay below
                break
            joined = usage + g_usage
            reach = reach_of.get(joined)
            if reach is None:
                reach = reach_of[joined] = self.room(joined)[0]
            after = None  # the candidates after this one, worked out when a larger multiset grows
            if add_plus and (minus_left or lo + g_lo <= high_target):
                new_lo, new_hi = lo + g_lo, hi + g_hi
                x_lo = low_target - reach if up_after_plus else low_target
                x_hi = high_target + reach if down_after_plus else high_target
                if new_lo <= x_hi and new_hi >= x_lo:
                    # A target within the larger multisets' range: often none, as the targets lie apart.
                    i = bisect_left(targets, new_lo)
                    if i < n_targets and targets[i] <= new_hi:
                        if need_up is None:
                            need_up = self.needs(sums, 1, lo, hi, candidates[0][2])
                        if (
                            need_up & (bits_of[g_usage] if g_usage in bits_of else self.bits(group))
                            if type(need_up) is int
                            else not g_values.isdisjoint(need_up)
                        ):
                            self.report(
                                chosen, sums, 1, group, p + 1, q, targets[i : bisect_right(targets, new_hi)]
                            )
                    # Every term needs a number die: with none left, nothing can come after (most often the case).
                    if not last_size and joined & number_mask != all_numbers:
                        used = joined + bias  # added once, not once a candidate
                        after = [c for c in candidates[k:] if not (used + c[0]) & high]
                        if after:
                            self.deeper(chosen, joined, after, p + 1, q, sums, 1, group, x_lo, x_hi)
            # With no + die left for later terms, a sum already below every target stays below.
            if add_minus and (plus_after_minus or hi - g_lo >= low_target):
                new_lo, new_hi = lo - g_hi, hi - g_lo
                x_lo = low_target - reach if up_after_minus else low_target
                x_hi = high_target + reach if down_after_minus else high_target
                if new_lo <= x_hi and new_hi >= x_lo:
                    # A target within the larger multisets' range: often none, as the targets lie apart.
                    i = bisect_left(targets, new_lo)
                    if i < n_targets and targets[i] <= new_hi:
                        if need_down is None:
                            need_down = self.needs(sums, -1, lo, hi, candidates[0][2])
                        if (
                            need_down & (bits_of[g_usage] if g_usage in bits_of else self.bits(group))
                            if type(need_down) is int
                            else not g_values.isdisjoint(need_down)
                        ):
                            self.report(
                                chosen, sums, -1, group, p, q + 1, targets[i : bisect_right(targets, new_hi)]
                            )
                    if not last_size and joined & number_mask != all_numbers:
                        if after is None:
                            used = joined + bias
                            after = [c for c in candidates[k:] if not (used + c[0]) & high]
                        if after:
                            self.deeper(chosen, joined, after, p, q + 1, sums, -1, group, x_lo, x_hi)

    def deeper(self, chosen: list[tuple[int, TermGroup]], joined: int, after: list[TermGroup], p: int, q: int,
               sums: set[Rational], sign: int, group: TermGroup, x_lo: float, x_hi: float) -> None:  # fmt: skip
        """Grow `chosen` with `group` added with `sign`: its partial sums that the dice left can still bring to a
        target (within [x_lo, x_hi])."""
        values = group[3]
        if self.whole:
            if sign > 0:
                grown = {x for a in sums for v in values if x_lo <= (x := a + v) <= x_hi}  # type: ignore[operator]
            else:
                grown = {x for a in sums for v in values if x_lo <= (x := a - v) <= x_hi}  # type: ignore[operator]
            if not grown:
                return
            lo, hi = min(grown), max(grown)  # type: ignore[type-var]
        else:
            grown = {
                x
                for a in sums
                for v in values
                if x_lo <= q_float(x := q_add(a, v if sign > 0 else q_neg(v))) <= x_hi
            }
            if not grown:
                return
            floats = [q_float(x) for x in grown]
            lo, hi = min(floats) - 1e-6, max(floats) + 1e-6
        step = self.steps[p][q]
        if step is None:
            return
        need_up = need_down = None
        if step[7] and self.whole:  # the larger multisets are the largest: only a term landing could come of it
            # The values a last term would need, and those the candidates hold, as bitsets: when they have none in
            # common, nothing lands (a set of needs, beyond the bitsets' range, is looked at by grow()).
            held = 0
            bits_of = self.bits_of
            for c in after:
                held |= bits_of[c[0]] if c[0] in bits_of else self.bits(c)
            lands = False
            if step[0]:
                need_up = self.needs(grown, 1, lo, hi, after[0][2])
                lands = type(need_up) is not int or bool(need_up & held)
            if step[1] and not lands:
                need_down = self.needs(grown, -1, lo, hi, after[0][2])
                lands = type(need_down) is not int or bool(need_down & held)
            if not lands:
                return
        chosen.append((sign, group))
        self.grow(chosen, joined, after, p, q, lo, hi, grown, need_up, need_down)  # type: ignore[arg-type]
        chosen.pop()

    def needs(self, sums: set[Rational], sign: int, lo: float, hi: float, largest: float) -> set[Rational] | int:
        """The values up to `largest` (the largest term left to choose) that a last term, added (sign 1) or taken
        away (−1), would need to bring one of these partial sums (within [lo, hi]) to a target.

        A bitset (bit v set: v is needed) when they are whole and none can be larger than the largest target:
        t − a with no sum below 0, or a − t with no sum more than the largest target above the smallest.
        """
        targets = self.target_list
        if self.whole:
            top = self.high_target
            if sign > 0 and lo >= 0:
                bits, target_bits = 0, self.target_bits
                for a in sums:
                    bits |= target_bits >> a  # type: ignore[operator]
                return bits
            if sign < 0 and hi - self.low_target <= top:
                # a − t = (top − t) − (top − a): the reflected targets shifted down by top − a (up if negative).
                bits, reflected = 0, self.reflected_bits
                for a in sums:
                    bits |= reflected >> (top - a) if a <= top else reflected << (a - top)  # type: ignore[operator]
                return bits
            # Terms are never negative and at most `largest`: only the targets that far above (or below) the sums.
            if sign > 0:
                near = targets[bisect_left(targets, lo) : bisect_right(targets, hi + largest)]
                return {t - a for a in sums for t in near}  # type: ignore[operator]
            near = targets[bisect_left(targets, lo - largest) : bisect_right(targets, hi)]
            return {a - t for a in sums for t in near}  # type: ignore[operator]
        if sign > 0:
            return {q_add(t, q_neg(a)) for a in sums for t in targets}
        return {q_add(a, -t) for a in sums for t in targets}

    def bits(self, group: TermGroup) -> int:
        """A group's values up to the largest target, as a bitset (worked out when first asked, and kept)."""
        top = self.high_target
        found = self.bits_of[group[0]] = sum(1 << v for v in group[3] if v <= top)  # type: ignore[operator]
        return found

    def report(self, chosen: list[tuple[int, TermGroup]], sums: set[Rational], sign: int, group: TermGroup, p: int,
               q: int, near: list[int]) -> None:  # fmt: skip
        """Report every sum of `chosen` (its partial sums `sums`) and a term of `group` added with `sign` that
        makes a target (one of `near`, the targets within the range of such sums)."""
        u_last, _, _, values = group
        found: list[tuple[Rational, int, Rational]]  # (the partial sum, the target, the last term's value)
        if not self.whole:
            found = [
                (a, t, need)
                for a in sums
                for t in near
                if (need := q_add(t, q_neg(a)) if sign > 0 else q_add(a, -t)) in values
            ]
        elif len(values) < len(sums):  # whole: the smaller of the two sets is read, the other looked up
            if sign > 0:
                found = [(a, t, v) for t in near for v in values if (a := t - v) in sums]  # type: ignore[operator]
            else:
                found = [(a, t, v) for t in near for v in values if (a := t + v) in sums]  # type: ignore[operator]
        elif sign > 0:
            found = [(a, t, need) for a in sums for t in near if (need := t - a) in values]  # type: ignore[operator]
        else:
            found = [(a, t, need) for a in sums for t in near if (need := a - t) in values]  # type: ignore[operator]
        for partial, t, need in found:
            for picked in self.picks(chosen, partial):
                picked.append((sign, u_last, need))
                self.on_hit(picked, p, q, t)

    def picks(self, chosen: list[tuple[int, TermGroup]], partial: Rational) -> Iterator[list[Picked]]:
        """Every choice of one value per chosen signed group whose sum is `partial`, as picked terms."""
        *others, (s_last, g_last) = chosen
        last_values, u_last = g_last[3], g_last[0]
        if self.whole:
            # Each other group's values with their signs, so that a choice's sum is one sum().
            for combo in product(*([v if s > 0 else -v for v in g[3]] for s, g in others)):
                rest = partial - sum(combo)  # type: ignore[operator]
                v_last = rest if s_last > 0 else -rest
                if v_last in last_values:
                    picked = [(s, g[0], v if s > 0 else -v) for (s, g), v in zip(others, combo, strict=True)]
                    picked.append((s_last, u_last, v_last))
                    yield picked
            return
        for combo in product(*(g[3] for _, g in others)):
            rest = partial
            for (s, _), v in zip(others, combo, strict=True):
                rest = q_add(rest, q_neg(v) if s > 0 else v)
            v_last = rest if s_last > 0 else q_neg(rest)
            if v_last in last_values:
                picked = [(s, g[0], v) for (s, g), v in zip(others, combo, strict=True)]
                picked.append((s_last, u_last, v_last))
                yield picked


def arrangements(parts: tuple[tuple[int, Faces], ...], dice: DiceCounts, first: int, positive: int) -> Iterable[Faces]:
    """Every formula writing these signed terms in some order that the sign dice allow.

    `first` (1 or −1) keeps only the orders whose first term has that sign; 0 keeps all. `positive`: how many
    terms are positive (the caller counts them once for all the spellings of a sum).
    """
    if len(parts) - positive > dice.minus:
        return
    # Equal terms give equal orders, listed once; distinct terms need no set to tell them apart.
    orders = permutations(parts) if len(set(parts)) == len(parts) else set(permutations(parts))
    for order in orders:
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
    positive = sum(1 for s, _, _ in picked if s > 0)  # the same for every spelling
    choices = [[(s, faces) for faces in terms.terms_of(u, v)] for s, u, v in picked]
    for parts in product(*choices):
        yield from arrangements(parts, dice, first, positive)


def find_hits(dice: DiceCounts, terms: Terms, targets: set[int]) -> dict[int, set[Faces]]:
    """Every formula whose value is a target, grouped by target."""
    hits: dict[int, set[Faces]] = defaultdict(set)

    def on_hit(picked: list[Picked], p: int, q: int, target: int) -> None:
        hits[target].update(spell_sum(terms, dice, picked))

    find_sums(dice, terms, targets, on_hit)
    return hits

"""The solver: every reachable target of a roll with its best score, one best formula and the solution count.

How it works (fast, exact, and checked against suji.solver.listing in the tests):

1. Terms. A formula is a signed sum of terms, and a term (factors joined by × ÷, with ×10/×11/×12 and ² √ on
   its factors) never contains + or −. All terms the number dice and the ×/÷/constant/²/√ dice can make are
   enumerated once, grouped by the dice they use and their exact value.
2. Sums. For every multiset of term groups whose dice fit in the roll and every choice of signs that the + and −
   dice allow, the values of all terms but one are combined and the last is looked up by the value it would
   need. So the solver never lists the many formulas that miss every target.
3. Formulas. The hits are expanded into formulas (each order of the terms that the sign dice allow). A formula is
   irreducible when no other formula making the same target is a subsequence of it: removing dice from a formula
   gives a formula of the same dice, so all candidates are among the hits.

Values are exact: ints, and reduced (numerator, denominator) pairs for fractions (suji.rules.exact's rationals
for hot loops, cheaper to build and hash than Fraction objects). A √ of a non-square is irrational, and with a single √ die an irrational term can never
add up to a whole target, so such terms are left out; rolls with two or more √ dice, or with a die showing 9
(custom dice only), are solved by full enumeration instead.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import permutations, product
from math import isqrt

from suji.core.caching import bounded
from suji.rules.dice import (
    CONSTANT_FACES,
    DIVIDE,
    MINUS,
    OPERATOR_FACES,
    PLUS,
    ROOT,
    SQUARE,
    TIMES,
    Roll,
    face_readings,
)
from suji.rules.exact import (
    Face,
    Rational,
    divide_all,
    multiply_all,
    q_add,
    q_div,
    q_float,
    q_mul,
    q_neg,
)
from suji.rules.formula import format_faces
from suji.rules.scoring import OPERATOR_POINTS, CheckResult, check, formula_score

Faces = tuple[Face, ...]

# Operators allowed at each drill level: 1 (+ −), 2 (and × ÷ ×10 ×11 ×12), 3 (and ² √).
LEVEL_OPERATORS: dict[int, frozenset[str]] = {
    1: frozenset({PLUS, MINUS}),
    2: frozenset({PLUS, MINUS, TIMES, DIVIDE, *CONSTANT_FACES}),
    3: frozenset({PLUS, MINUS, TIMES, DIVIDE, *CONSTANT_FACES, SQUARE, ROOT}),
}
_FIELD = 5  # bits per die face in a usage code; a face appears at most 15 times


@dataclass(frozen=True)
class Best:
    """The solver's answer for one target."""

    target: int
    score: int  # best score after stripping, before re-roll costs
    faces: Faces  # one best formula
    solutions: int  # distinct irreducible formulas making the target

    @property
    def formula(self) -> str:
        return format_faces(self.faces)

    @property
    def tokens(self) -> list[str]:
        return [str(f) for f in self.faces]

    def to_dict(self) -> dict:
        return {
            "score": self.score,
            "formula": self.formula,
            "tokens": self.tokens,
            "solutions": self.solutions,
        }


@dataclass
class Solution:
    """Everything the solver knows about one roll."""

    roll: Roll
    best: dict[int, Best]  # reachable targets only
    formulas: dict[int, list[Faces]] = field(default_factory=dict, repr=False)  # all irreducible, per target
    hits: dict[int, set[Faces]] = field(default_factory=dict, repr=False)  # every formula making the target

    @property
    def reachable(self) -> list[int]:
        return sorted(self.best)

    @property
    def top(self) -> Best | None:
        """The best answer over all targets (highest score, then one without a leading sign, then the smaller
        target)."""
        if not self.best:
            return None
        return max(self.best.values(), key=lambda b: (b.score, b.faces[:1] != (MINUS,), -b.target))

    def to_dict(self) -> dict:
        """The JSON line `suji solve --batch` prints."""
        return {
            "targets": list(self.roll.targets),
            "best": {str(t): self.best[t].to_dict() for t in sorted(self.best)},
        }


class _Dice:
    """The roll's dice as counts, with usage codes: one 5-bit field per distinct face, added up as ints."""

    def __init__(self, roll: Roll, allowed: frozenset[str] | None) -> None:
        self.numbers = Counter(roll.number_dice)
        ops = Counter(f for f in roll.operator_dice if allowed is None or f in allowed)
        self.plus = ops.pop(PLUS, 0)
        self.minus = ops.pop(MINUS, 0)
        self.mulops = ops
        faces: list[Face] = sorted(self.numbers) + sorted(ops)
        self.bit = {face: 1 << (_FIELD * i) for i, face in enumerate(faces)}
        counts = [self.numbers[f] if type(f) is int else ops[f] for f in faces]
        self.bias = sum((15 - c) << (_FIELD * i) for i, c in enumerate(counts))
        self.high = sum(16 << (_FIELD * i) for i in range(len(faces)))

    def fits(self, usage: int) -> bool:
        """Whether a usage code needs no more dice of any face than were rolled."""
        return not (usage + self.bias) & self.high


def _numbers(dice: _Dice) -> list[tuple[int, int, Faces]]:
    """Every number the number dice can make: (usage, value, faces); a 6 may be read as 9."""
    found: list[tuple[int, int, Faces]] = []
    left = dict(dice.numbers)

    def grow(value: int, usage: int, faces: Faces) -> None:
        for die, count in left.items():
            if not count:
                continue
            left[die] = count - 1
            for digit in face_readings(die):
                found.append((usage + dice.bit[die], value * 10 + digit, faces + (digit,)))
                grow(value * 10 + digit, usage + dice.bit[die], faces + (digit,))
            left[die] = count

    grow(0, 0, ())
    return found


def _factors(dice: _Dice) -> dict[int, list[tuple[int, Faces]]]:
    """Every factor ([√] number [²]) with a rational value, grouped by usage code."""
    groups: dict[int, list[tuple[int, Faces]]] = defaultdict(list)
    square = dice.bit.get(SQUARE) if dice.mulops[SQUARE] else None
    root = dice.bit.get(ROOT) if dice.mulops[ROOT] else None
    for usage, n, faces in _numbers(dice):
        groups[usage].append((n, faces))
        if square:
            groups[usage + square].append((n * n, faces + (SQUARE,)))
        if root:
            r = isqrt(n)
            if r * r == n:
                groups[usage + root].append((r, (ROOT,) + faces))
            if square and dice.fits(usage + root + square):
                groups[usage + root + square].append((n, (ROOT,) + faces + (SQUARE,)))
    return groups


class _Terms:
    """Every term (factors joined by × ÷, constant dice after factors): for each set of dice, the set of values.

    Terms are grown a factor at a time as sets of values per set of dice (so terms with the same dice and
    value are one entry). Faces are spelled out (`terms_of`) only for the few values that make a target, by
    working backwards from the value.
    """

    def __init__(self, dice: _Dice) -> None:
        bias, high = dice.bias, dice.high
        self.bias, self.high = bias, high
        # factor_faces[usage][value]: the factors ([√] number [²]) with those dice and that value.
        self.factor_faces: dict[int, dict[int, list[Faces]]] = {}
        for usage, group in _factors(dice).items():
            if not (usage + bias) & high:
                by_value = self.factor_faces.setdefault(usage, defaultdict(list))
                for value, faces in group:
                    by_value[value].append(faces)
        factor_groups = [(u, set(by_value)) for u, by_value in self.factor_faces.items()]
        self.consts = [(c, CONSTANT_FACES[c], dice.bit[c]) for c in CONSTANT_FACES if dice.mulops[c]]
        self.mulops = [(op, dice.bit[op]) for op in (TIMES, DIVIDE) if dice.mulops[op]]
        fitting: dict[int, list[tuple[int, set[int]]]] = {}

        # A term is "open" when it ends with a factor (a constant die may follow) and "closed" after a constant.
        self.open: dict[int, set[Rational]] = defaultdict(set)
        self.closed: dict[int, set[Rational]] = defaultdict(set)
        frontier_open = {u: set(values) for u, values in factor_groups}
        frontier_closed: dict[int, set[Rational]] = {}
        while frontier_open or frontier_closed:
            grown_open: dict[int, set[Rational]] = defaultdict(set)
            grown_closed: dict[int, set[Rational]] = defaultdict(set)
            for usage, values in frontier_open.items():
                self.open[usage] |= values
                for _, k, bit in self.consts:
                    if not (usage + bit + bias) & high:
                        multiply_all(values, (k,), grown_closed[usage + bit].add)
            for usage, values in frontier_closed.items():
                self.closed[usage] |= values
            for frontier in (frontier_open, frontier_closed):
                for usage, values in frontier.items():
                    for op, bit in self.mulops:
                        with_op = usage + bit
                        if (with_op + bias) & high:
                            continue
                        groups = fitting.get(with_op)
                        if groups is None:
                            groups = fitting[with_op] = [
                                (with_op + u, fv)
                                for u, fv in factor_groups
                                if not (with_op + u + bias) & high
                            ]
                        for joined, f_values in groups:
                            grow = multiply_all if op == TIMES else divide_all
                            grow(values, f_values, grown_open[joined].add)
            frontier_open, frontier_closed = grown_open, grown_closed
        # The terms a sum may use. Only ÷ makes a term a fraction, and a sum of whole numbers and a single
        # fraction is never whole: with fewer than two ÷ dice, fractional terms never make a target.
        whole_only = dice.mulops[DIVIDE] < 2
        self.by_usage: dict[int, set[Rational]] = {}
        for u in set(self.open) | set(self.closed):
            values = self.open.get(u, set()) | self.closed.get(u, set())
            if whole_only:
                values = {v for v in values if type(v) is int}
            if values:
                self.by_usage[u] = values
        self._faces: dict[tuple[int, Rational, bool], list[Faces]] = {}

    def _spell(self, usage: int, value: Rational, is_open: bool) -> list[Faces]:
        """Every term with these dice and value that ends with a factor (open) or a constant die (closed)."""
        key = (usage, value, is_open)
        found = self._faces.get(key)
        if found is not None:
            return found
        found = []
        if is_open:
            found.extend(self.factor_faces.get(usage, {}).get(value, ()))
            for op, bit in self.mulops:
                for f_usage, by_value in self.factor_faces.items():
                    if not self._within(f_usage + bit, usage):
                        continue
                    rest = usage - bit - f_usage
                    # A parent may be a fraction even when only whole terms are summed (7÷2 of 7÷2×4).
                    rest_open, rest_closed = self.open.get(rest, ()), self.closed.get(rest, ())
                    if not rest_open and not rest_closed:
                        continue
                    for f_value, f_faces in by_value.items():
                        parent = q_div(value, f_value) if op == TIMES else q_mul(value, f_value)
                        if parent in rest_open or parent in rest_closed:
                            found.extend(a + (op,) + b for a in self.terms_of(rest, parent) for b in f_faces)
        else:
            for face, k, bit in self.consts:
                rest = usage - bit
                if self._within(bit, usage) and rest:
                    parent = q_div(value, k)
                    if parent in self.open.get(rest, ()):
                        found.extend(f + (face,) for f in self._spell(rest, parent, True))
        self._faces[key] = found
        return found

    def _within(self, part: int, whole: int) -> bool:
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


_TERMS_CACHE: dict[tuple, _Terms] = {}
_TERMS_CACHE_SIZE = 64


def _terms_for(dice: _Dice) -> _Terms:
    """The terms of these number and ×/÷/constant/²/√ dice, cached: re-roll advice solves many rolls that
    differ only in their + and − dice, which terms never use."""
    key = (tuple(sorted(dice.numbers.elements())), tuple(sorted(dice.mulops.elements())))
    terms = _TERMS_CACHE.get(key)
    if terms is None:
        if _TERMS_CACHE and len(_TERMS_CACHE) >= _TERMS_CACHE_SIZE:
            _TERMS_CACHE.pop(next(iter(_TERMS_CACHE)))
        terms = _TERMS_CACHE[key] = _Terms(dice)
    return terms


def _arrangements(parts: list[tuple[int, Faces]], dice: _Dice, first: int = 0) -> Iterable[Faces]:
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


# A term picked for a sum: (sign, usage code, value).
Picked = tuple[int, int, Rational]


def _find_sums(
    dice: _Dice, terms: _Terms, targets: set[int], on_hit: Callable[[list[Picked], int, int, int], None]
) -> None:
    """Call on_hit(picked, p, q, target) for every multiset of signed terms whose sum is a target.

    p and q count the positive and negative terms; which orders the sign dice allow is the caller's business.
    With many targets (the odds table asks for all 672), the last term's values in range are looked up
    rather than each target in turn.
    """
    bias, high = dice.bias, dice.high
    low_target, high_target = min(targets), max(targets)
    # Per group of terms: usage, values, the range of its values (to skip sums that cannot land between the
    # smallest and the largest target), its whole values sorted, and its fractional values.
    groups = []
    for usage in sorted(terms.by_usage):
        values = terms.by_usage[usage]
        floats = [v if type(v) is int else v[0] / v[1] for v in values]
        whole = sorted(v for v in values if type(v) is int)
        fractions = [v for v in values if type(v) is not int]
        groups.append((usage, values, min(floats) - 1e-6, max(floats) + 1e-6, whole, fractions))
    most_terms = 1 + dice.plus + dice.minus
    many = len(targets)

    def evaluate(chosen: list[tuple[int, tuple]], p: int, q: int) -> None:
        # The sum of the chosen terms lands on a target: loop over the values of all terms but the one with
        # the most values, and look that one up.
        last = max(range(len(chosen)), key=lambda i: len(chosen[i][1][1]))
        s_last, g_last = chosen[last]
        last_values, whole, fractions = g_last[1], g_last[4], g_last[5]
        others = chosen[:last] + chosen[last + 1 :]
        last_lo = g_last[2] if s_last > 0 else -g_last[3]
        last_hi = g_last[3] if s_last > 0 else -g_last[2]
        signs = [s for s, _ in others]
        for combo in product(*(g[1] for _, g in others)):
            partial: Rational = 0
            for s, v in zip(signs, combo, strict=True):
                if type(partial) is int and type(v) is int:
                    partial = partial + v if s > 0 else partial - v
                else:
                    partial = q_add(partial, v if s > 0 else q_neg(v))
            if type(partial) is int:
                if partial + last_hi < low_target or partial + last_lo > high_target:
                    continue
                # The whole values of the last term that put the sum between the lowest and highest target.
                if s_last > 0:
                    lo, hi = low_target - partial, high_target - partial
                else:
                    lo, hi = partial - high_target, partial - low_target
                i, j = bisect_left(whole, lo), bisect_right(whole, hi)
                if j - i <= many:
                    for need in whole[i:j]:
                        t = partial + need if s_last > 0 else partial - need
                        if t in targets:
                            hit(others, combo, s_last, g_last, need, t, p, q)
                else:
                    for t in targets:
                        need = t - partial if s_last > 0 else partial - t
                        if need in last_values:
                            hit(others, combo, s_last, g_last, need, t, p, q)
            else:
                approx = q_float(partial)
                if approx + last_hi < low_target or approx + last_lo > high_target:
                    continue
                if len(fractions) <= many:
                    for need in fractions:
                        t = q_add(partial, need if s_last > 0 else q_neg(need))
                        if type(t) is int and t in targets:
                            hit(others, combo, s_last, g_last, need, t, p, q)
                else:
                    for t in targets:
                        need = q_add(t, q_neg(partial))
                        if s_last < 0:
                            need = q_neg(need)
                        if need in last_values:
                            hit(others, combo, s_last, g_last, need, t, p, q)

    def hit(
        others: list, combo: tuple, s_last: int, g_last: tuple, need: Rational, target: int, p: int, q: int
    ) -> None:
        picked = [(s, g[0], v) for (s, g), v in zip(others, combo, strict=True)]
        picked.append((s_last, g_last[0], need))
        on_hit(picked, p, q, target)

    plus, minus = dice.plus, dice.minus

    def fits_signs(p: int, q: int) -> bool:
        # A positive term first needs no die; a negative term first needs the leading − die.
        return (p >= 1 and p - 1 <= plus and q <= minus) or (q >= 1 and p <= plus and q <= minus)

    # compatible[i]: the groups j ≥ i whose dice fit beside group i's (a term may repeat if the dice allow).
    compatible: dict[int, list[int]] = {}

    def compatible_with(i: int) -> list[int]:
        # Worked out on first use: a roll without + or − dice never needs them.
        found = compatible.get(i)
        if found is None:
            usage = groups[i][0]
            found = compatible[i] = [
                j for j in range(i, len(groups)) if not (usage + groups[j][0] + bias) & high
            ]
        return found

    def search(chosen: list, usage: int, last: int, p: int, q: int, lo: float, hi: float) -> None:
        # chosen: (sign, group) of the terms so far (group indexes never decrease), p positive and q negative
        # terms; [lo, hi] bounds their sum.
        if lo <= high_target and hi >= low_target:
            evaluate(chosen, p, q)
        if p + q == most_terms:
            return
        for i in compatible_with(last):
            group = groups[i]
            joined = usage + group[0]
            if (joined + bias) & high:
                continue
            if fits_signs(p + 1, q) and (q < minus or lo + group[2] <= high_target):
                chosen.append((1, group))
                search(chosen, joined, i, p + 1, q, lo + group[2], hi + group[3])
                chosen.pop()
            # With no + die left for later terms, a sum already below every target stays below.
            if fits_signs(p, q + 1) and (fits_signs(p + 1, q + 1) or hi - group[2] >= low_target):
                chosen.append((-1, group))
                search(chosen, joined, i, p, q + 1, lo - group[3], hi - group[2])
                chosen.pop()

    for i, group in enumerate(groups):
        for sign in (1, -1):
            if fits_signs(int(sign > 0), int(sign < 0)):
                lo, hi = (group[2], group[3]) if sign > 0 else (-group[3], -group[2])
                search([(sign, group)], group[0], i, int(sign > 0), int(sign < 0), lo, hi)


def _spell_sum(terms: _Terms, dice: _Dice, picked: list[Picked], first: int = 0) -> Iterable[Faces]:
    """Every formula writing these signed terms (any spelling of each, any order the sign dice allow)."""
    choices = [[(s, faces) for faces in terms.terms_of(u, v)] for s, u, v in picked]
    for parts in product(*choices):
        yield from _arrangements(list(parts), dice, first)


def _find_hits(dice: _Dice, terms: _Terms, targets: set[int]) -> dict[int, set[Faces]]:
    """Every formula whose value is a target, grouped by target."""
    hits: dict[int, set[Faces]] = defaultdict(set)

    def on_hit(picked: list[Picked], p: int, q: int, target: int) -> None:
        hits[target].update(_spell_sum(terms, dice, picked))

    _find_sums(dice, terms, targets, on_hit)
    return hits


def is_subsequence(short: Faces, long: Faces) -> bool:
    """Whether `short` is `long` with some dice removed (the rest in the same order)."""
    if not short:
        return True
    i, n = 0, len(short)
    for face in long:
        if face == short[i]:
            i += 1
            if i == n:
                return True
    return False


_FACE_FIELD = {face: 1 << (_FIELD * i) for i, face in enumerate([*range(10), *OPERATOR_FACES])}
_FACE_HIGH = sum(16 << (_FIELD * i) for i in range(len(_FACE_FIELD)))


def _dice_code(faces: Faces) -> int:
    """The multiset of a formula's faces as one int (5 bits a face), for a quick "fewer of every face" test."""
    return sum(_FACE_FIELD[f] for f in faces)


def irreducible(formulas: Iterable[Faces]) -> list[Faces]:
    """The formulas of which no other formula in the collection (all making one value) is a subsequence.

    Comparing with the irreducible shorter ones is enough: a subsequence of a shorter formula is one of the
    longer one too.
    """
    kept: list[tuple[Faces, int]] = []
    for f in sorted(set(formulas), key=len):
        code = _dice_code(f)
        if not any(
            len(g) < len(f)
            and ((code | _FACE_HIGH) - g_code) & _FACE_HIGH == _FACE_HIGH
            and is_subsequence(g, f)
            for g, g_code in kept
        ):
            kept.append((f, code))
    return [f for f, _ in kept]


def _best(target: int, formulas: list[Faces]) -> Best:
    scored = [(formula_score(f), f) for f in formulas]
    score = max(s for s, _ in scored)
    # One best formula, chosen reproducibly: one without a leading sign when the score allows it (pupils meet
    # negative numbers in 中1, after this game's readers), then the fewest dice, then the canonical print.
    faces = min((f for s, f in scored if s == score), key=lambda f: (f[0] == MINUS, len(f), format_faces(f)))
    return Best(target, score, faces, len(formulas))


def needs_enumeration(roll: Roll, allowed: Iterable[str] | None = None) -> bool:
    """Whether `solve` must list every formula (a die showing 9, or two √ dice): seconds rather than ms."""
    roots = sum(1 for f in roll.operator_dice if f == ROOT and (allowed is None or ROOT in allowed))
    return roots >= 2 or 9 in roll.number_dice


def solve(roll: Roll, allowed: Iterable[str] | None = None) -> Solution:
    """Solve a roll: every reachable target with its best score, one best formula and the solution count.

    `allowed` limits the operator faces that may be used (a drill level's operators).
    """
    allowed_set = frozenset(allowed) if allowed is not None else None
    dice = _Dice(roll, allowed_set)
    targets = set(roll.targets)
    if needs_enumeration(roll, allowed_set):
        hits = _hits_by_enumeration(roll, allowed_set)
    else:
        hits = _find_hits(dice, _terms_for(dice), targets)
    solution = Solution(roll, {}, {}, {t: set(fs) for t, fs in hits.items()})
    for target, found in hits.items():
        formulas = irreducible(found)
        solution.formulas[target] = formulas
        solution.best[target] = _best(target, formulas)
    return solution


def best_score_by_target(
    number_dice: Iterable[int],
    operator_dice: Iterable[str],
    targets: Iterable[int],
    allowed: Iterable[str] | None = None,
) -> dict[int, int]:
    """The best score (after stripping, before costs) of every target these dice can make; others are absent.

    The same answer as `solve(...).best[t].score` for every target, without spelling out every formula: the
    sums that hit a target are first kept as sets of dice (with the + and − dice an order of the terms
    needs). A formula's score depends only on its dice, so the best candidate is the highest-scoring set of
    dice. It is irreducible for sure when no smaller set of dice makes the same target; only otherwise are the
    formulas of that set and of the smaller ones spelled out and compared (is one not reducible to another?).
    This is what lets the odds table solve all 672 target numbers of every roll in minutes.
    """
    roll = Roll((1,), tuple(number_dice), tuple(operator_dice))
    wanted = set(targets)
    if not wanted:
        return {}
    allowed_set = frozenset(allowed) if allowed is not None else None
    dice = _Dice(roll, allowed_set)
    if dice.mulops[ROOT] >= 2 or 9 in dice.numbers:
        hits = _hits_by_enumeration(roll, allowed_set, wanted)
        return {t: max(formula_score(f) for f in irreducible(found)) for t, found in hits.items()}
    terms = _terms_for(dice)
    # keyed[target][(usage, + dice, − dice)]: the picked terms of every sum with exactly those dice.
    keyed: dict[int, dict[tuple[int, int, int], list[list[Picked]]]] = defaultdict(lambda: defaultdict(list))
    plus, minus = dice.plus, dice.minus

    def on_hit(picked: list[Picked], p: int, q: int, target: int) -> None:
        usage = sum(u for _, u, _ in picked)
        by_key = keyed[target]
        if p >= 1 and p - 1 <= plus and q <= minus:  # a positive term first
            by_key[(usage, p - 1, q)].append(picked)
        if q >= 1 and p <= plus and q <= minus:  # a negative term first, after the leading −
            by_key[(usage, p, q)].append(picked)

    _find_sums(dice, terms, wanted, on_hit)
    faces_of = sorted(dice.bit, key=lambda f: dice.bit[f])
    shifts = [(_FIELD * i, type(f) is int, OPERATOR_POINTS.get(f, 0)) for i, f in enumerate(faces_of)]

    def score(key: tuple[int, int, int]) -> int:
        usage, p_used, m_used = key
        numbers, points = 0, p_used + m_used
        for shift, is_number, worth in shifts:
            count = (usage >> shift) & 31
            if is_number:
                numbers += count
            else:
                points += count * worth
        return points * numbers

    spellings: dict[tuple[int, int, int], list[Faces]] = {}

    def spelled(target: int, key: tuple[int, int, int]) -> list[Faces]:
        # Every formula making the target with exactly these dice (per target, each key spelled once).
        found = spellings.get(key)
        if found is None:
            _, p_used, m_used = key
            collected: set[Faces] = set()
            for picked in keyed[target][key]:
                positive = sum(1 for s, _, _ in picked if s > 0)
                # With p positive terms, a positive term first uses p − 1 + dice, a negative one first p.
                first = 1 if p_used == positive - 1 else -1
                collected.update(_spell_sum(terms, dice, picked, first))
            found = spellings[key] = sorted(collected, key=len)
        return found

    best: dict[int, int] = {}
    for target, by_key in keyed.items():
        spellings.clear()
        ranked = sorted(((score(k), k) for k in by_key), reverse=True)
        for points, key in ranked:
            usage, p_used, m_used = key
            smaller = [
                k
                for k in by_key
                if k != key and k[1] <= p_used and k[2] <= m_used and terms._within(k[0], usage)
            ]
            if not smaller:
                best[target] = points
                break
            shorter = [(g, _dice_code(g)) for k in smaller for g in spelled(target, k)]
            if any(_is_irreducible(f, shorter) for f in spelled(target, key)):
                best[target] = points
                break
    return best


def _is_irreducible(formula: Faces, shorter: list[tuple[Faces, int]]) -> bool:
    """Whether none of the shorter formulas (each with its dice code) is a subsequence of `formula`."""
    code = _dice_code(formula)
    return not any(
        ((code | _FACE_HIGH) - g_code) & _FACE_HIGH == _FACE_HIGH and is_subsequence(g, formula)
        for g, g_code in shorter
    )


def _hits_by_enumeration(
    roll: Roll, allowed: frozenset[str] | None, targets: set[int] | None = None
) -> dict[int, set[Faces]]:
    """Every formula making a target, by listing all formulas (custom dice the fast path does not cover)."""
    from suji.rules.exact import as_rational, evaluate
    from suji.solver.listing import all_formulas

    targets = set(roll.targets) if targets is None else targets
    hits: dict[int, set[Faces]] = defaultdict(set)
    for faces in all_formulas(roll, allowed):
        value = as_rational(evaluate(faces))
        if value is not None and value.denominator == 1 and value.numerator in targets:
            hits[value.numerator].add(faces)
    return hits


@bounded("solve_at_level")  # a drill's roll is asked for hints, tracks and its result page in turn
def solve_at_level(roll: Roll, level: int | None = None) -> Solution:
    """The solver's answer for a roll, with only the operators of a drill `level` (None: every operator).

    Kept for the hints, "still on track?" and the check page that follow: a drill's hints and best answer
    never use an operator its level leaves out.
    """
    return solve(roll, LEVEL_OPERATORS[level] if level is not None else None)


def best_answer(roll: Roll, level: int | None = None) -> CheckResult | None:
    """One best-scoring formula for the roll at a level, checked like the student's (None: no target)."""
    top = solve_at_level(roll, level).top
    return check(top.formula, roll) if top is not None else None

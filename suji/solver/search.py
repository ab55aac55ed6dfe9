"""The solver: every reachable target of a roll with its best score, one best formula and the solution count.

How it works (fast, exact, and checked against suji.solver.listing in the tests):

1. Terms (suji.solver.terms). A formula is a signed sum of terms, and a term (factors joined by × ÷, with
   ×10/×11/×12 and ² √ on its factors) never contains + or −. All terms the number dice and the ×/÷/constant/²/√
   dice can make are enumerated once, grouped by the dice they use and their exact value.
2. Sums (suji.solver.sums). For every multiset of term groups whose dice fit in the roll and every choice of
   signs that the + and − dice allow, the values of all terms but one are combined and the last is looked up by
   the value it would need. So the solver never lists the many formulas that miss every target.
3. Formulas (here). The hits are expanded into formulas (each order of the terms that the sign dice allow). A
   formula is irreducible when no other formula making the same target is a subsequence of it: removing dice
   from a formula gives a formula of the same dice, so all candidates are among the hits.

A √ of a non-square is irrational, and with a single √ die an irrational term can never add up to a whole
target, so such terms are left out; rolls with two or more √ dice, or with a die showing 9 (custom dice only),
are solved by full enumeration instead.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from suji.core.caching import LruDict, bounded
from suji.rules.dice import (
    MINUS,
    OPERATOR_FACES,
    ROOT,
    Roll,
)
from suji.rules.language.printing import format_faces
from suji.rules.scoring import OPERATOR_POINTS, CheckResult, check, formula_score
from suji.solver.dice_counts import FIELD, DiceCounts, Faces
from suji.solver.levels import LEVEL_OPERATORS, LEVELS  # noqa: F401 - the solver's levels, read here too
from suji.solver.sums import Picked, find_hits, find_sums, spell_sum
from suji.solver.terms import terms_for


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


def is_subsequence(short: Faces, long: Faces) -> bool:
    """Whether `short` is `long` with some dice removed (the rest in the same order)."""
    return _contains_any(long, [[short]])


_FACEFIELD = {face: 1 << (FIELD * i) for i, face in enumerate([*range(10), *OPERATOR_FACES])}
_FACE_HIGH = sum(16 << (FIELD * i) for i in range(len(_FACEFIELD)))


def _dice_code(faces: Faces) -> int:
    """The multiset of a formula's faces as one int (5 bits a face), for a quick "fewer of every face" test."""
    return sum(map(_FACEFIELD.__getitem__, faces))


def irreducible(formulas: Iterable[Faces], codes: dict[Faces, int] | None = None) -> list[Faces]:
    """The formulas of which no other formula in the collection (all making one value) is a subsequence.

    `codes`, when given, receives each kept formula's dice code, for `preferred` to reuse.

    Comparing with the irreducible shorter ones is enough: a subsequence of a shorter formula is one of the
    longer one too. A subsequence uses fewer of every face, so the shorter ones are kept by their dice (many
    formulas are the same terms in another order): only those whose dice are among the formula's are read.
    """
    kept: list[Faces] = []
    by_dice: dict[int, list[Faces]] = {}
    # below[code]: the lists of shorter kept formulas whose dice are among `code`'s, found once for each set of
    # dice. They are complete by then: their formulas are shorter, so they all came before.
    below: dict[int, list[list[Faces]]] = {}
    for f in sorted(set(formulas), key=len):
        code = _dice_code(f)
        lists = below.get(code)
        if lists is None:
            # g_code ≠ code: fewer dice in all (the same dice make a formula of the same length).
            lists = below[code] = [
                shorter
                for g_code, shorter in by_dice.items()
                if g_code != code and ((code | _FACE_HIGH) - g_code) & _FACE_HIGH == _FACE_HIGH
            ]
        if not _contains_any(f, lists):
            kept.append(f)
            by_dice.setdefault(code, []).append(f)
            if codes is not None:
                codes[f] = code
    return kept


def _contains_any(formula: Faces, lists: list[list[Faces]]) -> bool:
    """Whether a formula of these lists is a subsequence of `formula` (the one home of `is_subsequence`'s rule,
    looping here rather than calling a function for each: `irreducible` asks it of every formula)."""
    for shorter in lists:
        for short in shorter:
            # Each face is looked for after the one before it: `in` on an iterator reads it up to the first match.
            rest = iter(formula)
            for face in short:
                if face not in rest:
                    break
            else:
                return True
    return False


def preferred(formulas: Sequence[Faces], codes: dict[Faces, int] | None = None) -> tuple[int, Faces]:
    """The best score among `formulas` (at least one) and the one formula shown for it, whatever their order.

    Chosen reproducibly: one without a leading sign when the score allows it (pupils meet negative numbers in
    中1, after this game's readers), then the fewest dice, then the canonical print.
    """
    # A formula's score follows from its dice: scored once for each set of dice (many formulas are the same
    # terms in another order).
    by_dice: dict[int, int] = {}
    top: tuple[int, bool, int] | None = None  # (score, no leading sign, − the number of dice): the largest wins
    best: list[Faces] = []
    for f in formulas:
        code = codes[f] if codes is not None else _dice_code(f)
        score = by_dice.get(code)
        if score is None:
            score = by_dice[code] = formula_score(f)
        key = (score, f[0] != MINUS, -len(f))
        if top is None or key > top:
            top, best = key, [f]
        elif key == top:
            best.append(f)
    assert top is not None, "preferred() needs at least one formula"
    # The print is worked out only for the formulas that tie on the rest.
    return top[0], best[0] if len(best) == 1 else min(best, key=format_faces)


def _best(target: int, formulas: list[Faces], codes: dict[Faces, int] | None = None) -> Best:
    score, faces = preferred(formulas, codes)
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
    dice = DiceCounts(roll, allowed_set)
    targets = set(roll.targets)
    if needs_enumeration(roll, allowed_set):
        hits = _hits_by_enumeration(roll, allowed_set)
    else:
        hits = find_hits(dice, terms_for(dice, max(targets)), targets)
    solution = Solution(roll, {}, {}, dict(hits))
    for target, found in hits.items():
        codes: dict[Faces, int] = {}  # each kept formula's dice code, worked out once
        formulas = irreducible(found, codes)
        solution.formulas[target] = formulas
        solution.best[target] = _best(target, formulas, codes)
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
    dice = DiceCounts(roll, allowed_set)
    if dice.mulops[ROOT] >= 2 or 9 in dice.numbers:
        hits = _hits_by_enumeration(roll, allowed_set, wanted)
        return {t: max(formula_score(f) for f in irreducible(found)) for t, found in hits.items()}
    terms = terms_for(dice, max(wanted))
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

    find_sums(dice, terms, wanted, on_hit)
    faces_of = sorted(dice.bit, key=lambda f: dice.bit[f])
    shifts = [(FIELD * i, type(f) is int, OPERATOR_POINTS.get(f, 0)) for i, f in enumerate(faces_of)]

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
                collected.update(spell_sum(terms, dice, picked, first))
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
                if k != key and k[1] <= p_used and k[2] <= m_used and terms.within(k[0], usage)
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
    from suji.rules.exact import as_rational
    from suji.rules.language.evaluate import evaluate
    from suji.solver.listing import all_formulas

    targets = set(roll.targets) if targets is None else targets
    hits: dict[int, set[Faces]] = defaultdict(set)
    for faces in all_formulas(roll, allowed):
        value = as_rational(evaluate(faces))
        if value is not None and value.denominator == 1 and value.numerator in targets:
            hits[value.numerator].add(faces)
    return hits


# The solver's answers for drill rolls: a drill's roll is asked for hints, tracks and its result page in turn, and
# a certified roll (suji.solver.problems) brings the answer it was certified with.
_SOLVED: LruDict[tuple[Roll, int | None], Solution] = LruDict("solve_at_level")


def solve_at_level(roll: Roll, level: int | None = None) -> Solution:
    """The solver's answer for a roll, with only the operators of a drill `level` (None: every operator).

    Kept for the hints, "still on track?" and the check page that follow: a drill's hints and best answer
    never use an operator its level leaves out.
    """
    key = (roll, level)
    found = _SOLVED.get(key)
    if found is None:
        found = solve(roll, LEVEL_OPERATORS[level] if level is not None else None)
        _SOLVED.put(key, found)
    return found


def keep_solution(solution: Solution, level: int | None) -> None:
    """Keep a solution worked out elsewhere (a certified roll's) as `solve_at_level(solution.roll, level)`."""
    _SOLVED.put((solution.roll, level), solution)


@bounded("best_answer")  # the drill's result page shows it after every check of the same roll
def best_answer(roll: Roll, level: int | None = None) -> CheckResult | None:
    """One best-scoring formula for the roll at a level, checked like the student's (None: no target)."""
    top = solve_at_level(roll, level).top
    return check(top.formula, roll) if top is not None else None

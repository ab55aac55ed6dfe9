"""DiceCounts: a roll's dice as counts, and the bounds the solver prunes with.

    Roll ──DiceCounts──▶ usage codes (one 5-bit field a distinct face, added up as ints) ──room, multiplier──▶
    what the dice left beside a set of dice can still add, take away, divide or multiply by

"Do these dice fit in the roll" and "are these dice among those" are an addition and a mask on usage codes
(suji.solver.terms grows terms by them, suji.solver.sums finds sums of them). The bounds come from the largest
number the number dice left can show (worked out once for every set of number dice) and the operator dice left,
each kept once a usage code.
"""

from __future__ import annotations

from collections import Counter
from operator import itemgetter

from suji.rules.dice import CONSTANT_FACES, DIVIDE, MINUS, PLUS, ROOT, SQUARE, TIMES, Roll
from suji.rules.language.spelling import Face

Faces = tuple[Face, ...]
FIELD = 5  # bits per die face in a usage code; a face appears at most 15 times


class DiceCounts:
    """The roll's dice as counts, with usage codes: one 5-bit field per distinct face, added up as ints."""

    def __init__(self, roll: Roll, allowed: frozenset[str] | None) -> None:
        self.numbers = Counter(roll.number_dice)
        ops = Counter(f for f in roll.operator_dice if allowed is None or f in allowed)
        self.plus = ops.pop(PLUS, 0)
        self.minus = ops.pop(MINUS, 0)
        self.mulops = ops
        faces: list[Face] = sorted(self.numbers) + sorted(ops)
        # Each face's field: its bit, its count, and the bias and high bit that make "fits" one addition.
        self.bit: dict[Face, int] = {}
        bias = high = 0
        number_fields, operator_fields = [], []
        for i, face in enumerate(faces):
            shift = FIELD * i
            self.bit[face] = 1 << shift
            if type(face) is int:
                count = self.numbers[face]
                number_fields.append((shift, 9 if face == 6 else face, count))
            else:
                count = ops[face]
                operator_fields.append((shift, face, count))
            bias += (15 - count) << shift
            high += 16 << shift
        self.bias, self.high = bias, high
        # The number dice have the low fields: a usage code's number part is `usage & number_mask`, and the
        # bounds below are worked out from its number part and its operator part, each kept once (per roll).
        self.number_mask = (1 << (FIELD * len(self.numbers))) - 1
        self.all_numbers = sum(count << shift for shift, _, count in number_fields)  # every number die used
        number_fields.sort(key=itemgetter(1), reverse=True)  # in falling order of their digits (stable)
        self._number_fields = number_fields
        self._operator_fields = operator_fields
        # The ² and √ dice's fields of a usage code (0 when none was rolled): which a factor uses.
        self.square_field = 31 * self.bit[SQUARE] if SQUARE in ops else 0
        self.root_field = 31 * self.bit[ROOT] if ROOT in ops else 0
        # The largest number the number dice left can show (`_bounds`), by a usage code's number part, for every
        # part at once: a few dozen, each one step from a smaller one, rather than a loop over the digits each.
        self._largest = self._largest_left()
        self._operators_left: dict[int, tuple[bool, bool, bool, int]] = {}
        # Per usage code: the room's two bounds and the multiplier, each worked out once (`_bounds`).
        self.bounds: dict[int, tuple[int, int, int]] = {}

    def _largest_left(self) -> dict[int, int]:
        """For every set of number dice a usage code can use (its number part), the largest number the dice
        left show: their digits in falling order, a 6 read as 9."""
        left = {0: 0}  # the number dice left, as a code, → the largest number they show
        for shift, digit, count in self._number_fields:  # in falling order of their digits
            grown = {}
            for code, value in left.items():
                for k in range(count + 1):
                    grown[code + (k << shift)] = value
                    value = value * 10 + digit
            left = grown
        rolled = sum(count << shift for shift, _, count in self._number_fields)
        return {rolled - code: value for code, value in left.items()}

    def fits(self, usage: int) -> bool:
        """Whether a usage code needs no more dice of any face than were rolled."""
        return not (usage + self.bias) & self.high

    def room(self, usage: int) -> tuple[int, int]:
        """Bounds on what the dice left beside `usage` can do: (the largest sum of terms they can make, the largest
        product of divisors they can make, 1 when no ÷ die is left).

        Both come from the largest number the number dice left can show (their digits in falling order, a 6 read
        as 9): a sum or product of numbers made of some of those digits is never larger than that number (a + b ≤
        a·10ⁿ + b), a ² die can at most square it (one ² a factor), a constant die multiplies it by its 10, 11 or
        12, and √ or ÷ only make it smaller. Whole numbers, so the bounds are exact to compare with.
        """
        found = self.bounds.get(usage)
        if found is None:
            found = self._bounds(usage)
        return found[0], found[1]

    def multiplier(self, usage: int) -> int:
        """The largest number the dice left beside `usage` can still multiply a term by (1 when they cannot):
        factors after × dice (their product is at most the room's largest number, squared with a ² die left)
        and the constant dice left."""
        found = self.bounds.get(usage)
        if found is None:
            found = self._bounds(usage)
        return found[2]

    def _bounds(self, usage: int) -> tuple[int, int, int]:
        # (room's two bounds, multiplier), worked out once a usage code and kept in `bounds`.
        numbers = usage & self.number_mask
        largest = self._largest[numbers]  # (usage codes asked about fit in the roll: every number part is there)
        operators = self._operators_left.get(usage - numbers)
        if operators is None:
            squared = divide = times = False
            constants = 1
            for shift, face, count in self._operator_fields:
                left = count - ((usage >> shift) & 31)
                if not left:
                    continue
                if face == SQUARE:
                    squared = True
                elif face == DIVIDE:
                    divide = True
                elif face == TIMES:
                    times = True
                elif face in CONSTANT_FACES:
                    constants *= CONSTANT_FACES[face] ** left
            operators = self._operators_left[usage - numbers] = (squared, divide, times, constants)
        squared, divide, times, constants = operators
        if squared:
            largest *= largest
        found = self.bounds[usage] = (
            largest * constants,
            largest if divide and largest else 1,
            (largest if times and largest else 1) * constants,
        )
        return found

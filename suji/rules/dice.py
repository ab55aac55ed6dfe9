"""The dice of Sūji de Asobo: faces, rolls, seeded random rolls and the target numbers of a roll."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import permutations, product

from suji.core.caching import bounded
from suji.core.errors import SujiError
from suji.core.i18n import N_
from suji.core.text import shown, whole_number
from suji.rules.language.spelling import (  # noqa: F401 - the faces, for everything that imports the dice
    CONSTANT_FACES,
    DIVIDE,
    MINUS,
    OPERATOR_FACES,
    PLUS,
    ROOT,
    SQUARE,
    TIMES,
    TIMES10,
    TIMES11,
    TIMES12,
    die_names,
    operator_face,
)

# Number dice (RULES.md §1 "Dice"). There is no 0 on any die; a 6 may be read as 9.
NUMBER_DIE_A: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
NUMBER_DIE_B: tuple[int, ...] = (1, 2, 3, 6, 7, 8)
NUMBER_DIE_C: tuple[int, ...] = (1, 2, 3, 4, 5, 8)
NUMBER_DICE_FACES = {"A": NUMBER_DIE_A, "B": NUMBER_DIE_B, "C": NUMBER_DIE_C}

# Operator dice. Their faces + − × ÷ ×10 ×11 ×12 ² √, printed as on the dice, are spelled (with every other way to
# write them) in suji.rules.language.spelling; the names are imported here too, where the dice are.
OPERATOR_DIE_A: tuple[str, ...] = (PLUS, PLUS, MINUS, MINUS, TIMES, DIVIDE)
OPERATOR_DIE_B: tuple[str, ...] = (TIMES10, TIMES11, TIMES12, SQUARE, SQUARE, ROOT)
OPERATOR_DICE_FACES = {"A": OPERATOR_DIE_A, "B": OPERATOR_DIE_B}

# The standard set: which kind of die sits in each place of a roll.
TARGET_KINDS = ("A", "B", "C")
NUMBER_KINDS = ("A", "A", "B", "B", "C")
OPERATOR_KINDS = ("A", "A", "A", "B")

# Custom rolls may have other counts, within limits that keep every check and solve quick: stripping looks at
# subsets of a formula's dice, and the targets are every order of the target dice.
MAX_NUMBER_DICE = 8
MAX_OPERATOR_DICE = 6
MAX_TARGET_DICE = 4

DICE_MESSAGES = {
    "unknown_operator_die": N_("“%(detail)s” is not an operator die. Use + − × ÷ ×10 ×11 ×12 ² √."),
    "unknown_number_die": N_("“%(detail)s” is not a number die. Number dice show 1 to 9."),
    "bad_target": N_("“%(detail)s” is not a target: give a whole number of at least 1."),
    "no_target": N_("Give the target dice or a target number."),
    "not_standard": N_("Advice needs dice that the standard set can show."),
    "too_many_dice": N_(
        "Too many dice: a roll has at most %(numbers)s number dice, %(operators)s operator dice and %(targets)s target dice."
    ),
}


class DiceError(SujiError):
    """A roll or a die face that cannot exist; `code` names the problem, `detail` repeats the text at fault."""

    MESSAGES = DICE_MESSAGES

    def __init__(self, code: str, detail: str = "") -> None:
        self.detail = shown(detail, 20)
        super().__init__(code, detail=self.detail)

    def message_params(self, lang: str) -> dict:
        limits = {"numbers": MAX_NUMBER_DICE, "operators": MAX_OPERATOR_DICE, "targets": MAX_TARGET_DICE}
        return {**limits, **super().message_params(lang)}


_CANONICAL = frozenset(OPERATOR_FACES)


def parse_operator_face(text: object) -> str:
    """Return the operator face a die's name stands for (``x10`` → ``×10``, ``sqrt`` → ``√``): any spelling a
    formula may use for that die (suji.rules.language.spelling)."""
    if type(text) is str and text in _CANONICAL:  # already a face as printed: the usual case
        return text  # type: ignore[return-value]
    face = operator_face(text)
    if face is None:
        raise DiceError("unknown_operator_die", str(text))
    return face


def parse_number_face(value: object) -> int:
    """Return a number die face (1–9) from an int or a digit (full-width too), as every reader of a number does."""
    if type(value) is int and 1 <= value <= 9:  # the usual case, answered before the general reading below
        return value
    if isinstance(value, bool):
        raise DiceError("unknown_number_die", str(value))
    face = value if isinstance(value, int) else whole_number(value, 1, 9, digits=1)
    if face is None or not 1 <= face <= 9:
        raise DiceError("unknown_number_die", str(value))
    return face


_NUMBER_FACES = frozenset(range(1, 10))
_INT = frozenset({int})
_STR = frozenset({str})


def _are_number_faces(dice: object) -> bool:
    """Whether `dice` is a tuple of number faces exactly as `parse_number_face` returns them: ints 1-9 (not bools,
    which equal 0 and 1, nor floats such as 3.0, which equal ints)."""
    # The types first: an unhashable die (a list) is left to parse_number_face's own complaint.
    return type(dice) is tuple and _INT.issuperset(map(type, dice)) and _NUMBER_FACES.issuperset(dice)


def _are_operator_faces(dice: object) -> bool:
    """Whether `dice` is a tuple of operator faces exactly as `parse_operator_face` returns them (plain strs)."""
    return type(dice) is tuple and _STR.issuperset(map(type, dice)) and _CANONICAL.issuperset(dice)


def _operator_faces(dice: Iterable[object]) -> tuple[str, ...]:
    """`parse_operator_face` of each die: dice given by their usual names (x11, sqrt, ^2…) looked up in one go."""
    dice = tuple(dice)
    if _STR.issuperset(map(type, dice)):
        faces = tuple(map(die_names().get, dice))  # what operator_face finds first for a name
        if None not in faces:
            return faces
    return tuple([parse_operator_face(f) for f in dice])


def face_readings(face: int) -> tuple[int, ...]:
    """The digits a number die showing `face` can stand for: a 6 may be read as 9."""
    return (6, 9) if face == 6 else (face,)


def faces_for_digit(digit: int) -> tuple[int, ...]:
    """The faces of the number dice that can give `digit`, in the order they are used: a 9 is a die showing 9
    (custom dice only) or else a 6 turned over. The other side of `face_readings`."""
    return (9, 6) if digit == 9 else (digit,)


def target_numbers(target_dice: Sequence[int]) -> tuple[int, ...]:
    """Every number made from the target dice in any order, each 6 read as 6 or 9, in increasing order."""
    return _target_numbers(tuple(target_dice))


@bounded("target_numbers")
def _target_numbers(target_dice: tuple[int, ...]) -> tuple[int, ...]:
    numbers = set()
    for order in permutations(target_dice):
        for digits in product(*(face_readings(face) for face in order)):
            numbers.add(int("".join(map(str, digits))))
    return tuple(sorted(numbers))


@dataclass(frozen=True)
class Roll:
    """One roll: target dice (or one explicit target number), number dice and operator dice.

    Faces are validated but the counts are free, so drills and examples may use custom dice (a roll with both
    √ and ², six number dice, …). `target`, when given, replaces the targets made from the target dice.
    """

    target_dice: tuple[int, ...]
    number_dice: tuple[int, ...]
    operator_dice: tuple[str, ...]
    target: int | None = None
    targets: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Dice already given as faces (ints 1-9, operators as printed: every roll the app makes and most it is
        # sent) are kept as they are, checked in one go; anything else is read die by die.
        if not _are_number_faces(self.target_dice):
            object.__setattr__(self, "target_dice", tuple([parse_number_face(f) for f in self.target_dice]))
        if not _are_number_faces(self.number_dice):
            object.__setattr__(self, "number_dice", tuple([parse_number_face(f) for f in self.number_dice]))
        if not _are_operator_faces(self.operator_dice):
            object.__setattr__(self, "operator_dice", _operator_faces(self.operator_dice))
        if (
            len(self.number_dice) > MAX_NUMBER_DICE
            or len(self.operator_dice) > MAX_OPERATOR_DICE
            or len(self.target_dice) > MAX_TARGET_DICE
        ):
            raise DiceError("too_many_dice")
        if self.target is not None:
            if isinstance(self.target, bool) or not isinstance(self.target, int) or self.target < 1:
                raise DiceError("bad_target", str(self.target))
            targets: tuple[int, ...] = (self.target,)
        else:
            if not self.target_dice:
                raise DiceError("no_target")
            targets = target_numbers(self.target_dice)
        object.__setattr__(self, "targets", targets)

    @classmethod
    def of(
        cls,
        number_dice: Iterable[object],
        operator_dice: Iterable[str],
        target_dice: Iterable[object] = (),
        target: int | None = None,
    ) -> Roll:
        """Build a roll from loose values (strings or ints, any operator spelling)."""
        return cls(tuple(target_dice), tuple(number_dice), tuple(operator_dice), target)  # type: ignore[arg-type]

    def to_dict(self) -> dict:
        """The roll as plain JSON-ready data."""
        data: dict = {
            "target_dice": list(self.target_dice),
            "number_dice": list(self.number_dice),
            "operator_dice": list(self.operator_dice),
            "targets": list(self.targets),
        }
        if self.target is not None:
            data["target"] = self.target
        return data


def roll_standard(rng: random.Random) -> Roll:
    """Roll the standard set: three target dice (A, B, C), five number dice (A A B B C), four operator dice."""
    return Roll(
        target_dice=tuple(rng.choice(NUMBER_DICE_FACES[k]) for k in TARGET_KINDS),
        number_dice=tuple(rng.choice(NUMBER_DICE_FACES[k]) for k in NUMBER_KINDS),
        operator_dice=tuple(rng.choice(OPERATOR_DICE_FACES[k]) for k in OPERATOR_KINDS),
    )


def random_roll(seed: int | str | None = None) -> Roll:
    """A standard roll from a seeded generator: the same seed gives the same roll everywhere."""
    return roll_standard(random.Random(seed))

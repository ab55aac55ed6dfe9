"""What the pupils who missed a problem did: the values they made instead of a target, and the dice they left out.

"The value is not a target" in every column tells a teacher nothing; "made 128, the nearest target is 126" (a slip
in the working) or "÷ left over in 4 of 5 tries" (the class avoids dividing) does. Pure: the formulas sent that
made a value but no target, checked again with the one checker (cached: the dashboard asks every 1.5 s), give

    formulas ──check──▶ (value, nearest target, dice not used) each ──count──▶ MissSummary

The formulas are the ones the class stored (at most MAX_ATTEMPTS a pupil and problem), so the work is bounded by
the size of the class.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from suji.core.caching import bounded
from suji.core.i18n import N_, NP_, translate, translate_plural
from suji.rules.dice import Roll
from suji.rules.exact import as_rational
from suji.rules.scoring import check

SHOWN = 2  # values and dice named in a column: the most common ones
MIN_TRIES_FOR_DICE = 2  # the dice left out are named from this many not-target tries on

TEXTS = {
    "made": N_("made %(value)s (nearest target %(target)s)"),
    "made_plain": N_("made %(value)s"),
    "left_over": N_("left over: %(dice)s"),
    "die_in": N_("%(die)s in %(num)s of %(tries)s"),
    "list_separator": N_(", "),
}
TIMES = NP_("%(text)s, %(num)s time", "%(text)s, %(num)s times")


@dataclass(frozen=True)
class Miss:
    """One formula that made a value but no target: the value as printed, the nearest target, the dice unused."""

    value: str
    nearest: int | None
    left_over: tuple[str, ...]


@dataclass(frozen=True)
class MissSummary:
    """The not-target tries of one problem: the values made most often and the dice left out most often."""

    tries: int
    values: tuple[tuple[Miss, int], ...]  # (a miss standing for its value, how many tries made that value)
    left_over: tuple[tuple[str, int], ...]  # (a die's face, in how many tries it was left out)

    def lines(self, lang: str) -> list[str]:
        """What the dashboard writes under "The value is not a target", in `lang`."""
        lines = []
        for miss, times in self.values:
            made = (translate(TEXTS["made"], lang, value=miss.value, target=miss.nearest)
                    if miss.nearest is not None else translate(TEXTS["made_plain"], lang, value=miss.value))  # fmt: skip
            lines.append(translate_plural(*TIMES, times, lang, text=made, num=times) if times > 1 else made)
        if self.left_over:
            dice = translate(TEXTS["list_separator"], lang).join(
                translate(TEXTS["die_in"], lang, die=face, num=times, tries=self.tries) for face, times in self.left_over
            )
            lines.append(translate(TEXTS["left_over"], lang, dice=dice))
        return lines


def _left_over(roll: Roll, used: Iterable[object]) -> tuple[str, ...]:
    """The rolled number and operator dice a formula did not use (a 9 is a 6 die turned over)."""
    left = Counter(str(d) for d in roll.number_dice) + Counter(str(d) for d in roll.operator_dice)
    for face in used:
        key = "6" if str(face) == "9" else str(face)
        if left[key]:
            left[key] -= 1
    return tuple(left.elements())


@bounded("class_miss")
def miss_of(roll: Roll, formula: str) -> Miss | None:
    """The miss a formula stands for, or None when it makes no value (an error the checker names) or a target."""
    result = check(formula, roll)
    if not result.valid or result.exact is None or result.target is not None:
        return None
    rational = as_rational(result.exact)  # the nearest target of 2√2 is not asked
    nearest = None
    if rational is not None and roll.targets:
        nearest = min(roll.targets, key=lambda t: (abs(rational - t), t))
    return Miss(result.display or "", nearest, _left_over(roll, [d.face for d in result.dice]))


def summarize(roll: Roll, formulas: Iterable[str]) -> MissSummary | None:
    """The not-target tries among `formulas` (the formulas sent for one problem that missed), or None if none."""
    misses = [m for m in (miss_of(roll, f) for f in formulas) if m is not None]
    if not misses:
        return None
    by_value = Counter(m.value for m in misses)
    first = {}
    for m in misses:
        first.setdefault(m.value, m)
    values = tuple((first[v], n) for v, n in sorted(by_value.items(), key=lambda item: (-item[1], item[0]))[:SHOWN])
    left = Counter(face for m in misses for face in set(m.left_over))
    # Dice left out of more than half of the tries, when there are a few: what the class seems to avoid (one try
    # that left most dice out says nothing about the class).
    common = sorted(((f, n) for f, n in left.items() if 2 * n > len(misses) >= MIN_TRIES_FOR_DICE),
                    key=lambda item: (-item[1], item[0]))  # fmt: skip
    return MissSummary(len(misses), values, tuple(common[:SHOWN]))

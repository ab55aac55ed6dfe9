"""Practice hints: four steps along the way into an item that suits the pupil best, priced as class mode's.

Class mode's and the drill's hints lead to the best answer (suji.solver.hints); a practice item asks for a
goal, and the pupil is best helped along the route the model expects them to manage (suji.learner.model
.best_route): its witness is a solution that reaches the goal. The four steps, each a quarter of the outcome:
1. a target the dice can make, 2. how many number dice and which operators, 3. how the formula starts,
4. the whole formula. The texts are the solver's where they say the same thing.

Data flows: an item and the learner → the route → its witness → `Hint`s (text codes and parameters, translated
at the edge).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from suji.core.i18n import N_, translate
from suji.learner.items import Item, Route
from suji.rules.language.evaluate import evaluate
from suji.rules.language.printing import format_faces
from suji.rules.scoring import formula_score, number_dice_used
from suji.solver.hints import first_number
from suji.solver.search import Best

HINT_TEXT = {
    "target": N_("You can make %(target)s with these dice."),
    "shape": N_("One way uses %(numbers)s number dice and these operators: %(operators)s."),
    "shape_no_ops": N_("One way uses %(numbers)s number dice and no operator."),
    "first": N_("It starts with %(first)s."),
    "formula": N_("One answer: %(formula)s = %(target)s (%(score)s points)."),
}


@dataclass(frozen=True)
class Hint:
    """One step of help: a code of HINT_TEXT and its parameters."""

    kind: str
    data: dict = field(default_factory=dict)

    def message(self, lang: str = "en") -> str:
        return translate(HINT_TEXT[self.kind], lang, **self.data)


def route_hints(item: Item, route: Route) -> list[Hint]:
    """The four hints along a route of the item."""
    faces = route.witness
    value = evaluate(faces)
    target = int(value[0][1]) if value else 0
    operators = [str(f) for f in faces if type(f) is str]
    numbers = number_dice_used(faces)
    shape = (
        Hint("shape", {"numbers": numbers, "operators": " ".join(operators)})
        if operators
        else Hint("shape_no_ops", {"numbers": numbers})
    )
    return [
        Hint("target", {"target": target}),
        shape,
        Hint("first", {"first": first_number(Best(target, formula_score(faces), faces, route.solutions))}),
        Hint("formula", {"formula": format_faces(faces), "target": target, "score": formula_score(faces)}),
    ]

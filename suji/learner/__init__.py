"""The learner model: practice that knows the pupil (issue 22).

Items are rolls with goals, solved once into a bank (items, bank); pupils, skill families and items have
Elo-style ratings after Math Garden and TwoA (model); the next item is chosen for a target chance of success,
away from recent ones, with the weakest skill brought back on spaced days (selection); mastery levels, days in
a row and what an answer changed (mastery); hints along the pupil's way in (hints); the rating chart (chart);
sign-in codes (signin); and synthetic pupils answering through it all (simulate).

Everything here is a pure function of frozen values; storage is the web app's (suji.web.practice), and this
package never imports Flask.
"""

from suji.learner.bank import Bank, load
from suji.learner.families import FAMILIES, families_of
from suji.learner.items import Item, Route, certify, item_key
from suji.learner.mastery import Days, changes, levels, reference
from suji.learner.model import ItemRating, Learner, best_route, outcome, update
from suji.learner.selection import Choice, ItemStats, after_answer, choose

__all__ = [
    "FAMILIES",
    "Bank",
    "Choice",
    "Days",
    "Item",
    "ItemRating",
    "ItemStats",
    "Learner",
    "Route",
    "after_answer",
    "best_route",
    "certify",
    "changes",
    "choose",
    "families_of",
    "item_key",
    "levels",
    "load",
    "outcome",
    "reference",
    "update",
]

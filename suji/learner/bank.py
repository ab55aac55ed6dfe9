"""The item bank: every practice item, solved once when the bank is built, shipped with the package.

Serving an item must be quick and bounded whatever the roll (solving a roll with every operator takes 40 ms
typically and over half a second for the worst), so the solving happens here, once: `build` takes seeded
certified rolls (a third at each drill level, suji.solver.problems), solves each with every operator and keeps
its items (suji.learner.items: the goals, the solver's facts, the witness). `python -m suji practice bank
--write` writes them to bank.json beside this file; `load()` reads it once per process and computes each
item's prior difficulty from the facts, so changing a weight of the prior needs no rebuild.

The file names the rules it was built for (the odds table's fingerprint, suji.solver.odds.space): a bank made
under other rules is refused, as a stale odds table is. Every item is certified: its witness reaches its goal
(tests check a sample in the quick tier and every item in the full run; serving checks the one it serves).

The arrays the chooser needs (suji.learner.selection) are built once with the bank: the prior of every item,
the families each needs as a 0/1 matrix, and the index of every item key.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from suji.core.caching import computed_once
from suji.learner.families import FAMILIES
from suji.learner.items import OPERATOR_CODES, OPERATOR_OF_CODE, Item, Route, make_item, roll_items
from suji.rules.dice import Roll
from suji.rules.language.spelling import Face
from suji.solver.odds.space import rules_fingerprint
from suji.solver.problems import LEVELS, certified_roll
from suji.solver.search import solve

BANK_FILE = Path(__file__).with_name("bank.json")
FORMAT = 1
DEFAULT_ROLLS = 3000
SEED = "practice-bank"


class BankError(RuntimeError):
    """A bank file that cannot be used (missing, another format, other rules)."""


def _faces_text(faces: Iterable[Face]) -> str:
    return "".join(str(f) if type(f) is int else OPERATOR_CODES[f] for f in faces)


def _faces_of_text(text: str) -> tuple[Face, ...]:
    return tuple(int(c) if c.isdigit() else OPERATOR_OF_CODE[c] for c in text)


def bank_roll(index: int) -> Roll:
    """The bank's roll number `index`: certified at level 1, 2, 3 in turn, from a seed of its own."""
    level = LEVELS[index % len(LEVELS)]
    return certified_roll(level, f"{SEED}/{index}").roll


def roll_record(index: int) -> list:
    """One roll of the bank as the file stores it: the dice, the best score, and per goal the counts and routes."""
    roll = bank_roll(index)
    items = roll_items(solve(roll))
    return [
        _faces_text(roll.target_dice),
        _faces_text(roll.number_dice),
        _faces_text(roll.operator_dice),
        items[0].best if items else 0,
        [
            [item.goal, item.solutions, item.targets,
             [[r.families, r.dice, int(r.fraction), r.solutions, r.targets, _faces_text(r.witness)]
              for r in sorted(item.routes, key=lambda r: (r.dice, r.families))]]
            for item in items
        ],
    ]  # fmt: skip


def build(rolls: int = DEFAULT_ROLLS, workers: int = 1) -> dict:
    """The bank's file content for `rolls` seeded rolls (the same on every machine), on `workers` processes."""
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            records = list(pool.map(roll_record, range(rolls), chunksize=16))
    else:
        records = [roll_record(i) for i in range(rolls)]
    return {"format": FORMAT, "rules": rules_fingerprint(), "seed": SEED, "rolls": records}


def write(data: dict, path: Path = BANK_FILE) -> None:
    """Write a bank file: one roll a line, so a change shows roll by roll in a diff."""
    head = {k: v for k, v in data.items() if k != "rolls"}
    lines = [json.dumps(record, ensure_ascii=True, separators=(",", ":")) for record in data["rolls"]]
    text = json.dumps(head, sort_keys=True)[:-1] + ', "rolls": [\n' + ",\n".join(lines) + "\n]}\n"
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="ascii")
    tmp.replace(path)


def records_items(records: Iterable[list]) -> Iterator[Item]:
    """The items of stored roll records, their routes ordered by the prior worked out now."""
    for targets, numbers, operators, best, goals in records:
        roll = Roll(_faces_of_text(targets), _faces_of_text(numbers), _faces_of_text(operators))
        for goal, solutions, reached, routes in goals:
            yield make_item(
                roll, goal, best,
                [Route(fams, dice, bool(fraction), n, t, _faces_of_text(w)) for fams, dice, fraction, n, t, w in routes],
                solutions, reached,
            )  # fmt: skip


@dataclass(frozen=True, eq=False)
class Bank:
    """Every item, with the arrays the chooser reads, item by item and route by route (routes of an item are
    side by side, easiest first, from `route_start[i]`)."""

    items: tuple[Item, ...]
    prior: np.ndarray = field(repr=False)  # β₀ per item
    needs: np.ndarray = field(repr=False)  # the easiest route's families, items × FAMILIES, 0/1
    requires: np.ndarray = field(repr=False)  # the families every route needs, items × FAMILIES, bool
    index: dict[str, int] = field(repr=False)  # item key → position
    roll_index: np.ndarray = field(repr=False)  # the items of one roll share a number
    route_start: np.ndarray = field(repr=False)  # the first route of each item
    route_item: np.ndarray = field(repr=False)  # the item of each route
    route_cost: np.ndarray = field(repr=False)  # β_r per route
    route_needs: np.ndarray = field(repr=False)  # routes × FAMILIES, 0/1 (floats, for a matrix product)

    @classmethod
    def of(cls, items: Iterable[Item]) -> Bank:
        items = tuple(items)
        rolls: dict[Roll, int] = {}
        starts, owners, costs, masks = [], [], [], []
        for i, item in enumerate(items):
            starts.append(len(owners))
            for route, cost in zip(item.routes, item.costs, strict=True):
                owners.append(i)
                costs.append(cost)
                masks.append(route.families)
        bits = np.array(masks, dtype=np.int64)[:, None] >> np.arange(len(FAMILIES)) & 1
        route_start = np.array(starts, dtype=np.int64)
        return cls(
            items=items,
            prior=np.array([item.prior for item in items]),
            needs=bits[route_start].astype(float),
            requires=np.minimum.reduceat(bits, route_start, axis=0) > 0,
            index={item.key: i for i, item in enumerate(items)},
            roll_index=np.array([rolls.setdefault(item.roll, len(rolls)) for item in items]),
            route_start=route_start,
            route_item=np.array(owners, dtype=np.int64),
            route_cost=np.array(costs),
            route_needs=bits.astype(float),
        )

    def __len__(self) -> int:
        return len(self.items)

    @property
    def roll_count(self) -> int:
        return int(self.roll_index.max()) + 1 if len(self.roll_index) else 0

    def get(self, key: str) -> Item | None:
        i = self.index.get(key)
        return self.items[i] if i is not None else None


def read(path: Path = BANK_FILE) -> Bank:
    """The bank in a file, checked: BankError when it is missing, of another format or for other rules."""
    try:
        data = json.loads(Path(path).read_text(encoding="ascii"))
    except FileNotFoundError:
        raise BankError(f"there is no item bank at {path}: run `suji practice bank --write`") from None
    except ValueError as error:
        raise BankError(f"the item bank at {path} cannot be read ({error})") from None
    if data.get("format") != FORMAT:
        raise BankError(f"the item bank at {path} has another format")
    if data.get("rules") != rules_fingerprint():
        raise BankError(
            f"the item bank at {path} was built for other rules: run `suji practice bank --write`"
        )
    return Bank.of(records_items(data["rolls"]))


@computed_once
def load() -> Bank:
    """The package's item bank, read once per process."""
    return read(BANK_FILE)

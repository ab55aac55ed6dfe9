"""The item bank shipped with the package: certified, built from seeds the same way again, for these rules."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from tiers import examples

from suji.learner import bank as item_bank
from suji.learner.bank import BankError, load, read, roll_record
from suji.learner.families import FAMILIES, SQUARE_FAMILY
from suji.learner.items import certify


def test_the_package_bank_loads_and_covers_every_level_and_goal():
    bank = load()
    assert len(bank) > 9000
    assert {item.level for item in bank.items} == {1, 2, 3}
    assert sum(item.goal > 0 for item in bank.items) > len(bank) / 2  # goals to stretch strong pupils
    assert bank.prior.min() < -2 < 5 < bank.prior.max()  # very easy to very hard
    assert len(bank.index) == len(bank)  # every key names one item
    assert all(bank.items[i].key == key for key, i in list(bank.index.items())[:200])


def test_the_arrays_agree_with_the_items():
    bank = load()
    for i in random.Random(3).sample(range(len(bank)), 50):
        item = bank.items[i]
        start = bank.route_start[i]
        assert list(bank.route_item[start : start + len(item.routes)]) == [i] * len(item.routes)
        assert list(bank.route_cost[start : start + len(item.routes)]) == list(item.costs)
        for k, route in enumerate(item.routes):
            row = bank.route_needs[start + k]
            assert {f for j, f in enumerate(FAMILIES) if row[j]} == route.family_set
        assert {f for j, f in enumerate(FAMILIES) if bank.requires[i, j]} == item.requires
        assert bank.prior[i] == item.prior


def test_items_of_one_roll_share_its_number():
    bank = load()
    by_roll: dict[int, set] = {}
    for i, item in enumerate(bank.items):
        by_roll.setdefault(int(bank.roll_index[i]), set()).add(item.roll)
    assert all(len(rolls) == 1 for rolls in by_roll.values())


def _sample(count: int) -> list[int]:
    bank = load()
    return random.Random("bank-certified").sample(range(len(bank)), min(count, len(bank)))


def test_every_item_is_certified():
    """Every route's witness reaches its item's goal, checked by the rules as a pupil's answer is (a sample in
    the quick tier, all of them in the full run)."""
    bank = load()
    for i in _sample(examples(len(bank))):
        assert certify(bank.items[i]), bank.items[i].key


def test_a_bank_for_other_rules_or_another_format_is_refused(tmp_path):
    data = json.loads(item_bank.BANK_FILE.read_text(encoding="ascii"))
    for change, words in (({"rules": "0000"}, "other rules"), ({"format": 99}, "another format")):
        path = tmp_path / "bank.json"
        path.write_text(json.dumps({**data, **change}), encoding="ascii")
        with pytest.raises(BankError, match=words):
            read(path)
    with pytest.raises(BankError, match="no item bank"):
        read(tmp_path / "missing.json")


@pytest.mark.parametrize("index", [0, 1, 2])
def test_the_bank_is_built_again_the_same_from_its_seeds(index):
    stored = json.loads(item_bank.BANK_FILE.read_text(encoding="ascii"))["rolls"]
    assert roll_record(index) == stored[index]


@pytest.mark.slow
def test_many_rolls_are_built_again_the_same():
    stored = json.loads(item_bank.BANK_FILE.read_text(encoding="ascii"))["rolls"]
    for index in random.Random("rebuild").sample(range(len(stored)), 30):
        assert roll_record(index) == stored[index], index


def test_writing_and_reading_a_small_bank(tmp_path):
    data = item_bank.build(6)
    path = tmp_path / "bank.json"
    item_bank.write(data, path)
    assert path.read_text(encoding="ascii").count("\n") >= 6  # a roll a line, for readable diffs
    small = read(path)
    assert [it.key for it in small.items] == [it.key for it in load().items[: len(small)]]
    assert np.all(small.needs[:, FAMILIES.index(SQUARE_FAMILY)] <= 1)

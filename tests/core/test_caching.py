"""The one cache policy (suji.core.caching): bounded caches stay within their size, fresh values age."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from suji.core import caching


def test_every_cache_of_the_package_is_declared_in_the_one_table():
    """No module keeps a cache of its own: every LRU is `bounded(name)` with its size in SIZES, and each name
    there is used by exactly one `bounded(...)` or `LruDict(...)` / `Fresh(...)` somewhere in the package."""
    root = Path(__file__).resolve().parents[2] / "suji"
    sources = {p: p.read_text(encoding="utf-8") for p in root.rglob("*.py") if p.name != "caching.py"}
    own = [str(p.relative_to(root)) for p, text in sources.items() if "lru_cache" in text]
    assert own == [], own
    used = Counter(
        name
        for text in sources.values()
        for name in re.findall(r"""(?:bounded|LruDict|Fresh)\(\s*["']([a-z_]+)["']""", text)
    )
    assert set(used) == set(caching.SIZES) and all(n == 1 for n in used.values()), used


def test_a_bounded_cache_keeps_the_most_recent_results_only(monkeypatch):
    monkeypatch.setitem(caching.SIZES, "test_bounded", 3)
    calls = []

    @caching.bounded("test_bounded")
    def square(n: int) -> int:
        calls.append(n)
        return n * n

    assert [square(n) for n in (1, 2, 1, 3, 4)] == [1, 4, 1, 9, 16]
    assert calls == [1, 2, 3, 4] and caching.sizes()["test_bounded"] == (3, 3)
    square(2)  # 2 was the least recently used: it went first
    assert calls == [1, 2, 3, 4, 2]
    caching.clear_all()
    assert caching.sizes()["test_bounded"] == (0, 3)


def test_an_lru_dict_drops_the_least_recently_used(monkeypatch):
    monkeypatch.setitem(caching.SIZES, "test_dict", 2)
    store = caching.LruDict("test_dict")
    store.put("a", 1)
    store.put("b", 2)
    assert store.get("a") == 1  # read: now the most recent
    store.put("c", 3)
    assert store.get("b") is None and store.get("a") == 1 and store.get("c") == 3 and len(store) == 2


@pytest.mark.parametrize("age, computed", [(0.5, 1), (1.5, 2)])
def test_a_fresh_value_is_worked_out_again_once_it_is_old(monkeypatch, age, computed):
    monkeypatch.setitem(caching.SIZES, "test_fresh", 2)
    clock = [100.0]
    monkeypatch.setattr(caching.time, "monotonic", lambda: clock[0])
    fresh = caching.Fresh("test_fresh", 1.0)
    calls = []
    fresh.get("path", lambda key: calls.append(key) or len(calls))
    clock[0] += age
    assert fresh.get("path", lambda key: calls.append(key) or len(calls)) == computed

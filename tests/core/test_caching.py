"""The one cache policy (suji.core.caching): bounded caches stay within their size, fresh values age."""

from __future__ import annotations

import ast
import inspect
import re
from collections import Counter
from pathlib import Path

import pytest

from suji.core import caching

ROOT = Path(__file__).resolve().parents[2] / "suji"
# Module-level dicts filled by functions that are not caches: registries filled once, when the module is imported.
# Module-level dicts that are no cache: a registry filled once, and the questions this process is working on right
# now (bounded by SUJI_ADVICE_QUEUE's slots in the database, and emptied as each is answered).
REGISTRIES = {"dev/timing.py": {"BENCHMARKS"}, "web/advice.py": {"_jobs"}}


def _sources() -> dict[str, str]:
    return {
        str(p.relative_to(ROOT)): p.read_text(encoding="utf-8")
        for p in ROOT.rglob("*.py")
        if p.name != "caching.py"
    }


def own_caches(source: str) -> list[str]:
    """Every cache a module keeps outside the one policy: functools.cache / lru_cache (however imported or
    spelled), and module-level dicts that its functions fill in (`NAME[key] = …`, NAME.setdefault/update)."""
    tree = ast.parse(source)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "functools":
            found += [f"functools.{a.name}" for a in node.names if a.name in ("cache", "lru_cache")]
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "functools"
        ):
            if node.attr in ("cache", "lru_cache"):
                found.append(f"functools.{node.attr}")
    empty_dicts = set()
    for node in tree.body:
        target, value = None, None
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign):
            target, value = node.target, node.value
        is_empty = (isinstance(value, ast.Dict) and not value.keys) or (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Name)
            and value.func.id in ("dict", "OrderedDict")
            and not value.args
        )
        if isinstance(target, ast.Name) and is_empty:
            empty_dicts.add(target.id)
    inside = (
        n for stmt in tree.body if not isinstance(stmt, ast.Assign | ast.AnnAssign) for n in ast.walk(stmt)
    )
    for node in inside:  # what functions and classes do (a statement of the module fills a registry once)
        filled = None
        if isinstance(node, ast.Assign | ast.AugAssign):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                    filled = target.value.id
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if isinstance(node.func.value, ast.Name) and node.func.attr in (
                "setdefault",
                "update",
                "__setitem__",
            ):
                filled = node.func.value.id
        if filled in empty_dicts:
            found.append(f"module-level dict {filled}")
    return found


def test_every_cache_of_the_package_goes_through_the_one_policy():
    """No module keeps a cache of its own: no functools.cache or lru_cache (by any import), no module-level dict
    filled in by its functions; every bounded cache has its size in SIZES, and each name there is used by exactly
    one `bounded(...)`, `LruDict(...)` or `Fresh(...)` somewhere in the package."""
    sources = _sources()
    own = {
        path: kept
        for path, text in sources.items()
        if (
            kept := [
                c
                for c in own_caches(text)
                if c.removeprefix("module-level dict ") not in REGISTRIES.get(path, ())
            ]
        )
    }
    assert own == {}, own
    used = Counter(
        name
        for text in sources.values()
        for name in re.findall(r"""(?:bounded|LruDict|Fresh)\(\s*["']([a-z_]+)["']""", text)
    )
    assert set(used) == set(caching.SIZES) and all(n == 1 for n in used.values()), used


@pytest.mark.parametrize(
    "source",
    [
        "from functools import cache\n@cache\ndef f(x): return x\n",
        "import functools\n@functools.lru_cache(maxsize=None)\ndef f(x): return x\n",
        "from functools import lru_cache as remember\n",
        "_seen = {}\ndef f(x):\n    _seen[x] = x * 2\n    return _seen[x]\n",
        "_seen: dict[str, int] = dict()\ndef f(x):\n    return _seen.setdefault(x, len(x))\n",
    ],
)
def test_the_guard_finds_a_cache_however_it_is_written(source):
    """The guard above can fail: each of these ways to keep a cache by hand is found."""
    assert own_caches(source)


def test_a_plain_module_has_no_cache():
    assert (
        own_caches("TABLE = {1: 2}\ndef f(x):\n    local = {}\n    local[x] = 1\n    return TABLE[x]\n") == []
    )


def test_computed_once_takes_no_arguments_so_no_request_can_grow_it():
    """What a request can choose goes through bounded(name); computed_once refuses a function of anything."""
    with pytest.raises(TypeError):

        @caching.computed_once
        def per_roll(roll):  # noqa: ANN001, ANN202
            return roll

    assert all(not inspect.signature(f.__wrapped__).parameters for f in caching.once_functions().values())


def test_the_monster_designer_keeps_a_bounded_number_of_answers(client):
    """The Dice Monsters designer's ?dice= reaches p_starts, whose answers were kept without a bound (a leak
    anyone could drive): now at most SIZES["monster_starts"], the least recently used going first."""
    from suji.lessons.dice_monsters import exact

    assert exact.p_starts.cache_info().maxsize == caching.SIZES["monster_starts"]
    exact.p_starts.cache_clear()
    for dice in ("4 6 8 10",):
        assert client.get("/lessons/dice-monsters/designer", query_string={"dice": dice}).status_code == 200
    assert 0 < caching.sizes()["monster_starts"][0] <= caching.SIZES["monster_starts"]


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

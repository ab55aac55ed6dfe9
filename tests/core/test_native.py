"""The hot modules' compiled twins (suji.core.native): used only when built from the present text, switched off by
SUJI_NATIVE=0, and answering exactly as the modules as written do."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import suji
from suji.core import native

ROOT = Path(suji.__file__).parent
BUILT = bool(native.install(ROOT)) and all(native.status().values())
needs_twins = pytest.mark.skipif(not BUILT, reason="no compiled twins here (no C compiler at install, or SUJI_NATIVE=0)")

# What the comparison runs in a process of its own: solver answers for seeded rolls and checks of many formulas.
PROBE = r"""
import json, sys
from suji.core import native
from suji.rules.dice import Roll, random_roll
from suji.rules.scoring import check
from suji.solver.search import best_score_by_target, solve
from suji.solver.listing import all_formulas
from suji.rules.language.printing import format_faces

out = {"native": native.status(), "walk": native.extensions_built()}
rolls = [random_roll(f"native:{i}") for i in range(int(sys.argv[1]))]
out["solve"] = [solve(r).to_dict() for r in rolls]
out["levels"] = [solve(r, ["+", "−", "×"]).to_dict() for r in rolls[:10]]
out["odds"] = [sorted(best_score_by_target(r.number_dice, r.operator_dice, range(100, 1000)).items()) for r in rolls[:4]]
small = Roll.of([2, 1, 4, 1, 3], ["+", "+", "²", "−"], [4, 4, 6])
texts = [format_faces(f) for i, f in enumerate(all_formulas(small)) if i % 97 == 0]
texts += ["1++2", "7+1", "", "21²+4+1", "２１＾２＋４＋１", "√4²+1", "12×11", "3÷0", "9" * 300, "1+(2)", "6−9"]
out["check"] = [check(t, small, rerolled=1).to_dict("ja") for t in texts]
print(json.dumps(out, ensure_ascii=False))
"""


def probe(native_on: bool, rolls: int = 40) -> dict:
    env = {**os.environ, native.SWITCH: "1" if native_on else "0"}
    done = subprocess.run([sys.executable, "-c", PROBE, str(rolls)], capture_output=True, text=True, env=env,
                          timeout=600, check=True)  # fmt: skip
    return json.loads(done.stdout)


def test_with_the_switch_off_every_module_runs_as_written():
    found = probe(False, rolls=1)
    assert set(found["native"]) == set(native.MODULES) and not any(found["native"].values())
    assert set(found["walk"]) == set(native.EXTENSIONS) and not any(found["walk"].values())  # not importable


@needs_twins
def test_the_twins_answer_exactly_as_the_modules_as_written():
    compiled, written = probe(True), probe(False)
    assert all(compiled.pop("native").values()) and not any(written.pop("native").values())
    assert all(compiled.pop("walk").values()) and not any(written.pop("walk").values())  # stripping in C, and not
    assert compiled == written
    assert len(compiled["check"]) > 20 and any(c["valid"] for c in compiled["check"])


@needs_twins
def test_a_twin_is_used_only_while_its_module_is_the_text_it_was_built_from(tmp_path):
    module = "suji.solver.sums"
    root = tmp_path / "suji"
    (root / native.DIRECTORY).mkdir(parents=True)
    twin = native.NativeFinder(ROOT).find_spec(module).origin
    shutil.copy2(twin, root / native.DIRECTORY / Path(twin).name)
    (root / "solver").mkdir()
    source = root / "solver" / "sums.py"
    shutil.copy2(native.source_path(ROOT, module), source)
    (root / native.DIRECTORY / native.MANIFEST).write_text(json.dumps({module: native.source_hash(source)}))
    assert native.NativeFinder(root).find_spec(module).origin == str(root / native.DIRECTORY / Path(twin).name)
    assert native.NativeFinder(root).find_spec("suji.solver.terms") is None  # not in this manifest
    with source.open("a") as edited:
        edited.write("\n# an edit since the build\n")
    assert native.NativeFinder(root).find_spec(module) is None  # stale: the module as written
    (root / native.DIRECTORY / native.MANIFEST).write_text("{not json")
    assert native.NativeFinder(root).manifest == {}


@needs_twins
def test_the_walk_in_c_is_used_only_while_its_pyx_is_the_text_it_was_built_from(tmp_path):
    module = "suji.rules.language.subformula_walk"
    assert module in native.EXTENSIONS and native.extensions_built()[module]
    root = tmp_path / "suji"
    (root / native.DIRECTORY).mkdir(parents=True)
    built = native.NativeFinder(ROOT).find_spec(module).origin
    shutil.copy2(built, root / native.DIRECTORY / Path(built).name)
    (root / "rules" / "language").mkdir(parents=True)
    source = root / "rules" / "language" / "subformula_walk.pyx"
    assert native.source_path(root, module) == source
    shutil.copy2(native.source_path(ROOT, module), source)
    (root / native.DIRECTORY / native.MANIFEST).write_text(json.dumps({module: native.source_hash(source)}))
    assert native.NativeFinder(root).find_spec(module).origin == str(root / native.DIRECTORY / Path(built).name)
    with source.open("a") as edited:
        edited.write("\n# an edit since the build\n")
    assert native.NativeFinder(root).find_spec(module) is None  # stale: not importable, the search answers


def test_with_the_switch_off_the_build_makes_no_twin_and_removes_old_ones(monkeypatch, tmp_path):
    from suji.dev import native_build

    checkout = sorted((ROOT / native.DIRECTORY).glob("*")) if (ROOT / native.DIRECTORY).is_dir() else []
    target = tmp_path / native.DIRECTORY
    target.mkdir()
    (target / native.MANIFEST).write_text("{}")  # an earlier build's
    monkeypatch.setenv(native.SWITCH, "off")
    said = []
    assert native_build.build(target=target, log=said.append) == [] and "SUJI_NATIVE=0" in said[0]
    assert not target.exists()
    assert native.switched_off()
    after = sorted((ROOT / native.DIRECTORY).glob("*")) if (ROOT / native.DIRECTORY).is_dir() else []
    assert after == checkout  # the checkout's own twins are another folder's business


def test_the_twins_are_put_in_place_in_one_rename(tmp_path):
    from suji.dev.native_build import _publish

    target = tmp_path / native.DIRECTORY
    for version in ("old", "new"):
        fresh = tmp_path / f"fresh-{version}"
        fresh.mkdir()
        (fresh / native.MANIFEST).write_text(version)
        _publish(fresh, target)
        assert (target / native.MANIFEST).read_text() == version
    assert sorted(p.name for p in tmp_path.iterdir()) == [native.DIRECTORY, "fresh-new", "fresh-old"]  # nothing left aside


def test_the_summary_says_how_many_modules_run_compiled():
    line = native.summary()
    assert line.startswith("compiled twins: ") and (("all 9" in line) == BUILT)
    assert line.endswith(", and the sub-formula walk in C") == all(native.extensions_built().values())


def test_every_module_compiled_is_a_module_of_the_package():
    for module in (*native.MODULES, *native.EXTENSIONS):
        assert native.source_path(ROOT, module).is_file(), module
    assert all(native.source_path(ROOT, module).suffix == ".pyx" for module in native.EXTENSIONS)
    assert "suji.solver.listing" not in native.MODULES  # the brute-force reference stays as written

"""suji.core.resources: grammar, templates and translations are found from a checkout and from an installed wheel."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import suji
from suji.core.resources import resource_dir

REPO = Path(__file__).resolve().parents[2]
DATA = ("grammar", "templates", "translations")


@pytest.mark.parametrize("name", DATA)
def test_checkout_folders(name):
    assert resource_dir(name) == REPO / name


def test_unknown_folder():
    with pytest.raises(FileNotFoundError):
        resource_dir("no-such-folder")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """A wheel built from the checkout, as `pip install .` would build it (hatchling, no network)."""
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(out),
            str(REPO),
        ],
        check=True,
        capture_output=True,
        # The compiled twins are not what this wheel is about (and take a minute to build where Cython is there).
        env={**os.environ, "SUJI_NATIVE": "0"},
    )
    (built,) = out.glob("suji-*.whl")
    return built


def data_files(name: str) -> set[str]:
    folder = REPO / name
    return {
        str(p.relative_to(folder))
        for p in folder.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and not p.name.startswith(".")
    }


@pytest.mark.parametrize("name", DATA)
def test_wheel_carries_the_data_folders(wheel, name):
    names = set(zipfile.ZipFile(wheel).namelist())
    prefix = f"suji/_data/{name}/"
    in_wheel = {n[len(prefix) :] for n in names if n.startswith(prefix)}
    assert data_files(name) <= in_wheel


def test_wheel_carries_the_source_of_the_module_written_for_c(wheel):
    """A twin or the walk in C is used only while its source is the text it was built from: the wheel has that text."""
    from suji.core import native

    names = set(zipfile.ZipFile(wheel).namelist())
    for module in native.EXTENSIONS:
        assert str(native.source_path(Path("suji"), module)) in names


def test_installed_wheel_finds_its_data(wheel, tmp_path):
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    assert (site / "suji/_data/grammar/suji.lark").is_file()
    assert (site / "suji/_data/translations/ja/LC_MESSAGES/messages.mo").is_file()
    script = """
import json, suji
from suji.core.resources import resource_dir
from suji.rules.dice import Roll
from suji.rules.language.reader import parse
from suji.core.i18n import translate
from suji.rules.scoring import check
roll = Roll.of([2, 1, 4, 1, 3], ["+", "+", "^2", "-"], target_dice=[4, 4, 6])
print(json.dumps({
    "package": suji.__file__,
    "folders": {name: str(resource_dir(name)) for name in ("grammar", "translations")},
    "templates": str(resource_dir("templates")) if __import__("os").environ["HAS_TEMPLATES"] == "1" else None,
    "faces": [str(f) for f in parse("２１２乗+4+1").faces],
    "score": check("21²+4+1", roll, rerolled=3).score,
    "ja": translate("Write a formula.", "ja"),
}, ensure_ascii=False))
"""
    env = dict(os.environ, PYTHONPATH=str(site), HAS_TEMPLATES="1" if data_files("templates") else "0")
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path, env=env, check=False
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    data = site / "suji" / "_data"
    assert Path(found["package"]).parent == site / "suji"  # the wheel, not the checkout
    assert found["folders"] == {name: str(data / name) for name in ("grammar", "translations")}
    if found["templates"] is not None:
        assert found["templates"] == str(data / "templates")
    assert found["faces"] == ["2", "1", "²", "+", "4", "+", "1"]
    assert found["score"] == 21
    assert found["ja"] != "Write a formula." and found["ja"]
    # the developer tools stay in the checkout: an installed `suji bench` says where they are
    assert not (site / "suji" / "dev").exists()
    bench = subprocess.run(
        [sys.executable, "-m", "suji", "bench"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        check=False,
    )
    assert bench.returncode == 2 and "developer tool" in bench.stderr and "Traceback" not in bench.stderr
    help_text = subprocess.run(
        [sys.executable, "-m", "suji", "--help"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        check=False,
    )
    assert help_text.returncode == 0 and "loadtest" in help_text.stdout


def test_this_checkout_is_the_imported_package():
    assert Path(suji.__file__).resolve().parent == REPO / "suji"


def test_the_public_api_names_one_home_for_each_name():
    """`from suji import …` works for every name in __all__, and the README's example holds."""
    import suji

    for name in suji.__all__:
        assert getattr(suji, name) is not None
    result = suji.check("21²+4+1", suji.Roll.of([2, 1, 4, 1, 3], ["+", "+", "²", "−"], [4, 4, 6]), rerolled=3)
    assert (result.target, result.score) == (446, 21)
    import pytest

    with pytest.raises(AttributeError):
        suji.no_such_name  # noqa: B018

"""The package's layout holds (the README's "How the code is laid out"): layers import only downwards, the library
never imports Flask or the command line, and no module grows past about 500 lines.

Every `import` in suji/ is read with `ast` (those inside functions too), so a late import cannot hide an arrow
that runs back up.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "suji"
# Each folder's layer, from the bottom; a folder may import its own layer and those below.
LAYERS = {
    "core": 0,
    "rules": 1,
    "solver": 2,
    "play": 3, "worksheets": 3, "lessons": 3, "learner": 3,  # the features
    "web": 4,
    "dev": 5,  # benchmarks and load tests start the app
    "cli": 6,
}  # fmt: skip
INTERFACES = ("web", "cli", "dev")
MAX_LINES = 520  # "about 500"


def modules(root: Path = PACKAGE) -> list[Path]:
    return sorted(p for p in root.rglob("*.py") if "migrations" not in p.parts)


def folder_of(path: Path, root: Path = PACKAGE) -> str | None:
    parts = path.relative_to(root).parts
    return parts[0] if len(parts) > 1 else None


def imported(path: Path, root: Path = PACKAGE) -> list[str]:
    """The modules `path` imports, as dotted names (relative imports made absolute)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ".".join(("suji", *path.relative_to(root).parts[:-1]))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                names.append(".".join([*base, node.module] if node.module else base))
            elif node.module:
                names.append(node.module)
    return names


def upward_imports(root: Path = PACKAGE) -> list[str]:
    """Every import of a module from a layer above its own."""
    upward = []
    for path in modules(root):
        here = folder_of(path, root)
        if here is None:
            continue
        for name in imported(path, root):
            parts = name.split(".")
            if parts[0] != "suji" or len(parts) < 2 or parts[1] not in LAYERS:
                continue
            if LAYERS[parts[1]] > LAYERS[here]:
                upward.append(f"{path.relative_to(root)} imports {name}")
    return upward


def test_the_layers_point_down_only():
    assert upward_imports() == []


def test_the_library_never_imports_flask_or_the_command_line():
    found = []
    for path in modules():
        if folder_of(path) in (*INTERFACES, None):  # suji/__main__.py starts the command line
            continue
        for name in imported(path):
            top = name.split(".")[0]
            if top in ("flask", "flask_babel", "flask_login", "flask_wtf", "werkzeug") or name.startswith(
                "suji.cli"
            ):
                found.append(f"{path.relative_to(PACKAGE)} imports {name}")
    assert found == []


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_over_about_500_lines(path):
    assert len(path.read_text(encoding="utf-8").splitlines()) <= MAX_LINES


def test_the_check_sees_a_late_import_that_runs_up(tmp_path):
    """A late import inside a function, relative or absolute, is the arrow a layer check most easily misses."""
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "dice.py").write_text(
        "def f():\n    from suji.web import settings\n    from ..solver import search\n"
    )
    (tmp_path / "web").mkdir()
    (tmp_path / "web" / "app.py").write_text("from suji.rules import dice\nfrom ..core import text\n")
    assert upward_imports(tmp_path) == [
        "rules/dice.py imports suji.web",
        "rules/dice.py imports suji.solver",
    ]

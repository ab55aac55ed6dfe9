"""Compiled twins of the hot modules: the same source text built by Cython, used only when built from that text.

    suji/solver/sums.py ──pip install (the build hook, suji/dev/native_build.py: Cython, a C compiler)──▶
        suji/_native/suji.solver.sums.<ABI>.so + manifest.json (the SHA-256 of the text it was built from)
    import suji.solver.sums ──NativeFinder──▶ the twin, when the manifest's hash is the .py file's own; else the .py

The solver's search and the checker's stripping are plain Python loops over ints, sets and tuples, tuned as far as
CPython goes (README: "Speed"). Cython compiles the same files, unchanged, to C: the loops run without the
interpreter's dispatch, and the solver answers in about 0.6 of the time. Nothing is written twice: there is one
source, the .py file, and the twin is that file compiled, so every test of the module is a test of its twin.

A twin is never stale: it is used only when the SHA-256 of the .py file next to it is the one it was built from,
so a module edited since the last `pip install -e .` runs as written until the next one. Without a compiler, or
with SUJI_NATIVE=0 in the environment, every module runs as written; nothing else changes.

One module is written for C and has no .py: the stripping's walk of sub-formulas in 64-bit ints
(suji/rules/language/subformula_walk.pyx, EXTENSIONS). It is built and found the same way, by the hash of its .pyx;
where it is not built (or is stale) it cannot be imported, and its caller (suji.rules.language.subformulas) uses its
own general search instead, which gives the same answers.

Only the standard library here: the build hook reads MODULES from this file before anything is installed.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from pathlib import Path

# The modules compiled, by their import names: the solver's search and the checker's reading and stripping. The
# brute-force reference (suji.solver.listing) and the evaluator it lists formulas with stay as written, so
# `suji bench` compares the solver with the same reference as before (compiling the evaluator too made the reference
# about 9% faster and the answers to /api/check no faster in `suji loadtest`).
MODULES = (
    "suji.rules.exact",
    "suji.rules.language.automaton",
    "suji.rules.language.reader",
    "suji.rules.language.subformulas",
    "suji.rules.scoring",
    "suji.solver.dice_counts",
    "suji.solver.terms",
    "suji.solver.sums",
    "suji.solver.search",
)
# Modules written for C (a .pyx, no .py), each with a caller that answers the same without it.
EXTENSIONS = ("suji.rules.language.subformula_walk",)
DIRECTORY = "_native"  # in the suji package: the twins and their manifest
MANIFEST = "manifest.json"  # {module: the SHA-256 of the source text its twin was built from}
SWITCH = "SUJI_NATIVE"  # "0" (or no, false, off): every module as written, and an install builds none
OFF = ("0", "no", "false", "off")


def switched_off() -> bool:
    """Whether SUJI_NATIVE says to run every module as written (and to build no twin)."""
    return os.environ.get(SWITCH, "").strip().lower() in OFF


def source_hash(path: Path) -> str:
    """The SHA-256 of a module's source text, as the manifest records it."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def source_path(package_root: Path, module: str) -> Path:
    """Where a module of MODULES (a .py) or EXTENSIONS (a .pyx) is written (`package_root`: the suji package)."""
    return package_root.joinpath(*module.split(".")[1:]).with_suffix(".pyx" if module in EXTENSIONS else ".py")


class NativeFinder(importlib.abc.MetaPathFinder):
    """Finds a module's compiled twin, when it was built from the module's present text."""

    def __init__(self, package_root: Path) -> None:
        self.package_root = package_root
        self.directory = package_root / DIRECTORY
        try:
            self.manifest: dict[str, str] = json.loads((self.directory / MANIFEST).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            self.manifest = {}

    def find_spec(self, fullname: str, path: object = None, target: object = None):  # noqa: ANN201 - a ModuleSpec or None
        built_from = self.manifest.get(fullname)
        if built_from is None:
            return None
        try:
            if source_hash(source_path(self.package_root, fullname)) != built_from:
                return None  # edited since it was built: as written
        except OSError:
            return None
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            twin = self.directory / f"{fullname}{suffix}"
            if twin.is_file():
                return importlib.util.spec_from_file_location(fullname, twin)
        return None


def install(package_root: Path) -> NativeFinder | None:
    """Put the finder before Python's own (once), unless SUJI_NATIVE=0 or no twin was built."""
    if switched_off():
        return None
    for finder in sys.meta_path:
        if isinstance(finder, NativeFinder):
            return finder
    finder = NativeFinder(package_root)
    if not finder.manifest:
        return None
    sys.meta_path.insert(0, finder)
    return finder


def status() -> dict[str, bool]:
    """For each module of MODULES: whether the one imported is its compiled twin (imports them all)."""
    found = {}
    for module in MODULES:
        loaded = importlib.import_module(module)
        found[module] = isinstance(getattr(loaded, "__loader__", None), importlib.machinery.ExtensionFileLoader)
    return found


def extensions_built() -> dict[str, bool]:
    """For each module of EXTENSIONS: whether it can be imported (built, from its present text)."""
    found = {}
    for module in EXTENSIONS:
        try:
            importlib.import_module(module)
        except ImportError:
            found[module] = False
        else:
            found[module] = True
    return found


def summary() -> str:
    """One line for a banner or a benchmark: how many of the hot modules run compiled (imports them all), and
    whether the modules written for C are there."""
    compiled = sum(status().values())
    if all(extensions_built().values()):
        walk = ", and the sub-formula walk in C"
    else:
        walk = ", without the sub-formula walk in C"
    if compiled == len(MODULES):
        return f"compiled twins: all {compiled} hot modules{walk}"
    if switched_off():
        why = f"{SWITCH}=0"
    elif compiled:
        why = "the others were edited since the build"
    else:
        why = "none was built from the present text: no C compiler at install, or edited since"
    return f"compiled twins: {compiled} of {len(MODULES)} hot modules ({why}){walk}"

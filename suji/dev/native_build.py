"""Build the compiled twins of the hot modules (suji.core.native): Cython and the C compiler, at `pip install`.

    suji.core.native.MODULES ──Cython (the .py files as they are)──▶ C ──the C compiler──▶
        suji/_native/<module><ABI suffix> + manifest.json {module: SHA-256 of the text built}

pyproject.toml names this file as hatchling's build hook, so `pip install -e .` (and a wheel) builds the twins;
`python -m suji.dev.native_build` builds them again after editing a module (until then the edited module runs as
written: the manifest's hash no longer matches). A build that cannot run (no Cython, no compiler: a message says
which) leaves no twin, and suji runs as written. SUJI_NATIVE=0 at install time builds none.

Standard library only, but for Cython and setuptools (the build's own requirements), and hatchling when it runs
as the hook: nothing of suji is installed yet when it runs.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the checkout: pyproject.toml, suji/


def _native_module():  # noqa: ANN202 - suji/core/native.py, read by path (suji is not installed yet)
    spec = importlib.util.spec_from_file_location("_suji_native_settings", ROOT / "suji" / "core" / "native.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def build(root: Path = ROOT, log=print) -> list[str]:  # noqa: ANN001 - a print-like callable
    """Compile every module of MODULES into suji/_native with its manifest; the modules built ([] when none
    could be: the reason is logged)."""
    native = _native_module()
    package = root / "suji"
    target = package / native.DIRECTORY
    if os.environ.get(native.SWITCH, "") == "0":
        log(f"suji: {native.SWITCH}=0, no compiled modules built")
        return []
    try:
        from Cython.Build import cythonize
        from setuptools import Distribution, Extension
    except ImportError as error:
        log(f"suji: compiled modules not built, {error.name} is not installed: the modules run as written")
        return []
    shutil.rmtree(target, ignore_errors=True)  # an old twin never outlives its build
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        # The package's tree as it is (its __init__.py files give each module its full name) in a scratch folder,
        # so the C files and objects never land in the checkout.
        shutil.copytree(package, work / "suji", ignore=shutil.ignore_patterns("__pycache__", native.DIRECTORY, "*.so"))
        sources = {m: work / native.source_path(Path("suji"), m) for m in native.MODULES}
        extensions = [Extension(m, [str(path)]) for m, path in sources.items()]
        try:
            compiled = cythonize(
                extensions,
                # The annotations are documentation, not C types: the twin behaves as the module does.
                compiler_directives={"language_level": 3, "annotation_typing": False, "binding": True},
                build_dir=str(work / "c"),
                quiet=True,
            )
            distribution = Distribution({"ext_modules": compiled, "script_name": "native_build"})
            command = distribution.get_command_obj("build_ext")
            command.build_lib = str(work / "lib")
            command.build_temp = str(work / "tmp")
            command.parallel = os.cpu_count() or 1
            command.ensure_finalized()
            command.run()
        except Exception as error:  # noqa: BLE001 - any failure of the toolchain: suji runs as written
            log(f"suji: compiled modules not built ({type(error).__name__}: {error}): the modules run as written")
            return []
        target.mkdir()
        manifest = {}
        suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
        for module in native.MODULES:
            built = work / "lib" / Path(*module.split(".")[:-1]) / (module.split(".")[-1] + suffix)
            shutil.copy2(built, target / f"{module}{suffix}")
            manifest[module] = native.source_hash(native.source_path(package, module))
        (target / native.MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    log(f"suji: {len(manifest)} compiled modules built in {target}")
    return sorted(manifest)


try:
    from hatchling.builders.hooks.plugin.interface import BuildHookInterface
except ImportError:  # run as a script, without hatchling
    BuildHookInterface = object  # type: ignore[assignment,misc]


class NativeBuildHook(BuildHookInterface):  # type: ignore[misc,valid-type]
    """hatchling's hook: build the twins into suji/_native before the wheel (or the editable install) is made."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name != "wheel":
            return
        built = build(Path(self.root), log=lambda text: print(text, file=sys.stderr))
        if built and version != "editable":
            # The twins are ignored by git, so named: and the wheel is for this platform and Python.
            build_data["artifacts"].append("suji/_native/*")
            build_data["pure_python"] = False
            build_data["infer_tag"] = True


if __name__ == "__main__":
    sys.exit(0 if build() else 1)

"""Build the compiled twins of the hot modules (suji.core.native): Cython and the C compiler, at `pip install`.

    suji.core.native.MODULES ──Cython (the .py files as they are)──▶ C ──the C compiler──▶
        suji/_native/<module><ABI suffix> + manifest.json {module: SHA-256 of the text built}
    suji.core.native.EXTENSIONS (.pyx files, written for C) ──the same way──▶ the same folder and manifest

pyproject.toml names this file as hatchling's build hook, so `pip install -e .` (and a wheel) builds the twins;
`python -m suji.dev.native_build` builds them again after editing a module (until then the edited module runs as
written: the manifest's hash no longer matches). A build that cannot run (no Cython, no compiler, a folder it may not
write: a message says which) leaves no twin, and suji runs as written; so does SUJI_NATIVE=0 at install time.

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


def build(root: Path = ROOT, target: Path | None = None, log=print) -> list[str]:  # noqa: ANN001 - print-like
    """Compile every module of MODULES and EXTENSIONS into `target` (suji/_native of `root` by default) with its
    manifest; the modules built ([] when none could be: the reason is logged, and `target` then holds no twin).

    The twins are made in a folder of their own and put in place in one rename, so a server importing a module
    meanwhile finds the old set or the new one, never half of one. Each manifest entry is the hash of the very
    text compiled (a copy taken first): an edit during the build leaves that module as written.
    """
    native = _native_module()
    package = root / "suji"
    target = target if target is not None else package / native.DIRECTORY
    if native.switched_off():
        _remove(target)  # "builds none": no twin of an earlier build outlives it either
        log(f"suji: {native.SWITCH}=0, no compiled modules built")
        return []
    try:
        from Cython.Build import cythonize
        from setuptools import Distribution, Extension
    except ImportError as error:
        _remove(target)
        log(f"suji: compiled modules not built, {error.name} is not installed: the modules run as written")
        return []
    try:
        with tempfile.TemporaryDirectory() as scratch:
            work = Path(scratch)
            # The package's tree as it is (its __init__.py files give each module its full name) in a scratch
            # folder, so the C files and objects never land in the checkout.
            shutil.copytree(package, work / "suji", ignore=shutil.ignore_patterns("__pycache__", native.DIRECTORY, "*.so"))
            built_modules = (*native.MODULES, *native.EXTENSIONS)
            sources = {m: work / native.source_path(Path("suji"), m) for m in built_modules}
            compiled = cythonize(
                [Extension(m, [str(path)]) for m, path in sources.items()],
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
            fresh = work / "twins"
            fresh.mkdir()
            suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
            manifest = {}
            for module in built_modules:
                built = work / "lib" / Path(*module.split(".")[:-1]) / (module.split(".")[-1] + suffix)
                shutil.copy2(built, fresh / f"{module}{suffix}")
                manifest[module] = native.source_hash(sources[module])  # the text compiled, not the checkout's now
            (fresh / native.MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")
            _publish(fresh, target)
    except Exception as error:  # noqa: BLE001 - the toolchain, or a folder that cannot be written: run as written
        log(f"suji: compiled modules not built ({type(error).__name__}: {error}): the modules run as written")
        return []
    log(f"suji: {len(manifest)} compiled modules built in {target}")
    return sorted(manifest)


def _publish(fresh: Path, target: Path) -> None:
    """Put the folder `fresh` where `target` is, in one rename (the old one moved aside first, then removed)."""
    staged = target.with_name(f"{target.name}.new-{os.getpid()}")
    old = target.with_name(f"{target.name}.old-{os.getpid()}")
    _remove(staged)
    shutil.copytree(fresh, staged)
    if target.exists():
        os.replace(target, old)
    os.replace(staged, target)
    _remove(old)


def _remove(folder: Path) -> None:
    if folder.exists():
        shutil.rmtree(folder)


try:
    from hatchling.builders.hooks.plugin.interface import BuildHookInterface
except ImportError:  # run as a script, without hatchling
    BuildHookInterface = object  # type: ignore[assignment,misc]


class NativeBuildHook(BuildHookInterface):  # type: ignore[misc,valid-type]
    """hatchling's hook: the twins in suji/_native of the checkout for an editable install (the checkout is what
    runs), in a folder of the wheel's own for a wheel (the checkout is left as it is)."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name != "wheel":
            return

        def say(text: str) -> None:
            print(text, file=sys.stderr)

        if version == "editable":
            build(Path(self.root), log=say)
            return
        self._scratch = tempfile.TemporaryDirectory()
        twins = Path(self._scratch.name) / "_native"
        if build(Path(self.root), twins, log=say):
            for file in twins.iterdir():
                build_data["force_include"][str(file)] = f"suji/_native/{file.name}"
            build_data["pure_python"] = False  # a wheel for this platform and this Python
            build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict, artifact_path: str) -> None:
        scratch = getattr(self, "_scratch", None)
        if scratch is not None:
            scratch.cleanup()


if __name__ == "__main__":
    sys.exit(0 if build() else 1)

"""Find the project's data folders (grammar, templates, translations) from a checkout or an installed wheel."""

from __future__ import annotations

from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent.parent


def resource_dir(name: str) -> Path:
    """Return the folder `name` (``grammar``, ``templates`` or ``translations``).

    A wheel carries the folders inside the package under ``_data``; a source checkout (or an editable install)
    has them beside the package. The current directory never matters.
    """
    for candidate in (_PACKAGE_DIR / "_data" / name, _PACKAGE_DIR.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"suji data folder {name!r} not found beside {_PACKAGE_DIR}")

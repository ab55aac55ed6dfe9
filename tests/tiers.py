"""How many examples a property test tries: all of them in the full run, fewer in the quick tier.

The quick tier (`pytest -m "not slow and not browser"`, for working) tries QUICK_EXAMPLES of each property test
that asks for more; the full run (the README's command, which CI runs) tries every example the test asks for, so
it proves what it always did. conftest.py tells this module which run it is before any test module is imported.
"""

from __future__ import annotations

QUICK_EXAMPLES = 100
quick_tier = False  # set by conftest.pytest_configure when the run leaves the slow tests out


def examples(full: int) -> int:
    """`full` examples in the full run, at most QUICK_EXAMPLES in the quick tier."""
    return min(full, QUICK_EXAMPLES) if quick_tier else full

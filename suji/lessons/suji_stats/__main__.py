"""`python -m suji.lessons.suji_stats [WORKERS]`: solve the stored sample of rolls again and rewrite it.

A maintenance command: 2,000 seeded rolls, each solved now and after both re-rolls (`sample.precompute`, in
WORKERS processes), written to suji/lessons/data/suji_stats.json, then their figures printed.
"""

from __future__ import annotations

import sys

from suji.lessons.suji_stats.sample import precompute, stored_figures, write_stored

if __name__ == "__main__":  # pragma: no cover - a maintenance command
    workers = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    write_stored(precompute(processes=workers))
    print(stored_figures())

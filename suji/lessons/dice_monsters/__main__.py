"""`python -m suji.lessons.dice_monsters`: play the sample matches again and rewrite their stored results.

A maintenance command: 10,000 games of each match with the greedy bot (`lesson.precompute_matches`), written
to suji/lessons/monster_matches.json, which the matches experiment shows beside the student's run.
"""

from __future__ import annotations

import json

from suji.lessons.dice_monsters.lesson import MATCH_FILE, precompute_matches

if __name__ == "__main__":  # pragma: no cover - a maintenance command
    MATCH_FILE.write_text(json.dumps(precompute_matches(), indent=1) + "\n", encoding="utf-8")

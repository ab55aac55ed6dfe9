"""The daily puzzle's ranking: places with shared ranks, and short marks that tell equal nicknames apart.

    answers, best first ──places──▶ Place(rank, entry, name, tag)…

Pure: the caller (the web layer) reads the day's answers from its database in order (score down, earlier
answers first) and hands each as (entry, score, player id, nickname); the entry rides along untouched.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

E = TypeVar("E")

_TAG_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no look-alikes


@dataclass(frozen=True)
class Place(Generic[E]):
    """One line of the ranking: the rank (equal scores share it), the entry, the name as shown."""

    rank: int
    entry: E
    name: str | None
    tag: str = ""  # tells apart players who chose the same nickname: a short mark from the player's id


def player_tag(player_id: int) -> str:
    """A short, stable mark for a player (not their id, which would tell how many play): e.g. "#K3"."""
    digest = hashlib.sha256(f"suji-player:{player_id}".encode()).digest()
    return "#" + "".join(_TAG_ALPHABET[b % len(_TAG_ALPHABET)] for b in digest[:3])


def places(answers: Sequence[tuple[E, int, int, str | None]]) -> list[Place[E]]:
    """The ranking of answers given best first as (entry, score, player id, nickname).

    Standard competition ranking: 1, 1, 3 for scores 30, 30, 20. A nickname that more than one player on the
    board chose gets each player's tag; a unique one (or none) gets no mark.
    """
    names = Counter(name for _, _, _, name in answers if name)
    found: list[Place[E]] = []
    previous: int | None = None
    for position, (entry, score, player_id, name) in enumerate(answers, 1):
        rank = found[-1].rank if found and previous == score else position
        tag = player_tag(player_id) if name and names[name] > 1 else ""
        found.append(Place(rank, entry, name, tag))
        previous = score
    return found

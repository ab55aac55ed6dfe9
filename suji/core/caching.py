"""The one cache policy: every cache of the package is declared here, by name, with its size and why.

Three kinds, and nothing else:

- `computed_once`: a pure function of nothing (a table of exact probabilities, the scanner of the formula
  language, a lesson's stored figures): kept for the life of the process. It takes no arguments, so nothing a
  request sends can add an entry (decorating a function that takes any raises TypeError).
- `bounded(name)`: a pure function of arguments (a roll, a seed, a sheet's settings, a monster's dice): least
  recently used first out, at the size SIZES gives, so no client can grow the memory. `LruDict` is the same
  policy for the caches whose values are filled in by hand (advice solved on other processes; PDFs; checks).
- `Fresh(name, seconds)`: a value that changes by itself (how far the odds table's build has got), looked at
  again when it is older than `seconds`, so every page can show it without reading the disk each time.

`clear_all()` empties every bounded cache (tests use it); `sizes()` reports how full each is.
"""

from __future__ import annotations

import inspect
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from functools import cache, lru_cache
from typing import Any, Generic, TypeVar

F = TypeVar("F", bound=Callable[..., Any])
K = TypeVar("K")
V = TypeVar("V")

# name -> how many results are kept (each entry's size in the comment: the largest the cache can hold)
SIZES: dict[str, int] = {
    "drill_roll": 2048,  # a certified drill roll from (level, seed): a Roll, ~1 KB
    "solve_at_level": 512,  # the solver's answer for a drill roll: ~20 KB
    "best_answer": 512,  # one best formula of a drill roll at its level, checked: ~2 KB
    "drill_check": 1024,  # a drill formula's check by roll and text (< 202 characters), for its result page: ~2 KB
    "sheet_problems": 128,  # a worksheet version's problems with their keys: ~10 KB
    "version_problems": 32,  # a version's certified problems with their solutions (sheets, classes): < 1 MB
    "pdf_can_print": 4096,  # whether the PDF fonts draw one character: a bool
    "sheet_environment": 4,  # the Jinja environment of a printed sheet, per language
    "lesson_run": 64,  # an experiment's outcome by lesson, key, N, seed and language: a few rows
    "lesson_narrow_chart": 64,  # the phone layout of the same chart
    "lesson_chart": 64,  # an experiment's chart (SVG text, ~20 KB) by lesson, key, N, seed and language
    "monster_design": 32,  # a designed monster against the sample ones: a few rows
    "advice_outcomes": 256,  # the live-solved scores of a roll's outcomes: ~200 KB
    "dice_nets_pdf": 4,  # the printable dice, per language and paper: ~300 KB
    "class_problems": 256,  # a class session's problems parsed from their stored text: ~5 KB
    "class_miss": 8192,  # what one formula sent to a class problem made instead of a target: a few strings
    "odds_status": 8,  # the odds table's state, per table path (one in practice)
    "odds_row": 8192,  # one row of the odds table, inflated: 672 bytes
    "best_for_roll": 4096,  # the solver's best score and formula for a game's roll: a few hundred bytes
    "target_numbers": 1024,  # the targets of some target dice (a few numbers); 729 sets of three dice 1–9
    "accept_language": 256,  # the page language for one Accept-Language header: "ja" or "en"
    "sign_tables": 64,  # what p positive and q negative terms may do, by the number of + and − dice: ~2 KB
    "solver_terms": 64,  # the terms of a roll's number and ×/÷/constant/²/√ dice (suji.solver.terms): ~1 MB
    "squarefree": 4096,  # n = a²·b for one radicand: two ints
    "session_serializer": 4,  # Flask's session serializer, per secret key (one in practice)
    "session_cookie": 2048,  # what a session cookie's signature vouches for: its payload (< 4 KB), time, data
    "cookie_header": 2048,  # one Cookie header's cookies (< 4 KB of text), parsed
    "csrf_token": 4096,  # what a CSRF token's signature vouches for: the session's token and the time
    "furigana_pieces": 8192,  # one text of a page (a message, < 1 KB) as words with readings: ~2 KB
    "practice_item_stats": 4,  # what answers taught about the practice items, per database: ~10,000 floats
    "practice_learner": 1024,  # a pupil's learner model read from its stored JSON (< 8 KB): ~10 KB
    "translations": 8,  # the message catalog of one language (ja, en; anything else falls back to English)
    "pdf_fonts": 4,  # the fonts registered with ReportLab for one set of font files (one in practice)
    "pdf_latin_fonts": 4,  # the Latin fonts registered once per list of font files
    "gooball_turns": 2048,  # expected turns of a lone gooball by strategy, points and distance: ~600 states
    "monster_beats": 4096,  # P(a d x ≥ a d y) for two die sizes of a designed monster: a Fraction
    "monster_skill": 4096,  # P(a skill attack exists) for some attacking dice and a target die: a Fraction
    "monster_starts": 1024,  # who starts between two designed monsters (the designer's ?dice=): two Fractions
    "dummy_password": 4,  # the hash a login without an account is checked against, per password cost
    "practice_bank_figures": 8,  # the item bank's reference difficulties and family shares: ~30 floats each
    "odds_table": 4,  # the odds table read and checked once per file version, per path (one in practice)
    "formula_skills": 8192,  # the skill families of a formula kept in print (< 200 characters): a few names
}

_once: dict[str, Callable[[], Any]] = {}


def computed_once(function: F) -> F:
    """Keep the result of a function of nothing for the life of the process."""
    if inspect.signature(function).parameters:
        raise TypeError(f"{function.__qualname__} takes arguments: bound its cache with bounded(name)")
    cached = cache(function)
    _once[f"{function.__module__}.{function.__qualname__}"] = cached
    return cached  # type: ignore[return-value]

_bounded: dict[str, Any] = {}
_lru_dicts: dict[str, LruDict] = {}


def bounded(name: str) -> Callable[[F], F]:
    """An LRU cache of SIZES[name] results for a pure function whose arguments a request may choose."""

    def wrap(function: F) -> F:
        cached = lru_cache(maxsize=SIZES[name])(function)
        _bounded[name] = cached
        return cached  # type: ignore[return-value]

    return wrap


class LruDict(Generic[K, V]):
    """A thread-safe mapping that keeps the SIZES[name] most recently stored or read entries."""

    def __init__(self, name: str) -> None:
        self.limit = SIZES[name]
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()
        _lru_dicts[name] = self

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.limit:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)


class Fresh(Generic[K, V]):
    """Values worked out again once they are older than `seconds` (monotonic clock), SIZES[name] keys at most."""

    def __init__(self, name: str, seconds: float) -> None:
        self.seconds = seconds
        self._store: LruDict[K, tuple[float, V]] = LruDict(name)

    def get(self, key: K, compute: Callable[[K], V]) -> V:
        now = time.monotonic()
        seen = self._store.get(key)
        if seen is None or now - seen[0] > self.seconds:
            seen = (now, compute(key))
            self._store.put(key, seen)
        return seen[1]

    def clear(self) -> None:
        self._store.clear()


def clear_all() -> None:
    """Empty every bounded cache."""
    for cached in _bounded.values():
        cached.cache_clear()
    for store in _lru_dicts.values():
        store.clear()


def once_functions() -> dict[str, Callable[[], Any]]:
    """Every `computed_once` function created so far, by module and name."""
    return dict(_once)


def sizes() -> dict[str, tuple[int, int]]:
    """(entries now, limit) of every bounded cache created so far."""
    found = {name: (cached.cache_info().currsize, SIZES[name]) for name, cached in _bounded.items()}
    found.update({name: (len(store), store.limit) for name, store in _lru_dicts.items()})
    return found

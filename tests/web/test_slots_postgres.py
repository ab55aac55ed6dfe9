"""Slots and kept advice outcomes on a real PostgreSQL server, as several app servers share them.

Many threads, each its own connection, race for the slots at once: the primary key bounds them however the
transactions interleave. Skips, saying why, without a server (see test_games_postgres).
"""

from __future__ import annotations

import threading

import pytest

pytest.importorskip("psycopg", reason="psycopg is not installed (pip install 'psycopg[binary]')")

from test_games_postgres import app, server  # noqa: E402, F401  (the PostgreSQL app fixture)

from suji.web import advice, slots  # noqa: E402


def race(app, clients: list[str], limit: int) -> list[object]:  # noqa: ANN001, F811 - the PostgreSQL app
    barrier = threading.Barrier(len(clients))
    results: list[object] = []
    lock = threading.Lock()

    def take(client: str) -> None:
        with app.app_context():
            barrier.wait()
            try:
                found: object = slots.take(slots.HEAVY, client, limit, 60)
            except slots.Refused as refused:
                found = refused
            with lock:
                results.append(found)

    threads = [threading.Thread(target=take, args=(c,)) for c in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_twelve_clients_racing_for_three_slots_get_three(app):  # noqa: F811 - the PostgreSQL fixture
    with app.app_context():
        slots.taken(slots.HEAVY)  # the migrations, before the race
    results = race(app, [f"teacher {i}" for i in range(12)], 3)
    held = [r for r in results if isinstance(r, slots.Slot)]
    assert len(held) == 3 and sorted(s.number for s in held) == [0, 1, 2]
    assert all(isinstance(r, slots.Busy) for r in results if not isinstance(r, slots.Slot))
    with app.app_context():
        assert slots.taken(slots.HEAVY) == 3
        for slot in held:
            slots.release(slot)
        assert slots.taken(slots.HEAVY) == 0


def test_one_client_racing_itself_holds_one_slot(app):  # noqa: F811 - the PostgreSQL fixture
    with app.app_context():
        slots.taken(slots.HEAVY)
    results = race(app, ["the same browser"] * 6, 4)
    assert sum(isinstance(r, slots.Slot) for r in results) == 1
    assert sum(isinstance(r, slots.Held) for r in results) == 5


def test_advice_outcomes_are_kept_and_the_oldest_go(app, monkeypatch):  # noqa: F811 - the PostgreSQL fixture
    monkeypatch.setattr(advice, "MAX_STORED", 2)
    scores = {((1, 1, 2, 3, 4), ("+", "+", "²", "−")): 24, ((1, 2, 2, 3, 4), ("+", "+", "²", "−")): None}
    with app.app_context():
        for key in ("a", "b", "c"):
            advice.store_scores(key, scores)
        advice.store_scores("c", scores)  # a second process storing the same dice changes nothing
        advice.forget()
        assert advice.stored_scores("c") == scores and advice.stored_scores("b") == scores
        assert advice.stored_scores("a") is None

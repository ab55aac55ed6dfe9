"""suji.lessons.live: chunks of seeded trials that add up to the page's simulation, whatever way they are cut."""

from __future__ import annotations

import pytest

from suji.lessons import lessons
from suji.lessons.live import CHUNK, MAX_LIVE_TRIALS, chunk_trials, totals

LIVE_EXPERIMENTS = [(slug, e) for slug, lesson in lessons().items() for e in lesson.experiments if e.live]


def test_every_experiment_of_the_seed_games_runs_live():
    seed_games = {"nine-am", "dice-monsters", "silence", "gooball"}
    for slug in seed_games:
        assert all(e.live is not None for e in lessons()[slug].experiments), slug
    # the Sūji lesson: the target dice alone; its other experiments look rolls up in the odds table
    assert [e.key for e in lessons()["suji"].experiments if e.live] == ["targets"]
    assert {slug for slug, _ in LIVE_EXPERIMENTS} == seed_games | {"suji"}


def test_one_chunk_stays_small_and_a_whole_run_bounded():
    for _, experiment in LIVE_EXPERIMENTS:
        live = experiment.live
        assert (
            live.chunk <= CHUNK and live.max_trials <= MAX_LIVE_TRIALS and live.max_trials % live.chunk == 0
        )


@pytest.mark.parametrize(("slug", "experiment"), LIVE_EXPERIMENTS, ids=lambda v: getattr(v, "key", v))
def test_the_chunks_the_browser_fetches_add_up_to_the_pages_simulation(slug, experiment):
    size = experiment.live.chunk
    n, seed = size + size // 2 + 1, 11  # more than one chunk, the last one cut short
    trials = chunk_trials(experiment.live, seed, 0) + chunk_trials(experiment.live, seed, 1)[: size // 2 + 1]
    sums = [sum(values[i] for values, _ in trials) for i in range(len(trials[0][0]))]
    assert sums == totals(experiment.live, n, seed)
    outcome = experiment.run(n, seed, "en")
    assert [round(s / n, 12) for s in sums] == [round(row.simulated, 12) for row in outcome.rows]
    # each trial's dice are those the experiment says it rolls, each face up to that die's highest
    sides = experiment.live.dice
    for _, dice in trials[:50]:
        assert len(dice) == len(sides) and all(1 <= face <= s for face, s in zip(dice, sides, strict=True))


def test_a_seed_gives_the_same_trials_and_another_seed_others():
    experiment = next(e for _, e in LIVE_EXPERIMENTS if e.key == "totals")
    assert chunk_trials(experiment.live, 5, 3) == chunk_trials(experiment.live, 5, 3)
    assert chunk_trials(experiment.live, 5, 3) != chunk_trials(experiment.live, 6, 3)
    assert chunk_trials(experiment.live, 5, 3) != chunk_trials(experiment.live, 5, 4)
    assert MAX_LIVE_TRIALS % CHUNK == 0

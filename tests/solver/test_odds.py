"""The odds table: the all-targets solver against the live solver and brute force, the file, the build, lookups.

No test builds the whole table. A few parts are built for real; the other parts of a test table are filled
with "nothing makeable" rows, which is enough to test the file format, the checks, the joining and lookups.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import pytest

from suji.rules.dice import NUMBER_DICE_FACES, Roll, random_roll
from suji.solver.advice import advise, best_scores, choices, options_from_scores
from suji.solver.listing import reference_solve
from suji.solver.odds import LIVE, TABLE, TableError, best_by_target, open_table, space
from suji.solver.odds import build as odds_build
from suji.solver.odds import table as odds_table
from suji.solver.odds.facts import sample_rolls, stored_facts
from suji.solver.search import LEVEL_OPERATORS, best_score_by_target, solve

TARGETS = space.target_list()
PROOF_ROLLS = 200


def live_best(numbers, operators, level: int) -> dict[int, int]:
    """The live solver's best score of every target number: solve() on a roll asking for all of them."""
    roll = SimpleNamespace(number_dice=tuple(numbers), operator_dice=tuple(operators), targets=TARGETS)
    from suji.solver.dice_counts import DiceCounts
    from suji.solver.search import _best, irreducible
    from suji.solver.sums import find_hits
    from suji.solver.terms import terms_for

    dice = DiceCounts(roll, LEVEL_OPERATORS[level])  # type: ignore[arg-type]
    hits = find_hits(dice, terms_for(dice), set(TARGETS))
    return {t: _best(t, irreducible(found)).score for t, found in hits.items()}


# ---- the roll space ----------------------------------------------------------------------------------------


def test_the_space_counts_what_the_issue_counts():
    assert len(space.number_sets()) == 696 and sum(space.number_sets().values()) == 6**5
    assert len(space.full_operator_sets()) == 100 and sum(space.full_operator_sets().values()) == 6**4
    assert len(space.target_list()) == 672 and (TARGETS[0], TARGETS[-1]) == (111, 998)
    assert sum(space.target_dice_outcomes().values()) == 216
    # Levels 1 and 2 leave 26 operator sets that the full game never shows.
    assert len(space.operator_sets()) == 126
    for ops in space.full_operator_sets():
        for level in space.LEVELS:
            assert space.operator_index(space.level_operators(ops, level)) is not None
    assert space.number_index([3, 2, 1, 1, 4]) == space.number_index([1, 1, 2, 3, 4])
    assert space.number_index([7, 7, 7, 1, 1]) is None  # only two B dice show 7


# ---- the all-targets solver --------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(PROOF_ROLLS))
def test_best_score_by_target_agrees_with_the_live_solver_at_every_level(seed):
    roll = random_roll(f"odds-proof/{seed}")
    for level in space.LEVELS:
        usable = space.level_operators(roll.operator_dice, level)
        table_row = odds_table.encode_row(best_score_by_target(roll.number_dice, usable, TARGETS))
        assert odds_table.decode_row(table_row) == live_best(roll.number_dice, roll.operator_dice, level)


@pytest.mark.parametrize("seed", range(6))
def test_best_score_by_target_agrees_with_brute_force(seed):
    # Brute force lists every formula, so these rolls are smaller: four number dice, three operator dice.
    rng = random.Random(f"odds-brute/{seed}")
    numbers = [rng.choice(NUMBER_DICE_FACES[k]) for k in ("A", "A", "B", "C")]
    operators = [rng.choice(("+", "−", "×", "÷")) for _ in range(2)] + [rng.choice(("×11", "²", "√", "×10"))]
    roll = SimpleNamespace(number_dice=tuple(numbers), operator_dice=tuple(operators), targets=TARGETS)
    reference = {t: ref.score for t, ref in reference_solve(roll).items()}  # type: ignore[arg-type]
    assert best_score_by_target(numbers, operators, TARGETS) == reference


def test_best_score_by_target_answers_what_solve_answers_for_a_roll():
    roll = Roll.of(number_dice=[2, 1, 4, 1, 3], operator_dice=["+", "+", "²", "−"], target_dice=[4, 4, 6])
    best = best_score_by_target(roll.number_dice, roll.operator_dice, roll.targets)
    assert best == {t: b.score for t, b in solve(roll).best.items()}
    assert best[446] == 24  # RULES.md: 21²+4+1 scores 24 before costs


# ---- parts, the file, the checks ---------------------------------------------------------------------------

REAL_PARTS = (0, 345)  # 1 1 1 1 1, and a middling number set


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A table file: parts REAL_PARTS built for real, the others "nothing makeable"; joined by join_parts."""
    path = tmp_path_factory.mktemp("odds") / "odds.suji"
    odds_build.build(path, workers=1, parts=REAL_PARTS)
    assert not path.exists()  # a slice is never a table
    empty = odds_table.pack_rows(
        [bytes([odds_table.NOT_MAKEABLE]) * len(TARGETS)] * len(space.operator_sets())
    )
    folder = odds_build.parts_dir(path)
    for index in range(odds_build.part_count()):
        if index not in REAL_PARTS:
            odds_build.write_part(folder, index, empty)
    odds_build.join_parts(folder, path)
    assert not folder.exists()
    return path


@pytest.mark.slow
def test_a_built_part_holds_the_solvers_rows(built):
    table = open_table(built)
    numbers = list(space.number_sets())[REAL_PARTS[1]]
    for ops in random.Random(3).sample(space.operator_sets(), 12):
        assert table.best(numbers, ops) == best_score_by_target(numbers, ops, TARGETS)
    # Levels read the rows of the operator dice the level leaves.
    ops = ("+", "×", "÷", "√")
    assert table.best(numbers, ops, level=1) == best_score_by_target(numbers, ("+",), TARGETS)
    assert table.best(numbers, ops, level=2) == best_score_by_target(numbers, ("+", "×", "÷"), TARGETS)
    # best_score is the best over the targets of a roll; None when none can be made.
    targets = (123, 132, 213)
    found = table.best(numbers, ops, targets)
    assert table.best_score(numbers, ops, targets) == (max(found.values()) if found else None)
    assert table.best_score((1, 1, 1, 1, 1), ("+", "+", "+", "√"), (999 - 1,)) is None


@pytest.mark.slow
def test_the_table_is_small_and_says_what_it_is(built):
    header = open_table(built).header
    assert header["rules"] == space.rules_fingerprint() and header["rows"] == 696 * 126
    assert built.stat().st_size < 50_000_000


def _copy_with(built: Path, tmp_path: Path, change) -> Path:
    data = bytearray(built.read_bytes())
    change(data)
    path = tmp_path / "changed.suji"
    path.write_bytes(bytes(data))
    return path


@pytest.mark.slow
def test_a_damaged_truncated_stale_or_missing_table_is_refused_with_a_reason(built, tmp_path):
    def flip_last_byte(data):
        data[-1] ^= 0xFF

    def truncate(data):
        del data[len(data) // 2 :]

    def other_rules(data):
        text = bytes(data)
        rules = space.rules_fingerprint().encode()
        data[:] = text.replace(rules, b"0" * len(rules), 1)

    for change, code in ((flip_last_byte, "damaged"), (truncate, "damaged"), (other_rules, "stale")):
        path = _copy_with(built, tmp_path, change)
        with pytest.raises(TableError) as caught:
            odds_table.read_table(path)
        assert caught.value.code == code
        assert "suji odds build" in caught.value.message("en") and caught.value.message("ja")
    empty = tmp_path / "empty.suji"
    empty.write_bytes(b"")
    with pytest.raises(TableError, match="damaged"):
        odds_table.read_table(empty)
    with pytest.raises(TableError) as caught:
        open_table(tmp_path / "nowhere.suji")
    assert caught.value.code == "missing"
    assert odds_table.table_or_none(tmp_path / "nowhere.suji") is None


@pytest.mark.slow
def test_a_rebuilt_file_is_picked_up_and_a_damaged_one_is_never_used(built, tmp_path):
    path = tmp_path / "live.suji"
    path.write_bytes(built.read_bytes())
    assert open_table(path).header["rows"] == 696 * 126
    data = bytearray(path.read_bytes())
    data[-5] ^= 0x01
    path.write_bytes(bytes(data))
    with pytest.raises(TableError):
        open_table(path)


# ---- the build: resume, interruption, one at a time ----------------------------------------------------------


def test_an_interrupted_build_keeps_finished_parts_and_goes_on(tmp_path, monkeypatch):
    solved: list[int] = []
    monkeypatch.setattr(
        odds_build, "solve_part", lambda i: solved.append(i) or odds_table.pack_rows([b"\xff"])
    )
    path = tmp_path / "odds.suji"

    def stop_after_two(progress):
        if progress.done == 2:
            raise KeyboardInterrupt

    with pytest.raises(odds_build.BuildStopped) as stopped:
        odds_build.build(path, workers=1, parts=range(5), on_progress=stop_after_two)
    assert stopped.value.done == 2 and len(solved) == 2
    first = list(solved)
    # A damaged part is solved again; finished ones are not.
    part = odds_build._part_file(odds_build.parts_dir(path), first[0])
    part.write_bytes(part.read_bytes()[:-1] + b"!")
    progress = odds_build.build(path, workers=1, parts=range(5))
    assert sorted(solved[2:]) == sorted([first[0], *(set(range(5)) - set(first))])
    assert progress.done == progress.total == 5


def test_a_second_build_at_the_same_time_is_told_one_is_running(tmp_path):
    path = tmp_path / "odds.suji"
    with odds_build._Lock(path):
        assert odds_build.build_running(path)
        with pytest.raises(TableError) as caught:
            odds_build.build(path, workers=1, parts=[0])
    assert caught.value.code == "busy" and str(caught.value.detail)  # names the process
    assert not odds_build.build_running(path)
    assert odds_build.table_status(path).state == "missing"


def test_joining_refuses_a_missing_or_malformed_part(tmp_path):
    path = tmp_path / "odds.suji"
    odds_build.write_part(odds_build.parts_dir(path), 0, odds_table.pack_rows([b"\xff"]))  # one row, not 126
    with pytest.raises(TableError, match="partial"):
        odds_build.join_parts(odds_build.parts_dir(path), path)
    rows = [bytes([odds_table.NOT_MAKEABLE]) * len(TARGETS)] * len(space.operator_sets())
    odds_build.write_part(odds_build.parts_dir(path), 0, odds_table.pack_rows(rows))
    with pytest.raises(TableError) as caught:
        odds_build.join_parts(odds_build.parts_dir(path), path)
    assert caught.value.code == "partial" and not path.exists()
    status = odds_build.table_status(path)
    assert (status.state, status.done, status.total) == ("partial", 1, 696)


@pytest.mark.slow
def test_the_command_line_build_says_when_another_is_running(tmp_path):
    path = tmp_path / "odds.suji"
    with odds_build._Lock(path):
        result = subprocess.run(
            [sys.executable, "-m", "suji", "odds", "build", "--path", str(path), "--lang", "en"],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
    assert result.returncode == 1 and "Another build of the odds table is running" in result.stderr
    assert "Traceback" not in result.stderr


# ---- lookups for the rest of the app -------------------------------------------------------------------------


class LiveTable:
    """A stand-in table answering every lookup with the live solver (to test what reads a table)."""

    def covers(self, numbers, operators, targets) -> bool:
        return True

    def best_score(self, numbers, operators, targets, level=3):
        best = best_score_by_target(numbers, operators, targets)
        return max(best.values()) if best else None


@pytest.mark.slow
def test_advice_from_lookups_is_the_advice_of_the_live_solver():
    roll = Roll.of(number_dice=[2, 1, 3, 1, 4], operator_dice=["+", "+", "−", "²"], target_dice=[4, 4, 6])
    live = advise(roll, rerolled=1)
    looked_up = advise(roll, rerolled=1, table=LiveTable())  # type: ignore[arg-type]
    assert [o.to_dict() for o in looked_up.options] == [o.to_dict() for o in live.options]
    # Costs come after the outcomes: the same scores give the advice for any costs spent.
    found = choices(roll)
    scores = best_scores(roll, found.keys())
    assert options_from_scores(found, scores, 2, 1).best.to_dict() == advise(roll, 2, 1).best.to_dict()


@pytest.mark.slow
def test_best_by_target_says_where_the_answer_came_from(built):
    numbers = list(space.number_sets())[REAL_PARTS[1]]
    ops = ("+", "−", "×", "×11")
    from_table, source = best_by_target(numbers, ops, table=open_table(built))
    live, live_source = best_by_target(numbers, ops)
    assert (source, live_source) == (TABLE, LIVE) and from_table == live
    # Dice the standard set cannot show are worked out live even with a table.
    custom, custom_source = best_by_target((9, 9, 1, 1, 1), ops, table=open_table(built))
    assert custom_source == LIVE and custom == best_score_by_target((9, 9, 1, 1, 1), ops, TARGETS)


@pytest.mark.slow
def test_odds_show_prints_the_json_the_issue_names(built):
    numbers = list(space.number_sets())[REAL_PARTS[1]]
    args = [
        "odds",
        "show",
        "--number-dice",
        *map(str, numbers),
        "--operator-dice",
        "+",
        "-",
        "*",
        "x11",
        "--json",
    ]
    for path, source in ((built, TABLE), (built.with_name("none.suji"), LIVE)):
        result = subprocess.run(
            [sys.executable, "-m", "suji", *args, "--path", str(path)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        data = json.loads(result.stdout)
        assert set(data) == {"number_dice", "operator_dice", "level", "source", "best"}
        assert data["source"] == source and data["level"] == 3
        expected = best_score_by_target(numbers, ("+", "−", "×", "×11"), TARGETS)
        assert data["best"] == {str(t): s for t, s in sorted(expected.items())}


# ---- the stored facts ----------------------------------------------------------------------------------------


def test_the_stored_facts_are_for_these_rules_and_add_up():
    facts = stored_facts()
    assert facts is not None, "suji/solver/odds/facts.json is missing or stale: run suji odds facts --write"
    assert facts["outcomes"] == {"number_dice": 7776, "operator_dice": 1296, "target_dice": 216}
    for level in ("1", "2", "3"):
        data = facts["levels"][level]
        distribution = {int(s): Fraction(v["fraction"]) for s, v in data["best_score_distribution"].items()}
        assert sum(distribution.values()) == 1
        mean = sum((s * p for s, p in distribution.items()), Fraction(0))
        assert Fraction(data["mean_best_score"]["fraction"]) == mean
        p_make = Fraction(data["p_make"]["fraction"])
        assert 0 < p_make < 1 and 1 - p_make <= distribution[0]
        assert len(data["target_odds"]) == 672
    # More operators can only make more: level 1 ⊂ level 2 ⊂ level 3.
    p = [Fraction(facts["levels"][lv]["p_make"]["fraction"]) for lv in ("1", "2", "3")]
    assert p[0] < p[1] < p[2]


@pytest.mark.slow
def test_the_stored_facts_came_from_rows_the_live_solver_agrees_with():
    facts = stored_facts()
    assert facts is not None
    assert [(tuple(s["number_dice"]), tuple(s["operator_dice"]), s["level"]) for s in facts["sample"]] == [
        (n, ops, level) for n, ops, level in sample_rolls()
    ]
    for sample in facts["sample"]:
        expected = live_best(sample["number_dice"], sample["operator_dice"], sample["level"])
        assert {int(t): s for t, s in sample["best"].items()} == expected

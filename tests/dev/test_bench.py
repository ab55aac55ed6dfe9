"""suji.dev.bench: a quick smoke run of `suji bench`, and the pieces it is built from."""

from __future__ import annotations

import argparse
import re
from collections import Counter

import pytest

from suji.cli import main
from suji.dev import bench, timing
from suji.rules.language.evaluate import evaluate, is_formula
from suji.rules.language.reader import parse
from suji.rules.scoring import check, formula_score, strip_redundant

ROW = re.compile(r"^(?P<name>.+?)\s+(?P<count>\d+)\s+(?P<median>\d+\.\d{3})\s+(?P<p95>\d+\.\d{3})$")


def rows_of(output: str) -> dict[str, tuple[int, float, float]]:
    rows = {}
    for line in output.splitlines():
        match = ROW.match(line)
        if match:
            rows[match["name"]] = (int(match["count"]), float(match["median"]), float(match["p95"]))
    return rows


def test_bench_check_prints_median_p95_and_count(capsys):
    status = bench.main(argparse.Namespace(rolls=6, seed=3, only="check"))
    out = capsys.readouterr().out
    assert status == 0
    rows = rows_of(out)
    assert set(rows) == {
        "check",
        "check, baseline: brute-force strip (exact)",
        "check, baseline: brute-force strip (SymPy)",
    }
    assert rows["check"][0] == rows["check, baseline: brute-force strip (exact)"][0] == 6
    assert rows["check, baseline: brute-force strip (SymPy)"][0] == 1
    for _count, median, p95 in rows.values():
        assert 0 < median <= p95
    assert re.search(r"^goal: check median ≤ 5 ms — (met|NOT met)$", out, re.M)


def test_suji_bench_command(capsys):
    assert main(["bench", "--rolls", "3", "--seed", "1", "--only", "check"]) == 0
    assert rows_of(capsys.readouterr().out)["check"][0] == 3


def test_unknown_benchmark_or_no_rolls(capsys):
    assert bench.main(argparse.Namespace(rolls=3, seed=1, only="no-such-benchmark")) == 2
    assert "no-such-benchmark" in capsys.readouterr().err
    assert bench.main(argparse.Namespace(rolls=0, seed=1, only=None)) == 2


def test_benchmarks_can_be_registered(monkeypatch, capsys):
    monkeypatch.setattr(timing, "BENCHMARKS", dict(timing.BENCHMARKS))

    @bench.register("extra-thing")
    def extra(rolls, seed):
        return [bench.Timing("extra-thing", [0.001] * rolls)]

    assert timing.BENCHMARKS["extra-thing"] is extra
    assert bench.main(argparse.Namespace(rolls=4, seed=1, only="extra")) == 0
    assert rows_of(capsys.readouterr().out) == {"extra-thing": (4, 1.0, 1.0)}


@pytest.mark.parametrize(
    ("values", "pct", "expected"),
    [
        ([3, 1, 2], 50, 2),
        ([4, 1, 3, 2], 50, 2.5),
        (list(range(1, 101)), 95, 95),
        ([7], 95, 7),
        ([1, 2], 95, 2),
    ],
)
def test_percentile(values, pct, expected):
    assert timing.percentile(values, pct) == expected


def test_typical_answers_use_all_nine_dice_and_are_reproducible():
    answers = bench.typical_answers(12, seed=5)
    assert len(answers) == 12
    assert answers == bench.typical_answers(12, seed=5)
    for text, roll in answers:
        reading = parse(text)
        assert is_formula(reading.faces)
        numbers = Counter(6 if f == 9 else f for f in reading.faces if isinstance(f, int))
        operators = Counter(f for f in reading.faces if isinstance(f, str))
        assert numbers == Counter(roll.number_dice)
        assert operators == Counter(roll.operator_dice)
        assert check(text, roll).valid


def test_baseline_strippers_agree_with_strip_redundant():
    for text, _roll in bench.typical_answers(8, seed=2):
        faces = parse(text).faces
        kept = strip_redundant(faces)
        for value_of in (evaluate, bench.sympy_value_of):
            other = bench.bruteforce_strip(faces, value_of)
            assert len(other) == len(kept)
            assert formula_score([faces[i] for i in other]) == formula_score([faces[i] for i in kept])


@pytest.mark.slow  # makes the largest sheets and a class, and the old largest PDF (seconds of CPU)
def test_bench_heavy_times_the_dearest_requests_beside_the_old_largest(capsys):
    assert bench.main(argparse.Namespace(rolls=1, seed=2, only="heavy")) == 0
    out = capsys.readouterr().out
    for name in ("worksheet PDF, 30 problems in all", "worksheet JSON", "new class, 20 level-3 problems",
                 "baseline: PDF of 40 × 6"):  # fmt: skip
        assert name in out
    assert out.count("goal: ") == 4 and "of the largest before" in out

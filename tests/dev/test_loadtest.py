"""suji.dev.loadtest: the /api/check load against the bare baseline, in turns, with the figures --json promises."""

from __future__ import annotations

import argparse
import json

import pytest

from suji.dev import loadtest


def test_figures_of_several_bursts_add_up():
    found = loadtest.figures([([0.001, 0.003], 0, 1.0), ([0.002], 1, 0.5)], clients=2)
    assert found["requests"] == 3 and found["errors"] == 1 and found["seconds"] == 1.5
    assert found["requests_per_second"] == 2.0
    assert found["p50_ms"] == 2.0 and found["max_ms"] == 3.0


@pytest.mark.slow  # starts suji serve and the baseline server
def test_the_check_load_runs_beside_the_baseline_and_prints_the_ratio(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("SUJI_INSTANCE_PATH", str(tmp_path / "instance"))
    parser = argparse.ArgumentParser()
    loadtest.add_arguments(parser)
    args = parser.parse_args(["--requests", "90", "--clients", "2", "--threads", "2", "--json"])
    assert loadtest.run(args) == 0
    found = json.loads(capsys.readouterr().out)
    assert set(found) == {"requests_per_s", "baseline_requests_per_s", "ratio", "p50_ms", "p99_ms", "errors",
                          "compiled_twins"}  # fmt: skip
    assert found["compiled_twins"].startswith("compiled twins: ")
    assert found["errors"] == 0 and found["requests_per_s"] > 0 and found["baseline_requests_per_s"] > 0
    assert found["ratio"] == round(found["requests_per_s"] / found["baseline_requests_per_s"], 3)
    assert 0 < found["p50_ms"] <= found["p99_ms"]


@pytest.mark.slow  # starts suji serve and asks live advice (no odds table in tests)
def test_pages_under_live_advice_are_measured_beside_pages_alone(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("SUJI_INSTANCE_PATH", str(tmp_path / "instance"))
    parser = argparse.ArgumentParser()
    loadtest.add_arguments(parser)
    args = parser.parse_args(["--endpoint", "advise-pages", "--clients", "3", "--json"])
    assert loadtest.run(args) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["questions"] == 3 and found["statuses"]["200"] == 3  # every player got its advice in the end
    assert set(found["statuses"]) <= {"200", "202", "503"}
    assert found["page_before_p50_ms"] > 0 and found["pages_during"] >= 1

"""`suji classload` over several processes (issue 21): K classes × N pupils on P `suji serve` processes behind a
round-robin proxy, the answers counted on the dashboards and in the database (slow: it starts real servers)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


@pytest.mark.slow
@pytest.mark.parametrize("proxy", ["python", "auto"])
def test_classes_over_several_processes_lose_nothing(proxy):
    done = subprocess.run(
        [sys.executable, "-m", "suji.dev.classload", "--classes", "2", "--students", "3", "--problems", "2",
         "--processes", "2", "--threads", "4", "--proxy", proxy, "--json"],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    # 2 classes × (3 pupils × 2 problems + 1 pupil who misses once first × 2 problems) = 16 attempts
    assert figures["answers_expected"] == figures["answers_sent"] == 16
    assert figures["answers_on_dashboard"] == figures["answers_in_database"] == 16
    assert figures["errors"] == figures["lost"] == figures["doubled"] == 0
    assert figures["lost_in_database"] == figures["doubled_in_database"] == 0
    assert figures["processes"] == 2 and figures["proxy"] in ("nginx", "roundrobin")
    assert figures["answer_p99_ms"] >= figures["answer_p95_ms"] >= figures["answer_p50_ms"] > 0


def test_bad_options_are_refused():
    done = subprocess.run([sys.executable, "-m", "suji.dev.classload", "--classes", "60"], capture_output=True,
                          text=True, timeout=60)  # fmt: skip
    assert done.returncode == 2 and "--classes 1-50" in done.stderr

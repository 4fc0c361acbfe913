"""CI smoke run of the layout zoo: a small draw through the real collect path (not a score threshold).

The full suite (60 tasks) is a benchmark (docs/benchmarks.md), not a test; this only proves the
bench runs end to end on a fresh random seed, printed so a failure can be reproduced.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from prefect_autodata.bench import run_zoo_bench, zoo_markdown

TASKS = 4  # a few tasks: each is a whole collect (the suite's time budget); the benchmark draws 60


def test_a_small_zoo_draw_runs_end_to_end(tmp_path, capsys):
    seed = int(os.environ.get("ZOO_SEED") or random.randrange(1_000_000))
    with capsys.disabled():
        print(
            f"\nzoo smoke seed {seed} (rerun with ZOO_SEED={seed} or `autodata bench --suite zoo --seed {seed} --tasks {TASKS}`)"
        )
    report = run_zoo_bench(seed=seed, tasks=TASKS, root=tmp_path)
    assert len(report.tasks) == TASKS
    assert sum(a.tasks for a in report.per_family.values()) == TASKS
    assert sum(a.tasks for a in report.per_kind.values()) == TASKS
    assert sum(a.tasks for a in report.per_domain.values()) == TASKS
    for t in report.tasks:
        assert t.status and t.family != "?", t
        assert 0.0 <= t.f1 <= 1.0 and t.expected_rows >= 3
    data = report.model_dump(mode="json")
    for key in ("per_family", "per_kind", "per_domain", "tasks", "seed", "median_agent_seconds", "f1"):
        assert key in data
    assert f"seed {seed}" in zoo_markdown(report)


def _cli(args: list[str], tmp_path) -> subprocess.CompletedProcess:
    env = {**os.environ, "AUTODATA_WORKSPACE": str(tmp_path / "ws")}
    exe = str(Path(sys.executable).parent / "autodata")
    return subprocess.run([exe, *args], capture_output=True, text=True, env=env, timeout=600)


@pytest.mark.parametrize(
    "args",
    [["--suite", "nope"], ["--suite", "zoo", "--tasks", "t04-x,t05-y"], ["--suite", "zoo", "--tasks", "0"]],
)
def test_bad_bench_options_are_one_line_exit_2(args, tmp_path):
    p = _cli(["bench", *args], tmp_path)
    assert p.returncode == 2, p.stderr
    assert len(p.stderr.strip().splitlines()) == 1 and "Traceback" not in p.stderr


def test_cli_zoo_json_names_the_seed_and_the_groups(tmp_path):
    seed = random.randrange(1_000_000)
    p = _cli(["bench", "--suite", "zoo", "--seed", str(seed), "--tasks", "1", "--json"], tmp_path)
    assert p.returncode == 0, p.stderr[-2000:]
    data = json.loads(p.stdout)
    assert data["seed"] == seed and len(data["tasks"]) == 1
    assert {"per_family", "per_kind", "per_domain", "median_agent_seconds", "row_recall"} <= set(data)
    assert f"zoo seed {seed}" in p.stderr

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


def _cli(args: list[str], tmp_path, api: str | None = None) -> subprocess.CompletedProcess:
    """``autodata ARGS``; a command that runs flows gets ``api`` (the session's Prefect API) as
    PREFECT_API_URL instead of starting an ephemeral server of its own (~10 s per process)."""
    env = {**os.environ, "AUTODATA_WORKSPACE": str(tmp_path / "ws")}
    if api:
        env["PREFECT_API_URL"] = api
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


def test_cli_zoo_json_names_the_seed_and_the_groups(tmp_path, prefect_api_url):
    # One task of a one-request family: the CLI surface is under test here, not a slow layout (the
    # smoke run above draws any family).
    seed = random.randrange(1_000_000)
    args = [
        "bench",
        "--suite",
        "zoo",
        "--seed",
        str(seed),
        "--tasks",
        "1",
        "--family",
        "api_rows_header",
        "--json",
    ]
    p = _cli(args, tmp_path, prefect_api_url)
    assert p.returncode == 0, p.stderr[-2000:]
    data = json.loads(p.stdout)
    assert data["seed"] == seed and len(data["tasks"]) == 1
    assert data["tasks"][0]["family"] == "api_rows_header"
    assert {"per_family", "per_kind", "per_domain", "median_agent_seconds", "row_recall"} <= set(data)
    assert f"zoo seed {seed}" in p.stderr

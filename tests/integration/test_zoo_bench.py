"""CI smoke run of the layout zoo: a small draw through the real collect path (not a score threshold).

The full suite (60 tasks) is a benchmark (docs/benchmarks.md), not a test; this only proves the
bench runs end to end on a fresh random seed, printed so a failure can be reproduced.
"""

from __future__ import annotations

import os
import random

from prefect_autodata.bench import run_zoo_bench, zoo_markdown


def test_a_small_zoo_draw_runs_end_to_end(tmp_path, capsys):
    seed = int(os.environ.get("ZOO_SEED") or random.randrange(1_000_000))
    with capsys.disabled():
        print(
            f"\nzoo smoke seed {seed} (rerun with ZOO_SEED={seed} or `autodata bench --suite zoo --seed {seed} --tasks 12`)"
        )
    report = run_zoo_bench(seed=seed, tasks=12, root=tmp_path)
    assert len(report.tasks) == 12
    assert sum(a.tasks for a in report.per_family.values()) == 12
    assert sum(a.tasks for a in report.per_kind.values()) == 12
    assert sum(a.tasks for a in report.per_domain.values()) == 12
    for t in report.tasks:
        assert t.status and t.family != "?", t
        assert 0.0 <= t.f1 <= 1.0 and t.expected_rows >= 3
    data = report.model_dump(mode="json")
    for key in ("per_family", "per_kind", "per_domain", "tasks", "seed", "median_agent_seconds", "f1"):
        assert key in data
    assert f"seed {seed}" in zoo_markdown(report)

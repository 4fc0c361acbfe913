"""kill -9 at every timing of a streamed run: while pages are staged, while merging (before the commit),
right after the commit, and at random moments. The destination always holds the previous state or the
whole new batch, never a mix; the next run marks the killed one aborted and removes its stage file.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import time

import duckdb
import pytest

from prefect_autodata.deployments.examples import load_example
from prefect_autodata.flows.run_collector import run_spec
from prefect_autodata.runtime.spec import CollectorSpec, mirrored
from prefect_autodata.sandbox.sites.tiingo import DEMO_TOKEN

TICKERS = ["AAPL", "MSFT", "KO"]
ROWS = 3 * 252
SEED = random.randrange(1 << 30)

CHILD = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from prefect_autodata.flows.run_collector import run_spec
    from prefect_autodata.runtime import load, normalize
    from prefect_autodata.runtime.spec import CollectorSpec
    spec = CollectorSpec.model_validate_json(Path(sys.argv[1]).read_text())
    db, marker, phase = sys.argv[2], Path(sys.argv[3]), sys.argv[4]
    normalize.STREAM_BATCH_ROWS = 50  # several batches: a kill can land between them

    def hang(what):
        marker.write_text(what)
        time.sleep(600)

    if phase == "stage":
        append = load.Stage.append
        def staged(self, good, part=0):
            append(self, good, part)
            hang("stage")
        load.Stage.append = staged
    marker.with_suffix(".started").write_text("started")
    res = run_spec(spec, db, before_commit=(lambda: hang("merge")) if phase == "merge" else None)
    if phase == "after_commit":
        hang("after_commit " + res.status)
    """
)


def spec_for(base: str) -> CollectorSpec:
    data = mirrored(load_example("tiingo-aapl-2024"), base).model_dump(mode="json", exclude_none=True)
    data.update(name="killed", table="killed", incremental=None)
    data["sources"][0]["params"]["ticker"] = {"values": TICKERS}
    return CollectorSpec.model_validate(data)


def state(db: str) -> tuple[int, set, dict]:
    con = duckdb.connect(db, read_only=True)
    try:
        n, ids = con.execute("SELECT count(*), list(DISTINCT _autodata_run_id) FROM killed").fetchall()[0]
        runs = dict(con.execute("SELECT run_id, status FROM _autodata_runs").fetchall())
    finally:
        con.close()
    return n, set(ids), runs


def kill_at(spec_file, db, tmp_path, phase: str, delay: float | None = None) -> str:
    marker = tmp_path / f"m-{phase}-{delay}"
    env = dict(os.environ, AUTODATA_SECRET_TIINGO_TOKEN=DEMO_TOKEN)
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(spec_file), db, str(marker), phase], env=env)
    try:
        deadline = time.monotonic() + 240
        wait_for = marker.with_suffix(".started") if delay is not None else marker
        while not wait_for.exists():
            assert child.poll() is None, f"the run ended before the {phase} point"
            assert time.monotonic() < deadline, f"the run never reached the {phase} point"
            time.sleep(0.02)
        if delay is not None:
            time.sleep(delay)
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
    return marker.read_text() if marker.exists() else "random"


@pytest.mark.parametrize("phase", ["stage", "merge", "after_commit", "random"])
def test_kill_9_at_every_timing_leaves_the_previous_state_or_the_whole_batch(
    phase, sandbox_url, tmp_path, monkeypatch
):
    monkeypatch.setenv("AUTODATA_SECRET_TIINGO_TOKEN", DEMO_TOKEN)
    spec = spec_for(sandbox_url)
    spec_file = tmp_path / "spec.json"
    spec_file.write_text(spec.model_dump_json())
    db = str(tmp_path / "d.duckdb")
    first = run_spec(spec, db)
    assert first.status == "succeeded" and first.rows_landed == ROWS

    delay = random.Random(SEED).uniform(0.0, 2.0) if phase == "random" else None
    where = kill_at(spec_file, db, tmp_path, phase, delay)
    n, ids, runs = state(db)
    assert n == ROWS, (phase, where, SEED)
    killed = [r for r in runs if r != first.run_id]
    if where.startswith("after_commit"):
        assert ids == set(killed) and runs[killed[0]] == "succeeded", (where, runs)
    elif killed:  # killed before its commit (the random kill may come before the run was recorded)
        assert ids in ({first.run_id}, set(killed)), (where, ids, SEED)
        assert ids == {first.run_id} or runs[killed[0]] == "succeeded", (where, runs, SEED)

    again = run_spec(spec, db)
    assert again.status == "succeeded" and again.rows_landed == ROWS
    n, ids, runs = state(db)
    assert n == ROWS and ids == {again.run_id}
    assert all(s in ("succeeded", "aborted") for s in runs.values()), runs
    assert not (tmp_path / "staging").exists()  # the killed run's stage was removed

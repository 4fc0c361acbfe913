"""Every shipped example spec collects its sandbox task exactly (F1 = 1.0), and survives flaky chaos."""

from __future__ import annotations

import duckdb
import pytest

from prefect_autodata.deployments.examples import list_examples, load_example
from prefect_autodata.flows.run_collector import run_spec
from prefect_autodata.runtime.spec import mirrored
from prefect_autodata.sandbox.scorer import score
from prefect_autodata.sandbox.server import SandboxServer
from prefect_autodata.sandbox.sites.tiingo import DEMO_TOKEN
from prefect_autodata.sandbox.tasks import get_task

# example name -> sandbox task it answers
TASKS = {"tiingo-aapl-2024": "t04-aapl-2024"}
# examples that answer no catalog task; their own tests cover them
UNSCORED = {"sp500-daily"}  # latest trading day only: tests/integration/test_deployments.py


@pytest.fixture(autouse=True)
def token(monkeypatch):
    monkeypatch.setenv("AUTODATA_SECRET_TIINGO_TOKEN", DEMO_TOKEN)


def test_every_example_is_mapped_to_a_task():
    assert sorted(set(TASKS) | UNSCORED) == list_examples()


def collected(db, name):
    spec = load_example(name)
    con = duckdb.connect(db, read_only=True)
    try:
        return con.execute(f"SELECT * FROM {spec.table_name}").df(), spec
    finally:
        con.close()


@pytest.mark.parametrize("name", sorted(TASKS))
def test_example_scores_f1_1(name, sandbox_url, tmp_path):
    db = str(tmp_path / "x.duckdb")
    result = run_spec(mirrored(load_example(name), sandbox_url), db)
    assert result.status == "succeeded", result.error
    df, spec = collected(db, name)
    task = get_task(TASKS[name])
    s = score(df, task.ground_truth(), fields=task.fields)
    assert s.f1 == 1.0, s


def test_flaky_chaos_keeps_f1_and_no_duplicates(tmp_path):
    with SandboxServer(chaos="flaky", seed=1) as server:
        for name in sorted(TASKS):
            db = str(tmp_path / f"{name}.duckdb")
            result = run_spec(mirrored(load_example(name), server.base_url), db)
            assert result.status == "succeeded", result.error
            df, spec = collected(db, name)
            task = get_task(TASKS[name])
            assert score(df, task.ground_truth(), fields=task.fields).f1 >= 0.99
            assert not df.duplicated(subset=spec.primary_key).any()

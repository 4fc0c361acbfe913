"""Fan-out with one writer (issue 16): the Dask path streams. Workers fetch and normalize chunks of the
tickers into Parquet files; this process stages them in chunk order and merges once. Nothing of the
records comes back through the fetch step, and the table equals a single-process run of the same spec."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from prefect import flow
from prefect.task_runners import ThreadPoolTaskRunner

from prefect_autodata.deployments.dask import fanout_fetch, run_collector_dask
from prefect_autodata.deployments.examples import load_example
from prefect_autodata.flows.run_collector import run_spec
from prefect_autodata.runtime import load
from prefect_autodata.runtime.normalize import StreamNormalizer
from prefect_autodata.runtime.spec import CollectorSpec, mirrored
from prefect_autodata.sandbox.sites.tiingo import DEMO_TOKEN

TICKERS = ["AAPL", "MSFT", "KO", "NVDA", "BRK-B", "JPM", "XOM"]


@pytest.fixture(autouse=True)
def token(monkeypatch):
    monkeypatch.setenv("AUTODATA_SECRET_TIINGO_TOKEN", DEMO_TOKEN)


def prices_spec(sandbox_url: str) -> CollectorSpec:
    data = load_example("sp500-2024").model_dump(mode="json", exclude_none=True)
    data.update(name="fanout-check", table="fanout_check")
    data["sources"] = [data["sources"][1]]  # the prices source, over a fixed ticker list
    params = data["sources"][0]["params"]
    params["ticker"] = {"values": TICKERS}
    params["start"] = {"date": "2024-05-01"}
    params["end"] = {"date": "2024-06-28"}
    spec = mirrored(CollectorSpec.parse(data), sandbox_url)
    return spec.model_copy(
        update={"politeness": spec.politeness.model_copy(update={"rate_limit_per_host": 0})}
    )


def table(db: str, name: str) -> list[tuple]:
    con = duckdb.connect(db, read_only=True)
    try:
        return con.execute(
            f'SELECT "Ticker", "Date", "Open", "Close", "Volume" FROM {name} ORDER BY 1, 2'
        ).fetchall()
    finally:
        con.close()


def test_the_fanout_fetch_streams_chunks_into_the_stage(sandbox_url, tmp_path):
    spec = prices_spec(sandbox_url)
    db = str(tmp_path / "w.duckdb")
    stage = load.Stage(db, spec, "fanouttest")
    sink = StreamNormalizer(spec, stage, batch_rows=50)  # small batches: several files per chunk

    @flow(task_runner=ThreadPoolTaskRunner(max_workers=2))
    def fan_out():
        return fanout_fetch(3)(spec, base_url=None, today=None, cursor=None, sink=sink)

    collected, sources, requests = fan_out()
    try:
        assert collected.outputs == {} and collected.stream is sink  # no record came back to the writer
        assert sum("/prices" in str(s) for s in sources) == len(TICKERS) <= requests  # + robots.txt
        norm = collected.stream.finish()
        assert norm.frame.good is stage and norm.fetched == len(stage) > len(TICKERS) * 30
        staged = stage.read(["Ticker"])
        chunk = [TICKERS.index(t) // 3 for t in staged["Ticker"]]  # chunks of 3 tickers, staged in order
        assert chunk == sorted(chunk) and set(chunk) == {0, 1, 2}
        assert [p.name for p in Path(stage.path).parent.iterdir()] == [stage.path.name]  # files removed
    finally:
        stage.discard()


def test_a_dask_run_lands_what_one_process_lands(sandbox_url, tmp_path):
    pytest.importorskip("prefect_dask")
    from prefect_dask import DaskTaskRunner

    spec = prices_spec(sandbox_url)
    single = run_spec(spec, str(tmp_path / "one.duckdb"))
    assert single.status == "succeeded", single.error
    runner = DaskTaskRunner(
        cluster_kwargs={
            "n_workers": 2,
            "threads_per_worker": 1,
            "processes": False,
            "dashboard_address": None,
        }
    )
    db = str(tmp_path / "fan.duckdb")
    summary = run_collector_dask.with_options(task_runner=runner)(
        spec=spec.model_dump(mode="json", exclude_none=True), destination=db, chunks=3
    )
    assert summary["rows_landed"] == single.rows_landed > 0
    assert table(db, "fanout_check") == table(str(tmp_path / "one.duckdb"), "fanout_check")
    assert not (tmp_path / "staging").exists()  # the stage and the chunk files are gone

"""Streaming load: records flow page by page through normalize (in batches) into a DuckDB stage and one merge.

A JSON API on 127.0.0.1 answers one page per parameter value, in a random order of arrival (random delays,
4 concurrent requests), with keys repeated across values (the last in request order must win), values that
do not cast (rejected, counted over every batch) and nulls. The streamed run (tiny batches, so many of
them) must land exactly what the one-frame path lands from the same records.
"""

from __future__ import annotations

import random
import time
from datetime import UTC, datetime

import duckdb
import pytest
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route

from prefect_autodata.flows.run_collector import run_spec
from prefect_autodata.runtime import load, normalize
from prefect_autodata.runtime.fetch import Fetcher
from prefect_autodata.runtime.policy import FetchPolicy
from prefect_autodata.runtime.runner import collect
from prefect_autodata.runtime.spec import CollectorSpec
from prefect_autodata.sandbox.server import free_port, start_in_thread, stop_thread

SEED = random.randrange(1 << 30)
GROUPS = [f"g{i}" for i in range(9)]


def pages(seed: int) -> dict[str, list[dict]]:
    rng = random.Random(seed)
    out = {}
    for g in GROUPS:
        rows = []
        for _ in range(rng.randint(5, 25)):
            k = rng.randint(0, 60)  # keys repeat within and across groups
            v = rng.choice([round(rng.uniform(0, 100), 2), None, "n/a"])  # "n/a": not a float
            rows.append({"k": k, "v": v, "tag": rng.choice(["x", "y", None])})
        out[g] = rows
    return out


@pytest.fixture
def api():
    data = pages(SEED)
    rng = random.Random(SEED + 1)
    delays = {g: rng.uniform(0, 0.15) for g in GROUPS}

    def page(request):
        g = request.query_params["g"]
        time.sleep(delays[g])  # pages arrive out of request order
        return JSONResponse(data[g])

    port = free_port()
    server, thread = start_in_thread(
        Starlette(routes=[Route("/rows", page)]), "127.0.0.1", port, name="stream"
    )
    yield f"http://127.0.0.1:{port}"
    stop_thread(server, thread)


def spec_for(base: str) -> CollectorSpec:
    return CollectorSpec.model_validate(
        {
            "name": "stream-demo",
            "base_url": base,
            "primary_key": ["k"],
            "sources": [
                {
                    "kind": "json",
                    "request": {"url": "{base_url}/rows", "params": {"g": "{g}"}},
                    "params": {"g": {"values": GROUPS}},
                    "records": {"jsonpath": "$[*]"},
                    "fields": [
                        {"name": "k", "type": "integer", "jsonpath": "$.k"},
                        {"name": "v", "type": "float", "jsonpath": "$.v"},
                        {"name": "tag", "jsonpath": "$.tag"},
                        {"name": "g", "from_param": "g"},
                    ],
                }
            ],
            "politeness": {"rate_limit_per_host": 0, "concurrency_per_host": 4},
        }
    )


def rows(db: str) -> list[tuple]:
    con = duckdb.connect(db, read_only=True)
    try:
        return con.execute("SELECT k, v, tag, g, _autodata_source_url FROM stream_demo ORDER BY k").fetchall()
    finally:
        con.close()


def test_streamed_run_lands_what_the_one_frame_path_lands(api, tmp_path, monkeypatch):
    monkeypatch.setattr(normalize, "STREAM_BATCH_ROWS", 7)  # many batches, pages split across them
    batches = []
    append = load.Stage.append
    monkeypatch.setattr(
        load.Stage, "append", lambda self, good, part=0: (batches.append(len(good)), append(self, good, part))
    )
    spec = spec_for(api)
    streamed_db, frame_db = str(tmp_path / "s.duckdb"), str(tmp_path / "f.duckdb")
    res = run_spec(spec, streamed_db)
    assert res.status == "succeeded", (SEED, res.error)
    assert len(batches) > 3 and max(batches) <= 7 + 25, batches  # it streamed, in bounded batches

    with Fetcher(FetchPolicy(rate_limit_per_host=0), {"127.0.0.1"}) as fetcher:
        norm = normalize.normalize(spec, collect(spec, fetcher))
    load.begin_run(frame_db, spec, "f1", flow_run_id=None, started_at=datetime.now(UTC))
    stats, *_ = load.land_run(
        frame_db, spec, "f1", norm.frame.good, sources=[], rows_fetched=norm.fetched,
        rows_rejected=len(norm.frame.rejected), requests=0,
    )  # fmt: skip

    assert rows(streamed_db) == rows(frame_db), SEED
    assert res.rows_fetched == norm.fetched == sum(len(p) for p in pages(SEED).values())
    assert res.rows_rejected == len(norm.frame.rejected), SEED
    assert res.rows_landed == stats.rows_landed, SEED
    want = [i.model_dump() for i in norm.frame.issues]
    assert [i for i in res.issues if i["kind"] == "type_mismatch"] == want, SEED
    assert not (tmp_path / "staging").exists()  # the stage is removed after the merge


def test_a_stage_appended_out_of_order_keeps_the_last_row_in_request_order(tmp_path):
    spec = spec_for("https://example.org")
    stage = load.Stage(str(tmp_path / "d.duckdb"), spec, "r1")
    import pandas as pd

    def page(v: float) -> pd.DataFrame:
        return pd.DataFrame(
            {"k": pd.array([1], dtype="Int64"), "v": pd.array([v], dtype="Float64"), "tag": ["t"], "g": ["g"],
             "_autodata_source_url": ["u"], "_autodata_fetched_at": [pd.Timestamp(datetime.now(UTC))]}
        )  # fmt: skip

    stage.append(page(3.0), pd.Series([3]))  # the third page arrives first
    stage.append(page(1.0), pd.Series([1]))
    stage.append(page(2.0), pd.Series([2]))
    stage.finish()
    assert stage.duplicate_rows == 2 and stage.duplicate_examples == [["1"]]
    assert stage.read(["k", "v"])[["k", "v"]].values.tolist() == [[1, 3.0]]
    stage.discard()
    assert not stage.path.exists()


def test_a_failed_step_is_named_with_the_run(api, tmp_path):
    """StepFailed: the run result names the step that failed; nothing lands and no stage is left."""
    spec = spec_for(api)
    data = spec.model_dump(mode="json", exclude_none=True)
    data["sources"][0]["records"] = {"jsonpath": "$[*].nothing"}  # matches nothing: the fetch step fails
    res = run_spec(CollectorSpec.model_validate(data), str(tmp_path / "a.duckdb"))
    assert (res.status, res.failed_step) == ("failed", "fetch") and "no records" in res.error

    data = spec.model_dump(mode="json", exclude_none=True)
    data["sources"][0]["fields"][0]["jsonpath"] = "$.tag"  # the key is never an integer: every row rejected
    res = run_spec(CollectorSpec.model_validate(data), str(tmp_path / "b.duckdb"))
    assert (res.status, res.failed_step) == ("failed", "extract"), res.error
    assert "rejected" in res.error and res.rows_landed == 0
    assert not (tmp_path / "staging").exists()

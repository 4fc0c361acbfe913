"""Incremental cursor per partition: each ticker of a multi-ticker collector resumes from its own last date."""

from __future__ import annotations

from datetime import date
from urllib.parse import parse_qs, urlsplit

import duckdb
import pytest

from prefect_autodata.deployments.examples import load_example
from prefect_autodata.flows.run_collector import run_spec
from prefect_autodata.runtime.spec import CollectorSpec, mirrored
from prefect_autodata.sandbox.sites.tiingo import DEMO_TOKEN


@pytest.fixture(autouse=True)
def token(monkeypatch):
    monkeypatch.setenv("AUTODATA_SECRET_TIINGO_TOKEN", DEMO_TOKEN)


def sp500_daily(sandbox_url: str, tickers: list[str] | None = None) -> CollectorSpec:
    """The shipped sp500-2024 collector as a daily schedule would run it (end = today)."""
    data = load_example("sp500-2024").model_dump(mode="json", exclude_none=True)
    prices = data["sources"][1]["params"]
    prices["start"] = {"date": "2024-06-03"}
    prices["end"] = {"date": "today"}
    if tickers is not None:
        prices["ticker"] = {"values": tickers}
    spec = mirrored(CollectorSpec.parse(data), sandbox_url)
    return spec.model_copy(
        update={"politeness": spec.politeness.model_copy(update={"rate_limit_per_host": 0})}
    )


def price_starts(db: str, run_id: str) -> dict[str, str]:
    """ticker -> startDate of every price request the run made (from _autodata_sources)."""
    con = duckdb.connect(db, read_only=True)
    try:
        urls = [
            r[0]
            for r in con.execute(
                "SELECT url FROM _autodata_sources WHERE run_id = ? AND url LIKE '%/prices%'", [run_id]
            ).fetchall()
        ]
    finally:
        con.close()
    return {u.split("/daily/")[1].split("/")[0]: parse_qs(urlsplit(u).query)["startDate"][0] for u in urls}


def test_rerun_next_day_fetches_only_new_dates_for_every_ticker(sandbox_url, tmp_path):
    db = str(tmp_path / "sp.duckdb")
    spec = sp500_daily(sandbox_url, ["AAPL", "MSFT", "KO", "NVDA", "BRK-B"])  # the F1 test runs all 503
    first = run_spec(spec, db, today=date(2024, 6, 3))
    assert first.status == "succeeded", first.error
    starts = price_starts(db, first.run_id)
    assert len(starts) == 5 and set(starts.values()) == {"2024-06-03"}

    con = duckdb.connect(db, read_only=True)
    landed = {r[0] for r in con.execute('SELECT DISTINCT "Ticker" FROM sp500_2024').fetchall()}
    con.close()
    assert len(landed) == 5

    same_day = run_spec(spec, db, today=date(2024, 6, 3))
    assert same_day.status == "succeeded" and same_day.rows_landed == 0
    # up-to-date tickers make no request at all; only those with nothing landed yet (listed later) ask again
    assert set(price_starts(db, same_day.run_id)) == set(starts) - landed

    later = run_spec(spec, db, today=date(2024, 6, 5))
    assert later.status == "succeeded", later.error
    again = price_starts(db, later.run_id)
    assert set(again) == set(starts)
    assert {again[t] for t in landed} == {"2024-06-04"} and {again[t] for t in set(starts) - landed} <= {
        "2024-06-03"
    }
    con = duckdb.connect(db, read_only=True)
    n, distinct = con.execute(
        'SELECT count(*), count(DISTINCT ("Ticker", "Date")) FROM sp500_2024'
    ).fetchall()[0]
    new = con.execute("""SELECT count(*) FROM sp500_2024 WHERE "Date" > DATE '2024-06-03'""").fetchall()[0][0]
    con.close()
    assert n == distinct == first.rows_landed + later.rows_landed and later.rows_landed == new > 0


def test_a_new_partition_starts_from_the_declared_start(sandbox_url, tmp_path):
    db = str(tmp_path / "sp.duckdb")
    first = run_spec(sp500_daily(sandbox_url, ["AAPL", "MSFT"]), db, today=date(2024, 6, 4))
    assert first.status == "succeeded", first.error
    grown = run_spec(sp500_daily(sandbox_url, ["AAPL", "MSFT", "KO"]), db, today=date(2024, 6, 6))
    assert price_starts(db, grown.run_id) == {"AAPL": "2024-06-05", "MSFT": "2024-06-05", "KO": "2024-06-03"}
    assert grown.rows_landed == 2 + 2 + 4  # two new days each, KO's whole window
    con = duckdb.connect(db, read_only=True)
    cursor = con.execute(
        "SELECT cursor_value FROM _autodata_runs WHERE run_id = ?", [grown.run_id]
    ).fetchall()
    con.close()
    assert '"KO": "2024-06-06"' in cursor[0][0]

"""Benchmark: the shipped ``sp500-daily`` deployment on the sandbox, against the rate-limit minimum.

The sandbox Tiingo API enforces ``AUTODATA_SANDBOX_TIINGO_RATE`` requests/hour per token (429 past it)
and the spec's politeness caps requests/s per host; with one request per constituent, the fastest a
polite client can be is ``(N - 1) / rate`` seconds of API traffic (the physical limit). We report
wall time of the whole run (fetch, checks, landing with lineage) beside it.

    uv run --frozen python benchmarks/sp500_daily.py [--rate 10] [--backfill]

``--rate`` is requests/s (10 = a paid tier); ``--backfill`` also runs 2015-2024 for all constituents
fanned out one task per ticker chunk on a Dask task runner and reports rows/s and peak memory.
Ends with ``sp500-daily wall: N s (rate-limit minimum: M s)``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def peak_rss_sampler():
    """Peak RSS of this process and its children (Dask workers), sampled every 50 ms."""
    import psutil

    me = psutil.Process()
    peak = [0]
    stop = threading.Event()

    def run():
        while not stop.is_set():
            total = 0
            for p in [me, *me.children(recursive=True)]:
                try:
                    total += p.memory_info().rss
                except psutil.Error:
                    pass
            peak[0] = max(peak[0], total)
            time.sleep(0.05)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return peak, stop


def bench_daily(rate: float, workdir: Path) -> tuple[float, float, dict]:
    from prefect_autodata.deployments.examples import EXAMPLES_DIR, load_example
    from prefect_autodata.expectations.spec import load_checks
    from prefect_autodata.flows.run_collector import run_spec
    from prefect_autodata.runtime.spec import mirrored
    from prefect_autodata.sandbox.server import SandboxServer
    from prefect_autodata.sandbox.sites.tiingo import DEMO_TOKEN

    os.environ["AUTODATA_SECRET_TIINGO_TOKEN"] = DEMO_TOKEN
    os.environ["AUTODATA_SANDBOX_TIINGO_RATE"] = str(int(rate * 3600))  # the API's own limit, per hour
    spec = load_example("sp500-daily")
    spec = spec.model_copy(
        update={"politeness": spec.politeness.model_copy(update={"rate_limit_per_host": rate})}
    )
    checks = load_checks(EXAMPLES_DIR / "checks" / "stocks.checks.yaml")
    with SandboxServer() as server:
        import httpx

        # warm the sandbox's price index (a server-side cost, not the client's)
        httpx.get(f"{server.base_url}/api.tiingo.com/tiingo/daily/aapl/prices", params={"token": "x"})
        httpx.get(
            f"{server.base_url}/api.tiingo.com/tiingo/daily/aapl/prices",
            params={"token": DEMO_TOKEN},
            timeout=120,
        )
        import great_expectations  # noqa: F401  (import cost is paid once per worker process)

        t0 = time.perf_counter()
        result = run_spec(mirrored(spec, server.base_url), workdir / "daily.duckdb", checks=checks)
        wall = time.perf_counter() - t0
    assert result.status == "succeeded", result.error
    import duckdb

    con = duckdb.connect(str(workdir / "daily.duckdb"), read_only=True)
    try:
        api = con.execute(
            "SELECT count(*), min(fetched_at), max(fetched_at), count(*) FILTER (WHERE http_status = 429) "
            "FROM _autodata_sources WHERE url LIKE '%/prices%'"
        ).fetchall()[0]
        tickers = con.execute("SELECT count(DISTINCT ticker) FROM sp500_daily").fetchall()[0][0]
    finally:
        con.close()
    n_api, first, last, n429 = api
    minimum = (n_api - 1) / rate
    span = (last - first).total_seconds()
    return (
        wall,
        minimum,
        {
            "tickers": tickers,
            "rows": result.rows_landed,
            "api_requests": n_api,
            "http_429": n429,
            "api_span_s": round(span, 2),
            "observed_rate": round((n_api - 1) / span, 2) if span else None,
            "checks": result.checks_status,
        },
    )


def bench_backfill(workdir: Path, workers: int) -> dict:
    from prefect_autodata.deployments.dask import backfill_spec, run_fanout
    from prefect_autodata.sandbox.server import SandboxServer
    from prefect_autodata.sandbox.sites.tiingo import DEMO_TOKEN

    os.environ["AUTODATA_SECRET_TIINGO_TOKEN"] = DEMO_TOKEN
    os.environ["AUTODATA_SANDBOX_TIINGO_RATE"] = "1000000"
    with SandboxServer() as server:
        spec = backfill_spec("2015-01-01", "2024-12-31")
        peak, stop = peak_rss_sampler()
        t0 = time.perf_counter()
        result = run_fanout(spec, str(workdir / "backfill.duckdb"), mirror=server.base_url, workers=workers)
        wall = time.perf_counter() - t0
        stop.set()
    assert result["status"] == "succeeded", result
    return {
        "rows": result["rows"],
        "wall_s": round(wall, 1),
        "rows_per_s": round(result["rows"] / wall),
        "peak_rss_mib": round(peak[0] / 2**20),
        "workers": workers,
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument(
        "--rate", type=float, default=10.0, help="requests/s allowed by the API (10: a paid tier)"
    )
    ap.add_argument("--backfill", action="store_true", help="also the 2015-2024 Dask backfill")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        os.environ["AUTODATA_WORKSPACE"] = str(work / "ws")
        if args.backfill:
            print("backfill 2015-2024 (Dask):", bench_backfill(work, args.workers), flush=True)
        wall, minimum, info = bench_daily(args.rate, work)
        print(f"rate {args.rate:g} req/s:", info, flush=True)
        print(f"within {100 * (wall / minimum - 1):.1f}% of the minimum" if minimum else "")
        print(f"sp500-daily wall: {wall:.1f} s (rate-limit minimum: {minimum:.1f} s)")


if __name__ == "__main__":
    main()

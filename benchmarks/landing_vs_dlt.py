"""Land the sandbox's daily stock set (Tiingo-style API) into DuckDB: our runtime vs dlt's rest_api source.

Both engines read the same API from one sandbox process (started here on a free port), each in its own
subprocess so peak RSS is per engine. Usage: ``python benchmarks/landing_vs_dlt.py [--tickers N]``
(``--engines ours`` for our side alone while developing). Ends with the two lines
``landing speedup vs dlt: X.XX`` (our rows/s divided by dlt's) and ``landing peak RSS MiB: N`` (ours).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

START, END = "2015-01-01", "2024-12-31"


def tickers(n: int | None) -> list[str]:
    from prefect_autodata.sandbox.sites.tiingo import tickers as all_tickers

    out = sorted(all_tickers())
    return out[:n] if n else out


def stock_spec(base: str, names: list[str]):
    """The daily-price collector both our benchmarks run (also ``benchmarks/fanout.py``)."""
    from prefect_autodata.runtime.spec import CollectorSpec

    fields = [
        {"name": "ticker", "from_param": "ticker"},
        {"name": "date", "type": "date", "jsonpath": "$.date"},
    ]
    for c in (
        "open",
        "high",
        "low",
        "close",
        "adjOpen",
        "adjHigh",
        "adjLow",
        "adjClose",
        "divCash",
        "splitFactor",
    ):
        fields.append({"name": c, "type": "float", "jsonpath": f"$.{c}"})
    for c in ("volume", "adjVolume"):
        fields.append({"name": c, "type": "integer", "jsonpath": f"$.{c}"})
    return CollectorSpec.parse(
        {
            "name": "bench-stocks",
            "base_url": base,
            "primary_key": ["ticker", "date"],
            "sources": [
                {
                    "kind": "json",
                    "request": {
                        "url": "{base_url}/tiingo/daily/{ticker}/prices",
                        "params": {"startDate": START, "endDate": END, "token": "{secret:BENCH_TOKEN}"},
                    },
                    "params": {"ticker": {"values": names}},
                    "records": {"jsonpath": "$[*]"},
                    "fields": fields,
                }
            ],
            "politeness": {"rate_limit_per_host": 0, "concurrency_per_host": 8},
        }
    )


def run_ours(base: str, db: str, names: list[str], token: str) -> int:
    from prefect_autodata.flows.run_collector import run_spec

    os.environ["AUTODATA_SECRET_BENCH_TOKEN"] = token
    result = run_spec(stock_spec(base, names), db)
    if result.status != "succeeded":
        raise SystemExit(f"our run failed: {result.error}")
    return result.rows_landed


def run_dlt(base: str, db: str, names: list[str], token: str) -> int:
    import dlt
    from dlt.sources.rest_api import rest_api_source

    @dlt.resource(name="tickers", selected=False)
    def ticker_list():
        yield [{"ticker": t} for t in names]

    source = rest_api_source(
        {
            "client": {"base_url": base + "/", "paginator": "single_page"},
            "resource_defaults": {"write_disposition": "merge"},
            "resources": [
                ticker_list,
                {
                    "name": "prices",
                    "primary_key": ["_tickers_ticker", "date"],
                    "endpoint": {
                        "path": "tiingo/daily/{resources.tickers.ticker}/prices",
                        "params": {
                            "startDate": START,
                            "endDate": END,
                            "token": token,
                        },
                    },
                    "include_from_parent": ["ticker"],
                },
            ],
        }
    )
    pipe = dlt.pipeline(
        pipeline_name="bench_stocks",
        destination=dlt.destinations.duckdb(db),
        dataset_name="bench",
        pipelines_dir=str(Path(db).parent / "dlt_pipelines"),
    )
    pipe.run(source)
    import duckdb

    con = duckdb.connect(db, read_only=True)
    n = con.execute("SELECT count(*) FROM bench.prices").fetchall()[0][0]
    con.close()
    return n


def own_peak_rss() -> int:
    """This process's own peak RSS in bytes: ``VmHWM`` (the high-water mark of the memory map that ``exec``
    created). Not ``ru_maxrss``: on Linux it survives fork + exec, so a child reported at least the parent's
    peak at spawn time (~586 MiB after the parent read the ticker list; a bare ``python -c pass`` child
    reported 586). ``ru_maxrss`` only where ``/proc`` is missing."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def child(engine: str, base: str, db: str, names_file: str, token: str) -> None:
    # the ticker list comes from the parent: reading it from the sandbox's data set here would load the
    # whole price table into the measured process (it did until 2026-12-01: +~500 MiB on both engines)
    names = json.loads(Path(names_file).read_text())
    t0 = time.perf_counter()
    rows = (run_ours if engine == "ours" else run_dlt)(base, db, names, token)
    secs = time.perf_counter() - t0
    peak = own_peak_rss()
    print(json.dumps({"engine": engine, "rows": rows, "seconds": secs, "peak_rss": peak}))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tickers", type=int, default=None, help="first N tickers only (default: all)")
    ap.add_argument("--engines", default="ours,dlt", help="comma-separated: ours, dlt (default both)")
    ap.add_argument(
        "--child", nargs=5, metavar=("ENGINE", "BASE", "DB", "NAMES", "TOKEN"), help=argparse.SUPPRESS
    )
    args = ap.parse_args()
    if args.child:
        engine, base, db, names_file, token = args.child
        child(engine, base, db, names_file, token)
        return
    from prefect_autodata.sandbox.data import is_full_set
    from prefect_autodata.sandbox.server import free_port
    from prefect_autodata.sandbox.sites.tiingo import DEMO_TOKEN

    if not is_full_set():
        print("note: the real Instruct2DS stock set is not present; using generated sample records")
    port = free_port()
    env = dict(os.environ, AUTODATA_SANDBOX_TIINGO_RATE="100000000", PREFECT_SERVER_ANALYTICS_ENABLED="false")
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "--factory",
            "prefect_autodata.sandbox.app:build_app",
            "--port",
            str(port),
            "--log-level",
            "warning",
            "--no-access-log",
        ],
        env=env,
    )
    base = f"http://127.0.0.1:{port}/api.tiingo.com"
    try:
        import requests

        deadline = time.monotonic() + 120
        while True:  # wait for the server and warm its price index (not timed for either engine)
            try:
                requests.get(
                    f"{base}/tiingo/daily/AAPL/prices",
                    params={"token": DEMO_TOKEN, "startDate": START},
                    timeout=120,
                )
                break
            except requests.ConnectionError:
                if time.monotonic() > deadline:
                    raise SystemExit("sandbox did not start") from None
                time.sleep(0.5)
        results = {}
        with tempfile.TemporaryDirectory(prefix="autodata-bench-") as tmp:
            names_file = Path(tmp) / "tickers.json"
            names_file.write_text(json.dumps(tickers(args.tickers)))
            for engine in [e.strip() for e in args.engines.split(",") if e.strip()]:
                cmd = [
                    sys.executable,
                    __file__,
                    "--child",
                    engine,
                    base,
                    f"{tmp}/{engine}.duckdb",
                    str(names_file),
                    DEMO_TOKEN,
                ]
                out = subprocess.run(cmd, env=env, capture_output=True, text=True)
                if out.returncode != 0:
                    raise SystemExit(f"{engine} failed:\n{out.stderr[-3000:]}")
                results[engine] = json.loads(out.stdout.strip().splitlines()[-1])
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(f"{'engine':<6} {'rows':>10} {'seconds':>9} {'rows/s':>10} {'peak RSS MiB':>13}")
    for r in results.values():
        print(
            f"{r['engine']:<6} {r['rows']:>10} {r['seconds']:>9.2f} {r['rows'] / r['seconds']:>10.0f} {r['peak_rss'] / 2**20:>13.0f}"
        )
    ours, theirs = results.get("ours"), results.get("dlt")
    if ours and theirs:
        if ours["rows"] != theirs["rows"]:
            print(f"warning: row counts differ (ours {ours['rows']}, dlt {theirs['rows']})")
        speedup = (ours["rows"] / ours["seconds"]) / (theirs["rows"] / theirs["seconds"])
        print(f"landing speedup vs dlt: {speedup:.2f}")
    if ours:
        print(f"landing peak RSS MiB: {ours['peak_rss'] / 2**20:.0f}")


if __name__ == "__main__":
    main()

"""Fan-out with one writer vs a single process: the sandbox's daily stock API landed into DuckDB.

Single: ``run_spec`` in one process (fetch -> normalize -> stage -> merge, streamed). Fan-out: a Dask
``LocalCluster`` (2 worker processes) runs ``runtime.pipeline.extract_partition`` on chunks of the tickers
(fetch + normalize into Parquet files, no database access); one writer (this process) stages the files in
chunk order and merges them in one transaction (``load.Stage.append_parquet``, ``load.land_run``).
Prints rows/s and the peak RSS of the single process, of the writer and of each worker.
Usage: ``python benchmarks/fanout.py [--tickers N] [--chunks K]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from landing_vs_dlt import START, own_peak_rss, stock_spec, tickers  # noqa: E402


def peak_mib() -> float:
    """This process's own peak (``VmHWM``, as the landing benchmark): ``ru_maxrss`` survives fork + exec, so a
    child or a Dask worker reported at least its parent's peak at spawn time."""
    return own_peak_rss() / 2**20


def warm() -> int:
    """Import the runtime on a worker before timing (a fresh process spends seconds importing pandas/duckdb)."""
    import prefect_autodata.runtime.pipeline  # noqa: F401

    return os.getpid()


def partition(spec_data: dict, folder: str, prefix: str) -> dict:
    """One chunk on a worker: fetch + normalize into Parquet (the product's ``extract_partition``)."""
    from prefect_autodata.runtime.pipeline import extract_partition
    from prefect_autodata.runtime.spec import CollectorSpec

    out = extract_partition(CollectorSpec.parse(spec_data), folder, prefix)
    return {**out, "worker_pid": os.getpid(), "worker_peak_mib": peak_mib()}


def single(base: str, db: str, names: list[str]) -> dict:
    from prefect_autodata.flows.run_collector import run_spec

    t0 = time.perf_counter()
    res = run_spec(stock_spec(base, names), db)
    if res.status != "succeeded":
        raise SystemExit(f"single run failed: {res.error}")
    return {
        "mode": "single",
        "rows": res.rows_landed,
        "seconds": time.perf_counter() - t0,
        "peak_mib": peak_mib(),
    }


def fanout(base: str, db: str, names: list[str], chunks: int, workers: int) -> dict:
    import yaml
    from dask.distributed import Client, LocalCluster

    from prefect_autodata.runtime import load
    from prefect_autodata.runtime.spec import CollectorSpec

    spec = stock_spec(base, names)
    t0 = time.perf_counter()
    size = max(1, -(-len(names) // chunks))
    with (
        tempfile.TemporaryDirectory(prefix="autodata-fanout-", dir=str(Path(db).parent)) as folder,
        LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        client.run(warm)
        t_started = time.perf_counter() - t0
        t1 = time.perf_counter()
        futures = []
        for i in range(0, len(names), size):
            data = yaml.safe_load(spec.to_yaml())
            data["sources"][0]["params"]["ticker"] = {"values": names[i : i + size]}
            futures.append(client.submit(partition, data, folder, f"p{i:05d}", pure=False))
        parts = client.gather(futures)
        t_workers = time.perf_counter() - t1
        run_id = f"fanout{int(time.time())}"
        load.begin_run(db, spec, run_id, flow_run_id=None, started_at=datetime.now(UTC))
        stage = load.Stage(db, spec, run_id)
        for k, part in enumerate(parts):  # chunk order = request order (the last of a repeated key wins)
            for f in part["files"]:
                stage.append_parquet(f, offset=k * 10**15)
        stats, *_ = load.land_run(
            db,
            CollectorSpec.parse(yaml.safe_load(spec.to_yaml())),
            run_id,
            stage,
            sources=[],
            rows_fetched=sum(p["fetched"] for p in parts),
            rows_rejected=sum(p["rejected"] for p in parts),
            requests=sum(p["requests"] for p in parts),
        )
        stage.discard()
        secs = time.perf_counter() - t1
    per_worker: dict[int, float] = {}
    for p in parts:
        per_worker[p["worker_pid"]] = max(per_worker.get(p["worker_pid"], 0.0), p["worker_peak_mib"])
    return {
        "mode": "fanout",
        "rows": stats.rows_landed,
        "seconds": secs,
        "startup_seconds": t_started,
        "workers_seconds": t_workers,
        "peak_mib": peak_mib(),
        "worker_peak_mib": sorted(per_worker.values()),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tickers", type=int, default=100)
    ap.add_argument("--chunks", type=int, default=8)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--child", nargs=4, metavar=("MODE", "BASE", "DB", "NAMES"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    from prefect_autodata.sandbox.sites.tiingo import DEMO_TOKEN

    if args.child:
        mode, base, db, names_file = args.child
        os.environ["AUTODATA_SECRET_BENCH_TOKEN"] = DEMO_TOKEN  # inherited by the Dask workers
        names = json.loads(Path(names_file).read_text())
        out = (
            single(base, db, names)
            if mode == "single"
            else fanout(base, db, names, args.chunks, args.workers)
        )
        print(json.dumps(out))
        return
    import requests

    from prefect_autodata.sandbox.server import free_port

    port = free_port()
    env = dict(os.environ, AUTODATA_SANDBOX_TIINGO_RATE="100000000", PREFECT_SERVER_ANALYTICS_ENABLED="false")
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "--factory", "prefect_autodata.sandbox.app:build_app", "--port",
         str(port), "--log-level", "warning", "--no-access-log"],
        env=env,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}/api.tiingo.com"
    results = []
    try:
        deadline = time.monotonic() + 120
        while True:  # the server up and its price index warm (not timed)
            try:
                requests.get(f"{base}/tiingo/daily/AAPL/prices", params={"token": DEMO_TOKEN, "startDate": START},
                             timeout=120)  # fmt: skip
                break
            except requests.ConnectionError:
                if time.monotonic() > deadline:
                    raise SystemExit("sandbox did not start") from None
                time.sleep(0.5)
        with tempfile.TemporaryDirectory(prefix="autodata-bench-") as tmp:
            names_file = Path(tmp) / "tickers.json"
            names_file.write_text(json.dumps(tickers(args.tickers)))
            for mode in ("single", "fanout"):
                cmd = [sys.executable, __file__, "--child", mode, base, f"{tmp}/{mode}.duckdb", str(names_file),
                       "--chunks", str(args.chunks), "--workers", str(args.workers)]  # fmt: skip
                out = subprocess.run(cmd, env=env, capture_output=True, text=True)
                if out.returncode != 0:
                    raise SystemExit(f"{mode} failed:\n{out.stderr[-3000:]}")
                results.append(json.loads(out.stdout.strip().splitlines()[-1]))
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(
        f"{'mode':<8} {'rows':>9} {'seconds':>8} {'rows/s':>8} {'peak RSS MiB (process)':>23} {'workers MiB':>14}"
    )
    for r in results:
        workers = ", ".join(f"{w:.0f}" for w in r.get("worker_peak_mib", [])) or "-"
        label = "writer" if r["mode"] == "fanout" else "single"
        print(f"{r['mode']:<8} {r['rows']:>9} {r['seconds']:>8.2f} {r['rows'] / r['seconds']:>8.0f} "
              f"{label + ' ' + format(r['peak_mib'], '.0f'):>23} {workers:>14}")  # fmt: skip
    single_r, fan = results
    print(f"fan-out: cluster start-up (2 processes, imports) {fan['startup_seconds']:.1f} s, not in its seconds; "
          f"workers' part {fan['workers_seconds']:.1f} s, writer's merge {fan['seconds'] - fan['workers_seconds']:.1f} s")  # fmt: skip
    print(
        f"fan-out speedup vs single process: {fan['rows'] / fan['seconds'] / (single_r['rows'] / single_r['seconds']):.2f}"
    )


if __name__ == "__main__":
    main()

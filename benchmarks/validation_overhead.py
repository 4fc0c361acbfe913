"""Validation overhead at landing: GE + pandera on the full stock table vs landing the same frame in DuckDB.

Reads the 1.23M-row stock table (``AUTODATA_DATA_DIR`` or ../shared/instruct2ds), validates it with
the shipped stock CheckSpec on both engines (real GE validation, real pandera), then lands the same
frame into a fresh DuckDB file the way the runtime does (lineage columns + primary-key upsert) and
prints the ratio. Usage: ``python benchmarks/validation_overhead.py [--repeat N]``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
import tempfile
import time
from pathlib import Path

import duckdb
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def data_path() -> Path:
    base = Path(os.environ.get("AUTODATA_DATA_DIR") or ROOT.parent / "shared" / "instruct2ds")
    path = base / "stocks.parquet"
    if not path.exists():
        sys.exit(f"stocks.parquet not found in {base}; set AUTODATA_DATA_DIR to the full Instruct2DS set")
    return path


def land(df: pd.DataFrame, db: Path, run_id: str) -> None:
    """DuckDB bulk insert with lineage columns and a primary-key upsert, in one transaction."""
    con = duckdb.connect(str(db))
    try:
        batch = df.assign(
            _autodata_run_id=run_id,
            _autodata_source_url="https://example.invalid/prices",
            _autodata_fetched_at=pd.Timestamp.now(tz="UTC"),
        )
        con.register("batch", batch)
        con.execute("BEGIN")
        cols = ", ".join(f'"{c}"' for c in batch.columns)
        con.execute(f"CREATE TABLE IF NOT EXISTS stocks AS SELECT {cols} FROM batch LIMIT 0")
        con.execute("ALTER TABLE stocks ADD PRIMARY KEY (ticker, date)")
        con.execute(f"INSERT OR REPLACE INTO stocks ({cols}) SELECT {cols} FROM batch")
        con.execute("COMMIT")
        con.unregister("batch")
    finally:
        con.close()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=1, help="best of N for each timing")
    args = ap.parse_args()

    from prefect_autodata.expectations.enforce import enforce
    from prefect_autodata.expectations.spec import load_checks
    from prefect_autodata.expectations.to_gx import gx_context

    spec = load_checks(
        ROOT / "prefect_autodata" / "deployments" / "examples" / "checks" / "stocks.checks.yaml"
    )
    df = pd.read_parquet(data_path())
    print(f"rows: {len(df):,}  columns: {len(df.columns)}  checks: {len(spec.checks)}")
    gx_context()  # GE's import (~7 s) is a one-off per process, not per validation
    enforce(df.head(1000), spec)  # warm both engines (registration, metric providers)

    timings: dict[str, float] = {}
    for engines in ("pandera", "gx", "both"):
        best = float("inf")
        for _ in range(args.repeat):
            t = time.perf_counter()
            res = enforce(df, spec, engines=engines, policy="warn")
            best = min(best, time.perf_counter() - t)
        failed = res.failed_names()
        timings[engines] = best
        print(f"validate ({engines:>7}): {best:7.2f} s  status={res.status} failed={failed or 'none'}")

    best_land = float("inf")
    for i in range(args.repeat):
        with tempfile.TemporaryDirectory() as tmp:
            t = time.perf_counter()
            land(df, Path(tmp) / "bench.duckdb", f"bench-{i}")
            best_land = min(best_land, time.perf_counter() - t)
    print(f"land (DuckDB bulk insert + lineage + PK upsert): {best_land:7.2f} s")
    print(f"date: {dt.date.today()}  cores: {os.cpu_count()}")
    print(f"validation/landing time ratio: {timings['both'] / best_land:.2f}")


if __name__ == "__main__":
    main()

"""Validation overhead at landing: GE + pandera on the full stock table vs landing the same rows in DuckDB.

Reads the 1.23M-row stock table (``AUTODATA_DATA_DIR`` or ../shared/instruct2ds) and turns it into
the batch a collector run really hands to validation and landing: records as a JSON source yields
them (ISO date strings, numbers, the lineage URL and fetch time), cast by the runner's own
``runtime.runner.to_frame`` (object strings, datetime64 dates, pandas' masked Float64/Int64). That
batch is validated with the shipped stock CheckSpec on both engines (``enforce`` on the data
columns, as ``flows.run_collector`` calls it: real GE validation of the compiled suite, real pandera
validation of the compiled schema) and landed with the product's own landing transaction
(``runtime.landing.land_run``: typed casts, primary-key upsert, lineage columns, ``_autodata_checks``
and the ``_autodata_runs`` row, one transaction) into a fresh DuckDB file; the ratio is printed
(wall time; CPU seconds beside it, since this machine is shared and its load moves wall times).
``enforce`` may run pandera in a forked child beside GE, so the sequential and forked paths are
timed too. Usage: ``python benchmarks/validation_overhead.py [--repeat N]``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

#: parquet dtype kind -> CollectorSpec column type
_TYPES = {"i": "integer", "u": "integer", "f": "float", "b": "boolean", "M": "timestamp"}


def data_path() -> Path:
    base = Path(os.environ.get("AUTODATA_DATA_DIR") or ROOT.parent / "shared" / "instruct2ds")
    path = base / "stocks.parquet"
    if not path.exists():
        sys.exit(f"stocks.parquet not found in {base}; set AUTODATA_DATA_DIR to the full Instruct2DS set")
    return path


def collector_spec(df: pd.DataFrame):
    """A minimal CollectorSpec declaring the stock columns (JSON source, PK ticker+date) for ``land_run``."""
    from prefect_autodata.runtime.spec import CollectorSpec

    fields = []
    for c in df.columns:
        kind = df[c].dtype.kind
        typ = "date" if c == "date" else _TYPES.get(kind, "string")
        fields.append({"name": c, "type": typ, "jsonpath": f"$.{c}"})
    return CollectorSpec.parse(
        {
            "name": "bench-stocks",
            "primary_key": ["ticker", "date"],
            "sources": [
                {
                    "name": "prices",
                    "kind": "json",
                    "request": {"url": "https://example.invalid/daily/{ticker}/prices"},
                    "params": {"ticker": {"values": sorted(df["ticker"].dropna().unique().tolist())[:1]}},
                    "records": {"jsonpath": "$[*]"},
                    "fields": fields,
                }
            ],
        }
    )


def runner_batch(spec, df: pd.DataFrame) -> pd.DataFrame:
    """The typed batch a run of ``spec`` lands: JSON-like records (ISO dates, lineage) cast by ``to_frame``."""
    from prefect_autodata.runtime.runner import LINEAGE_AT, LINEAGE_URL, to_frame

    raw = df.astype({"ticker": object})
    raw["date"] = [d.isoformat() for d in df["date"]]  # a JSON API sends dates as text
    raw[LINEAGE_URL] = "https://example.invalid/daily/" + df["ticker"].astype(str) + "/prices"
    raw[LINEAGE_AT] = pd.Timestamp.now(tz="UTC")
    raw["_error"] = None
    frame = to_frame(spec, raw)
    if len(frame.rejected):
        sys.exit(f"the runner rejected {len(frame.rejected)} rows: {frame.rejected['_error'].iloc[0]}")
    return frame.good


def land_once(spec, frame: pd.DataFrame, checks: list[dict], db: Path, run_id: str) -> tuple[float, float]:
    """Wall and CPU seconds of the product's landing transaction (the run row is opened first, untimed, as ``run_spec`` does)."""
    from prefect_autodata.runtime import landing

    landing.begin_run(str(db), spec, run_id, flow_run_id=None, started_at=dt.datetime.now(dt.UTC))
    t, c = time.perf_counter(), _cpu()
    stats, *_ = landing.land_run(
        str(db),
        spec,
        run_id,
        frame,
        sources=[],
        rows_fetched=len(frame),
        rows_rejected=0,
        requests=0,
        check_results=checks,
        status="succeeded",
    )
    elapsed, cpu = time.perf_counter() - t, _cpu() - c
    if stats.rows_landed != len(frame):
        sys.exit(f"landing wrote {stats.rows_landed} rows, expected {len(frame)}")
    return elapsed, cpu


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=1, help="best of N for each timing")
    args = ap.parse_args()

    from prefect_autodata.expectations.enforce import enforce
    from prefect_autodata.expectations.spec import load_checks
    from prefect_autodata.expectations.to_gx import gx_context

    checks = load_checks(
        ROOT / "prefect_autodata" / "deployments" / "examples" / "checks" / "stocks.checks.yaml"
    )
    source = pd.read_parquet(data_path())
    spec = collector_spec(source)
    t = time.perf_counter()
    frame = runner_batch(spec, source)  # what landing gets (data + lineage columns)
    df = frame[[c.name for c in spec.output_columns()]]  # what enforce gets (run_collector._enforce)
    del source
    print(f"rows: {len(df):,}  columns: {len(df.columns)}  checks: {len(checks.checks)}")
    print(f"batch cast by runtime.runner.to_frame in {time.perf_counter() - t:.1f} s (not timed below):")
    print("  " + ", ".join(f"{c} {t}" for c, t in df.dtypes.astype(str).items()))
    gx_context()  # GE's import (~7 s) is a one-off per process, not per validation
    enforce(df.head(1000), checks)  # warm both engines (registration, metric providers)

    def timed(fn):
        """Wall seconds and CPU seconds (this process and the children it reaped: the pandera fork)."""
        t, c = time.perf_counter(), _cpu()
        out = fn()
        return time.perf_counter() - t, _cpu() - c, out

    def best(rows: list[tuple[float, float]]) -> tuple[float, float]:
        return min(w for w, _ in rows), min(c for _, c in rows)

    runs: dict[str, list[tuple[float, float]]] = {}
    variants = {
        "pandera only": {"engines": "pandera"},
        "GE only": {"engines": "gx"},
        "both, sequential": {"engines": "both", "parallel": False},
        "both, forked": {"engines": "both", "parallel": True},
    }
    for label, kw in variants.items():
        for _ in range(args.repeat):
            wall, cpu, res = timed(lambda kw=kw: enforce(df, checks, policy="warn", **kw))
            runs.setdefault(label, []).append((wall, cpu))
        w, c = best(runs[label])
        print(
            f"validate ({label:>16}): {w:6.2f} s wall {c:6.2f} s cpu  failed={res.failed_names() or 'none'}"
        )

    # the ratio's two sides alternate, so both see the same machine load (it is shared); the rerun
    # validates the same batch against the first run's profile, so the drift checks join in
    previous = res.profile
    forked = []
    for i in range(args.repeat):
        forked.append(_parallel_default(len(df)))
        wall, cpu, res = timed(lambda: enforce(df, checks, policy="warn"))
        runs.setdefault("both", []).append((wall, cpu))
        with tempfile.TemporaryDirectory() as tmp:
            runs.setdefault("land", []).append(
                land_once(spec, frame, res.results, Path(tmp) / "bench.duckdb", f"b{i}")
            )
        wall, cpu, rerun = timed(lambda: enforce(df, checks, policy="warn", previous=previous))
        runs.setdefault("rerun", []).append((wall, cpu))
    both, land, again = best(runs["both"]), best(runs["land"]), best(runs["rerun"])
    n_first = len({(c.check, c.engine) for c in res.checks})
    n_rerun = len({(c.check, c.engine) for c in rerun.checks})
    print(
        f"validate ({'both, default':>16}): {both[0]:6.2f} s wall {both[1]:6.2f} s cpu  "
        f"status={res.status} failed={res.failed_names() or 'none'}"
    )
    print(
        "land (runtime.landing.land_run: casts + PK upsert + lineage, one transaction): "
        f"{land[0]:6.2f} s wall {land[1]:6.2f} s cpu"
    )
    print(
        f"validate ({'rerun, drift':>16}): {again[0]:6.2f} s wall {again[1]:6.2f} s cpu  "
        f"({n_rerun} check results instead of {n_first}: drift against the previous profile; "
        f"ratio {again[0] / land[0]:.2f}, cpu {again[1] / land[1]:.2f})"
    )
    print(f"default runs that forked pandera beside GE: {sum(forked)} of {len(forked)}")
    print(f"date: {dt.date.today()}  cores: {os.cpu_count()}  load: {os.getloadavg()[0]:.1f}")
    print(f"cpu-time ratio (validation cpu / landing cpu): {both[1] / land[1]:.2f}")
    print(f"validation/landing time ratio: {both[0] / land[0]:.2f}")


def _parallel_default(rows: int) -> bool:
    """What ``enforce``'s default decides right now (it forks only with a core to spare)."""
    from prefect_autodata.expectations.enforce import PARALLEL_MIN_ROWS, _can_fork, _idle_core

    return rows >= PARALLEL_MIN_ROWS and _can_fork() and _idle_core()


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


if __name__ == "__main__":
    main()

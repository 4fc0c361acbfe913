"""Regenerate the compact Instruct2DS subset vendored in the package (deterministic).

A fresh clone has no ../shared, so the package carries what every catalog task and every site test
needs: complete conference-years for the tasks plus the ones site tests use, all 503 S&P 500 tickers
for 2024 (and a few tickers over 2015-2024), and the NBA/MLB tables whole. Total stays under 25 MB.

Usage: ``python scripts/vendor_data.py [--source ../shared/instruct2ds] [--check]``
(``--check`` rebuilds in memory and exits 1 if the committed files differ).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import sys
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from prefect_autodata.sandbox.tasks import data_requirements  # noqa: E402

DEST = ROOT / "prefect_autodata" / "sandbox" / "data"
DEFAULT_SOURCE = ROOT.parent / "shared" / "instruct2ds"
LIMIT_BYTES = 25 * 1024 * 1024

# Conference-years other site tests rely on (complete years), besides whatever the tasks need.
SITE_TEST_PAPERS = [
    ("NeurIPS", 2017),
    ("ACL", 2023),
    ("EMNLP", 2022),
    ("NAACL", 2022),
    ("CVPR", 2021),
    ("ICCV", 2021),
    ("ICML", 2021),
    ("ICLR", 2021),
    ("ECCV", 2020),
]
ALL_TICKERS_YEARS = [2024]
LONG_HISTORY_YEARS = list(range(2015, 2025))


def subset(source: Path) -> dict[str, pd.DataFrame]:
    req = data_requirements()
    papers = pd.read_parquet(source / "papers.parquet")
    keep = set(SITE_TEST_PAPERS) | {tuple(p) for p in req["papers"]}
    mask = pd.Series([(a, y) in keep for a, y in zip(papers["abbr"], papers["year"], strict=True)])
    papers = papers[mask.to_numpy()].sort_values(["abbr", "year", "idx"], kind="stable")

    stocks = pd.read_parquet(source / "stocks.parquet")
    years = pd.to_datetime(stocks["date"]).dt.year
    mask = years.isin(ALL_TICKERS_YEARS)
    mask |= stocks["ticker"].isin(req["long_history_tickers"]) & years.isin(LONG_HISTORY_YEARS)
    for ticker, tyears in req["stocks"].items():
        if ticker == "*":
            mask |= years.isin(tyears)
        else:
            mask |= (stocks["ticker"] == ticker) & years.isin(tyears)
    stocks = stocks[mask].sort_values(["ticker", "date"], kind="stable")

    out = {"papers": papers, "stocks": stocks}
    for name in ("nba_teams", "nba_players", "mlb_teams"):
        out[name] = pd.read_parquet(source / f"{name}.parquet")
    return {k: v.reset_index(drop=True) for k, v in out.items()}


def to_bytes(df: pd.DataFrame) -> bytes:
    """Parquet bytes with fixed settings, so the same input always yields the same file."""
    buf = io.BytesIO()
    table = pa.Table.from_pandas(df, preserve_index=False)
    pq.write_table(table, buf, compression="zstd", compression_level=19, row_group_size=256_000)
    return buf.getvalue()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    ap.add_argument("--check", action="store_true", help="verify the committed files instead of writing")
    args = ap.parse_args()
    if not (args.source / "stocks.parquet").exists():
        print(f"error: no Instruct2DS data at {args.source}", file=sys.stderr)
        return 2
    blobs = {name: to_bytes(df) for name, df in subset(args.source).items()}
    total = sum(len(b) for b in blobs.values())
    if total > LIMIT_BYTES:
        print(f"error: subset is {total / 1e6:.1f} MB, over the 25 MB limit", file=sys.stderr)
        return 1
    stale = []
    for name, blob in blobs.items():
        path = DEST / f"{name}.parquet"
        digest = hashlib.sha256(blob).hexdigest()[:12]
        if args.check:
            if not path.exists() or path.read_bytes() != blob:
                stale.append(name)
        else:
            DEST.mkdir(parents=True, exist_ok=True)
            path.write_bytes(blob)
        print(f"{name:12s} {len(blob) / 1e6:7.2f} MB  sha256:{digest}")
    print(f"{'total':12s} {total / 1e6:7.2f} MB")
    if stale:
        print(f"error: vendored files differ from a fresh build: {', '.join(stale)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

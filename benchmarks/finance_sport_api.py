"""Finance/sport sandbox APIs under load: small Tiingo metadata calls and full 10-year price histories.

Reuses the server/client processes of ``sandbox_throughput.py`` (one sandbox process, one asyncio client
process with keep-alive connections). Prints ``tiingo small responses/s: N`` and
``tiingo 10-year responses/s: N`` (one ticker, 2015-2024, ~2,500 rows, ~650 kB JSON each).

    .venv/bin/python benchmarks/finance_sport_api.py [--seconds 8] [--connections 16]
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from sandbox_throughput import client, serve, wait_ready  # noqa: E402


def measure(port: int, path: str, seconds: float, connections: int) -> tuple[int, int, float]:
    ctx = mp.get_context("spawn")
    out: mp.Queue = ctx.Queue()
    proc = ctx.Process(target=client, args=(port, path, seconds, connections, out))
    proc.start()
    result = out.get(timeout=seconds + 60)
    proc.join(timeout=10)
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=8.0)
    ap.add_argument("--connections", type=int, default=16)
    args = ap.parse_args()

    from prefect_autodata.sandbox.server import free_port
    from prefect_autodata.sandbox.sites.tiingo import DEMO_TOKEN

    small = f"/api.tiingo.com/tiingo/daily/aapl?token={DEMO_TOKEN}"
    full = (
        f"/api.tiingo.com/tiingo/daily/aapl/prices?startDate=2015-01-01&endDate=2024-12-31&token={DEMO_TOKEN}"
    )
    port = free_port()
    server = mp.get_context("spawn").Process(target=serve, args=(port,), daemon=True)
    server.start()
    try:
        wait_ready(f"http://127.0.0.1:{port}{small}", timeout=120)
        results = {name: measure(port, path, args.seconds, args.connections) for name, path in
                   (("small", small), ("10-year", full))}  # fmt: skip
    finally:
        server.terminate()
        server.join(timeout=10)
    for name, (ok, errors, elapsed) in results.items():
        print(f"{ok} responses ({errors} non-200) in {elapsed:.1f} s", file=sys.stderr)
        print(f"tiingo {name} responses/s: {ok / elapsed:.0f}", flush=True)


if __name__ == "__main__":
    main()

"""Sandbox throughput: small JSON API requests per second against a live sandbox (chaos none).

The sandbox runs in its own process on a free loopback port; a separate client process keeps
``--connections`` keep-alive HTTP/1.1 connections busy for ``--seconds`` (at most 20) using a minimal
asyncio client (so the client costs little CPU and the figure measures the server). Ends by printing
exactly ``sandbox responses/s: N``.

    .venv/bin/python benchmarks/sandbox_throughput.py [--seconds 10] [--connections 32]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import sys
import time
import urllib.request


def serve(port: int) -> None:
    """Server process: the same app and uvicorn settings as ``autodata sandbox serve``."""
    import logging

    from prefect_autodata.sandbox.server import serve_forever

    logging.disable(logging.INFO)
    serve_forever(host="127.0.0.1", port=port, chaos="none", seed=0)


async def _worker(port: int, path: str, deadline: float, counts: list[int], errors: list[int]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: application/json\r\n\r\n".encode()
    try:
        while time.perf_counter() < deadline:
            writer.write(request)
            status_line = await reader.readline()
            length = 0
            while True:
                line = await reader.readline()
                if line in (b"\r\n", b""):
                    break
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            await reader.readexactly(length)
            if status_line.split(b" ")[1:2] == [b"200"]:
                counts[0] += 1
            else:
                errors[0] += 1
    finally:
        writer.close()


def client(port: int, path: str, seconds: float, connections: int, out: mp.Queue) -> None:
    """Client process: ``connections`` concurrent keep-alive loops for ``seconds``; reports (ok, errors, s)."""

    async def main() -> tuple[int, int, float]:
        counts, errors = [0], [0]
        start = time.perf_counter()
        deadline = start + seconds
        await asyncio.gather(*(_worker(port, path, deadline, counts, errors) for _ in range(connections)))
        return counts[0], errors[0], time.perf_counter() - start

    out.put(asyncio.run(main()))


def wait_ready(url: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                if r.status == 200:
                    return
        except OSError:
            if time.monotonic() > deadline:
                raise SystemExit(f"sandbox did not start at {url}") from None
            time.sleep(0.2)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=10.0, help="measurement window (max 20)")
    ap.add_argument("--connections", type=int, default=32, help="concurrent keep-alive connections")
    args = ap.parse_args()
    seconds = min(max(args.seconds, 1.0), 20.0)

    from prefect_autodata.sandbox.server import free_port
    from prefect_autodata.sandbox.sites import jsonly

    season = jsonly.seasons()[0]
    path = f"{jsonly.PREFIX}/api/players?season={season}&page=1&per_page=1"
    port = free_port()
    ctx = mp.get_context("spawn")
    server = ctx.Process(target=serve, args=(port,), daemon=True)
    server.start()
    try:
        wait_ready(f"http://127.0.0.1:{port}{path}")
        out: mp.Queue = ctx.Queue()
        proc = ctx.Process(target=client, args=(port, path, seconds, args.connections, out))
        proc.start()
        ok, errors, elapsed = out.get(timeout=seconds + 60)
        proc.join(timeout=10)
    finally:
        server.terminate()
        server.join(timeout=10)
    print(
        f"{ok} responses ({errors} non-200) in {elapsed:.1f} s over {args.connections} connections to {path}",
        file=sys.stderr,
        flush=True,
    )
    print(f"sandbox responses/s: {ok / elapsed:.0f}", flush=True)


if __name__ == "__main__":
    main()

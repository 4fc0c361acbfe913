"""Academic sandbox sites: first-request (lazy index build) latency, big listing time, small-page throughput.

Starts the sandbox in its own process (same ``serve_forever`` as ``autodata sandbox serve``), then:
1. times the first request to each site (builds that site's index from the Parquet data);
2. times the largest listing pages once their index exists (first render, then cached);
3. for one small page per site, keeps ``--connections`` keep-alive connections busy for ``--seconds``
   (client in a separate process, reusing ``sandbox_throughput``'s minimal asyncio client).

    .venv/bin/python benchmarks/sandbox_academic.py [--seconds 4] [--connections 16]
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import sys
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from sandbox_throughput import client, serve, wait_ready  # noqa: E402

FIRST = [
    "/papers.nips.cc/paper_files/paper/2017",
    "/aclanthology.org/volumes/2023.acl-long/",
    "/openaccess.thecvf.com/CVPR2021",
    "/proceedings.mlr.press/v139/",
    "/api.openreview.net/notes?invitation=ICLR.cc/2021/Conference/-/Blind_Submission&limit=1",
    "/www.ecva.net/papers.php",
]
LISTINGS = [
    "/aclanthology.org/events/emnlp-2024/",
    "/openaccess.thecvf.com/CVPR2022?day=all",
    "/proceedings.mlr.press/v202/",
    "/papers.nips.cc/paper_files/paper/2020",
    "/api.openreview.net/notes?invitation=ICLR.cc/2023/Conference/-/Blind_Submission&limit=1000",
]
SMALL = [
    "/papers.nips.cc/paper_files/paper/2017/hash/0060ef47b12160b9198302ebdb144dcf-Abstract.html",
    "/aclanthology.org/2023.acl-long.1/",
    "/proceedings.mlr.press/v139/bertail21a.html",
    "/api.openreview.net/notes?invitation=ICLR.cc/2021/Conference/-/Blind_Submission&offset=100&limit=1",
    "/papers.nips.cc/paper_files/paper/2017/file/0060ef47b12160b9198302ebdb144dcf-Paper.pdf",
]


def timed_get(url: str) -> tuple[float, int]:
    t = time.perf_counter()
    with urllib.request.urlopen(url, timeout=120) as r:
        size = len(r.read())
    return time.perf_counter() - t, size


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=4.0, help="throughput window per page (max 20)")
    ap.add_argument("--connections", type=int, default=16)
    args = ap.parse_args()
    seconds = min(max(args.seconds, 1.0), 20.0)

    from prefect_autodata.sandbox.server import free_port

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    ctx = mp.get_context("spawn")
    server = ctx.Process(target=serve, args=(port,), daemon=True)
    server.start()
    try:
        wait_ready(f"{base}/")
        print("first request per site (index build):")
        for path in FIRST:
            s, n = timed_get(base + path)
            print(f"  {s * 1000:8.0f} ms  {n / 1e6:6.2f} MB  {path}")
        print("large listings (first render / cached):")
        for path in LISTINGS:
            s1, n = timed_get(base + path)
            s2, _ = timed_get(base + path)
            print(f"  {s1 * 1000:8.0f} ms / {s2 * 1000:5.0f} ms  {n / 1e6:6.2f} MB  {path}")
        print("small pages, responses/s:")
        for path in SMALL:
            out: mp.Queue = ctx.Queue()
            proc = ctx.Process(target=client, args=(port, path, seconds, args.connections, out))
            proc.start()
            ok, errors, elapsed = out.get(timeout=seconds + 60)
            proc.join(timeout=10)
            print(f"  {ok / elapsed:8.0f}/s  ({ok} ok, {errors} non-200)  {path}", flush=True)
    finally:
        server.terminate()
        server.join(timeout=10)


if __name__ == "__main__":
    main()

"""Benchmark (b): BFS crawl of the sandbox's 2,000+-page stacks section, our BaRA crawler vs Scrapy.

Side by side in one run, same server, same page budget, equal concurrency, robots.txt obeyed by both.
Each crawler runs in its own subprocess and reports its pages, wall time and peak RSS; the sandbox runs in a
third process so neither crawler pays for serving. Usage:

    .venv/bin/python benchmarks/crawl_vs_scrapy.py [--pages 2000] [--concurrency 16] [--repeat 1]

Ends with ``crawl speedup vs scrapy: X.XX`` (our pages/s divided by Scrapy's).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import socket
import subprocess
import sys
import time
import urllib.request

PREFIX = "/www.picturebook-library.org"
START = f"{PREFIX}/stacks/0"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def serve(port: int) -> None:
    import uvicorn

    from prefect_autodata.sandbox.app import build_app

    uvicorn.run(build_app(), host="127.0.0.1", port=port, log_level="error", access_log=False)


def run_ours(base: str, pages: int, concurrency: int) -> dict:
    from prefect_autodata.runtime.crawler import bfs_crawl
    from prefect_autodata.runtime.fetch import Fetcher
    from prefect_autodata.runtime.policy import CrawlPolicy, FetchPolicy

    fetch_policy = FetchPolicy(rate_limit_per_host=0, concurrency_per_host=concurrency)
    crawl_policy = CrawlPolicy(
        width=50,
        depth=100,
        pages=pages,
        attempts=1,
        concurrency=concurrency,
        trap_guard=False,  # Scrapy has none; the stacks are a deep self-linking family by design
        site_root=f"{base}{PREFIX}/stacks",
    )
    t0 = time.perf_counter()
    with Fetcher(fetch_policy, allowed_hosts=[base]) as fetcher:
        res = bfs_crawl(f"{base}{START}", fetcher, crawl_policy, keep_html=False)
    elapsed = time.perf_counter() - t0
    return {"crawler": "autodata", "pages": res.pages_ok, "seconds": elapsed, "peak_rss_mb": _peak_rss_mb()}


def run_scrapy(base: str, pages: int, concurrency: int) -> dict:
    import scrapy
    from scrapy.crawler import CrawlerProcess

    counted: list[int] = [0]
    prefix = f"{base}{PREFIX}/stacks"

    class StacksSpider(scrapy.Spider):
        name = "stacks"
        start_urls = [f"{base}{START}"]

        def parse(self, response):
            counted[0] += 1
            for href in response.css("a::attr(href)").getall():
                url = response.urljoin(href)
                if url.startswith(prefix):
                    yield scrapy.Request(url, callback=self.parse)

    process = CrawlerProcess(
        settings={
            "LOG_LEVEL": "ERROR",
            "ROBOTSTXT_OBEY": True,
            "CONCURRENT_REQUESTS": concurrency,
            "CONCURRENT_REQUESTS_PER_DOMAIN": concurrency,
            "DOWNLOAD_DELAY": 0,
            "AUTOTHROTTLE_ENABLED": False,
            "COOKIES_ENABLED": False,
            "TELNETCONSOLE_ENABLED": False,
            "RETRY_ENABLED": True,
            "CLOSESPIDER_PAGECOUNT": pages,
            "DEPTH_PRIORITY": 1,  # breadth-first, like ours
            "SCHEDULER_DISK_QUEUE": "scrapy.squeues.PickleFifoDiskQueue",
            "SCHEDULER_MEMORY_QUEUE": "scrapy.squeues.FifoMemoryQueue",
            "USER_AGENT": "prefect-autodata-bench/0.1",
            "REQUEST_FINGERPRINTER_IMPLEMENTATION": "2.7",
        }
    )
    process.crawl(StacksSpider)
    t0 = time.perf_counter()
    process.start()
    elapsed = time.perf_counter() - t0
    return {"crawler": "scrapy", "pages": counted[0], "seconds": elapsed, "peak_rss_mb": _peak_rss_mb()}


def _child(kind: str, base: str, pages: int, concurrency: int) -> dict:
    out = subprocess.run(
        [
            sys.executable,
            __file__,
            "--child",
            kind,
            "--base",
            base,
            "--pages",
            str(pages),
            "--concurrency",
            str(concurrency),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if out.returncode != 0:
        raise SystemExit(f"{kind} crawler failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pages", type=int, default=2000)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--child", choices=["autodata", "scrapy", "serve"])
    ap.add_argument("--base", default="")
    ap.add_argument("--port", type=int, default=0)
    args = ap.parse_args()

    if args.child == "serve":
        serve(args.port)
        return
    if args.child:
        fn = run_ours if args.child == "autodata" else run_scrapy
        print(json.dumps(fn(args.base, args.pages, args.concurrency)))
        return

    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, __file__, "--child", "serve", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 60
        while True:
            try:
                urllib.request.urlopen(f"{base}{START}", timeout=2).read()
                break
            except OSError:
                if time.time() > deadline or server.poll() is not None:
                    raise SystemExit("sandbox did not start") from None
                time.sleep(0.2)
        print(f"machine: {os.cpu_count()} cores; budget {args.pages} pages; concurrency {args.concurrency}")
        best: dict[str, dict] = {}
        for _ in range(args.repeat):
            for kind in ("scrapy", "autodata"):  # alternate so neither always gets the warmer server
                r = _child(kind, base, args.pages, args.concurrency)
                r["pages_per_s"] = r["pages"] / r["seconds"]
                print(
                    f"{kind:9s} pages={r['pages']:5d} time={r['seconds']:6.2f}s "
                    f"pages/s={r['pages_per_s']:7.1f} peak_rss={r['peak_rss_mb']:6.1f} MiB"
                )
                if kind not in best or r["pages_per_s"] > best[kind]["pages_per_s"]:
                    best[kind] = r
    finally:
        server.terminate()
        server.wait(timeout=10)
    ratio = best["autodata"]["pages_per_s"] / best["scrapy"]["pages_per_s"]
    print(f"crawl speedup vs scrapy: {ratio:.2f}")


if __name__ == "__main__":
    main()

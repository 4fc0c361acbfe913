"""Benchmark: does the expectation report tell a complete dataset from a broken one? (issue 14)

Six collectors (the shipped example specs against the sandbox: stocks from an API, papers from a
paginated API, a listing -> detail site, a bounded crawl, an NBA table, an MLB table with detail
pages) each run once on clean data with the CheckSpec the validation agent designs from the
request sentence. That run is the baseline (its profile is the drift baseline). Then every
mutation below changes what the sandbox serves -- through an ASGI middleware around the sandbox
app, never in product code -- and the collector runs again on a copy of the baseline database.

A mutation is *caught* when the run does not look like the clean baseline: the run fails, the
checks fail or quarantine rows, a check fails that passed on the baseline, or a warning appears
that the baseline did not have. For every mutation the table after the run must equal the
baseline's rows (data columns, by primary key): nothing overwritten by nulls, nothing half-landed.
A clean rerun of every collector is the control: it must not be flagged (no false alarm).

    uv run --frozen python benchmarks/trust_mutations.py [--only stocks,nba] [--list]

Ends with ``mutations caught: X/Y``.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TODAY = date.today()


# --------------------------------------------------------------------------- the mutating middleware


@dataclass
class Mutation:
    """One change of the served data: ``matches`` picks requests, ``status`` answers them with an
    error instead, ``body`` rewrites the response body."""

    name: str
    collector: str
    what: str
    matches: Callable[[str, dict], bool]
    body: Callable[[str, dict, bytes], bytes] | None = None
    status: int | None = None
    seen: int = 0


class MutatingApp:
    """ASGI middleware: the sandbox app with the current mutation applied to matching responses."""

    def __init__(self, app) -> None:
        self.app = app
        self.mutation: Mutation | None = None

    async def __call__(self, scope, receive, send):
        m = self.mutation
        if scope["type"] != "http" or m is None:
            return await self.app(scope, receive, send)
        path = scope.get("path", "")
        query = {k: v[-1] for k, v in parse_qs(scope.get("query_string", b"").decode()).items()}
        if not m.matches(path, query):
            return await self.app(scope, receive, send)
        m.seen += 1
        if m.status is not None:
            body = json.dumps({"error": f"mutation {m.name}"}).encode()
            await send(
                {
                    "type": "http.response.start",
                    "status": m.status,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(body)).encode()),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": body})
            return None
        start: dict = {}
        chunks: list[bytes] = []

        async def capture(message):
            if message["type"] == "http.response.start":
                start.update(message)
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
                if not message.get("more_body"):
                    body = b"".join(chunks)
                    if 200 <= start.get("status", 500) < 300 and m.body is not None:
                        body = m.body(path, query, body)
                    headers = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"]
                    headers.append((b"content-length", str(len(body)).encode()))
                    await send({**start, "headers": headers})
                    await send({"type": "http.response.body", "body": body})

        return await self.app(scope, receive, capture)


# --------------------------------------------------------------------------- collectors


@dataclass
class Collector:
    name: str
    example: str
    sentence: str
    edit: Callable[[dict], None] = lambda d: None


def _fast(d: dict) -> None:
    d["politeness"] = {**d.get("politeness", {}), "rate_limit_per_host": 0, "concurrency_per_host": 8}
    d["politeness"]["backoff_base"] = 0.05
    d["politeness"]["backoff_cap"] = 0.2


def _stocks(d: dict) -> None:
    d.pop("incremental", None)
    d["sources"][0]["params"]["ticker"] = {"values": ["AAPL", "MSFT", "NVDA"]}
    _fast(d)


def _papers(d: dict) -> None:
    d["sources"][0]["pagination"]["max_pages"] = 6  # 4 pages of 250 on clean data
    _fast(d)


COLLECTORS = {
    c.name: c
    for c in [
        Collector("stocks", "tiingo-aapl-2024", "Daily stock prices of AAPL, MSFT and NVDA in 2024", _stocks),
        Collector("papers", "iclr-2021", "All ICLR 2021 accepted papers", _papers),
        Collector(
            "listing-detail", "neurips-2017", "All NeurIPS 2017 papers with authors and abstracts", _fast
        ),
        Collector(
            "crawl", "picturebook-library", "Every content page of the picture-book library site", _fast
        ),
        Collector("nba", "nba-raptors-seasons", "Every regular season of the Toronto Raptors", _fast),
        Collector("mlb", "mlb-cubs-hitting", "Chicago Cubs team batting totals by season, 2016-2018", _fast),
    ]
}


# --------------------------------------------------------------------------- body rewrites


def _json(fn: Callable[[Any, str, dict], Any]) -> Callable[[str, dict, bytes], bytes]:
    def rewrite(path: str, query: dict, body: bytes) -> bytes:
        return json.dumps(fn(json.loads(body), path, query)).encode()

    return rewrite


def _text(fn: Callable[[str, str, dict], str]) -> Callable[[str, dict, bytes], bytes]:
    def rewrite(path: str, query: dict, body: bytes) -> bytes:
        return fn(body.decode("utf-8"), path, query).encode("utf-8")

    return rewrite


def _prices(path: str, q: dict) -> bool:
    return "/tiingo/daily/" in path and path.endswith("/prices")


def _ticker(t: str) -> Callable[[str, dict], bool]:
    return lambda path, q: _prices(path, q) and f"/daily/{t}/" in path


def _rename(rows: list[dict], old: str, new: str) -> list[dict]:
    return [{(new if k == old else k): v for k, v in r.items()} for r in rows]


def _set(rows: list[dict], key: str, value: Any, every: int = 1) -> list[dict]:
    return [{**r, key: value} if i % every == 0 else r for i, r in enumerate(rows)]


def _notes(path: str, q: dict) -> bool:
    return path.endswith("api.openreview.net/notes")


def _grown(total: int) -> Callable[[Any, str, dict], Any]:
    """The listing states ``total`` notes and serves that many (new ids past the real ones)."""
    first: list = []

    def edit(doc: Any, path: str, q: dict) -> Any:
        offset, limit = int(q.get("offset", 0)), int(q.get("limit", 250))
        if offset == 0:
            first[:] = doc["notes"]
        notes = list(doc["notes"])
        while len(notes) < limit and offset + len(notes) < total and first:
            n = first[(offset + len(notes)) % len(first)]
            notes.append({**n, "id": f"{n['id']}-grown-{offset + len(notes)}"})
        return {**doc, "notes": notes, "count": total}

    return edit


def _nba(path: str, q: dict) -> bool:
    return path.endswith("/stats/teamyearbyyearstats")


def _nba_rows(fn: Callable[[list], list]) -> Callable[[Any, str, dict], Any]:
    def edit(doc: Any, path: str, q: dict) -> Any:
        doc["resultSets"][0]["rowSet"] = fn(doc["resultSets"][0]["rowSet"])
        return doc

    return edit


def _nba_col(index: int, value: Any) -> Callable[[list], list]:
    return lambda rows: [[*r[:index], value, *r[index + 1 :]] for r in rows]


def _fg_api(path: str, q: dict) -> bool:
    return path.endswith("/api/leaders/major-league/data")


def _fg_team(path: str, q: dict) -> bool:
    return "www.fangraphs.com/teams/" in path


def _nips_listing(path: str, q: dict) -> bool:
    return path.rstrip("/").endswith("/paper_files/paper/2017")


def _nips_detail(path: str, q: dict) -> bool:
    return "/paper_files/paper/2017/hash/" in path


def _nips_some_detail(path: str, q: dict) -> bool:  # a stable ~3% of the abstract pages
    return _nips_detail(path, q) and sum(path.encode()) % 31 == 0


def _drop_li(every: int, keep_first: int | None = None) -> Callable[[str, str, dict], str]:
    """Remove list items from the NeurIPS listing: every ``every``-th, or all after ``keep_first``."""

    def edit(text: str, path: str, q: dict) -> str:
        parts = re.split(r"(?=<li)", text)
        head, items = parts[0], parts[1:]
        kept = []
        for i, it in enumerate(items):
            last = "</ul>" in it
            drop = (keep_first is not None and i >= keep_first) or (every and i % every == every - 1)
            if drop and not last:
                continue
            if drop and last:  # keep the list's closing tags
                it = it[it.index("</ul>") :]
            kept.append(it)
        return head + "".join(kept)

    return edit


def _pb_page(path: str, q: dict) -> bool:
    return "www.picturebook-library.org/" in path and not path.rstrip("/").endswith(".org")


def _pb_some(path: str, q: dict) -> bool:  # a stable share of the content pages (not the home page)
    return (
        _pb_page(path, q)
        and not re.search(r"\.(png|jpe?g|gif|webp|mp4|webm|svg)$", path)
        and sum(path.encode()) % 9 == 0
    )


MUTATIONS: list[Mutation] = [
    # stocks: Tiingo prices API, AAPL + MSFT + NVDA, 2024
    Mutation("rows dropped", "stocks", "5 AAPL days missing", _ticker("AAPL"),
             _json(lambda rows, p, q: [r for i, r in enumerate(rows) if i not in (10, 50, 90, 130, 170)])),
    Mutation("a month missing", "stocks", "no MSFT rows in March", _ticker("MSFT"),
             _json(lambda rows, p, q: [r for r in rows if not str(r.get("date", "")).startswith("2024-03")])),
    Mutation("a ticker missing", "stocks", "NVDA answers an empty list", _ticker("NVDA"), _json(lambda rows, p, q: [])),
    Mutation("a field renamed", "stocks", "close -> closePrice", _prices,
             _json(lambda rows, p, q: _rename(rows, "close", "closePrice"))),
    Mutation("a column nulled", "stocks", "volume null everywhere", _prices, _json(lambda rows, p, q: _set(rows, "volume", None))),
    Mutation("a type changed", "stocks", "high as text 'n/a' on every 10th row", _prices,
             _json(lambda rows, p, q: _set(rows, "high", "n/a", every=10))),
    Mutation("duplicate keys", "stocks", "AAPL rows repeated", _ticker("AAPL"), _json(lambda rows, p, q: rows + rows[:7])),
    Mutation("a holiday row added", "stocks", "a row on 2024-07-04 (NYSE closed)", _ticker("AAPL"),
             _json(lambda rows, p, q: rows + [{**rows[0], "date": "2024-07-04T00:00:00.000Z"}])),
    # papers: OpenReview notes API, offset pagination with a stated count
    Mutation("listing total no longer matches", "papers", "count states 40 more notes", _notes,
             _json(lambda doc, p, q: {**doc, "count": int(doc["count"]) + 40})),
    Mutation("truncated listing", "papers", "offsets past 500 answer no notes", _notes,
             _json(lambda doc, p, q: {**doc, "notes": [] if int(q.get("offset", 0)) >= 500 else doc["notes"]})),
    Mutation("page cap reached", "papers", "the listing grew to 2000 notes (cap: 6 pages of 250)", _notes,
             _json(_grown(2000))),
    Mutation("page size shrunk", "papers", "the API serves 100 notes per page", _notes,
             _json(lambda doc, p, q: {**doc, "notes": doc["notes"][:100]})),
    Mutation("a field renamed", "papers", "content.title -> content.name", _notes,
             _json(lambda doc, p, q: {**doc, "notes": [{**n, "content": _rename([n["content"]], "title", "name")[0]} for n in doc["notes"]]})),
    Mutation("duplicate keys", "papers", "every page repeats its first 5 notes", _notes,
             _json(lambda doc, p, q: {**doc, "notes": doc["notes"] + doc["notes"][:5]})),
    # listing -> detail: NeurIPS 2017 listing and abstract pages
    Mutation("5xx on detail pages", "listing-detail", "~3% of abstract pages answer 503", _nips_some_detail, status=503),
    Mutation("404 on detail pages", "listing-detail", "~3% of abstract pages answer 404", _nips_some_detail, status=404),
    Mutation("detail pages lose a field", "listing-detail", "no abstract on ~3% of pages", _nips_some_detail,
             _text(lambda t, p, q: re.sub(r'<p class="paper-abstract">.*?</p>', "", t, flags=re.S))),
    Mutation("truncated listing", "listing-detail", "the listing stops after 600 papers", _nips_listing,
             _text(_drop_li(0, keep_first=600))),
    Mutation("rows dropped", "listing-detail", "every 50th paper missing from the listing", _nips_listing, _text(_drop_li(50))),
    # crawl: picture-book library, bounded BFS
    Mutation("5xx on crawled pages", "crawl", "~11% of content pages answer 500", _pb_some, status=500),
    Mutation("pages removed", "crawl", "~11% of content pages answer 404", _pb_some, status=404),
    Mutation("a field removed", "crawl", "no <h1> on ~11% of pages", _pb_some,
             _text(lambda t, p, q: re.sub(r"<h1[^>]*>.*?</h1>", "", t, flags=re.S))),
    # NBA: team year-by-year rowSet
    Mutation("a season missing", "nba", "one season in the middle dropped", _nba,
             _json(_nba_rows(lambda rows: rows[: len(rows) // 2] + rows[len(rows) // 2 + 1 :]))),
    Mutation("a column nulled", "nba", "PTS null in every season", _nba, _json(_nba_rows(_nba_col(32, None)))),
    Mutation("a type changed", "nba", "GP as text '-' in every season", _nba, _json(_nba_rows(_nba_col(4, "-")))),
    Mutation("duplicate keys", "nba", "the last season twice", _nba, _json(_nba_rows(lambda rows: rows + rows[-1:]))),
    # MLB: FanGraphs leaders API (page pagination with totalCount) + team detail pages
    Mutation("listing total no longer matches", "mlb", "totalCount says 5 rows", _fg_api,
             _json(lambda doc, p, q: {**doc, "totalCount": 5})),
    Mutation("5xx on detail pages", "mlb", "team pages answer 502", _fg_team, status=502),
    Mutation("a season missing", "mlb", "2017 dropped", _fg_api,
             _json(lambda doc, p, q: {**doc, "data": [r for r in doc["data"] if r.get("Season") != 2017], "totalCount": len(doc["data"]) - 1})),
]  # fmt: skip


# --------------------------------------------------------------------------- running


@dataclass
class Outcome:
    status: str
    checks_status: str | None
    failed_checks: set[str]
    warnings: list[str]
    error: str | None
    rows: list[tuple]
    landed: int
    seconds: float
    extra: dict = field(default_factory=dict)


def _spec(c: Collector, base: str):
    from prefect_autodata.deployments.examples import load_example
    from prefect_autodata.runtime.spec import CollectorSpec, mirrored
    from prefect_autodata.sandbox.server import sandbox_secrets

    data = mirrored(load_example(c.example), base).model_dump(mode="json", exclude_none=True)
    c.edit(data)
    spec = CollectorSpec.parse(data)
    sandbox_secrets(spec)
    return spec


def _checks(c: Collector, spec):
    from prefect_autodata.agents.offline.instruction import parse_instruction
    from prefect_autodata.agents.validation import design_checks

    plan = parse_instruction(c.sentence, today=TODAY)
    return design_checks(plan, spec, name=spec.name, today=TODAY)


def _table(db: str, spec) -> list[tuple]:
    import duckdb

    cols = [col.name for col in spec.output_columns()]
    con = duckdb.connect(db, read_only=True)
    try:
        names = {r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()}
        if spec.table_name not in names:
            return []
        sel = ", ".join(f'"{c}"' for c in cols)
        order = ", ".join(f'"{k}"' for k in spec.primary_key)
        return [
            tuple(r)
            for r in con.execute(f'SELECT {sel} FROM "{spec.table_name}" ORDER BY {order}').fetchall()
        ]
    finally:
        con.close()


def _failed(db: str, run_id: str) -> set[str]:
    import duckdb

    con = duckdb.connect(db, read_only=True)
    try:
        rows = con.execute(
            'SELECT DISTINCT "check" FROM _autodata_checks WHERE run_id = ? AND NOT passed', [run_id]
        )
        return {r[0] for r in rows.fetchall()}
    finally:
        con.close()


def run_once(spec, checks, db: str, base: str) -> Outcome:
    from prefect_autodata.flows.run_collector import run_spec

    t0 = time.perf_counter()
    res = run_spec(spec, db, checks=checks, today=TODAY)
    secs = time.perf_counter() - t0
    return Outcome(
        status=res.status,
        checks_status=res.checks_status,
        failed_checks=_failed(db, res.run_id),
        warnings=list(res.warnings or []),
        error=res.error,
        rows=_table(db, spec),
        landed=res.rows_landed,
        seconds=secs,
    )


def _shape(w: str) -> str:
    """A warning without its numbers and URLs, so a clean rerun's warnings compare equal."""
    return re.sub(r"\d+", "#", re.sub(r"https?://\S+", "URL", w))


def verdict(base: Outcome, out: Outcome) -> tuple[bool, str]:
    """(caught, why): what in the run tells a data engineer this data is not the clean data."""
    new_checks = ", ".join(sorted(out.failed_checks - base.failed_checks))
    if out.status == "failed":
        return True, f"run failed: {(out.error or '')[:160]}"
    if out.status == "failed_checks":
        return True, f"checks failed, nothing landed: {new_checks}"
    if out.checks_status == "quarantined":
        return True, f"rows quarantined: {new_checks}"
    if out.status != "succeeded":
        return True, f"run {out.status}: {(out.error or '')[:160]}"
    if new_checks:
        return True, f"check failed (the batch landed): {new_checks}"
    before = {_shape(w) for w in base.warnings}
    new_warn = [w for w in out.warnings if _shape(w) not in before]
    if new_warn:
        return True, f"warning: {new_warn[0][:160]}"
    return False, "looks clean"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", help="comma-separated collectors (default: all)")
    ap.add_argument("--list", action="store_true", help="list the mutations and exit")
    ap.add_argument("--markdown", action="store_true", help="also print the results as a markdown table")
    args = ap.parse_args(argv)
    only = set(args.only.split(",")) if args.only else set(COLLECTORS)
    if args.list:
        for m in MUTATIONS:
            print(f"{m.collector:15} {m.name:32} {m.what}")
        return 0

    import os

    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    os.environ.setdefault("AUTODATA_LOCK_WAIT_S", "5")
    from prefect_autodata.sandbox.app import build_app
    from prefect_autodata.sandbox.server import free_port, start_in_thread, stop_thread

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    specs = {c.name: _spec(c, base) for c in COLLECTORS.values() if c.name in only}  # secrets before the app
    mutating = MutatingApp(build_app())
    server, thread = start_in_thread(mutating, "127.0.0.1", port, name="trust-mutations-sandbox")
    work = Path(tempfile.mkdtemp(prefix="autodata-trust-"))
    caught = total = equal = 0
    false_alarms: list[str] = []
    unmatched: list[str] = []
    table_rows: list[str] = []
    try:
        for c in COLLECTORS.values():
            if c.name not in only:
                continue
            spec = specs[c.name]
            checks = _checks(c, spec)
            home = work / c.name / "baseline"
            home.mkdir(parents=True)
            db = str(home / "w.duckdb")
            clean = run_once(spec, checks, db, base)
            print(
                f"[{c.name}] baseline: {clean.status}, checks {clean.checks_status}, {len(clean.rows)} rows, "
                f"{len(checks.checks)} checks, {clean.seconds:.1f} s"
                + (f"; failing: {sorted(clean.failed_checks)}" if clean.failed_checks else ""),
                flush=True,
            )
            if clean.status != "succeeded" or not clean.rows:
                print(f"[{c.name}] baseline did not succeed: {clean.error}", flush=True)
                return 1
            # control: a clean rerun must not be flagged
            ctl_home = work / c.name / "control"
            shutil.copytree(home, ctl_home)
            ctl = run_once(spec, checks, str(ctl_home / "w.duckdb"), base)
            flagged, why = verdict(clean, ctl)
            print(f"[{c.name}] control rerun: {'FLAGGED: ' + why if flagged else 'not flagged'}", flush=True)
            if flagged or ctl.rows != clean.rows:
                false_alarms.append(c.name)
            for i, m in enumerate(x for x in MUTATIONS if x.collector == c.name):
                mhome = work / c.name / f"m{i}"
                shutil.copytree(home, mhome)
                m.seen = 0
                mutating.mutation = m
                try:
                    out = run_once(spec, checks, str(mhome / "w.duckdb"), base)
                finally:
                    mutating.mutation = None
                hit, why = verdict(clean, out)
                same = out.rows == clean.rows
                total += 1
                caught += hit
                equal += same
                if not m.seen:
                    unmatched.append(f"{c.name}/{m.name}")
                mark = "CAUGHT" if hit else "MISSED"
                cell = re.sub(r"https?://127\.0\.0\.1:\d+", "", why).replace("|", "/")
                table_rows.append(
                    f"| {c.name} | {m.name} | {m.what} | {mark.lower()}: {cell} | {'yes' if same else 'NO'} |"
                )
                table = (
                    "table = baseline"
                    if same
                    else f"TABLE CHANGED ({len(out.rows)} vs {len(clean.rows)} rows)"
                )
                print(
                    f"  {mark:6} {m.name:32} ({m.what}; {m.seen} responses mutated) -> {why}; {table}; "
                    f"{out.seconds:.1f} s",
                    flush=True,
                )
    finally:
        stop_thread(server, thread)
        shutil.rmtree(work, ignore_errors=True)
    if args.markdown:
        print("| collector | mutation | what is served | verdict | table = baseline |")
        print("| --- | --- | --- | --- | --- |")
        print("\n".join(table_rows))
    print(f"tables equal to the baseline after the run: {equal}/{total}")
    print(
        f"control reruns flagged (false alarms): {len(false_alarms)}"
        + (f" {false_alarms}" if false_alarms else "")
    )
    if unmatched:
        print(f"mutations that matched no request: {unmatched}")
    print(f"mutations caught: {caught}/{total}")
    return 0 if caught == total and equal == total and not false_alarms and not unmatched else 1


if __name__ == "__main__":
    raise SystemExit(main())

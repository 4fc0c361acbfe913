"""Held-out "wild" pages: hand-written static sites in the styles of the 2010s web, scored like the zoo.

    .venv/bin/python benchmarks/bench_wild.py [--root DIR] [--site NAME ...] [--json OUT.json] [--log DIR]

Every folder of tests/data/wild is one small site: 1-6 static HTML pages and an ``expected.yaml``
(``request``: the sentence, which names the fields; ``source``: the entry page, relative to the site;
``fields``: the scored fields; ``records``: the truth). The pages were written by hand, not by the zoo
generator, and nobody tunes against them: they measure what the product does on layouts it was not
built for. One loopback static server serves them all (``/<site>/<path>``; a query string is served from
``<path>@<query>.html``, so a ``?page=1`` pager works on static files). Each site is collected offline
with ``--source`` its entry page and no ``--fields``, and scored with the zoo's scorer
(prefect_autodata/sandbox/scorer.py): attribute F1 per site and per field, then ``wild mean F1``.
``--root`` picks another folder of such sites (tests/data/wild2: the second held-out set).
"""

from __future__ import annotations

import argparse
import http.server
import json
import re
import tempfile
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
import yaml

WILD = Path(__file__).resolve().parents[1] / "tests" / "data" / "wild"


@dataclass
class WildSite:
    name: str
    request: str
    source: str
    fields: list[str]
    truth: pd.DataFrame
    style: str = ""


@dataclass
class WildResult:
    site: str
    status: str = "error"
    f1: float = 0.0
    strict_f1: float = 0.0
    rows: int = 0
    expected_rows: int = 0
    per_field: dict[str, float] = field(default_factory=dict)
    columns: list[str] = field(default_factory=list)
    error: str | None = None
    seconds: float = 0.0
    log: list[str] = field(default_factory=list)
    spec: str = ""
    head: str = ""
    findings: dict[str, str] = field(default_factory=dict)  # landed fields the test agent doubts


def load_sites(root: Path = WILD, names: list[str] | None = None) -> list[WildSite]:
    """The sites under ``root`` (all, or those named), each with its truth as a DataFrame."""
    out = []
    for exp in sorted(root.glob("*/expected.yaml")):
        name = exp.parent.name
        if names and name not in names:
            continue
        doc = yaml.safe_load(exp.read_text(encoding="utf-8"))
        truth = pd.DataFrame(doc["records"], columns=doc["fields"])
        out.append(
            WildSite(name, doc["request"], doc["source"], list(doc["fields"]), truth, doc.get("style", ""))
        )
    return out


class _Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *_args: Any) -> None:  # quiet: the benchmark prints its own table
        pass

    def translate_path(self, path: str) -> str:
        parts = urllib.parse.urlsplit(path)
        rel = urllib.parse.unquote(parts.path).lstrip("/")
        base = Path(self.directory) / rel
        candidates = []
        if parts.query:
            stem = str(base)[: -len(".html")] if str(base).endswith(".html") else str(base)
            candidates.append(Path(f"{stem}@{parts.query}.html"))
        candidates += [base, Path(f"{base}.html"), base / "index.html"]
        for c in candidates:
            if c.is_file():
                return str(c)
        return str(base)


class WildServer:
    """One static loopback server over the wild folder (``with WildServer() as s: s.base_url``)."""

    def __init__(self, root: Path = WILD) -> None:
        handler = lambda *a, **k: _Handler(*a, directory=str(root), **k)  # noqa: E731
        self._httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.base_url = f"http://127.0.0.1:{self._httpd.server_address[1]}"
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    def __enter__(self) -> WildServer:
        self._thread.start()
        return self

    def __exit__(self, *_exc: Any) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


def _words(name: str) -> set[str]:
    return {w for w in re.split(r"[\s_]+", name.lower()) if w}


def _read_in(field: str, column: str, units: dict[str, str]) -> bool:
    """True when ``field`` is ``column`` read in the unit the spec declares for it: "height in metres"
    is the column ``height`` whose numbers the spec counts in m (the product keeps the unit a sentence
    reads a field in as the column's unit, not in its name)."""
    from prefect_autodata.agents.induction.lexicon import unit_symbol

    m = re.match(r"^(.*\S)\s+in\s+(?:the\s+)?(\S.*)$", field.lower())
    unit = unit_symbol(units.get(column))
    return (
        bool(m)
        and unit is not None
        and _words(m.group(1)) <= _words(column)
        and unit_symbol(m.group(2)) == unit
    )


def name_lenient(
    columns: list[str], fields: list[str], units: dict[str, str] | None = None
) -> dict[str, str]:
    """Renames that give an unnamed expected field the one column whose name holds all its words.

    The sentence may say "year opened" where expected.yaml says ``opened``: the product names the
    column after the sentence (``year_opened``). A field already present, or two candidate columns,
    keep the strict reading. A field read in a unit ("height in metres") is the column of its other
    words whose declared unit (``units``, the spec's) is that unit.
    """
    have = {c.lower() for c in columns}
    out: dict[str, str] = {}
    for f in fields:
        if f.lower() in have:
            continue
        hits = [
            c
            for c in columns
            if (_words(f) <= _words(c) or _read_in(f, c, units or {}))
            and c.lower() not in {x.lower() for x in fields}
        ]
        if len(hits) == 1 and hits[0] not in out:
            out[hits[0]] = f
    return out


def run_site(site: WildSite, base_url: str, root: Path) -> WildResult:
    """Collect one site offline from its entry page and score it against its expected records."""
    import duckdb

    from prefect_autodata.flows.collect import collect
    from prefect_autodata.sandbox.scorer import score, spec_units
    from prefect_autodata.workspace import Workspace

    r = WildResult(site=site.name, expected_rows=len(site.truth))
    t0 = time.monotonic()
    try:
        res = collect(
            site.request,
            sources=[f"{base_url}/{site.name}/{site.source}"],
            fields=None,
            workspace=Workspace(root / site.name).ensure(),
            backend="offline",
            search_url=base_url,
            deploy=False,
            progress=lambda role, msg: r.log.append(f"{role}: {msg}"),
        )
        r.status, r.rows, r.error = res.status, res.rows or 0, res.error
        r.findings = {f: v["finding"] for f, v in (res.fields or {}).items() if v.get("finding")}
        if res.spec and Path(res.spec).exists():
            r.spec = Path(res.spec).read_text(encoding="utf-8")
        if res.table and res.rows:
            con = duckdb.connect(res.db, read_only=True)
            try:
                df = con.execute(f'SELECT * FROM "{res.table}"').df()
            finally:
                con.close()
            # a column is an identifier ("square_feet"); the request's "square feet" names it
            spaced = {f.lower(): f for f in site.fields}
            df = df.rename(columns=lambda c: spaced.get(str(c).replace("_", " ").lower(), c))
            r.columns = [str(c) for c in df.columns if not str(c).startswith("_autodata")]
            r.head = df[r.columns].head(5).to_string()
            units = {spaced.get(c.replace("_", " ").lower(), c): u for c, u in spec_units(res.spec).items()}
            strict = score(df, site.truth, fields=site.fields, units=units)
            r.strict_f1 = round(strict.f1, 4)
            lenient = name_lenient(r.columns, site.fields, units)
            named = {lenient.get(c, c): u for c, u in units.items()}
            s = score(df.rename(columns=lenient), site.truth, fields=site.fields, units=named)
            r.f1 = round(s.f1, 4)
            r.per_field = {f: round(a.f1, 4) for f, a in s.per_attribute.items()}
        else:
            r.per_field = dict.fromkeys(site.fields, 0.0)
    except Exception as exc:  # one site's failure scores 0 with its error; the others go on
        r.status, r.error = "error", f"{type(exc).__name__}: {exc}"
        r.per_field = dict.fromkeys(site.fields, 0.0)
    r.seconds = round(time.monotonic() - t0, 1)
    return r


def markdown(results: list[WildResult]) -> str:
    lines = ["| site | status | rows | F1 | strict | per field |", "| --- | --- | ---: | ---: | ---: | --- |"]
    for r in results:
        per = ", ".join(f"{k} {v:.2f}" for k, v in r.per_field.items())
        lines.append(
            f"| {r.site} | {r.status} | {r.rows}/{r.expected_rows} | {r.f1:.3f} | {r.strict_f1:.3f} | {per} |"
        )
    n = max(1, len(results))
    mean, strict = sum(r.f1 for r in results) / n, sum(r.strict_f1 for r in results) / n
    lines.append(f"\nwild mean F1: {mean:.3f} ({len(results)} sites; strict column names: {strict:.3f})")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=str(WILD), help="the folder of sites (default tests/data/wild)")
    ap.add_argument("--site", action="append", default=None, help="only this site (repeatable)")
    ap.add_argument("--json", default=None, help="write the per-site results as JSON here")
    ap.add_argument("--log", default=None, help="write each site's collect log, spec and head here")
    args = ap.parse_args()
    wild_root = Path(args.root).resolve()
    sites = load_sites(wild_root, names=args.site)
    root = Path(tempfile.mkdtemp(prefix="autodata-wild-"))
    results = []
    with WildServer(wild_root) as server:
        for site in sites:
            r = run_site(site, server.base_url, root)
            results.append(r)
            print(
                f"{r.site}: {r.status} F1={r.f1:.3f} rows={r.rows}/{r.expected_rows} {r.seconds}s", flush=True
            )
            if args.log:
                d = Path(args.log)
                d.mkdir(parents=True, exist_ok=True)
                (d / f"{r.site}.txt").write_text(
                    f"status {r.status} error {r.error}\ncolumns {r.columns}\n{r.head}\n\n"
                    + "\n".join(r.log)
                    + "\n\n"
                    + r.spec,
                    encoding="utf-8",
                )
    print(markdown(results))
    if args.json:
        payload = [{k: v for k, v in r.__dict__.items() if k not in ("log", "spec", "head")} for r in results]
        Path(args.json).write_text(json.dumps(payload, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()

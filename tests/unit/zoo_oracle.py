"""Test-only oracle for the zoo: reads a drawn site the way its generator laid it out (ZooSite.notes).

It is the reference check of the benchmark: if the oracle, which knows every layout, does not score
1.000, the scorer and the ground truth disagree or a value is unreachable. Nothing in the product
may know what this module knows.
"""

from __future__ import annotations

from datetime import date
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pandas as pd
from lxml import html as lhtml
from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.testclient import TestClient

from prefect_autodata.sandbox.scorer import normalise
from prefect_autodata.sandbox.zoo.base import ZooSite
from prefect_autodata.sandbox.zoo.catalog import ZooTask, keeps
from prefect_autodata.sandbox.zoo.phrasing import Filter


def site_client(site: ZooSite) -> TestClient:
    """An in-process client for one site, mounted under /<host> as the zoo server mounts it."""
    return TestClient(Starlette(routes=[Mount(f"/{site.host}", routes=list(site.routes))]))


def getter(site: ZooSite, client: TestClient | None = None):
    """A `get(path, query, headers) -> (status, text)` over the site (paths relative to its root)."""
    client = client or site_client(site)

    def get(path: str, query: dict | None = None, headers: dict | None = None) -> tuple[int, str]:
        if path.startswith(f"/{site.host}/") or path == f"/{site.host}":
            path = path[len(site.host) + 1 :] or "/"
        parts = urlsplit(path)
        q = dict(parse_qsl(parts.query)) | dict(query or {})
        r = client.get(f"/{site.host}{parts.path}", params=q, headers=headers or {})
        return r.status_code, r.text

    return get


def _text(node: Any) -> str:
    if isinstance(node, str):
        return " ".join(node.split())
    return " ".join(node.text_content().split())


def _value(doc: Any, sp: dict[str, Any]) -> str | None:
    hits = doc.xpath(sp["x"])
    if not hits:
        return None
    text = _text(hits[0])
    pre, suf = sp.get("prefix"), sp.get("suffix")
    if pre and text.startswith(pre):
        text = text[len(pre) :].strip()
    if suf and text.endswith(suf):
        text = text[: -len(suf)].strip()
    return text or None


def _html_records(get, notes: dict[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for path in notes["listing_paths"]:
        status, text = get(path)
        assert status == 200, (path, status)
        doc = lhtml.fromstring(text)
        mode = notes["mode"]
        if mode == "items":
            for item in doc.xpath(notes["item"]):
                rec = {f: _value(item, sp) for f, sp in notes["fields"].items()}
                if notes.get("detail_link"):
                    hrefs = item.xpath(notes["detail_link"])
                    assert hrefs, (path, "no detail link")
                    st, dtext = get(str(hrefs[0]))
                    assert st == 200, (hrefs[0], st)
                    ddoc = lhtml.fromstring(dtext)
                    for f, sp in notes["detail_fields"].items():
                        rec[f] = _value(ddoc, sp)
                out.append(rec)
        elif mode == "lines":
            (box,) = doc.xpath(notes["container"])
            lines = [ln for ln in box.text_content().split("\n") if ln.strip()]
            if notes.get("header"):
                lines = lines[1:]
            for ln in lines:
                cells = [c.strip() for c in ln.split(notes["sep"].strip() or notes["sep"])]
                out.append(
                    {f: (cells[k] or None) if k < len(cells) else None for k, f in enumerate(notes["order"])}
                )
        elif mode == "columns":
            (table,) = doc.xpath(notes["table"])
            rows = table.xpath(".//tr")
            width = len(rows[0].xpath("./th|./td"))
            for col in range(notes["first_col"], width + 1):
                rec = {}
                for f, pos in notes["rows"].items():
                    cells = rows[pos - 1].xpath("./th|./td")
                    rec[f] = _text(cells[col - 1]) or None
                out.append(rec)
        else:
            raise AssertionError(f"unknown mode {mode}")
    return out


def site_records(site: ZooSite, get=None) -> list[dict[str, Any]]:
    """Every record the site serves, keyed by canonical field name, as the pages show it."""
    get = get or getter(site)
    notes = site.notes
    if notes.get("method", "html") == "html" and "listing_paths" in notes:
        return _html_records(get, notes)
    from prefect_autodata.sandbox.zoo.families.api_base import fetch_records

    return fetch_records(get, notes)


def _comparable(flt: Filter, shown: Any) -> Any:
    """A shown value in the filter value's type (dates via the scorer's date reading)."""
    if shown is None:
        return None
    ref = flt.value[0] if flt.op in ("range", "in") else flt.value
    if isinstance(ref, date):
        iso = normalise(shown)
        try:
            return date.fromisoformat(iso[:10])
        except ValueError:
            return None
    if isinstance(ref, int):
        try:
            return int(str(shown).replace(",", ""))
        except ValueError:
            return None
    return shown


def oracle_frame(task: ZooTask, get=None) -> pd.DataFrame:
    """The oracle's collected table for a task: the site's records, filtered, columns as requested."""
    rows = []
    for rec in site_records(task.site, get):
        if all(keeps(f, {f.field: _comparable(f, rec.get(f.field))}) for f in task.filters):
            rows.append({task.columns[f]: rec.get(f) for f in task.columns})
    return pd.DataFrame(rows, columns=list(task.columns.values()))

"""File-download families: a page linking a CSV, or NDJSON / JSON-lines files (one per year on some).

Why: many open-data sites publish a file rather than an API or a table; a collector must find the
download link on an ordinary page and parse the file. Notes: ``method: "file"``, ``files`` (path,
format, scope value or None for the all-records file), ``columns`` (field → header or JSON key).
"""

from __future__ import annotations

import csv
import io
import random
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from prefect_autodata.sandbox.scorer import normalise
from prefect_autodata.sandbox.sites._api import dumps
from prefect_autodata.sandbox.zoo.base import KindDef, RecordSet, ZooSite
from prefect_autodata.sandbox.zoo.families.api_base import (
    SiteText,
    catch_all,
    draw_brand,
    draw_keys,
    draw_label,
    esc,
    json_value,
    shell,
    slug,
)

_MISSING = normalise(None)


def _scope_field(kind: KindDef) -> str | None:
    """The field files can be split by: a year-like int scope field, or a date (by its year)."""
    for f in kind.scope_fields:
        if f in kind.field_names and kind.field(f).type in ("int", "date"):
            return f
    return None


def _scope_value(rec: dict, kind: KindDef, f: str) -> str | None:
    v = normalise(rec.get(f))
    if v == _MISSING:
        return None
    return v[:4] if kind.field(f).type == "date" else v


def _csv_text(rs: RecordSet, recs: list[dict], cols: dict[str, str], delimiter: str) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=delimiter, lineterminator="\n")
    names = [f.name for f in rs.kind.fields]
    w.writerow([cols[n] for n in names])
    for r in recs:
        w.writerow(["" if r.get(n) is None else str(r.get(n)) for n in names])
    return buf.getvalue()


def _ndjson_text(rs: RecordSet, recs: list[dict], cols: dict[str, str], typed: bool) -> str:
    lines = []
    for r in recs:
        obj = {cols[f.name]: json_value(r.get(f.name), f.type, typed) for f in rs.kind.fields}
        lines.append(dumps(obj).decode())
    return "\n".join(lines) + ("\n" if lines else "")


class FileFamily:
    """A download page and its files (``fmt``: csv or ndjson)."""

    kinds: tuple[str, ...] | None = None

    def __init__(self, name: str, fmt: str) -> None:
        self.name = name
        self.fmt = fmt

    def build(self, rs: RecordSet, rng: random.Random, host: str) -> ZooSite:
        kind = rs.kind
        text = SiteText(host, draw_brand(rng, kind), kind.plural, kind.singular)
        if self.fmt == "csv":
            style = rng.choice(["labels", "snake", "camel", "pascal"])
            if style == "labels":
                cols, used = {}, set()
                for f in kind.fields:
                    lab = draw_label(f, rng)
                    while lab.lower() in used:
                        lab = f"{lab} ({f.name})"
                    used.add(lab.lower())
                    cols[f.name] = lab
            else:
                cols = draw_keys(kind, rng, style)
            ext = ".csv"
        else:
            cols = draw_keys(kind, rng, rng.choice(["snake", "camel", "abbrev_snake"]))
            ext = rng.choice([".ndjson", ".jsonl"])
        typed = rng.random() < 0.6
        base = rng.choice(["/downloads/", "/data/", "/open-data/", "/files/"])
        stem = slug(kind.plural, rng.choice(["-", "_"]))
        scope = _scope_field(kind)
        split = scope is not None and rng.random() < (0.4 if self.fmt == "csv" else 0.6)
        groups: dict[str, list[dict]] = {}
        if split and scope:
            for r in rs.records:
                sv = _scope_value(r, kind, scope)
                groups.setdefault(sv or "unknown", []).append(r)
        files: list[dict[str, Any]] = [{"path": f"{base}{stem}{ext}", "format": self.fmt, "scope": None}]
        bodies: dict[str, list[dict]] = {files[0]["path"]: rs.records}
        for sv in sorted(groups):
            path = f"{base}{stem}-{sv}{ext}"
            files.append({"path": path, "format": self.fmt, "scope": sv})
            bodies[path] = groups[sv]
        attach = rng.random() < 0.5
        media = "text/csv; charset=utf-8" if self.fmt == "csv" else "application/x-ndjson"
        ftexts = {
            p: (_csv_text(rs, recs, cols, ",") if self.fmt == "csv" else _ndjson_text(rs, recs, cols, typed))
            for p, recs in bodies.items()
        }

        def download(path: str):
            headers = (
                {"Content-Disposition": f'attachment; filename="{path.rsplit("/", 1)[-1]}"'} if attach else {}
            )

            async def handler(request: Request) -> Response:
                return Response(ftexts[path], media_type=media, headers=headers)

            return handler

        fmt_name = "CSV" if self.fmt == "csv" else "NDJSON (one JSON object per line)"
        layout = rng.choice(["table", "list"])
        items = []
        for f in files:
            label = (
                f"All {kind.plural}" if f["scope"] is None else f"{kind.plural.capitalize()}, {f['scope']}"
            )
            n = len(bodies[f["path"]])
            items.append((label, text.link(f["path"]), n, len(ftexts[f["path"]].encode())))
        if layout == "table":
            rows = "".join(
                f'<tr><td>{esc(lab)}</td><td><a href="{esc(href)}">{esc(href.rsplit("/", 1)[-1])}</a></td>'
                f"<td>{n:,}</td><td>{size / 1024:.1f} KB</td></tr>"
                for lab, href, n, size in items
            )
            listing = (
                "<table><thead><tr><th>Data set</th><th>File</th><th>Rows</th><th>Size</th></tr></thead>"
                f"<tbody>{rows}</tbody></table>"
            )
        else:
            listing = (
                "<ul>"
                + "".join(
                    f'<li><a href="{esc(href)}">Download {esc(lab.lower())} ({fmt_name.split(" ")[0]})</a> — {n:,} rows</li>'
                    for lab, href, n, _size in items
                )
                + "</ul>"
            )
        dictionary = "".join(
            f"<tr><td><code>{esc(cols[f.name])}</code></td><td>{esc(draw_label(f, rng))}</td></tr>"
            for f in kind.fields
        )
        split_note = (
            f"<p>Besides the complete file there is one file per {esc(scope.replace('_', ' '))}.</p>"
            if split
            else ""
        )
        body = (
            f"<h1>Download {esc(kind.plural)}</h1><p>The complete list of our {esc(kind.plural)} as {fmt_name}, "
            f"updated regularly; {len(rs.records):,} records in all.</p>{split_note}{listing}"
            f'<h2>Columns</h2><table class="dictionary"><thead><tr><th>Column</th><th>Meaning</th></tr></thead>'
            f"<tbody>{dictionary}</tbody></table>"
        )

        async def page(request: Request) -> Response:
            return HTMLResponse(
                shell(f"{text.brand} — data downloads", body, generated=rs.generated, site_name=text.brand)
            )

        async def home(request: Request) -> Response:
            inner = (
                f"<h1>{esc(text.brand)}</h1><p>Browse and download our {esc(kind.plural)}.</p>"
                f'<p><a href="{text.link(base)}">Data downloads</a></p>'
            )
            return HTMLResponse(shell(text.brand, inner, generated=rs.generated, site_name=text.brand))

        routes = [Route(base, page), Route("/", home)]
        routes += [Route(f["path"], download(f["path"])) for f in files]
        routes.append(catch_all())
        notes = {
            "method": "file",
            "site_name": text.brand,
            "docs_path": base,
            "format": self.fmt,
            "files": files,
            "columns": cols,
            "split_by": scope if split else None,
            "auth": None,
            "typed_numbers": typed if self.fmt == "ndjson" else False,
        }
        return ZooSite(host=host, family=self.name, routes=routes, entry_path=base, notes=notes)

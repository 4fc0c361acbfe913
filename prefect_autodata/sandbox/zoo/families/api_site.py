"""The JSON API site the api_* families draw: list + detail endpoints, a docs page, optional OpenAPI.

Why one builder: the families fix one axis each (key style, record shape, pagination, auth) and
draw the rest, so the same request handling serves them all and ``notes`` stay in one schema
(see ``api_base``).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from prefect_autodata.sandbox.zoo.base import RecordSet, ZooSite
from prefect_autodata.sandbox.zoo.families.api_base import (
    Auth,
    BadParam,
    Filter,
    Pager,
    SiteText,
    apply_filters,
    catch_all,
    draw_auth,
    draw_brand,
    draw_filters,
    draw_groups,
    draw_keys,
    draw_label,
    draw_pager,
    esc,
    json_error,
    json_ok,
    json_value,
    record_ids,
    record_json,
    set_path,
    shell,
    slug,
    style_key,
)


@dataclass
class ApiConfig:
    """The drawn layout of one API site."""

    key_style: str = "snake"  # camel | snake | pascal | abbrev | abbrev_snake
    shape: str = "objects"  # objects | nested | keyed | rows
    pagination: str = "page"  # page | offset | cursor | none
    auth: str | None = "query"  # query | header | bearer | None
    docs_style: str = "table"  # table | prose | curl
    openapi: bool = False
    typed: bool = True
    header_in_rows: bool = False


def draw_config(rng: random.Random, n: int, **fixed: Any) -> ApiConfig:
    """An ApiConfig with the family's fixed choices and the rest drawn from ``rng``."""
    cfg = ApiConfig(
        key_style=rng.choice(["camel", "snake", "pascal", "abbrev", "abbrev_snake"]),
        shape=rng.choice(["objects", "nested", "keyed", "rows"]),
        pagination=rng.choice(["page", "offset", "cursor"] + (["none"] if n <= 300 else [])),
        auth=rng.choice(["query", "header", "bearer", None]),
        docs_style=rng.choice(["table", "prose", "curl"]),
        openapi=rng.random() < 0.5,
        typed=rng.random() < 0.6,
        header_in_rows=rng.random() < 0.4,
    )
    for k, v in fixed.items():
        setattr(cfg, k, v)
    return cfg


def build_api_site(rs: RecordSet, rng: random.Random, host: str, family: str, cfg: ApiConfig) -> ZooSite:
    kind = rs.kind
    ks = cfg.key_style
    k = lambda text: style_key(text.split(), ks)  # noqa: E731
    id_key = rng.choice(["id", k("record id"), "uid", k(f"{kind.singular} id")])
    keys = draw_keys(kind, rng, ks, reserved=(id_key,))
    paths = draw_groups(kind, rng, keys, ks) if cfg.shape == "nested" else dict(keys)
    filters = draw_filters(kind, rng, ks, keys)
    pager = draw_pager(cfg.pagination, rng, len(rs.records), ks)
    auth = draw_auth(cfg.auth, rng, rng.choice(["nested", "flat", "detail"])) if cfg.auth else None
    err_style = auth.error_style if auth else rng.choice(["nested", "flat", "detail"])
    for flt in filters:  # a filter named like a paging/auth parameter would shadow it
        taken = set(pager.params()) | ({auth.name} if auth and auth.where == "query" else set())
        if flt.param in taken:
            flt.param = f"{flt.param}_filter"
    ids = record_ids(len(rs.records), rng)
    by_id = dict(zip(ids, rs.records, strict=True))
    plural_slug = slug(kind.plural, rng.choice(["-", "_", ""]))
    version = rng.choice(["v1", "v2", "v3", "2.0", "1"])
    endpoint = rng.choice(
        [
            f"/api/{version}/{plural_slug}",
            f"/{version}/{plural_slug}",
            f"/rest/{plural_slug}",
            f"/data/{plural_slug}",
        ]
    )
    docs_path = rng.choice(["/docs/", "/developers/", "/api/docs", f"/documentation/{plural_slug}"])
    openapi_path = rng.choice(["/openapi.json", "/swagger.json", "/api/spec.json"]) if cfg.openapi else None
    text = SiteText(host, draw_brand(rng, kind), kind.plural, kind.singular)

    # the envelope
    container = rng.choice(["data", "results", "items", k(kind.plural), "records"])
    if rng.random() < 0.3:
        container = f"{rng.choice(['response', 'payload', 'body'])}.{container}"
    header_key = rng.choice(["columns", "header", "fields", "cols"])
    meta_key = rng.choice(["meta", "paging", "pagination", ""])
    next_path = None
    if cfg.pagination == "cursor":
        next_path = rng.choice(["next", k("next cursor"), f"{meta_key or 'paging'}.next", "links.next"])
    total_key = rng.choice(["total", k("total count"), "count"])
    if container.split(".")[0] in {meta_key, total_key, header_key, (next_path or "").split(".")[0]}:
        container = "data" if meta_key != "data" else "results"
    header_path = None if cfg.header_in_rows else header_key
    columns = [id_key] + [keys[f.name] for f in kind.fields]

    link_path = None  # page/offset APIs that also hand out the next page's URL
    if cfg.pagination in ("page", "offset") and rng.random() < 0.5:
        link_path = rng.choice(["links.next", k("next page url"), "_links.next.href"])
        if link_path.split(".")[0] in {container.split(".")[0], meta_key, total_key}:
            link_path = "_links.next.href"

    def page_body(
        start: int, stop: int, total_recs: list[tuple[str, dict]], facts: dict, next_url: str | None = None
    ) -> dict:
        chunk = total_recs[start:stop]
        body: dict[str, Any] = {}
        if cfg.shape == "rows":
            rows = [
                [rid] + [json_value(rec.get(f.name), f.type, cfg.typed) for f in kind.fields]
                for rid, rec in chunk
            ]
            if cfg.header_in_rows:
                rows = [list(columns), *rows]
            else:
                body[header_key] = list(columns)
            set_path(body, container, rows)
        elif cfg.shape == "keyed":
            set_path(body, container, {rid: record_json(rec, kind, paths, cfg.typed) for rid, rec in chunk})
        else:
            set_path(
                body,
                container,
                [{id_key: rid, **record_json(rec, kind, paths, cfg.typed)} for rid, rec in chunk],
            )
        meta: dict[str, Any] = {total_key: len(total_recs)}
        if cfg.pagination == "page":
            meta[pager.page_param] = facts["page"]
            meta[pager.size_param] = facts["size"]
            meta[k("total pages")] = facts["pages"]
        elif cfg.pagination == "offset":
            meta[pager.offset_param] = facts["offset"]
            meta[pager.size_param] = facts["size"]
        for mk, mv in meta.items():
            set_path(body, f"{meta_key}.{mk}" if meta_key else mk, mv)
        if next_path:
            set_path(body, next_path, facts.get("next"))
        if link_path:
            set_path(body, link_path, next_url)
        return body

    all_items = list(by_id.items())

    async def list_endpoint(request: Request) -> Response:
        if auth and (denied := auth.check(request)) is not None:
            return denied
        q = request.query_params
        try:
            recs = apply_filters([r for _, r in all_items], filters, q)
            chosen = {id(r) for r in recs}
            items = [(i, r) for i, r in all_items if id(r) in chosen]
            start, stop, facts = pager.window(q, len(items))
        except BadParam as exc:
            return json_error(400, "invalid_parameter", exc.message, err_style, exc.param)
        next_url = None
        if link_path and stop < len(items):
            nq = dict(q)
            if cfg.pagination == "page":
                nq[pager.page_param] = str(facts["page"] + 1)
            else:
                nq[pager.offset_param] = str(stop)
            next_url = text.link(endpoint) + "?" + urlencode(nq)
        return json_ok(page_body(start, stop, items, facts, next_url))

    async def detail_endpoint(request: Request) -> Response:
        if auth and (denied := auth.check(request)) is not None:
            return denied
        rid = request.path_params["rid"]
        rec = by_id.get(rid)
        if rec is None:
            return json_error(404, "not_found", f"No {kind.singular} with id {rid!r}.", err_style)
        if cfg.shape == "rows":
            return json_ok(
                {
                    header_key: columns,
                    "row": [rid] + [json_value(rec.get(f.name), f.type, cfg.typed) for f in kind.fields],
                }
            )
        return json_ok({id_key: rid, **record_json(rec, kind, paths, cfg.typed)})

    example_id = ids[0] if ids else "1"
    params_doc = _param_docs(pager, filters, auth, kind)
    field_docs = [(paths[f.name], draw_label(f, rng), f.type) for f in kind.fields]
    sample = (
        page_body(0, min(2, len(all_items)), all_items, pager.window({}, len(all_items))[2])
        if all_items
        else {}
    )

    async def docs(request: Request) -> Response:
        body = _docs_body(
            cfg,
            text,
            endpoint,
            params_doc,
            field_docs,
            auth,
            openapi_path,
            sample,
            example_id,
            id_key,
            pager,
            filters,
            f"{request.url.scheme}://{request.url.netloc}",
            link_path,
        )
        return HTMLResponse(
            shell(f"{text.brand} API documentation", body, generated=rs.generated, site_name=text.brand)
        )

    async def home(request: Request) -> Response:
        body = (
            f"<h1>{esc(text.brand)}</h1><p>Our {esc(kind.plural)} are available through a JSON API.</p>"
            f'<p><a href="{text.link(docs_path)}">API documentation</a></p>'
        )
        return HTMLResponse(shell(text.brand, body, generated=rs.generated, site_name=text.brand))

    async def openapi(request: Request) -> Response:
        return json_ok(_openapi_doc(text, endpoint, params_doc, auth, field_docs, id_key))

    routes = [
        Route(docs_path, docs),
        Route(endpoint, list_endpoint),
        Route(endpoint + "/{rid}", detail_endpoint),
    ]
    if docs_path != "/":
        routes.append(Route("/", home))
    if openapi_path:
        routes.append(Route(openapi_path, openapi))
    routes.append(catch_all())
    notes = {
        "method": "api",
        "site_name": text.brand,
        "docs_path": docs_path,
        "openapi_path": openapi_path,
        "endpoint": endpoint,
        "detail_path": endpoint + "/{id}",
        "id_key": id_key,
        "auth": auth.note() if auth else None,
        "pagination": pager.note(next_path) | {"next_url_path": link_path},
        "records_path": container,
        "shape": "objects" if cfg.shape == "nested" else cfg.shape,
        "header_path": header_path if cfg.shape == "rows" else None,
        "header_in_rows": cfg.header_in_rows if cfg.shape == "rows" else False,
        "fields": {f.name: keys[f.name] for f in kind.fields} if cfg.shape == "rows" else paths,
        "filters": {flt.field: flt.note() for flt in filters},
        "total_path": f"{meta_key}.{total_key}" if meta_key else total_key,
        "key_style": ks,
        "typed_numbers": cfg.typed,
        "docs_style": cfg.docs_style,
    }
    return ZooSite(host=host, family=family, routes=routes, entry_path=docs_path, notes=notes)


def _param_docs(pager: Pager, filters: list[Filter], auth: Auth | None, kind) -> list[tuple[str, str, str]]:
    """(name, type, description) of every documented query parameter."""
    out: list[tuple[str, str, str]] = []
    if pager.style == "page":
        first = "first page is 0" if pager.first_page == 0 else "first page is 1"
        out.append((pager.page_param, "integer", f"Page number ({first})."))
    elif pager.style == "offset":
        out.append((pager.offset_param, "integer", "Number of records to skip (default 0)."))
    elif pager.style == "cursor":
        out.append(
            (
                pager.cursor_param,
                "string",
                "Opaque cursor from the previous response's next value; omit it for the first page.",
            )
        )
    if pager.style != "none":
        out.append(
            (
                pager.size_param,
                "integer",
                f"Records per response, 1 to {pager.max_page_size} (default {pager.page_size}).",
            )
        )
    for flt in filters:
        label = flt.field.replace("_", " ")
        if flt.ftype == "date":
            out.append(
                (flt.start, "date (YYYY-MM-DD)", f"Only {kind.plural} with {label} on or after this day.")
            )
            out.append(
                (flt.end, "date (YYYY-MM-DD)", f"Only {kind.plural} with {label} on or before this day.")
            )
        else:
            out.append(
                (flt.param, "string", f"Only {kind.plural} with this {label} (comma-separate several).")
            )
    if auth and auth.where == "query":
        out.append((auth.name, "string", "Your API key (required)."))
    return out


def _example_query(pager: Pager, auth: Auth | None) -> str:
    parts = []
    if pager.style == "page":
        parts.append(f"{pager.page_param}={pager.first_page}")
    if pager.style != "none":
        parts.append(f"{pager.size_param}={pager.page_size}")
    if auth and auth.where == "query":
        parts.append(f"{auth.name}={auth.value}")
    return ("?" + "&".join(parts)) if parts else ""


def _docs_body(
    cfg: ApiConfig,
    text: SiteText,
    endpoint: str,
    params: list[tuple[str, str, str]],
    field_docs: list[tuple[str, str, str]],
    auth: Auth | None,
    openapi_path: str | None,
    sample: dict,
    example_id: str,
    id_key: str,
    pager: Pager,
    filters: list[Filter],
    origin: str = "",
    link_path: str | None = None,
) -> str:
    url = text.link(endpoint)
    example = url + _example_query(pager, auth)
    auth_html = f"<p>{auth.sentence()}</p>" if auth else "<p>The API is open: no key is needed.</p>"
    link_note = (
        " Each response also carries the full URL of the next page (null on the last page)."
        if link_path
        else ""
    )
    paging = {
        "page": f"Results come in pages; ask for the next page with <code>{esc(pager.page_param)}</code> until a page comes back empty.",
        "offset": f"Results come in slices; move through them with <code>{esc(pager.offset_param)}</code> and <code>{esc(pager.size_param)}</code> until a slice comes back empty.",
        "cursor": f"Results come in pages; each response carries a cursor for the next page (null on the last one); pass it back as <code>{esc(pager.cursor_param)}</code>.",
        "none": "One response holds every record.",
    }[pager.style] + link_note
    fields_html = "".join(
        f"<tr><td><code>{esc(p)}</code></td><td>{esc(lab)}</td><td>{esc(t)}</td></tr>"
        for p, lab, t in field_docs
    )
    fields_tbl = (
        f'<table class="fields"><thead><tr><th>Key</th><th>Meaning</th><th>Type</th></tr></thead>'
        f"<tbody><tr><td><code>{esc(id_key)}</code></td><td>Record id</td><td>string</td></tr>{fields_html}</tbody></table>"
    )
    sample_html = (
        f'<pre class="sample"><code>{esc(json.dumps(sample, indent=2, ensure_ascii=False))}</code></pre>'
    )
    spec = (
        f'<p>Machine-readable description: <a href="{text.link(openapi_path)}">OpenAPI document</a>.</p>'
        if openapi_path
        else ""
    )
    head = f"<h1>{esc(text.brand)} API</h1>"
    if cfg.docs_style == "table":
        rows = "".join(
            f"<tr><td><code>{esc(n)}</code></td><td>{esc(t)}</td><td>{esc(d)}</td></tr>" for n, t, d in params
        )
        return (
            f"{head}<h2>List {esc(text.plural)}</h2><p><code>GET {esc(url)}</code></p>"
            f'<h3>Query parameters</h3><table class="params"><thead><tr><th>Parameter</th><th>Type</th>'
            f"<th>Description</th></tr></thead><tbody>{rows}</tbody></table><p>{paging}</p>"
            f"<h3>One {esc(text.singular)}</h3><p><code>GET {esc(url)}/&lt;id&gt;</code></p>"
            f"<h2>Authentication</h2>{auth_html}<h2>Response</h2>{fields_tbl}{sample_html}"
            f'<h2>Try it</h2><p><a class="example" href="{esc(example)}">{esc(example)}</a></p>{spec}'
        )
    if cfg.docs_style == "prose":
        sentences = " ".join(f"<code>{esc(n)}</code> ({esc(t)}): {esc(d)}" for n, t, d in params)
        return (
            f"{head}<p>The {esc(text.plural)} of {esc(text.brand)} can be read from "
            f"<code>{esc(url)}</code> with a plain GET request, and a single {esc(text.singular)} from "
            f"<code>{esc(url)}/&lt;id&gt;</code>. {paging}</p>"
            f"<p>The endpoint understands these query parameters. {sentences}</p>{auth_html}"
            f"<p>Each record carries these keys:</p>{fields_tbl}<p>A response looks like this:</p>{sample_html}"
            f'<p>For example, <a href="{esc(example)}">{esc(example)}</a>.</p>{spec}'
        )
    curl = f'curl{auth.curl_part() if auth else ""} "{origin}{example}"'
    more = []
    for flt in filters:
        if flt.ftype == "date":
            more.append(f"{flt.start}=2020-01-01&amp;{flt.end}=2020-12-31")
        else:
            more.append(f"{flt.param}=&lt;{flt.field.replace('_', ' ')}&gt;")
    extra = "".join(
        f'<pre><code>curl{auth.curl_part() if auth else ""} "{esc(origin)}{esc(url)}?{m}"</code></pre>'
        for m in more
    )
    plist = "".join(f"<li><code>{esc(n)}</code> — {esc(d)}</li>" for n, _t, d in params)
    return (
        f"{head}<h2>Quick start</h2><pre><code>{esc(curl)}</code></pre>{sample_html}"
        f"<h2>Filtering</h2>{extra or '<p>No filters.</p>'}<h2>Parameters</h2><ul>{plist}</ul><p>{paging}</p>"
        f"<h2>Keys</h2>{fields_tbl}<h2>Auth</h2>{auth_html}"
        f'<p>Endpoint: <a href="{esc(example)}">{esc(url)}</a>; one record: <code>{esc(url)}/{esc(example_id)}</code></p>{spec}'
    )


def _openapi_doc(
    text: SiteText,
    endpoint: str,
    params: list[tuple[str, str, str]],
    auth: Auth | None,
    field_docs: list[tuple[str, str, str]],
    id_key: str,
) -> dict[str, Any]:
    props = {id_key: {"type": "string"}} | {
        p: {"type": "string", "description": lab} for p, lab, _t in field_docs
    }
    op: dict[str, Any] = {
        "summary": f"List {text.plural}",
        "parameters": [
            {
                "name": n,
                "in": "query",
                "required": bool(auth and auth.where == "query" and n == auth.name),
                "description": d,
                "schema": {"type": "integer" if t == "integer" else "string"},
            }
            for n, t, d in params
        ],
        "responses": {"200": {"description": "A page of records", "content": {"application/json": {}}}},
    }
    doc: dict[str, Any] = {
        "openapi": "3.0.3",
        "info": {"title": f"{text.brand} API", "version": "1.0"},
        "servers": [{"url": f"/{text.host}"}],
        "paths": {
            endpoint: {"get": op},
            endpoint + "/{id}": {
                "get": {
                    "summary": f"One {text.singular}",
                    "parameters": [
                        {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
                    ],
                    "responses": {
                        "200": {"description": "The record"},
                        "404": {"description": "No such record"},
                    },
                }
            },
        },
        "components": {"schemas": {"Record": {"type": "object", "properties": props}}},
    }
    if auth:
        scheme = (
            {"type": "http", "scheme": "bearer"}
            if auth.where == "bearer"
            else {"type": "apiKey", "in": auth.where, "name": auth.name}
        )
        doc["components"]["securitySchemes"] = {"key": scheme}
        doc["security"] = [{"key": []}]
    return doc


class ApiFamily:
    """A JSON API family: some ApiConfig choices fixed (``fixed``, values or tuples to draw from)."""

    kinds: tuple[str, ...] | None = None

    def __init__(self, name: str, **fixed: Any) -> None:
        self.name = name
        self.fixed = fixed

    def build(self, rs: RecordSet, rng: random.Random, host: str) -> ZooSite:
        chosen = {k: (rng.choice(v) if isinstance(v, tuple) else v) for k, v in self.fixed.items()}
        if chosen.get("pagination") == "none" and len(rs.records) > 300:
            chosen["pagination"] = "page"
        return build_api_site(rs, rng, host, self.name, draw_config(rng, len(rs.records), **chosen))

"""Script-built pages for the js_* families: records drawn into the DOM by JavaScript.

Why: a plain HTTP fetch of these pages sees no record markup; a collector needs a browser (or has
to find the JSON the script reads). Three modes:

- ``load_more``: the script fetches a JSON endpoint page by page; a button appends the next page;
- ``infinite``: the same, loading the next slice when a sentinel at the bottom scrolls into view;
- ``embedded``: the records sit in a ``<script type="application/json">`` element or a
  ``window.<name> = {...};`` variable and the script draws them on load (long sets span ``?page=`` pages).

Notes (besides ``api_base``'s schema): ``method`` ``"browser"`` (load_more/infinite, with
``endpoint``/``pagination``/``records_path``/``fields`` for the JSON behind the page) or
``"embedded"`` (``pages``: page paths, ``embedded``: ``{"script_id"}`` or ``{"var"}``), and ``dom``:
CSS selectors of a rendered record (``item``), of each field's value (``fields``), of the button
(``load_more``) and the sentinel (``sentinel``).
"""

from __future__ import annotations

import json
import random
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from prefect_autodata.sandbox.zoo.base import RecordSet, ZooSite
from prefect_autodata.sandbox.zoo.families._common import Chrome, static_pages
from prefect_autodata.sandbox.zoo.families.api_base import (
    BadParam,
    SiteText,
    catch_all,
    draw_brand,
    draw_groups,
    draw_keys,
    draw_label,
    draw_pager,
    esc,
    json_error,
    json_ok,
    record_json,
    set_path,
    slug,
    style_key,
)

_ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789"


def class_namer(rng: random.Random) -> tuple[str, Any]:
    """A naming scheme for CSS classes: meaningful, obfuscated (``css-1x9fz``) or BEM-like."""
    scheme = rng.choice(["meaningful", "obfuscated", "bem"])
    block = rng.choice(["result", "entry", "row", "card", "item", "tile"])
    seen: set[str] = set()

    def name(meaning: str) -> str:
        if scheme == "obfuscated":
            while True:
                c = rng.choice(["css-", "sc-", "_", "x"]) + "".join(rng.choice(_ALNUM) for _ in range(5))
                if c not in seen and not c[-5:].isdigit():
                    seen.add(c)
                    return c
        base = slug(meaning)
        c = f"{block}__{base}" if scheme == "bem" else base
        while c in seen:
            c += "-x"
        seen.add(c)
        return c

    return scheme, name


def safe_json(obj: Any) -> str:
    """JSON that can sit inside a <script> element (no ``</``, no line separators)."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    return text.replace("</", "<\\/").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


_SCRIPT = r"""
(function () {
  const C = %(config)s;
  const root = document.getElementById(C.rootId);
  const status = document.getElementById(C.statusId);
  function dig(o, p) { for (const k of p.split('.')) { if (o === null || o === undefined) return null; o = o[k]; } return o; }
  function show(v) { return v === null || v === undefined ? '' : String(v); }
  let box;
  if (C.layout === 'table') {
    const t = document.createElement('table');
    t.className = C.boxClass;
    const h = t.createTHead().insertRow();
    for (const f of C.fields) { const th = document.createElement('th'); th.textContent = f.label; h.appendChild(th); }
    box = t.createTBody();
    root.appendChild(t);
  } else {
    box = document.createElement(C.layout === 'list' ? 'ul' : 'div');
    box.className = C.boxClass;
    root.appendChild(box);
  }
  let count = 0;
  function render(rec) {
    count += 1;
    if (C.layout === 'table') {
      const tr = box.insertRow();
      tr.className = C.itemClass;
      for (const f of C.fields) { const td = tr.insertCell(); td.className = f.cls; td.textContent = show(dig(rec, f.path)); }
      return;
    }
    const el = document.createElement(C.layout === 'list' ? 'li' : 'div');
    el.className = C.itemClass;
    for (const f of C.fields) {
      const line = document.createElement(C.layout === 'list' ? 'span' : 'div');
      if (!f.title) {
        const lab = document.createElement('span');
        lab.className = C.labelClass;
        lab.textContent = f.label + ': ';
        line.appendChild(lab);
      }
      const val = document.createElement(f.title ? 'h3' : 'span');
      val.className = f.cls;
      val.textContent = show(dig(rec, f.path));
      line.appendChild(val);
      el.appendChild(line);
      el.appendChild(document.createTextNode(' '));
    }
    box.appendChild(el);
  }
  if (C.mode === 'embedded') {
    const data = C.scriptId ? JSON.parse(document.getElementById(C.scriptId).textContent) : window[C.varName];
    for (const rec of dig(data, C.recordsPath) || []) render(rec);
    if (status) status.textContent = C.showing.replace('{n}', count);
    return;
  }
  const more = C.moreId ? document.getElementById(C.moreId) : null;
  let page = C.firstPage, offset = 0, cursor = null, done = false, loading = false, visible = false, total = null;
  async function loadNext() {
    if (loading || done) return;
    loading = true;
    if (more) more.disabled = true;
    try {
      const q = new URLSearchParams();
      q.set(C.sizeParam, String(C.pageSize));
      if (C.style === 'page') q.set(C.pageParam, String(page));
      else if (C.style === 'offset') q.set(C.offsetParam, String(offset));
      else if (cursor) q.set(C.cursorParam, cursor);
      const r = await fetch(C.api + '?' + q.toString(), {headers: {'Accept': 'application/json'}});
      if (!r.ok) throw new Error('HTTP ' + r.status);
      const data = await r.json();
      const recs = dig(data, C.recordsPath) || [];
      for (const rec of recs) render(rec);
      total = dig(data, C.totalPath);
      page += 1;
      offset += recs.length;
      if (C.style === 'cursor') { cursor = dig(data, C.nextPath); done = !cursor; }
      else done = recs.length === 0 || (total !== null && count >= total);
      if (status) status.textContent = C.showing.replace('{n}', count) + (total !== null ? ' / ' + total : '');
      if (more) more.hidden = done;
    } catch (e) {
      if (status) status.textContent = 'Could not load (' + e.message + ')';
    } finally {
      loading = false;
      if (more) more.disabled = false;
    }
    if (C.mode === 'infinite' && visible && !done) setTimeout(loadNext, 30);
  }
  if (more) more.addEventListener('click', loadNext);
  if (C.mode === 'infinite') {
    new IntersectionObserver((entries) => {
      visible = entries.some((e) => e.isIntersecting);
      if (visible && page > C.firstPage) loadNext();
    }).observe(document.getElementById(C.sentinelId));
  }
  loadNext();
})();
"""


def build_js_site(rs: RecordSet, rng: random.Random, host: str, family: str, mode: str) -> ZooSite:
    kind = rs.kind
    ks = rng.choice(["camel", "snake", "pascal"])
    keys = draw_keys(kind, rng, ks, reserved=("id",))
    nested = rng.random() < 0.3
    paths = draw_groups(kind, rng, keys, ks) if nested else dict(keys)
    typed = rng.random() < 0.5
    text = SiteText(host, draw_brand(rng, kind), kind.plural, kind.singular)
    scheme, cls = class_namer(rng)
    layout = rng.choice(["cards", "table", "list"])
    lang = rng.choice(["en"] * 4 + ["de", "es"])
    order = list(kind.fields)
    title_fd = kind.field(kind.title_field)
    rest = [f for f in order if f.name != kind.title_field]
    rng.shuffle(rest)
    order = [title_fd, *rest]
    field_cls = {f.name: cls(f.name) for f in order}
    cfg: dict[str, Any] = {
        "mode": mode,
        "layout": layout,
        "rootId": rng.choice(["app", "root", "results", slug(kind.plural)]),
        "statusId": rng.choice(["status", "count", "summary"]),
        "boxClass": cls("list"),
        "itemClass": cls(kind.singular),
        "labelClass": cls("label"),
        "fields": [
            {
                "path": paths[f.name],
                "label": draw_label(f, rng, lang),
                "cls": field_cls[f.name],
                "title": f.name == kind.title_field and layout != "table",
            }
            for f in order
        ],
        "showing": {"en": "Showing {n}", "de": "{n} angezeigt", "es": "Mostrando {n}"}[lang],
    }
    page_path = rng.choice([f"/{slug(kind.plural)}/", "/browse", "/explore/", "/"])
    container = rng.choice(["items", "results", "data", style_key(kind.plural.split(), ks)])
    n = len(rs.records)
    notes: dict[str, Any] = {
        "site_name": text.brand,
        "fields": paths,
        "shape": "objects",
        "records_path": container,
        "auth": None,
        "typed_numbers": typed,
        "dom": {
            "item": f".{cfg['itemClass']}",
            "fields": {f: f".{c}" for f, c in field_cls.items()},
            "layout": layout,
        },
        "class_scheme": scheme,
        "lang": lang,
    }
    objs = [record_json(r, kind, paths, typed) for r in rs.records]
    routes: list = []

    # nav, cookie banner, ads, a featured item and related items (noise outside <main>), footer
    chrome = Chrome.draw(rs, rng, text.brand, page_path, host, lang)

    def page_html(title: str, inner: str, head: str = "") -> str:
        return chrome.page(title, inner, head=head)

    heading = {"en": f"All {kind.plural}", "de": f"Alle {kind.plural}", "es": f"Todos: {kind.plural}"}[lang]
    if mode == "embedded":
        per = rng.choice([100, 150, 250]) if n > 250 else max(n, 1)
        pages = max(1, -(-n // per))
        use_script = rng.random() < 0.5
        var = rng.choice(["__DATA__", "__INITIAL_STATE__", "pageData", "APP_STATE"])
        sid = rng.choice(["__NEXT_DATA__", "initial-data", "records-json", "app-state"])
        wrap = rng.random() < 0.5  # {"props": {container: [...]}} vs {container: [...]}
        rec_path = f"props.{container}" if wrap else container
        cfg.update({"recordsPath": rec_path, "scriptId": sid if use_script else None, "varName": var})

        async def listing(request: Request) -> Response:
            raw = request.query_params.get("page", "1")
            try:
                p = int(raw)
            except ValueError:
                return HTMLResponse(
                    page_html(
                        "Bad request", f"<h1>Bad request</h1><p>page must be a number, got {esc(raw)}.</p>"
                    ),
                    400,
                )
            if not 1 <= p <= pages:
                return HTMLResponse(
                    page_html("Not found", f"<h1>Not found</h1><p>There is no page {p}.</p>"), 404
                )
            chunk = objs[(p - 1) * per : p * per]
            data: dict[str, Any] = {}
            set_path(data, rec_path, chunk)
            data["page"], data["pages"], data["total"] = p, pages, n
            if use_script:
                blob = f'<script type="application/json" id="{sid}">{safe_json(data)}</script>'
            else:
                blob = f"<script>\nwindow.{var} = {safe_json(data)};\n</script>"
            nav = ""
            if pages > 1:
                links = " ".join(
                    f"<strong>{i}</strong>"
                    if i == p
                    else f'<a href="{text.link(page_path)}?page={i}">{i}</a>'
                    for i in range(1, pages + 1)
                )
                nav = f'<nav class="pages">{links}</nav>'
            inner = (
                f'<h1>{esc(heading)}</h1><p id="{cfg["statusId"]}"></p><div id="{cfg["rootId"]}"></div>{nav}'
                f"<noscript>Please enable JavaScript.</noscript>{blob}"
                f"<script>{_SCRIPT % {'config': safe_json(cfg)}}</script>"
            )
            return HTMLResponse(page_html(f"{heading} — {text.brand}", inner))

        routes.append(Route(page_path, listing))
        notes.update(
            {
                "method": "embedded",
                "pages": [page_path + (f"?page={i}" if i > 1 else "") for i in range(1, pages + 1)],
                "embedded": {"script_id": sid} if use_script else {"var": var},
                "records_path": rec_path,
            }
        )
    else:
        style = "page" if mode == "load_more" else rng.choice(["offset", "cursor", "page"])
        pager = draw_pager(style, rng, n, ks)
        pager.page_size = min(pager.page_size, max(5, n // 3 or 5))
        if n > 300:  # a browser clicks or scrolls once per slice: keep big sets to some dozens
            pager.page_size = max(pager.page_size, 50)
        api = rng.choice(
            [
                f"/api/{slug(kind.plural)}",
                f"/_next/data/{slug(kind.plural)}.json",
                "/ajax/list",
                "/api/v1/search",
            ]
        )
        total_key = rng.choice(["total", style_key(["total", "count"], ks)])
        next_key = rng.choice(["next", style_key(["next", "cursor"], ks)])
        cfg.update(
            {
                "api": text.link(api),
                "style": style,
                "recordsPath": container,
                "totalPath": total_key,
                "nextPath": next_key,
                "pageParam": pager.page_param,
                "offsetParam": pager.offset_param,
                "cursorParam": pager.cursor_param,
                "sizeParam": pager.size_param,
                "pageSize": pager.page_size,
                "firstPage": pager.first_page,
                "moreId": rng.choice(["load-more", "more", "show-more", "btn-more"])
                if mode == "load_more"
                else None,
                "sentinelId": rng.choice(["sentinel", "end", "bottom"]),
            }
        )

        async def endpoint(request: Request) -> Response:
            try:
                start, stop, facts = pager.window(request.query_params, n)
            except BadParam as exc:
                return json_error(400, "invalid_parameter", exc.message, "nested", exc.param)
            body: dict[str, Any] = {container: objs[start:stop], total_key: n}
            if style == "cursor":
                body[next_key] = facts.get("next")
            elif style == "page":
                body[pager.page_param] = facts["page"]
            else:
                body[pager.offset_param] = facts["offset"]
            return json_ok(body)

        button = {"en": "Load more", "de": "Mehr laden", "es": "Cargar más"}[lang]

        async def listing(request: Request) -> Response:
            more = f'<button type="button" id="{cfg["moreId"]}">{button}</button>' if cfg["moreId"] else ""
            inner = (
                f'<h1>{esc(heading)}</h1><p id="{cfg["statusId"]}">…</p><div id="{cfg["rootId"]}"></div>{more}'
                f'<div id="{cfg["sentinelId"]}" style="height:1px"></div>'
                "<noscript>This page needs JavaScript.</noscript>"
                f"<script>{_SCRIPT % {'config': safe_json(cfg)}}</script>"
            )
            return HTMLResponse(page_html(f"{heading} — {text.brand}", inner))

        routes += [Route(page_path, listing), Route(api, endpoint)]
        notes.update(
            {
                "method": "browser",
                "endpoint": api,
                "pagination": pager.note(next_key if style == "cursor" else None),
                "total_path": total_key,
            }
        )
        notes["dom"]["load_more"] = f"#{cfg['moreId']}" if cfg["moreId"] else None
        notes["dom"]["sentinel"] = f"#{cfg['sentinelId']}"
    if page_path != "/":

        async def home(request: Request) -> Response:
            inner = f'<h1>{esc(text.brand)}</h1><p><a href="{text.link(page_path)}">{esc(heading)}</a></p>'
            return HTMLResponse(page_html(text.brand, inner))

        routes.append(Route("/", home))
    routes += static_pages(chrome)
    routes.append(catch_all())
    return ZooSite(host=host, family=family, routes=routes, entry_path=page_path, notes=notes)


class JsFamily:
    kinds: tuple[str, ...] | None = None

    def __init__(self, name: str, mode: str) -> None:
        self.name = name
        self.mode = mode

    def build(self, rs: RecordSet, rng: random.Random, host: str) -> ZooSite:
        return build_js_site(rs, rng, host, self.name, self.mode)

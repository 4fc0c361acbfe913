"""Shared machinery of the zoo's API, file, JS and structured-data families (not a family itself).

Why one module: the seven-plus families differ in a few drawn choices (key style, record shape,
pagination, auth, documentation style); the parsing of parameters, the auth check, the JSON errors
and the documentation pages are the same code, so every family answers bad input the same way
(400 JSON, never a 500) and an oracle can read every family from one ``notes`` schema.

``ZooSite.notes`` of these families (all paths relative to the site root; the server mounts the
site under ``/<host>``):

- ``method``: ``"api"`` | ``"file"`` | ``"browser"`` | ``"html"``
- ``docs_path``: the HTML documentation page; ``openapi_path``: an OpenAPI JSON or None
- ``endpoint``: the JSON list endpoint (api/browser families)
- ``auth``: None or ``{"in": "query"|"header"|"bearer", "name": param or header, "value": demo key}``
  (bearer: header ``Authorization: Bearer <value>``)
- ``pagination``: ``{"style": "page"|"offset"|"cursor"|"none", "page_param", "size_param",
  "page_size", "max_page_size", "offset_param", "cursor_param", "next_path", "first_page"}``
- ``records_path``: dotted path of the records container in a response
- ``shape``: ``"objects"`` (a list of objects) | ``"keyed"`` (an object of id → record) |
  ``"rows"`` (arrays with a header row: ``header_path`` names it, or ``header_in_rows`` True when
  the header is the first row of every page)
- ``fields``: field name → dotted key path inside one record (objects/keyed) or the header
  cell (rows)
- ``filters``: field name → ``{"param": name}`` (exact match) or ``{"start": name, "end": name}``
  (inclusive date range, ISO ``YYYY-MM-DD``)
- files: ``files`` list of ``{"path", "format": "csv"|"ndjson", "scope": value or None}`` and
  ``columns``: field name → column header / JSON key
- html (sd families): see those modules.

``fetch_records(get, notes)`` walks an api/browser/file site by its notes: tests use it with
Starlette's TestClient, an oracle can use it with any HTTP client.
"""

from __future__ import annotations

import base64
import csv
import html
import io
import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Route

from prefect_autodata.sandbox.scorer import normalise
from prefect_autodata.sandbox.sites._api import dumps
from prefect_autodata.sandbox.zoo.base import FieldDef, KindDef

_MISSING = normalise(None)
_PLAIN_NUMBER = re.compile(r"^-?(0|[1-9]\d{0,14})(\.\d{0,8}[1-9])?$")
_WORD = re.compile(r"[A-Za-z0-9]+")
_VOWELS = set("aeiou")


class BadParam(Exception):
    """A request parameter the endpoint cannot honour (answered 400 with a JSON error)."""

    def __init__(self, param: str, message: str) -> None:
        super().__init__(message)
        self.param = param
        self.message = message


# ------------------------------------------------------------------------------------------ words


def words_of(text: str) -> list[str]:
    """Lower-case ASCII words of a label or field name ("Our price" → ["our", "price"])."""
    out: list[str] = []
    for w in _WORD.findall(text.replace("_", " ")):
        # split camelCase inside a word ("adjClose" → adj, close)
        out.extend(p.lower() for p in re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", w) or [w])
    return [w for w in out if w]


def _abbr_word(w: str) -> str:
    if len(w) <= 3 or w.isdigit():
        return w
    tail = ""
    for c in w[1:]:
        if c not in _VOWELS and not (tail or w[0]).endswith(c):
            tail += c
    return (w[0] + tail)[:3] if tail else w[:3]


def style_key(words: list[str], style: str) -> str:
    """A key in one naming style: camel, snake, pascal, kebab, abbrev (short, joined) or abbrev_snake."""
    if not words:
        words = ["value"]
    if style == "camel":
        return words[0] + "".join(w.capitalize() for w in words[1:])
    if style == "pascal":
        return "".join(w.capitalize() for w in words)
    if style == "kebab":
        return "-".join(words)
    if style == "abbrev":
        return "".join(_abbr_word(w) for w in words)
    if style == "abbrev_snake":
        return "_".join(_abbr_word(w) for w in words)
    return "_".join(words)


def _ascii_labels(fd: FieldDef) -> list[str]:
    return [lab for lab in fd.labels if lab.isascii() and words_of(lab)]


def draw_keys(
    kind: KindDef, rng: random.Random, style: str, *, reserved: tuple[str, ...] = ()
) -> dict[str, str]:
    """Field name → JSON key: the field's own name or one of its labels, in ``style``; unique."""
    used = {r.lower() for r in reserved}
    out: dict[str, str] = {}
    for fd in kind.fields:
        sources = [fd.name, *_ascii_labels(fd)]
        src = sources[0] if rng.random() < 0.4 else rng.choice(sources)
        key = style_key(words_of(src), style)
        if key.lower() in used:
            key = style_key(words_of(fd.name), style)
        base, n = key, 2
        while key.lower() in used:
            key, n = f"{base}{n}", n + 1
        used.add(key.lower())
        out[fd.name] = key
    return out


def draw_label(fd: FieldDef, rng: random.Random, lang: str = "en") -> str:
    """A label a page prints for the field (English, or German/Spanish when the kind has them)."""
    pool = {"de": fd.labels_de, "es": fd.labels_es}.get(lang) or fd.labels or (fd.name.replace("_", " "),)
    return rng.choice(list(pool))


def slug(text: str, sep: str = "-") -> str:
    return sep.join(words_of(text)) or "items"


# ------------------------------------------------------------------------------------------ values


def json_value(value: Any, ftype: str, typed: bool) -> Any:
    """The JSON form of a display value: plain numbers as JSON numbers on typed sites, else the text."""
    if value is None or (isinstance(value, str) and value == ""):
        return None
    if isinstance(value, str) and typed and ftype in ("int", "number") and _PLAIN_NUMBER.match(value):
        return float(value) if "." in value else int(value)
    return value


def text_value(value: Any) -> str:
    return "" if value is None else str(value)


def esc(value: Any) -> str:
    return html.escape(text_value(value), quote=True)


def json_error(status: int, code: str, message: str, style: str = "nested", param: str = "") -> Response:
    """A JSON error body in one of a few common shapes."""
    if style == "flat":
        body: dict[str, Any] = {"error": message, "status": status}
    elif style == "detail":
        body = {"detail": message}
    else:
        body = {"error": {"code": code, "message": message}}
        if param:
            body["error"]["param"] = param
    return Response(dumps(body), status_code=status, media_type="application/json")


def json_ok(obj: Any, media_type: str = "application/json") -> Response:
    return Response(dumps(obj), media_type=media_type)


def not_found_html(request: Request) -> HTMLResponse:
    body = (
        f"<h1>Not found</h1><p>There is no page at <code>{esc(request.url.path)}</code>.</p>"
        '<p><a href="../">Home</a></p>'
    )
    return HTMLResponse(shell("404 Not Found", body), status_code=404)


def shell(
    title: str,
    body: str,
    *,
    generated: bool = False,
    head: str = "",
    site_name: str = "",
    nav: str = "",
    lang: str = "en",
) -> str:
    """A complete HTML document with a small header, nav and footer (the generated-data line when so)."""
    foot = '<p class="sample-note">Sample data — generated records, not real ones.</p>' if generated else ""
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(title)}</title>\n{head}</head>\n<body>\n"
        f"<header><strong>{esc(site_name or title)}</strong>{nav}</header>\n<main>\n{body}\n</main>\n"
        f"<footer><p>&copy; {esc(site_name or 'The site')}. All rights reserved.</p>{foot}</footer>\n"
        "</body>\n</html>\n"
    )


# ----------------------------------------------------------------------------------------- filters


@dataclass
class Filter:
    """One documented filter on a scope field: exact match (``param``) or a date range (start/end)."""

    field: str
    ftype: str
    param: str = ""
    start: str = ""
    end: str = ""

    def note(self) -> dict[str, str]:
        return {"start": self.start, "end": self.end} if self.ftype == "date" else {"param": self.param}

    def params(self) -> list[str]:
        return [self.start, self.end] if self.ftype == "date" else [self.param]


_RANGE_NAMES = (
    ("from", "to"),
    ("start date", "end date"),
    ("since", "until"),
    ("date from", "date to"),
    ("min date", "max date"),
)


def draw_filters(kind: KindDef, rng: random.Random, style: str, keys: dict[str, str]) -> list[Filter]:
    out: list[Filter] = []
    names = set(kind.field_names)
    for f in kind.scope_fields:
        if f not in names:
            continue
        fd = kind.field(f)
        if fd.type == "date":
            a, b = rng.choice(_RANGE_NAMES)
            out.append(Filter(f, "date", start=style_key(a.split(), style), end=style_key(b.split(), style)))
        else:
            out.append(Filter(f, fd.type, param=keys.get(f) or style_key(words_of(f), style)))
    return out


def _iso(raw: str, param: str) -> str:
    iso = normalise(raw)
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", iso):
        raise BadParam(param, f"{param} must be a date in the form YYYY-MM-DD, got {raw!r}")
    return iso


def apply_filters(records: list[dict], filters: list[Filter], query: Any) -> list[dict]:
    """The records matching every filter given in ``query``; bad values raise ``BadParam``."""
    out = records
    for flt in filters:
        if flt.ftype == "date":
            lo = query.get(flt.start)
            hi = query.get(flt.end)
            lo_iso = _iso(lo, flt.start) if lo else None
            hi_iso = _iso(hi, flt.end) if hi else None
            if lo_iso and hi_iso and hi_iso < lo_iso:
                raise BadParam(flt.end, f"{flt.end} must not be before {flt.start}")
            if lo_iso or hi_iso:
                out = [
                    r
                    for r in out
                    if (d := normalise(r.get(flt.field))) != _MISSING
                    and (lo_iso is None or d >= lo_iso)
                    and (hi_iso is None or d <= hi_iso)
                ]
        else:
            raw = query.get(flt.param)
            if raw is None or raw == "":
                continue
            if flt.ftype == "int":
                bad = [v for v in raw.split(",") if not re.fullmatch(r"\s*-?\d+\s*", v)]
                if bad:
                    raise BadParam(
                        flt.param, f"{flt.param} must be a whole number (or several, comma-separated)"
                    )
            # several values comma-separated; a value that itself holds a comma matches whole too
            wanted = {normalise(v).lower() for v in [raw, *raw.split(",")] if v.strip()}
            if not wanted:
                raise BadParam(flt.param, f"{flt.param} must not be empty")
            out = [r for r in out if normalise(r.get(flt.field)).lower() in wanted]
    return out


# -------------------------------------------------------------------------------------- pagination


@dataclass
class Pager:
    """How a list endpoint splits its records: page/per_page, offset/limit, opaque cursors, or none."""

    style: str  # page | offset | cursor | none
    page_size: int = 20
    max_page_size: int = 100
    page_param: str = "page"
    size_param: str = "per_page"
    offset_param: str = "offset"
    cursor_param: str = "cursor"
    first_page: int = 1
    salt: str = "z"

    def note(self, next_path: str | None) -> dict[str, Any]:
        return {
            "style": self.style,
            "page_param": self.page_param if self.style == "page" else None,
            "size_param": self.size_param if self.style != "none" else None,
            "offset_param": self.offset_param if self.style == "offset" else None,
            "cursor_param": self.cursor_param if self.style == "cursor" else None,
            "page_size": self.page_size,
            "max_page_size": self.max_page_size,
            "first_page": self.first_page,
            "next_path": next_path,
        }

    def params(self) -> list[str]:
        return {
            "page": [self.page_param, self.size_param],
            "offset": [self.offset_param, self.size_param],
            "cursor": [self.cursor_param, self.size_param],
        }.get(self.style, [])

    def encode(self, offset: int) -> str:
        return base64.urlsafe_b64encode(f"{self.salt}:{offset}".encode()).decode().rstrip("=")

    def decode(self, token: str) -> int:
        try:
            raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode()
            salt, off = raw.split(":", 1)
            if salt != self.salt:
                raise ValueError
            offset = int(off)
            if not 0 <= offset <= 10**9:
                raise ValueError
            return offset
        except (ValueError, UnicodeDecodeError):
            raise BadParam(self.cursor_param, f"{self.cursor_param} is not a valid cursor") from None

    def _int(self, query: Any, name: str, default: int, lo: int, hi: int | None = None) -> int:
        raw = query.get(name)
        if raw is None or raw == "":
            return default
        try:
            val = int(raw)
        except ValueError:
            raise BadParam(name, f"{name} must be an integer, got {raw!r}") from None
        hi = 10**9 if hi is None else hi  # a page or offset past any data set, yet JSON-safe
        if val < lo or val > hi:
            raise BadParam(name, f"{name} must be between {lo} and {hi}")
        return val

    def window(self, query: Any, total: int) -> tuple[int, int, dict[str, Any]]:
        """(start, stop, facts) of the slice a request asks for; facts: page/offset/next cursor."""
        if self.style == "none":
            return 0, total, {}
        size = self._int(query, self.size_param, self.page_size, 1, self.max_page_size)
        if self.style == "page":
            page = self._int(query, self.page_param, self.first_page, self.first_page)
            start = (page - self.first_page) * size
            pages = max(1, -(-total // size))
            return start, start + size, {"page": page, "size": size, "pages": pages}
        if self.style == "offset":
            start = self._int(query, self.offset_param, 0, 0)
            return start, start + size, {"offset": start, "size": size}
        token = query.get(self.cursor_param)
        start = self.decode(token) if token else 0
        nxt = self.encode(start + size) if start + size < total else None
        return start, start + size, {"size": size, "next": nxt}


def draw_pager(style: str, rng: random.Random, n: int, key_style: str) -> Pager:
    sizes = [s for s in (10, 20, 25, 50, 100) if s < max(11, n)] or [10]
    size = rng.choice(sizes)
    k = lambda text: style_key(text.split(), key_style)  # noqa: E731
    return Pager(
        style=style,
        page_size=size,
        max_page_size=rng.choice([100, 200, 500, 1000]),
        page_param=rng.choice(["page", "p", k("page number")]),
        size_param=rng.choice([k("per page"), k("page size"), "limit", "size", "count"])
        if style != "offset"
        else rng.choice(["limit", "count", k("page size")]),
        offset_param=rng.choice(["offset", "start", "skip"]),
        cursor_param=rng.choice(["cursor", k("page token"), "after", k("next token")]),
        first_page=rng.choice([1, 1, 1, 0]) if style == "page" else 1,
        salt=f"{rng.randrange(16**6):06x}",
    )


# --------------------------------------------------------------------------------------------- auth


@dataclass
class Auth:
    """A demo key the docs state; requests without it get 401, with a wrong one 403."""

    where: str  # query | header | bearer
    name: str
    value: str
    error_style: str = "nested"

    def note(self) -> dict[str, str]:
        return {"in": self.where, "name": self.name, "value": self.value}

    def check(self, request: Request) -> Response | None:
        if self.where == "query":
            got = request.query_params.get(self.name)
        elif self.where == "header":
            got = request.headers.get(self.name)
        else:
            raw = request.headers.get("authorization", "")
            got = raw[7:].strip() if raw.lower().startswith("bearer ") else None
        if not got:
            what = {
                "query": f"the query parameter {self.name}",
                "header": f"the header {self.name}",
                "bearer": "an Authorization: Bearer header",
            }[self.where]
            return json_error(
                401, "unauthorized", f"An API key is required: send it as {what}.", self.error_style
            )
        if got != self.value:
            return json_error(403, "forbidden", "The API key is not valid.", self.error_style)
        return None

    def curl_part(self) -> str:
        if self.where == "header":
            return f' -H "{self.name}: {self.value}"'
        if self.where == "bearer":
            return f' -H "Authorization: Bearer {self.value}"'
        return ""

    def sentence(self) -> str:
        if self.where == "query":
            how = f"add the query parameter <code>{esc(self.name)}</code> to every request"
        elif self.where == "header":
            how = f"send the HTTP header <code>{esc(self.name)}: &lt;key&gt;</code> with every request"
        else:
            how = "send the header <code>Authorization: Bearer &lt;token&gt;</code> with every request"
        return (
            f"Every request needs an API key: {how}. For trying the API use the demo key "
            f'<code class="demo-key">{esc(self.value)}</code>. Requests without a key are answered '
            "<code>401</code>, requests with a wrong key <code>403</code>, both with a JSON error."
        )


def draw_auth(where: str, rng: random.Random, error_style: str) -> Auth:
    alphabet = "abcdef0123456789"
    value = "".join(rng.choice(alphabet) for _ in range(rng.choice([16, 24, 32])))
    if where == "query":
        name = rng.choice(["api_key", "apikey", "key", "token", "access_key", "apiKey"])
    elif where == "header":
        name = rng.choice(["X-Api-Key", "X-API-Token", "Api-Key", "X-Auth-Key"])
        value = rng.choice(["demo-", "pk_", "", "key-"]) + value
    else:
        name = "Authorization"
        value = rng.choice(["demo_", "tok_", "sk_test_", ""]) + value
    return Auth(where, name, value, error_style)


# ------------------------------------------------------------------------------------- record JSON


def set_path(obj: dict, path: str, value: Any) -> None:
    parts = path.split(".")
    for p in parts[:-1]:
        obj = obj.setdefault(p, {})
    obj[parts[-1]] = value


def dig(obj: Any, path: str | None) -> Any:
    """The value at a dotted path (None when any step is missing); an empty path is the object."""
    if not path:
        return obj
    for p in path.split("."):
        if isinstance(obj, dict):
            obj = obj.get(p)
        elif isinstance(obj, list) and p.isdigit() and int(p) < len(obj):
            obj = obj[int(p)]
        else:
            return None
    return obj


def draw_groups(kind: KindDef, rng: random.Random, keys: dict[str, str], key_style: str) -> dict[str, str]:
    """Field name → dotted path in a nested record: the title stays on top, others go into 2-3 groups."""
    group_names = [
        style_key(g.split(), key_style)
        for g in rng.sample(["attributes", "details", "info", "stats", "meta", "data", "extra", "facts"], 3)
    ]
    paths: dict[str, str] = {}
    for fd in kind.fields:
        if fd.name == kind.title_field or rng.random() < 0.2:
            paths[fd.name] = keys[fd.name]
        else:
            paths[fd.name] = f"{rng.choice(group_names)}.{keys[fd.name]}"
    # a group and a top-level key of the same name would collide: keep such fields on top
    tops = {p for p in paths.values() if "." not in p}
    for name, p in paths.items():
        if "." in p and p.split(".", 1)[0] in tops:
            paths[name] = keys[name]
    return paths


def record_ids(n: int, rng: random.Random) -> list[str]:
    """Opaque record ids: numbers from a random start, prefixed codes, or short hex."""
    style = rng.choice(["num", "code", "hex"])
    if style == "num":
        start = rng.randrange(1, 90000)
        step = rng.choice([1, 1, 3, 7])
        return [str(start + i * step) for i in range(n)]
    if style == "code":
        prefix = rng.choice(["r", "rec", "id", "x", "itm"]) + rng.choice(["", "_", "-"])
        return [f"{prefix}{i + 1:05d}" for i in range(n)]
    seen: set[str] = set()
    out = []
    while len(out) < n:
        v = f"{rng.randrange(16**8):08x}"
        if v not in seen:
            seen.add(v)
            out.append(v)
    return out


def record_json(rec: dict, kind: KindDef, paths: dict[str, str], typed: bool) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    for fd in kind.fields:
        set_path(obj, paths[fd.name], json_value(rec.get(fd.name), fd.type, typed))
    return obj


# ----------------------------------------------------------------------------------------- fetching


Getter = Callable[[str, dict[str, str], dict[str, str]], tuple[int, Any]]


def _auth_parts(notes: dict) -> tuple[dict[str, str], dict[str, str]]:
    auth = notes.get("auth")
    if not auth:
        return {}, {}
    if auth["in"] == "query":
        return {auth["name"]: auth["value"]}, {}
    if auth["in"] == "header":
        return {}, {auth["name"]: auth["value"]}
    return {}, {"Authorization": f"Bearer {auth['value']}"}


def _records_of(body: Any, notes: dict, header: list[str] | None) -> tuple[list[dict], list[str] | None]:
    cont = dig(body, notes.get("records_path"))
    fields: dict[str, str] = notes["fields"]
    shape = notes.get("shape", "objects")
    out: list[dict] = []
    if shape == "rows":
        rows = list(cont or [])
        if notes.get("header_in_rows"):
            header, rows = rows[0], rows[1:]
        elif notes.get("header_path"):
            header = dig(body, notes["header_path"])
        assert header is not None, "rows shape without a header"
        pos = {h: i for i, h in enumerate(header)}
        for row in rows:
            out.append({f: row[pos[c]] for f, c in fields.items()})
        return out, header
    items = list(cont.values()) if shape == "keyed" else list(cont or [])
    for item in items:
        out.append({f: dig(item, p) for f, p in fields.items()})
    return out, header


def fetch_records(get: Getter, notes: dict, params: dict[str, str] | None = None) -> list[dict]:
    """Every record a site serves, read the way its notes say (follows pagination to the end)."""
    q_auth, h_auth = _auth_parts(notes)
    if notes.get("method") == "file":
        out: list[dict] = []
        cols: dict[str, str] = notes["columns"]
        for f in notes["files"]:
            if f.get("scope") is None and len(notes["files"]) > 1:
                continue  # the all-records file duplicates the per-scope ones
            status, text = get(f["path"], dict(q_auth), dict(h_auth))
            assert status == 200, (f["path"], status)
            out.extend(parse_file(text, f["format"], cols))
        return out
    if notes.get("method") == "embedded":
        out = []
        for path in notes["pages"]:
            p, _, qs = path.partition("?")
            status, text = get(p, dict(x.split("=", 1) for x in qs.split("&") if x), {})
            assert status == 200, (path, status)
            got, _ = _records_of(embedded_data(text, notes["embedded"]), notes, None)
            out.extend(got)
        return out
    pager = notes.get("pagination") or {"style": "none"}
    style = pager["style"]
    query = dict(params or {}) | q_auth
    out = []
    header: list[str] | None = None
    page = pager.get("first_page", 1)
    offset = 0
    cursor: str | None = None
    for _ in range(100000):
        q = dict(query)
        if style == "page":
            q[pager["page_param"]] = str(page)
        elif style == "offset":
            q[pager["offset_param"]] = str(offset)
        elif style == "cursor" and cursor:
            q[pager["cursor_param"]] = cursor
        status, body = get(notes["endpoint"], q, dict(h_auth))
        assert status == 200, (notes["endpoint"], q, status, body)
        if isinstance(body, (str, bytes)):
            body = json.loads(body)
        got, header = _records_of(body, notes, header)
        out.extend(got)
        if style == "none":
            break
        if style == "cursor":
            cursor = dig(body, pager["next_path"])
            if not cursor:
                break
            continue
        if not got:
            break
        page += 1
        offset += len(got)
    return out


def embedded_data(page_html: str, where: dict[str, str]) -> Any:
    """The JSON a page embeds: a ``<script type="application/json" id=...>`` or ``window.<var> = ...;``."""
    if "script_id" in where:
        m = re.search(
            rf'<script type="application/json" id="{re.escape(where["script_id"])}">(.*?)</script>',
            page_html,
            re.S,
        )
    else:
        m = re.search(rf"window\.{re.escape(where['var'])} = (.*?);\n", page_html, re.S)
    assert m, f"no embedded data {where}"
    return json.loads(m.group(1))


def parse_file(text: str, fmt: str, cols: dict[str, str]) -> list[dict]:
    if fmt == "csv":
        reader = csv.DictReader(io.StringIO(text))
        return [{f: (row.get(c) or None) for f, c in cols.items()} for row in reader]
    out = []
    for line in text.splitlines():
        if line.strip():
            obj = json.loads(line)
            out.append({f: dig(obj, c) for f, c in cols.items()})
    return out


def catch_all() -> BaseRoute:
    """The last route of a site: an HTML 404 for any path the site does not serve."""

    async def missing(request: Request) -> Response:
        return not_found_html(request)

    return Route("/{path:path}", missing, methods=["GET", "HEAD", "POST"])


@dataclass
class SiteText:
    """Names a site prints: its brand, the kind's words, and the prefix links carry."""

    host: str
    brand: str
    plural: str
    singular: str
    extra: dict[str, Any] = field(default_factory=dict)

    def link(self, path: str) -> str:
        return f"/{self.host}{path}"


def draw_brand(rng: random.Random, kind: KindDef) -> str:
    a = rng.choice(["Open", "Data", "Quick", "Atlas", "Nimbus", "Vector", "Harbor", "Cobalt", "Summit"])
    b = rng.choice(["Hub", "Base", "Index", "Works", "Stack", "Feed", "Point", "Lab", "Line"])
    plural = " ".join(w[:1].upper() + w[1:] for w in kind.plural.split())
    return f"{a}{b} {plural}" if rng.random() < 0.5 else f"{a} {b}"

"""Reading an API's documentation: the endpoint URLs it shows and the auth scheme it names.

Why: an API documentation page rarely links its endpoints with ``<a href>``; it prints them in
``curl`` examples, ``GET /path`` lines or "Try it" boxes, and it states in prose how to send a key
("send the header X-Api-Key", "Authorization: Bearer", "add the query parameter apikey") and often a
demo key to try. An OpenAPI/Swagger document says the same in JSON (``servers``, ``paths``,
``securitySchemes``). This module reads both kinds from what the page shows, for any API, so
discovery can probe the endpoints with the key the page gives (the spec later stores it as
``{secret:NAME}``, see ``runtime.spec.externalize_secrets``).
"""

from __future__ import annotations

import html as _html
import re
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

_TAG = re.compile(r"<[^>]+>")
_URL = re.compile(r"https?://[^\s\"'<>`]+")
_METHOD_PATH = re.compile(r"\bGET\s+(/[^\s\"'`]*)")  # keeps <id>/{id} so templates are dropped
_PLACEHOLDER = re.compile(r"[<{\[]|%3C|%7B", re.I)
_KEY_WORD = re.compile(r"\b(?:api[\s_-]?key|key|token|apikey|access[\s_-]?key)s?\b", re.I)
_TOKEN = re.compile(r"(?<![\w/.-])([A-Za-z0-9][A-Za-z0-9_\-]{11,})(?![\w/])")
_HEADER_NAME = re.compile(r"\b((?:X-)?[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)+)\s*:")
_QUERY_PARAM = re.compile(
    r"(?:query|url)\s+(?:string\s+)?param(?:eter)?\s*[\"'`]?([A-Za-z_][\w-]*)"
    r"|param(?:eter)?\s+[\"'`]?([A-Za-z_][\w-]*)[\"'`]?\s+(?:in|to)\s+the\s+(?:query|url)"
    r"|[?&]([A-Za-z_][\w-]*)=(?:[<{]|YOUR|your|\.\.\.)",
    re.I,
)
_CODE_SPAN = re.compile(r"<(code|tt|kbd|samp)\b[^>]*>(.*?)</\1>", re.S | re.I)
_BARE_PATH = re.compile(r"/(?:[\w.-]+/)*[\w.-]*[A-Za-z][\w.-]*/?")  # a path of one or more segments
_BINARY_EXT = (".html", ".htm", ".css", ".js", ".png", ".jpg", ".svg", ".ico")


@dataclass
class ApiAuth:
    """How requests authenticate: ``location`` query/header/bearer, the param or header ``name``, the key."""

    location: Literal["query", "header", "bearer"]
    name: str
    value: str

    def headers(self) -> dict[str, str]:
        if self.location == "bearer":
            return {"Authorization": f"Bearer {self.value}"}
        if self.location == "header":
            return {self.name: self.value}
        return {}

    def apply(self, url: str) -> str:
        """``url`` with the key as a query parameter (query auth only)."""
        if self.location != "query":
            return url
        parts = urlsplit(url)
        q = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != self.name]
        q.append((self.name, self.value))
        return urlunsplit(parts._replace(query=urlencode(q)))


@dataclass
class ApiDocs:
    """What one documentation page (or OpenAPI document) says: endpoint URLs, most specific first."""

    endpoints: list[str] = field(default_factory=list)
    auth: ApiAuth | None = None
    openapi: bool = False


def page_text(html_text: str) -> str:
    """Visible text of a page, tags removed and entities decoded (code blocks kept)."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", html_text, flags=re.S | re.I)
    return _html.unescape(_TAG.sub(" ", body))


def _clean_url(url: str) -> str | None:
    """Drop placeholder query values (``?season=<season>``); ``None`` for a path with placeholders."""
    url = url.rstrip(".,;:)]}")
    try:
        parts = urlsplit(url)
    except ValueError:  # "http://[host" read out of prose is no URL
        return None
    if _PLACEHOLDER.search(parts.path):
        return None
    q = [
        (k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if v and not _PLACEHOLDER.search(v)
    ]
    return urlunsplit(parts._replace(query=urlencode(q), fragment=""))


def _path_of(url: str) -> str:
    """The path of a URL found in text, without a trailing slash ("" when it does not parse)."""
    try:
        return urlsplit(url.rstrip(".,;:)]}")).path.rstrip("/")
    except ValueError:  # "http://host]" read out of prose
        return ""


def _site(host: str) -> str:
    """The registrable part of a host name ("api.example.co.uk" -> "example.co.uk"); an address or a
    single-label host stands for itself."""
    labels = host.lower().rstrip(".").split(".")
    if len(labels) < 3 or re.fullmatch(r"[\d.]+|\[.*\]", host):
        return host.lower()
    n = (
        3
        if len(labels[-1]) == 2 and labels[-2] in ("co", "com", "ac", "org", "net", "gov", "edu", "ne", "or")
        else 2
    )
    return ".".join(labels[-n:])


def _same_site(url: str, page_url: str) -> bool:
    """The page's own host, or another host of the same site: documentation on ``developer.x.org``
    or ``www.x.org`` describes the API on ``api.x.org``."""
    a, b = urlsplit(url), urlsplit(page_url)
    if a.netloc == b.netloc:
        return True
    return bool(a.hostname and b.hostname) and _site(a.hostname or "") == _site(b.hostname or "")


def find_key(text: str) -> str | None:
    """The demo/trial key a documentation text states near the word key/token (letters and digits)."""
    key = None
    for m in _KEY_WORD.finditer(text):
        # a token that starts near the word, read whole (a window cut would keep only its first part)
        for t in _TOKEN.finditer(text, m.end()):
            if t.start() > m.end() + 160:
                break
            tok = t.group(1)
            if re.search(r"\d", tok) and re.search(r"[A-Za-z]", tok) and not tok.lower().startswith("http"):
                key = tok
                break
        if key:
            break
    return key


def find_auth(text: str) -> ApiAuth | None:
    """The auth scheme and demo key a documentation text names, or ``None`` (an open API)."""
    key = find_key(text)
    if key is None:
        return None
    scheme = re.search(r"\bAuthorization\s*:\s*[\"'`]?(Token|Key|ApiKey|Api-Key|Bearer)\s", text, re.I)
    if scheme and scheme.group(1).lower() != "bearer":  # "Authorization: Token <key>": the scheme word too
        return ApiAuth("header", "Authorization", f"{scheme.group(1)} {key}")
    if re.search(r"\bbearer\b", text, re.I):
        return ApiAuth("bearer", "Authorization", key)
    # a query parameter that carries the key, as an example URL shows it or the prose names it
    for u in _URL.findall(text):
        for k, v in parse_qsl(urlsplit(u).query):
            if v == key:
                return ApiAuth("query", k, key)
    for m in _QUERY_PARAM.finditer(text):
        name = next(g for g in m.groups() if g)
        if _KEY_WORD.search(name.replace("_", " ")) or "key" in name.lower() or "token" in name.lower():
            return ApiAuth("query", name, key)
    for m in _HEADER_NAME.finditer(text):
        name = m.group(1)
        low = name.lower()
        if ("key" in low or "token" in low or "auth" in low) and not low.startswith("content-"):
            return ApiAuth("header", name, key)
    m = re.search(r"\bheader\s+[\"'`]?([A-Za-z][\w-]+)", text, re.I)
    if m:
        return ApiAuth("header", m.group(1), key)
    m = re.search(r"\bparam(?:eter)?\s+[\"'`]?([A-Za-z_][\w-]+)", text, re.I)
    if m:
        return ApiAuth("query", m.group(1), key)
    return None


def read_api_docs(html_text: str, page_url: str) -> ApiDocs:
    """Endpoint URLs (same site) and the auth scheme of an HTML documentation page."""
    text = page_text(html_text)
    found: list[str] = []
    for raw in _URL.findall(text):
        found.append(raw)
    for path in _METHOD_PATH.findall(text):
        found.append(urljoin(page_url, path))
    # "Try it" boxes and code spans that hold a bare site path with a query
    for path in re.findall(r"(?<![\w/:.])(/[\w./-]+\?[^\s\"'<>`]+)", text):
        found.append(urljoin(page_url, path))
    # a code span that is a bare site path and nothing else ("read them from <code>/v2/items</code>")
    bare: list[str] = []
    for cm in _CODE_SPAN.finditer(html_text):
        path = _html.unescape(_TAG.sub("", cm.group(2))).strip()
        if _BARE_PATH.fullmatch(path):
            bare.append(urljoin(page_url, path))
    # a bare path one segment below another endpoint is one record of it ("/prices/84b667fb")
    known = {_path_of(u) for u in found + bare}
    found += [u for u in bare if _path_of(u).rsplit("/", 1)[0] not in known]
    out: list[str] = []
    page_key = page_url.split("#")[0].rstrip("/")
    for u in found:
        c = _clean_url(u)
        if not c or not _same_site(c, page_url) or c.rstrip("/") == page_key:
            continue
        if urlsplit(c).path.lower().endswith(_BINARY_EXT):
            continue
        if c not in out:
            out.append(c)
    # list endpoints before item endpoints ("/things/" awaiting an id), examples with a query first
    out.sort(key=lambda u: (urlsplit(u).path.endswith("/"), not urlsplit(u).query))
    return ApiDocs(endpoints=out, auth=find_auth(text) if out else None)


def is_openapi(obj: Any) -> bool:
    return (
        isinstance(obj, dict)
        and isinstance(obj.get("paths"), dict)
        and ("openapi" in obj or "swagger" in obj)
    )


def read_openapi(obj: Any, doc_url: str) -> ApiDocs:
    """GET endpoints without path parameters, and the API-key/bearer scheme of an OpenAPI document."""
    if not is_openapi(obj):
        return ApiDocs()
    base = doc_url
    servers = obj.get("servers")
    if isinstance(servers, list) and servers and isinstance(servers[0], dict) and servers[0].get("url"):
        server = str(servers[0]["url"])
        for name, var in (servers[0].get("variables") or {}).items():  # "https://{region}.x.org/{v}"
            if isinstance(var, dict) and var.get("default") is not None:
                server = server.replace("{" + str(name) + "}", str(var["default"]))
        base = urljoin(doc_url, server.rstrip("/") + "/")
    elif obj.get("host") or obj.get("basePath"):
        scheme = urlsplit(doc_url).scheme
        host = obj.get("host") or urlsplit(doc_url).netloc
        base = f"{scheme}://{host}{str(obj.get('basePath') or '').rstrip('/')}/"
    out: list[str] = []
    for path, ops in obj["paths"].items():
        if not isinstance(ops, dict) or "get" not in ops or "{" in str(path):
            continue
        out.append(urljoin(base, str(path).lstrip("/")) if base != doc_url else urljoin(doc_url, str(path)))
    schemes = (obj.get("components") or {}).get("securitySchemes") or obj.get("securityDefinitions") or {}
    auth = None
    text = _openapi_text(obj)
    for sch in schemes.values() if isinstance(schemes, dict) else []:
        if not isinstance(sch, dict):
            continue
        value = find_key(text)
        if value is None:
            continue
        if sch.get("type") == "http" and str(sch.get("scheme", "")).lower() == "bearer":
            auth = ApiAuth("bearer", "Authorization", value)
        elif sch.get("type") == "apiKey" and sch.get("name"):
            loc = "header" if sch.get("in") == "header" else "query"
            auth = ApiAuth(loc, str(sch["name"]), value)  # type: ignore[arg-type]
        if auth:
            break
    return ApiDocs(endpoints=out, auth=auth, openapi=True)


def openapi_names(obj: Any) -> dict[str, str]:
    """Parameter and property name → its description in an OpenAPI document (what ``documented_names``
    reads from an HTML page: "Records per response, 1 to 500", "Make & model")."""
    out: dict[str, str] = {}
    if not is_openapi(obj):
        return out
    for ops in obj["paths"].values():
        for op in ops.values() if isinstance(ops, dict) else []:
            for prm in (op.get("parameters") or []) if isinstance(op, dict) else []:
                if isinstance(prm, dict) and prm.get("in") == "query" and prm.get("name"):
                    desc = _squash(str(prm.get("description") or ""))
                    if desc:
                        out.setdefault(str(prm["name"]), desc[:300])
    schemas = (obj.get("components") or {}).get("schemas") or obj.get("definitions") or {}
    for sch in schemas.values() if isinstance(schemas, dict) else []:
        props = sch.get("properties") if isinstance(sch, dict) else None
        for name, prop in props.items() if isinstance(props, dict) else []:
            desc = (
                _squash(str(prop.get("description") or prop.get("title") or ""))
                if isinstance(prop, dict)
                else ""
            )
            if desc and not _TYPE_WORDS.match(desc):
                out.setdefault(str(name), desc[:300])
    return out


def _openapi_text(obj: Any) -> str:
    """Every description/example string of an OpenAPI document, to find a stated demo key."""
    parts: list[str] = []

    def visit(node: Any, depth: int) -> None:
        if depth > 8:
            return
        if isinstance(node, dict):
            for k, v in node.items():
                if isinstance(v, str) and k in ("description", "example", "default", "x-demo-key", "summary"):
                    parts.append(v)
                else:
                    visit(v, depth + 1)
        elif isinstance(node, list):
            for v in node:
                visit(v, depth + 1)

    visit(obj, 0)
    return "\n".join(parts)


# ------------------------------------------------------------------------------------------ documented names

_IDENT_NAME = re.compile(r"^[A-Za-z_$@][\w$@.\-\[\]]{0,60}$")
_TYPE_WORDS = re.compile(
    r"^(?:string|str|text|integer|int|long|number|numeric|float|double|decimal|boolean|bool|date|datetime|"
    r"time|timestamp|money|currency|array|list|object|url|uri|id)\b[^.]{0,24}$",
    re.I,
)


def _squash(text: str) -> str:
    return " ".join((text or "").split())


def documented_names(
    html_text: str, *, prefer: Literal["definition", "sentence"] = "definition"
) -> dict[str, str]:
    """Identifier → what the page says it means, for every name the page prints as code.

    Why: documentation explains its parameters and response keys next to the name set as code: a
    table row (``<code>vhc</code> | Make & model | text``), a list item (``<code>page</code> — Page
    number``), a definition list, or prose (``<code>count</code> (integer): Records per response``).
    A cell that only names a type ("string", "integer") is not the meaning. A name documented twice
    (a query parameter in prose, "Only papers with this track", and a row of the record's key table,
    "Session type") goes by its definition (table row, definition list) over a sentence that mentions it;
    ``prefer="sentence"`` the other way round, for what a parameter does ("Only seasons of this team").
    """
    from lxml import html as lhtml

    try:
        root = lhtml.document_fromstring(html_text)
    except Exception:  # an unparsable page documents nothing
        return {}
    out: dict[str, str] = {}
    rank: dict[str, int] = {}
    for code in root.iter("code", "tt", "kbd", "var"):
        name = _squash(code.text_content())
        if not _IDENT_NAME.match(name) or rank.get(name, -1) >= 3:
            continue
        desc = ""
        cell = next((a for a in code.iterancestors("td", "th", "dt", "li", "p")), None)
        level = 2 if cell is not None and cell.tag in ("td", "th", "dt") else 1 if cell is not None else 0
        if prefer == "sentence" and level == 1:
            level = 3
        if name in rank and level <= rank[name]:
            continue
        if cell is not None and cell.tag in ("td", "th"):
            if _squash(cell.text_content()) != name:
                continue  # a name inside a sentence of a cell is not the row's subject
            row = cell.getparent()
            cells = [c for c in row if c.tag in ("td", "th") and c is not cell] if row is not None else []
            texts = [_squash(c.text_content()) for c in cells]
            desc = next((t for t in texts if t and not _TYPE_WORDS.match(t) and t != name), "")
        elif cell is not None and cell.tag == "dt":
            dd = cell.getnext()
            desc = _squash(dd.text_content()) if dd is not None and dd.tag == "dd" else ""
        else:
            parts = [code.tail or ""]
            sib = code.getnext()
            while sib is not None and sib.tag not in ("code", "tt", "kbd", "var", "br"):
                parts.append(sib.text_content() + (sib.tail or ""))
                sib = sib.getnext()
            tail = _squash("".join(parts))
            m = re.match(r"^(?:\(([^)]{0,40})\))?\s*[:=—–-]+\s*(.+)$", tail)
            if m:
                desc = m.group(2)
                desc = re.split(r"(?<=[.;])\s", desc, maxsplit=1)[0]
        if desc:
            out[name] = desc[:300]
            rank[name] = level
    for name, desc in _plain_table_names(root).items():  # names a table prints as plain text
        if name not in out:
            out[name] = desc
    return out


_NAME_HEAD = re.compile(
    r"^(?:query\s+)?(?:param(?:eter)?s?|name|field|key|argument|arg|property|attribute|column|variable)$",
    re.I,
)
_DESC_HEAD = re.compile(r"^(?:description|meaning|notes?|details?|explanation|purpose|definition)$", re.I)


def _plain_table_names(root: Any) -> dict[str, str]:
    """Name → description of a table whose header has a name column ("Parameter", "Field", "Key")
    and a description column, when the names are written as plain text, not code (older reference
    pages: ``<td>per_page</td><td>integer</td><td>Results per page</td>``)."""
    out: dict[str, str] = {}
    for table in root.iter("table"):
        rows = [r for r in table.iter("tr")]
        if len(rows) < 2:
            continue
        head = [_squash(c.text_content()) for c in rows[0] if c.tag in ("th", "td")]
        ni = next((i for i, h in enumerate(head) if _NAME_HEAD.match(h)), None)
        di = next((i for i, h in enumerate(head) if _DESC_HEAD.match(h)), None)
        if ni is None or di is None or ni == di:
            continue
        for r in rows[1:]:
            cells = [c for c in r if c.tag in ("th", "td")]
            if len(cells) <= max(ni, di):
                continue
            name = _squash(cells[ni].text_content())
            desc = _squash(cells[di].text_content())
            if _IDENT_NAME.match(name) and " " not in name and desc and not _TYPE_WORDS.match(desc):
                out.setdefault(name, desc[:300])
    return out


@dataclass
class DocPaging:
    """How the documentation says to page: ``kind`` page/offset/cursor, the parameter, first page, size."""

    kind: Literal["page", "offset", "cursor"] | None = None
    param: str | None = None
    first: int | None = None
    size_param: str | None = None
    max_size: int | None = None
    default_size: int | None = None


_CURSOR_DESC = re.compile(r"\bcursor\b|\bcontinuation\b|\bpage[\s_-]?token\b|\bnext[\s_-]?token\b", re.I)
_PAGE_DESC = re.compile(r"\bpage\s+(?:number|index|no\.?)\b|\bwhich\s+page\b|\bfirst\s+page\s+is\b", re.I)
_OFFSET_DESC = re.compile(
    r"\b(?:records?|items?|results?|rows?|entries)\s+to\s+skip\b|\bskip\b|\boffset\b", re.I
)
_SIZE_DESC = re.compile(
    r"\b(?:records?|items?|results?|rows?|entries)\s+(?:per|in\s+each|on\s+each)\s+(?:page|response|request|call|slice)"
    r"|\bpage\s+size\b|\bper\s+page\b|\bmax(?:imum)?\s+(?:number\s+of\s+)?(?:records?|items?|results?|rows?)\b"
    r"|\bnumber\s+of\s+(?:records?|items?|results?|rows?)\b",
    re.I,
)


def paging_from_docs(names: dict[str, str], query_names: set[str] = frozenset()) -> DocPaging:
    """The paging scheme the documented parameters describe (their names and what the page says)."""
    out = DocPaging()
    low_q = {q.lower() for q in query_names}
    for name, desc in names.items():
        nl = name.lower()
        skips = bool(_OFFSET_DESC.search(desc)) or nl in ("offset", "skip", "start")
        sizes = bool(_SIZE_DESC.search(desc)) and not skips
        if out.kind is None and (
            _CURSOR_DESC.search(desc) or nl in ("cursor", "after", "page_token", "pagetoken", "next_token")
        ):
            out.kind, out.param = "cursor", name
        elif out.kind is None and (
            _PAGE_DESC.search(desc) or (nl in ("page", "pagenum", "page_number") and nl in low_q)
        ):
            out.kind, out.param = "page", name
            m = re.search(r"first\s+page\s+is\s+(\d)|(\d)\s*-\s*based|(zero)[\s-]based", desc, re.I)
            if m:
                out.first = 0 if m.group(3) else int(m.group(1) or m.group(2))
        elif out.kind is None and skips:
            out.kind, out.param = "offset", name
        if out.size_param is None and sizes:
            out.size_param = name
            m = re.search(r"(\d+)\s*(?:to|-|–|…|\.\.)\s*(\d+)", desc)
            if m:
                out.max_size = int(m.group(2))
            else:
                m = re.search(r"\b(?:max(?:imum)?|up\s+to|at\s+most)\D{0,12}(\d+)", desc, re.I)
                out.max_size = int(m.group(1)) if m else None
            m = re.search(r"default(?:s\s+to)?\s*:?\s*(\d+)", desc, re.I)
            out.default_size = int(m.group(1)) if m else None
    return out


_STATED = re.compile(
    r"\b(\d{1,3}(?:,\d{3})+|\d+)\s+(?:records|rows|items|entries|results)\s+(?:in\s+all|in\s+total|total)\b"
    r"|\b(?:total\s+of|all)\s+(\d{1,3}(?:,\d{3})+|\d+)\s+(?:records|rows|items|entries)\b",
    re.I,
)


def stated_total(text: str) -> int | None:
    """A total the page states in words ("159 records in all", "a total of 1,845 rows")."""
    m = _STATED.search(text or "")
    if not m:
        return None
    return int((m.group(1) or m.group(2)).replace(",", ""))

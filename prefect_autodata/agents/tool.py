"""The tool agent's tools: web search behind a provider interface, an HTML cleaner, and file conversion.

Search is an interface because the offline default (a SearXNG-compatible JSON endpoint whose base URL is
configuration) and paid providers must be interchangeable without touching the agents. The cleaner drops
what a human reader would not see (scripts, styles, ``display:none`` blocks) so hidden prompt injections
never reach an agent's context. Conversion turns CSV/JSON/XLSX/PDF bodies into text or records so every
downstream agent reads one shape.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
from typing import Any, Literal, Protocol, runtime_checkable
from urllib.parse import urljoin, urlsplit

from pydantic import BaseModel, Field

from prefect_autodata.agents.evidence import Link, SearchHit
from prefect_autodata.errors import ConfigError, FetchError, TransientError

SEARCH_URL_ENV = "AUTODATA_SEARCH_URL"
SEARCH_KEY_ENV = "AUTODATA_SEARCH_API_KEY"


# ---------------------------------------------------------------------------------------------- search


@runtime_checkable
class SearchProvider(Protocol):
    """Anything that answers a query with ranked hits (absolute URLs)."""

    name: str

    def search(self, query: str, *, num: int = 10) -> list[SearchHit]: ...


class HTTPSearchProvider:
    """A SearXNG-compatible JSON search API: ``GET {base}/search?q=..&format=json`` → ``{"results": [...]}``.

    Each result needs ``url`` and may carry ``title`` and ``content`` or ``snippet``; relative result URLs
    are resolved against the base URL (a self-hosted index may return site paths). The default client
    does not consult robots.txt: a search API the user configured is called, not crawled."""

    name = "http"

    def __init__(self, base_url: str, *, api_key: str | None = None, fetcher: Any = None) -> None:
        if not base_url or urlsplit(base_url).scheme not in ("http", "https"):
            raise ConfigError(f"search base URL must be http(s)://..., got {base_url!r}")
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        if fetcher is None:
            from prefect_autodata.runtime.fetch import Fetcher
            from prefect_autodata.runtime.policy import FetchPolicy

            fetcher = Fetcher(FetchPolicy(respect_robots=False, max_retries=3, read_timeout=15))
        self.fetcher = fetcher
        # The user named this endpoint explicitly, so a loopback/private search service is allowed.
        self.fetcher.allow_host(self.base_url)

    def search(self, query: str, *, num: int = 10) -> list[SearchHit]:
        """Run one query; a failing provider is a FetchError naming the search URL."""
        url = self.base_url if self.base_url.endswith("/search") else f"{self.base_url}/search"
        headers = {"Accept": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        params = {"q": query, "format": "json", "num": str(max(1, min(num, 50)))}
        try:
            resp = self.fetcher.get(url, params=params, headers=headers)
            data = resp.json()
        except (FetchError, TransientError) as exc:
            raise FetchError(f"search provider {url} failed for query {query!r}: {exc}") from exc
        results = data.get("results") if isinstance(data, dict) else None
        if not isinstance(results, list):
            raise FetchError(f"search provider {url} returned no 'results' list for query {query!r}")
        hits: list[SearchHit] = []
        for i, r in enumerate(results[:num]):
            if not isinstance(r, dict) or not r.get("url"):
                continue
            hits.append(
                SearchHit(
                    title=str(r.get("title") or ""),
                    url=urljoin(self.base_url + "/", str(r["url"])),
                    snippet=str(r.get("content") or r.get("snippet") or ""),
                    query=query,
                    rank=i,
                )
            )
        return hits


def search_provider_from_config(
    search_url: str | None = None, *, api_key: str | None = None, fetcher: Any = None
) -> SearchProvider | None:
    """The configured provider: ``search_url`` (CLI ``--search-url``), else ``$AUTODATA_SEARCH_URL``, else the
    ``SearchProviderCredentials`` block named by ``$AUTODATA_SEARCH_BLOCK``; None when nothing is configured."""
    url = search_url or os.environ.get(SEARCH_URL_ENV)
    key = api_key or os.environ.get(SEARCH_KEY_ENV)
    if not url and os.environ.get("AUTODATA_SEARCH_BLOCK"):
        from prefect_autodata.blocks.search import SearchProviderCredentials

        block = SearchProviderCredentials.load(os.environ["AUTODATA_SEARCH_BLOCK"])
        url = block.base_url
        key = key or (block.api_key.get_secret_value() if block.api_key else None)
    if not url:
        return None
    return HTTPSearchProvider(url, api_key=key, fetcher=fetcher)


# ---------------------------------------------------------------------------------------------- HTML


class CleanPage(BaseModel):
    """What a reader sees on a page: title, visible text, links (absolute) and how much was hidden."""

    title: str = ""
    text: str = ""
    links: list[Link] = Field(default_factory=list)
    hidden_removed: int = 0


_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)


def parse_html(html: str) -> Any:
    """An lxml document (empty bodies give an empty <html/>, never an exception)."""
    import lxml.html

    try:
        return lxml.html.document_fromstring(html or "<html></html>")
    except Exception:  # lxml raises ParserError on whitespace-only input
        return lxml.html.document_fromstring("<html></html>")


def clean_html(html: str, base_url: str = "") -> CleanPage:
    """Visible text and links of ``html``; scripts, styles and hidden elements are dropped."""
    doc = parse_html(html)
    title_el = doc.find(".//title")
    title = " ".join((title_el.text_content() if title_el is not None else "").split())
    removed = 0
    candidates = doc.xpath(
        "//script|//style|//noscript|//template|//head|//*[@hidden]|//*[@aria-hidden='true']"
        "|//*[contains(@style,'display') or contains(@style,'visibility')]"
    )
    for el in candidates:
        tag = el.tag.lower() if isinstance(el.tag, str) else ""
        if el.getparent() is None:
            continue
        style_hidden = bool(_HIDDEN_STYLE.search(el.get("style", "")))
        if tag in ("script", "style", "noscript", "template", "head"):
            el.drop_tree()
        elif el.get("hidden") is not None or el.get("aria-hidden") == "true" or style_hidden:
            removed += 1
            el.drop_tree()
    links: list[Link] = []
    seen: set[str] = set()
    for a in doc.iter("a"):
        href = (a.get("href") or "").strip()
        if not href or href.startswith(("javascript:", "mailto:", "#")):
            continue
        url = urljoin(base_url, href) if base_url else href
        if url in seen:
            continue
        seen.add(url)
        links.append(Link(url=url, text=" ".join(a.text_content().split())[:200]))
    text = re.sub(r"[ \t\r\f\v]+", " ", doc.text_content())
    text = "\n".join(line.strip() for line in text.splitlines() if line.strip())
    return CleanPage(title=title, text=text, links=links, hidden_removed=removed)


# ---------------------------------------------------------------------------------------------- files


class Converted(BaseModel):
    """A file body in one readable shape: ``records`` when tabular/JSON, always ``text``."""

    kind: Literal["csv", "json", "text"]
    text: str
    records: list[dict[str, Any]] | None = None
    headers: list[str] = Field(default_factory=list)
    source_format: str


def sniff_format(content: bytes, content_type: str = "", url: str = "") -> str:
    """csv | json | xlsx | pdf | html | xml | text, from magic bytes, then Content-Type, then extension."""
    ct = content_type.lower()
    path = urlsplit(url).path.lower()
    head = content[:8].lstrip()
    if content.startswith(b"%PDF"):
        return "pdf"
    if content.startswith(b"PK\x03\x04") and ("sheet" in ct or path.endswith(".xlsx") or "excel" in ct):
        return "xlsx"
    if content.startswith(b"PK\x03\x04"):
        return "xlsx" if b"xl/" in content[:4000] else "other"
    if "json" in ct or head[:1] in (b"{", b"["):
        return "json"
    if "html" in ct or head.lower().startswith((b"<!doc", b"<html")):
        return "html"
    if "xml" in ct or head.startswith(b"<?xml"):
        return "xml"
    if "csv" in ct or path.endswith(".csv"):
        return "csv"
    return "text"


def convert_file(content: bytes, *, content_type: str = "", url: str = "") -> Converted:
    """Convert a CSV, JSON, XLSX or PDF body; anything else is returned as text. Errors name the URL."""
    fmt = sniff_format(content, content_type, url)
    where = url or "file"
    try:
        if fmt == "csv":
            text = content.decode("utf-8-sig", errors="replace")
            rows = list(csv.DictReader(io.StringIO(text)))
            headers = list(rows[0].keys()) if rows else next(csv.reader(io.StringIO(text)), [])
            return Converted(kind="csv", text=text, records=rows, headers=headers, source_format="csv")
        if fmt == "json":
            text = content.decode("utf-8-sig", errors="replace")
            obj = json.loads(text)
            recs = obj if isinstance(obj, list) and all(isinstance(r, dict) for r in obj) else None
            headers = list(recs[0].keys()) if recs else []
            return Converted(kind="json", text=text, records=recs, headers=headers, source_format="json")
        if fmt == "xlsx":
            return _xlsx(content)
        if fmt == "pdf":
            return _pdf(content)
    except (ValueError, KeyError, OSError) as exc:
        raise FetchError(f"{where}: could not convert {fmt} body: {exc}") from exc
    if fmt == "html":
        text = clean_html(content.decode("utf-8", errors="replace"), url).text
    else:
        text = content.decode("utf-8", errors="replace")
    return Converted(kind="text", text=text, source_format=fmt)


def _xlsx(content: bytes) -> Converted:
    import openpyxl

    wb = openpyxl.load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    try:
        ws = wb.worksheets[0]
        rows = [["" if v is None else v for v in row] for row in ws.iter_rows(values_only=True)]
    finally:
        wb.close()
    rows = [r for r in rows if any(str(v).strip() for v in r)]
    if not rows:
        return Converted(kind="csv", text="", records=[], source_format="xlsx")
    headers = [str(h).strip() or f"column_{i + 1}" for i, h in enumerate(rows[0])]
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(headers)
    records = []
    for r in rows[1:]:
        vals = [_cell(v) for v in r]
        w.writerow(vals)
        records.append(dict(zip(headers, vals, strict=False)))
    return Converted(kind="csv", text=out.getvalue(), records=records, headers=headers, source_format="xlsx")


def _cell(v: Any) -> Any:
    from datetime import date, datetime

    if isinstance(v, datetime):
        return v.date().isoformat() if v.time() == v.min.time() else v.isoformat()
    if isinstance(v, date):
        return v.isoformat()
    return v


def _pdf(content: bytes) -> Converted:
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(content))
    text = "\n".join((page.extract_text() or "") for page in reader.pages)
    return Converted(kind="text", text=text, source_format="pdf")


# ---------------------------------------------------------------------------------------------- agent tools


def agent_tools(provider: SearchProvider | None, cache: Any) -> list[Any]:
    """The tool agent's tools for the LLM backend: ``web_search``, ``clean_html``, ``convert_file``.

    ``cache`` is the run's ArtifactCache; cleaned pages and converted files are returned as text and
    bulky results are cached (the agent gets the cache ID)."""
    from prefect_autodata.agents.base import Tool, ToolError

    def web_search(query: str, num: int = 8) -> list[dict[str, Any]]:
        if provider is None:
            raise ToolError("no search provider configured (set --search-url or AUTODATA_SEARCH_URL)")
        return [h.model_dump() for h in provider.search(query, num=num)]

    def clean(cache_id: str) -> dict[str, Any]:
        page = clean_html(cache.get_text(cache_id), cache.meta(cache_id).summary.split(" ")[0])
        text_id = cache.put(page.text, kind="text", summary=f"clean text of {cache_id}").cache_id
        return {
            "title": page.title,
            "text_excerpt": page.text[:1500],
            "text_cache_id": text_id,
            "links": [link.model_dump() for link in page.links[:60]],
        }

    def convert(cache_id: str) -> dict[str, Any]:
        meta = cache.meta(cache_id)
        conv = convert_file(cache.get(cache_id), content_type=meta.media_type)
        out_id = cache.put(
            conv.text,
            kind="csv" if conv.kind == "csv" else "text",
            summary=f"{conv.source_format} converted from {cache_id}",
        ).cache_id
        return {
            "kind": conv.kind,
            "headers": conv.headers,
            "records": len(conv.records or []),
            "text_cache_id": out_id,
            "excerpt": conv.text[:800],
        }

    obj = {"type": "object"}
    return [
        Tool(
            "web_search",
            "Search the web; returns title/url/snippet hits.",
            web_search,
            {
                **obj,
                "properties": {"query": {"type": "string"}, "num": {"type": "integer"}},
                "required": ["query"],
            },
        ),
        Tool(
            "clean_html",
            "Visible text and links of a cached HTML page.",
            clean,
            {**obj, "properties": {"cache_id": {"type": "string"}}, "required": ["cache_id"]},
        ),
        Tool(
            "convert_file",
            "Convert a cached CSV/JSON/XLSX/PDF body to text/records.",
            convert,
            {**obj, "properties": {"cache_id": {"type": "string"}}, "required": ["cache_id"]},
        ),
    ]

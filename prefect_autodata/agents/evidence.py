"""What the research squad observed, as typed data: the contract between the web/tool agents and induction.

The web agent visits pages and APIs and records *observations* — never interpretations tied to a site.
Bulky bodies (HTML, JSON, converted files) live in the OHCache artifact cache; these models carry the
cache IDs plus the few facts the development squad needs to choose what to read (kind, title, links,
endpoints with their parameters and where the records sit). Everything here is plain pydantic so the
bundle can be cached, traced and replayed.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from prefect_autodata.agents.request import Request as ParsedInstruction

PageKind = Literal["html", "json", "csv", "xml", "text", "other"]
"""``xlsx``/``pdf`` bodies are converted by the tool agent (to ``csv``/``text``) before they become Pages."""

FoundVia = Literal["source", "search", "link", "xhr", "script", "docs", "probe"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Link(_Model):
    """An anchor on a page: the URL (absolute) and its visible text, used for list → detail patterns."""

    url: str
    text: str = ""


class CapturedXHR(_Model):
    """A request the page made while rendered in the browser; the body is a cache artifact."""

    url: str
    method: str = "GET"
    status: int | None = None
    content_type: str = ""
    cache_id: str | None = None
    post_data: str | None = None


class Page(_Model):
    """One visited URL and what came back (the body itself is ``cache_id`` in the artifact cache)."""

    url: str
    final_url: str
    status: int
    content_type: str = ""
    kind: PageKind = "other"
    cache_id: str | None = None
    title: str = ""
    text_excerpt: str = Field(default="", description="Cleaned visible text, first ~2000 characters.")
    links: list[Link] = Field(default_factory=list)
    scripts_endpoints: list[str] = Field(
        default_factory=list, description="Absolute URLs of API-looking endpoints named in inline scripts."
    )
    xhr: list[CapturedXHR] = Field(default_factory=list)
    rendered: bool = Field(default=False, description="True when the body is the browser's DOM after JS ran.")
    found_via: FoundVia = "source"
    depth: int = 0
    record_count: int | None = Field(
        default=None, description="Records observed on the page (table rows / JSON array length), if any."
    )
    error: str | None = Field(
        default=None, description="Why the page could not be read (status or fetch error)."
    )


class ParamRange(_Model):
    """What a probe learnt about one query parameter: values that worked and values the server rejected."""

    name: str
    accepted: list[str] = Field(default_factory=list)
    rejected: list[str] = Field(default_factory=list)
    note: str = ""


class PaginationHint(_Model):
    """How an endpoint or page pages through results, as observed by probing."""

    style: Literal["page", "offset", "cursor", "next_link", "none"] = "none"
    param: str | None = None
    size_param: str | None = None
    page_size: int | None = None
    total: int | None = Field(default=None, description="Total records or pages the source states, if any.")
    pages_seen: int = 0
    next_selector: str | None = Field(default=None, description="CSS selector of the 'next' link, for HTML.")


class Endpoint(_Model):
    """A data endpoint (JSON/CSV API or bulk file) with the parameters seen in its example URL(s)."""

    url_template: str = Field(
        description="Example URL with observed parameter values as {name} placeholders."
    )
    method: str = "GET"
    params: dict[str, str] = Field(default_factory=dict, description="Query/path parameter → example value.")
    example_url: str
    sample_cache_id: str | None = None
    content_type: str = ""
    kind: PageKind = "json"
    record_path_hint: str | None = Field(
        default=None, description="Dotted path to the record array in the sample, e.g. 'resultSets.0.rowSet'."
    )
    record_count: int | None = None
    fields: list[str] = Field(default_factory=list, description="Record keys/headers seen in the sample.")
    found_via: FoundVia = "link"
    source_page: str | None = Field(
        default=None, description="The page on which the endpoint was discovered."
    )
    headers: dict[str, str] = Field(
        default_factory=dict, description="Request headers the page sent (non-secret)."
    )
    param_ranges: list[ParamRange] = Field(default_factory=list)
    pagination: PaginationHint | None = None
    status: int | None = None


class SearchHit(_Model):
    """One web-search result (title/url/snippet) as the search provider returned it."""

    title: str = ""
    url: str
    snippet: str = ""
    query: str = ""
    rank: int = 0


class Evidence(_Model):
    """Everything the research squad saw for one instruction; the input to wrapper induction."""

    plan: ParsedInstruction
    candidates: list[Page] = Field(default_factory=list)
    endpoints: list[Endpoint] = Field(default_factory=list)
    search: list[SearchHit] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)

    def page(self, url: str) -> Page | None:
        """The visited page for ``url`` (matched on the requested or the final URL)."""
        for p in self.candidates:
            if url in (p.url, p.final_url):
                return p
        return None

    def ok_pages(self) -> list[Page]:
        """Pages that came back 2xx with a body in the cache."""
        return [p for p in self.candidates if 200 <= p.status < 300 and p.cache_id]


def read_cached(reader: Any, cache_id: str | None) -> str | None:
    """The text of a page's cached body: ``reader`` is a callable or has ``get``; a missing or evicted
    artifact is None (the caller tries the next page or source, never an error of induction)."""
    if reader is None or not cache_id:
        return None
    try:
        data = reader(cache_id) if callable(reader) else reader.get(cache_id)
    except Exception:  # an evicted artifact: the page is simply not used
        return None
    return data.decode("utf-8", "replace") if isinstance(data, bytes) else data

"""Pagination: given the page just fetched, what is the next request (or None: done).

Every kind stops on an empty page, a page identical to the previous one (a server that ignores the
page parameter), a known total reached, or ``max_pages`` (recorded, so a dry run can say "stopped at
page 3 of 12"). Load-more buttons and infinite scroll are browser options, not pagination here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

from prefect_autodata.runtime.extract import Document, find_one
from prefect_autodata.runtime.spec import Pagination

_LINK_NEXT = re.compile(r'<([^>]+)>\s*;[^,]*rel="?next"?', re.I)


@dataclass
class PageRequest:
    url: str
    params: dict[str, str] = field(default_factory=dict)


@dataclass
class Paginator:
    """Stateful walk over one request's pages."""

    spec: Pagination | None
    first: PageRequest
    pages: int = 0
    records: int = 0
    total: int | None = None
    stop_reason: str = ""
    _last_hash: str | None = None
    _seen_urls: set[str] = field(default_factory=set)

    def start(self) -> PageRequest:
        req = PageRequest(self.first.url, dict(self.first.params))
        if self.spec and self.spec.kind in ("page", "offset"):
            req.params[self.spec.param] = str(self.spec.start)
            if self.spec.kind == "offset" and self.spec.size_param:
                req.params[self.spec.size_param] = str(self.spec.size)
        return req

    def next(
        self, current: PageRequest, doc: Document, n_records: int, content_hash: str, headers: dict[str, str]
    ) -> PageRequest | None:
        """The request for the following page, or None (``stop_reason`` says why)."""
        self.pages += 1
        self.records += n_records
        p = self.spec
        if p is None:
            self.stop_reason = "single page"
            return None
        if p.total is not None and self.total is None:
            raw = find_one(doc, p.total)
            try:
                self.total = int(str(raw).replace(",", "")) if raw is not None else None
            except ValueError:
                self.total = None
        if n_records == 0:
            self.stop_reason = "empty page"
            return None
        if content_hash == self._last_hash:
            self.stop_reason = "page repeated (parameter ignored by the server)"
            return None
        self._last_hash = content_hash
        if self.total is not None and self.records >= self.total:
            self.stop_reason = f"total {self.total} reached"
            return None
        if self.pages >= p.max_pages:
            self.stop_reason = f"max_pages {p.max_pages} reached"
            return None
        params = dict(current.params)
        if p.kind == "page":
            params[p.param] = str(int(params.get(p.param, p.start)) + 1)
            return PageRequest(current.url, params)
        if p.kind == "offset":
            params[p.param] = str(int(params.get(p.param, p.start)) + int(p.size))
            return PageRequest(current.url, params)
        if p.kind == "cursor":
            cursor = find_one(doc, p.next)
            if cursor in (None, "", False):
                self.stop_reason = "no next cursor"
                return None
            params[p.param] = str(cursor)
            return PageRequest(current.url, params)
        if p.kind == "next_link":
            link = find_one(doc, p.next)
            return self._follow(current, link)
        if p.kind == "link_header":
            m = _LINK_NEXT.search(headers.get("link", "") or headers.get("Link", ""))
            return self._follow(current, m.group(1) if m else None)
        raise ValueError(p.kind)

    def ends_listing(self, exc: Exception) -> bool:
        """Whether a failed page request ends the listing instead of failing the run.

        Past the first page, a client error (HTTP 4xx but 429, which is a rate limit) or an empty body
        is how many servers say "no such page": an offset beyond the last record answers 400, a page
        number past the end 404 or nothing. The walk stops there (``stop_reason`` says so) and keeps
        the records read; the stated-total rule still judges a listing that ended short. The first
        page failing is a real error and is raised by the caller."""
        if self.spec is None or self.pages < 1:
            return False
        status = getattr(exc, "status", None)
        if isinstance(status, int) and 400 <= status < 500 and status != 429:
            self.stop_reason = f"page {self.pages + 1} answered HTTP {status} (end of the listing)"
            return True
        text = str(exc)
        if ": empty body" in text or text.endswith("got ''"):  # parse_document's words for a blank body
            self.stop_reason = f"page {self.pages + 1} is empty (end of the listing)"
            return True
        return False

    def _follow(self, current: PageRequest, link: Any) -> PageRequest | None:
        if not link:
            self.stop_reason = "no next link"
            return None
        base = _with_params(current.url, current.params)
        nxt = urljoin(base, str(link).strip())
        if nxt in self._seen_urls or nxt == base:
            self.stop_reason = "next link loops back"
            return None
        self._seen_urls.add(base)
        self._seen_urls.add(nxt)
        return PageRequest(nxt, {})


def _with_params(url: str, params: dict[str, str]) -> str:
    if not params:
        return url
    parts = urlsplit(url)
    q = parse_qsl(parts.query, keep_blank_values=True) + list(params.items())
    return urlunsplit(parts._replace(query=urlencode(q)))

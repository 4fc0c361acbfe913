"""The web agent: visits candidate sources (HTTP first, the browser when a page is a JS shell), caches every
body in OHCache, discovers API endpoints (inline scripts, XHR capture, data links, docs pages), probes
pagination and parameter ranges, and returns an ``Evidence`` bundle.

Bounded on purpose (pages, endpoints, probes): discovery must stay well inside the squads' time budget,
and the runtime — not discovery — is what collects the data.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from pydantic import BaseModel, Field

from prefect_autodata.agents.evidence import (
    CapturedXHR,
    Endpoint,
    Evidence,
    Link,
    Page,
    PageKind,
    ParamRange,
    SearchHit,
)
from prefect_autodata.agents.induction import apidocs, jsonrec
from prefect_autodata.agents.offline import discovery as d
from prefect_autodata.agents.offline.instruction import ParsedInstruction
from prefect_autodata.agents.tool import SearchProvider, clean_html, convert_file, parse_html, sniff_format
from prefect_autodata.errors import AutoDataError, ConfigError, FetchError
from prefect_autodata.ohcache.messages import PageFinding, ToolMessage, ToolObservation, WebMessage

BROWSER_UA = (
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36"
)
Store = Callable[..., str]


class DiscoveryBudget(BaseModel):
    """Bounds of one discovery: pages and endpoints fetched, probes sent, browser use."""

    max_pages: int = Field(14, ge=1)
    max_endpoints: int = Field(8, ge=0)
    max_probes: int = Field(6, ge=0)
    max_switch_probes: int = Field(
        4, ge=0, description="Probes of alternative word values (tabs) for endpoints lacking target fields."
    )
    max_detail: int = Field(2, ge=0, description="Sample detail pages fetched from a listing's record links.")
    seeds_per_query: int = Field(2, ge=1)
    max_seeds: int = Field(5, ge=1)
    browser: Literal["auto", "always", "never"] = "auto"
    render_timeout_s: float = 20.0


class WebAgent:
    """Offline web agent. ``store(content, kind=, summary=, media_type=) -> cache_id`` caches bodies (pass
    ``Toolbox.store`` to get cache notices, or leave it None to write to ``cache`` directly)."""

    def __init__(
        self,
        *,
        fetcher: Any,
        cache: Any = None,
        store: Store | None = None,
        search: SearchProvider | None = None,
        budget: DiscoveryBudget | None = None,
        log: Callable[[str], None] | None = None,
    ) -> None:
        if store is None and cache is None:
            raise ConfigError("WebAgent needs an ArtifactCache (cache=) or a store callable (store=)")
        self.fetcher = fetcher
        self.cache = cache
        self._store = store
        self.search = search
        self.budget = budget or DiscoveryBudget()
        self.log = log or (lambda _m: None)
        self._browser: Any = None
        self.observations: list[ToolObservation] = []
        self._api_docs: dict[str, apidocs.ApiDocs] = {}  # page URL -> endpoints/auth it documents

    # ------------------------------------------------------------------------------------------ plumbing

    def store(self, content: bytes | str, *, kind: str, summary: str, media_type: str | None = None) -> str:
        if self._store is not None:
            return self._store(content, kind=kind, summary=summary, media_type=media_type)
        return self.cache.put(
            content, kind=kind, summary=summary, owner="web", media_type=media_type
        ).cache_id

    def close(self) -> None:
        if self._browser is not None:
            self._browser.close()
            self._browser = None

    def __enter__(self) -> WebAgent:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------------------------------ discovery

    def discover(self, plan: ParsedInstruction, sources: list[str] | None = None) -> Evidence:
        """Research ``plan``: seeds are ``sources`` (the user's URLs) or search hits; returns the evidence."""
        t0 = time.monotonic()
        ev = Evidence(plan=plan)
        terms = d.plan_terms(plan)
        seeds: list[tuple[str, str]] = []  # (url, found_via)
        if sources:
            for s in sources:
                if urlsplit(s).scheme not in ("http", "https"):
                    raise ConfigError(f"--source must be an http(s) URL, got {s!r}")
                self.fetcher.allow_host(s)
                seeds.append((s, "source"))
        else:
            if self.search is None:
                raise ConfigError(
                    "no --source given and no search provider configured "
                    "(pass --search-url, set AUTODATA_SEARCH_URL, or use --sandbox)"
                )
            seeds = [(h.url, "search") for h in self._search(plan, ev)]
            if not seeds:
                ev.notes.append("search returned no usable results for: " + "; ".join(d.search_queries(plan)))
        visited: set[str] = set()
        endpoint_urls: list[
            tuple[str, str, str | None, dict[str, str]]
        ] = []  # url, via, source page, headers
        queue: list[tuple[str, str, int]] = [(u, via, 0) for u, via in seeds]
        details = 0
        while queue and len(ev.candidates) < self.budget.max_pages:
            url, via, depth = queue.pop(0)
            key = url.split("#")[0]
            if key in visited:
                continue
            visited.add(key)
            page, doc_links, scripts = self._visit(url, via, depth, ev)
            if page is None:
                continue
            ev.candidates.append(page)
            docs = self._api_docs.get(page.final_url)
            if docs is not None and docs.endpoints:
                # endpoints a documentation page (or OpenAPI document) shows, probed with its stated key
                hdrs = docs.auth.headers() if docs.auth else {}
                for ep_url in docs.endpoints[:6]:
                    if docs.auth:
                        ep_url = docs.auth.apply(ep_url)
                    endpoint_urls.insert(0, (ep_url, "docs", page.final_url, hdrs))
                if docs.auth:
                    ev.notes.append(
                        f"{page.final_url}: documents {docs.auth.location} auth ({docs.auth.name}); its demo key "
                        "is used and kept out of the spec as a secret"
                    )
            if page.kind in ("json", "csv") and page.cache_id:
                if docs is None or not docs.openapi:
                    endpoint_urls.append((page.final_url, via, None, {}))
                continue
            if page.kind != "html" or page.error:
                continue
            for ep in page.scripts_endpoints:
                endpoint_urls.append((ep, "script", page.final_url, {}))
            for x in page.xhr:
                endpoint_urls.append((x.url, "xhr", page.final_url, {}))
            groups = d.repeated_links(doc_links, page.final_url)
            records = {lk.url for g in groups for lk in g}
            nav: list[tuple[float, Link]] = []
            # A page that already shows data or names an API is left only for clearly specific links.
            has_data = bool(page.scripts_endpoints or page.xhr) or (page.record_count or 0) >= 5
            threshold = 6.0 if has_data else 3.0
            for link in doc_links:
                if d.is_docs_link(link):
                    if depth < 2:
                        queue.append((link.url, "docs", depth + 1))
                elif d.is_data_link(link):
                    endpoint_urls.append((link.url, "link", page.final_url, {}))
                elif link.url not in records and depth < 2:
                    s = d.link_score(link, terms)
                    if s >= threshold:
                        nav.append((s, link))
            nav.sort(key=lambda x: -x[0])
            queue.extend((lk.url, "link", depth + 1) for s, lk in nav[:2] if s >= nav[0][0] - 1)
            own = d.entity_link([doc_links], plan) if depth < 2 else None
            if own is not None and own.url.split("#")[0] not in visited and details < self.budget.max_detail:
                queue.insert(0, (own.url, "link", depth + 1))  # the requested entity's own page first
                details += 1
            elif groups and details < self.budget.max_detail and page.record_count:
                first = groups[0][0]
                if first.url.split("#")[0] not in visited:
                    queue.insert(0, (first.url, "link", depth + 1))
                    details += 1
        self._endpoints(endpoint_urls, ev, plan)
        ev.endpoints = [self._switch_enumerated(ep, ev, plan) for ep in ev.endpoints]
        if ev.endpoints:
            for ep in ev.endpoints[:3]:
                self._probe(ep, ev, plan)
        ev.notes.append(
            f"discovery: {len(ev.candidates)} pages, {len(ev.endpoints)} endpoints, "
            f"{time.monotonic() - t0:.1f}s"
        )
        return ev

    def _search(self, plan: ParsedInstruction, ev: Evidence) -> list[SearchHit]:
        """The seeds of a search: per query its best hits, then hits of other sites as good as a
        query's best (several sites may answer; the engineering loop measures them against each
        other), all ordered by their agreement with the request (``discovery.hit_score``)."""
        from prefect_autodata.agents.ranking import site_of

        chosen: list[SearchHit] = []
        ties: list[SearchHit] = []
        score_of: dict[str, float] = {}
        base = getattr(self.search, "base_url", None)
        for q in d.search_queries(plan)[:4]:
            try:
                hits = self.search.search(q, num=10)  # type: ignore[union-attr]
            except AutoDataError as exc:
                ev.notes.append(f"search failed: {exc}")
                continue
            ev.search.extend(hits)
            ranked = d.rank_hits(hits, plan)
            # ordered by the full score; a hit is clearly weaker when it is so by the full score and
            # by the plain relevance: the request's phrase and field words add hits, never drop one
            scores = [d.hit_score(h, plan) for h in ranked]
            plain = [d.hit_score(h, plan, bonus=False) for h in ranked]
            self.observations.append(
                ToolObservation(
                    tool="web_search",
                    arguments={"query": q},
                    result=f"{len(hits)} hits; best: {ranked[0].url if ranked else '-'}",
                )
            )
            for h, sc in zip(ranked, scores, strict=True):
                score_of[h.url] = max(score_of.get(h.url, sc), sc)
            for h, sc, pl in list(zip(ranked, scores, plain, strict=True))[: self.budget.seeds_per_query]:
                if d.clearly_weaker(sc, scores) and d.clearly_weaker(pl, plain):
                    continue  # clearly weaker than the best hit: another entity, another year
                if h.url not in {c.url for c in chosen}:
                    chosen.append(h)
            for h, sc in zip(ranked, scores, strict=True):
                if scores and sc >= scores[0] - 1e-6 and h.url not in {c.url for c in chosen + ties}:
                    ties.append(h)  # as good as this query's best: another site that may answer
        seen_sites = {site_of(_Url(h.url)) for h in chosen}
        for h in ties:
            site = site_of(_Url(h.url))
            if site not in seen_sites:
                seen_sites.add(site)
                chosen.append(h)
        order = {h.url: i for i, h in enumerate(chosen)}
        chosen.sort(key=lambda h: (-round(score_of.get(h.url, 0.0), 6), order[h.url]))
        chosen = self._named_site(plan, chosen, ev) or self._note_ties(plan, chosen, score_of, ev)
        for h in chosen:
            if base and urlsplit(h.url).netloc == urlsplit(base).netloc:
                self.fetcher.allow_host(h.url)  # results served by the configured (trusted) index host
        return chosen[: self.budget.max_seeds]

    def _named_site(self, plan: ParsedInstruction, chosen: list[SearchHit], ev: Evidence) -> list[SearchHit]:
        """The hits of the site the request names (their title or host carries the name,
        ``discovery.names_site``): only those are visited, another site's table is not the one asked
        for. [] when the request names no site; all hits (with a note) when none carries the name."""
        from prefect_autodata.agents import sites
        from prefect_autodata.agents.ranking import site_of

        names = [*sites.site_names(plan), *sites.site_hosts(plan)]
        if not names:
            return []
        by_url: dict[str, SearchHit] = {}
        for h in [*chosen, *ev.search]:
            by_url.setdefault(h.url, h)
        pool = list(by_url.values())
        named = [h for h in pool if d.names_site(plan, h.title, h.url) > 0]
        wanted = ", ".join(repr(n) for n in names)
        if not named:
            note = f"search: no result's title or host names {wanted}; the sites found may not be it"
            ev.notes.append(note)
            self.log(note)
            return chosen
        named.sort(key=lambda h: -d.names_site(plan, h.title, h.url))
        keep = {site_of(_Url(h.url)) for h in named}
        others = sorted({site_of(_Url(h.url)) for h in pool} - keep)
        note = (
            f"search: the request names {wanted}: visiting {', '.join(sorted(keep))} (title/host carry the "
            f"name); {len(others)} other site(s) of the same records left out"
            + (f" ({', '.join(others[:6])})" if others else "")
        )
        ev.notes.append(note)
        self.log(note)
        return [h for h in named if site_of(_Url(h.url)) in keep][: self.budget.max_seeds]

    def _note_ties(
        self, plan: ParsedInstruction, chosen: list[SearchHit], score_of: dict[str, float], ev: Evidence
    ) -> list[SearchHit]:
        """Say so when results of several sites tie for a request that names no site: which ones, and
        why the first is visited first (the engineering loop measures them against each other)."""
        from prefect_autodata.agents.ranking import site_of

        if not chosen:
            return chosen
        top = round(score_of.get(chosen[0].url, 0.0), 6)
        tied = [h for h in chosen if round(score_of.get(h.url, 0.0), 6) == top]
        sites_tied = list(dict.fromkeys(site_of(_Url(h.url)) for h in tied))
        if len(sites_tied) > 1:
            note = (
                f"search: {len(sites_tied)} sites' results agree equally with the request (score {top:.2f}: "
                f"{', '.join(sites_tied[:6])}); the request names no site, so {sites_tied[0]} is first by "
                "search rank and the tables are measured against each other; name the site or give --source"
            )
            ev.notes.append(note)
            self.log(note)
        return chosen

    # ------------------------------------------------------------------------------------------ pages

    def _visit(
        self, url: str, via: str, depth: int, ev: Evidence
    ) -> tuple[Page | None, list[Link], list[str]]:
        try:
            resp = self.fetcher.get(url)
        except AutoDataError as exc:
            status = getattr(exc, "status", 0) or 0
            ev.notes.append(f"could not read {url}: {exc}")
            return (
                Page(url=url, final_url=url, status=status, found_via=via, depth=depth, error=str(exc)),
                [],
                [],
            )
        fmt = sniff_format(resp.content, resp.content_type, resp.final_url)
        if fmt in ("json", "csv", "xlsx"):
            page = self._data_page(resp, fmt, via, depth)
            if fmt == "json":
                try:
                    obj = json.loads(resp.text)
                except ValueError:
                    obj = None
                if apidocs.is_openapi(obj):
                    self._api_docs[resp.final_url] = apidocs.read_openapi(obj, resp.final_url)
            return page, [], []
        if fmt != "html":
            conv = convert_file(resp.content, content_type=resp.content_type, url=resp.final_url)
            cid = self.store(conv.text, kind="text", summary=f"{resp.final_url} ({conv.source_format} text)")
            kind: PageKind = "text" if conv.source_format in ("pdf", "text") else "other"
            return (
                Page(
                    url=url,
                    final_url=resp.final_url,
                    status=resp.status,
                    content_type=resp.content_type,
                    kind=kind,
                    cache_id=cid,
                    text_excerpt=conv.text[:2000],
                    found_via=via,
                    depth=depth,
                ),
                [],
                [],
            )
        html = resp.text
        cid = self.store(html, kind="html", summary=f"{resp.final_url} (HTML)", media_type="text/html")
        page, links, scripts = self._html_page(
            url, resp.final_url, resp.status, resp.content_type, html, cid, via, depth, ev
        )
        if self._wants_browser(page, scripts):
            rendered = self._render(resp.final_url, via, depth, ev)
            if rendered is not None:
                ev.candidates.append(page)  # keep the raw shell too: its scripts name the API
                return rendered[0], rendered[1], rendered[2]
        return page, links, scripts

    def _html_page(
        self,
        url: str,
        final_url: str,
        status: int,
        ctype: str,
        html: str,
        cid: str,
        via: str,
        depth: int,
        ev: Evidence,
        rendered: bool = False,
        xhr: list[CapturedXHR] | None = None,
    ) -> tuple[Page, list[Link], list[str]]:
        clean = clean_html(html, final_url)
        if not rendered:
            docs = apidocs.read_api_docs(html, final_url)
            # words of the page as separate words (the clean text runs table cells together)
            words = clean.title + " " + apidocs.page_text(html)[:3000]
            if docs.endpoints and (docs.auth or d.is_docs_text(words)):
                self._api_docs[final_url] = docs
        if clean.hidden_removed:
            ev.notes.append(f"{final_url}: ignored {clean.hidden_removed} hidden element(s)")
        doc = parse_html(html)
        scripts = d.inline_scripts(doc)
        eps = d.script_endpoints(scripts, final_url)
        rows = max((len(t.findall(".//tr")) - 1 for t in doc.iter("table")), default=0)
        groups = d.repeated_links(clean.links, final_url)
        count = max(rows, len(groups[0]) if groups else 0)
        page = Page(
            url=url,
            final_url=final_url,
            status=status,
            content_type=ctype,
            kind="html",
            cache_id=cid,
            title=clean.title,
            text_excerpt=clean.text[:2000],
            links=clean.links[:400],
            scripts_endpoints=eps,
            xhr=xhr or [],
            rendered=rendered,
            found_via=via,  # type: ignore[arg-type]
            depth=depth,
            record_count=count or None,
        )
        return page, clean.links, scripts

    def _data_page(self, resp: Any, fmt: str, via: str, depth: int) -> Page:
        if fmt == "json":
            cid = self.store(
                resp.text, kind="json", summary=f"{resp.final_url} (JSON)", media_type="application/json"
            )
            try:
                _p, n, _f = d.find_records(jsonrec.loads(resp.text))
            except ValueError:
                n = 0
            kind: PageKind = "json"
        else:
            conv = convert_file(resp.content, content_type=resp.content_type, url=resp.final_url)
            cid = self.store(
                conv.text,
                kind="csv",
                summary=f"{resp.final_url} ({conv.source_format} as CSV)",
                media_type="text/csv",
            )
            n, kind = len(conv.records or []), "csv"
        return Page(
            url=resp.url,
            final_url=resp.final_url,
            status=resp.status,
            content_type=resp.content_type,
            kind=kind,
            cache_id=cid,
            found_via=via,
            depth=depth,
            record_count=n,
        )  # type: ignore[arg-type]

    def _wants_browser(self, page: Page, scripts: list[str]) -> bool:
        mode = self.budget.browser
        if mode == "never" or not d.loads_data_with_js(scripts):
            return False
        if mode == "always":
            return True
        return not page.scripts_endpoints and (page.record_count or 0) < 3

    def _render(
        self, url: str, via: str, depth: int, ev: Evidence
    ) -> tuple[Page, list[Link], list[str]] | None:
        try:
            if self._browser is None:
                from prefect_autodata.runtime.browser import BrowserSession

                self._browser = BrowserSession(self.fetcher).__enter__()
            rp = self._browser.render(url, timeout_s=self.budget.render_timeout_s, scroll_steps=2)
        except AutoDataError as exc:
            ev.notes.append(f"browser could not render {url}: {exc}")
            return None
        xhr: list[CapturedXHR] = []
        for x in rp.xhr:
            xcid = None
            if x.body_text:
                xcid = self.store(
                    x.body_text,
                    kind="json" if "json" in x.content_type else "text",
                    summary=f"XHR {x.method} {x.url}",
                )
            xhr.append(
                CapturedXHR(
                    url=x.url,
                    method=x.method,
                    status=x.status,
                    content_type=x.content_type,
                    cache_id=xcid,
                    post_data=x.post_data,
                )
            )
        cid = self.store(
            rp.html, kind="html", summary=f"{rp.final_url} (rendered DOM)", media_type="text/html"
        )
        self.observations.append(
            ToolObservation(
                tool="browser_render", arguments={"url": url}, result=f"{len(xhr)} XHR captured", cache_id=cid
            )
        )
        return self._html_page(
            url,
            rp.final_url,
            rp.status or 200,
            "text/html",
            rp.html,
            cid,
            via,
            depth,
            ev,
            rendered=True,
            xhr=xhr,
        )

    # ------------------------------------------------------------------------------------------ endpoints

    def _endpoints(
        self, found: list[tuple[str, str, str | None, dict[str, str]]], ev: Evidence, plan: ParsedInstruction
    ) -> None:
        seen: set[str] = set()
        for url, via, source, headers in found:
            if len(ev.endpoints) >= self.budget.max_endpoints:
                break
            key = f"{url} {sorted(headers.items())}"  # the same URL with a documented key is another try
            if key in seen:
                continue
            seen.add(key)
            ep = self._endpoint(url, via, source, headers, ev, plan)
            if ep is not None:
                ev.endpoints.append(ep)
        ev.endpoints.sort(key=lambda e: -(e.record_count or 0) if e.record_count else 1)

    def _get_like_page(
        self, url: str, source: str | None, extra: dict[str, str] | None = None
    ) -> tuple[Any, dict[str, str]]:
        """Fetch an API URL; if refused, retry as the page's own script would call it (Referer, browser UA).

        ``extra``: headers the documentation says every request needs (an API key)."""
        try:
            hdrs = {"Accept": "application/json, text/csv, */*", **(extra or {})}
            return self.fetcher.get(url, headers=hdrs), {}
        except FetchError as exc:
            if source is None or getattr(exc, "status", None) not in (401, 403, 406):
                raise
        origin = "{0.scheme}://{0.netloc}".format(urlsplit(source))
        headers = {
            "Referer": source,
            "Origin": origin,
            "User-Agent": BROWSER_UA,
            "Accept": "application/json",
            **(extra or {}),
        }
        return self.fetcher.get(url, headers=headers), {
            "Referer": source,
            "Origin": origin,
            "User-Agent": BROWSER_UA,
        }

    def _endpoint(
        self,
        url: str,
        via: str,
        source: str | None,
        headers: dict[str, str],
        ev: Evidence,
        plan: ParsedInstruction,
    ) -> Endpoint | None:
        try:
            resp, used = self._get_like_page(url, source, headers)
        except AutoDataError as exc:
            ev.notes.append(f"endpoint {url} unusable: {exc}")
            self.observations.append(
                ToolObservation(tool="probe_endpoint", arguments={"url": url}, result=f"failed: {exc}"[:300])
            )
            return None
        fmt = sniff_format(resp.content, resp.content_type, resp.final_url)
        if fmt == "json":
            try:
                obj = jsonrec.loads(resp.text)
            except ValueError:
                ev.notes.append(f"endpoint {url} answered invalid JSON")
                return None
            if apidocs.is_openapi(obj):  # a description of the API, not its data: read it as docs
                self._api_docs.setdefault(resp.final_url, apidocs.read_openapi(obj, resp.final_url))
                return None
            path, n, fields = d.find_records(obj)
            if not n:  # shapes the simple finder misses (rows with a header list kept beside them, keyed ids)
                from prefect_autodata.agents.induction.jsonsets import json_record_sets

                sets = json_record_sets(obj)
                if sets and sets[0].count:
                    path, n = sets[0].path, sets[0].count
                    fields = [str(v) for v in sets[0].labels.values()]
            cid = self.store(
                resp.text,
                kind="json",
                summary=f"{resp.final_url} (JSON sample, {n} records)",
                media_type="application/json",
            )
            pag = d.json_pagination(resp.final_url, obj)
            kind: PageKind = "json"
        elif fmt in ("csv", "xlsx"):
            conv = convert_file(resp.content, content_type=resp.content_type, url=resp.final_url)
            cid = self.store(
                conv.text, kind="csv", summary=f"{resp.final_url} (CSV sample)", media_type="text/csv"
            )
            path, n, fields, pag, kind = None, len(conv.records or []), conv.headers, None, "csv"
        else:
            return None
        template, params = url_template(resp.final_url, plan)
        self.observations.append(
            ToolObservation(
                tool="probe_endpoint",
                arguments={"url": url},
                result=f"{kind}: {n} records at {path!r}",
                cache_id=cid,
            )
        )
        return Endpoint(
            url_template=template,
            params=params,
            example_url=resp.final_url,
            sample_cache_id=cid,
            content_type=resp.content_type,
            kind=kind,
            record_path_hint=path,
            record_count=n,
            fields=fields[:200],
            found_via=via,
            source_page=source,  # type: ignore[arg-type]
            headers={**headers, **used},
            pagination=pag,
            status=resp.status,
        )

    def _switch_enumerated(self, ep: Endpoint, ev: Evidence, plan: ParsedInstruction) -> Endpoint:
        """An endpoint whose sample lacks target fields, with a parameter the pages' links switch between
        a few word values (tabs: ``stats=bat|pit|fld``): probe those values, keep the best-covering one.

        Values are tried in order of how strongly the links carrying them speak about the plan
        ("Pitching" for a pitching request); a value is adopted only if its sample covers more fields.
        """
        targets = list(plan.field_names)
        if ep.kind != "json" or not targets or self.budget.max_switch_probes <= 0:
            return ep
        best_cov = _coverage(targets, ep.fields)
        if best_cov >= len(targets):
            return ep
        current = dict(parse_qsl(urlsplit(ep.example_url).query, keep_blank_values=True))
        terms = d.plan_terms(plan)
        host = urlsplit(ep.example_url).netloc
        alts: dict[tuple[str, str], float] = {}
        for page in ev.candidates:
            for link in page.links:
                u = urlsplit(link.url)
                if u.netloc != host:
                    continue
                for k, v in parse_qsl(u.query):
                    if k in current and v != current[k] and _WORD_VALUE.fullmatch(v):
                        rel = d.relevance(link.text, "", terms)
                        alts[(k, v)] = max(alts.get((k, v), -99.0), rel)
        if not alts:
            return ep
        best: Endpoint | None = None
        tried = 0
        for (k, v), _rel in sorted(alts.items(), key=lambda kv: -kv[1])[: self.budget.max_switch_probes]:
            tried += 1
            url = _with_param(ep.example_url, k, v)
            try:
                resp = self.fetcher.get(url, headers=ep.headers or None)
                obj = json.loads(resp.text)
            except (AutoDataError, ValueError) as exc:
                ev.notes.append(f"probe {k}={v} on {ep.example_url} failed: {exc}"[:300])
                continue
            path, n, fields = d.find_records(obj)
            cov = _coverage(targets, fields)
            self.observations.append(
                ToolObservation(
                    tool="probe_params",
                    arguments={"url": ep.example_url, "param": k, "value": v},
                    result=f"{n} records, {cov}/{len(targets)} target fields",
                )
            )
            if n and cov > best_cov:
                cid = self.store(
                    resp.text,
                    kind="json",
                    summary=f"{resp.final_url} (JSON sample, {n} records)",
                    media_type="application/json",
                )
                template, params = url_template(resp.final_url, plan)
                best_cov = cov
                best = ep.model_copy(
                    update={
                        "url_template": template,
                        "params": params,
                        "example_url": resp.final_url,
                        "sample_cache_id": cid,
                        "record_path_hint": path,
                        "record_count": n,
                        "fields": fields[:200],
                        "pagination": d.json_pagination(resp.final_url, obj) or ep.pagination,
                    }
                )
                ev.notes.append(f"{ep.example_url}: {k}={v} covers {cov}/{len(targets)} target fields")
        left = self.budget.max_switch_probes - tried
        self.budget = self.budget.model_copy(update={"max_switch_probes": left})
        return best or ep

    def _probe(self, ep: Endpoint, ev: Evidence, plan: ParsedInstruction) -> None:
        """Try the plan's own values in year/season/date parameters: which does the server accept?"""
        budget = self.budget.max_probes
        for name, value in list(ep.params.items()):
            variants = _plan_values(value, plan)
            if not variants:
                continue
            rng = ParamRange(name=name, accepted=[value])
            for v in variants[:2]:
                if budget <= 0 or v == value:
                    continue
                budget -= 1
                u = _with_param(ep.example_url, name, v)
                try:
                    resp = self.fetcher.get(u, headers=ep.headers or None)
                    _p, n, _f = (
                        d.find_records(json.loads(resp.text)) if "json" in resp.content_type else (0, 1, 0)
                    )
                    (rng.accepted if n else rng.rejected).append(v)
                except (AutoDataError, ValueError) as exc:
                    rng.rejected.append(v)
                    rng.note = str(exc)[:200]
            ep.param_ranges.append(rng)
            self.observations.append(
                ToolObservation(
                    tool="probe_params",
                    arguments={"url": ep.example_url, "param": name},
                    result=f"accepted {rng.accepted}, rejected {rng.rejected}",
                )
            )
        if budget != self.budget.max_probes:
            self.budget = self.budget.model_copy(update={"max_probes": budget})


# ---------------------------------------------------------------------------------------------- helpers


@dataclass(frozen=True)
class _Url:
    """A URL dressed as a candidate for ``ranking.site_of``."""

    source_url: str


_WORD_VALUE = re.compile(r"[A-Za-z][A-Za-z_-]{1,19}")


def _coverage(targets: list[str], keys: list[str]) -> int:
    """How many target fields some key names (by name; values are not needed to compare samples)."""
    from prefect_autodata.agents.offline.induction import name_score

    return sum(any(name_score(t, k) >= 0.8 for k in keys) for t in targets)


def _with_param(url: str, name: str, value: str) -> str:
    p = urlsplit(url)
    q = [(k, value if k == name else v) for k, v in parse_qsl(p.query, keep_blank_values=True)]
    return urlunsplit((p.scheme, p.netloc, p.path, urlencode(q), ""))


def _plan_values(example: str, plan: ParsedInstruction) -> list[str]:
    """The plan's values written the way ``example`` is written (year, season 'YYYY-YY', ISO date)."""
    years = plan.years or [y for y in (plan.start_year, plan.end_year) if y]
    if re.fullmatch(r"(19|20)\d\d", example) and years:
        return [str(years[0]), str(years[-1])]
    if re.fullmatch(r"(19|20)\d\d-\d\d", example) and years:
        return [d.season_label(years[0]), d.season_label(years[-1])]
    if re.fullmatch(r"\d{4}-\d\d-\d\d", example) and (plan.start_date or plan.dates):
        first = plan.start_date or plan.dates[0]
        last = plan.end_date or plan.dates[-1]
        return [first.isoformat(), last.isoformat()]
    return []


def url_template(url: str, plan: ParsedInstruction) -> tuple[str, dict[str, str]]:
    """``url`` with query values as ``{name}`` placeholders, and path segments naming a plan ticker or
    year as ``{ticker}``/``{year}``; returns (template, name → example value)."""
    p = urlsplit(url)
    params: dict[str, str] = {}
    segs = []
    tickers = {t.lower() for t in plan.tickers}
    for s in p.path.split("/"):
        if s and s.lower() in tickers and "ticker" not in params:
            params["ticker"] = s
            segs.append("{ticker}")
        elif re.fullmatch(r"(19|20)\d\d", s) and "year" not in params:
            params["year"] = s
            segs.append("{year}")
        else:
            segs.append(s)
    q = []
    for k, v in parse_qsl(p.query, keep_blank_values=True):
        params.setdefault(k, v)
        q.append(f"{k}={{{k}}}")
    base = urlunsplit((p.scheme, p.netloc, "/".join(segs), "", ""))
    return (base + ("?" + "&".join(q) if q else "")), params


# ---------------------------------------------------------------------------------------------- messages


def store_evidence(ev: Evidence, store: Store) -> str:
    """Cache the whole bundle (JSON) and return its ID: messages carry the ID, never the bundle."""
    summary = f"evidence: {len(ev.candidates)} pages, {len(ev.endpoints)} endpoints"
    return store(ev.model_dump_json(), kind="json", summary=summary, media_type="application/json")


def load_evidence(text: str) -> Evidence:
    return Evidence.model_validate_json(text)


def web_message(ev: Evidence, evidence_id: str | None = None) -> WebMessage:
    """The web agent's message: one finding per page, endpoints as candidate sources; bodies by cache ID."""
    pages = [
        PageFinding(
            url=p.final_url,
            status=p.status,
            title=p.title[:120],
            cache_id=p.cache_id,
            summary=(
                f"{p.kind}{' rendered' if p.rendered else ''}, {p.record_count or 0} records, "
                f"{len(p.scripts_endpoints) + len(p.xhr)} API refs"
                if not p.error
                else p.error
            )[:300],
        )
        for p in ev.candidates
    ] or [PageFinding(url="about:blank", status=0, summary="no page could be read")]
    sources = [e.example_url for e in ev.endpoints] + [p.final_url for p in ev.ok_pages() if p.kind == "html"]
    arts = [evidence_id] if evidence_id else []
    arts += [p.cache_id for p in ev.candidates if p.cache_id]
    return WebMessage(
        pages=pages,
        candidate_sources=sources[:20],
        notes="; ".join(ev.notes)[-1500:],
        artifacts=list(dict.fromkeys(arts)),
    )


def tool_message(agent: WebAgent, ev: Evidence) -> ToolMessage:
    """The tool agent's message: search queries, endpoint and parameter probes the discovery ran."""
    obs = agent.observations or [ToolObservation(tool="none", result="no tool calls were needed")]
    eps = [
        f"{e.kind} {e.url_template} ({e.record_count} records at {e.record_path_hint!r})"
        for e in ev.endpoints
    ]
    return ToolMessage(
        observations=obs[:40],
        findings="; ".join(eps)[:1500],
        artifacts=[e.sample_cache_id for e in ev.endpoints if e.sample_cache_id],
    )

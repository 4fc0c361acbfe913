"""Legacy listing inducer, part 4: navigation from the pages the web agent saw to the listing.

Which observed page is the listing (or links to it: section links, a sub-listing, a scripted page
rendered in the browser), tried in order and scored by how well its scope fits the request; the entry
point ``induce_listings`` returns the candidates the engineering agent ranks.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urljoin, urlsplit

from prefect_autodata.agents.evidence import Evidence, Page
from prefect_autodata.agents.evidence import read_cached as _read
from prefect_autodata.agents.offline.listings.fields import _DOC_EXT
from prefect_autodata.agents.offline.listings.regions import (
    _YEAR,
    _alias_in,
    _eval,
    _get,
    _parse,
    _text,
    _venue_aliases,
    find_regions,
    record_years,
)
from prefect_autodata.agents.offline.listings.spec import ListingInduction, induce_listing, listing_spec
from prefect_autodata.agents.request import Request as ParsedInstruction

_GENERIC_TRACK_WORDS = {"track", "paper", "papers", "conference", "main", "the", "and"}


def _scope_fit(ind: ListingInduction, plan: ParsedInstruction) -> float:
    """0..0.3: how well the listing's records match the requested track (or, with none, its size).

    With a track asked for, a listing whose records show that track (sampled values) and that is one
    section (one proceedings title) wins over a page mixing several tracks; without one, the listing
    holding more records wins ties (an event page over one of its volumes).
    """
    if not plan.track:
        return min(ind.region.count, 100_000) / 1_000_000
    want = plan.track.lower()
    conf = ind.listing.get("CONFERENCE")
    sections = {v for v in (conf.values if conf else []) if v}
    tracks = [str(v).lower() for v in ind.track_values if v]
    if tracks:
        match = sum(t == want for t in tracks) / len(tracks)
    else:
        words = [w for w in re.findall(r"[a-z]+", want) if w not in _GENERIC_TRACK_WORDS]
        match = (
            sum(all(w in v.lower() for w in words) for v in sections) / len(sections)
            if words and sections
            else 0.0
        )
    return 0.3 * match if len(sections) <= 1 else 0.1 * match


def _section_links(ind: ListingInduction, limit: int = 6) -> list[str]:
    """Links in the section headings of a listing that mixes sections (their own listing pages)."""
    conf = ind.listing.get("CONFERENCE")
    if conf is None or len({v for v in conf.values if v}) <= 1:
        return []
    out: list[str] = []
    for it in ind.region.items:
        for node in _eval(conf.rule.xpath, it)[:1]:
            a = node if node.tag == "a" else next(iter(node.iter("a")), None)
            href = (a.get("href") or "").strip() if a is not None else ""
            if href and not href.startswith("#"):
                url = urljoin(ind.page_url, href)
                if url not in out:
                    out.append(url)
    return out[:limit]


def _try(
    page: Page, body: str, plan: ParsedInstruction, evidence: Evidence, reader: Any, fetcher: Any
) -> ListingInduction | None:
    try:
        ind = induce_listing(page, plan, body=body, evidence=evidence, reader=reader, fetcher=fetcher)
    except ValueError:
        return None
    if ind is None or (ind.year_values is not None and not ind.year_values):
        return None
    return ind


def _scripted(page: Page, evidence: Evidence) -> bool:
    """The page called data endpoints from script (its list is built in the browser)."""
    here = {page.url, page.final_url}
    return bool(page.xhr or page.scripts_endpoints) or any(e.source_page in here for e in evidence.endpoints)


def _render(url: str, fetcher: Any) -> str | None:
    try:
        from prefect_autodata.runtime.browser import BrowserSession

        with BrowserSession(fetcher=fetcher) as browser:
            return browser.render(url).html
    except Exception:  # no browser here, or the page would not render: the page is not used
        return None


def _headline(root: Any) -> str:
    parts = [_text(n) for n in root.xpath("//title | //h1 | //h2 | //h3 | //h4")[:40]]
    return " ".join(parts)


def _venue_hit(text: str, plan: ParsedInstruction) -> bool:
    if not plan.venue:
        return True
    toks = set(re.findall(r"[a-z]+|\d+", text.lower()))  # "ICCV2021" -> iccv, 2021
    return plan.venue.abbr.lower() in toks or _alias_in(text, _venue_aliases(plan)) is not None


def _about_venue(body: str, plan: ParsedInstruction) -> bool:
    """Does the page's title/headings name the requested venue (a listing of *that* venue)?"""
    root = _parse(body)
    return root is not None and _venue_hit(_headline(root), plan)


def _navigate(
    evidence: Evidence, plan: ParsedInstruction, reader: Any, fetcher: Any, *, max_fetch: int = 12
) -> list[tuple[Page, str]]:
    """Listings reached from the observed pages' links that name the venue (and a requested year).

    A link is judged by its URL words, its text and the text around it (a row of an index); links
    naming venue and year come first. A page that is itself an index of sub-listings (days, parts)
    is followed one level down to the sub-listing holding the most records.
    """
    scored: dict[str, float] = {}
    for page in evidence.ok_pages():
        if page.kind != "html":
            continue
        root = _parse(_read(reader, page.cache_id))
        if root is None:
            continue
        base = page.final_url or page.url
        for a in root.iter("a"):
            href = (a.get("href") or "").strip()
            if not href or href.startswith(("#", "javascript:", "mailto:")):
                continue
            url = urljoin(base, href)
            if urlsplit(url).netloc != urlsplit(base).netloc or _DOC_EXT.search(urlsplit(url).path):
                continue
            parent = a.getparent()
            ctx = _text(parent) if parent is not None and len(_text(parent)) <= 300 else _text(a)
            words = f"{urlsplit(url).path} {urlsplit(url).query} {ctx}"
            venue = _venue_hit(words, plan)
            year = any(str(y) in words for y in plan.years) if plan.years else True
            if venue:
                scored[url] = max(scored.get(url, 0), 2.0 + (2.0 if year else 0.0))
    seen = {p.final_url for p in evidence.candidates} | {p.url for p in evidence.candidates}
    out: list[tuple[Page, str]] = []
    for url in sorted(scored, key=lambda u: -scored[u])[:max_fetch]:
        if url in seen:
            continue
        body = _get(fetcher, url)
        root = _parse(body)
        if root is None:
            continue
        regions = find_regions(root, url)
        shown = record_years(regions[0]) if regions and regions[0].count >= 20 else set()
        if plan.years and shown and not shown & set(plan.years) and not _YEAR.search(url):
            continue  # a listing of another year, and no year in its URL to move to the requested one
        if not regions or regions[0].count < 20:
            sub = _best_sublisting(root, url, fetcher)
            if sub is not None:
                url, body = sub
        out.append((Page(url=url, final_url=url, status=200, kind="html", found_via="link"), body))
        if len(out) >= 2:
            break
    return out


def _best_sublisting(root: Any, url: str, fetcher: Any) -> tuple[str, str] | None:
    """Of the links refining this URL (``?day=...``, ``/part-2``), the page with the most records."""
    best = None
    here = urlsplit(url)
    links = []
    for a in root.iter("a"):
        u = urljoin(url, (a.get("href") or "").strip())
        p = urlsplit(u)
        if (
            u != url
            and p.netloc == here.netloc
            and p.path.startswith(here.path.rstrip("/"))
            and not _DOC_EXT.search(p.path)
        ):
            links.append(u)
    for u in list(dict.fromkeys(links))[:6]:
        body = _get(fetcher, u)
        r = _parse(body)
        regs = find_regions(r, u) if r is not None else []
        n = regs[0].count if regs else 0
        if n and (best is None or n > best[0]):
            best = (n, u, body)
    return (best[1], best[2]) if best else None


def induce_listings(
    evidence: Evidence,
    plan: ParsedInstruction | None = None,
    *,
    reader: Any = None,
    fetcher: Any = None,
    name: str | None = None,
) -> list[Any]:
    """Candidate specs (``engineering.CandidateSpec``) for every listing page in the evidence, best first."""
    from prefect_autodata.agents.candidates import CandidateSpec
    from prefect_autodata.agents.naming import default_name

    plan = plan or evidence.plan
    targets = list(plan.field_names)
    out = []
    pages: list[tuple[Page, str]] = []
    for page in evidence.ok_pages():
        if page.kind != "html" or (page.record_count is not None and page.record_count < 2):
            continue
        body = _read(reader, page.cache_id)
        if body and _about_venue(body, plan):
            pages.append((page, body))
    inds = [ind for page, body in pages if (ind := _try(page, body, plan, evidence, reader, fetcher))]
    if not inds and fetcher is not None:  # a page that fills its list by script: read the rendered DOM
        for page, _body in pages:
            if page.rendered or not _scripted(page, evidence):
                continue
            html = _render(page.final_url or page.url, fetcher)
            done = page.model_copy(update={"rendered": True})
            if html and (ind := _try(done, html, plan, evidence, reader, fetcher)):
                inds.append(ind)
                break
    if not inds and fetcher is not None:  # the listings seen are about something else: navigate
        for page, body in _navigate(evidence, plan, reader, fetcher):
            if ind := _try(page, body, plan, evidence, reader, fetcher):
                inds.append(ind)
                break
    if plan.track and fetcher is not None and inds:  # a page mixing tracks: try each section's own page
        seen_urls = {i.page_url for i in inds}
        for ind in list(inds):
            for url in _section_links(ind):
                if url in seen_urls:
                    continue
                seen_urls.add(url)
                body = _get(fetcher, url)
                page = Page(url=url, final_url=url, status=200, kind="html", found_via="link")
                if body and (sub := _try(page, body, plan, evidence, reader, fetcher)):
                    inds.append(sub)
    for ind in inds:
        try:
            spec = listing_spec(ind, plan, name=name or default_name(plan))
        except ValueError:
            continue
        covered = [r.name for r in spec.sources[0].fields if r.name in targets]
        covered += [r.name for r in (spec.sources[0].detail.fields if spec.sources[0].detail else [])]
        missing = [t for t in targets if t not in covered]
        n = ind.region.count
        exp = plan.expected_size.rows if plan.expected_size else None
        fit = 0.5 if not exp else (1.0 if 0.5 <= n / exp <= 2 else 0.6)
        score = 1.2 + len(covered) / max(1, len(targets)) + 0.3 * fit + _scope_fit(ind, plan)
        why = (
            f"listing {ind.records_xpath} ({n} records) on {ind.page_url}; "
            f"{len(covered)}/{len(targets)} fields"
            + (f" ({len(ind.detail)} from detail pages)" if spec.sources[0].detail else "")
            + (f"; missing {', '.join(missing)}" if missing else "")
            + ("; " + "; ".join(ind.notes) if ind.notes else "")
        )
        out.append(
            CandidateSpec(
                spec=spec,
                method="html",
                source_url=ind.page_url,
                score=round(score, 4),
                covered=covered,
                missing=missing,
                rationale=why,
                sample_rows=n,
            )
        )
    out.sort(key=lambda c: -c.score)
    return out

"""BaRA's bounded BFS crawler: width W, depth D, page budget P, reflection rounds A.

Breadth-first in DOM order, same-site, excluding login/privacy/terms pages and binary endpoints, skipping the
children of pages that answer >= 400, guarding against traps (endless calendars: URL families that keep
generating themselves or repeat the same content), and retrying with adjusted bounds when a round is
incomplete. Pages are fetched concurrently, but results are processed in submission order so the crawl is
deterministic.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter, deque
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from urllib.parse import urljoin, urlsplit

from lxml import etree
from lxml import html as lxml_html

from prefect_autodata.errors import AutoDataError, FetchError, TransientError
from prefect_autodata.runtime.fetch import Fetcher, FetchResponse
from prefect_autodata.runtime.media import MediaItem, extract_media
from prefect_autodata.runtime.policy import CrawlPolicy
from prefect_autodata.runtime.urlnorm import family_key, in_site, is_binary_url, normalize_url, site_root_of

_TRAP_REPEATS = 3  # same (digit-stripped) content this many times within a self-generating family = trap
_DIGITS = re.compile(r"\d+")
# Hidden elements are honeypots (links) or noise (text a person never sees); both are ignored.
_HIDDEN = (
    "ancestor-or-self::*[@hidden or @aria-hidden='true' or "
    "contains(translate(@style, ' ', ''), 'display:none') or "
    "contains(translate(@style, ' ', ''), 'visibility:hidden')]"
)
_VISIBLE_HREFS = etree.XPath(f"(//a|//area)[@href][not({_HIDDEN})]/@href")
_VISIBLE_TEXT = etree.XPath(
    f".//text()[not(ancestor::script or ancestor::style or ancestor::noscript)][not({_HIDDEN})]"
)


@dataclass
class Visit:
    url: str
    depth: int
    status: int | None
    parent: str | None
    title: str = ""
    error: str | None = None
    trap: bool = False
    fetched_at: datetime | None = None
    html: str | None = field(default=None, repr=False)  # kept when bfs_crawl(keep_html=True)


@dataclass
class CrawlRound:
    """One reflection round: the bounds used, what came back, how it was judged and what changes next."""

    attempt: int
    width: int
    depth: int
    pages: int
    concurrency: int
    pages_ok: int
    pages_failed: int
    failure: str | None = None
    action: str | None = None


@dataclass
class CrawlResult:
    start_url: str
    site_root: str
    pages: list[Visit] = field(default_factory=list)
    links: list[str] = field(default_factory=list)
    media: list[MediaItem] = field(default_factory=list)
    skipped: dict[str, int] = field(default_factory=dict)
    rounds: list[CrawlRound] = field(default_factory=list)
    traps: list[str] = field(default_factory=list)

    @property
    def html_by_url(self) -> dict[str, str]:
        """HTML of every content page kept (traps excluded), for extraction and media verification."""
        return {v.url: v.html for v in self.pages if v.html is not None and not v.trap}

    @property
    def pages_ok(self) -> int:
        return sum(1 for v in self.pages if v.status is not None and 200 <= v.status < 300)

    @property
    def budget_left(self) -> int:
        """Pages discovered but not visited because the page budget ran out (the crawl's page cap)."""
        return int(self.skipped.get("budget", 0))

    def failed_pages(self) -> list[tuple[str, str]]:
        """(url, reason) of every page that failed: a fetch error or an HTTP status of 400 or more."""
        out = []
        for v in self.pages:
            if v.error:
                out.append((v.url, v.error))
            elif v.status is not None and v.status >= 400:
                out.append((v.url, f"HTTP {v.status}"))
        return out


_PARSERS: dict[str, etree.HTMLParser] = {}


def _parse(resp: FetchResponse) -> lxml_html.HtmlElement | None:
    """Parse bytes with the detected encoding (lxml is faster on bytes than on str)."""
    enc = (resp.encoding or "utf-8").replace("-sig", "")
    parser = _PARSERS.get(enc)
    if parser is None:
        try:
            parser = _PARSERS[enc] = etree.HTMLParser(encoding=enc)
        except LookupError:
            parser = _PARSERS.setdefault("utf-8", etree.HTMLParser(encoding="utf-8"))
    try:
        root = etree.fromstring(resp.content, parser)
    except (etree.ParserError, ValueError):
        return None
    return root


def _links_in_order(root: etree._Element, page_url: str) -> list[str]:
    base = page_url
    for b in root.iterfind(".//base[@href]"):
        base = urljoin(page_url, b.get("href"))
        break
    return [urljoin(base, h.strip()) for h in _VISIBLE_HREFS(root) if h and h.strip()]


def _visible_text(root: etree._Element) -> str:
    body = root.find(".//body")
    return " ".join(" ".join(_VISIBLE_TEXT(body if body is not None else root)).split())


def _content_signature(root: etree._Element, url: str) -> str:
    """Hash of the page text with the numbers from its own URL blanked out.

    Calendar months differ only in the date their URL carries, so they collide; season pages of a stats
    site differ in their figures, so they do not."""
    text = _visible_text(root)
    parts = urlsplit(url)
    tokens = {int(t) for t in _DIGITS.findall(parts.path + "?" + parts.query)}
    text = _DIGITS.sub(lambda m: "#" if int(m.group()) in tokens else m.group(), text)
    return hashlib.sha1(text.encode()).hexdigest()


class _Crawl:
    """One BFS round (state kept on an object so helpers stay small)."""

    def __init__(self, start: str, fetcher: Fetcher, policy: CrawlPolicy, root: str, keep_html: bool) -> None:
        self.start = start
        self.fetcher = fetcher
        self.policy = policy
        self.root = root
        self.keep_html = keep_html
        self.exclude = [re.compile(p, re.I) for p in policy.exclude]
        self.result = CrawlResult(start_url=start, site_root=root)
        self.skipped: Counter[str] = Counter()
        self.family_self: Counter[str] = Counter()
        self.family_sigs: dict[str, Counter[str]] = {}
        self.traps: set[str] = set()
        self.capped: set[str] = set()
        self.transient = 0
        self.terminal = 0

    def _admit(self, url: str, key: str, seen: set[str]) -> bool:
        """Filter a discovered link (``key``: its identity form); counts the reason when it is dropped."""
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https"):
            self.skipped["not-http"] += 1
            return False
        if key in seen:
            self.skipped["seen"] += 1
            return False
        if self.policy.same_site and not in_site(url, self.root):
            self.skipped["off-site"] += 1
            return False
        if is_binary_url(url):
            self.skipped["binary"] += 1
            return False
        if any(p.search(url) for p in self.exclude):
            self.skipped["excluded"] += 1
            return False
        fam = family_key(url)
        if fam in self.traps:
            self.skipped["trap"] += 1
            return False
        try:
            self.fetcher.robots_decision(url)
        except FetchError:
            self.skipped["robots"] += 1
            return False
        return True

    def _fetch(self, url: str) -> FetchResponse | AutoDataError:
        try:
            return self.fetcher.get(url)
        except AutoDataError as exc:
            return exc

    def run(self) -> CrawlResult:
        p = self.policy
        seen = {normalize_url(self.start)}
        frontier: deque[tuple[str, int, str | None]] = deque([(self.start, 0, None)])
        inflight: deque[tuple[str, int, str | None, Future]] = deque()
        submitted = 0
        window = max(1, p.concurrency) * 2
        with ThreadPoolExecutor(max(1, p.concurrency), thread_name_prefix="autodata-crawl") as pool:
            while frontier or inflight:
                while frontier and len(inflight) < window and submitted < p.pages:
                    url, depth, parent = frontier.popleft()
                    if family_key(url) in self.traps:
                        self.skipped["trap"] += 1
                        continue
                    if family_key(url) in self.capped and parent and family_key(parent) == family_key(url):
                        self.skipped["family-cap"] += 1
                        continue
                    inflight.append((url, depth, parent, pool.submit(self._fetch, url)))
                    submitted += 1
                if not inflight:
                    break
                url, depth, parent, fut = inflight.popleft()
                self._handle(url, depth, parent, fut.result(), seen, frontier)
        self.skipped["budget"] += len(frontier)
        return self._finish()

    def _handle(
        self,
        url: str,
        depth: int,
        parent: str | None,
        outcome: FetchResponse | AutoDataError,
        seen: set[str],
        frontier: deque,
    ) -> None:
        p = self.policy
        if isinstance(outcome, AutoDataError):
            if isinstance(outcome, TransientError):
                self.transient += 1
            else:
                self.terminal += 1
            status = getattr(outcome, "status", None)
            self.result.pages.append(Visit(url, depth, status, parent, error=str(outcome)))
            return
        resp = outcome
        visit = Visit(url, depth, resp.status, parent, fetched_at=resp.fetched_at)
        self.result.pages.append(visit)
        if resp.status >= 400 or "html" not in resp.content_type:
            return  # BaRA: children of failed pages are skipped; non-HTML has no links
        root = _parse(resp)
        if root is None:
            return
        t = root.find(".//title")
        visit.title = " ".join((t.text or "").split()) if t is not None else ""
        fam = family_key(url)
        parent_fam = family_key(parent) if parent else None
        sigs = self.family_sigs.setdefault(fam, Counter())
        if p.trap_guard:
            sigs[_content_signature(root, url)] += 1
            if parent_fam == fam:
                self.family_self[fam] += 1
                if max(sigs.values()) >= _TRAP_REPEATS:
                    self.traps.add(fam)  # a family re-serving the same page under new URLs: a trap
                    return
                if self.family_self[fam] >= p.max_per_family:
                    self.capped.add(fam)  # keep what we have, follow no more of this chain
        if self.keep_html:
            visit.html = resp.text
        self.result.media.extend(extract_media(root, url))
        if depth >= p.depth:
            return
        taken = 0
        for raw in _links_in_order(root, resp.final_url):
            child = normalize_url(raw, strip_trailing_slash=False)
            key = normalize_url(child)
            if not self._admit(child, key, seen):
                continue
            seen.add(key)
            if taken >= p.width:
                self.skipped["width"] += 1
                continue
            frontier.append((child, depth + 1, url))
            taken += 1

    def _finish(self) -> CrawlResult:
        res = self.result
        for v in res.pages:
            if family_key(v.url) in self.traps:
                v.trap = True
        res.traps = sorted(self.traps)
        res.links = [
            v.url for v in res.pages if v.status is not None and 200 <= v.status < 300 and not v.trap
        ]
        trap_pages = {v.url for v in res.pages if v.trap}
        res.media = [m for m in res.media if m.page_url not in trap_pages]
        for v in res.pages:
            if v.trap:
                v.html = None
        self.skipped["trap"] += len(trap_pages)
        res.skipped = dict(sorted(self.skipped.items()))
        return res


def _reflect(
    res: CrawlResult, crawl: _Crawl, policy: CrawlPolicy
) -> tuple[str | None, str | None, CrawlPolicy]:
    """Judge a round; classify an incomplete one and say how the next round changes (BaRA's reflection)."""
    ok = res.pages_ok
    start = res.pages[0] if res.pages else None
    if start is None or (start.error and not (start.status and start.status < 400)):
        if crawl.transient and start is not None and start.error:
            return "start page failed transiently", "halve concurrency", _slower(policy)
        reason = start.error if start is not None else "nothing fetched"
        return f"start page unusable: {reason}", None, policy
    if start.status is not None and start.status >= 400:
        return f"start page answered HTTP {start.status}", None, policy
    if crawl.transient:
        return f"{crawl.transient} transient failures", "halve concurrency", _slower(policy)
    if ok < policy.pages and crawl.skipped.get("width", 0) > 0 and crawl.skipped.get("budget", 0) == 0:
        return (
            f"frontier exhausted at {ok}/{policy.pages} pages while width dropped links",
            "double width",
            policy.model_copy(update={"width": policy.width * 2}),
        )
    return None, None, policy


def _slower(policy: CrawlPolicy) -> CrawlPolicy:
    return policy.model_copy(update={"concurrency": max(1, policy.concurrency // 2)})


def bfs_crawl(
    start_url: str,
    fetcher: Fetcher,
    policy: CrawlPolicy | None = None,
    *,
    keep_html: bool = True,
) -> CrawlResult:
    """Crawl from ``start_url`` within the policy's bounds; up to ``attempts`` rounds with reflection.

    The start URL is *not* trusted here: it passes the fetcher's address policy like every other page, so
    a start URL derived from a page never reaches a host the user did not name (callers trust the hosts
    the user named when they build the Fetcher). Returns the best round; every round is logged in
    ``result.rounds``."""
    policy = policy or CrawlPolicy()
    start = normalize_url(start_url, strip_trailing_slash=False)
    root = normalize_url(policy.site_root) if policy.site_root else site_root_of(start)
    best: CrawlResult | None = None
    rounds: list[CrawlRound] = []
    current = policy
    for attempt in range(1, policy.attempts + 1):
        crawl = _Crawl(start, fetcher, current, root, keep_html)
        res = crawl.run()
        failure, action, nxt = _reflect(res, crawl, current)
        rounds.append(
            CrawlRound(
                attempt=attempt,
                width=current.width,
                depth=current.depth,
                pages=current.pages,
                concurrency=current.concurrency,
                pages_ok=res.pages_ok,
                pages_failed=len(res.pages) - res.pages_ok,
                failure=failure,
                action=action if attempt < policy.attempts else None,
            )
        )
        if best is None or res.pages_ok > best.pages_ok:
            best = res
        if failure is None or action is None:
            break
        current = nxt
    assert best is not None
    best.rounds = rounds
    return best


crawl = bfs_crawl  # the name the collector runtime imports

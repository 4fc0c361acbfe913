"""Index pages: a listing split over sub-pages reached from an index bar ("Browse by letter: A B C").

Some sites show no records on the entry page, only links to the parts of the listing: one page per
letter, per year, per page number. Each link reads like an index entry (a letter, a number, a year,
``0-9``) and the links' URLs differ in exactly one path segment or query value. The records live on
the sub-pages, so the collector needs two steps: read the index links, then read every sub-page with
the same record rules. Those rules are induced on one sub-page and checked on another.

The spec this yields has an ``index`` source (the links, not landed) whose values fill the
sub-page URL template of the records source (``ParamSpec.from_source``), so a letter or a year the
site adds later is collected too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urljoin, urlsplit, urlunsplit

from prefect_autodata.agents.induction.dom import clean, is_furniture
from prefect_autodata.agents.induction.regions import _INDEX_TEXT, records_xpath
from prefect_autodata.runtime.spec import (
    CollectorSpec,
    FieldRule,
    ParamSpec,
    RequestTemplate,
    Selector,
    Source,
    Transform,
)

PART = "part"
INDEX_SOURCE = "index"
# A sub-page is a listing (a year of papers may be megabytes), not a detail page: read it unless huge.
MAX_PART_BYTES = 8_000_000
# Sub-pages read to induce and check the record rules. One letter of a small catalogue may hold a
# single record, which shows no repeated structure: reading several parts finds one with two or more
# (and pools the others' records in), however the records happen to fall over the parts.
SAMPLE_PARTS = 8


@dataclass
class Hub:
    """An index bar: its links, how to read the varying part from a link, and the sub-page URL template."""

    links_xpath: str
    urls: list[str]
    parts: list[str]
    pattern: str
    template: str
    param: str | None = None  # the query parameter carrying the part (None: a path segment)
    texts: list[str] = field(default_factory=list)


def _segments(path: str) -> list[str]:
    return path.split("/")


def _path_hub(here: Any, urls: list[Any]) -> tuple[int, list[str]] | None:
    """The one path segment the index URLs differ in (a single link: the segment added to this page's path)."""
    segs = [_segments(u.path) for u in urls]
    if len({len(s) for s in segs}) != 1:
        return None
    if len(urls) == 1:
        mine = _segments(here.path.rstrip("/"))
        s = segs[0]
        trail = s[-1] == ""
        core = s[:-1] if trail else s
        if len(core) != len(mine) + 1 or core[: len(mine)] != mine:
            return None
        return len(core) - 1, [core[-1]]
    diff = [i for i in range(len(segs[0])) if len({s[i] for s in segs}) > 1]
    if len(diff) != 1 or diff[0] == 0:
        return None
    i = diff[0]
    return i, [s[i] for s in segs]


def _query_hub(urls: list[Any], here: Any = None) -> tuple[str, list[str]] | None:
    if len(urls) == 1 and here is not None:
        # A single part ("Browse: 0-9" when every record falls under it): one query key this page
        # lacks, added to this page's own path.
        q, mine = dict(parse_qsl(urls[0].query)), dict(parse_qsl(here.query))
        extra = [k for k in q if k not in mine]
        if urls[0].path == here.path and len(extra) == 1 and len(q) == len(mine) + 1:
            return extra[0], [q[extra[0]]]
        return None
    if len(urls) < 2 or len({u.path for u in urls}) != 1:
        return None
    qs = [dict(parse_qsl(u.query)) for u in urls]
    keys = set(qs[0])
    if any(set(q) != keys for q in qs):
        return None
    diff = [k for k in keys if len({q[k] for q in qs}) > 1]
    if len(diff) != 1:
        return None
    return diff[0], [q[diff[0]] for q in qs]


def find(root: Any, page_url: str) -> list[Hub]:
    """Index bars of a page (outside navigation and sidebars), each a set of links to listing parts."""
    here = urlsplit(page_url)
    groups: dict[Any, list[Any]] = {}
    for a in root.iter("a"):
        href = (a.get("href") or "").strip()
        if not href or href.startswith(("#", "javascript", "mailto")):
            continue
        holder = a.getparent()
        if holder is not None and holder.tag == "li" and holder.getparent() is not None:
            holder = holder.getparent()
        groups.setdefault(holder, []).append(a)
    out: list[Hub] = []
    for holder, links in groups.items():
        if holder is None or is_furniture(holder):
            continue
        texts = [clean(a.text_content()) for a in links]
        if not all(t and _INDEX_TEXT.match(t) for t in texts):
            continue
        if any(re.fullmatch(r"[«‹<>›»….]+", t) for t in texts):
            continue  # a pager (next/previous arrows): pagination, not an index
        urls = [urlsplit(urljoin(page_url, a.get("href").strip())) for a in links]
        if any(u.netloc != here.netloc for u in urls):
            continue
        if len({u.geturl() for u in urls}) != len(urls):
            continue
        xp = _links_xpath(holder, links)
        if xp is None:
            continue
        hub = _from_path(here, urls, xp, texts) or _from_query(urls, xp, texts, here)
        if hub is not None:
            out.append(hub)
    return out


def _links_xpath(holder: Any, links: list[Any]) -> str | None:
    if all(a.getparent() is holder for a in links):
        return records_xpath(holder, links)
    xp = records_xpath(holder, [a.getparent() for a in links])
    return f"{xp}/a" if xp else None


def _from_path(here: Any, urls: list[Any], xp: str, texts: list[str]) -> Hub | None:
    got = _path_hub(here, urls)
    if got is None:
        return None
    i, parts = got
    segs = _segments(urls[0].path)
    before = segs[i - 1]
    after = "/".join(segs[i + 1 :])
    tail = ("/" + re.escape(after)) if after else ""
    pattern = (
        (f"/{re.escape(before)}/" if before else "/")
        + r"([^/?#]+)"
        + tail
        + (r"(?:[?#].*)?$" if tail.endswith("/") else r"/?(?:[?#].*)?$")
    )
    tpl_segs = list(segs)
    tpl_segs[i] = "{" + PART + "}"
    template = urlunsplit((urls[0].scheme, urls[0].netloc, "/".join(tpl_segs), urls[0].query, ""))
    hub = Hub(
        links_xpath=xp, urls=[u.geturl() for u in urls], parts=parts, pattern=pattern, template=template
    )
    hub.texts = texts
    return hub if _reads_back(hub) else None


def _from_query(urls: list[Any], xp: str, texts: list[str], here: Any = None) -> Hub | None:
    if len(urls) == 1 and re.fullmatch(r"\d{1,3}", texts[0]):
        here = None  # a lone "2" is the next page of a pager, not the one part of an index
    got = _query_hub(urls, here)
    if got is None:
        return None
    key, parts = got
    pattern = r"[?&]" + re.escape(key) + r"=([^&#]+)"
    template = urlunsplit((urls[0].scheme, urls[0].netloc, urls[0].path, "", ""))
    hub = Hub(
        links_xpath=xp,
        urls=[u.geturl() for u in urls],
        parts=parts,
        pattern=pattern,
        template=template,
        param=key,
        texts=texts,
    )
    return hub if _reads_back(hub) else None


def _reads_back(hub: Hub) -> bool:
    """The pattern recovers each link's part and the template rebuilds each link's URL."""
    for u, p in zip(hub.urls, hub.parts, strict=True):
        m = re.search(hub.pattern, u)
        if not m or m.group(1) != p:
            return False
        if hub.param is None and hub.template.replace("{" + PART + "}", p) != u.split("#")[0]:
            return False
    return True


def sample_urls(hub: Hub, k: int = SAMPLE_PARTS) -> list[str]:
    """Up to ``k`` sub-page URLs spread over the index (first, last and evenly between)."""
    urls = list(dict.fromkeys(hub.urls))
    if len(urls) <= k:
        return urls
    step = (len(urls) - 1) / (k - 1)
    return list(dict.fromkeys(urls[round(i * step)] for i in range(k)))


def _leaves(node: Any) -> int:
    """Text pieces of an element (its own text, its children's texts and tails)."""
    return sum(1 for t in node.itertext() if clean(t))


def pool_singletons(htmls: list[str]) -> str | None:
    """The first sub-page with the records of the others appended, when each part shows one record.

    A letter holding a single record shows no repeated structure, so no region is found on it. The
    parts share their template: the record container is the innermost element, at the same path on
    every part, whose element children are (nearly) all of one tag, each a unit of several text
    pieces (a record has fields), with texts that differ between parts. Its children on the other
    parts are appended to it, and the page so pooled shows the records side by side.
    """
    from copy import deepcopy

    from lxml import html as lhtml

    from prefect_autodata.agents.induction.dom import SKIP_TAGS, abs_path, elements, parse

    roots = [parse(h) for h in htmls]
    if len(roots) < 2 or any(r is None for r in roots):
        return None
    first, others = roots[0], roots[1:]
    best = None
    for node in first.iter():
        if not isinstance(node.tag, str) or node.tag in SKIP_TAGS or is_furniture(node):
            continue
        p = abs_path(node)
        peers = [o.xpath(p) for o in others]
        if any(len(x) != 1 or x[0].tag != node.tag for x in peers):
            continue
        units = []
        for el in [node, *(x[0] for x in peers)]:
            kids = elements(el)
            if not kids:
                break
            tag = (
                kids[0].tag if len(kids) == 1 else max({k.tag for k in kids}, key=[k.tag for k in kids].count)
            )
            mine = [k for k in kids if k.tag == tag]
            if len(mine) * 3 < len(kids) * 2 or any(_leaves(k) < 2 for k in mine):
                break
            units.append(mine)
        else:
            tags = {u[0].tag for u in units}
            texts = [clean(k.text_content()) for u in units for k in u]
            if len(tags) == 1 and len(set(texts)) == len(texts):
                best = (node, units)  # document order: a later hit is nested deeper
    if best is None:
        return None
    node, units = best
    at = units[0][-1]
    for unit in units[1:]:
        for k in unit:
            copy = deepcopy(k)
            copy.tail = None
            at.addnext(copy)
            at = copy
    return lhtml.tostring(first, encoding="unicode")


def wrap(spec: CollectorSpec, hub: Hub, hub_url: str) -> CollectorSpec:
    """``spec`` (induced on one sub-page) run over every sub-page the index links to."""
    src = spec.sources[0]
    index = Source(
        name=INDEX_SOURCE,
        kind="html",
        request=RequestTemplate(url=hub_url),
        records=Selector(xpath=hub.links_xpath),
        fields=[
            FieldRule(
                name=PART,
                xpath=".",
                attr="href",
                transforms=[Transform(op="strip"), Transform(op="regex", pattern=hub.pattern)],
            )
        ],
        emit=False,
    )
    if hub.param is None:
        request = RequestTemplate(url=hub.template)
    else:
        request = RequestTemplate(url=hub.template, params={hub.param: "{" + PART + "}"})
    records = src.model_copy(
        update={
            "request": request,
            "params": {PART: ParamSpec(from_source=INDEX_SOURCE, field=PART)},
            "allow_empty": True,  # one empty letter is not an error; no records at all still is
        }
    )
    if src.pagination is not None and src.pagination.kind in ("page", "offset") and hub.param is not None:
        if src.pagination.param == hub.param:
            return spec  # the "index" is the pager itself: the plain listing spec already pages
    return spec.model_copy(update={"sources": [index, records, *spec.sources[1:]]})

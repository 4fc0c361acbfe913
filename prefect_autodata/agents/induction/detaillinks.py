"""Which link of a record leads to its detail page: not an action link (vote, hide, send a message, log in).

A record carries several links that differ per record: its title link, and action links built on
the record's id (``vote?id=14201733``, ``sendmessage.php?u=112``, ``login?goto=item%3Fid%3D7``). The
region picks one by fill and by its text; this module checks the pick against what the sampled
targets show. A detail link is broken when most of its sampled targets do not answer, or when they
all answer with one same page (a login form, a "thank you" page): then the record's other links are
tried, and one is taken only when its targets answer as distinct pages that hold the record's own
text (its name or another value the listing shows). When none does, the pick stays as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urldefrag, urljoin

from prefect_autodata.agents.induction.dom import clean
from prefect_autodata.agents.induction.matching import Candidate

MAX_ALTERNATIVES = 3
MIN_TEXT = 4


def _attempted(link: Candidate, page_url: str, k: int) -> int:
    urls = {urljoin(page_url, v) for v in link.values if v}
    return min(k, len(urls))


def broken(samples: list[tuple[str, Any, str]], attempted: int) -> bool:
    """Most sampled targets failed, or every target is the same page (one title, one body)."""
    if attempted and len(samples) * 2 < attempted:
        return True
    if len(samples) >= 2:
        shapes = {(clean(r.findtext(".//title") or ""), len(h)) for _, r, h in samples}
        if len(shapes) == 1:
            return True
    return False


def holds_record(
    samples: list[tuple[str, Any, str]], link: Candidate, cands: list[Candidate], page_url: str
) -> bool:
    """At least half of the sampled pages show a text value of the record that links to them."""
    texts = [c for c in cands if c.origin == "slot" and c.where == "listing" and not c.rule.get("attr")]
    index = {urljoin(page_url, v): i for i, v in enumerate(link.values) if v}
    hits = 0
    for u, root, _html in samples:
        i = index.get(u)
        if i is None:
            continue
        body = clean(root.text_content()).casefold()
        mine = [str(c.values[i]) for c in texts if i < len(c.values) and c.values[i]]
        if any(len(t) >= MIN_TEXT and t.casefold() in body for t in mine):
            hits += 1
    return bool(samples) and hits * 2 >= len(samples)


def _page(url: str) -> str:
    return urldefrag(url)[0].rstrip("/")


def navigation(link: Candidate, page_url: str) -> bool:
    """The links lead to pages beside the listing, not below it: one of them is the listing itself
    (the current day's tab, page 1 of a pager, the category shown), so the others are its siblings
    (the other days, pages, categories): navigation, whatever the pages they lead to hold."""
    here = _page(page_url)
    targets = {_page(urljoin(page_url, v)) for v in link.values if v}
    return len(targets) >= 2 and here in targets


def verified(
    region: Any,
    cands: list[Candidate],
    samples: list[tuple[str, Any, str]],
    sample: Callable[[Any], list[tuple[str, Any, str]]],
    page_url: str,
    k: int,
) -> tuple[Candidate | None, list[tuple[str, Any, str]]]:
    """The region's detail link and its samples, or another link of the record when that one is broken."""
    link = region.detail_link
    if link is not None and navigation(link, page_url):
        return None, []
    if link is None or not broken(samples, _attempted(link, page_url, k)):
        return link, samples
    alts = []
    for c in cands:
        if c is link or c.origin != "link" or c.rule.get("attr") != "href" or c.fill < 0.8:
            continue
        vals = [v for v in c.values if v]
        if len(set(vals)) < 0.8 * len(vals):
            continue  # the same target for many records: a section link, not a record's page
        alts.append(c)
    from prefect_autodata.agents.induction.regions import Region

    for alt in alts[:MAX_ALTERNATIVES]:
        trial = Region(
            parent=region.parent,
            items=region.items,
            records_xpath=region.records_xpath,
            score=region.score,
            detail_link=alt,
        )
        got = sample(trial)
        if not broken(got, _attempted(alt, page_url, k)) and holds_record(got, alt, cands, page_url):
            return alt, got
    return link, samples


def first_answering(
    links: list[Candidate],
    sample: Callable[[Candidate], list[tuple[str, Any, str]]],
    page_url: str,
    k: int,
) -> tuple[Candidate | None, list[tuple[str, Any, str]]]:
    """Of a table's link columns (an image's file page, the name's article, a map link), the first
    whose sampled targets answer as distinct pages, with its samples; else the first column's. A
    column whose targets fail (404s) is the wrong family, whichever column comes first."""
    first: tuple[Candidate | None, list[tuple[str, Any, str]]] = (None, [])
    for link in links[:MAX_ALTERNATIVES]:
        if navigation(link, page_url):
            continue
        got = sample(link)
        if first[0] is None:
            first = (link, got)
        if not broken(got, _attempted(link, page_url, k)):
            return link, got
    return first

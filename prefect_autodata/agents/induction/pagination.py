"""How a listing continues: a 'next' link, numbered pages (``?page=2``), offsets, and the total it states.

Read from what the page shows: a link with ``rel=next`` or a next-like text/symbol, links to the same
path that differ only in a page/offset number, and a sentence like "Showing 1–20 of 447" or
"447 results". The total lets the test agent compare the rows it got with what the site claims.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qsl, urljoin, urlsplit

from prefect_autodata.agents.induction.dom import clean, xq
from prefect_autodata.runtime.spec import Pagination, Selector

_NEXT_TEXT = re.compile(r"^(?:next(?:\s+page)?|more|older|weiter|siguiente|suivant)?\s*[»›→>]*$", re.I)
_TOTAL = [
    re.compile(r"\b(?:of|von|de|sur)\s+(\d[\d,. \u202f]*)\s*(?:\w+\s*)?$", re.I),
    re.compile(r"(\d[\d,.\u202f]*)\s+(?:results|records|items|entries|matches|total)\b", re.I),
    re.compile(r"\btotal\s*[:=]?\s*(\d[\d,.\u202f]*)", re.I),
]
_SHOWING = re.compile(r"\d[\d,.]*\s*[-–—to]+\s*\d[\d,.]*\s+(?:of|von|de|sur)\s+(\d[\d,.\u202f]*)", re.I)


def stated_total(page_text: str) -> int | None:
    """The record total a listing states ("Showing 1–20 of 447" → 447), or None."""
    t = clean(page_text)
    m = _SHOWING.search(t)
    if m is None:  # "447 results"; not the digits ending a name ("Desk58 Records as published")
        m = re.search(r"(?<![\w.,])(\d[\d,.\u202f]*)\s+(?:results|records|items|entries|matches)\b", t, re.I)
    if m is None:
        return None
    digits = re.sub(r"\D", "", m.group(1))
    return int(digits) if digits and len(digits) < 9 else None


def next_link(root: Any) -> Pagination | None:
    """A next_link pagination when the page has a next link (rel=next, or a next-like anchor text)."""
    for a in root.iter("a"):
        if not a.get("href") or a.get("href", "").startswith(("#", "javascript")):
            continue
        rel = (a.get("rel") or "").lower().split()
        if "next" in rel:
            return Pagination(kind="next_link", next=Selector(xpath="//a[@rel='next']/@href"), max_pages=500)
    for a in root.iter("a"):
        href = a.get("href") or ""
        if not href or href.startswith(("#", "javascript")):
            continue
        label = clean(a.text_content())
        aria = clean(a.get("aria-label") or a.get("title") or "")
        if label and _NEXT_TEXT.match(label) and re.search(r"[A-Za-z»›→>]", label):
            xp = f"//a[normalize-space()={xq(label)}]/@href"
            return Pagination(kind="next_link", next=Selector(xpath=xp), max_pages=500)
        if not label and aria and _NEXT_TEXT.match(aria):
            attr = "aria-label" if a.get("aria-label") else "title"
            xp = f"//a[@{attr}={xq(a.get(attr))}]/@href"
            return Pagination(kind="next_link", next=Selector(xpath=xp), max_pages=500)
    return None


def after_current(root: Any) -> Pagination | None:
    """A pager showing the current page as plain text among numbered links (``<span>1</span> <a>2</a>``).

    The next page is the link right after the current number, whatever the URL scheme
    (``/page/2/``, ``?p=2``, ``list-2.html``); the last page has none and the walk ends there.
    """
    from prefect_autodata.agents.induction.dom import abs_path, is_element

    for el in root.iter():
        if not is_element(el) or el.tag in ("a", "option", "li") or len(el):
            continue
        t = clean(el.text_content())
        if not re.fullmatch(r"\d{1,4}", t):
            continue
        nxt = el.getnext()
        while nxt is not None and not is_element(nxt):
            nxt = nxt.getnext()
        if (
            nxt is None
            or nxt.tag != "a"
            or clean(nxt.text_content()) != str(int(t) + 1)
            or not nxt.get("href")
        ):
            continue
        parent = el.getparent()
        if parent is None:
            continue
        if parent.get("id"):
            anchor = f"//{parent.tag}[@id={xq(parent.get('id'))}]"
        elif parent.get("class"):
            anchor = f"//{parent.tag}[@class={xq(parent.get('class'))}]"
        else:
            anchor = abs_path(parent)
        digits = "[translate(normalize-space(), '0123456789', '') = ''][normalize-space()]"
        xp = f"({anchor}/{el.tag}{digits}/following-sibling::a[1])[1]/@href"
        try:
            got = root.xpath(xp)
        except Exception:  # an odd attribute value: no pager rule from this element
            continue
        if got and str(got[0]) == nxt.get("href"):
            return Pagination(kind="next_link", next=Selector(xpath=xp), max_pages=500)
    return None


_PAGER_WORD = re.compile(
    r"\b(?:next|prev(?:ious)?|first|last|more|older|newer|page|weiter|zur(?:ü|ue)ck|siguiente|anterior|"
    r"suivant|pr(?:é|e)c(?:é|e)dent)\b",
    re.I,
)


def _pager_text(text: str, value: int) -> bool:
    """The text a pager link shows for page ``value``: none (an image button), its number ("2",
    "[2]", "Page 2"), a pager word ("Next", "Older posts") or a symbol; not a record's title or
    a number of its own ("8,042,117" on the link ``?r=1``)."""
    if _PAGER_WORD.search(text):
        return True
    numbers = [int(n) for n in re.findall(r"\d+", text.replace(",", ""))]
    if numbers:
        return value in numbers or len(text) <= 12 and any(abs(n - value) <= 1 for n in numbers)
    return len(text) <= 12


def numbered(root: Any, page_url: str) -> Pagination | None:
    """``?page=N`` (or ``?p=N``) links to the same path: page-number pagination."""
    here = urlsplit(page_url)
    seen: dict[str, set[int]] = {}
    votes: dict[str, list[bool]] = {}
    for a in root.iter("a"):
        href = a.get("href")
        if not href:
            continue
        u = urlsplit(urljoin(page_url, href))
        if u.netloc != here.netloc or u.path.rstrip("/") != here.path.rstrip("/"):
            continue
        for k, v in parse_qsl(u.query):
            if v.isdigit():
                seen.setdefault(k, set()).add(int(v))
                if not href.startswith("#"):  # a fragment link is the page itself, not a link that numbers
                    votes.setdefault(k, []).append(_pager_text(clean(a.text_content()), int(v)))
    for k, vals in seen.items():
        if re.search(r"(?:offset|start|skip|from)", k, re.I) and len(vals) >= 1:
            step = min(v for v in vals if v > 0) if any(v > 0 for v in vals) else 0
            if step <= 0 or any(v % step for v in vals):
                continue
            consts = {kk: vv for kk, vv in seen.items() if kk != k and len(vv) == 1}
            size_param = next((kk for kk in consts if next(iter(consts[kk])) == step), None)
            return Pagination(
                kind="offset", param=k, start=0, size=step, size_param=size_param, max_pages=500
            )
    for k, vals in seen.items():
        # record links on one script (``nph-Parser?...&r=3&f=G`` titled "Quick-release folding pedal" or
        # "8,042,117") number the records, not the pages: a key most of whose links read as record text
        if sum(votes.get(k, [])) * 2 < len(votes.get(k, [])):
            continue
        if len(vals) >= 1 and 2 in vals and not re.search(r"(?:year|id|sort)", k, re.I):
            return Pagination(kind="page", param=k, start=1, max_pages=500)
    return None


def detect(root: Any, page_url: str) -> Pagination | None:
    """The listing's pagination, next link first (it also ends cleanly), else page numbers."""
    return next_link(root) or numbered(root, page_url) or after_current(root)


_LINK_NEXT = re.compile(r"<([^>]+)>\s*((?:;[^,;]*)*)")


def link_header_next(headers: dict[str, str] | None) -> str | None:
    """The ``rel="next"`` target of an HTTP ``Link`` header (RFC 8288), or None.

    Why: many JSON APIs page through a response header, not the body (``Link: <...?page=2>;
    rel="next"``); the body then shows no cursor, no next URL and no page counter."""
    value = next((v for k, v in (headers or {}).items() if k.lower() == "link"), "") or ""
    for m in _LINK_NEXT.finditer(value):
        rels = re.findall(r";\s*rel\s*=\s*\"?([^\";]+)\"?", m.group(2), re.I)
        if any("next" in r.lower().split() for r in rels):
            return m.group(1).strip()
    return None

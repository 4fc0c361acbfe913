"""Legacy listing inducer, part 1: record regions and relative paths.

The repeated sibling structure that holds one record per item (``li``, ``div.paper``, ``dt``+``dd``
groups, ``p``+abstract pairs) becomes a ``Region`` whose items are the records; a value inside a record
is addressed by an XPath relative to the record (``_rel_xpath``), evaluated with compiled, cached XPaths.
Also the page basics the other parts share (reading cached bodies, fetching, parsing, text).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any
from urllib.parse import urljoin

from prefect_autodata.agents.kinds.paper import CONFERENCES
from prefect_autodata.agents.request import Request as ParsedInstruction

Reader = Callable[[str], bytes | str]


_YEAR = re.compile(r"(?<!\d)((?:19|20)\d\d)(?!\d)")


_PARTICLES = {
    "de",
    "da",
    "del",
    "della",
    "di",
    "du",
    "van",
    "von",
    "der",
    "den",
    "la",
    "le",
    "y",
    "bin",
    "al",
}


def _text(node: Any) -> str:
    return " ".join(node.text_content().split()) if node is not None else ""


def _quote(s: str) -> str:
    """An XPath 1.0 string literal for any text (concat() when it holds both quote kinds)."""
    if "'" not in s:
        return f"'{s}'"
    if '"' not in s:
        return f'"{s}"'
    return "concat(" + ', "\'", '.join(f"'{p}'" for p in s.split("'")) + ")"


def _step(node: Any) -> str:
    """``tag[@class='x']`` (or ``tag``): one location step that names an element's kind."""
    c = node.get("class")
    return f"{node.tag}[@class={_quote(c)}]" if c and c.strip() else node.tag


def _sig(node: Any) -> tuple[str, str | None]:
    return (node.tag, node.get("class"))


def _is_person(part: str) -> bool:
    toks = part.replace(".", ". ").split()
    if not 1 <= len(toks) <= 6 or any(ch.isdigit() for ch in part) or len(part) > 60:
        return False
    caps = [t for t in toks if t[:1].isupper() or t.lower() in _PARTICLES or t[:1] in "'’("]
    return len(caps) == len(toks) and any(len(t.strip(".")) > 1 for t in toks)


def names_score(text: str) -> float:
    """0..1: how much ``text`` looks like a list of person names ("A B, C D and E F", "A | B")."""
    text = " ".join(text.split()).strip(" ,;|")
    if not text:
        return 0.0
    parts = [p for p in re.split(r"\s*(?:,|;|\||\s+and\s+|&)\s*", text) if p.strip()]
    if not parts:
        return 0.0
    good = sum(_is_person(p) for p in parts) / len(parts)
    return good * (1.0 if len(parts) > 1 else 0.6)


def _venue_aliases(plan: ParsedInstruction) -> list[str]:
    """Names the request's venue goes by (full name first, then aliases; the abbreviation is separate)."""
    if not plan.venue:
        return []
    out = [plan.venue.name]
    full = CONFERENCES.get(plan.venue.abbr)
    if full:
        out += [full[0], *full[1]]
    return [a for a in dict.fromkeys(out) if a]


def _alias_in(text: str, aliases: list[str]) -> str | None:
    """The longest alias occurring in ``text`` (as written in the text, for an exact contains())."""
    low = text.lower()
    for a in sorted(aliases, key=len, reverse=True):
        i = low.find(a.lower())
        if i >= 0:
            return text[i : i + len(a)]
    return None


def _get(fetcher: Any, url: str) -> str | None:
    if fetcher is None:
        return None
    try:
        resp = fetcher.get(url)
    except Exception:  # a probe that fails means "not available", never an error of induction
        return None
    status = getattr(resp, "status", 200) or 200
    return resp.text if 200 <= status < 300 and resp.text else None


def _parse(text: str | None) -> Any:
    """The page through the one parse (``dom.parse``: tables laid out as the runtime reads them)."""
    if not text or text.lstrip()[:1] in "{[":
        return None
    from prefect_autodata.agents.induction.dom import parse

    return parse(text)


@dataclass
class Region:
    """A repeated record structure: items (one per record) plus the siblings that belong to each.

    ``items``/``extents`` are a spread sample of the records (induction reads those); ``all_items``
    and ``count`` are every record.
    """

    xpath: str
    items: list[Any]
    extents: list[list[Any]]
    sibling_steps: list[str]
    detail: list[str | None] = field(default_factory=list)
    detail_rule: str | None = None
    count: int = 0
    all_items: list[Any] = field(default_factory=list)
    inside: set[int] = field(default_factory=set)
    keep: list[Any] = field(default_factory=list)  # holds lxml proxies alive so their ids stay valid
    order: list[Any] = field(default_factory=list)
    pos: dict[int, int] = field(default_factory=dict)


def _own_texts(node: Any) -> int:
    return sum(1 for t in node.itertext() if t.strip())


def _content_links(nodes: list[Any], page_url: str) -> list[tuple[Any, str]]:
    out = []
    for n in nodes:
        for a in n.iter("a"):
            href = (a.get("href") or "").strip()
            if not href or href.startswith(("#", "javascript:", "mailto:")):
                continue
            out.append((a, urljoin(page_url, href)))
    return out


def _extent(item: Any, max_sib: int = 4) -> list[Any]:
    out = [item]
    sig = _sig(item)
    sib = item.getnext()
    while sib is not None and len(out) <= max_sib:
        if not isinstance(sib.tag, str):
            sib = sib.getnext()
            continue
        if _sig(sib) == sig or _bigger_than(sib, 300):
            break  # the next record, or a whole section that cannot belong to one record
        out.append(sib)
        sib = sib.getnext()
    return out


def _bigger_than(node: Any, n: int) -> bool:
    for i, _ in enumerate(node.iter()):
        if i >= n:
            return True
    return False


def find_regions(root: Any, page_url: str, *, min_items: int = 3) -> list[Region]:
    """Repeated sibling structures whose items each carry text and a link, most records first."""
    groups: dict[tuple, list[Any]] = {}
    for el in root.iter():
        if not isinstance(el.tag, str) or el.tag in ("html", "head", "body", "script", "style", "option"):
            continue
        parent = el.getparent()
        if parent is None:
            continue
        groups.setdefault((_sig(parent), _sig(el)), []).append(el)
    scored = []
    for (_psig, _esig), items in groups.items():
        if len(items) < min_items:
            continue
        sample = _spread(items)
        if sum(1 for i in sample[:10] for _ in i.iter()) > 300 * min(10, len(sample)):
            continue  # items this large are sections or columns holding records, not records
        extents = [_extent(i) for i in sample]
        ok = [
            e
            for e in extents
            if sum(_own_texts(n) for n in e) >= 2 and _content_links(e, page_url) and _text(e[0])
        ]
        frac = len(ok) / len(sample)
        if frac < 0.5:
            continue
        chars = sum(len(_text(n)) for e in extents for n in e) / len(extents)
        scored.append((len(items) * frac * frac, chars, items, sample, extents))
    scored.sort(key=lambda x: (x[0], x[1]), reverse=True)
    out = []
    order = list(root.iter())
    pos = {id(n): i for i, n in enumerate(order)}
    for _, _, items, sample, extents in scored[:4]:
        parent = items[0].getparent()
        xp = f"//{_step(parent)}/{_step(items[0])}"
        steps = _sibling_steps(extents)
        keep = [n for it in items for n in _extent(it)]
        out.append(
            Region(
                xpath=xp,
                items=sample,
                extents=extents,
                sibling_steps=steps,
                count=len(items),
                all_items=items,
                inside={id(n) for n in keep},
                keep=keep,
                order=order,
                pos=pos,
            )
        )
    return out


def record_years(region: Region) -> set[int]:
    """Years most records mention (an info line "..., 2021."), a hint of which year a listing shows."""
    counts: Counter = Counter()
    for ext in region.extents:
        counts.update({int(y) for n in ext for y in _YEAR.findall(n.text_content())})
    return {y for y, n in counts.items() if n >= 0.5 * len(region.extents)}


def _spread(items: list[Any], n: int = 60) -> list[Any]:
    """Up to ``n`` items spread evenly over the list (first and last included): a fair sample."""
    if len(items) <= n:
        return list(items)
    step = (len(items) - 1) / (n - 1)
    return [items[round(i * step)] for i in range(n)]


def _in_record(node: Any, region: Region) -> bool:
    cur = node
    while cur is not None:
        if id(cur) in region.inside:
            return True
        cur = cur.getparent()
    return False


def _sibling_steps(extents: list[list[Any]]) -> list[str]:
    """The sibling kinds most records have after their item, in order (``dd``, ``dd``...)."""
    steps: list[str] = []
    for k in range(1, 5):
        kinds = Counter(_step(e[k]) for e in extents if len(e) > k)
        if not kinds:
            break
        kind, n = kinds.most_common(1)[0]
        if n < 0.3 * len(extents):
            break
        steps.append(kind)
    return steps


def _locate(region: Region, idx: int, node: Any) -> tuple[int, Any] | None:
    """Which part of record ``idx`` holds ``node``: 0 = the item, k = its k-th sibling."""
    parts = region.extents[idx]
    cur = node
    while cur is not None:  # walk up: O(depth), not O(size of the record)
        for k, part in enumerate(parts):
            if cur is part:
                return k, part
        cur = cur.getparent()
    return None


def _prefix(region: Region, k: int) -> str:
    if k == 0:
        return "."
    if k - 1 >= len(region.sibling_steps):
        return ""
    return f"following-sibling::*[{k}][self::{region.sibling_steps[k - 1]}]"


def _candidates_for(part: Any, node: Any) -> list[str]:
    """Relative paths from a record part to ``node``, most specific-by-meaning first."""
    if part is node:
        return ["."]
    out = []
    c = node.get("class")
    if c and c.strip():
        out.append(f".//{node.tag}[@class={_quote(c)}]")
    if node.get("id"):
        out.append(f".//{node.tag}[@id={_quote(node.get('id'))}]")
    if node.tag == "a" and node.get("title"):
        out.append(f".//a[@title={_quote(node.get('title'))}]")
    t = _text(node)
    if node.tag == "a" and t and len(t) <= 30:
        out.append(f".//a[normalize-space(.)={_quote(t)}]")
    steps = []
    cur = node
    while cur is not None and cur is not part:
        steps.append(_step(cur))
        cur = cur.getparent()
    if cur is part:
        out.append("./" + "/".join(reversed(steps)))
    out.append(f".//{node.tag}")
    return out


def _rel_xpath(
    region: Region, idx: int, node: Any, *, verify: Callable[[Any], bool] | None = None
) -> str | None:
    """A relative XPath from the record item reaching ``node`` in record ``idx`` and its peers elsewhere."""
    loc = _locate(region, idx, node)
    if loc is None:
        return None
    k, part = loc
    pre = _prefix(region, k)
    if not pre:
        return None
    from lxml import etree

    for cand in _candidates_for(part, node):
        xp = (
            cand
            if pre == "."
            else (pre if cand == "." else f"{pre}/{cand[2:] if cand.startswith('./') else cand}")
        )
        if cand.startswith(".//") and pre != ".":
            xp = f"{pre}//{cand[3:]}"
        try:
            found = etree.XPath(xp)(region.items[idx])
        except etree.XPathError:
            continue
        if not found or found[0] is not node:
            continue
        if verify is not None and not verify(xp):
            continue
        return xp
    return None


@lru_cache(maxsize=4096)
def _compiled(xp: str) -> Any:
    from lxml import etree

    try:
        return etree.XPath(xp)
    except etree.XPathError:
        return None


def _eval(xp: str, node: Any) -> list[Any]:
    fn = _compiled(xp)
    if fn is None:
        return []
    try:
        out = fn(node)
    except Exception:  # an XPath that cannot run on this node (type errors): no match
        return []
    return out if isinstance(out, list) else [out]

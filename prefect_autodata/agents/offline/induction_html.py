"""Wrapper induction for listing → detail HTML sites (proceedings, catalogues, directories).

Works from what a page shows, never from known layouts: the repeated sibling structure that holds
one record per item (``li``, ``div.paper``, ``dt``+``dd`` groups, ``p``+abstract pairs) becomes the
records XPath; each target field becomes a relative XPath found by *what the value looks like*
(a title link, a list of person names, a link labelled pdf/bib/supp) or, when the listing lacks it,
by a rule on the sampled detail pages (meta tags such as ``citation_title``, regions labelled
"Abstract", elements matching a value the listing already gave). Values that are the same for a
whole section (conference name, track) come from the nearest heading before each record, chosen by
matching the plan's venue vocabulary. A year in the listing URL becomes a ``{year}`` parameter over
the requested years (each probed), and a listing that mixes years is scoped to the requested ones.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any
from urllib.parse import urljoin, urlsplit

from lxml import html as lhtml

from prefect_autodata.agents.evidence import Evidence, Page
from prefect_autodata.agents.kinds.paper import CONFERENCES
from prefect_autodata.agents.offline.instruction import ParsedInstruction
from prefect_autodata.runtime.policy import FetchPolicy
from prefect_autodata.runtime.spec import (
    CollectorSpec,
    ColumnSpec,
    DetailSpec,
    FieldRule,
    ParamSpec,
    RequestTemplate,
    Selector,
    Source,
    Transform,
)

Reader = Callable[[str], bytes | str]

_YEAR = re.compile(r"(?<!\d)((?:19|20)\d\d)(?!\d)")
_DOC_EXT = re.compile(r"\.(pdf|bib|zip|gz|tar|ps|djvu|txt|png|jpe?g|gif|mp4|pptx?|docx?)$", re.I)
_TRACK = re.compile(r"((?:[A-Z][\w&/-]*\s+(?:and\s+|&\s+)?)+Track)\b")
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
_LINK_WORDS = {
    "PAPER_LINK": ("pdf", "paper", "download pdf", "full text", "full paper", "main paper"),
    "BIBTEX_LINK": ("bib", "bibtex", "cite", "citation"),
    "SUPP_LINK": ("supp", "supplemental", "supplementary", "supplementary material", "supplementary pdf"),
}
_META = {
    "TITLE": ("citation_title", "dc.title", "og:title"),
    "AUTHORS": ("citation_author", "dc.creator"),
    "ABSTRACT": ("citation_abstract", "dc.description"),
    "PAPER_LINK": ("citation_pdf_url",),
    "CONFERENCE": ("citation_conference_title", "citation_journal_title"),
}


# ------------------------------------------------------------------------------------------- basics


def _text(node: Any) -> str:
    return " ".join(node.text_content().split()) if node is not None else ""


def _cls(node: Any) -> str | None:
    c = node.get("class")
    return " ".join(c.split()) if c and c.strip() else None


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


def _read(reader: Any, cache_id: str | None) -> str | None:
    if reader is None or not cache_id:
        return None
    try:
        data = reader(cache_id) if callable(reader) else reader.get(cache_id)
    except Exception:  # an evicted artifact: the page is simply not used
        return None
    return data.decode("utf-8", "replace") if isinstance(data, bytes) else data


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
    if not text or text.lstrip()[:1] in "{[":
        return None
    try:
        return lhtml.document_fromstring(text)
    except Exception:  # not HTML after all
        return None


# ------------------------------------------------------------------------------------------- regions


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


# ------------------------------------------------------------------------------------------- relative paths


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


# ------------------------------------------------------------------------------------------- listing fields


@dataclass
class Found:
    """One induced field rule plus the sample values it gives on the observed records."""

    rule: FieldRule
    values: list[Any]
    where: str


def _fill(values: list[Any]) -> float:
    return sum(1 for v in values if v not in (None, "", [])) / max(1, len(values))


def _sample_values(region: Region, xp: str, *, attr: str | None = None, join: str | None = None) -> list[Any]:
    out = []
    for it in region.items:
        nodes = _eval(xp, it)
        if join is not None:
            vals = [_text(n) if not isinstance(n, str) else n.strip() for n in nodes]
            out.append(join.join(v for v in vals if v) or None)
        elif not nodes:
            out.append(None)
        else:
            n = nodes[0]
            out.append((n.get(attr) if attr else _text(n)) if not isinstance(n, str) else str(n).strip())
    return out


_TEXT_TR = [Transform(op="collapse_whitespace"), Transform(op="strip")]


def _detail_link(region: Region, page_url: str) -> None:
    """Each record's link to its own page: an HTML link whose URL family occurs once per record."""
    fams: Counter = Counter()
    per_item: list[dict[str, list[tuple[Any, str]]]] = []
    for ext in region.extents:
        by: dict[str, list[tuple[Any, str]]] = {}
        for a, url in _content_links(ext, page_url):
            p = urlsplit(url)
            if _DOC_EXT.search(p.path) or urlsplit(page_url).netloc != p.netloc:
                continue
            fam = re.sub(r"\d+", "N", re.sub(r"[^/]+/?$", "*", p.path))  # years, volumes, ids collapsed
            by.setdefault(fam, []).append((a, url))
        per_item.append(by)
        for fam, links in by.items():
            if len(links) == 1:
                fams[fam] += 1
    if not fams:
        region.detail = [None] * len(region.items)
        return
    fam, n = fams.most_common(1)[0]
    if n < 0.6 * len(region.items):
        region.detail = [None] * len(region.items)
        return
    idx = next(i for i, by in enumerate(per_item) if len(by.get(fam, [])) == 1)
    anchor = per_item[idx][fam][0][0]

    def ok(xp: str) -> bool:
        vals = _sample_values(region, xp, attr="href")
        return _fill(vals) >= 0.6 * n / len(region.items)

    region.detail_rule = _rel_xpath(region, idx, anchor, verify=ok)
    region.detail = [
        (by.get(fam) or [(None, None)])[0][1] if len(by.get(fam, [])) == 1 else None for by in per_item
    ]


def _title_field(region: Region, page_url: str) -> Found | None:
    """The detail link's text when it reads like a title; otherwise the record's first title-like text."""
    if region.detail_rule:
        vals = _sample_values(region, region.detail_rule)
        good = [v for v in vals if v and len(v.split()) >= 2 and v.lower() not in _all_link_words()]
        if len(good) >= 0.8 * len(vals) and sum(names_score(v) > 0.9 for v in good) < 0.5 * len(good):
            return Found(
                FieldRule(name="TITLE", xpath=region.detail_rule, transforms=_TEXT_TR), vals, "link text"
            )
    # the first element in a record with multi-word text that is not a list of names nor a link label
    idx = 0
    for node in region.extents[idx][0].iter():
        if not isinstance(node.tag, str):
            continue
        t = _text(node)
        if len(t.split()) < 2 or len(t) > 300 or t.lower() in _all_link_words():
            continue
        kids = [k for k in node if isinstance(k.tag, str) and _text(k)]
        if len(kids) > 1:
            continue
        xp = _rel_xpath(region, idx, node)
        if not xp or xp == ".":
            continue
        vals = _sample_values(region, xp)
        if _fill(vals) < 0.8 or sum(names_score(v or "") > 0.9 for v in vals) > 0.5 * len(vals):
            continue
        if len(set(vals)) < 0.9 * len(vals):
            continue
        return Found(FieldRule(name="TITLE", xpath=xp, transforms=_TEXT_TR), vals, "first text")
    return None


def _all_link_words() -> set[str]:
    return {w for ws in _LINK_WORDS.values() for w in ws} | {"abs", "abstract", "html", "details", "more"}


def _authors_field(region: Region, title_xp: str | None) -> Found | None:
    """The record part whose text is a list of person names (or the name links it is made of)."""
    best: tuple[float, Found] | None = None
    sample = range(min(len(region.items), 40))
    seen: set[str] = set()
    for idx in list(sample)[:5]:
        for part in region.extents[idx]:
            for node in part.iter():
                if not isinstance(node.tag, str) or node.tag in ("a", "br", "input"):
                    continue
                if names_score(_text(node)) < 0.8:
                    continue
                xp = _rel_xpath(region, idx, node)
                if not xp or xp in seen or xp == title_xp:
                    continue
                seen.add(xp)
                vals = _sample_values(region, xp)
                sc = sum(names_score(vals[i] or "") for i in sample) / len(sample)
                if best is None or sc > best[0]:
                    best = (
                        sc,
                        Found(FieldRule(name="AUTHORS", xpath=xp, transforms=_TEXT_TR), vals, "names"),
                    )
    # name links in a mixed element: "A | B | C" as links to person pages
    for idx in list(sample)[:5]:
        links = [(a, u) for a, u in _content_links(region.extents[idx], "http://x/") if _is_person(_text(a))]
        fams = Counter(
            re.sub(r"[^/]+/?$", "", urlsplit(u).path).rstrip("/").rsplit("/", 1)[-1] for _, u in links
        )
        for fam, n in fams.items():
            if n < 1 or not fam:
                continue
            xp = f".//a[contains(@href, {_quote('/' + fam + '/')})]"
            vals = _sample_values(region, xp, join=", ")
            sc = sum(names_score(vals[i] or "") for i in sample) / len(sample)
            if best is None or sc > best[0] + 0.05:
                rule = FieldRule(name="AUTHORS", xpath=xp, join=", ", transforms=_TEXT_TR)
                best = (sc, Found(rule, vals, "name links"))
    return best[1] if best and best[0] >= 0.5 else None


def _link_fields(region: Region, targets: list[str], page_url: str) -> dict[str, Found]:
    """Links labelled pdf / bib / supp (by anchor text, then by file name) in each record."""
    out: dict[str, Found] = {}
    texts: Counter = Counter()
    for ext in region.extents[:200]:
        for a, _url in _content_links(ext, page_url):
            texts[(_text(a), _step(a))] += 1
    for target, words in _LINK_WORDS.items():
        if target not in targets:
            continue
        for (t, _st), _n in texts.most_common():
            low = t.lower().strip("[] ")
            if low not in words and not any(low.startswith(w + " ") for w in words if len(w) > 3):
                continue
            if target == "PAPER_LINK" and "supp" in low:
                continue
            if not region.sibling_steps:
                xp = f".//a[normalize-space(.)={_quote(t)}]"
            else:
                parts = [".//a"] + [
                    f"following-sibling::*[{k}][self::{s}]//a" for k, s in enumerate(region.sibling_steps, 1)
                ]
                xp = " | ".join(f"{p}[normalize-space(.)={_quote(t)}]" for p in parts)
            vals = _sample_values(region, xp, attr="href")
            if _fill(vals) == 0:
                continue
            rule = FieldRule(
                name=target,
                xpath=f"({xp})[1]" if "|" in xp else xp,
                attr="href",
                transforms=[Transform(op="strip"), Transform(op="absolute_url")],
            )
            out[target] = Found(rule, vals, f"link {t!r}")
            break
    return out


def _abstract_field(region: Region) -> Found | None:
    """A record part (often a collapsed sibling) whose class or id says abstract and that holds prose."""
    for idx in range(min(5, len(region.items))):
        for part in region.extents[idx]:
            for node in part.iter():
                if not isinstance(node.tag, str):
                    continue
                tag_words = f"{node.get('class') or ''} {node.get('id') or ''}".lower()
                if "abstract" not in tag_words or len(_text(node)) < 80:
                    continue
                loc = _locate(region, idx, node)
                if loc is None:
                    continue
                k, part_node = loc
                pre = _prefix(region, k)
                if not pre:
                    continue
                c = node.get("class")
                inner = (
                    "." if node is part_node else f".//{node.tag}" + (f"[@class={_quote(c)}]" if c else "")
                )
                xp = pre if inner == "." else (f"{pre}//{inner[3:]}" if pre != "." else inner)
                vals = _sample_values(region, xp)
                if _fill(vals) >= 0.5:
                    return Found(
                        FieldRule(name="ABSTRACT", xpath=xp, transforms=_TEXT_TR), vals, "abstract region"
                    )
    return None


def _section_field(region: Region, root: Any, target: str, plan: ParsedInstruction) -> Found | None:
    """CONFERENCE / TRACK: the nearest element before each record naming the venue (or a track).

    Candidates are (element kind, phrase) pairs seen outside the records; each is simulated as the
    run-time rule ``preceding::kind[contains(., phrase)][1]`` with document positions, and the one
    that is found for every record *closest* to it wins (a section heading beats a page banner).
    """
    aliases = _venue_aliases(plan)
    pairs: dict[tuple[str, str], tuple[int, str]] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        if not isinstance(node.tag, str) or id(node) in region.inside:
            continue
        stack.extend(reversed([k for k in node if isinstance(k.tag, str)]))
        if node.tag in ("title", "script", "style", "option", "head", "html", "body", "meta"):
            continue
        raw = node.text_content()
        if not raw.strip() or len(raw) > 400:
            continue
        if any(len(k.text_content().strip()) >= len(raw.strip()) - 2 for k in node if isinstance(k.tag, str)):
            continue  # a child says the same: take the innermost element
        if target == "CONFERENCE":
            low = raw.lower()
            hits = [raw[i : i + len(a)] for a in aliases if (i := low.find(a.lower())) >= 0]
            if plan.venue and re.search(rf"\b{re.escape(plan.venue.abbr)}\b", raw):
                hits.append(plan.venue.abbr)  # "Findings of ...: EMNLP 2022" names the venue by abbreviation
        else:
            hits = [m.group(1) for m in _TRACK.finditer(raw)]
        par = node.getparent()
        step = f"{_step(node)}[parent::{_step(par)}]" if par is not None else _step(node)
        for hit in hits:
            pairs.setdefault((step, (hit,)), (0, _text(node)))
    if not pairs:
        return None
    by_step: dict[str, set[str]] = {}
    for step, (hit,) in list(pairs):
        by_step.setdefault(step, set()).add(hit)
    for step, hits in by_step.items():  # headings of one kind naming the venue in different ways
        if len(hits) > 1:
            first = next(v for (st, _h), v in pairs.items() if st == step)
            pairs[(step, tuple(sorted(hits)))] = first
    order = region.order
    pos = region.pos
    best = None
    for (step, hit_set), (_, text) in pairs.items():
        tag = step.split("[", 1)[0]
        hit = hit_set[0]
        matches = [
            n
            for n in root.iter(tag)
            if n.getparent() is not None
            and f"{_step(n)}[parent::{_step(n.getparent())}]" == step
            and any(h in n.text_content() for h in hit_set)
        ]
        if any(id(n) in region.inside or _in_record(n, region) for n in matches):
            continue  # the same kind of element also sits inside records: not a section heading
        mpos = sorted(pos[id(n)] for n in matches if id(n) in pos)
        dists, vals = [], []
        for it in region.items:
            ip = pos.get(id(it))
            i = bisect.bisect_left(mpos, ip) - 1 if ip is not None else -1
            if i < 0:
                vals.append(None)
                continue
            dists.append(ip - mpos[i])
            vals.append(_text(order[mpos[i]]))
        if _fill(vals) < 0.9:
            continue
        # a full venue name beats a bare abbreviation (a "ICLR 2021" banner is not the proceedings
        # title); then mean distance: every section's records must be near their own heading
        named = target != "CONFERENCE" or not plan.venue or hit_set != (plan.venue.abbr,)
        key = (named, -sum(dists) / len(dists), -len(hit_set), max(len(h) for h in hit_set))
        if best is None or key > best[0]:
            tr = list(_TEXT_TR)
            if target == "TRACK":
                tr.append(Transform(op="regex", pattern=_TRACK.pattern))
            else:
                hit = next((h for h in hit_set if h in text), hit)
                seg_i, seg = _segment(text, hit)
                if seg != text:
                    tr += [Transform(op="regex", pattern=_segment_pattern(seg_i)), Transform(op="strip")]
            cond = " or ".join(f"contains(., {_quote(h)})" for h in hit_set)
            xp = f"preceding::{step}[{cond}][1]"
            best = (
                key,
                Found(FieldRule(name=target, xpath=xp, transforms=tr), vals, f"section heading {step}"),
            )
    return best[1] if best else None


_SEP = r"\s+[—–|]\s+|\s+-\s+"


def _segment(text: str, hit: str) -> tuple[int, str]:
    parts = re.split(_SEP, text)
    for i, p in enumerate(parts):
        if hit in p:
            return i, p
    return 0, text


def _segment_pattern(i: int) -> str:
    sep = r"(?:\s+[—–|]\s+|\s+-\s+)"
    return r"^(?:.*?" + sep + r"){" + str(i) + r"}(.*?)(?:" + sep + r"|$)"


# ------------------------------------------------------------------------------------------- detail pages


def _detail_fields(
    docs: list[Any], targets: list[str], plan: ParsedInstruction, known: dict[str, str]
) -> dict[str, FieldRule]:
    """Rules that read the missing targets off a record's own page (same rule on every sampled page)."""
    out: dict[str, FieldRule] = {}
    root = docs[0]
    for target in targets:
        rule = _meta_rule(root, target)
        if rule is None:
            if target == "ABSTRACT":
                rule = _detail_abstract(root)
            elif target in _LINK_WORDS:
                rule = _detail_link_rule(root, target)
            elif target == "TRACK":
                rule = _detail_by_text(root, target, lambda t: bool(_TRACK.fullmatch(t)) and len(t) < 60)
            elif target == "CONFERENCE":
                rule = _detail_conference(root, plan)
            elif target == "TITLE" and known.get("TITLE"):
                rule = _detail_by_text(root, target, lambda t, want=known["TITLE"]: t == want)
            elif target == "AUTHORS":
                rule = _detail_by_text(root, target, lambda t: names_score(t) >= 0.8 and len(t) < 1500)
        if rule is None:
            continue
        if len(docs) > 1 and not all(_rule_value(d, rule) for d in docs[1:]):
            if target not in ("SUPP_LINK", "BIBTEX_LINK", "ABSTRACT"):  # optional on some records
                continue
        out[target] = rule
    return out


def _rule_value(root: Any, rule: FieldRule) -> Any:
    from prefect_autodata.runtime.extract import extract_field

    try:
        return extract_field(root, rule, page_url="http://localhost/", params={})
    except ValueError:
        return None


def _meta_rule(root: Any, target: str) -> FieldRule | None:
    for name in _META.get(target, ()):
        attr = "property" if name.startswith("og:") else "name"
        metas = root.xpath(f"//meta[@{attr}={_quote(name)}][@content]")
        if not metas:
            continue
        xp = f"//meta[@{attr}={_quote(name)}]"
        if target == "AUTHORS":
            return FieldRule(name=target, xpath=f"{xp}/@content", join=", ", transforms=_TEXT_TR)
        tr = [*_TEXT_TR, Transform(op="absolute_url")] if target.endswith("_LINK") else list(_TEXT_TR)
        return FieldRule(name=target, xpath=f"({xp})[1]", attr="content", transforms=tr)
    return None


def _abs_path(root: Any, node: Any) -> str:
    """A page-level XPath for ``node``: by id, by a unique class, by its label, else by position."""
    if node.get("id"):
        return f"//{node.tag}[@id={_quote(node.get('id'))}]"
    c = node.get("class")
    if c and c.strip() and len(root.xpath(f"//{node.tag}[@class={_quote(c)}]")) == 1:
        return f"//{node.tag}[@class={_quote(c)}]"
    prev = node.getprevious()
    label = _text(prev) if prev is not None and isinstance(prev.tag, str) else ""
    if (
        label
        and len(label) <= 40
        and len(root.xpath(f"//{prev.tag}[normalize-space(.)={_quote(label)}]")) == 1
    ):
        return f"//{prev.tag}[normalize-space(.)={_quote(label)}]/following-sibling::{node.tag}[1]"
    steps = []
    cur = node
    while cur is not None and cur.getparent() is not None:
        if cur.get("id"):
            steps.append(f"{cur.tag}[@id={_quote(cur.get('id'))}]")
            return "//" + "/".join(reversed(steps))
        st = _step(cur)
        same = [k for k in cur.getparent() if isinstance(k.tag, str) and _step(k) == st]
        steps.append(st if len(same) == 1 else f"{st}[{same.index(cur) + 1}]")
        cur = cur.getparent()
    return "/" + "/".join(["html", *reversed(steps[:-1])]) if steps else "/html"


def _detail_abstract(root: Any) -> FieldRule | None:
    cands = []
    for node in root.iter():
        if not isinstance(node.tag, str) or node.tag in ("html", "body", "head", "script", "style"):
            continue
        words = f"{node.get('class') or ''} {node.get('id') or ''}".lower()
        if "abstract" in words and len(_text(node)) >= 80:
            cands.append(node)
    if not cands:  # a heading "Abstract" followed by the prose
        for h in root.iter():
            if isinstance(h.tag, str) and _text(h).lower().rstrip(":") == "abstract":
                nxt = h.getnext()
                while nxt is not None and not (isinstance(nxt.tag, str) and len(_text(nxt)) >= 80):
                    nxt = nxt.getnext()
                if nxt is not None:
                    cands.append(nxt)
                    break
    if not cands:
        return None
    outer = max(cands, key=lambda n: len(_text(n)))
    node = outer
    while True:  # descend to the innermost element that still holds the prose (drops "Abstract" labels)
        kids = [k for k in node if isinstance(k.tag, str) and len(_text(k)) >= 0.8 * len(_text(outer)) - 20]
        if len(kids) != 1:
            break
        node = kids[0]
    return FieldRule(name="ABSTRACT", xpath=f"({_abs_path(root, node)})[1]", transforms=_TEXT_TR)


def _detail_link_rule(root: Any, target: str) -> FieldRule | None:
    words = _LINK_WORDS[target]
    for a in root.iter("a"):
        t = _text(a).lower().strip("[] ")
        href = a.get("href") or ""
        if not href or href.startswith("#"):
            continue
        if t in words and not (target == "PAPER_LINK" and "supp" in t):
            return FieldRule(
                name=target,
                xpath=f"(//a[normalize-space(.)={_quote(_text(a))}])[1]",
                attr="href",
                transforms=[Transform(op="strip"), Transform(op="absolute_url")],
            )
    return None


def _detail_by_text(root: Any, target: str, pred: Callable[[str], bool]) -> FieldRule | None:
    for node in root.iter():
        if not isinstance(node.tag, str) or node.tag in (
            "html",
            "body",
            "head",
            "title",
            "script",
            "style",
            "meta",
        ):
            continue
        t = _text(node)
        if not t or not pred(t):
            continue
        if any(isinstance(k.tag, str) and _text(k) == t for k in node):
            continue  # the child holds exactly this text: prefer the innermost
        return FieldRule(name=target, xpath=f"({_abs_path(root, node)})[1]", transforms=_TEXT_TR)
    return None


def _detail_conference(root: Any, plan: ParsedInstruction) -> FieldRule | None:
    aliases = _venue_aliases(plan)
    best = None
    for node in root.iter():
        if not isinstance(node.tag, str) or node.tag in ("html", "body", "head", "title", "script", "style"):
            continue
        t = _text(node)
        hit = _alias_in(t, aliases) if t and len(t) < 250 else None
        if not hit or any(isinstance(k.tag, str) and _text(k) == t for k in node):
            continue
        if t.strip().lower() == hit.lower():
            continue  # a bare organisation name (publisher), not a proceedings title
        score = len(hit) + (20 if any(str(y) in t for y in plan.years) else 0) - len(t) / 100
        if best is None or score > best[0]:
            best = (score, node, hit, t)
    if best is None:
        return None
    _, node, hit, t = best
    tr = list(_TEXT_TR)
    seg_i, seg = _segment(t, hit)
    if seg != t:
        tr.append(Transform(op="regex", pattern=_segment_pattern(seg_i)))
    return FieldRule(name="CONFERENCE", xpath=f"({_abs_path(root, node)})[1]", transforms=tr)


# ------------------------------------------------------------------------------------------- the spec


@dataclass
class ListingInduction:
    """What induction learnt from one listing page (kept for tests and the rationale)."""

    page_url: str
    region: Region
    listing: dict[str, Found]
    detail: dict[str, FieldRule]
    year_values: list[int] | None
    url_template: str
    records_xpath: str
    notes: list[str] = field(default_factory=list)
    rendered: bool = False
    track_values: list[Any] = field(default_factory=list)


def _year_scope(region: Region, conf: Found | None, plan: ParsedInstruction) -> tuple[str, list[str]]:
    """Records xpath limited to the requested years when one listing shows several years."""
    if conf is None or not plan.years:
        return region.xpath, []
    years = [int(m.group(1)) if (m := _YEAR.search(v or "")) else None for v in conf.values]
    seen = {y for y in years if y is not None}
    if len(seen) <= 1 or not (seen - set(plan.years)):
        return region.xpath, []
    keep = sorted(seen & set(plan.years))
    if not keep:
        return region.xpath, ["no records of the requested years on the listing"]
    cond = " or ".join(f"contains(., '{y}')" for y in keep)
    xp = f"{region.xpath}[{conf.rule.xpath}[{cond}]]"
    return xp, [f"listing mixes years {sorted(seen)}: records limited to {keep}"]


def _year_template(
    url: str,
    page_years: set[int],
    plan: ParsedInstruction,
    fetcher: Any,
    records_xpath: str,
    *,
    rendered: bool = False,
) -> tuple[str, list[int] | None, list[str]]:
    """``.../2017`` → ``.../{year}`` over the requested years that answer with records."""
    found = [m for m in _YEAR.finditer(url)]
    if not found or not plan.years:
        return url, None, []
    ys = {int(m.group(1)) for m in found}
    if len(ys) != 1:
        return url, None, []
    y0 = ys.pop()
    tmpl = _YEAR.sub("{year}", url.replace("{", "%7B").replace("}", "%7D"))
    ok, notes = [], []
    for y in plan.years:
        if y == y0 and y0 in page_years | {y0}:
            ok.append(y)
            continue
        body = _get(fetcher, tmpl.replace("{year}", str(y)))
        root = _parse(body)
        if root is not None and (rendered or _eval(records_xpath.split("[preceding::")[0], root)):
            ok.append(y)
        else:
            notes.append(f"no listing for {y} at {tmpl.replace('{year}', str(y))}")
    return tmpl, ok, notes


def induce_listing(
    page: Page,
    plan: ParsedInstruction,
    *,
    body: str,
    evidence: Evidence | None = None,
    reader: Any = None,
    fetcher: Any = None,
    max_detail_samples: int = 2,
) -> ListingInduction | None:
    """Record region + listing fields + detail rules for one listing page (None: no records here)."""
    root = _parse(body)
    if root is None:
        return None
    url = page.final_url or page.url
    targets = list(plan.field_names)
    best: tuple[tuple, ListingInduction] | None = None
    for region in find_regions(root, url):
        _detail_link(region, url)
        listing: dict[str, Found] = {}
        title = _title_field(region, url) if "TITLE" in targets else None
        if title:
            listing["TITLE"] = title
        if "AUTHORS" in targets:
            au = _authors_field(region, title.rule.xpath if title else None)
            if au:
                listing["AUTHORS"] = au
        listing.update(_link_fields(region, targets, url))
        if "ABSTRACT" in targets and (ab := _abstract_field(region)):
            listing["ABSTRACT"] = ab
        for t in ("CONFERENCE", "TRACK"):
            if t in targets and (sf := _section_field(region, root, t, plan)):
                listing[t] = sf
        ind = ListingInduction(url, region, listing, {}, None, url, region.xpath, rendered=page.rendered)
        key = (len(listing), region.count)
        if best is None or key > best[0]:
            best = (key, ind)
    if best is None or "TITLE" not in best[1].listing and not best[1].region.detail_rule:
        return None
    ind = best[1]
    region = ind.region
    missing = [
        t
        for t in targets
        if t not in ind.listing and t != "ABSTRACT" or (t == "ABSTRACT" and t not in ind.listing)
    ]
    missing = [t for t in missing if t != "ABBR"]
    if missing and region.detail_rule:
        docs = []
        urls = [u for u in region.detail if u][: max_detail_samples * 3]
        cached = {p.final_url: p for p in (evidence.ok_pages() if evidence else [])} | {
            p.url: p for p in (evidence.ok_pages() if evidence else [])
        }
        ordered = [u for u in urls if u in cached] + [u for u in urls if u not in cached]
        for u in ordered:
            text = _read(reader, cached[u].cache_id) if u in cached else _get(fetcher, u)
            d = _parse(text)
            if d is not None:
                docs.append(d)
            if len(docs) >= max_detail_samples:
                break
        if docs:
            idx = next((i for i, u in enumerate(region.detail) if u), 0)
            known = {k: (f.values[idx] or "") for k, f in ind.listing.items()}
            ind.detail = _detail_fields(docs, missing, plan, known)
            ind.notes.append(f"{len(docs)} detail page(s) sampled")
            if "TRACK" in ind.detail:
                ind.track_values = [_rule_value(d, ind.detail["TRACK"]) for d in docs]
    if "TRACK" in ind.listing:
        ind.track_values = list(ind.listing["TRACK"].values)
    conf = ind.listing.get("CONFERENCE")
    ind.records_xpath, notes = _year_scope(region, conf, plan)
    ind.notes += notes
    page_years = {int(m.group(1)) for v in (conf.values if conf else []) if v for m in [_YEAR.search(v)] if m}
    page_years |= record_years(region)
    ind.url_template, ind.year_values, notes = _year_template(
        url, page_years, plan, fetcher, ind.records_xpath, rendered=page.rendered
    )
    ind.notes += notes
    if ind.year_values is None and page_years and plan.years and not page_years & set(plan.years):
        return None  # a listing of other years, and no year in its URL to move to the requested ones
    return ind


def listing_spec(ind: ListingInduction, plan: ParsedInstruction, *, name: str) -> CollectorSpec:
    """The CollectorSpec for an induced listing (+ detail) wrapper."""
    targets = list(plan.field_names)
    rules: list[FieldRule] = []
    for t in targets:
        if t in ind.listing:
            rules.append(ind.listing[t].rule)
        elif t == "ABBR" and plan.venue:
            rules.append(FieldRule(name="ABBR", const=plan.venue.abbr))
    for t in targets:  # the track asked for, when no page states one
        if t == "TRACK" and t not in ind.listing and t not in ind.detail and plan.track:
            rules.append(FieldRule(name="TRACK", const=plan.track))
    detail = None
    detail_rules = [ind.detail[t] for t in targets if t in ind.detail and t not in ind.listing]
    if detail_rules and ind.region.detail_rule:
        rules.append(
            FieldRule(
                name="detail_url",
                xpath=ind.region.detail_rule,
                attr="href",
                transforms=[Transform(op="strip"), Transform(op="absolute_url")],
            )
        )
        detail = DetailSpec(url_field="detail_url", kind="html", fields=detail_rules)
    if "TITLE" in ind.listing:
        ind.listing["TITLE"].rule = ind.listing["TITLE"].rule.model_copy(update={"required": True})
        rules = [ind.listing["TITLE"].rule if r.name == "TITLE" else r for r in rules]
    params = {}
    if ind.year_values is not None:
        params["year"] = ParamSpec(values=list(ind.year_values))
    pk = [t for t in ("PAPER_LINK", "TITLE") if t in ind.listing][:1] or ["TITLE"]
    if pk == ["PAPER_LINK"] and _fill(ind.listing["PAPER_LINK"].values) < 1.0:
        pk = ["TITLE"] if "TITLE" in ind.listing else ["detail_url"]
    if "TITLE" in ind.listing and len(set(ind.listing["TITLE"].values)) < len(ind.listing["TITLE"].values):
        pk = ["detail_url"] if detail is not None else pk
    # Every requested field is a column; one no page showed (no supplementary links anywhere) is
    # declared without a rule and lands empty rather than being invented.
    cols = [ColumnSpec(name=t, type="string") for t in targets]
    source = Source(
        name="listing",
        kind="browser" if ind.rendered else "html",
        request=RequestTemplate(url=ind.url_template),
        params=params,
        records=Selector(xpath=ind.records_xpath),
        fields=rules,
        detail=detail,
        allow_empty=ind.year_values is not None and len(ind.year_values) > 1,
    )
    return CollectorSpec(
        name=name,
        description=plan.text,
        primary_key=pk,
        columns=cols,
        sources=[source],
        politeness=FetchPolicy(rate_limit_per_host=0, concurrency_per_host=8),
    )


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

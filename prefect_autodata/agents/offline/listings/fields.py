"""Legacy listing inducer, part 2: the labelled values of a record, on the listing and on detail pages.

Each target field becomes a relative XPath found by *what the value looks like* (a title link, a list
of person names, a link labelled pdf/bib/supp, an abstract-sized text) or, when the listing lacks it, by
a rule on the sampled detail pages (meta tags such as ``citation_title``, regions labelled "Abstract",
elements matching a value the listing already gave). Values that are the same for a whole section
(conference name, track) come from the nearest heading before each record.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from prefect_autodata.agents.offline.listings.regions import (
    Region,
    _alias_in,
    _content_links,
    _eval,
    _in_record,
    _is_person,
    _locate,
    _prefix,
    _quote,
    _rel_xpath,
    _step,
    _text,
    _venue_aliases,
    names_score,
)
from prefect_autodata.agents.request import Request as ParsedInstruction
from prefect_autodata.runtime.spec import (
    FieldRule,
    Transform,
)

_DOC_EXT = re.compile(r"\.(pdf|bib|zip|gz|tar|ps|djvu|txt|png|jpe?g|gif|mp4|pptx?|docx?)$", re.I)


_TRACK = re.compile(r"((?:[A-Z][\w&/-]*\s+(?:and\s+|&\s+)?)+Track)\b")


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

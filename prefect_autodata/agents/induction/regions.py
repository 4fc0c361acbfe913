"""Record regions on a listing page, found by repeated DOM structure (never by class names).

A listing shows its records as siblings of the same shape: ``<li>``s, ``<div>`` cards, ``<dl>``
blocks, table rows. A region is a parent whose element children share a tag and most of their
inner structure (the multiset of descendant tag paths), with text that varies between children.
Navigation menus and footers are repeated too; they lose on size, on text variety and on where
they sit (``nav``/``header``/``footer``/``aside``). Inside a region every text slot, link and image
that recurs across records becomes a candidate field; a slot with the same text in every record is
template text ("Add to basket") and is dropped.

Selectors: the records XPath is anchored on what is stable (an id, a shared class, the parent's
class) and checked to select exactly the region's records; field XPaths are relative to a record.
Class names are used as *anchors* when a site has them (they are the same on every page of that
site), never to decide what a record is.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from prefect_autodata.agents.induction import lexicon as lx
from prefect_autodata.agents.induction.dom import (
    SKIP_TAGS,
    abs_path,
    classes,
    clean,
    elements,
    is_furniture,
    text,
    value_text,
    xq,
)
from prefect_autodata.agents.induction.labels import SENTENCE_STOP
from prefect_autodata.agents.induction.matching import Candidate, is_template

_CHROME = {"form", "select"}  # may hold results, but rarely: ranked low (furniture is left out)
_INLINE = {"span", "b", "i", "em", "strong", "small", "sup", "sub", "abbr", "time", "data", "mark", "u"}
# The anchor texts of an index bar (pages 1 2 3, letters A B C, years): navigation, not records.
_INDEX_TEXT = re.compile(r"^(?:\d{1,4}|[^\W\d_]|\w-\w|[«‹<>›»…]+|\.\.\.)$")
_LABEL_ATTRS = ("itemprop", "property", "data-field", "data-label", "data-name", "aria-label", "title")
# Structured-data properties (microdata ``itemprop``, RDFa ``property``) name the value they mark.
_PROP_ATTRS = ("itemprop", "property")
SAMPLE_ITEMS = 60  # records of a region read to induce its fields (a listing of thousands: a spread sample)
_WORDY = re.compile(r"^[A-Za-z][A-Za-z_-]{2,30}$")


@dataclass
class Region:
    """A set of sibling records: the nodes, an XPath that selects them, and their candidate fields."""

    parent: Any
    items: list[Any]
    records_xpath: str
    score: float
    candidates: list[Candidate] = field(default_factory=list)
    detail_link: Candidate | None = None
    header: list[str] | None = None  # a header row's labels, per child position of a record

    @property
    def count(self) -> int:
        return len(self.items)


@dataclass
class ItemRecords:
    """Records another finder told apart (each a vertical table, each a cell of a grid): items + candidates."""

    records_xpath: str
    items: list[Any]
    candidates: list[Candidate]
    detail_link: Candidate | None = None
    why: str = "records"

    @property
    def count(self) -> int:
        return len(self.items)


def cell_candidate(
    label: str | None,
    values: list[Any],
    xpath: str,
    *,
    anchor: float,
    identity: bool = False,
    aliases: list[str] | None = None,
    notes: list[str] | None = None,
) -> Candidate:
    """A field read from table cells (a listing table's column, the header over a grid cell, a header
    table inside a record): its text with whitespace collapsed, named by its header when it has one.
    One constructor for every table-shaped finder, so their candidates read and rank alike."""
    return Candidate(
        label=label,
        values=values,
        rule={"xpath": xpath, "transforms": [{"op": "collapse_whitespace"}]},
        origin="table",
        identity=identity,
        anchor=anchor,
        aliases=list(aliases or []),
        notes=list(notes or []),
    )


def _shape(node: Any, depth: int = 3) -> Counter:
    """The multiset of descendant tag paths (to ``depth``): what a record looks like, classes ignored."""
    out: Counter = Counter()

    def walk(n: Any, prefix: str, d: int) -> None:
        for c in elements(n):
            p = f"{prefix}/{c.tag}"
            out[p] += 1
            if d > 1:
                walk(c, p, d - 1)

    walk(node, "", depth)
    return out


def _similar(a: Counter, b: Counter) -> float:
    keys = set(a) | set(b)
    if not keys:
        return 1.0
    return sum(min(a[k], b[k]) for k in keys) / sum(max(a[k], b[k]) for k in keys)


def _in_chrome(node: Any) -> bool:
    return node.tag in _CHROME or any(a.tag in _CHROME for a in node.iterancestors())


def find_regions(root: Any, *, min_items: int = 3, max_regions: int = 8) -> list[Region]:
    """Candidate record regions of a page, best first (largest, most varied, outside page chrome)."""
    body = root.find("body") if root.find("body") is not None else root
    out: list[Region] = []
    for parent in body.iter():
        if not isinstance(parent.tag, str) or parent.tag in SKIP_TAGS or parent.tag in ("tr", "select"):
            continue
        if is_furniture(parent):
            continue  # navigation, sidebars ("Featured" copies), cookie banners, ads
        kids = elements(parent)
        if len(kids) < min_items:
            continue
        tags = Counter(k.tag for k in kids)
        tag, n = tags.most_common(1)[0]
        if n < min_items or tag in ("br", "option", "script", "tr", "td", "th", "dt", "dd"):
            continue
        group = [k for k in kids if k.tag == tag]
        shapes = [_shape(k) for k in group]
        ref = Counter(shapes[len(shapes) // 2])
        items = [k for k, s in zip(group, shapes, strict=True) if _similar(s, ref) >= 0.5]
        header = _header_row(group)
        if header is not None:
            items = [k for k in items if k is not group[0]]
        if len(items) < min_items:
            continue
        texts = [text(k) for k in items]
        if _index_bar(items, texts):
            continue
        if sum(1 for t in texts if t) < min_items:
            continue
        # Records differ in their text or, when it repeats (one team, many seasons), in where they link.
        sigs = [
            (t, tuple(a.get("href") or "" for a in k.iter("a"))) for t, k in zip(texts, items, strict=True)
        ]
        variety = len(set(sigs)) / len(sigs)
        if variety < 0.6:
            continue
        avg_len = sum(len(t) for t in texts) / len(texts)
        richness = sum(_shape(items[0], 4).values()) + 1
        score = len(items) * variety * min(avg_len, 200) ** 0.5 * (1 + min(richness, 12) / 4)
        if _in_chrome(parent):
            score *= 0.2
        labels = [clean(c.text_content()) for c in elements(group[0])] if header is not None else None
        out.append(Region(parent=parent, items=items, records_xpath="", score=round(score, 2), header=labels))
    out.sort(key=lambda r: -r.score)
    # A region nested inside a better one (the cards' inner lists) is not another listing.
    kept: list[Region] = []
    for r in out:
        if len(kept) >= max_regions:
            break
        ancestors = set(r.parent.iterancestors())
        if any(k.parent in ancestors and r.count <= k.count for k in kept):
            continue
        xp = records_xpath(r.parent, r.items)  # only for the regions kept: it evaluates XPaths
        if xp is None:
            continue
        r.records_xpath = xp
        kept.append(r)
    return kept


def _index_bar(items: list[Any], texts: list[str]) -> bool:
    """Records that are bare links reading 1 2 3, A B C or 2019 2020: a pager or an index, not data."""
    links = 0
    for it, t in zip(items, texts, strict=True):
        a = it if it.tag == "a" else None
        if a is None:
            kids = elements(it)
            a = kids[0] if len(kids) == 1 and kids[0].tag == "a" else None
        if a is None or not _INDEX_TEXT.match(t):
            return False
        links += 1
    return links == len(items)


def _header_row(group: list[Any]) -> bool | None:
    """True when the first sibling is a header row naming the others' cells (a grid of div rows).

    Told by markup (``th`` cells, ``role=columnheader``) or by content: as many cells as the rows,
    each a short label that never appears as a value in its column, over columns some of which hold
    numbers in the rows below.
    """
    if len(group) < 3:
        return None
    head = elements(group[0])
    if len(head) < 2:
        return None
    if all(c.tag == "th" or (c.get("role") or "").lower() in ("columnheader", "rowheader") for c in head):
        return True
    rows = [elements(g) for g in group[1:]]
    rows = [r for r in rows if len(r) == len(head)]
    if len(rows) < max(2, (len(group) - 1) // 2):
        return None
    from prefect_autodata.agents.induction.matching import value_type

    numeric_cols = 0
    for i, h in enumerate(head):
        lab = clean(h.text_content())
        if not lab or len(lab) > 40 or len(lab.split()) > 5 or not any(ch.isalpha() for ch in lab):
            return None
        if value_type(lab) != "text" or h.xpath(".//a | .//img"):
            return None
        col = [value_text(r[i]) for r in rows]
        if lab in col:
            return None
        kinds = [value_type(v) for v in col if v]
        if kinds and sum(k != "text" for k in kinds) / len(kinds) >= 0.8:
            numeric_cols += 1
    return True if numeric_cols else None


def records_xpath(parent: Any, items: list[Any]) -> str | None:
    """An XPath selecting exactly ``items`` on this page, anchored on an id or a class, else a path."""
    tag = items[0].tag
    doc = parent.getroottree()
    want = set(items)
    options: list[str] = []
    for anc in [parent, *parent.iterancestors()]:
        if anc.get("id") and not re.search(r"\d{3,}", anc.get("id")):
            rel = abs_path(parent)[len(abs_path(anc)) :]
            options.append(f"//{anc.tag}[@id={xq(anc.get('id'))}]{rel}/{tag}")
            break
    common = set(classes(items[0]))
    for it in items[1:]:
        common &= set(classes(it))
    for c in sorted(common):
        options.append(f"//{tag}[contains(concat(' ', normalize-space(@class), ' '), {xq(' ' + c + ' ')})]")
    if parent.get("class"):
        options.append(f"//{parent.tag}[@class={xq(parent.get('class'))}]/{tag}")
    options.append(f"{abs_path(parent)}/{tag}")
    if parent.index(items[0]) > 0 and items[0].getprevious() is not None:
        options += [f"{o}[position()>1]" for o in options]  # a header row before the records
    for xp in options:
        try:
            got = doc.xpath(xp)
        except Exception:  # an odd attribute value: try the next form
            continue
        if set(got) == want or (len(got) == len(want) and want <= set(got)):
            return xp
    for xp in options:  # a few same-shaped extras (a featured item) are acceptable if ours are all in
        got = doc.xpath(xp)
        if want <= set(got) and len(got) <= len(want) + 2:
            return xp
    return None


# ------------------------------------------------------------------------------------------ fields


def _rel_step(node: Any) -> str:
    parent = node.getparent()
    same = [c for c in parent if isinstance(c.tag, str) and c.tag == node.tag]
    return node.tag if len(same) == 1 else f"{node.tag}[{same.index(node) + 1}]"


def _rel_path(item: Any, node: Any) -> str:
    steps = []
    cur = node
    while cur is not None and cur is not item:
        steps.append(_rel_step(cur))
        cur = cur.getparent()
    return "./" + "/".join(reversed(steps))


def _class_path(item: Any, node: Any) -> str | None:
    """``.//span[@class='x']`` when that finds just this node inside the record."""
    cls = node.get("class")
    if not cls:
        return None
    xp = f".//{node.tag}[@class={xq(cls)}]"
    got = item.xpath(xp)
    return xp if len(got) == 1 and got[0] is node else None


def _attr_label(node: Any) -> str | None:
    for a in _LABEL_ATTRS:
        v = node.get(a)
        if v and len(v) <= 40:
            return v
    wordy = [c for c in classes(node) if _WORDY.match(c) and not re.search(r"\d", c)]
    if len(wordy) > 1:  # "col search_price": a class every sibling has is layout; its own names it
        par = node.getparent()
        sibs = [s for s in elements(par) if s is not node] if par is not None else []
        own = [c for c in wordy if sibs and not any(c in classes(s) for s in sibs)]
        if own and own[0] != wordy[0] and all(wordy[0] in classes(s) for s in sibs):
            return own[0]
    return wordy[0] if wordy else None


def slots(region: Region, page_url: str = "") -> list[Candidate]:
    """Candidate fields of a region: recurring text slots, links and images, plus labelled values."""
    from prefect_autodata.agents.induction import labels as lab

    per_path: dict[str, dict[int, tuple[str, Any]]] = {}
    kinds: dict[str, tuple[str, str | None]] = {}  # path -> (what, attr)
    meta: dict[str, Any] = {}
    items = sample_items(region.items)
    n = len(items)
    found = [lab.pairs(item, scope=".//") for item in items]
    recurring = Counter(k for ps in found for k in {p.key for p in ps})
    keep = {k for k, c in recurring.items() if c >= max(2, n // 2)}
    if region.header:  # a header row names the cells: pieces inside a cell are not label/value pairs
        found, keep = [[] for _ in items], set()
    for idx, item in enumerate(items):
        taken, texts_taken = _pair_parts(found[idx], keep)
        taken.discard(item)
        inside_slot: set[Any] = set()  # elements (ids of lxml proxies are not stable)
        for node in item.iter():
            if not isinstance(node.tag, str) or node.tag in SKIP_TAGS:
                continue
            if node in inside_slot:
                continue
            rel = "." if node is item else _rel_path(item, node)
            if node not in taken:
                own = (clean(node.text) and (node, "text") not in texts_taken) or any(
                    clean(c.tail) and (c, "tail") not in texts_taken for c in node if c not in taken
                )
                whole = _inline_only(node, taken) and bool(value_text(node))
                if own or whole or (len(node) == 0 and clean(node.text_content())):
                    # a property the record marks once (itemprop="pagination") holds wherever the
                    # record puts it: after two authors or after four
                    path = _class_path(item, node) or _prop_path(item, node) or rel
                    per_path.setdefault(path, {})[idx] = (value_text(node), node)
                    kinds[path] = ("text", None)
                    meta.setdefault(path, node)
                    if whole:  # "<span>57</span><span>.01</span>" is one value, not two
                        inside_slot.update(node.iterdescendants())
            if node.tag == "a" and node.get("href"):
                path = (_class_path(item, node) or rel) + "/@href"
                per_path.setdefault(path, {})[idx] = (node.get("href"), node)
                kinds[path] = ("href", "href")
                meta.setdefault(path, node)
            prop = _prop_label(node, item)
            if node.tag in ("meta", "link") and prop:  # a machine-readable value beside the visible one
                attr = "content" if node.get("content") is not None else "href"
                if node.get(attr):
                    path = (_prop_path(item, node) or rel) + "/@" + attr
                    per_path.setdefault(path, {})[idx] = (clean(node.get(attr)), node)
                    kinds[path] = ("prop", attr)
                    meta.setdefault(path, node)
            if node.tag == "img" and node.get("src"):
                path = (_class_path(item, node) or rel) + "/@src"
                per_path.setdefault(path, {})[idx] = (node.get("src"), node)
                kinds[path] = ("src", "src")
                meta.setdefault(path, node)
    out: list[Candidate] = []
    link_cands: list[tuple[float, Candidate]] = []
    heading_done = False
    props: set[str] = set()  # the labels structured-data properties give
    by_class: list[int] = []  # candidates whose label is a class name
    for path, got in per_path.items():
        if len(got) < max(2, n // 2):
            continue
        values = [got[i][0] if i in got else None for i in range(n)]
        node = meta[path]
        what, attr = kinds[path]
        sel = path[: -len("/@" + attr)] if attr else path
        head = _header_label(region.header, sel) if region.header and not attr else None
        if is_template(values) and not head:
            continue  # the same text in every record, unlabelled: template ("Add to basket")
        rule: dict[str, Any] = {"xpath": sel}
        if what == "prop":
            rule["attr"] = attr
            rule["transforms"] = [{"op": "strip"}]
            if attr == "href":  # an enumeration URL (".../InStock"): its last word, spaced
                values = [_enum_word(v) for v in values]
                rule["transforms"] = [*rule["transforms"], *_ENUM_TRANSFORMS]
        elif attr:
            rule["attr"] = attr
            rule["transforms"] = [{"op": "strip"}, {"op": "absolute_url"}]
        else:
            rule["transforms"] = [{"op": "collapse_whitespace"}]
            if what == "text" and (kept := _unstruck(got, n)) is not None:
                # "<strike>$19.99</strike><br>$4.99": the struck value is superseded, the rest is the value
                values = kept
                rule["xpath"], rule["join"] = f"{sel}//text()[not({_STRUCK})]", " "
        ident = False
        if (
            what == "text"
            and not heading_done
            and (
                re.fullmatch(r"h[1-6]", node.tag)
                or (node.tag == "a" and len(node) == 0)
                or node.tag in ("strong", "b")
                or _link_text(node)
            )
        ):
            ident, heading_done = True, True
        label = _prop_label(node, items[min(got)]) or _attr_label(node)
        if label is not None and any(
            (_prop_label(nd, items[i]) or _attr_label(nd)) != label for i, (_, nd) in got.items()
        ):
            label = None  # an attribute that differs per record (title="The Lantern Keeper") is data
        label = label or _wrapper_label(node, items)
        class_alias = _other_classes(node, label)  # "business-attribute price-range": either names it
        lead = None if attr or head else _lead_label([nd for _, nd in got.values()])
        lead_alias: list[str] = []
        if lead and (label is None or (label in classes(node) and not node.get("itemprop"))):
            lead_alias, label = ([label] if label else []), lead  # "by <a class="username">X</a> »"
        label = head or label
        if label and what == "prop":
            props.add(label.casefold())
        elif label and not head and label in classes(node) and not any(node.get(a) for a in _LABEL_ATTRS):
            by_class.append(len(out))  # named by a CSS class only: a weaker name than a property
        aliases: list[str] = [*lead_alias, *class_alias]
        if what == "text":  # '<span class="octicon octicon-star"></span> 412': the icon names the count
            aliases += [w for w in icon_words([nd for _, nd in got.values()]) if w != label]
        if attr and what != "prop":
            label = None
        elif not head:
            piece = _label_piece([nd for _, nd in got.values()], [v for v, _ in got.values()])
            if piece is not None:
                word, transform = piece
                values = [_strip_piece(v, transform) for v in values]
                rule["transforms"] = [*rule["transforms"], transform]
                label, aliases = label or word, [word] if label and label != word else []
            elif node.get("title") and _whole_title(node.tag, list(got.values())):
                values = [got[i][1].get("title") if i in got else None for i in range(n)]
                rule = {"xpath": sel, "attr": "title", "transforms": [{"op": "strip"}]}
            elif (unit := _unit_word(values)) is not None:  # "3 bd", "1,450 sqft", "4 Comments"
                word, transform = unit
                values = [_strip_piece(v, transform, none=True) for v in values]
                rule["transforms"] = [*rule["transforms"], transform]
                label, aliases = label or word, [word] if label else []
            if node.tag in _SEMANTIC_TAGS:  # <address>: the element names what it holds
                label, aliases = label or node.tag, [*aliases, node.tag] if label else aliases
            aliases = [*aliases, *_kind_names(values)]  # "github.com" beside each story: its domain
            if what == "text" and _struck(node):  # the value before: named so, and by its container's label
                label, aliases = _struck_names(node, items[min(got)], label, aliases)
            elif what == "text" and rule.get("join") and _STRUCK in rule["xpath"]:
                aliases = [*aliases, *_NOW_WORDS]
        cand = Candidate(
            label=label,
            values=values,
            rule=rule,
            origin="slot"
            if what == "prop"
            else ("link" if attr == "href" else ("image" if attr == "src" else "slot")),
            identity=ident,
            anchor=0.6 if "@class" in sel else 0.4,
            where="listing",
            aliases=aliases,
            class_label=_class_named(node, label, what) and not head and not aliases,
            headed=bool(head) and label == head,
        )
        out.append(cand)
        if what == "href":
            distinct = len({v for v in values if v}) / max(1, sum(1 for v in values if v))
            link_cands.append(
                (cand.fill * distinct + (0.2 if len(clean(node.text_content())) > 3 else 0), cand)
            )
    if not heading_done:
        _name_column(out)
    for i in by_class:  # "tile-price" beside <meta itemprop="price">: the property names the field
        words = set(re.split(r"[-_]+", (out[i].label or "").casefold()))
        if words & props:
            out[i].label = None
    out = _visible_enums(out)
    out = with_pieces(out)
    for p in _labelled(region, found):
        out.append(p)
    if link_cands:
        link_cands.sort(key=lambda x: -x[0])
        if link_cands[0][0] >= 0.8:
            region.detail_link = link_cands[0][1]
    region.candidates = out
    return out


# A struck-through value (``<strike>``, ``<s>``, ``<del>``) is one the page shows as superseded: the
# price before a discount, a corrected figure. It is a value of its own, never part of its container's.
_STRUCK_TAGS = ("strike", "s", "del")
_STRUCK = "ancestor::*[self::strike or self::s or self::del]"


def _class_named(node: Any, label: str | None, what: str) -> bool:
    """True when ``label`` is only a CSS class of the value's element or of one around it: no text the
    page shows and no attribute meant as a name (``title``, ``itemprop``)."""
    if not label or what == "prop" or any(node.get(a) == label for a in _LABEL_ATTRS):
        return False
    return label in classes(node) or any(label in classes(a) for a in node.iterancestors())


def _struck(node: Any) -> bool:
    return node.tag in _STRUCK_TAGS or any(a.tag in _STRUCK_TAGS for a in node.iterancestors())


# What a page means by striking a value through, and by the value shown beside it.
_BEFORE_WORDS = ("original", "old", "previous", "was", "regular", "list", "before", "full")
_NOW_WORDS = ("current", "now", "sale", "new", "discounted")


def _struck_names(node: Any, item: Any, label: str | None, aliases: list[str]) -> tuple[str, list[str]]:
    """A struck-through value's names: the words for a superseded value, with its container's label
    ("search_price" around ``<strike>$19.99</strike>``) so it reads "original price"."""
    own: list[str] = []
    for anc in node.iterancestors():
        if anc is item:
            break
        if (lab := _attr_label(anc)) is not None:
            own.append(lab)
            break
    first = f"{_BEFORE_WORDS[0]} {own[0]}" if own else label or _BEFORE_WORDS[0]
    rest = [*([label] if label and label != first else []), *aliases, *_BEFORE_WORDS, *own]
    return first, list(dict.fromkeys(w for w in rest if w != first))


def _unstruck(got: dict[int, tuple[str, Any]], n: int) -> list[str | None] | None:
    """The values of a slot read without their struck-through text, when some record's slot holds
    struck text beside its own ("$19.99 $4.99" with the first struck): None when none does."""
    if not any(
        any(isinstance(d.tag, str) and d.tag in _STRUCK_TAGS for d in nd.iterdescendants())
        for _, nd in got.values()
    ) or any(_struck(nd) for _, nd in got.values()):
        return None
    out: list[str | None] = [None] * n
    for i, (_, nd) in got.items():
        parts = [clean(str(t)) for t in nd.xpath(f".//text()[not({_STRUCK})]")]
        out[i] = " ".join(p for p in parts if p) or None
    return out if any(out) else None


def _link_text(node: Any) -> bool:
    """The whole text of a link held in one inline child (``<a class="biz-name"><span>La
    Pergola</span></a>``): the link's text, as a bare link's is."""
    par = node.getparent()
    return (
        node.tag in _INLINE
        and len(node) == 0
        and par is not None
        and par.tag == "a"
        and len(par) == 1
        and not clean(par.text)
        and not clean(node.tail)
    )


def icon_words(nodes: list[Any]) -> list[str]:
    """The words an icon inside every one of ``nodes`` is named by: a textless element whose class
    spells a known word after its icon set's prefix ("octicon-star", "fa-comment", "icon-user"), as
    icon fonts draw a count's meaning beside it. Words not every node's icon spells are dropped."""
    common: list[str] | None = None
    for node in nodes:
        words: list[str] = []
        for e in node.iterdescendants():
            if not isinstance(e.tag, str) or clean(e.text_content()) or len(e):
                continue
            for c in classes(e):
                for w in re.split(r"[-_]", c.casefold())[1:]:
                    if len(w) >= 3 and w.isalpha() and w not in words and lx.is_known_word(w):
                        words.append(w)
        common = words if common is None else [w for w in common if w in words]
        if not common:
            return []
    return (common or [])[:2]


def _other_classes(node: Any, label: str | None) -> list[str]:
    """The node's other word-like classes when its label is one of its classes: a class list names
    the value as much by its second class as by its first (``business-attribute price-range``)."""
    cls = classes(node)
    if not label or label not in cls:
        return []
    return [c for c in cls if c != label and _WORDY.match(c) and not re.search(r"\d", c)][:3]


def _prop_name(v: str | None) -> str | None:
    """A property name as written (``schema:price``, ``http://schema.org/price``, "price priceSpec"):
    its first token, without a vocabulary prefix."""
    tok = (v or "").split()
    if not tok:
        return None
    name = re.split(r"[:/#]", tok[0])[-1]
    return name if 0 < len(name) <= 40 else None


def _prop_label(node: Any, item: Any = None) -> str | None:
    """The structured-data property a node carries (microdata ``itemprop``, RDFa ``property``).

    A property of a nested item (``<span itemprop="brand" itemscope><span itemprop="name">``) is
    named by the property holding that item ("brand"); its other properties by their own names
    (``offers`` > ``price``: "price"); the record's own item (``item``) adds nothing."""
    own = _prop_name(node.get("itemprop")) or _prop_name(node.get("property"))
    if not own:
        return None
    for anc in node.iterancestors():
        if anc is item:
            break
        if anc.get("itemscope") is not None or anc.get("typeof") is not None:
            outer = _prop_name(anc.get("itemprop")) or _prop_name(anc.get("property"))
            if outer and own.lower() == "name":
                return outer
            break
    return own


def _prop_path(item: Any, node: Any) -> str | None:
    """``.//meta[@itemprop='price']`` when that finds just this node inside the record."""
    for a in _PROP_ATTRS:
        v = node.get(a)
        if v:
            xp = f".//{node.tag}[@{a}={xq(v)}]"
            got = item.xpath(xp)
            return xp if len(got) == 1 and got[0] is node else None
    return None


# An enumeration URL ("http://schema.org/InStock") read as its words ("In Stock").
_ENUM_TRANSFORMS = [
    {"op": "replace", "pattern": r"^.*[/#:]", "value": ""},
    {"op": "replace", "pattern": r"(?<=[a-z])(?=[A-Z])", "value": " "},
]


def _enum_word(v: str | None) -> str | None:
    if not v:
        return v
    v = re.sub(r"^.*[/#:]", "", v.strip())
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", v)


def _lead_label(nodes: list[Any]) -> str | None:
    """The same short words right before an inline element in every record ("by <a>Jane</a> » Mon"):
    its label, written as text in the parent rather than in an element of its own."""
    if len(nodes) < 3 or nodes[0].tag not in _INLINE | {"a"}:
        return None
    leads = set()
    for nd in nodes:
        prev = nd.getprevious()
        if prev is None:
            par = nd.getparent()
            lead = par.text if par is not None else None
        else:
            lead = prev.tail
        leads.add(clean(lead))
    if len(leads) != 1:
        return None
    word = leads.pop().rstrip(":：").strip()
    if (
        not word
        or len(word) > 20
        or len(word.split()) > 3
        or re.search(r"\d", word)
        or sum(ch.isalpha() for ch in word) < 2
    ):
        return None
    return word


def _visible_enums(cands: list[Candidate]) -> list[Candidate]:
    """A property given as an enumeration URL (``<link itemprop="availability" href=".../InStock">``)
    beside a text slot that shows the same words ("In stock"): the visible text is the value, named
    by the property."""

    def key(v: Any) -> str:
        return re.sub(r"\W+", "", str(v or "")).casefold()

    out = list(cands)
    for c in cands:
        if c.origin != "slot" or c.rule.get("attr") != "href" or not c.label:
            continue
        for t in out:
            if t is c or t.origin != "slot" or t.rule.get("attr"):
                continue
            pairs = [(a, b) for a, b in zip(c.values, t.values, strict=False) if a and b]
            if len(pairs) >= max(2, 0.8 * c.fill * len(c.values)) and all(key(a) == key(b) for a, b in pairs):
                t.aliases = [*t.aliases, *([t.label] if t.label else [])]
                t.label = c.label
                out.remove(c)
                break
    return out


def _wrapper_label(node: Any, items: list[Any]) -> str | None:
    """The label of an element that wraps just this one (``<span class="comments-link"><a>4
    Comments</a></span>``): the wrapper names what it holds. Never a record's own label."""
    parent = node.getparent()
    if parent is None or any(parent is it for it in items) or len(elements(parent)) != 1:
        return None
    if clean(parent.text) or clean(node.tail):
        return None
    return _attr_label(parent)


_LABEL_TAGS = {"dfn", "label"}  # elements that name a term: a trailing one is the value's label


def _label_piece(nodes: list[Any], texts: list[str]) -> tuple[str, dict[str, Any]] | None:
    """A label the records write beside their value in its own DOM piece: a leading text node before
    the element holding the value ("by <a>Mara Ellison</a>", "Posted in <a>Garden</a>") or a trailing
    term element after it ("1204 <dfn>Views</dfn>"). The piece is the same in every record and the
    rest varies; it is the value's label, and the value is read without it. One text node such as
    "Cuisines: Chinese" is not split here (the value is written that way).

    Returns (label text, regex transform that drops it) or None.
    """
    if len(nodes) < 3 or len(set(texts)) < 2 or len(nodes[0]) == 0:
        return None
    word = clean(nodes[0].text)
    if (
        word
        and len(word) <= 20
        and len(word.split()) <= 3
        and not re.search(r"\d", word)
        and sum(ch.isalpha() for ch in word) >= 2
        and all(clean(nd.text) == word for nd in nodes)
        and all(len(nd) == 1 and isinstance(nd[0].tag, str) and not clean(nd[0].tail) for nd in nodes)
    ):
        pat = r"^\s*" + re.escape(word) + r"\s*(.*?)\s*$"
        return word.rstrip(":：").strip(), {"op": "regex", "pattern": pat}
    if nodes[0][-1].tag not in _LABEL_TAGS:
        return None
    tails = [nd[-1] for nd in nodes if len(nd)]
    if len(tails) == len(nodes) and all(
        t.tag in _LABEL_TAGS and len(t) == 0 and not clean(t.tail) for t in tails
    ):
        word = clean(tails[0].text_content())
        if (
            word
            and sum(ch.isalpha() for ch in word) >= 2
            and all(clean(t.text_content()) == word for t in tails)
        ):
            pat = r"^\s*(.*?)\s*" + re.escape(word) + r"\s*$"
            return word, {"op": "regex", "pattern": pat}
    return None


_SEMANTIC_TAGS = {"address"}


def _kind_names(values: list[str | None]) -> list[str]:
    """The names of what the values are when their kind says it (host names: a domain), for a slot
    no label names: the page shows "(github.com)" after each title and calls it nothing."""
    from prefect_autodata.agents.induction import values as vt

    prof = vt.profile(values)
    if prof.filled < 2 or prof.share < 0.9:
        return []
    return list(vt.KIND_NAMES.get(prof.kind, ()))


# a count, or a range of counts ("1–3 credits"), and its word, in parentheses or not ("(3 credits)")
_COUNT = r"[-+]?\d[\d.,]*(?:\s?[–-]\s?\d[\d.,]*)?"
_UNIT = re.compile(rf"^\s*\(?\s*({_COUNT})\s*([^\W\d_][\w.]{{0,14}}?)\s*\)?\s*[|/·•,;:]?\s*$")


def _unit_word(values: list[str | None]) -> tuple[str, dict[str, Any]] | None:
    """A count and the same word after it in every record ("3 bd |", "1,450 sqft", "1 Comment" /
    "4 Comments"): the word names the value and the value is the number. Returns (word, transform).

    A few records may show one same word instead ("discuss" where a story has no comments yet, "no
    reviews"): the site's own wording of none, read as no value (the transform finds no number)."""
    got = [v for v in values if v]
    counted = [v for v in got if _UNIT.match(v)]
    if len(counted) < 3:
        return None
    other = {clean(v).casefold() for v in got if not _UNIT.match(v)}
    if other and (
        len(other) > 1
        or 3 * (len(got) - len(counted)) > len(got)
        or not re.fullmatch(r"[^\W\d_]+(?: [^\W\d_]+)?:?", next(iter(other)))
    ):
        return None
    words = [_UNIT.match(v).group(2).casefold().rstrip("s") for v in counted]
    if len(set(words)) != 1 or len({_UNIT.match(v).group(1) for v in counted}) < 2:
        return None
    word = _UNIT.match(counted[0]).group(2)
    stem = re.escape(words[0])
    pat = r"(?i)^\s*\(?\s*(" + _COUNT + r")\s*" + stem + r"s?\b"
    return word, {"op": "regex", "pattern": pat}


def _strip_piece(value: str | None, transform: dict[str, Any], *, none: bool = False) -> str | None:
    """``value`` as ``transform`` reads it; unread, the value itself (or None with ``none``)."""
    if value is None:
        return None
    m = re.match(transform["pattern"], value, re.S)
    return m.group(1) if m else (None if none else value)


def _whole_title(tag: str, got: list[tuple[str, Any]]) -> bool:
    """True when the records' text is cut short ("The Long Road to…") and their ``title`` attribute
    holds it whole: the attribute is the value."""
    if len(got) < 2 or tag not in ("a", "span", "div", "p", "td") and not re.fullmatch(r"h[1-6]", tag):
        return False
    cut = 0
    for t, nd in got:
        full = clean(nd.get("title") or "")
        if not full or not t:
            return False
        stem = t.rstrip(".…").rstrip()
        if not full.startswith(stem):
            return False
        cut += len(full) > len(stem) and t != full
    return bool(cut)


_NAME_KINDS = {"text", "name"}


def _name_column(cands: list[Candidate]) -> None:
    """With no heading or bare link in the records, the record's own name is its first text slot
    whose values are all different and read as words (not amounts, dates, phones or long prose):
    the column a table would lead with, wherever the row puts it ("Make & model" last in a row)."""
    from prefect_autodata.agents.induction import values as vt

    for c in cands:
        if c.origin != "slot" or c.fill < 0.9:
            continue
        prof = vt.profile(c.values)
        if prof.n < 3 or prof.kind not in _NAME_KINDS or prof.distinct < 0.95 * prof.filled:
            continue
        c.identity = True
        return


def _pair_parts(found: list[Any], keep: set[str]) -> tuple[set[Any], set[tuple[Any, str]]]:
    """The label and value elements of one record's label/value pairs, and their value text nodes.

    These are offered as labelled candidates; offered again by position they would put a label's
    text into a column ("Price: $12") or read the wrong field once a record lacks one. Only pairs
    whose label recurs over the region (``keep``) count: "February 3" is not a label.
    """
    taken: set[Any] = set()
    texts: set[tuple[Any, str]] = set()
    for p in found:
        if p.key not in keep:
            continue
        for nd in (p.label_node, p.value_node):
            if nd is not None:
                taken.add(nd)
                taken.update(nd.iterdescendants())
        if p.text_ref is not None:
            texts.add(p.text_ref)
    return taken, texts


def _inline_only(node: Any, taken: set[Any]) -> bool:
    """An element whose children are all plain inline text pieces: its whole text is one value."""
    kids = [c for c in node if isinstance(c.tag, str)]
    return (
        len(kids) >= 2
        and all(c.tag in _INLINE and len(c) == 0 and c not in taken for c in kids)
        and not any(clean(c.tail) and ":" in c.tail for c in kids)
    )


def _header_label(header: list[str], sel: str) -> str | None:
    """The header row's label for a slot in cell ``k`` of a record (``./div[3]/span`` → header[2])."""
    m = re.match(r"^\./(\w+)(?:\[(\d+)\])?(?:/|$)", sel)
    if not m:
        return None
    k = int(m.group(2) or 1) - 1
    return header[k] if 0 <= k < len(header) and header[k] else None


def sample_items(items: list[Any], k: int = SAMPLE_ITEMS) -> list[Any]:
    """At most ``k`` records spread over the region (first, last and evenly between)."""
    if len(items) <= k:
        return list(items)
    step = (len(items) - 1) / (k - 1)
    return [items[round(i * step)] for i in range(k)]


def _labelled(region: Region, found: list[list[Any]]) -> list[Candidate]:
    """Label/value pairs inside records (``<span>By:</span> Jane`` in a card) as labelled candidates."""
    n = len(found)
    by_key: dict[str, tuple[Any, dict[int, str]]] = {}
    props: dict[str, set[str | None]] = {}
    items = sample_items(region.items)
    for idx, ps in enumerate(found):
        for p in ps:
            by_key.setdefault(p.key, (p, {}))[1][idx] = p.value
            vn = p.value_node
            props.setdefault(p.key, set()).add(_prop_label(vn, items[idx]) if vn is not None else None)
    out = []
    for p, vals in by_key.values():
        if len(vals) < max(2, n // 2):
            continue
        values = [vals.get(i) for i in range(n)]
        rule = {"xpath": p.xpath, "transforms": [*p.transforms, {"op": "collapse_whitespace"}]}
        # The value's own property name ("MPG" <span itemprop="mileage">) names it too.
        named = props.get(p.key, set())
        aliases = [next(iter(named))] if len(named) == 1 and None not in named else []
        out.append(
            Candidate(label=p.label, values=values, rule=rule, origin=p.form, anchor=0.9, aliases=aliases)
        )
    return out


def cell_blocks(cells: list[Any], base: str) -> list[tuple[dict[str, Any], list[str]]]:
    """(rule, values) per child element of the cells of one column, when the cells stack several
    values as elements of their own: a member's name link with their title in a ``<div>`` below
    (``<td><a>Aldous_B</a><div>Senior Member</div></td>``). Most filled cells must show the same
    sequence of child tags, each holding text, and nothing else besides them; the pieces are read
    by position under the cell (``./td[1]/*[2]``)."""
    filled = [c for c in cells if c is not None and clean(c.text_content())]
    if len(filled) < 3:
        return []
    shapes = Counter()
    for c in filled:
        kids = elements(c)
        loose = clean(c.text) or any(clean(k.tail) for k in kids)
        if len(kids) >= 2 and not loose and all(clean(k.text_content()) for k in kids):
            shapes[tuple(k.tag for k in kids)] += 1
    if not shapes:
        return []
    shape, n = shapes.most_common(1)[0]
    if n < 0.8 * len(filled) or len(shape) > 4 or all(t in _INLINE for t in shape):
        return []  # inline pieces ("<b>57</b><i>.01</i>") are one value, read whole
    out = []
    for k in range(len(shape)):
        rule = {"xpath": f"{base}/*[{k + 1}]", "transforms": [{"op": "collapse_whitespace"}]}
        values = []
        for c in cells:
            kids = elements(c) if c is not None else []
            values.append(clean(kids[k].text_content()) if len(kids) > k else None)
        out.append((rule, values))
    return out


# -- pieces of one slot ---------------------------------------------------------------------------------

# One text slot may print several of a record's values run together: a course's code before its title
# ("HIST 214.  The Atlantic World"), a wine's vintage after its name ("Rioja Reserva 2006"), a region and
# its country ("Rioja, Spain"), pieces between bars. Each piece that recurs over the records is one more
# candidate; the slot itself stays for a field that asks the whole.
_YEAR_PIECE = r"(?:1[5-9]|20)\d{2}"
# a code: a short run of capitals and its number ("HIST 101", "CS-230", "MATH 2410H"), then a stop
_CODE_PIECE = r"[A-Z][A-Za-z&]{0,5}[ -]?\d{1,5}[A-Za-z]?"
_CODE_LEAD = re.compile(rf"^({_CODE_PIECE})(?:[.:]|\s+[-–—])\s+(?=\S)")
# a short code joined to the rest by a hyphen or slash, no space ("R-Ozark-2", "D/Riverside"): a party,
# a grade, a class letter the records share, then what follows it
_JOINED = re.compile(r"^([A-Z]{1,3})[-/](?=\S)(.*\S)$")
_TRAIL_YEAR = re.compile(rf"^(.*[^\W\d_].*?)\s+({_YEAR_PIECE})$")
_WHOLE_KINDS = frozenset({"date", "datetime", "time", "money", "percent", "url", "email", "phone"})
_DATED = re.compile(r"\b\d{1,2},\s+(?:1[5-9]|20)\d{2}\b")  # "at March 16, 2010 09:12 PM"
_STOPPED = re.compile(r"[^\W_]{2}\.$")
_PIECES_MAX = 120  # a longer text is prose (a description), not values run together
_COMMA = re.compile(r"\s*,\s+")


# A value printed inside quotation marks (an episode's or a song's title: '"Pilot"', '“Undertow”'): the
# marks are the page's typography around the value, not part of it.
_QUOTES = r"^\s*[\"“„«‘]\s*(.*?\S)\s*[\"”“»’]\s*$"
QUOTED = r"^\s*[\"“„«‘]?\s*(.*?\S)\s*[\"”“»’]?\s*$"  # the rule: a record shown without them reads whole


def quoted(values: list[Any]) -> list[str | None] | None:
    """The values without their quotation marks when nine in ten filled values are quoted, else None."""
    filled = [clean(str(v)) for v in values if v not in (None, "")]
    if len(filled) < 2 or _share([bool(re.search(_QUOTES, v)) for v in filled]) < 0.9:
        return None
    return [_grab(QUOTED, v) for v in values]


# A value printed inside brackets in every record ("(Lower Haight)", "[Tenderloin]"): the brackets set
# the value off from the text beside it, they are not part of it. A record shown without them reads
# whole (the closing bracket is taken only when the opening one was: "Nob Hill (north)" stays whole).
_BRACKETED = re.compile(r"^\s*(?:\([^()]*\S[^()]*\)|\[[^\[\]]*\S[^\[\]]*\])\s*$")
BRACKETS = r"^\s*(?P<o>[(\[])?\s*(?P<v>.*?\S)\s*(?(o)[)\]])\s*$"


def bracketed(values: list[Any]) -> list[str | None] | None:
    """The values without their brackets when nine in ten filled values are wholly bracketed, else None."""
    filled = [clean(str(v)) for v in values if v not in (None, "")]
    if len(filled) < 2 or _share([bool(_BRACKETED.match(v)) for v in filled]) < 0.9:
        return None
    return [_grab(BRACKETS, v, "v") for v in values]


def _share(flags: list[bool]) -> float:
    return sum(flags) / len(flags) if flags else 0.0


def _grab(pattern: str, value: Any, group: int | str = 1) -> str | None:
    if value in (None, ""):
        return None
    m = re.search(pattern, str(value), re.S)
    return clean(m.group(group)) if m and m.group(group) else None


def comma_run(filled: list[str]) -> bool:
    """True when every value holds one same number of ", " (at least one): values run together by
    commas ("Rioja, Spain"; "Haikou, China"), as the text shows them."""
    return (
        bool(filled)
        and bool(_COMMA.search(filled[0]))
        and all(len(_COMMA.findall(v)) == len(_COMMA.findall(filled[0])) for v in filled)
    )


def slot_pieces(values: list[Any]) -> tuple[list[tuple[str, list[str | None]]], int | None]:
    """(regex, values) per piece of a slot whose values run several values together, and the index of
    the piece that carries the slot's own meaning (the name beside a code or a year), or None when
    the pieces are alike (a region and its country: neither is the slot's label alone).

    Told by what every record shows: a leading code and a stop (in nine records of ten), a trailing
    year after words (in three of five, a record without one reads its whole text as the name), one
    same number of ", " or of one separator in every record."""
    from prefect_autodata.agents.induction.textlines import find_separator, sep_regex

    filled = [clean(str(v)) for v in values if v not in (None, "")]
    if len(filled) < 3 or any(len(v) > _PIECES_MAX for v in filled):
        return [], None
    from prefect_autodata.agents.induction import values as vt

    if _share([vt.kind_of(v) in _WHOLE_KINDS or bool(_DATED.search(v)) for v in filled]) >= 0.3:
        return [], None  # a date ("March 16, 2010"), an amount: one value, whatever its commas
    if quoted(values) is not None:  # '"Pilot"': the title inside its quotation marks
        return [(QUOTED, [_grab(QUOTED, v) for v in values])], 0
    if (inner := bracketed(values)) is not None:  # '(Lower Haight)': the place inside its brackets
        return [(BRACKETS, inner)], 0
    if _share([bool(_CODE_LEAD.match(v)) for v in filled]) >= 0.9:
        codes = [_CODE_LEAD.match(v).group(1) for v in filled if _CODE_LEAD.match(v)]
        if len(set(codes)) >= 0.9 * len(codes):
            code = rf"^({_CODE_PIECE})(?:[.:]|\s+[-–—])\s+\S"
            rest = rf"^{_CODE_PIECE}(?:[.:]|\s+[-–—])\s+(.*?\S)\.?\s*$"
            return [(code, [_grab(code, v) for v in values]), (rest, [_grab(rest, v) for v in values])], 1
    joined = [_JOINED.match(v) for v in filled]
    if _share([bool(m) for m in joined]) >= 0.9:
        codes = [m.group(1) for m in joined if m]
        if len(set(codes)) <= max(3, len(codes) // 2):  # a code the records share ("R", "D"), not an id
            code, rest = r"^([A-Z]{1,3})[-/](?=\S)", r"^[A-Z]{1,3}[-/](\S.*?)\s*$"
            return [(code, [_grab(code, v) for v in values]), (rest, [_grab(rest, v) for v in values])], None
    years = [_TRAIL_YEAR.match(v) for v in filled]
    if _share([bool(m) for m in years]) >= 0.6:
        rests = [m.group(1) for m in years if m]
        # the names differ ("Rioja Reserva 2006") or the years do ("SPARW 2013": a venue's edition)
        varied = len(set(rests)) >= 0.9 * len(rests) or len({m.group(2) for m in years if m}) >= 2
        if varied and all(len(r) >= 3 for r in rests):
            name = rf"^(.*?\S)(?:\s+{_YEAR_PIECE})?\s*$"
            year = rf"\s({_YEAR_PIECE})\s*$"
            return [(name, [_grab(name, v) for v in values]), (year, [_grab(year, v) for v in values])], 0
    if _share([bool(_STOPPED.search(v)) for v in filled]) >= 0.9 and len(set(filled)) >= 0.9 * len(filled):
        # every title ends with the listing's full stop ("Static Index Pruning Revisited."): not the title's
        return [(SENTENCE_STOP, [_grab(SENTENCE_STOP, v) for v in values])], 0
    sep = find_separator(filled)
    if sep is None and (lead := _spaced_lead(filled)):
        return lead, None
    if sep is not None and sep != "\t":
        s = sep_regex(sep)
    elif comma_run(filled):
        s = _COMMA.pattern
    else:
        return [], None
    n = len(re.split(s, filled[0]))
    piece = f"(?:(?!{s}).)*"
    if n >= 2 and any(len(re.split(s, v)) != n for v in filled) and (lead := _lead_and_rest(filled, s)):
        return lead, None
    if n < 2 or n > 4 or any(len(re.split(s, v)) != n for v in filled):
        return [], None
    out = []
    for k in range(n):
        pat = rf"^\s*(?:{piece}{s}){{{k}}}\s*((?:(?!{s}).)*?\S)\s*(?:{s}|$)"
        out.append((pat, [_grab(pat, v) for v in values]))
    return out, None


_LEAD_MAX = 16  # characters of a short value before a separator: "1br", "$1450", "R-12"


def _lead_and_rest(filled: list[str], s: str) -> list[tuple[str, list[str | None]]] | None:
    """A short value and the text after it ("2br - HUGE 2BR/1BA w/ parking - cats ok"): the first
    separator of every record ends a short value of one or two words, and the rest, which may hold the
    separator itself, is longer in most records. None when a record has no separator or a long lead."""
    heads = [re.split(s, v, maxsplit=1) for v in filled]
    if any(len(h) != 2 or not h[0].strip() or not h[1].strip() for h in heads):
        return None
    if any(len(h[0]) > _LEAD_MAX or len(h[0].split()) > 2 for h in heads):
        return None
    if _share([len(h[1].split()) > len(h[0].split()) for h in heads]) < 0.8:
        return None
    lead = rf"^\s*((?:(?!{s}).)*?\S)\s*{s}"
    rest = rf"^\s*(?:(?!{s}).)*?{s}\s*(.*?\S)\s*$"
    return [(lead, [h[0].strip() for h in heads]), (rest, [h[1].strip() for h in heads])]


def _spaced_lead(filled: list[str]) -> list[tuple[str, list[str | None]]] | None:
    """``_lead_and_rest`` over the first spaced mark of every record ("1br - ..."), when one mark ends
    the lead of all of them; the rest may repeat the mark any number of times."""
    from prefect_autodata.agents.induction.textlines import sep_regex

    firsts = set()
    for v in filled:
        m = re.search(r"(?<=\S) +([^\w\s]{1,3}) +(?=\S)", v)
        if not m:
            return None
        firsts.add(m.group(1))
    return _lead_and_rest(filled, sep_regex(firsts.pop())) if len(firsts) == 1 else None


def _one_long(parts: list[list[str | None]]) -> int | None:
    """The one piece of several whose values are words (two or more per value on average, twice as
    many as any other piece's, which hold one or two): the record's text beside short values run
    together with it ("$1450", "1br", "Sunny 1br near park")."""

    def words(vals: list[str | None]) -> float:
        got = [len(v.split()) for v in vals if v]
        return sum(got) / len(got) if got else 0.0

    w = [words(v) for v in parts]
    best = max(range(len(w)), key=lambda k: w[k]) if w else None
    if best is None or w[best] < 2 or any(k != best and (x > 2 or 2 * x > w[best]) for k, x in enumerate(w)):
        return None
    return best


def _leaves(values: list[Any], depth: int = 2) -> tuple[list[tuple[list[str], list[str | None]]], int | None]:
    """The pieces of a slot (``slot_pieces``), a piece cut again when it runs values together itself
    ("$1450 / 1br - Sunny 1br near park" → "$1450", "1br", "Sunny 1br near park"): each piece as its
    chain of patterns and its values, and the index of the piece carrying the slot's meaning."""
    parts, main = slot_pieces(values)
    out: list[tuple[list[str], list[str | None]]] = []
    mains: list[int] = []
    for k, (pat, vals) in enumerate(parts):
        sub, sub_main = _leaves(vals, depth - 1) if depth > 1 else ([], None)
        if k == main:
            mains.append(len(out) + (sub_main or 0) if sub else len(out))
        out += [([pat, *p], v) for p, v in sub] if sub else [([pat], vals)]
    if mains:
        return out, mains[0]
    if len(out) > len(parts):  # pieces cut again: the one long text among short values is the name
        return out, _one_long([v for _, v in out])
    return out, None


def piece_steps(pats: list[str]) -> list[dict[str, Any]]:
    """The regex transforms reading one piece through its chain of patterns (``_leaves``)."""
    return [{"op": "regex", "pattern": p, **({"group": "v"} if "(?P<v>" in p else {})} for p in pats]


def with_pieces(cands: list[Candidate]) -> list[Candidate]:
    """``cands`` plus a candidate per piece of each text slot that runs values together (``slot_pieces``).

    The piece that carries the slot's meaning takes its label and its identity (the course's title
    beside its code is the record's name); the slot stays as it was for a field that asks the whole,
    and when no field takes the other pieces the matcher reads it whole (``main_piece``)."""
    out = list(cands)
    for whole in cands:
        if whole.origin != "slot" or whole.rule.get("attr") or whole.fill < 0.5 or whole.rule["xpath"] == ".":
            continue  # (the record's whole text is no slot of its own)
        if any(t.get("op") == "regex" for t in whole.rule.get("transforms", [])):
            continue  # already a piece of its text (a label or a unit cut off)
        parts, main = _leaves(whole.values)
        if not parts:
            continue
        for k, (pats, vals) in enumerate(parts):
            rule = {**whole.rule, "transforms": [*whole.rule.get("transforms", []), *piece_steps(pats)]}
            out.append(
                Candidate(
                    label=whole.label if k == main else None,
                    values=vals,
                    rule=rule,
                    origin="slot",
                    identity=whole.identity and k == main,
                    anchor=whole.anchor if k == main else 0.3,
                    where=whole.where,
                    aliases=list(whole.aliases) if k == main else [],
                    notes=[f"piece {k + 1} of {len(parts)} of {whole.rule.get('xpath')}"],
                    whole=whole,
                    main_piece=k == main,
                    class_label=whole.class_label and k == main,
                )
            )
        if main is not None:
            whole.identity, whole.anchor = False, min(whole.anchor, 0.3)
    return out

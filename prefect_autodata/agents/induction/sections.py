"""Records grouped under section headings: the heading's value is a field of every record below it.

A page lists seasons under ``<h3>1956</h3>``, films under ``<h2>Genre: Drama</h2>``: the value is
printed once above its group and nowhere in the records. A group set is a parent whose element
children alternate headings of one level and blocks of one shape (tables with the same header,
lists): its records are the rows (items) of all those blocks together, the fields are the blocks'
columns (slots), and the heading becomes one more candidate, read per record with
``./preceding::h3[1]`` (the nearest heading above the record). A heading of the form
``Label: value`` gives the candidate its label and keeps the value only.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from prefect_autodata.agents.induction import regions, tables
from prefect_autodata.agents.induction.dom import abs_path, clean, elements, xq
from prefect_autodata.agents.induction.matching import Candidate, dominant_type

_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
_BLOCKS = {"table", "ul", "ol", "dl", "div"}
_LABELLED = re.compile(r"^([^:]{1,30}):\s*(\S.*)$")
# A group heading often ends with the size of its group ("0.9.2 (4 matches)", "Drama (12)"): the
# count is the group's, not a value of its records.
_COUNT_TAIL = r"\s*\(\s*\d[\d,]*(?:\s+[^\d()]{1,20})?\s*\)"
_COUNTED = re.compile(rf"^(.*?\S){_COUNT_TAIL}\s*$")
# A heading value in parentheses ("(none)", "(no milestone)") is the page's remark for records
# without a value, not a value.
_REMARK = re.compile(r"^\(.*\)$")


@dataclass
class Group:
    """Records of every block under the headings of one parent, with their candidates."""

    records_xpath: str
    rows: int
    candidates: list[Candidate] = field(default_factory=list)
    heading: str = "h2"


def _locate(node: Any) -> str:
    nid = node.get("id")
    if nid and not re.search(r"\d{3,}", nid):
        return f"//{node.tag}[@id={xq(nid)}]"
    return abs_path(node)


_GROUPED_BY = re.compile(r"\bby\s+([^\W\d_][\w ]{0,28}?)\s*(?:$|[—–|:(-]|\s[—–|-]\s)", re.I)


def grouping_label(root: Any) -> str | None:
    """What the page says it groups by: "Movies by genre — Site" (``<title>`` or ``<h1>``) → "genre"."""
    for xp in ("//title", "//h1"):
        for node in root.xpath(xp)[:1]:
            m = _GROUPED_BY.search(clean(node.text_content()))
            if m:
                return m.group(1).strip()
    return None


def _heading_candidate(level: str, heads: list[str], by: str | None = None) -> Candidate:
    """The heading above each record as a candidate; ``Label: value`` headings keep the value.

    Bare headings ("Drama") take as label what the page says it groups by, when it says so.
    """
    found = [_LABELLED.match(h) for h in heads]
    labels = {m.group(1).strip() for m in found if m}
    transforms: list[dict[str, Any]] = [{"op": "collapse_whitespace"}]
    # Letter headings ("A", "B-C") index the records' names; they are not what the page groups by.
    label = by if not all(len(h) <= 3 and not any(ch.isdigit() for ch in h) for h in heads) else None
    values = heads
    if heads and all(found) and len(labels) == 1:
        label = labels.pop()
        values = [m.group(2).strip() for m in found if m]
        transforms.append({"op": "regex", "pattern": r"^[^:]*:\s*(.*)$"})
    counted = [_COUNTED.match(v) for v in values]
    if len(values) > 1 and all(counted):  # every heading states its group's size: cut it off
        values = [m.group(1) for m in counted if m]
        transforms.append({"op": "regex", "pattern": rf"^(.*?\S){_COUNT_TAIL}\s*$"})
    if any(_REMARK.match(v) for v in values) and not all(_REMARK.match(v) for v in values):
        values = [None if _REMARK.match(v) else v for v in values]
        transforms.append({"op": "regex", "pattern": r"^([^(].*)$"})
    return Candidate(
        label=label,
        values=values,
        rule={"xpath": f"./preceding::{level}[1]", "transforms": transforms},
        origin="section heading",
        anchor=0.7 if label else 0.5,
        notes=[f"the <{level}> heading above each record"],
    )


def groups(root: Any, page_url: str = "") -> list[Group]:
    """Every set of heading-led blocks of records on the page, largest first."""
    out: list[Group] = []
    by = grouping_label(root)
    by_table = {
        id(t.element): t for t in tables.tables(root, min_rows=1, merge=False) if t.element is not None
    }
    for parent in root.iter(*_BLOCKS, "section", "main", "article", "body"):
        kids = elements(parent)
        levels = Counter(k.tag for k in kids if k.tag in _HEADINGS)
        if not levels:
            continue
        level = levels.most_common(1)[0][0]
        pairs: list[tuple[str, Any]] = []  # (heading text, block)
        current = None
        for k in kids:
            if k.tag == level:
                current = clean(k.text_content())
            elif current is not None and k.tag in _BLOCKS:
                pairs.append((current, k))
        if not pairs:
            continue
        tags = Counter(b.tag for _, b in pairs)
        tag, n = tags.most_common(1)[0]
        pairs = [(h, b) for h, b in pairs if b.tag == tag]
        single = len({h for h, _ in pairs}) < 2 and n < 2
        # One heading over one block is a titled table, nothing to carry down; unless the page says
        # it groups by something ("Papers by year") or the heading is "Label: value", and the block
        # holds no headings of its own (then the groups are inside it) under a heading below <h1>.
        lone = (by or _LABELLED.match(pairs[0][0])) and level != "h1"
        if single and not (lone and next(pairs[0][1].iter(*_HEADINGS), None) is None):
            continue
        g = _table_group(parent, level, pairs, by_table, by) if tag == "table" else None
        if g is None and tag in ("ul", "ol", "div", "dl"):
            g = _list_group(parent, level, pairs, page_url, by)
        if g is not None and g.rows >= 2:
            out.append(g)
    out.sort(key=lambda g: -g.rows)
    return out


def _table_group(
    parent: Any, level: str, pairs: list[tuple[str, Any]], by_table: dict, by: str | None
) -> Group | None:
    ts = [(h, by_table.get(id(b))) for h, b in pairs]
    if any(t is None or t.transposed or t.header_column for _, t in ts):
        return None
    first = ts[0][1]
    ts = [(h, t) for h, t in ts if t.labels == first.labels]
    if len(ts) < len(pairs) or len(ts) < 1:
        return None
    path = _locate(parent)
    records = f"({path}/table/tr | {path}/table/tbody/tr)[td]"
    bold = first.records_xpath.rsplit(")[td]", 1)[-1]  # a bold-<td> header row's exclusion
    records += bold
    heads: list[str] = []
    cands = []
    width = len(first.labels)
    columns: list[list[str]] = [[] for _ in range(width)]
    for h, t in ts:
        heads += [h] * t.rows
        for i in range(width):
            columns[i] += t.columns[i] if i < len(t.columns) else [""] * t.rows
    for i, (label, values) in enumerate(zip(first.labels, columns, strict=True)):
        kind, _ = dominant_type(values)
        cands.append(
            Candidate(
                label=label,
                values=values,
                rule={"xpath": first.cell_xpath(i), "transforms": [{"op": "collapse_whitespace"}]},
                origin="table",
                identity=(i == 0 and len(set(values)) == len(values) and kind == "text"),
                anchor=0.8 if label else 0.3,
            )
        )
    cands.append(_heading_candidate(level, heads, by))
    return Group(records_xpath=records, rows=len(heads), candidates=cands, heading=level)


def _list_group(
    parent: Any, level: str, pairs: list[tuple[str, Any]], page_url: str, by: str | None
) -> Group | None:
    items: list[Any] = []
    heads: list[str] = []
    # the items' tag over all blocks: a note after the last group (``<div><br></div>``, a footer
    # line) is a block without any such item, not a group of records
    shapes = Counter(k.tag for _, b in pairs for k in elements(b))
    item_tag = shapes.most_common(1)[0][0] if shapes else None
    skipped = False
    for h, b in pairs:
        kids = elements(b)
        if not kids or not any(k.tag == item_tag for k in kids):
            skipped = skipped or bool(kids)
            continue
        tag = Counter(k.tag for k in kids).most_common(1)[0][0]
        if tag != item_tag:
            return None
        got = [k for k in kids if k.tag == tag]
        items += got
        heads += [h] * len(got)
    if len(items) < 2 or item_tag is None:
        return None
    if skipped and len(set(heads)) < 2:
        return None  # one heading over blocks of several shapes: a record's own parts, not groups
    block = pairs[0][1].tag
    records = f"{_locate(parent)}/{block}/{item_tag}"
    region = regions.Region(parent=parent, items=items, records_xpath=records, score=0)
    sample = regions.sample_items(items)
    keep = {id(x) for x in sample}
    cands = regions.slots(region, page_url)
    cands.append(
        _heading_candidate(level, [h for x, h in zip(items, heads, strict=True) if id(x) in keep], by)
    )
    return Group(records_xpath=records, rows=len(items), candidates=cands, heading=level)

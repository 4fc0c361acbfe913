"""One vertical label/value table per record, repeated over the page (library catalogues, registries).

A WebPAC result, a parts register or a CMS "details" box prints each record as a small table whose
rows are "label | value" (``<td class=label>Author</td><td>Halvorsen, Ingrid</td>``; ``<th>`` or
``<td>``, the row's first cell is the label), one such table per record. Read as tables they are
two-column tables of a few rows each, or layout tables holding tables; neither is a record set.

Told by structure: two or more tables whose every row is two cells, the first a short label, and
whose label sets share most labels. The record is the largest block around each table that holds
no other of them (the result row holding the table, its holdings table and its links), so every
field of the record (a holdings table's "CALL #" below its header) is read inside it. Fields come
from :func:`regions.slots` over those blocks (label/value pairs among them), plus the cells of small
header tables inside a record, each named by its header cell.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from prefect_autodata.agents.induction import attrs, regions
from prefect_autodata.agents.induction.dom import clean, elements, xq
from prefect_autodata.agents.induction.matching import Candidate, is_template

MAX_LABEL = 40
MAX_LABEL_WORDS = 5


def _cells(tr: Any) -> list[Any]:
    return [c for c in elements(tr) if c.tag in ("td", "th")]


def _own_rows(table: Any) -> list[Any]:
    return [tr for tr in table.iter("tr") if next(tr.iterancestors("table"), None) is table and _cells(tr)]


def labels_of(table: Any) -> tuple[str, ...] | None:
    """The row labels of a vertical label/value table, or None when ``table`` is not one."""
    rows = _own_rows(table)
    if len(rows) < 2 or any(len(_cells(tr)) != 2 for tr in rows):
        return None
    if any(_cells(tr)[1].tag != "td" for tr in rows):
        return None  # a row of two <th>s is a header row over columns, not a label and its value
    labs = []
    for tr in rows:
        lab = clean(_cells(tr)[0].text_content()).rstrip(":").strip()
        if not lab or len(lab) > MAX_LABEL or len(lab.split()) > MAX_LABEL_WORDS:
            return None
        if not re.search(r"[^\W\d_]", lab):
            return None  # "1", "2009": a value, not a label
        labs.append(lab)
    if len(set(labs)) != len(labs):
        return None
    return tuple(labs)


def _climb(table: Any, group: set[Any]) -> Any:
    """The largest ancestor-or-self of ``table`` that holds no other table of ``group``."""
    cur = table
    for anc in table.iterancestors():
        if anc.tag in ("body", "html"):
            break
        if sum(1 for t in anc.iter("table") if t in group) > 1:
            break
        cur = anc
    return cur


def _header_tables(items: list[Any]) -> list[Candidate]:
    """Cells of small tables inside records under a header row of ``<th>``s: named by their header."""
    n = len(items)
    got: dict[tuple[str, int], dict[int, str]] = {}
    for idx, item in enumerate(items):
        for t in item.iter("table"):
            rows = _own_rows(t)
            if len(rows) < 2 or not all(c.tag == "th" for c in _cells(rows[0])):
                continue
            if any(c.tag == "th" for tr in rows[1:] for c in _cells(tr)):
                continue
            heads = [clean(c.text_content()) for c in _cells(rows[0])]
            first = _cells(rows[1])
            if len(first) != len(heads):
                continue
            for i, h in enumerate(heads):
                if h and len(h) <= MAX_LABEL:
                    got.setdefault((h, i), {}).setdefault(idx, clean(first[i].text_content()))
    out = []
    for (head, i), vals in got.items():
        if len(vals) < max(2, n // 2):
            continue
        values = [vals.get(k) for k in range(n)]
        if is_template(values):
            continue
        xp = f"(.//table[tr[th[normalize-space()={xq(head)}]] or */tr[th[normalize-space()={xq(head)}]]]"
        xp += f"//tr[td])[1]/td[{i + 1}]"
        out.append(
            regions.cell_candidate(head, values, xp, anchor=0.8, notes=["a header table inside each record"])
        )
    return out


def find(root: Any, page_url: str = "") -> list[regions.ItemRecords]:
    """The page's records when each is one vertical label/value table (none when fewer than two)."""
    found = {t: labs for t in root.xpath("//table") if (labs := labels_of(t)) is not None}
    if len(found) < 2:
        return []
    freq = Counter(lab for labs in found.values() for lab in set(labs))
    shared = {lab for lab, k in freq.items() if k >= 2}
    group = [t for t, labs in found.items() if sum(lab in shared for lab in labs) * 2 >= len(labs)]
    group = [t for t in group if sum(lab in shared for lab in found[t]) >= 2]
    if len(group) < 2:
        return []
    members = set(group)
    items = [_climb(t, members) for t in group]
    parents = {it.getparent() for it in items}
    if len(parents) != 1 or len({it.tag for it in items}) != 1 or len(set(items)) != len(items):
        items = group  # not siblings: each table alone is the record
    parent = items[0].getparent()
    if {it.getparent() for it in items} != {parent}:
        return []
    xp = regions.records_xpath(parent, items)
    if xp is None:
        return []
    region = regions.Region(parent=parent, items=items, records_xpath=xp, score=0.0)
    cands = regions.slots(region, page_url)
    sample = regions.sample_items(items)
    cands += attrs.candidates(sample) + _header_tables(sample)
    return [
        regions.ItemRecords(
            records_xpath=xp,
            items=items,
            candidates=cands,
            detail_link=region.detail_link,
            why="records each a vertical label/value table",
        )
    ]

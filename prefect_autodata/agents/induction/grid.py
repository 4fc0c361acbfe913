"""Records that are the cells of a grid table: a time slot per row, a room (a day, a court) per column.

A conference schedule, a timetable or a tournament draw prints one record per *cell*: the talk in
the cell at 09:45 x Room B2 holds its title and speaker, and its room and start time are printed
once, in the column's header and in the row's header cell. Read row by row such a table offers
rows of half-records (one row holds three talks).

Told by structure: a header row of three or more cells over the columns, body rows led by a header
cell (``<th>``), and body cells that hold two or more pieces of text each (a link and a name), most
of the filled cells being such. Each such cell is a record; cells of one piece of text or none (a
coffee break across all rooms, an empty slot) are not. Fields come from :func:`regions.slots` over
the cells, plus the column's header (the cell's position in its row, counting ``colspan``) and the
row's header cell, each named by the class its header cells share, else by the corner cell's text.
A ``rowspan`` of an earlier column in an earlier row shifts the positions of the cells beside it in
the rows it covers: the column header is then read for the position the cell has in its own row.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from prefect_autodata.agents.induction import attrs, regions
from prefect_autodata.agents.induction.dom import abs_path, classes, clean, elements, xq
from prefect_autodata.runtime.extract import SPAN_COPY

MIN_RECORDS = 4
MIN_COLUMNS = 2
#: the share of a grid's filled body cells that must be records (two pieces of text or more)
MIN_RECORD_SHARE = 0.6
# a record cell: two or more elements without element children that carry text
_PIECES = "count(.//*[not(*)][normalize-space()])"


def _cells(tr: Any) -> list[Any]:
    return [c for c in elements(tr) if c.tag in ("td", "th")]


def _own_rows(table: Any) -> list[Any]:
    return [tr for tr in table.iter("tr") if next(tr.iterancestors("table"), None) is table and _cells(tr)]


def _pieces(cell: Any) -> int:
    return int(cell.xpath(_PIECES))


def _span(cell: Any) -> int:
    try:
        return max(1, int(cell.get("colspan") or 1))
    except ValueError:
        return 1


def _locate(table: Any) -> str:
    """The table by its id, else by its class when no other table has it, else by its path."""
    tid = table.get("id")
    if tid:
        return f"//table[@id={xq(tid)}]"
    cls = table.get("class")
    if cls and len(table.getroottree().getroot().xpath(f"//table[@class={xq(cls)}]")) == 1:
        return f"//table[@class={xq(cls)}]"
    return abs_path(table)


def _shared_class(cells: list[Any]) -> str | None:
    """The one class every cell of ``cells`` has and no other cell class among them: their name."""
    common = set(classes(cells[0])) if cells else set()
    for c in cells[1:]:
        common &= set(classes(c))
    return next(iter(common)) if len(common) == 1 else None


def _header_xpath(lead: int, columns: int) -> str:
    """Per record cell, the header cell over its column: the cell's position in its row (``colspan``
    counted) picks the header row's cell, one branch per column (XPath 1.0 has no variables)."""
    pos = (
        "count(preceding-sibling::td) + sum(preceding-sibling::td/@colspan)"
        " - count(preceding-sibling::td[@colspan])"
    )
    branches = [
        f"self::td[{pos} = {j}]/ancestor::table[1]/descendant::tr[1]/*[{lead + j + 1}]"
        for j in range(columns)
    ]
    return "(" + " | ".join(branches) + ")"


def _grid(table: Any, page_url: str) -> regions.ItemRecords | None:
    rows = _own_rows(table)
    if len(rows) < 3:
        return None
    head = _cells(rows[0])
    body = rows[1:]
    # body rows led by a header cell; the header row's cells that stand over those lead cells
    led = [tr for tr in body if _cells(tr)[0].tag == "th" and clean(_cells(tr)[0].text_content())]
    if len(led) < max(2, len(body) // 2) or any(_cells(tr)[0].tag != "th" for tr in body):
        return None
    lead = Counter(sum(1 for c in _cells(tr) if c.tag == "th") for tr in led).most_common(1)[0][0]
    columns = len(head) - lead
    if columns < MIN_COLUMNS or any(c.tag != "th" for c in head[lead:]):
        return None
    data = [c for tr in body for c in _cells(tr) if c.tag == "td"]
    filled = [c for c in data if clean(c.text_content())]
    # a copy of a taller cell in a row it covers (dom.parse lays spans out) is that cell, not a new record
    records = [c for c in filled if _pieces(c) >= 2 and c.get(SPAN_COPY) is None]
    if len(records) < MIN_RECORDS or len(records) < MIN_RECORD_SHARE * len(filled):
        return None
    if len({c.getparent() for c in records}) < 2:
        return None
    path = _locate(table)
    xp = f"({path}/tr/td | {path}/tbody/tr/td)[{_PIECES} >= 2]"
    if any(c.get(SPAN_COPY) is not None for c in filled):
        xp += f"[not(@{SPAN_COPY})]"
    if table.getroottree().getroot().xpath(xp) != records:
        return None
    region = regions.Region(parent=table, items=records, records_xpath=xp, score=0.0)
    cands = regions.slots(region, page_url)
    sample = regions.sample_items(records)
    cands += attrs.candidates(sample)
    corner = clean(" ".join(c.text_content() for c in head[:lead])) or None
    col_rule = _header_xpath(lead, columns)
    row_rule = "../th[1]"
    for rule, over, what in (
        (col_rule, head[lead:], "the header over each record's column"),
        (row_rule, [_cells(tr)[0] for tr in led], "the header cell of each record's row"),
    ):
        values = []
        for cell in sample:
            got = cell.xpath(rule)
            values.append(clean(got[0].text_content()) if got else None)
        label = _shared_class(over)
        if label is None and rule == row_rule:
            label = corner
        cands.append(regions.cell_candidate(label, values, rule, anchor=0.7 if label else 0.4, notes=[what]))
    return regions.ItemRecords(
        records_xpath=xp,
        items=records,
        candidates=cands,
        detail_link=region.detail_link,
        why="records the cells of a grid table",
    )


def find(root: Any, page_url: str = "") -> list[regions.ItemRecords]:
    """Every grid table of the page whose cells are records, most records first."""
    out = [g for t in root.xpath("//table") if (g := _grid(t, page_url)) is not None]
    out.sort(key=lambda g: -g.count)
    return out

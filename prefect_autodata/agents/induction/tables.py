"""HTML tables as record sets: header rows (``<thead>``, a first row of ``<th>``, a first row of bold
``<td>``s on older pages, several header rows merged, ``colspan`` spread), header columns (each row
led by its label: one record per table, or one record per *column* when several columns follow), and
tables without any header (then columns are unlabelled and matched by their values alone).

The table is located by one of its header labels (``//table[tr/*[normalize-space()='Capital']]``)
when it has one, so a page that gains a banner table above still reads the same table; columns are
addressed by position inside a row, which the header verified. Layout tables (a table whose cells
hold tables) are not record sets: the tables inside them are. Copies of records in page chrome
(a "Featured" box in an ``<aside>``, a footer table) give way to the tables of the content.

A cell's value is its text as the page shows it: pieces in adjacent inline elements join without a
space (``<span>PG</span><span>-13</span>`` is "PG-13"), a ``<br>`` is a space; exactly what the
runtime reads with the rule's XPath, so sample values and extracted values agree.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from prefect_autodata.agents.induction.dom import abs_path, clean, elements, xq
from prefect_autodata.agents.induction.matching import dominant_type

_CHROME = {"nav", "header", "footer", "aside", "form", "menu"}
_BOLD = ("b", "strong")


@dataclass
class Table:
    """One data table: where its record rows are and, per column, the label and sample values.

    ``transposed``: one record per column (labels in the first column); then ``records_xpath``
    selects one cell per record and ``cell_xpaths`` read each field with the runtime's ``$col``.
    """

    records_xpath: str
    labels: list[str | None]
    columns: list[list[str]]
    links: dict[int, list[str | None]] = field(default_factory=dict)
    aliases: dict[int, list[str]] = field(default_factory=dict)
    header_column: bool = False
    rows: int = 0
    transposed: bool = False
    chrome: bool = False
    cell_xpaths: list[str] | None = None
    element: Any = None

    def cell_xpath(self, col: int) -> str:
        """Relative XPath of column ``col`` (0-based) inside one record row."""
        if self.cell_xpaths is not None:
            return self.cell_xpaths[col]
        return f"./*[self::td or self::th][{col + 1}]"


def cell_text(node: Any) -> str:
    """The text the runtime reads from ``node`` (``text_content``, ``<br>`` as a space), collapsed."""
    if node is None:
        return ""
    if node.find(".//br") is not None:
        node = copy.deepcopy(node)
        for br in node.iter("br"):
            br.tail = "\n" + (br.tail or "")
    return clean(node.text_content())


def _cells(tr: Any) -> list[Any]:
    return [c for c in elements(tr) if c.tag in ("td", "th")]


def _span(c: Any) -> int:
    try:
        return max(1, min(int(c.get("colspan") or 1), 50))
    except ValueError:
        return 1


def _expand(tr: Any) -> list[str]:
    out: list[str] = []
    for c in _cells(tr):
        out += [cell_text(c)] * _span(c)
    return out


def _own_rows(table: Any) -> list[Any]:
    """Rows of this table (not of tables nested in its cells)."""
    return [tr for tr in table.iter("tr") if next(tr.iterancestors("table"), None) is table]


def _bold_cell(c: Any) -> bool:
    """A cell whose whole text is bold (``<td><b>Name</b></td>``): a header cell of an older page."""
    t = cell_text(c)
    if not t:
        return True
    bold = " ".join(
        cell_text(b) for b in c.iter(*_BOLD) if not any(a.tag in _BOLD for a in b.iterancestors())
    )
    return clean(bold) == t


def _is_header_row(tr: Any) -> bool:
    cells = _cells(tr)
    return bool(cells) and (
        all(c.tag == "th" for c in cells) or (tr.getparent() is not None and tr.getparent().tag == "thead")
    )


def _bold_header(rows: list[Any]) -> bool:
    """The first row is all bold ``<td>``s (some text) and the next row is not: a header row."""
    if len(rows) < 2:
        return False
    first, second = _cells(rows[0]), _cells(rows[1])
    if not first or not any(cell_text(c) for c in first) or not all(_bold_cell(c) for c in first):
        return False
    return not all(_bold_cell(c) for c in second)


def _in_chrome(node: Any) -> bool:
    return any(a.tag in _CHROME for a in node.iterancestors())


_LAYOUT_BLOCKS = ("table", "h1", "h2", "h3", "h4", "h5", "h6", "hr")


def _is_layout(table: Any, rows: list[Any]) -> bool:
    """A table whose own cells hold other tables, headings or rules lays the page out (a banner row
    with the site's title, a navigation column, a content cell); its records, if any, are in those."""
    return any(next(c.iter(*_LAYOUT_BLOCKS), None) is not None for tr in rows for c in _cells(tr))


def tables(root: Any, *, min_rows: int = 2) -> list[Table]:
    """Every table with at least ``min_rows`` record rows, as record sets (header-column tables too).

    Tables in page chrome (aside, nav, header, footer) are left out when the content has a table.
    """
    out: list[Table] = []
    all_tables = root.xpath("//table")
    for table in all_tables:
        rows = [tr for tr in _own_rows(table) if _cells(tr)]
        if not rows or _is_layout(table, rows):
            continue
        head = []
        for tr in rows:
            if _is_header_row(tr):
                head.append(tr)
            else:
                break
        bold_head = False
        if not head and _bold_header(rows):
            head, bold_head = [rows[0]], True
        body = [tr for tr in rows if tr not in head and not _in_tfoot(tr, table)]
        chrome = _in_chrome(table)
        t = _transposed(table, head, body, all_tables)
        if t is not None:
            t.chrome = chrome
            out.append(t)
            continue
        summary = None if _header_column(body) else _summary_row(body)
        if summary is not None:
            body = [tr for tr in body if tr is not summary]
        if len(body) < min_rows and not _header_column(body):
            continue
        locate = _locator(table, head, all_tables)
        if not head and _header_column(body):
            out.append(_vertical(body, locate))
            out[-1].chrome = chrome
            continue
        width = max((len(_expand(tr)) for tr in body), default=0)
        if width < 1:
            continue
        labels: list[str | None] = [None] * width
        aliases: dict[int, list[str]] = {}
        if head:
            grid = [_expand(tr) for tr in head]
            for i in range(width):
                parts = []
                for g in grid:
                    if i < len(g) and g[i] and (not parts or parts[-1] != g[i]):
                        parts.append(g[i])
                # The lowest header row names the column ("listed on"); the rows above group columns
                # ("Details" over three of them) and are kept as a further name ("Details listed on").
                labels[i] = parts[-1] if parts else None
                if len(parts) > 1:
                    aliases[i] = [" ".join(parts)]
        columns: list[list[str]] = [[] for _ in range(width)]
        links: dict[int, list[str | None]] = {}
        for tr in body:
            cells = _cells(tr)
            for i in range(width):
                c = cells[i] if i < len(cells) else None
                columns[i].append(cell_text(c) if c is not None else "")
                a = c.find(".//a[@href]") if c is not None else None
                links.setdefault(i, []).append(a.get("href") if a is not None else None)
        links = {i: v for i, v in links.items() if sum(1 for x in v if x) >= max(1, len(body) // 2)}
        rows_xp = f"({locate}/tr | {locate}/tbody/tr)[td]"
        if bold_head:
            k, lab = next(((i, x) for i, x in enumerate(_expand(head[0])) if x), (0, ""))
            rows_xp += f"[not(*[{k + 1}][normalize-space()={xq(lab)}])]"
        if summary is not None:
            rows_xp += _exclude(summary, body)
        out.append(
            Table(
                records_xpath=rows_xp,
                labels=labels,
                columns=columns,
                links=links,
                aliases=aliases,
                rows=len(body),
                chrome=chrome,
                element=table,
            )
        )
    if any(not t.chrome and t.rows >= min_rows for t in out):
        out = [t for t in out if not t.chrome]
    return out


def _in_tfoot(tr: Any, table: Any) -> bool:
    parent = tr.getparent()
    return parent is not None and parent.tag == "tfoot" and parent.getparent() is table


# Words a totals row is labelled with (English, German, French, Spanish, Italian).
_TOTALS = {
    "total", "totals", "grand total", "sum", "overall", "all", "gesamt", "insgesamt", "summe",
    "somme", "suma", "totale", "totaux", "total general", "total général",
}  # fmt: skip


def _number(text: str) -> float | None:
    t = text.replace(",", "").replace("\u202f", "").replace("\u00a0", "").replace(" ", "")
    t = t.rstrip("%").lstrip("$€£")
    try:
        return float(t)
    except ValueError:
        return None


def _summary_row(body: list[Any]) -> Any | None:
    """The last row when it sums up the rows above it rather than being one more record.

    Told by structure and content, not by position alone: its numbers are the column sums of the
    other rows; or its label is a totals word ("Total", "Gesamt"); or it is unlike every other row,
    all bold where they are not, leaving empty a column every other row fills.
    """
    if len(body) < 4:
        return None
    last, others = body[-1], body[:-1]
    cells = [cell_text(c) for c in _cells(last)]
    grid = [[cell_text(c) for c in _cells(tr)] for tr in others]
    width = len(cells)
    if width < 2 or any(len(r) != width for r in grid):
        return None
    label = next((x for x in cells if x), "")
    if label.lower().rstrip(":") in _TOTALS:
        return last
    sums, checked = 0, 0
    for i, v in enumerate(cells):
        mine = _number(v)
        col = [_number(r[i]) for r in grid]
        if mine is None or any(x is None for x in col):
            continue
        checked += 1
        total = sum(x for x in col if x is not None)
        if abs(total - mine) <= max(1e-9, 0.005 * abs(total)) and len(set(col)) > 1:
            sums += 1
    if sums >= 1 and sums * 2 >= checked and len(others) >= 4:  # three rows may sum by chance
        return last
    bold = [c for c in _cells(last) if cell_text(c)]
    others_bold = sum(1 for tr in others for c in _cells(tr) if cell_text(c) and _bold_cell(c))
    others_cells = sum(1 for r in grid for x in r if x)
    emptied = any(not cells[i] and all(r[i] for r in grid) for i in range(width))
    if bold and all(_bold_cell(c) for c in bold) and others_bold <= 0.2 * others_cells and emptied:
        return last
    return None


def _exclude(row: Any, body: list[Any]) -> str:
    """A predicate that leaves ``row`` out of the record rows: its own class, else its label cell."""
    cls = row.get("class")
    if cls and not any(tr.get("class") == cls for tr in body):
        return f"[not(@class={xq(cls)})]"
    k, lab = next(((i, cell_text(c)) for i, c in enumerate(_cells(row)) if cell_text(c)), (0, ""))
    return f"[not(*[{k + 1}][normalize-space()={xq(lab)}])]"


def _header_column(body: list[Any]) -> bool:
    """Each row starts with a ``<th>`` label followed by one value: a record laid out vertically."""
    return len(body) >= 2 and all(
        len(_cells(tr)) == 2 and _cells(tr)[0].tag == "th" and _cells(tr)[1].tag == "td" for tr in body
    )


def _vertical(body: list[Any], locate: str) -> Table:
    labels = [cell_text(_cells(tr)[0]) for tr in body]
    values = [[cell_text(_cells(tr)[1])] for tr in body]
    return Table(
        records_xpath=locate, labels=labels, columns=values, header_column=True, rows=1
    )  # the labels module reads such tables by label (th → td)


def _homogeneity(grid: list[list[str]]) -> float:
    """Mean share of the dominant value type per line of ``grid`` (how field-like each line is)."""
    shares = []
    for line in grid:
        kind, share = dominant_type(line)
        if kind != "empty":
            shares.append(share if kind != "text" else share * 0.9)
    return sum(shares) / len(shares) if shares else 0.0


def _transposed(table: Any, head: list[Any], body: list[Any], all_tables: list[Any]) -> Table | None:
    """One record per column: every row a field led by its label cell, two or more value columns.

    A first row of ``#1, #2`` (or empty) headers above the record columns is allowed. Told apart from
    a table whose rows are records led by their name by the shape of the values: a field's values
    (one row here) share a type more than a record's values do.
    """
    rows = [*head, *body]
    if len(head) > 1 or len(body) < 2:
        return None
    if head and cell_text(_cells(head[0])[0]):
        return None  # a labelled corner: the first column is a column of records' names
    lead = [_cells(tr)[0] for tr in body]
    if not all(c.tag == "th" or _bold_cell(c) for c in lead) or not all(cell_text(c) for c in lead):
        return None
    width = {len(_cells(tr)) for tr in rows}
    if len(width) != 1 or width.pop() < 3:
        return None
    if any(c.tag == "th" for tr in body for c in _cells(tr)[1:]):
        return None
    labels = [cell_text(c) for c in lead]
    if len(set(labels)) != len(labels):
        return None
    grid = [[cell_text(c) for c in _cells(tr)[1:]] for tr in body]
    cols = [list(x) for x in zip(*grid, strict=True)]
    if not head and _homogeneity(grid) < _homogeneity(cols):
        return None
    locate = _locator(table, [], all_tables, row_labels=labels)
    records = f"({locate}/tr | {locate}/tbody/tr)[*[1][normalize-space()={xq(labels[0])}]]/*[position()>1]"
    xps = [f"ancestor::table[1]//tr[*[1][normalize-space()={xq(lab)}]]/*[$col]" for lab in labels]
    return Table(
        records_xpath=records,
        labels=list(labels),
        columns=grid,
        rows=len(cols),
        transposed=True,
        cell_xpaths=xps,
    )


def _locator(table: Any, head: list[Any], all_tables: list[Any], row_labels: list[str] | None = None) -> str:
    """An XPath that finds this table again: by id, by a header label unique to it, else by position."""
    tid = table.get("id")
    if tid:
        return f"//table[@id={xq(tid)}]"
    doc = table.getroottree()
    labs = [cell_text(c) for tr in head for c in _cells(tr)] + list(row_labels or [])
    for lab in labs:
        if not lab or len(lab) > 40:
            continue
        xp = f"//table[tr/*[normalize-space()={xq(lab)}] or */tr/*[normalize-space()={xq(lab)}]]"
        if len(doc.xpath(xp)) == 1:
            return xp
    cls = table.get("class")
    if cls:
        xp = f"//table[@class={xq(cls)}]"
        if len(doc.xpath(xp)) == 1:
            return xp
    return abs_path(table)

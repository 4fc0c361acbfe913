"""HTML tables as record sets: header rows (``<thead>``, a first row of ``<th>``, several header rows
merged, ``colspan`` spread), header columns (each row led by its label: one record per table), and
tables without any header (then columns are unlabelled and matched by their values alone).

The table is located by one of its header labels (``//table[.//th[normalize-space()='Capital']]``)
when it has one, so a page that gains a banner table above still reads the same table; columns are
addressed by position inside a row, which the header verified.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from prefect_autodata.agents.induction.dom import abs_path, clean, elements, text, xq


@dataclass
class Table:
    """One data table: where its record rows are and, per column, the label and sample values."""

    records_xpath: str
    labels: list[str | None]
    columns: list[list[str]]
    links: dict[int, list[str | None]] = field(default_factory=dict)
    header_column: bool = False
    rows: int = 0

    def cell_xpath(self, col: int) -> str:
        """Relative XPath of column ``col`` (0-based) inside one record row."""
        return f"./*[self::td or self::th][{col + 1}]"


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
        out += [clean(c.text_content())] * _span(c)
    return out


def _own_rows(table: Any) -> list[Any]:
    """Rows of this table (not of tables nested in its cells)."""
    return [tr for tr in table.iter("tr") if next(tr.iterancestors("table"), None) is table]


def _is_header_row(tr: Any) -> bool:
    cells = _cells(tr)
    return bool(cells) and (
        all(c.tag == "th" for c in cells) or (tr.getparent() is not None and tr.getparent().tag == "thead")
    )


def tables(root: Any, *, min_rows: int = 2) -> list[Table]:
    """Every table with at least ``min_rows`` record rows, as record sets (header-column tables too)."""
    out: list[Table] = []
    all_tables = root.xpath("//table")
    for table in all_tables:
        rows = _own_rows(table)
        if not rows:
            continue
        head = []
        for tr in rows:
            if _is_header_row(tr):
                head.append(tr)
            else:
                break
        body = [tr for tr in rows if tr not in head and _cells(tr)]
        if len(body) < min_rows and not _header_column(body):
            continue
        locate = _locator(table, head, all_tables)
        if not head and _header_column(body):
            out.append(_transposed(table, body, locate))
            continue
        width = max((len(_expand(tr)) for tr in body), default=0)
        if width < 1:
            continue
        labels: list[str | None] = [None] * width
        if head:
            grid = [_expand(tr) for tr in head]
            for i in range(width):
                parts = []
                for g in grid:
                    if i < len(g) and g[i] and (not parts or parts[-1] != g[i]):
                        parts.append(g[i])
                labels[i] = " ".join(parts) or None
        columns: list[list[str]] = [[] for _ in range(width)]
        links: dict[int, list[str | None]] = {}
        for tr in body:
            cells = _cells(tr)
            for i in range(width):
                c = cells[i] if i < len(cells) else None
                columns[i].append(text(c) if c is not None else "")
                a = c.find(".//a[@href]") if c is not None else None
                links.setdefault(i, []).append(a.get("href") if a is not None else None)
        links = {i: v for i, v in links.items() if sum(1 for x in v if x) >= max(1, len(body) // 2)}
        out.append(
            Table(
                records_xpath=f"{locate}//tr[td][not(parent::thead)]",
                labels=labels,
                columns=columns,
                links=links,
                rows=len(body),
            )
        )
    return out


def _header_column(body: list[Any]) -> bool:
    """Each row starts with a ``<th>`` label followed by one value: a record laid out vertically."""
    return len(body) >= 2 and all(
        len(_cells(tr)) == 2 and _cells(tr)[0].tag == "th" and _cells(tr)[1].tag == "td" for tr in body
    )


def _transposed(table: Any, body: list[Any], locate: str) -> Table:
    labels = [clean(_cells(tr)[0].text_content()) for tr in body]
    values = [[text(_cells(tr)[1])] for tr in body]
    return Table(
        records_xpath=locate, labels=labels, columns=values, header_column=True, rows=1
    )  # the labels module reads such tables by label (th → td)


def _locator(table: Any, head: list[Any], all_tables: list[Any]) -> str:
    """An XPath that finds this table again: by id, by a header label unique to it, else by position."""
    tid = table.get("id")
    if tid:
        return f"//table[@id={xq(tid)}]"
    for tr in head:
        for c in _cells(tr):
            lab = clean(c.text_content())
            if not lab or len(lab) > 40:
                continue
            xp = f"//table[.//th[normalize-space()={xq(lab)}]]"
            if len(table.getroottree().xpath(xp)) == 1:
                return xp
    cls = table.get("class")
    if cls:
        xp = f"//table[@class={xq(cls)}]"
        if len(table.getroottree().xpath(xp)) == 1:
            return xp
    return abs_path(table)

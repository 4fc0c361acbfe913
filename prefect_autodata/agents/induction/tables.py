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
import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any

from prefect_autodata.agents.induction import forms, headrows
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
    body: list[Any] = field(default_factory=list)
    head_labels: tuple[str, ...] = ()
    title: str | None = None  # the row of one cell across the table above its labels

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


_SLASH = re.compile(r"\s*/\s*")


def split_spanned(text: str, span: int) -> list[str] | None:
    """A header cell over ``span`` columns that names each of them, slash-separated: "High / Low" over
    two columns is "High" and "Low"; "Change Net / %" is "Net Change" and "% Change" (the words the
    first name has beyond the others are shared by all, the head noun the names modify). None when
    the text does not split into ``span`` names."""
    if span < 2:
        return None
    parts = [p for p in _SLASH.split(text.strip())]
    if len(parts) != span or not all(parts):
        return None
    words = [p.split() for p in parts]
    rest = max(len(w) for w in words[1:])
    if len(words[0]) > rest:
        shared = " ".join(words[0][: len(words[0]) - rest])
        parts = [" ".join(words[0][len(words[0]) - rest :])] + parts[1:]
        parts = [f"{p} {shared}" for p in parts]
    return parts


def _header_grid(head: list[Any]) -> list[list[str]]:
    """The header rows as a grid of texts, as the page lays them out: a cell spread over its ``colspan``
    (its own name for each column when it names them slash-separated: :func:`split_spanned`);
    a cell over two header rows names its column in both ("Title" and "Year" over two rows beside "Peak
    chart positions" over NOR, SWE, UK), for the one parse (``dom.parse``) copied it into the lower row."""
    grid = []
    for tr in head:
        row: list[str] = []
        for c in _cells(tr):
            text = cell_text(c)
            row += split_spanned(text, _span(c)) or [text] * _span(c)
        grid.append(row)
    return grid


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
    with the site's title, a navigation column, a content cell); its records, if any, are in those.

    A heading in the same column of every record row (a quote table's symbol as an ``<h3>`` link) is
    the rows' own field, not a layout: the table is a data table then."""
    held = [[next(c.iter(*_LAYOUT_BLOCKS), None) for c in _cells(tr)] for tr in rows]
    if not any(x is not None for cells in held for x in cells):
        return False
    if any(x is not None and x.tag in ("table", "hr") for cells in held for x in cells):
        return True
    with_heading = [cells for cells in held if any(x is not None for x in cells)]
    cols = {tuple(i for i, x in enumerate(cells) if x is not None) for cells in with_heading}
    plain = [tr for tr, cells in zip(rows, held, strict=True) if not any(x is not None for x in cells)]
    # every row but its header rows carries the heading, in one column
    return not (
        len(with_heading) >= 3
        and len(cols) == 1
        and len(next(iter(cols))) == 1
        and all(_is_header_row(tr) for tr in plain)
    )


def tables(root: Any, *, min_rows: int = 2, merge: bool = True) -> list[Table]:
    """Every table with at least ``min_rows`` record rows, as record sets (header-column tables too).

    Tables in page chrome (aside, nav, header, footer) are left out when the content has a table.
    With ``merge``, tables of one header (a division's standings, one table per letter) are one record
    set (:func:`_merge_split`).
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
        chrome = forms.in_chrome(table, rows)  # a form is chrome only when its rows are entry fields
        # A row without any text (a spacer row of an older layout: an image, an empty cell) is no record.
        blank = [tr for tr in rows if not clean(tr.text_content())]
        body = [tr for tr in rows if tr not in head and tr not in blank and not _in_tfoot(tr, table)]
        # one record per column (rows led by their labels) before a first row of labels is looked for:
        # the row of names over a transposed table's numbers is its first field, not a header
        t = _transposed(table, head, body, all_tables)
        if t is not None:
            t.chrome = chrome
            out.append(t)
            continue
        rest = [tr for tr in rows[len(head) :] if clean(tr.text_content())]
        # a title row over the table (one cell across it: "Sortable Batting - Batting Average") is
        # neither labels nor a record: the labels may be the row under it
        titles: list[Any] = []
        while len(rest) > 3 and len(_cells(rest[0])) == 1 and _span(_cells(rest[0])[0]) > 1:
            titles.append(rest[0])
            rest = rest[1:]
        if not bold_head and headrows.label_row(rest):  # <td> labels over typed columns (vBulletin)
            head, bold_head = [*head, rest[0]], True
            body = [tr for tr in body if tr not in head and tr not in titles]
        else:
            titles = []
        again = _repeated_header(head, body)  # the header shown again every n rows of a long table
        body = [tr for tr in body if tr not in again]
        summary = None if _header_column(body) else _summary_row(body)
        if summary is not None:
            body = [tr for tr in body if tr is not summary]
        note = _note_row(body)
        if note is not None:
            body = [tr for tr in body if tr is not note]
        odd = _other_shape(body)
        body = [tr for tr in body if tr not in odd]
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
            grid = _header_grid(head)
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
        cell_xpaths = None
        for i in _same_as_above(columns):
            cell_xpaths = cell_xpaths or [Table.cell_xpath(Table("", [], []), k) for k in range(width)]
            cell_xpaths[i] = filled_down(i)
            columns[i] = _fill_down(columns[i])
        rows_xp = f"({locate}/tr | {locate}/tbody/tr)[td]"
        if blank:
            rows_xp += "[normalize-space()]"
        if bold_head:
            k, lab = next(((i, x) for i, x in enumerate(_expand(head[-1])) if x), (0, ""))
            rows_xp += f"[not(*[{k + 1}][normalize-space()={xq(lab)}])]"
        if again and not bold_head and any(tr.find("td") is not None for tr in again):
            k, lab = next(((i, x) for i, x in enumerate(_expand(again[0])) if x), (0, ""))
            rows_xp += f"[not(*[{k + 1}][normalize-space()={xq(lab)}])]"
        if summary is not None:
            rows_xp += _exclude(summary, body)
        if odd:
            rows_xp += "[not(*[@colspan > 1])]"  # the note row too: it spans the table
        elif note is not None or titles:
            rows_xp += "[not(count(*) = 1 and *[@colspan > 1])]"  # (the title rows above the labels too)
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
                body=body,
                head_labels=tuple(cell_text(c) for tr in head for c in _cells(tr)),
                cell_xpaths=cell_xpaths,
                title=cell_text(_cells(titles[0])[0]) if titles else None,
            )
        )
    if any(not t.chrome and t.rows >= min_rows for t in out):
        out = [t for t in out if not t.chrome]
    return _merge_split(out) if merge else out


# The first row of a record's table that is one cell across it: the table's title.
_TITLE_ROW = (
    "(./ancestor::table[1]/tr | ./ancestor::table[1]/tbody/tr)[count(*) = 1 and *[@colspan > 1]][1]/*"
)


def _same_as_above(columns: list[list[str]]) -> list[int]:
    """Columns whose blank cells mean "the same as the row above": a rank column where tied records
    show the rank on the first of them only (1, 2, 3, 4, "", 6). Told by values: the first row is
    filled, a few later rows (at most a third) are blank, and the filled cells are whole numbers
    that never go down, so a blank copies the number above it."""
    out = []
    for i, col in enumerate(columns):
        blanks = sum(1 for v in col if not v)
        if len(col) < 4 or not col[0] or not blanks or blanks * 3 > len(col):
            continue
        nums = [v for v in col if v]
        if not all(re.fullmatch(r"\d{1,6}\.?", v) for v in nums):
            continue
        ints = [int(v.rstrip(".")) for v in nums]
        if all(a <= b for a, b in zip(ints, ints[1:], strict=False)) and len(set(ints)) > 1:
            out.append(i)
    return out


def filled_down(col: int) -> str:
    """The XPath reading column ``col`` of a record row, or when its cell is blank the nearest row above
    with a number there (a tied rank shown once): the union is in document order, its last node the
    row's own cell when that is filled."""
    cell = f"*[self::td or self::th][{col + 1}]"
    return f"(./preceding-sibling::tr[number({cell}) = number({cell})][1]/{cell} | ./{cell}[normalize-space()])[last()]"


def _fill_down(values: list[str]) -> list[str]:
    out: list[str] = []
    for v in values:
        out.append(v or (out[-1] if out else ""))
    return out


def _merge_split(found: list[Table]) -> list[Table]:
    """Tables of the same header row on one page are one record set split for display (a table per
    division, per letter, per day): their rows are the records, read by one XPath over all of them.

    Told by structure only: two or more tables with the same non-empty header labels, the same record
    rows reading (no totals row left out of one only), and no record row shown twice (a "top 5" table
    above the full list repeats rows: those stay apart).
    """
    groups: dict[tuple, list[Table]] = {}
    for t in found:
        if t.transposed or t.header_column or t.element is None:
            continue
        # the rows' own filters (a bold header's label, a totals row's class), spacer rows aside
        tail = t.records_xpath.split(")[td]", 1)[-1].replace("[normalize-space()]", "")
        if any(t.head_labels):
            groups.setdefault((t.head_labels, t.chrome, len(t.labels), tail), []).append(t)
        elif (row := _side_row(t.element)) is not None:
            # tables without labels side by side in one layout row: one list continued in the next
            # column ("Abernathy ... Fairweather | Gunderson ... Lindqvist")
            groups.setdefault((("side", id(row)), t.chrome, len(t.labels), tail), []).append(t)
    for key, ts in list(groups.items()):
        if key[0][:1] == ("side",) and not _alike_columns(ts):
            del groups[key]
    out = list(found)
    for (_labels, _chrome, width, tail), ts in groups.items():
        if len(ts) < 2:
            continue
        seen: set[str] = set()
        repeated = False
        for t in ts:
            for tr in t.body:
                key = cell_text(tr)
                repeated = repeated or key in seen
                seen.add(key)
        if repeated:
            continue
        locate = _group_locator([t.element for t in ts], by_labels=_labels[:1] != ("side",))
        first = ts[0]
        if any("[normalize-space()]" in t.records_xpath for t in ts):
            tail = "[normalize-space()]" + tail
        links: dict[int, list[str | None]] = {}
        for i in range(width):
            vals = [v for t in ts for v in (t.links.get(i) or [None] * t.rows)]
            if sum(1 for x in vals if x) >= max(1, len(vals) // 2):
                links[i] = vals
        labels = list(first.labels)
        columns = [[v for t in ts for v in t.columns[i]] for i in range(width)]
        cell_xpaths = first.cell_xpaths if all(t.cell_xpaths == first.cell_xpaths for t in ts) else None
        if (
            all(t.title for t in ts)
            and len({t.title for t in ts}) > 1
            and (cell_xpaths or not first.cell_xpaths)
        ):
            # the title of each table over its labels names what its rows belong to (the office of a
            # contest's candidates): one more column, read from the row's own table
            columns.append([t.title for t in ts for _ in range(t.rows)])
            labels.append(None)
            cell_xpaths = [*(cell_xpaths or [first.cell_xpath(k) for k in range(width)]), _TITLE_ROW]
        merged = Table(
            records_xpath=f"({locate}/tr | {locate}/tbody/tr)[td]{tail}",
            labels=labels,
            columns=columns,
            links=links,
            aliases=dict(first.aliases),
            rows=sum(t.rows for t in ts),
            chrome=first.chrome,
            element=first.element,
            body=[tr for t in ts for tr in t.body],
            head_labels=first.head_labels,
            cell_xpaths=cell_xpaths,
        )
        at = out.index(first)
        out = [t for t in out if t not in ts]
        out.insert(min(at, len(out)), merged)
    return out


def _side_row(table: Any) -> Any | None:
    """The layout row a table sits in, one table per cell (``<tr><td><table>..</td><td><table>..``)."""
    cell = table.getparent()
    row = cell.getparent() if cell is not None and cell.tag in ("td", "th") else None
    if row is None or row.tag != "tr":
        return None
    cells = [c for c in row if isinstance(c.tag, str) and c.tag in ("td", "th")]
    return row if len(cells) >= 2 else None


def _alike_columns(ts: list[Table]) -> bool:
    """True when every column holds values of one kind in each of the tables (names, codes, words)."""
    for i in range(len(ts[0].labels)):
        kinds = {dominant_type([v for v in t.columns[i] if v])[0] for t in ts}
        if len(kinds) > 1:
            return False
    return all(t.rows >= 2 for t in ts)


def _group_locator(elements_: list[Any], *, by_labels: bool = True) -> str:
    """An XPath selecting exactly the tables ``elements_``: by a shared class or header label, else a union
    (``by_labels=False``: tables without labels, whose first row is a record, not a header)."""
    want = {id(e) for e in elements_}
    doc = elements_[0].getroottree()
    tries = []
    cls = {e.get("class") for e in elements_}
    if len(cls) == 1 and None not in cls:
        tries.append(f"//table[@class={xq(cls.pop())}]")
    for c in _cells(next(tr for tr in elements_[0].iter("tr"))) if by_labels else []:
        lab = cell_text(c)
        if lab and len(lab) <= 40:
            tries.append(f"//table[tr/*[normalize-space()={xq(lab)}] or */tr/*[normalize-space()={xq(lab)}]]")
    for xp in tries:
        got = doc.xpath(xp)
        if len(got) == len(want) and {id(g) for g in got} == want:
            return xp
    return "(" + " | ".join(abs_path(e) for e in elements_) + ")"


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


def _note_row(body: list[Any]) -> Any | None:
    """The last row when it is one cell across the table's width under rows of several cells: a note
    on the table ("'—' denotes a recording that did not chart"), not one more record. Only the last:
    a full-width row between records heads the records after it."""
    if len(body) < 3:
        return None
    cells = _cells(body[-1])
    widths = sorted(len(_expand(tr)) for tr in body[:-1])
    common = widths[len(widths) // 2]
    if len(cells) != 1 or common < 2 or _span(cells[0]) < common:
        return None
    return body[-1]


def _repeated_header(head: list[Any], body: list[Any]) -> list[Any]:
    """Body rows that repeat the header's lowest row (a long table shows its header again every ten or
    twenty rows): labels, not one more record."""
    if not head:
        return []
    labels = _expand(head[-1])
    return [tr for tr in body if any(labels) and _expand(tr) == labels]


def _other_shape(body: list[Any]) -> list[Any]:
    """Rows of another kind inside a table of records: a few rows holding a cell across several columns
    ("0.135 Dividend" across the six price columns of a trading day, "3:2 Stock Split", a remark) among
    rows that lay one cell in each column. They are events or notes beside the records, not records
    with empty fields (read as records they double a day and leave its prices empty). A row that is one
    cell across the whole table (an episode's summary under each episode's row) is no record however
    many there are. None when the records themselves span columns, or when partly spanning rows are
    not a minority."""
    if len(body) < 4:
        return []
    spanned = [tr for tr in body if any(_span(c) > 1 for c in _cells(tr))]
    plain = [len(_cells(tr)) for tr in body if tr not in spanned]
    if not spanned or len(plain) < 2:
        return []
    width = max(set(plain), key=plain.count)
    if width < 3 or plain.count(width) < 0.8 * len(plain):
        return []
    across = [tr for tr in spanned if len(_cells(tr)) == 1 and _span(_cells(tr)[0]) >= width]
    if len(spanned) * 3 > len(body) and len(across) < len(spanned):
        return []
    return spanned if all(len(_cells(tr)) < width for tr in spanned) else []


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


def _fields_by_row(grid: list[list[str]], cols: list[list[str]]) -> bool:
    """True when the rows of ``grid`` are fields (their values alike) rather than its columns.

    By the coarse value types first; when those say nothing (every cell is words: job titles, towns,
    employers) by the fine kinds (``values.profile``: a row of towns is all places, a column mixes a
    title, a town and a firm)."""
    from prefect_autodata.agents.induction import values as vt

    by_row, by_col = _homogeneity(grid), _homogeneity(cols)
    if abs(by_row - by_col) > 1e-9:
        return by_row > by_col

    def fine(lines: list[list[str]]) -> float:
        profs = [vt.profile(ln) for ln in lines]
        shares = [p.share for p in profs if p.kind != "empty"]
        return sum(shares) / len(shares) if shares else 0.0

    return fine(grid) > fine(cols)


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
    if not head and not _fields_by_row(grid, cols):
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


# -- compound cells ---------------------------------------------------------------------------------------

# A cell may print several values: lines split by <br> ("Name<br>Street, Town<br>Phone: ..."), a rank
# before and a year in parentheses after a title ("1. The Glass Orchard (1994)"), pieces between bars
# ("3 bd | 2 ba | 1,450 sqft"). Each piece that recurs in every record is one more candidate value.
# a rank is marked ("1.", "1)", "#1"): a bare leading number is a house number, a model year, a count
_RANK = r"^(?:#|(?=\d{1,5}[.)]))(\d{1,5})[.)]?\s+"
_LEAD = re.compile(_RANK + r"(?=\S)")
_PAREN = re.compile(r"\s*\(([^()]{1,40})\)$")
_LINE_LABEL = re.compile(r"^([^\W\d_][\w .#/-]{0,24}?)\s*:\s*(\S.*)$")
_MAX_PARTS = 6


def _read(rows: list[Any], rule: dict[str, Any]) -> list[str]:
    """The values the runtime reads with ``rule`` from each row (the same code: what we show is what runs)."""
    from prefect_autodata.runtime.extract import extract_field
    from prefect_autodata.runtime.spec import FieldRule

    fr = FieldRule(name="v", **rule)
    out = []
    for tr in rows:
        try:
            v = extract_field(tr, fr, page_url="", params={})
        except ValueError:
            v = None
        out.append("" if v is None else clean(v))
    return out


def _mostly(flags: list[bool], share: float = 0.8) -> bool:
    return len(flags) >= 2 and sum(flags) >= share * len(flags)


def _line_parts(t: Table, i: int) -> list[tuple[dict[str, Any], list[str]]]:
    """(rule, values) per ``<br>``-separated line of column ``i``, when most of its cells hold lines."""
    cells = [(_cells(tr) + [None] * (i + 1))[i] for tr in t.body]
    texts = [c for c in cells if c is not None and cell_text(c)]
    if len(texts) < 2:
        return []
    carriers = [next(iter(c.xpath("descendant-or-self::*[br]")), None) for c in texts]
    if not _mostly([x is not None for x in carriers]):
        return []
    base = t.cell_xpath(i)
    out = []
    for k in range(_MAX_PARTS):
        rule = {
            "xpath": f"({base}/descendant-or-self::*[br])[1]/node()[count(preceding-sibling::br)={k}]",
            "join": " ",
            "transforms": [{"op": "collapse_whitespace"}],
        }
        values = _read(t.body, rule)
        if not _mostly([bool(v) for v in values], 0.6):
            break
        out.append((rule, values))
    return out if len(out) >= 2 else []


def _comma_sep(filled: list[str]) -> str | None:
    """The separator regex of cells that run short values together with ", " the same number of times
    in every row ("Haikou, China": a city and its country), else None. A date ("Mar 4, 2014"), an
    amount, prose or more than four pieces is one value, whatever its commas."""
    from prefect_autodata.agents.induction import values as vt
    from prefect_autodata.agents.induction.regions import _COMMA, _DATED, _PIECES_MAX, _WHOLE_KINDS, comma_run

    if len(filled) < 3 or any(len(v) > _PIECES_MAX for v in filled) or not comma_run(filled):
        return None
    if any(vt.kind_of(v) in _WHOLE_KINDS or _DATED.search(v) for v in filled):
        return None
    if len(_COMMA.split(filled[0])) > 4:
        return None
    return _COMMA.pattern


_ASIDE_PIECE = r"\(([^()]{1,40})\)$"  # the aside in parentheses at a cell's end: "(Vote for 1)"


def _text_parts(t: Table, i: int) -> list[tuple[dict[str, Any], list[str]]]:
    """(rule, values) per piece of one-line cells: a leading rank, a trailing "(...)", bar-split pieces."""
    from prefect_autodata.agents.induction.textlines import find_separator, sep_regex

    values = t.columns[i]
    filled = [v for v in values if v]
    if len(filled) < 2:
        return []
    cw = {"op": "collapse_whitespace"}
    sep = find_separator(filled)
    s = sep_regex(sep) if sep is not None and sep != "\t" else _comma_sep(filled)
    if s is not None:
        n = len(re.split(s, filled[0]))
        out = []
        for k in range(min(n, _MAX_PARTS)):
            piece = f"(?:(?!{s}).)*"
            pat = rf"^\s*(?:{piece}{s}){{{k}}}\s*((?:(?!{s}).)*?\S)\s*(?:{s}|$)"
            out.append(({"xpath": t.cell_xpath(i), "transforms": [cw, {"op": "regex", "pattern": pat}]}, pat))
        parts = [(r, [_grab(p, v) for v in values]) for r, p in out]
        return parts if len(parts) >= 2 else []
    lead = _mostly([bool(_LEAD.match(v)) for v in filled], 0.9)
    paren = _mostly([bool(_PAREN.search(v)) for v in filled], 0.9)
    if not (lead or paren):
        return []
    pats = []
    if lead:
        pats.append(_RANK + r"\S")
    mid = (r"^(?:(?:#|(?=\d{1,5}[.)]))\d{1,5}[.)]?\s+)?" if lead else r"^") + (
        r"(.*?\S)\s*\([^()]{1,40}\)$" if paren else r"(.*\S)"
    )
    pats.append(mid)
    if paren:
        pats.append(_ASIDE_PIECE)
    parts = [
        (
            {"xpath": t.cell_xpath(i), "transforms": [cw, {"op": "regex", "pattern": p}]},
            [_grab(p, v) for v in values],
        )
        for p in pats
    ]
    return parts


def _own_element(t: Table, i: int, vals: list[str]) -> bool:
    """True when the page sets a piece of column ``i`` apart as an element of its own in most cells
    (the title in its ``<a>``, the year in a ``<span>``): then the piece is a value as published,
    whatever fields take the rest. One text node ("Fancy Pants (1950)") is published whole."""
    cells = [(_cells(tr) + [None] * (i + 1))[i] for tr in t.body]
    own = []
    for c, v in zip(cells, vals, strict=False):
        if c is None or not v:
            continue
        own.append(any(clean(cell_text(e)) == v for e in c.iterdescendants() if isinstance(e.tag, str)))
    return bool(own) and _mostly(own, 0.8)


def _grab(pattern: str, value: str) -> str:
    m = re.search(pattern, value)
    return clean(m.group(1)) if m else ""


# Asides a cell holds beside its value: a footnote mark (``<sup>[11]</sup>``, a ``<sup>`` linking a note on
# the page) and text the page hides (a sort key, a machine-readable date in a ``display:none`` span).
_ASIDE = (
    "self::sup[starts-with(normalize-space(), '[') or .//a[starts-with(@href, '#')]]"
    " or @hidden or contains(translate(@style, ' ', ''), 'display:none')"
)


def _shown(t: Table, i: int) -> tuple[dict[str, Any], list[str]] | None:
    """(rule, values) reading what the cells of column ``i`` show without their asides, when any of its
    cells holds one ("7.41[11]" is 7.41 viewers; "7037128000000000000♠7,128 m" a hidden sort key before
    the height; "September 24, 2012" beside a hidden "(2012-09-24)"; "Meridian Tower[2]" on the few
    names a note is cited for: a mark is never part of the value, however few cells carry one); None
    when they hold none."""
    cells = [(_cells(tr) + [None] * (i + 1))[i] for tr in t.body]
    texts = [c for c in cells if c is not None and cell_text(c)]
    marked = [bool(c.xpath(f".//*[{_ASIDE}]")) for c in texts]
    if len(texts) < 2 or not any(marked):
        return None
    if not _mostly(marked, 0.6) and (_line_parts(t, i) or _text_parts(t, i)):
        return None  # a few marks on cells of pieces ("Title (1994)[3]"): the pieces are read instead
    rule = {
        "xpath": f"{t.cell_xpath(i)}//text()[not(ancestor::*[{_ASIDE}])]",
        "join": " ",
        "transforms": [{"op": "collapse_whitespace"}],
    }
    values = _read(t.body, rule)
    if not _mostly([bool(v) for v in values if v is not None], 0.6):
        return None
    # the runtime joins the text pieces with a space: only where that is what the cell shows without its
    # asides ("PG" "-13" in two spans is "PG-13", which the joined pieces would not read)
    for c, v in zip(cells, values, strict=True):
        if c is not None and clean(v) != _without_asides(c):
            return None
    return rule, values


def _without_asides(cell: Any) -> str:
    """The cell's text as the page shows it, its asides taken out (their tails kept)."""
    cell = copy.deepcopy(cell)
    for e in cell.xpath(f".//*[{_ASIDE}]"):
        parent = e.getparent()
        if parent is not None:
            e.drop_tree()
    return cell_text(cell)


def _block_parts(t: Table, i: int) -> list[tuple[dict[str, Any], list[str]]]:
    """(rule, values) per child element of cells stacking values as elements (a name link over a
    title ``<div>``): ``regions.cell_blocks``."""
    from prefect_autodata.agents.induction.regions import cell_blocks

    return cell_blocks([(_cells(tr) + [None] * (i + 1))[i] for tr in t.body], t.cell_xpath(i))


def with_parts(t: Table, cands: list[Any]) -> list[Any]:
    """``cands`` (one per column) plus a candidate per piece of each compound column.

    A piece whose values all begin with the same ``Label:`` ("Phone: (740) 555-0142") is named by it
    and read without it. When the pieces split typed values (a rank, a year) off a text, the text
    piece carries the column's label, for it is what the label names ("Rank & Title": the title);
    pieces that are all text (the lines of an address) leave the label to the whole cell.
    """
    from prefect_autodata.agents.induction.matching import Candidate
    from prefect_autodata.agents.induction.regions import QUOTED, _leaves, bracketed, piece_steps, quoted

    if t.transposed or t.header_column or not t.body:
        return cands
    out = list(cands)
    lead = next((j for j, c in enumerate(cands[: len(t.labels)]) if c.fill > 0), 0)
    drop: set[int] = set()
    for i, whole in enumerate(cands[: len(t.labels)]):
        if not any(t.columns[i]):
            continue  # no values: no pieces either
        shown = _shown(t, i)
        if shown is not None:  # the column as shown, its footnote marks and hidden text left out
            rule, vals = shown
            out[next(k for k, c in enumerate(out) if c is whole)] = dataclasses.replace(
                whole,
                rule=rule,
                values=vals,
                notes=[*whole.notes, "read without footnote marks and hidden text"],
            )
            continue
        unq = quoted(whole.values)
        if unq is not None:  # '"Pilot"': the value inside its quotation marks
            rule = {
                **whole.rule,
                "transforms": [*whole.rule.get("transforms", []), {"op": "regex", "pattern": QUOTED}],
            }
            out[next(k for k, c in enumerate(out) if c is whole)] = dataclasses.replace(
                whole, rule=rule, values=unq, notes=[*whole.notes, "read without its quotation marks"]
            )
            continue
        if bracketed(whole.values) is not None:  # "(R-Ozark-2)": the value inside, cut again
            leaves, _main = _leaves(whole.values)
            cw = {"op": "collapse_whitespace"}
            rules = [({"xpath": t.cell_xpath(i), "transforms": [cw, *piece_steps(p)]}, v) for p, v in leaves]
            if len(rules) == 1:
                out[next(k for k, c in enumerate(out) if c is whole)] = dataclasses.replace(
                    whole,
                    rule=rules[0][0],
                    values=rules[0][1],
                    notes=[*whole.notes, "read inside its brackets"],
                )
                continue
        lines = [] if bracketed(whole.values) is not None else _line_parts(t, i)
        parts = rules if bracketed(whole.values) is not None else (lines or _text_parts(t, i))
        paren = not lines and bool(parts) and parts[-1][0]["transforms"][-1].get("pattern") == _ASIDE_PIECE
        blocks = [] if parts else _block_parts(t, i)
        parts = parts or blocks
        if not parts:
            continue
        kinds = [dominant_type([v for v in vals if v])[0] for _, vals in parts]
        texty = [k in ("text", "name") for k in kinds]
        main = next((k for k, x in enumerate(texty) if x), None) if not all(texty) else None
        if blocks and texty[0]:
            main = 0  # the column's label names the cell's lead element (the name link over its title)
        made = []
        for k, (rule, vals) in enumerate(parts):
            label = whole.label if k == main else None
            labelled = [_LINE_LABEL.match(v) for v in vals if v]
            heads = {m.group(1).strip().casefold() for m in labelled if m}
            if _mostly([bool(m) for m in labelled], 0.9) and len(heads) == 1:
                head = next(m.group(1).strip() for m in labelled if m)
                rule = dict(rule)
                strip = rf"^(?:{re.escape(head)}\s*:\s*)?(.*\S)"
                rule["transforms"] = [*rule["transforms"], {"op": "regex", "pattern": strip}]
                vals = [_grab(strip, v) for v in vals]
                label = head
            made.append(
                Candidate(
                    label=label,
                    values=vals,
                    rule=rule,
                    origin="table",
                    identity=(i == lead or whole.identity)
                    and k == 0
                    and texty[k]
                    and len(set(vals)) == len(vals),
                    anchor=0.7 if label else 0.3,
                    notes=[f"piece {k + 1} of {len(parts)} of column {i + 1}"],
                    whole=whole,
                    main_piece=k == main and not _own_element(t, i, vals),
                    aside=paren and k == len(parts) - 1,
                    position=i,  # the pieces stand where their column stands
                )
            )
        if main is not None:
            whole.anchor, whole.label = min(whole.anchor, 0.3), None
        if whole.label is None and not whole.aliases:
            drop.add(id(whole))  # unnamed, the whole cell is only its pieces run together
        out += made
    return [c for c in out if id(c) not in drop]

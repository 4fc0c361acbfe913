"""Extraction rules: records out of a response (CSS, XPath, JSONPath, regex), fields out of records, typed transforms.

Only values present in the observed response are returned (no invention); a transform that
cannot apply raises ``ValueError`` naming the field, which the runner turns into a rejected row.
Simple JSONPaths (``$.a.b``, ``$[*]``) are compiled to plain lookups: they are most of the
volume on API sources and jsonpath-ng is slow per call.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from functools import lru_cache
from typing import Any
from urllib.parse import urljoin

from prefect_autodata.errors import FetchError
from prefect_autodata.runtime.csvtext import comma_separated
from prefect_autodata.runtime.spec import FieldRule, Selector, Transform

_SIMPLE_PATH = re.compile(r"^\$((?:\.[A-Za-z_][A-Za-z0-9_\-]*|\['[^']+'\]|\[\d+\])*)$")
_STEP = re.compile(r"\.([A-Za-z_][A-Za-z0-9_\-]*)|\['([^']+)'\]|\[(\d+)\]")
_MISSING = object()


@dataclass
class Document:
    """A parsed response: ``kind`` json/html/csv/text and its root object."""

    kind: str
    root: Any
    url: str
    text: str = ""


def parse_document(kind: str, text: str, url: str, content: bytes | None = None) -> Document:
    """Parse once per page; a body of the wrong type is a clear FetchError naming the URL."""
    if kind == "json":
        try:
            import orjson

            return Document("json", orjson.loads(content if content is not None else text), url)
        except Exception as exc:
            lines = [ln for ln in (text or "").splitlines() if ln.strip()]
            try:  # JSON Lines / NDJSON: one record per line, read as the array of its records
                rows = [orjson.loads(ln) for ln in lines] if len(lines) >= 2 else None
            except Exception:
                rows = None
            if rows and all(isinstance(r, dict) for r in rows):
                return Document("json", rows, url)
            head = (text or "")[:80].replace("\n", " ")
            raise FetchError(f"{url}: expected a JSON body, got {head!r}") from exc
    if kind == "csv":
        text = comma_separated(text)  # a ";" / tab / "|" file, decimal commas: as a comma CSV
        # an empty cell is how a CSV says "no value": None, as a JSON null or a missing element reads
        rows = [
            {k: (None if v == "" else v) for k, v in r.items()} for r in csv.DictReader(io.StringIO(text))
        ]
        return Document("csv", rows, url, text)
    if kind in ("html", "browser", "crawl"):
        stripped = (text or "").lstrip()
        if not stripped:
            raise FetchError(f"{url}: empty body where an HTML page was expected")
        if stripped[:1] in "{[" and kind != "browser":
            raise FetchError(f"{url}: expected an HTML page, got a JSON body")
        try:
            root = html_root(text)
        except Exception as exc:
            raise FetchError(f"{url}: cannot parse the body as HTML: {exc}") from exc
        return Document("html", root, url, text)
    raise ValueError(f"unknown document kind {kind!r}")


def html_root(text: str | bytes) -> Any:
    """The one HTML parse of the product: lxml's document tree with its tables laid out as the browser's
    table model (:func:`lay_out_row_spans`). The runtime (:func:`parse_document`) and every inducer
    (``agents/induction/dom.parse``, which all record, table and link readers of the agents call) read a
    page through here, so an XPath induced on a page reads the same cell when the spec runs. Raises what
    lxml raises on a body it cannot parse."""
    from lxml import html as lhtml

    return lay_out_row_spans(lhtml.document_fromstring(text))


SPAN_COPY = "data-spanned"  # marks a cell copied down from a taller cell above it (not a new cell)


def _row_span(cell: Any, left: int) -> int:
    """How many rows ``cell`` covers, its own included, within the ``left`` rows of its row group."""
    raw = (cell.get("rowspan") or "1").strip()
    try:
        n = int(raw)
    except ValueError:
        return 1
    return left if n == 0 else max(1, min(n, left, 65534))


def _fill_covered(tr: Any, here: dict[int, tuple[int, Any]], col: int, before: Any) -> int:
    """Copies of the taller cells that cover ``tr`` from column ``col`` on, put before ``before`` (or at
    the row's end); the column after them."""
    import copy

    while col in here:
        first, tall = here[col]
        if first == col:
            dup = copy.deepcopy(tall)
            dup.attrib.pop("rowspan", None)
            dup.set(SPAN_COPY, "1")
            dup.tail = tall.tail
            if before is None:
                tr.append(dup)
            else:
                before.addprevious(dup)
        col += 1
    return col


def lay_out_row_spans(root: Any) -> Any:
    """``root`` with every table laid out as the browser's table model places its cells: a cell with
    ``rowspan`` is copied into each row it covers, at the slot it covers there (its copies marked
    ``data-spanned``, its ``rowspan`` removed), so that ``td[3]`` of any row reads that row's third
    column, as a reader sees it ("2009" over two singles is the second single's year too; unspread, its
    first chart position would read as its year). Spans stay within their row group
    (``thead``/``tbody``/``tfoot``), ``rowspan="0"`` runs to the group's end; ``colspan`` is left as
    it is. A page without ``rowspan`` is returned untouched (the same tree). Parsing for induction and
    for the runtime both go through here, so one XPath reads the same cell in both."""

    if root is None or not root.xpath("//*[self::td or self::th][@rowspan]"):
        return root
    tables = list(root.iter("table"))
    for table in reversed(tables):  # inner tables first: a copied cell carries its laid-out inner table
        groups: dict[Any, list[Any]] = {}
        for tr in table.iter("tr"):
            if next(tr.iterancestors("table"), None) is table:
                groups.setdefault(tr.getparent(), []).append(tr)
        for rows in groups.values():
            # covered[r][col] = (first column of the tall cell, the cell) for slots a cell above fills
            covered: list[dict[int, tuple[int, Any]]] = [{} for _ in rows]
            for r, tr in enumerate(rows):
                here = covered[r]
                cells = [c for c in tr if getattr(c, "tag", None) in ("td", "th")]
                col = 0

                for c in cells:
                    col = _fill_covered(tr, here, col, c)
                    try:
                        width = max(1, min(int(c.get("colspan") or 1), 1000))
                    except ValueError:
                        width = 1
                    down = _row_span(c, len(rows) - r) if c.get("rowspan") is not None else 1
                    if down > 1:
                        del c.attrib["rowspan"]
                    for d in range(1, down):
                        for k in range(col, col + width):
                            covered[r + d].setdefault(k, (col, c))
                    col += width
                # slots a tall cell covers past this row's last cell: copies in column order
                for k in sorted(k for k in here if k >= col):
                    if k >= col:
                        col = _fill_covered(tr, here, k, None)
    return root


# -- JSONPath -----------------------------------------------------------------------------------------------


@lru_cache(maxsize=1024)
def compile_jsonpath(expr: str) -> Callable[[Any], list[Any]]:
    """Return ``f(obj) -> list of matches``; simple dotted paths become direct lookups."""
    if expr in ("$[*]", "$.[*]", "$*"):
        return lambda obj: list(obj) if isinstance(obj, list) else []
    m = _SIMPLE_PATH.match(expr)
    if m:
        steps = [(a or b) if (a or b) else int(c) for a, b, c in _STEP.findall(m.group(1))]

        def get(obj: Any) -> list[Any]:
            for s in steps:
                if isinstance(s, int):
                    if not isinstance(obj, list) or s >= len(obj):
                        return []
                elif not isinstance(obj, dict) or s not in obj:
                    return []
                obj = obj[s]
            return [obj]

        return get
    wildcard = re.match(r"^(.*)\[\*\]$", expr)
    if wildcard and _SIMPLE_PATH.match(wildcard.group(1)):
        inner = compile_jsonpath(wildcard.group(1))

        def get_all(obj: Any) -> list[Any]:
            found = inner(obj)
            return list(found[0]) if found and isinstance(found[0], list) else []

        return get_all
    from jsonpath_ng.ext import parse

    compiled = parse(expr)
    return lambda obj: [m.value for m in compiled.find(obj)]


def simple_json_key(expr: str | None) -> str | None:
    """``$.close`` -> ``close`` (used by the runner's columnar fast path), else None."""
    if not expr:
        return None
    m = re.match(r"^\$\.([A-Za-z_][A-Za-z0-9_\-]*)$", expr) or re.match(r"^\$\['([^']+)'\]$", expr)
    return m.group(1) if m else None


# -- records ------------------------------------------------------------------------------------------------


# The key of a record kept in an object by a value (``{"AAPL": {...}, "MSFT": {...}}``): records read
# with ``PATH.*`` carry it under this name, so a field can land it (``jsonpath: $['@key']``).
RECORD_KEY = "@key"


def keyed_records(expr: str | None, root: Any) -> list[Any] | None:
    """The records of ``PATH.*`` when PATH holds an object whose values are all objects, each with its
    key under ``RECORD_KEY`` (a copy; a record's own ``@key`` wins); None for any other path or shape."""
    m = re.match(r"^(\$.*?)\.\*$", expr or "")
    if not m:
        return None
    found = [root] if m.group(1) == "$" else compile_jsonpath(m.group(1))(root)
    if len(found) != 1 or not isinstance(found[0], dict) or not found[0]:
        return None
    node = found[0]
    if not all(isinstance(v, dict) for v in node.values()):
        return None
    return [{RECORD_KEY: k, **v} for k, v in node.items()]


def select_records(doc: Document, sel: Selector) -> list[Any]:
    """The record nodes of a page; no selector means the whole document is one record (CSV: every row)."""
    if doc.kind == "csv":
        return doc.root
    kind = sel.kind
    if kind is None:
        if doc.kind == "json" and isinstance(doc.root, list):
            return doc.root
        return [doc.root]
    if kind == "jsonpath":
        if doc.kind not in ("json", "html"):
            raise FetchError(f"{doc.url}: a jsonpath records selector needs a JSON body")
        root = _json_root(doc.root) if doc.kind == "html" else doc.root
        keyed = keyed_records(sel.jsonpath, root)
        if keyed is not None:
            return keyed
        found = compile_jsonpath(sel.jsonpath)(root)
        if len(found) == 1 and isinstance(found[0], list) and not sel.jsonpath.endswith("[*]"):
            return found[0]
        return found
    if kind in ("css", "xpath"):
        if doc.kind != "html":
            raise FetchError(f"{doc.url}: a {kind} records selector needs an HTML body")
        found = _html_select(doc.root, sel)
        if found and all(isinstance(f, str) for f in found):
            # Text records (text nodes, a string expression): one record per non-blank line.
            return [ln.strip() for f in found for ln in str(f).splitlines() if ln.strip()]
        return found
    if kind == "regex":
        text = doc.text if doc.kind == "html" else json.dumps(doc.root)
        rx = _regex(sel.regex)
        return [m.groupdict() or m.group(0) for m in rx.finditer(text)]
    raise ValueError(kind)


@lru_cache(maxsize=1024)
def _css(expr: str):
    from lxml.cssselect import CSSSelector

    return CSSSelector(expr)


@lru_cache(maxsize=1024)
def _xpath(expr: str):
    from lxml import etree

    return etree.XPath(expr)


@lru_cache(maxsize=1024)
def _regex(expr: str) -> re.Pattern:
    return re.compile(expr, re.S)


def _json_root(node: Any) -> dict[str, Any]:
    """A JSONPath on an HTML page reads the JSON its scripts hold (``runtime/scriptjson``)."""
    from prefect_autodata.runtime.scriptjson import page_json

    return page_json(node)


def _html_select(node: Any, sel: Selector) -> list[Any]:
    if sel.css is not None:
        return list(_css(sel.css)(node))
    if "$col" in sel.xpath and hasattr(node, "itersiblings"):
        # $col: the record node's 1-based position among its element siblings, so a record that is a
        # column of a table (one record per column) reads its value of each row: ../../tr[2]/*[$col].
        col = 1 + sum(1 for s in node.itersiblings(preceding=True) if isinstance(s.tag, str))
        out = _xpath(sel.xpath)(node, col=col)
    else:
        out = _xpath(sel.xpath)(node)
    return out if isinstance(out, list) else [out]


def _node_text(node: Any) -> str:
    if isinstance(node, str):
        return str(node)
    if hasattr(node, "text_content"):
        return node.text_content()
    return "" if node is None else str(node)


# -- fields -------------------------------------------------------------------------------------------------


def extract_field(record: Any, rule: FieldRule, *, page_url: str, params: dict[str, Any]) -> Any:
    """The raw value of one field of one record (None when absent), transforms applied."""
    value = _raw_value(record, rule, page_url=page_url, params=params)
    return apply_transforms(value, rule.transforms, base_url=page_url, field=rule.name)


def _raw_value(record: Any, rule: FieldRule, *, page_url: str, params: dict[str, Any]) -> Any:
    if rule.const is not None:
        return rule.const
    if rule.from_url:
        return page_url
    if rule.from_param is not None:
        return params.get(rule.from_param)
    many = rule.all or rule.join is not None
    kind = rule.kind
    if kind == "jsonpath":
        if not isinstance(record, dict | list) and hasattr(record, "getroottree"):
            record = _json_root(record)  # an HTML record: the JSON its page's scripts hold
        found = compile_jsonpath(rule.jsonpath)(record) if isinstance(record, dict | list) else []
        values = found
    elif kind in ("css", "xpath"):
        if isinstance(record, dict):  # CSV / regex groups: css/xpath do not apply
            raise ValueError(f"field {rule.name!r}: {kind} selector on a non-HTML record")
        nodes = _html_select(record, rule)
        values = [_node_value(n, rule.attr) for n in nodes]
    elif kind == "regex":
        text = (
            record.get(rule.attr, "")
            if isinstance(record, dict) and rule.attr
            else _node_text(record)
            if not isinstance(record, dict)
            else json.dumps(record)
        )
        rx = _regex(rule.regex)
        values = [(m.group(1) if rx.groups else m.group(0)) for m in rx.finditer(text)]
    else:  # csv column by name (attr) or regex-group dict
        values = [record.get(rule.attr or rule.name)] if isinstance(record, dict) else []
    values = [v for v in values if v is not None]
    if many:
        if rule.join is not None:
            return rule.join.join(str(v).strip() for v in values if str(v).strip())
        return values
    return values[0] if values else None


def _node_value(node: Any, attr: str | None) -> Any:
    if isinstance(node, str):  # xpath text()/@attr results
        return str(node)
    if attr:
        return node.get(attr)
    if hasattr(node, "iter") and node.find(".//br") is not None:
        # A <br> is a line break the page shows: "Legal<br>Eagles" reads "Legal Eagles", not "LegalEagles".
        import copy

        node = copy.deepcopy(node)
        for br in node.iter("br"):
            br.tail = "\n" + (br.tail or "")
    return node.text_content()


# -- transforms ---------------------------------------------------------------------------------------------


def apply_transforms(
    value: Any, transforms: list[Transform], *, base_url: str = "", field: str = "value"
) -> Any:
    for t in transforms:
        try:
            value = _apply(value, t, base_url)
        except (ValueError, TypeError, OverflowError) as exc:
            raise ValueError(f"field {field!r}: transform {t.op!r} failed on {value!r}: {exc}") from exc
    return value


def _each(value: Any, fn: Callable[[Any], Any]) -> Any:
    if isinstance(value, list):
        return [fn(v) for v in value]
    return None if value is None else fn(value)


def _to_number(v: Any) -> float | int:
    if isinstance(v, int | float) and not isinstance(v, bool):
        return v
    s = str(v).strip().replace(",", "").replace("\u2212", "-").replace("$", "").replace("%", "")
    if s == "":
        raise ValueError("empty string is not a number")
    try:
        return int(s)
    except ValueError:
        return float(s)


def _parse_date(v: Any, fmt: str | None) -> date:
    if isinstance(v, datetime):
        return v.date()
    if isinstance(v, date):
        return v
    s = str(v).strip()
    if fmt:
        return datetime.strptime(s, fmt).date()
    try:
        return date.fromisoformat(s[:10])
    except ValueError:
        from dateutil import parser

        return parser.parse(s).date()


def _parse_ts(v: Any, fmt: str | None) -> datetime:
    if isinstance(v, datetime):
        return v
    s = str(v).strip()
    if fmt:
        return datetime.strptime(s, fmt)
    try:
        return datetime.fromisoformat(s.replace("Z", "+00:00"))
    except ValueError:
        from dateutil import parser

        return parser.parse(s)


def _apply(value: Any, t: Transform, base_url: str) -> Any:
    op = t.op
    if op == "default":
        return t.value if value is None or value == "" or value == [] else value
    if op == "first":
        return (value[0] if value else None) if isinstance(value, list) else value
    if op == "join":
        if isinstance(value, list):
            return t.sep.join(str(v) for v in value if v is not None and str(v) != "")
        return value
    if op == "split":
        if value is None:
            return None
        return [p.strip() for p in str(value).split(t.sep) if p.strip()]
    if op == "strip":
        return _each(value, lambda v: str(v).strip())
    if op == "bibtex_authors":
        return _each(value, _bibtex_authors)
    if op == "duration_minutes":
        from prefect_autodata.runtime.normalize import duration_minutes

        return _each(value, duration_minutes)
    if op == "collapse_whitespace":
        return _each(value, lambda v: " ".join(str(v).split()))
    if op == "lower":
        return _each(value, lambda v: str(v).lower())
    if op == "upper":
        return _each(value, lambda v: str(v).upper())
    if op == "prefix":
        return _each(value, lambda v: f"{t.value}{v}")
    if op == "suffix":
        return _each(value, lambda v: f"{v}{t.value}")
    if op == "number":
        return _each(value, _to_number)
    if op == "integer":
        return _each(
            value, lambda v: int(_to_number(v)) if float(_to_number(v)).is_integer() else _not_int(v)
        )
    if op == "parse_date":
        return _each(value, lambda v: _parse_date(v, t.format))
    if op == "parse_timestamp":
        return _each(value, lambda v: _parse_ts(v, t.format))
    if op == "absolute_url":
        return _each(value, lambda v: urljoin(base_url, str(v).strip()) if str(v).strip() else "")
    if op == "map":

        def mapped(v: Any) -> Any:
            key = str(v)
            if key in t.mapping:
                return t.mapping[key]
            if t.strict:
                raise ValueError(f"{key!r} is not in the map ({', '.join(map(str, t.mapping))})")
            return v

        return _each(value, mapped)
    if op == "regex":
        rx = _regex(t.pattern)

        def grab(v: Any) -> Any:
            m = rx.search(str(v))
            return m.group(t.group) if m else None

        return _each(value, grab)
    if op == "replace":
        rx = _regex(t.pattern)
        return _each(value, lambda v: rx.sub(str(t.value or ""), str(v)))
    raise ValueError(f"unknown transform {op!r}")


def _bibtex_authors(v: Any) -> str:
    """BibTeX ``Last, First and Last, Jr, First`` -> ``First Last, First Last Jr`` (the form people read)."""
    names = []
    for part in re.split(r"\s+and\s+", " ".join(str(v).split())):
        bits = [b.strip() for b in part.split(",")]
        if len(bits) == 2 and all(bits):
            names.append(f"{bits[1]} {bits[0]}")
        elif len(bits) == 3 and all(bits):
            names.append(f"{bits[2]} {bits[0]} {bits[1]}")
        else:
            names.append(" ".join(b for b in bits if b))
    return ", ".join(n for n in names if n)


def _not_int(v: Any) -> int:
    raise ValueError(f"{v!r} is not an integer")


def extract_page(
    doc: Document, fields: list[FieldRule], records_sel: Selector, params: dict[str, Any]
) -> list[dict]:
    """Every record of a page as a dict of field values; a failing transform marks the row with ``_error``."""
    rows = []
    page_level: dict[str, Any] = {}  # absolute XPaths give one answer per page: evaluate them once
    for rec in select_records(doc, records_sel):
        row: dict[str, Any] = {}
        for rule in fields:
            try:
                if _is_page_level(rule) and doc.kind == "html":
                    if rule.name not in page_level:
                        page_level[rule.name] = _page_value(doc, rule, params)
                    value = page_level[rule.name]
                    if isinstance(value, ValueError):
                        raise value
                    row[rule.name] = value
                else:
                    row[rule.name] = extract_field(rec, rule, page_url=doc.url, params=params)
            except ValueError as exc:
                row.setdefault("_error", str(exc))
                row[rule.name] = None
        rows.append(row)
    return rows


def _is_page_level(rule: FieldRule) -> bool:
    """An XPath starting at the document root (``//h1``, ``/html/...``) does not depend on the record."""
    return rule.xpath is not None and rule.xpath.lstrip().startswith("/")


def _page_value(doc: Document, rule: FieldRule, params: dict[str, Any]) -> Any:
    try:
        return extract_field(doc.root, rule, page_url=doc.url, params=params)
    except ValueError as exc:
        return exc


def find_one(doc: Document, sel: Selector) -> Any:
    """First match of a selector anywhere in the page (next links, cursors, totals)."""
    if sel.kind == "jsonpath":
        obj = doc.root if doc.kind == "json" else _json_root(doc.root) if doc.kind == "html" else None
        found = compile_jsonpath(sel.jsonpath)(obj) if obj is not None else []
    elif sel.kind in ("css", "xpath"):
        if doc.kind != "html":
            return None
        nodes = _html_select(doc.root, sel)
        found = [n if isinstance(n, str) else (n.get("href") or n.text_content()) for n in nodes]
    elif sel.kind == "regex":
        rx = _regex(sel.regex)
        m = rx.search(doc.text if doc.kind == "html" else json.dumps(doc.root))
        found = [(m.group(1) if rx.groups else m.group(0))] if m else []
    else:
        found = []
    found = [f for f in found if f is not None and f != ""]
    return found[0] if found else None

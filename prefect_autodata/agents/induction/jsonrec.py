"""JSON record sets of the shapes APIs use besides a flat array of objects.

- nested objects: ``{"title": …, "author": {"name": …}}`` → keys ``author.name`` (JSONPath ``$.author.name``);
- arrays of arrays whose first row is the header: ``[["name", "price"], ["a", 1], …]`` → records
  ``$[1:]``, fields by position, labelled by the header row;
- records keyed by a value: ``{"items": {"17": {…}, "42": {…}}}`` → records ``$.items.*``.

Each set is a ``RecordSet`` (``induction/recordset.py``), so the JSON inducer matches and ranks
them exactly like the flat arrays it already finds.
"""

from __future__ import annotations

import re
from typing import Any

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
MAX_DEPTH = 6


def _jp(parts: list[str | int]) -> str:
    out = "$"
    for p in parts:
        if isinstance(p, int):
            out += f"[{p}]"
        elif _IDENT.match(p):
            out += f".{p}"
        else:
            out += f"['{p}']"
    return out


def flatten(d: dict, *, depth: int = 2, prefix: str = "") -> dict[str, Any]:
    """Nested objects as dotted keys (``author.name``), to ``depth`` levels; only identifier keys nest."""
    out: dict[str, Any] = {}
    for k, v in d.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict) and depth > 0 and _IDENT.match(str(k)) and v:
            inner = flatten(v, depth=depth - 1, prefix=key + ".")
            if all(_IDENT.match(part) for kk in inner for part in kk.split(".")):
                out.update(inner)
                continue
        out[key] = v
    return out


def leaf_labels(keys: list[str | int]) -> dict[str | int, str]:
    """Each key's label: a flattened key (``meta.price``) goes by its last part (``price``) when no other
    key of the record ends the same way, so it matches the field word like a flat key would; the path
    stays the key (its JSONPath) and an alias of the label."""
    leaves = [str(k).rsplit(".", 1)[-1] for k in keys]
    return {
        k: leaf if "." in str(k) and leaves.count(leaf) == 1 else str(k)
        for k, leaf in zip(keys, leaves, strict=True)
    }


# what the runtime calls the key of a keyed record (``runtime.extract.RECORD_KEY``)
RECORD_KEY = "@key"


def key_label(keys: list[Any]) -> str:
    """What the keys of records kept by a value are, as a label the matcher reads: "date" when they are
    dates, "year" when years, else "id". Not the container's noun (``{"JobPostings": {...}}``): that
    names the records, and a field that is a word for the record ("position") would take the key."""
    from prefect_autodata.agents.induction import values as vt

    kinds = [vt.coarse(vt.kind_of(k)) for k in keys if str(k).strip()]
    for kind, same in (("date", ("date", "datetime")), ("year", ("year",))):
        if kinds and sum(1 for k in kinds if k in same) >= 0.9 * len(kinds):
            return kind
    return "id"


def _header_row(rows: list) -> bool:
    if len(rows) < 3 or not all(isinstance(r, list) for r in rows[:50]):
        return False
    head = rows[0]
    if not head or not all(isinstance(h, str) and h.strip() for h in head):
        return False
    width = len(head)
    body = rows[1:50]
    return all(len(r) == width for r in body) and any(
        not isinstance(x, str) or x not in head for r in body for x in r
    )


def _keyed(node: dict) -> bool:
    vals = list(node.values())[:50]
    if len(vals) < 3 or not all(isinstance(v, dict) and v for v in vals):
        return False
    first = set(vals[0])
    shared = sum(1 for v in vals if len(first & set(v)) >= max(1, len(first) // 2))
    return shared == len(vals)


def _header_lists(obj: Any, depth: int = 0) -> list[list[str]]:
    """Lists of distinct non-empty strings anywhere near the top of a body: headers kept beside the rows."""
    out: list[list[str]] = []
    if depth > 3:
        return out
    if isinstance(obj, dict):
        for v in obj.values():
            if (
                isinstance(v, list)
                and len(v) >= 2
                and all(isinstance(h, str) and h.strip() for h in v)
                and len(set(v)) == len(v)
            ):
                out.append(v)
            elif isinstance(v, dict):
                out += _header_lists(v, depth + 1)
    return out


def _bare_rows(rows: list) -> int:
    """Width of an array of equal-width arrays of scalars (no header row), else 0."""
    if len(rows) < 1 or not all(isinstance(r, list) and r for r in rows[:50]):
        return 0
    width = len(rows[0])
    if width < 2 or any(len(r) != width for r in rows[:50]):
        return 0
    if any(isinstance(x, dict | list) for r in rows[:50] for x in r):
        return 0
    return width


_ROW_KEYS = ("rowSet", "rows", "data", "values")


def _column_table(node: dict) -> tuple[str, list[str]] | None:
    """``{"headers": [...], "rowSet": [[...], ...]}``: the rows' key and the header (names may repeat)."""
    headers = node.get("headers")
    if not isinstance(headers, list) or not all(isinstance(h, str) for h in headers):
        return None
    for rk in _ROW_KEYS:
        rows = node.get(rk)
        if isinstance(rows, list) and all(isinstance(r, list) for r in rows):
            return rk, headers
    return None


def record_sets(obj: Any, *, max_depth: int = MAX_DEPTH) -> list[Any]:
    """Every record set a JSON body holds, largest first: arrays of objects (nested objects flattened to
    dotted keys), ``headers``/``rowSet`` tables, arrays of arrays with a header row or with their header
    kept beside them, and records keyed by a value (``{"17": {...}, "42": {...}}``)."""
    from prefect_autodata.agents.induction.recordset import RecordSet

    found: dict[str, RecordSet] = {}
    headers = _header_lists(obj)

    def add(rs: RecordSet) -> None:
        found.setdefault(rs.path, rs)

    def add_dicts(dicts: list[dict], path: str, count: int, by: dict | None = None) -> None:
        rows = [flatten(d) for d in dicts[:50]]
        keys: list[str | int] = []
        for r in rows[:20]:
            keys += [k for k in r if k not in keys]
        labels = leaf_labels(keys)
        if by is not None and RECORD_KEY not in keys:
            # records kept by a value: the value is a field of each record (an id, a date, a ticker)
            ids = list(by)[:50]
            rows = [{RECORD_KEY: k, **r} for k, r in zip(ids, rows, strict=False)]
            keys = [RECORD_KEY, *keys]
            labels = {RECORD_KEY: key_label(ids), **labels}
        add(RecordSet(path=path, keys=keys, labels=labels, rows=rows, count=count))

    def positional(path: str, head: list[str], rows: list, count: int, name: str = "") -> None:
        keys: list[str | int] = list(range(len(head)))
        labels: dict[str | int, str] = dict(zip(keys, head, strict=True))
        cells = [dict(enumerate(r)) for r in rows[:50]]
        add(
            RecordSet(
                path=path, keys=keys, labels=labels, rows=cells, count=count, name=name, positional=True
            )
        )

    def visit(node: Any, parts: list[str | int], depth: int) -> None:
        if depth > max_depth:
            return
        if isinstance(node, list):
            width = _bare_rows(node)
            cells = {str(x) for r in node[:50] for x in r} if width else set()
            head = next((h for h in headers if len(h) == width and not set(h) & cells), None)
            if head is not None:  # rows whose header is kept elsewhere in the body ({"header": [...], ...})
                positional(_jp(parts) + "[*]", head, node, len(node))
                return
            if _header_row(node):
                positional(_jp(parts) + "[1:]", node[0], node[1:], len(node) - 1)
                return
            dicts = [x for x in node[:200] if isinstance(x, dict)]
            if node and len(dicts) == min(len(node), 200):
                add_dicts(dicts, _jp(parts) + "[*]", len(node))
                for i, d in enumerate(dicts[:10]):
                    visit(d, [*parts, i], depth + 1)
                return
            for i, x in enumerate(node[:20]):
                if isinstance(x, dict | list):
                    visit(x, [*parts, i], depth + 1)
            return
        if isinstance(node, dict):
            table = _column_table(node)
            if table is not None:  # {"name": ..., "headers": [...], "rowSet": [[...], ...]}
                rk, head = table
                rows = node[rk]
                positional(_jp([*parts, rk]) + "[*]", head, rows, len(rows), str(node.get("name") or ""))
            if _keyed(node):
                path = _jp(parts) + ".*" if parts else "$.*"
                add_dicts(list(node.values())[:200], path, len(node), by=node)
                for k, v in list(node.items())[:10]:  # arrays inside the first records
                    visit(v, [*parts, k], depth + 1)
                return
            for k, v in node.items():
                if isinstance(v, dict | list) and k != "headers":
                    visit(v, [*parts, k], depth + 1)

    visit(obj, [], 0)
    return sorted(found.values(), key=lambda r: -r.count)


_NAME_KEYS = (
    "name",
    "full_name",
    "fullName",
    "display_name",
    "displayName",
    "title",
    "label",
    "text",
    "value",
)


def _plain(x: Any) -> bool:
    return isinstance(x, str | int | float) and not isinstance(x, bool)


def list_projection(values: list[Any]) -> str | None:
    """How to read a key whose values are lists, as a JSONPath suffix to join: ``[*]`` for lists of
    scalars (``"tags": ["a", "b"]``), ``[*].name`` for lists of objects that each carry one name key
    (``"authors": [{"name": "A", "affiliation": ...}]``), else None (not lists, or lists of mixed things).

    Why: an API lists a record's authors, tags or genres as an array; the field asked for is the
    names, joined, not the JSON of the objects."""
    filled = [v for v in values if v not in (None, "", [])]
    lists = [v for v in filled if isinstance(v, list)]
    if not lists or len(lists) < len(filled):
        return None
    items = [x for v in lists for x in v]
    if all(_plain(x) for x in items):
        return "[*]"
    if all(isinstance(x, dict) for x in items):
        for k in _NAME_KEYS:
            if all(_plain(x.get(k)) for x in items):
                return f"[*].{k}"
    return None


def project(value: Any, suffix: str) -> str:
    """A list value read as ``list_projection`` says, joined by ", " (what the runtime lands)."""
    if not isinstance(value, list):
        return "" if value is None else str(value)
    key = suffix[4:] if suffix.startswith("[*].") else None
    parts = [x.get(key) if key and isinstance(x, dict) else x for x in value]
    return ", ".join(str(p).strip() for p in parts if p is not None and str(p).strip())


def loads(text: str | bytes) -> Any:
    """A JSON body, or a JSON Lines / NDJSON body as the list of its records.

    Why: data downloads ship NDJSON (one object per line) as often as JSON; read as one document it
    is invalid, read line by line it is an array of records like any other. Raises ``ValueError``
    when the body is neither.
    """
    import json

    if isinstance(text, bytes):
        text = text.decode("utf-8-sig", "replace")
    try:
        return json.loads(text)
    except ValueError:
        lines = [ln for ln in text.splitlines() if ln.strip()]
        if len(lines) < 2:
            raise
        out = [json.loads(ln) for ln in lines]  # a bad line: not JSON Lines either (ValueError)
        if not all(isinstance(o, dict) for o in out):
            raise ValueError("JSON Lines whose lines are not all objects") from None
        return out

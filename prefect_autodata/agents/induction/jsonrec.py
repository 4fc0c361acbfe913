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


def record_sets(obj: Any) -> list[Any]:
    """Record sets of the nested / header-row / keyed shapes (flattened keys for arrays of objects too)."""
    from prefect_autodata.agents.induction.recordset import RecordSet

    found: list[RecordSet] = []
    headers = _header_lists(obj)

    def add_dicts(dicts: list[dict], path: str, count: int) -> None:
        rows = [flatten(d) for d in dicts[:50]]
        keys: list[str | int] = []
        for r in rows[:20]:
            keys += [k for k in r if k not in keys]
        found.append(
            RecordSet(path=path, keys=keys, labels={k: str(k) for k in keys}, rows=rows, count=count)
        )

    def visit(node: Any, parts: list[str | int], depth: int) -> None:
        if depth > MAX_DEPTH:
            return
        if isinstance(node, list):
            width = _bare_rows(node)
            cells = {str(x) for r in node[:50] for x in r} if width else set()
            head = next((h for h in headers if len(h) == width and not set(h) & cells), None)
            if head is not None:  # rows whose header is kept elsewhere in the body ({"header": [...], ...})
                keys = list(range(width))
                found.append(
                    RecordSet(
                        path=_jp(parts) + "[*]",
                        keys=keys,
                        labels=dict(zip(keys, head, strict=True)),
                        rows=[dict(enumerate(r)) for r in node[:50]],
                        count=len(node),
                        positional=True,
                    )
                )
                return
            if _header_row(node):
                head = node[0]
                keys = list(range(len(head)))
                found.append(
                    RecordSet(
                        path=_jp(parts) + "[1:]",
                        keys=keys,
                        labels=dict(zip(keys, head, strict=True)),
                        rows=[dict(enumerate(r)) for r in node[1:51]],
                        count=len(node) - 1,
                        positional=True,
                    )
                )
                return
            dicts = [x for x in node[:200] if isinstance(x, dict)]
            if node and len(dicts) == min(len(node), 200):
                add_dicts(dicts, _jp(parts) + "[*]", len(node))
                for i, d in enumerate(dicts[:5]):
                    visit(d, [*parts, i], depth + 1)
                return
            for i, x in enumerate(node[:20]):
                if isinstance(x, dict | list):
                    visit(x, [*parts, i], depth + 1)
            return
        if isinstance(node, dict):
            if _keyed(node):
                add_dicts(list(node.values())[:200], _jp(parts) + ".*" if parts else "$.*", len(node))
                return
            for k, v in node.items():
                if isinstance(v, dict | list):
                    visit(v, [*parts, k], depth + 1)

    visit(obj, [], 0)
    return sorted(found, key=lambda r: -r.count)


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

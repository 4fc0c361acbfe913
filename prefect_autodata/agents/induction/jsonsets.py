"""Every record set a JSON body holds, largest first: arrays of objects and ``headers``/``rowSet``
tables found here, plus the nested, header-row and keyed shapes of ``jsonrec``.
"""

from __future__ import annotations

import re
from typing import Any

from prefect_autodata.agents.induction.jsonrec import record_sets
from prefect_autodata.agents.induction.recordset import RecordSet


def _jp(parts: list[str | int]) -> str:
    out = "$"
    for p in parts:
        if isinstance(p, int):
            out += f"[{p}]"
        elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", p):
            out += f".{p}"
        else:
            out += f"['{p}']"
    return out


def json_record_sets(obj: Any, *, max_depth: int = 6) -> list[RecordSet]:
    """Every array of objects and every ``headers``/``rowSet`` table in a JSON body, largest first."""
    found: list[RecordSet] = []

    def visit(node: Any, parts: list[str | int], depth: int) -> None:
        if depth > max_depth:
            return
        if isinstance(node, list):
            dicts = [x for x in node[:200] if isinstance(x, dict)]
            if node and len(dicts) == min(len(node), 200):
                keys: list[str | int] = []
                for d in dicts[:20]:
                    keys += [k for k in d if k not in keys]
                found.append(
                    RecordSet(
                        path=_jp(parts) + "[*]",
                        keys=keys,
                        labels={k: str(k) for k in keys},
                        rows=dicts[:50],
                        count=len(node),
                    )
                )
                for i, d in enumerate(dicts[:10]):
                    visit(d, [*parts, i], depth + 1)
                return
            for i, x in enumerate(node[:20]):
                if isinstance(x, dict | list):
                    visit(x, [*parts, i], depth + 1)
            return
        if isinstance(node, dict):
            headers = node.get("headers")
            for rk in ("rowSet", "rows", "data", "values"):
                rows = node.get(rk)
                if (
                    isinstance(headers, list)
                    and isinstance(rows, list)
                    and all(isinstance(r, list) for r in rows)
                    and all(isinstance(h, str) for h in headers)
                ):
                    keys = list(range(len(headers)))
                    found.append(
                        RecordSet(
                            path=_jp([*parts, rk]) + "[*]",
                            keys=keys,
                            labels=dict(zip(keys, headers, strict=True)),
                            rows=[dict(enumerate(r)) for r in rows[:50]],
                            count=len(rows),
                            name=str(node.get("name") or ""),
                            positional=True,
                        )
                    )
                    break
            for k, v in node.items():
                if isinstance(v, dict | list) and k not in ("headers",):
                    visit(v, [*parts, k], depth + 1)

    visit(obj, [], 0)
    # Nested objects (flattened keys), arrays of arrays with a header row, records keyed by id.
    by_path = {r.path: i for i, r in enumerate(found)}
    for extra in record_sets(obj):
        i = by_path.get(extra.path)
        if i is None:
            found.append(extra)
        elif extra.keys != found[i].keys and not found[i].positional:
            found[i] = extra
    return sorted(found, key=lambda r: -r.count)

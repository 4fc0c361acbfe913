"""Structured data a page carries besides its visible text: microdata, OpenGraph/meta tags, JSON-LD.

``extruct`` (a kept library) reads all syntaxes; this module turns what it finds into candidates
with selectors the runtime can evaluate: ``//*[@itemprop='x']`` for microdata, ``//meta[...]/@content``
for meta tags, and a regex on the embedded JSON-LD text for its (flat or ``{"name": …}``) properties.
Structured data is one way in among others, never required.
"""

from __future__ import annotations

import json
import re
from typing import Any

from prefect_autodata.agents.induction.dom import clean, xq
from prefect_autodata.agents.induction.matching import normalise


def _flat(obj: Any, prefix: str = "") -> dict[str, str]:
    """Scalar properties of a JSON-LD node (nested ``{"name": x}`` objects give their name)."""
    out: dict[str, str] = {}
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k.startswith("@"):
                continue
            if isinstance(v, str | int | float) and not isinstance(v, bool):
                out.setdefault(prefix + k, str(v))
            elif isinstance(v, dict) and isinstance(v.get("name"), str):
                out.setdefault(prefix + k, v["name"])
            elif isinstance(v, list) and v and all(isinstance(x, dict) and "name" in x for x in v):
                out.setdefault(prefix + k, ", ".join(str(x["name"]) for x in v))
            elif isinstance(v, dict) and not prefix:
                out.update({kk: vv for kk, vv in _flat(v, prefix="").items() if kk not in out})
    return out


def properties(html: str, url: str = "") -> list[tuple[str, str, dict[str, Any]]]:
    """``(label, value, rule)`` for each property of a page's structured data (first item of each)."""
    import extruct

    try:
        data = extruct.extract(
            html, base_url=url or None, syntaxes=["json-ld", "microdata", "opengraph"], uniform=True
        )
    except Exception:  # malformed markup or JSON: structured data is optional
        return []
    out: list[tuple[str, str, dict[str, Any]]] = []
    for item in data.get("microdata", [])[:1]:
        for k, v in _flat(item).items():
            rule = {"xpath": f"//*[@itemprop={xq(k)}]", "transforms": [{"op": "collapse_whitespace"}]}
            if re.search(rf"<meta[^>]+itemprop=[\"']{re.escape(k)}[\"']", html):
                rule = {"xpath": f"//meta[@itemprop={xq(k)}]/@content", "transforms": [{"op": "strip"}]}
            out.append((k, clean(v), rule))
    for item in data.get("opengraph", [])[:1]:
        for k, v in item.items():
            if k.startswith("@") or not isinstance(v, str):
                continue
            label = k.split(":", 1)[-1]
            rule = {"xpath": f"//meta[@property={xq(k)}]/@content", "transforms": [{"op": "strip"}]}
            out.append((label, clean(v), rule))
    for item in data.get("json-ld", [])[:1]:
        for k, v in _flat(item).items():
            key = re.escape(json.dumps(k))
            nested = rf"{key}\s*:\s*\{{[^{{}}]*?\"name\"\s*:\s*\"((?:[^\"\\]|\\.)*)\""
            flat = rf"{key}\s*:\s*\"((?:[^\"\\]|\\.)*)\""
            number = rf"{key}\s*:\s*(-?\d+(?:\.\d+)?)"
            value = v
            for pat in (flat, number, nested):
                m = re.search(pat, html)
                if m and clean(m.group(1)) == clean(value):
                    out.append((k, clean(v), {"regex": pat, "transforms": [{"op": "strip"}]}))
                    break
    for meta in re.finditer(r"<meta\s+name=[\"']([\w:.-]{2,40})[\"']\s+content=[\"']([^\"']*)[\"']", html):
        name, value = meta.group(1), meta.group(2)
        if normalise(name) in ("viewport", "generator", "robot", "charset"):
            continue
        out.append(
            (
                name,
                clean(value),
                {"xpath": f"//meta[@name={xq(name)}]/@content", "transforms": [{"op": "strip"}]},
            )
        )
    return out

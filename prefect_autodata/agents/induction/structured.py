"""Structured data a page carries besides its visible text: microdata, OpenGraph/meta tags, JSON-LD.

Each property becomes a candidate with a selector the runtime evaluates: ``//*[@itemprop='x']``
for microdata, ``//meta[...]/@content`` for meta tags, and a regex on the embedded JSON-LD text for
its (flat or ``{"name": …}``) properties. Structured data is one way in among others, never
required. The syntaxes are read with lxml and ``json`` directly: ``extruct`` reads the same three
but its import (rdflib for RDFa) costs seconds on every run, which the offline agents cannot afford.
"""

from __future__ import annotations

import json
import re
from typing import Any

from prefect_autodata.agents.induction.dom import clean, parse, text, xq
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


def _jsonld_items(root: Any) -> list[dict]:
    items: list[dict] = []
    for s in root.xpath("//script[@type='application/ld+json']"):
        try:
            data = json.loads(s.text or "")
        except ValueError:
            continue
        if isinstance(data, dict) and isinstance(data.get("@graph"), list):
            data = data["@graph"]
        items += [d for d in (data if isinstance(data, list) else [data]) if isinstance(d, dict)]
    return items


def properties(html: str, url: str = "", root: Any = None) -> list[tuple[str, str, dict[str, Any]]]:
    """``(label, value, rule)`` for each property of a page's structured data (first item of each)."""
    root = root if root is not None else parse(html)
    if root is None:
        return []
    out: list[tuple[str, str, dict[str, Any]]] = []
    seen: set[str] = set()
    for el in root.xpath("//*[@itemprop][not(@itemscope)]")[:200]:
        k = el.get("itemprop")
        if not k or k in seen or len(k) > 40:
            continue
        seen.add(k)
        if el.tag == "meta":
            rule = {"xpath": f"//meta[@itemprop={xq(k)}]/@content", "transforms": [{"op": "strip"}]}
            out.append((k, clean(el.get("content")), rule))
        else:
            rule = {"xpath": f"//*[@itemprop={xq(k)}]", "transforms": [{"op": "collapse_whitespace"}]}
            out.append((k, text(el), rule))
    for el in root.xpath("//meta[@property][@content]")[:100]:
        k = el.get("property")
        if ":" not in k:
            continue
        rule = {"xpath": f"//meta[@property={xq(k)}]/@content", "transforms": [{"op": "strip"}]}
        out.append((k.split(":", 1)[-1], clean(el.get("content")), rule))
    for el in root.xpath("//meta[@name][@content]")[:100]:
        name = el.get("name")
        if normalise(name) in ("viewport", "generator", "robot", "charset", "referrer", "theme color"):
            continue
        rule = {"xpath": f"//meta[@name={xq(name)}]/@content", "transforms": [{"op": "strip"}]}
        out.append((name, clean(el.get("content")), rule))
    for item in _jsonld_items(root)[:1]:
        for k, v in _flat(item).items():
            key = re.escape(json.dumps(k))
            nested = rf"{key}\s*:\s*\{{[^{{}}]*?\"name\"\s*:\s*\"((?:[^\"\\]|\\.)*)\""
            flat = rf"{key}\s*:\s*\"((?:[^\"\\]|\\.)*)\""
            number = rf"{key}\s*:\s*(-?\d+(?:\.\d+)?)"
            for pat in (flat, number, nested):
                m = re.search(pat, html)
                if m and clean(m.group(1)) == clean(v):
                    out.append((k, clean(v), {"regex": pat, "transforms": [{"op": "strip"}]}))
                    break
    return out

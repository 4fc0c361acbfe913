"""Structured data a page carries besides its visible text: microdata, OpenGraph/meta tags, JSON-LD.

Each property becomes a candidate with a selector the runtime evaluates: ``//*[@itemprop='x']``
for microdata, ``//meta[...]/@content`` for meta tags, and a JSONPath into the page JSON
(``runtime/scriptjson``: ``$['ld+json'][0]['author']['name']``) for JSON-LD, including name/value
pairs (``additionalProperty``) read by a filter on their name. Structured data is one way in among
others, never required. The syntaxes are read with lxml and ``json`` directly: ``extruct`` reads the same three
but its import (rdflib for RDFa) costs seconds on every run, which the offline agents cannot afford.
"""

from __future__ import annotations

import re
from typing import Any

from prefect_autodata.agents.induction.dom import clean, parse, text, xq
from prefect_autodata.agents.induction.matching import normalise


def _ld_nodes(root: Any) -> list[tuple[str, dict]]:
    """``(JSONPath, node)`` of each JSON-LD item, in page order, wherever it sits: a block's top
    level, a list, an ``@graph``, or nested in another item (a ``Recipe`` as a page's ``mainEntity``).

    An item whose ``@type`` no other item on the page has is addressed by that type
    (``$['ld+json']..[?(@['@type'] == 'Recipe')]``), so one rule holds on every page of a site
    whichever shape a page writes it in (one object on some, an ``@graph`` on others); other items
    by their position.
    """
    from prefect_autodata.runtime.scriptjson import LD_KEY, page_json

    blocks = page_json(root).get(LD_KEY) or []
    found: list[tuple[str, dict]] = []

    def walk(data: Any, path: str, depth: int) -> None:
        if depth > 6:
            return
        if isinstance(data, list):
            for j, d in enumerate(data[:200]):
                walk(d, f"{path}[{j}]", depth + 1)
        elif isinstance(data, dict):
            if "@graph" not in data or len(data) > 2:  # a bare {"@context", "@graph"} is no item
                found.append((path, data))
            for k, v in data.items():
                if isinstance(v, dict | list) and k not in ("@context",):
                    walk(v, path + _q(k), depth + 1)

    for b, data in enumerate(blocks):
        walk(data, f"$['{LD_KEY}'][{b}]", 0)
    typed = [n.get("@type") for _, n in found]
    out: list[tuple[str, dict]] = []
    for path, node in found:
        t = node.get("@type")
        if isinstance(t, str) and typed.count(t) == 1 and _TYPE_OK.fullmatch(t):
            path = f"$['{LD_KEY}']..[?(@['@type'] == '{t}')]"
        out.append((path, node))
    return [(p, n) for p, n in out if "@type" in n or not p.count("[") > 2]


# A quantity written with its unit: "310 kcal", "1.5 l", "4 servings" (not "221B", not "2 Main St").
_UNIT = re.compile(r"([-+]?\d+(?:[.,]\d+)?)\s?([^\W\d_]{2,12}\.?)")
_TYPE_OK = re.compile(r"[\w:/.#-]{1,80}")


def _own_name(key: str, node: dict) -> str:
    """A property named after its item's type reads without that prefix: ``recipeYield`` of a
    ``Recipe`` is its yield, ``eventStatus`` of an ``Event`` its status (schema.org writes
    properties so). The prefix would name the record itself ("recipe") and pull the record's
    name field onto a servings count."""
    t = node.get("@type")
    t = re.split(r"[:/#]", t)[-1] if isinstance(t, str) else ""
    if len(t) >= 3 and key[: len(t)].casefold() == t.casefold() and key[len(t) : len(t) + 1].isupper():
        return key[len(t) :]
    return key


def _q(k: str) -> str:
    return "['" + str(k).replace("\\", "\\\\").replace("'", "\\'") + "']"


def _scalar(v: Any) -> bool:
    return isinstance(v, str | int | float) and not isinstance(v, bool)


_SKIP = {"@context", "@type", "@id", "url", "image", "sameAs", "mainEntityOfPage"}
# OpenGraph properties that describe the page, not the thing on it: its object type ("article",
# "website"), its own address, the site, the language and the share images
_PAGE_META = {
    "og:type",
    "og:url",
    "og:site_name",
    "og:locale",
    "og:locale:alternate",
    "og:image",
    "og:image:url",
    "og:image:secure_url",
    "og:image:type",
    "og:image:width",
    "og:image:height",
    "og:image:alt",
    "og:determiner",
    "fb:app_id",
    "twitter:card",
    "twitter:site",
}


def _scalar_property(label: str, v: Any, path: str) -> tuple[str, str, dict[str, Any]]:
    """One scalar property as ``(label, value, rule)``. A quantity written with its unit ("310
    kcal", "4 servings") reads as its number: schema.org writes energy, yields and sizes so, and a
    numeric field wants the amount (other pages may write the number bare: the unit is optional)."""
    strip = [{"op": "strip"}]
    value = clean(str(v))
    unit = _UNIT.fullmatch(value) if isinstance(v, str) else None
    if unit is None:
        return label, value, {"jsonpath": path, "transforms": strip}
    pat = r"^\s*([-+]?\d+(?:[.,]\d+)?)(?:\s?" + re.escape(unit.group(2)) + r")?\s*$"
    return label, unit.group(1), {"jsonpath": path, "transforms": [*strip, {"op": "regex", "pattern": pat}]}


def jsonld_properties(root: Any, *, max_items: int = 1) -> list[tuple[str, str, dict[str, Any]]]:
    """``(label, value, rule)`` of the main JSON-LD item: JSONPath rules into the page JSON.

    Direct properties (``"author": "X"``, ``{"name": X}``, lists of names), one level of nested
    objects (``address.streetAddress``), and name/value pairs (``additionalProperty``: a list of
    ``{"name": label, "value": v}``), whose ``name`` is the label and whose rule filters on it.
    """
    nodes = _ld_nodes(root)
    # The record is the node with the most properties (a page also carries BreadcrumbList, WebSite...).
    nodes.sort(key=lambda x: -len(x[1]))
    out: list[tuple[str, str, dict[str, Any]]] = []
    strip = [{"op": "strip"}]
    for path, node in nodes[:max_items]:
        for key, v in node.items():
            if key in _SKIP or key.startswith("@"):
                continue
            p, k = path + _q(key), _own_name(key, node)
            if _scalar(v):
                out.append(_scalar_property(k, v, p))
            elif isinstance(v, dict) and _scalar(v.get("name")):
                out.append((k, clean(str(v["name"])), {"jsonpath": p + "['name']", "transforms": strip}))
            elif isinstance(v, dict):
                for kk, vv in v.items():
                    if not kk.startswith("@") and _scalar(vv):
                        out.append(_scalar_property(kk, vv, p + _q(kk)))
            elif isinstance(v, list) and v and all(_scalar(x) for x in v):
                out.append((k, ", ".join(clean(str(x)) for x in v), {"jsonpath": p + "[*]", "join": ", "}))
            elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
                if all("value" in x and _scalar(x.get("name")) for x in v):  # name/value pairs
                    for x in v:
                        lab = str(x["name"])
                        if "'" in lab or "\\" in lab or not _scalar(x.get("value")):
                            continue
                        rule = {"jsonpath": f"{p}[?(@.name == '{lab}')].value", "transforms": strip}
                        out.append((lab, clean(str(x["value"])), rule))
                elif all(_scalar(x.get("name")) for x in v):
                    names = ", ".join(clean(str(x["name"])) for x in v)
                    out.append((k, names, {"jsonpath": p + "[*]['name']", "join": ", "}))
    return out


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
        if ":" not in k or k.lower() in _PAGE_META:
            continue
        rule = {"xpath": f"//meta[@property={xq(k)}]/@content", "transforms": [{"op": "strip"}]}
        out.append((k.split(":", 1)[-1], clean(el.get("content")), rule))
    for el in root.xpath("//meta[@name][@content]")[:100]:
        name = el.get("name")
        if normalise(name) in ("viewport", "generator", "robot", "charset", "referrer", "theme color"):
            continue
        rule = {"xpath": f"//meta[@name={xq(name)}]/@content", "transforms": [{"op": "strip"}]}
        out.append((name, clean(el.get("content")), rule))
    out += jsonld_properties(root)
    return out

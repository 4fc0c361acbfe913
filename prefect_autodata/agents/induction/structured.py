"""Structured data a page carries besides its visible text: microdata, OpenGraph/meta tags, JSON-LD.

Each property becomes a candidate with a selector the runtime evaluates: ``//*[@itemprop='x']``
for microdata, ``//meta[...]/@content`` for meta tags, and a JSONPath into the page JSON
(``runtime/scriptjson``: ``$['ld+json'][0]['author']['name']``) for JSON-LD, including name/value
pairs (``additionalProperty``) read by a filter on their name. Structured data is one way in among
others, never required. The syntaxes are read with lxml and ``json`` directly: ``extruct`` reads the same three
but its import (rdflib for RDFa) costs seconds on every run, which the offline agents cannot afford.
"""

from __future__ import annotations

from typing import Any

from prefect_autodata.agents.induction.dom import clean, parse, text, xq
from prefect_autodata.agents.induction.matching import normalise


def _ld_nodes(root: Any) -> list[tuple[str, dict]]:
    """``(JSONPath, node)`` of each JSON-LD item, in page order (``@graph`` members one by one)."""
    from prefect_autodata.runtime.scriptjson import LD_KEY, page_json

    blocks = page_json(root).get(LD_KEY) or []
    out: list[tuple[str, dict]] = []
    for b, data in enumerate(blocks):
        base = f"$['{LD_KEY}'][{b}]"
        if isinstance(data, dict) and isinstance(data.get("@graph"), list):
            out += [
                (f"{base}['@graph'][{j}]", d) for j, d in enumerate(data["@graph"]) if isinstance(d, dict)
            ]
        elif isinstance(data, list):
            out += [(f"{base}[{j}]", d) for j, d in enumerate(data) if isinstance(d, dict)]
        elif isinstance(data, dict):
            out.append((base, data))
    return out


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
        for k, v in node.items():
            if k in _SKIP or k.startswith("@"):
                continue
            p = path + _q(k)
            if _scalar(v):
                out.append((k, clean(str(v)), {"jsonpath": p, "transforms": strip}))
            elif isinstance(v, dict) and _scalar(v.get("name")):
                out.append((k, clean(str(v["name"])), {"jsonpath": p + "['name']", "transforms": strip}))
            elif isinstance(v, dict):
                for kk, vv in v.items():
                    if not kk.startswith("@") and _scalar(vv):
                        out.append((kk, clean(str(vv)), {"jsonpath": p + _q(kk), "transforms": strip}))
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

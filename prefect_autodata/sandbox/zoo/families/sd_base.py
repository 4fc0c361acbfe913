"""Structured data for the sd_* families: schema.org JSON-LD, microdata attributes, OpenGraph meta tags.

Why: many 2010s sites carry machine-readable copies of what the page shows. The sd families put
them beside the visible markup (never instead of it), so a collector may read either; the visible
markup follows the HTML families' conventions (``_common``), so the same oracle notes apply.
"""

from __future__ import annotations

import json
import random
from typing import Any

from prefect_autodata.sandbox.zoo.base import KindDef
from prefect_autodata.sandbox.zoo.families.api_base import style_key, words_of

# schema.org type a site of each domain would declare (sandbox-only vocabulary).
SCHEMA_TYPES = {
    "academic": "ScholarlyArticle",
    "finance": "Dataset",
    "sport": "Dataset",
    "auto": "Car",
    "camera": "Product",
    "job": "JobPosting",
    "movie": "Movie",
    "restaurant": "Restaurant",
    "university": "CollegeOrUniversity",
}


def schema_type(kind: KindDef) -> str:
    return SCHEMA_TYPES.get(kind.domain, "Thing")


def prop_names(kind: KindDef, rng: random.Random) -> dict[str, str]:
    """Field → property name: the title is ``name``, the others camelCase of the field or a label."""
    out: dict[str, str] = {}
    used = {"name", "url", "@type", "@context", "@id"}
    for f in kind.fields:
        if f.name == kind.title_field:
            out[f.name] = "name"
            continue
        src = (
            f.name
            if rng.random() < 0.6
            else rng.choice([lab for lab in f.labels if words_of(lab)] or [f.name])
        )
        p = style_key(words_of(src), "camel")
        if p in used:
            p = style_key(words_of(f.name), "camel")
        while p in used:
            p += "Value"
        used.add(p)
        out[f.name] = p
    return out


def jsonld_object(
    kind: KindDef, rec: dict, props: dict[str, str], labels: dict[str, str], url: str, style: str
) -> dict[str, Any]:
    """A JSON-LD object of one record: direct properties, or additionalProperty name/value pairs."""
    obj: dict[str, Any] = {"@context": "https://schema.org", "@type": schema_type(kind), "url": url}
    extra = []
    for f in kind.fields:
        v = rec.get(f.name)
        if v is None:
            continue
        if f.name == kind.title_field or style == "direct":
            obj[props[f.name]] = v
        else:
            extra.append({"@type": "PropertyValue", "name": labels[f.name], "propertyID": f.name, "value": v})
    if extra:
        obj["additionalProperty"] = extra
    return obj


def jsonld_script(obj: dict[str, Any]) -> str:
    text = json.dumps(obj, ensure_ascii=False, indent=1).replace("</", "<\\/")
    return f'<script type="application/ld+json">\n{text}\n</script>\n'


def og_tags(title: str, url: str, site: str, og_type: str, description: str) -> str:
    from prefect_autodata.sandbox.zoo.families._common import esc

    tags = [
        ("og:title", title),
        ("og:type", og_type),
        ("og:url", url),
        ("og:site_name", site),
        ("og:description", description),
    ]
    out = "".join(f'<meta property="{p}" content="{esc(v)}">\n' for p, v in tags)
    return out + f'<meta name="description" content="{esc(description)}">\n'

"""Listing of links → detail pages whose visible label/value markup has a schema.org JSON-LD twin.

The JSON-LD block (``<script type="application/ld+json">``) carries the record either as direct
properties (``name``, ``author``...) or as ``additionalProperty`` name/value pairs; the visible
markup is one of the shared detail styles, so either way in works. Some sites add OpenGraph tags.
"""

from __future__ import annotations

import random

from prefect_autodata.sandbox.zoo.base import RecordSet, ZooSite
from prefect_autodata.sandbox.zoo.families._common import (
    DETAIL_STYLES,
    Pager,
    base_notes,
    basics,
    detail_routes,
    esc,
    field_specs,
    listing_routes,
    render_fields,
    spec,
    static_pages,
    year_field,
)
from prefect_autodata.sandbox.zoo.families.sd_base import (
    jsonld_object,
    jsonld_script,
    og_tags,
    prop_names,
    schema_type,
)


class JsonLdDetail:
    name = "sd_jsonld_detail"
    kinds = None
    max_records = 400

    def build(self, rs: RecordSet, rng: random.Random, host: str) -> ZooSite:
        b = basics(rs, rng, host)
        kind = rs.kind
        pager = Pager.draw(rs, rng, year_field=year_field(rs))
        style = rng.choice(DETAIL_STYLES[:4])  # icons stay with the HTML families
        ld_style = rng.choice(("direct", "pairs"))
        with_og = rng.random() < 0.4
        split = rng.random() < 0.2
        list_tag = rng.choice(("ul", "ol"))
        props = prop_names(kind, rng)
        suffix = rng.choice((" | ", " — ")) + b.site_name
        fields = [f for f in b.order if f != kind.title_field]
        href_of: list = []

        def render_detail(i: int) -> str:
            rec = rs.records[i]
            title = str(rec.get(kind.title_field) or "")
            url = f"https://{host}{href_of[0](i)}"
            head = jsonld_script(jsonld_object(kind, rec, props, b.labels, url, ld_style))
            if with_og:
                desc = "; ".join(f"{b.labels[f]}: {rec[f]}" for f in fields if rec.get(f) is not None)
                head += og_tags(
                    title, url, b.site_name, "article" if kind.domain == "academic" else "website", desc
                )
            body = f"<section{b.namer.attr('meta')}>{render_fields(style, fields, rec, b.labels, b.namer, split)}</section>"
            return b.chrome.page(title + suffix, body, head=head, h1=title, listing=False)

        droutes, href = detail_routes(rs, rng, b.entry, render_detail)
        href_of.append(href)

        def render(indices: list[int], _extra: str) -> str:
            items = "".join(
                f'<li{b.namer.attr("item")}><a href="{esc(b.chrome.href(href(i)))}">'
                f"{esc(rs.records[i].get(kind.title_field))}</a></li>"
                for i in indices
            )
            return f"<{list_tag}{b.namer.attr('list')}>{items}</{list_tag}>"

        routes, paths = listing_routes(
            b.entry,
            rs,
            pager,
            b.chrome,
            b.namer,
            render,
            title=f"{kind.plural.capitalize()} — {b.site_name}",
            h1=kind.plural.capitalize(),
        )
        dfields = field_specs(style, fields, b.labels, "//main/section")
        if kind.title_field in b.order:
            dfields[kind.title_field] = spec("//main/h1")
        notes = base_notes(
            b,
            self.name,
            pager,
            paths,
            mode="items",
            item=f"//main//{list_tag}/li[a]",
            fields={},
            detail_link="./a/@href",
            detail_fields=dfields,
            detail_style=style,
            structured={
                "jsonld": {
                    "type": schema_type(kind),
                    "style": ld_style,
                    # direct: field -> property; pairs: additionalProperty[propertyID == field].value
                    "props": {f.name: props[f.name] for f in kind.fields},
                },
                "opengraph": with_og,
                "microdata": None,
            },
        )
        return ZooSite(
            host=host,
            family=self.name,
            routes=routes + droutes + static_pages(b.chrome),
            entry_path=b.entry,
            notes=notes,
        )


FAMILY = JsonLdDetail()

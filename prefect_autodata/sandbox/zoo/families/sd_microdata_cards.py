"""A card grid with schema.org microdata (itemscope/itemprop) → detail pages with OpenGraph tags.

The listing cards show the title and a few fields, each value inside an ``itemprop`` element;
the detail page shows every field as visible label/value markup and repeats the title and a
summary in OpenGraph ``<meta property="og:...">`` tags.
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
    split_value,
    static_pages,
    year_field,
)
from prefect_autodata.sandbox.zoo.families.sd_base import og_tags, prop_names, schema_type


class MicrodataCards:
    name = "sd_microdata_cards"
    kinds = None
    max_records = 400

    def build(self, rs: RecordSet, rng: random.Random, host: str) -> ZooSite:
        b = basics(rs, rng, host)
        kind = rs.kind
        pager = Pager.draw(rs, rng, year_field=year_field(rs))
        style = rng.choice(DETAIL_STYLES[:4])
        props = prop_names(kind, rng)
        itemtype = f"https://schema.org/{schema_type(kind)}"
        others = [f for f in b.order if f != kind.title_field]
        shown = others[: rng.randint(1, max(1, min(3, len(others))))] if others else []
        title_in = kind.title_field in b.order
        split = rng.random() < 0.2
        suffix = rng.choice((" | ", " — ")) + b.site_name
        href_of: list = []

        def render_detail(i: int) -> str:
            rec = rs.records[i]
            title = str(rec.get(kind.title_field) or "")
            url = f"https://{host}{href_of[0](i)}"
            desc = "; ".join(f"{b.labels[f]}: {rec[f]}" for f in others if rec.get(f) is not None)
            head = og_tags(title, url, b.site_name, rng_type, desc)
            body = f"<section{b.namer.attr('meta')}>{render_fields(style, others, rec, b.labels, b.namer, split)}</section>"
            return b.chrome.page(title + suffix, body, head=head, h1=title, listing=False)

        rng_type = rng.choice(("website", "article", "product"))
        droutes, href = detail_routes(rs, rng, b.entry, render_detail)
        href_of.append(href)

        def card(i: int) -> str:
            rec = rs.records[i]
            t = esc(rec.get(kind.title_field))
            lines = "".join(
                f"<p><span{b.namer.attr('label')}>{esc(b.labels[f])}</span> "
                f'<span itemprop="{props[f]}">{split_value(str(rec[f]), split) if rec.get(f) is not None else ""}</span></p>'
                for f in shown
            )
            link = f'<a href="{esc(b.chrome.href(href(i)))}" itemprop="url">'
            return (
                f'<div{b.namer.attr("card")} itemscope itemtype="{itemtype}">'
                f'<h3{b.namer.attr("title")}>{link}<span itemprop="name">{t}</span></a></h3>{lines}</div>'
            )

        def render(indices: list[int], _extra: str) -> str:
            return (
                f'<div{b.namer.attr("list")} style="display:grid;grid-template-columns:repeat(3,1fr)">'
                + "".join(card(i) for i in indices)
                + "</div>"
            )

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
        lfields = {f: spec(f".//*[@itemprop='{props[f]}']") for f in shown}
        if title_in:
            lfields[kind.title_field] = spec(".//*[@itemprop='name']")
        dfields = field_specs(style, others, b.labels, "//main/section")
        if title_in:
            dfields[kind.title_field] = spec("//main/h1")
        notes = base_notes(
            b,
            self.name,
            pager,
            paths,
            mode="items",
            item="//main//div[@itemscope]",
            fields=lfields,
            detail_link=".//a[@itemprop='url']/@href",
            detail_fields=dfields,
            detail_style=style,
            structured={
                "jsonld": None,
                "opengraph": True,
                "microdata": {"itemtype": itemtype, "props": {f.name: props[f.name] for f in kind.fields}},
            },
        )
        return ZooSite(
            host=host,
            family=self.name,
            routes=routes + droutes + static_pages(b.chrome),
            entry_path=b.entry,
            notes=notes,
        )


FAMILY = MicrodataCards()

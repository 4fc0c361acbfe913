"""A listing of links only; every field lives on the record's own detail page.

The listing is a <ul>/<ol> or a one-column table of titles (paginated or indexed by letter/year);
the detail page prints label/value pairs as <dt>/<dd>, <th>/<td> rows, "Label: value" text,
adjacent <span>s or icons, sometimes with values split across elements. The title is either the
page's <h1> or only in its <title>.
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


class DetailPages:
    name = "html_detail_pages"
    kinds = None
    max_records = 400

    def build(self, rs: RecordSet, rng: random.Random, host: str) -> ZooSite:
        b = basics(rs, rng, host)
        kind = rs.kind
        pager = Pager.draw(rs, rng, year_field=year_field(rs))
        style = rng.choice(DETAIL_STYLES)
        title_where = rng.choice(("h1", "h1", "title"))
        split = rng.random() < 0.3
        list_tag = rng.choice(("ul", "ol", "table"))
        suffix = rng.choice((" | ", " — ", " - ")) + b.site_name
        fields = [f for f in b.order if f != kind.title_field]

        def render_detail(i: int) -> str:
            rec = rs.records[i]
            title = str(rec.get(kind.title_field) or "")
            body = f"<section{b.namer.attr('meta')}>{render_fields(style, fields, rec, b.labels, b.namer, split)}</section>"
            return b.chrome.page(
                title + suffix, body, h1=title if title_where == "h1" else None, listing=False
            )

        droutes, href = detail_routes(rs, rng, b.entry, render_detail)

        def render(indices: list[int], _extra: str) -> str:
            links = []
            for i in indices:
                t = esc(rs.records[i].get(kind.title_field))
                a = f'<a href="{esc(b.chrome.href(href(i)))}"{b.namer.attr("title")}>{t}</a>'
                links.append(
                    f"<tr><td>{a}</td></tr>" if list_tag == "table" else f"<li{b.namer.attr('item')}>{a}</li>"
                )
            return f"<{list_tag}{b.namer.attr('list')}>{''.join(links)}</{list_tag}>"

        routes, paths = listing_routes(
            b.entry,
            rs,
            pager,
            b.chrome,
            b.namer,
            render,
            title=f"{kind.plural.capitalize()} — {b.site_name}",
            h1=f"All {kind.plural}",
            shaped_noise=True,
        )
        item = "//main//table//tr[td/a]" if list_tag == "table" else f"//main//{list_tag}/li[a]"
        link = "./td/a/@href" if list_tag == "table" else "./a/@href"
        dfields = field_specs(style, fields, b.labels, "//main/section")
        if kind.title_field in b.order:
            dfields[kind.title_field] = (
                spec("//main/h1")
                if title_where == "h1"
                else {"x": "//title", "prefix": None, "suffix": suffix.strip()}
            )
        notes = base_notes(
            b,
            self.name,
            pager,
            paths,
            mode="items",
            item=item,
            fields={},
            detail_link=link,
            detail_fields=dfields,
            detail_style=style,
            title_where=title_where,
            site_name=b.site_name,
        )
        return ZooSite(
            host=host,
            family=self.name,
            routes=routes + droutes + static_pages(b.chrome),
            entry_path=b.entry,
            notes=notes,
        )


FAMILY = DetailPages()

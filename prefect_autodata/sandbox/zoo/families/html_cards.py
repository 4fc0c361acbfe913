"""A grid of <div> cards, each linking to a detail page: some fields only on the card, some on both,
the rest only on the detail page.

Cards print their fields as adjacent label/value spans or as icons instead of labels; the detail
page uses one of the shared detail styles. Class names meaningful, obfuscated or absent.
"""

from __future__ import annotations

import random

from prefect_autodata.sandbox.zoo.base import RecordSet, ZooSite
from prefect_autodata.sandbox.zoo.families._common import (
    DETAIL_STYLES,
    ICONS,
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
)


class CardGrid:
    name = "html_card_grid"
    kinds = None
    max_records = 400

    def build(self, rs: RecordSet, rng: random.Random, host: str) -> ZooSite:
        b = basics(rs, rng, host)
        kind = rs.kind
        pager = Pager.draw(rs, rng, ("single", "page_param", "path_pages", "offset_limit"))
        others = [f for f in b.order if f != kind.title_field]
        n_card = rng.randint(0, min(3, len(others)))
        card_fields = others[:n_card]
        both = [f for f in card_fields if rng.random() < 0.5]
        detail_fields = both + [f for f in others if f not in card_fields]
        card_style = rng.choice(("spans", "icons"))
        detail_style = rng.choice(DETAIL_STYLES)
        split = rng.random() < 0.3
        heading = rng.choice(("h2", "h3", "h4"))
        grid = rng.choice(("display:grid;grid-template-columns:repeat(3,1fr)", "display:flex;flex-wrap:wrap"))
        icons = {f: ICONS[(k + 5) % len(ICONS)] for k, f in enumerate(card_fields)}
        ids = rng.random() < 0.5

        def render_detail(i: int) -> str:
            rec = rs.records[i]
            title = str(rec.get(kind.title_field) or "")
            inner = render_fields(detail_style, detail_fields, rec, b.labels, b.namer, split)
            body = f"<section{b.namer.attr('meta')}>{inner}</section>"
            return b.chrome.page(f"{title} — {b.site_name}", body, h1=title, listing=False)

        droutes, href = detail_routes(rs, rng, b.entry, render_detail)

        def card_field(f: str, rec: dict) -> str:
            v = rec.get(f)
            shown = "" if v is None else split_value(str(v), split)
            if card_style == "icons":
                return f'<p><span aria-label="{esc(b.labels[f])}">{icons[f]}</span> {shown}</p>'
            return f"<p><span{b.namer.attr('label')}>{esc(b.labels[f])}</span> <span{b.namer.attr('value')}>{shown}</span></p>"

        def render(indices: list[int], _extra: str) -> str:
            cards = []
            for i in indices:
                rec = rs.records[i]
                t = esc(rec.get(kind.title_field))
                link = f'<a href="{esc(b.chrome.href(href(i)))}">{t}</a>'
                rid = f' id="card-{i + 1}"' if ids and _extra != "noise" else ""
                body = "".join(card_field(f, rec) for f in card_fields)
                cards.append(f"<div{rid}{b.namer.attr('card')}><{heading}>{link}</{heading}>{body}</div>")
            return f'<div{b.namer.attr("list")} style="{grid}">{"".join(cards)}</div>'

        routes, paths = listing_routes(
            b.entry,
            rs,
            pager,
            b.chrome,
            b.namer,
            render,
            title=f"{kind.plural.capitalize()} | {b.site_name}",
            h1=rng.choice((None, kind.plural.capitalize(), f"Browse {kind.plural}")),
            shaped_noise=True,
        )
        fields = {kind.title_field: spec(f"./{heading}/a")} if kind.title_field in b.order else {}
        for k, f in enumerate(card_fields, start=1):
            if card_style == "icons":
                fields[f] = spec(f"./p[{k}]", icons[f])
            else:
                fields[f] = spec(f"./p[{k}]/span[2]")
        dspecs = field_specs(detail_style, detail_fields, b.labels, "//main/section")
        for f in both:
            dspecs.pop(f, None)  # the card already gave it (the same value)
        notes = base_notes(
            b,
            self.name,
            pager,
            paths,
            mode="items",
            item=f"//main/div/div[{heading}]",
            fields=fields,
            detail_link=f"./{heading}/a/@href",
            detail_fields=dspecs,
            card_fields=card_fields,
            both=both,
            detail_style=detail_style,
            site_name=b.site_name,
        )
        return ZooSite(
            host=host,
            family=self.name,
            routes=routes + droutes + static_pages(b.chrome),
            entry_path=b.entry,
            notes=notes,
        )


FAMILY = CardGrid()

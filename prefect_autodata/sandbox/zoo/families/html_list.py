"""<ul>/<ol> items: the title in bold or a heading, then each field as "Label: value" text, a
label/value span pair or an icon followed by the value. No detail pages."""

from __future__ import annotations

import random

from prefect_autodata.sandbox.zoo.base import RecordSet, ZooSite
from prefect_autodata.sandbox.zoo.families._common import (
    ICONS,
    Pager,
    base_notes,
    basics,
    esc,
    listing_routes,
    spec,
    split_value,
    static_pages,
    year_field,
)


class ItemList:
    name = "html_item_list"
    kinds = None

    def build(self, rs: RecordSet, rng: random.Random, host: str) -> ZooSite:
        b = basics(rs, rng, host)
        kind = rs.kind
        pager = Pager.draw(rs, rng, year_field=year_field(rs))
        tag = rng.choice(("ul", "ol"))
        style = rng.choice(("colon", "spans", "icons"))
        title_tag = rng.choice(("strong", "b", "h3"))
        sep = rng.choice(("", " · ", " | ", "<br>"))
        split = rng.random() < 0.2
        others = [f for f in b.order if f != kind.title_field]
        icons = {f: ICONS[(k + 2) % len(ICONS)] for k, f in enumerate(others)}
        ids = rng.random() < 0.4

        def field_html(f: str, rec: dict) -> str:
            v = rec.get(f)
            shown = "" if v is None else split_value(str(v), split)
            if style == "colon":
                return f"<span{b.namer.attr('meta')}>{esc(b.labels[f])}: {shown}</span>"
            if style == "spans":
                return f"<span><em{b.namer.attr('label')}>{esc(b.labels[f])}</em> <span{b.namer.attr('value')}>{shown}</span></span>"
            return f'<span><i title="{esc(b.labels[f])}">{icons[f]}</i> {shown}</span>'

        def render(indices: list[int], _extra: str) -> str:
            items = []
            for i in indices:
                rec = rs.records[i]
                rid = f' id="i{i + 1}"' if ids and _extra != "noise" else ""
                t = f"<{title_tag}{b.namer.attr('title')}>{esc(rec.get(kind.title_field))}</{title_tag}>"
                items.append(
                    f"<li{rid}{b.namer.attr('item')}>{t} {sep.join(field_html(f, rec) for f in others)}</li>"
                )
            return f"<{tag}{b.namer.attr('list')}>{''.join(items)}</{tag}>"

        routes, paths = listing_routes(
            b.entry,
            rs,
            pager,
            b.chrome,
            b.namer,
            render,
            title=f"{b.site_name}: {kind.plural}",
            h1=rng.choice((None, kind.plural.capitalize())),
            shaped_noise=True,
        )
        fields = {kind.title_field: spec(f"./{title_tag}")} if kind.title_field in b.order else {}
        for k, f in enumerate(others, start=1):
            if style == "colon":
                fields[f] = spec(f"./span[{k}]", f"{b.labels[f]}:")
            elif style == "spans":
                fields[f] = spec(f"./span[{k}]/span")
            else:
                fields[f] = spec(f"./span[{k}]", icons[f])
        notes = base_notes(
            b,
            self.name,
            pager,
            paths,
            mode="items",
            item=f"//main/{tag}/li",
            fields=fields,
            detail_link=None,
            style=style,
        )
        return ZooSite(
            host=host,
            family=self.name,
            routes=routes + static_pages(b.chrome),
            entry_path=b.entry,
            notes=notes,
        )


FAMILY = ItemList()

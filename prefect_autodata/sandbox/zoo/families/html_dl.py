"""One <dl> block per record on the listing page: the title in a heading, fields as <dt>/<dd>,
each record wrapped in <section>, <article> or <div>."""

from __future__ import annotations

import random

from prefect_autodata.sandbox.zoo.base import RecordSet, ZooSite
from prefect_autodata.sandbox.zoo.families._common import (
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


class DefinitionBlocks:
    name = "html_dl_blocks"
    kinds = None

    def build(self, rs: RecordSet, rng: random.Random, host: str) -> ZooSite:
        b = basics(rs, rng, host)
        kind = rs.kind
        pager = Pager.draw(rs, rng, year_field=year_field(rs))
        wrap = rng.choice(("section", "article", "div"))
        heading = rng.choice(("h2", "h3"))
        title_in_dl = rng.random() < 0.3
        split = rng.random() < 0.2
        shown = list(b.order) if title_in_dl else [f for f in b.order if f != kind.title_field]

        def render(indices: list[int], _extra: str) -> str:
            blocks = []
            for i in indices:
                rec = rs.records[i]
                head = "" if title_in_dl else f"<{heading}>{esc(rec.get(kind.title_field))}</{heading}>"
                rows = "".join(
                    f"<dt>{esc(b.labels[f])}</dt><dd>{'' if rec.get(f) is None else split_value(str(rec[f]), split)}</dd>"
                    for f in shown
                )
                blocks.append(
                    f"<{wrap}{b.namer.attr('item')}>{head}<dl{b.namer.attr('meta')}>{rows}</dl></{wrap}>"
                )
            return f"<div{b.namer.attr('list')}>{''.join(blocks)}</div>"

        routes, paths = listing_routes(
            b.entry,
            rs,
            pager,
            b.chrome,
            b.namer,
            render,
            title=f"{kind.plural.capitalize()} at {b.site_name}",
            h1=kind.plural.capitalize(),
            shaped_noise=True,
        )
        fields = {f: spec(f"./dl/dd[{k}]") for k, f in enumerate(shown, start=1)}
        if not title_in_dl and kind.title_field in b.order:
            fields[kind.title_field] = spec(f"./{heading}")
        notes = base_notes(
            b,
            self.name,
            pager,
            paths,
            mode="items",
            item=f"//main/div/{wrap}[dl]",
            fields=fields,
            detail_link=None,
        )
        return ZooSite(
            host=host,
            family=self.name,
            routes=routes + static_pages(b.chrome),
            entry_path=b.entry,
            notes=notes,
        )


FAMILY = DefinitionBlocks()

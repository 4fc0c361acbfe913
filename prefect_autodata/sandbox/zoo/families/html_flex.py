"""Rows of <div>s laid out with CSS grid or flexbox: a header row of labels, then one row per
record with one cell per field (ARIA roles on some sites, none on others)."""

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


class DivRows:
    name = "html_flex_rows"
    kinds = None

    def build(self, rs: RecordSet, rng: random.Random, host: str) -> ZooSite:
        b = basics(rs, rng, host, title_first=rng.random() < 0.6)
        pager = Pager.draw(rs, rng, year_field=year_field(rs))
        layout = rng.choice(("grid", "flex"))
        aria = rng.random() < 0.5
        split = rng.random() < 0.3
        order = b.order
        cols = len(order)
        row_style = (
            f"display:grid;grid-template-columns:repeat({cols},minmax(0,1fr))"
            if layout == "grid"
            else "display:flex"
        )
        role_row = ' role="row"' if aria else ""
        role_cell = ' role="cell"' if aria else ""
        role_head = ' role="columnheader"' if aria else ""

        def render(indices: list[int], _extra: str) -> str:
            head = "".join(f"<div{role_head}>{esc(b.labels[f])}</div>" for f in order)
            rows = [f'<div{role_row}{b.namer.attr("label")} style="{row_style}">{head}</div>']
            for i in indices:
                rec = rs.records[i]
                cells = "".join(
                    f"<div{role_cell}>{'' if rec.get(f) is None else split_value(str(rec[f]), split)}</div>"
                    for f in order
                )
                rows.append(f'<div{role_row}{b.namer.attr("item")} style="{row_style}">{cells}</div>')
            table_role = ' role="table"' if aria else ""
            return f"<div{table_role}{b.namer.attr('list')}>{''.join(rows)}</div>"

        routes, paths = listing_routes(
            b.entry,
            rs,
            pager,
            b.chrome,
            b.namer,
            render,
            title=f"{rs.kind.plural.capitalize()} · {b.site_name}",
            h1=rs.kind.plural.capitalize(),
            shaped_noise=True,
        )
        fields = {f: spec(f"./div[{k}]") for k, f in enumerate(order, start=1)}
        notes = base_notes(
            b,
            self.name,
            pager,
            paths,
            mode="items",
            item="//main/div/div[position()>1]",
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


FAMILY = DivRows()

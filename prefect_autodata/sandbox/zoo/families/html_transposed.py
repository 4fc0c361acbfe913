"""A transposed table: header cells in the first column (one row per field), one column per record,
a handful of records per page (numbered pages or ?page=)."""

from __future__ import annotations

import random

from prefect_autodata.sandbox.zoo.base import RecordSet, ZooSite
from prefect_autodata.sandbox.zoo.families._common import (
    Pager,
    base_notes,
    basics,
    esc,
    listing_routes,
    static_pages,
)


class TransposedTable:
    name = "html_transposed_table"
    kinds = None
    max_records = 300

    def build(self, rs: RecordSet, rng: random.Random, host: str) -> ZooSite:
        b = basics(rs, rng, host)
        pager = Pager.draw(rs, rng, ("single", "page_param", "path_pages"))
        pager.size = rng.choice((5, 6, 8, 10))
        if pager.mode == "single" and len(rs.records) > 10:
            pager.mode = "page_param"
        order = b.order
        corner = rng.random() < 0.5

        def render(indices: list[int], _extra: str) -> str:
            rows = []
            for f in order:
                cells = "".join(
                    f"<td>{'' if rs.records[i].get(f) is None else esc(rs.records[i][f])}</td>"
                    for i in indices
                )
                rows.append(f'<tr><th scope="row">{esc(b.labels[f])}</th>{cells}</tr>')
            if corner:
                rows.insert(0, "<tr><th></th>" + "".join(f"<th>#{i + 1}</th>" for i in indices) + "</tr>")
            return f"<table{b.namer.attr('list')}>{''.join(rows)}</table>"

        routes, paths = listing_routes(
            b.entry,
            rs,
            pager,
            b.chrome,
            b.namer,
            render,
            title=f"{rs.kind.plural.capitalize()} compared — {b.site_name}",
            h1=rs.kind.plural.capitalize(),
            shaped_noise=True,
        )
        first = 2 if corner else 1
        rows = {f: k + first for k, f in enumerate(order)}
        notes = base_notes(
            b, self.name, pager, paths, mode="columns", table="//main/table", rows=rows, first_col=2
        )
        return ZooSite(
            host=host,
            family=self.name,
            routes=routes + static_pages(b.chrome),
            entry_path=b.entry,
            notes=notes,
        )


FAMILY = TransposedTable()

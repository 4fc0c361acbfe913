"""A <table> listing: with or without <thead>, sometimes a two-row (grouped) header, row ids or not.

Every record is one <tr>; the header names the fields with this site's labels. Pagination is any
of the shared pager's modes; noise sits outside <main>.
"""

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


class TableListing:
    name = "html_table_listing"
    kinds = None

    def build(self, rs: RecordSet, rng: random.Random, host: str) -> ZooSite:
        b = basics(rs, rng, host, title_first=rng.random() < 0.7)
        pager = Pager.draw(rs, rng, year_field=year_field(rs))
        thead = rng.random() < 0.6
        grouped = rng.random() < 0.3 and len(b.order) >= 3
        row_ids = rng.random() < 0.5
        split = rng.random() < 0.25
        caption = rng.random() < 0.4
        order = b.order
        cut = rng.randint(1, len(order) - 1) if grouped else 0

        def header() -> str:
            cells = "".join(f"<th>{esc(b.labels[f])}</th>" for f in order)
            rows = ""
            if grouped:
                rows += (
                    f'<tr><th colspan="{cut}">{esc(rs.kind.singular.capitalize())}</th>'
                    f'<th colspan="{len(order) - cut}">Details</th></tr>'
                )
            rows += f"<tr>{cells}</tr>"
            return f"<thead>{rows}</thead>" if thead else rows

        def render(indices: list[int], _extra: str) -> str:
            body = []
            for i in indices:
                r = rs.records[i]
                rid = f' id="{rs.kind.name[:3]}-{i + 1}"' if row_ids and _extra != "noise" else ""
                cells = "".join(
                    f"<td>{split_value(r[f], split) if r.get(f) is not None else ''}</td>" for f in order
                )
                body.append(f"<tr{rid}{b.namer.attr('item')}>{cells}</tr>")
            rows = "".join(body)
            cap = f"<caption>{esc(rs.kind.plural.capitalize())}</caption>" if caption else ""
            tbody = f"<tbody>{rows}</tbody>" if thead else rows
            return f"<table{b.namer.attr('list')}>{cap}{header()}{tbody}</table>"

        routes, paths = listing_routes(
            b.entry,
            rs,
            pager,
            b.chrome,
            b.namer,
            render,
            title=f"{rs.kind.plural.capitalize()} — {b.site_name}",
            h1=rs.kind.plural.capitalize(),
            shaped_noise=True,
        )
        fields = {f: spec(f"./td[{k + 1}]") for k, f in enumerate(order)}
        notes = base_notes(
            b,
            self.name,
            pager,
            paths,
            mode="items",
            item="//main//table//tr[td]",
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


FAMILY = TableListing()

"""Plain text: one record per line, values joined by a separator, in a <pre> or in a paragraph
with <br> line breaks; a header line of labels on some sites."""

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
    year_field,
)

SEPARATORS = (" | ", " ; ", " · ", "\t", " ~ ")


class TextLines:
    name = "html_text_lines"
    kinds = None

    def build(self, rs: RecordSet, rng: random.Random, host: str) -> ZooSite:
        b = basics(rs, rng, host, title_first=rng.random() < 0.7)
        pager = Pager.draw(rs, rng, year_field=year_field(rs))
        order = b.order
        values = [str(r.get(f) or "") for r in rs.records for f in order]
        seps = [s for s in SEPARATORS if not any((s.strip() or s) in v for v in values)]
        sep = rng.choice(seps or ["\t"])
        container = rng.choice(("pre", "p"))
        header = rng.random() < 0.6

        def line(cells: list[str]) -> str:
            return esc(sep.join(cells))

        def render(indices: list[int], _extra: str) -> str:
            lines = [line([b.labels[f] for f in order])] if header else []
            for i in indices:
                rec = rs.records[i]
                lines.append(line(["" if rec.get(f) is None else str(rec[f]) for f in order]))
            if container == "pre":
                return f"<div><pre{b.namer.attr('list')}>" + "\n".join(lines) + "</pre></div>"
            return f"<div><p{b.namer.attr('list')}>" + "".join(ln + "<br>\n" for ln in lines) + "</p></div>"

        routes, paths = listing_routes(
            b.entry,
            rs,
            pager,
            b.chrome,
            b.namer,
            render,
            title=f"{rs.kind.plural.capitalize()} (plain list) — {b.site_name}",
            h1=None,
            shaped_noise=True,
        )
        notes = base_notes(
            b,
            self.name,
            pager,
            paths,
            mode="lines",
            container=f"//main/div/{container}",
            sep=sep,
            header=header,
        )
        return ZooSite(
            host=host,
            family=self.name,
            routes=routes + static_pages(b.chrome),
            entry_path=b.entry,
            notes=notes,
        )


FAMILY = TextLines()

"""Records grouped under headings: the group's value (a season, a team, a genre, a ticker) is printed
once in an <h2>/<h3> above its records and nowhere in the records themselves.

A collector must carry the heading's value down into every record under it. Each group's records are
table rows or list items; one page, or ``?page=`` slices with the heading repeated on each page.
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
)


def _group_field(rs: RecordSet) -> str | None:
    for name in rs.kind.scope_fields:
        f = rs.kind.field(name)
        if f.type == "date":
            continue
        values = [r.get(name) for r in rs.records]
        if all(v is not None for v in values) and 1 <= len(set(values)) <= 40:
            return name
    return None


class GroupedSections:
    name = "html_grouped_sections"
    # Kinds with a non-date scope field to group by (the rest have no natural heading).
    kinds = (
        "paper",
        "stock_day",
        "nba_team_season",
        "nba_player_season",
        "mlb_team_hitting",
        "mlb_team_pitching",
        "camera",
        "movie",
        "restaurant",
        "university",
    )

    def build(self, rs: RecordSet, rng: random.Random, host: str) -> ZooSite:
        b = basics(rs, rng, host)
        kind = rs.kind
        group = _group_field(rs)
        if group is None:  # no usable heading field in this record set: one group named after the kind
            group = ""
        heading = rng.choice(("h2", "h3"))
        with_label = rng.random() < 0.5
        body_tag = rng.choice(("table", "ul"))
        split = rng.random() < 0.2
        fields = [f for f in b.order if f != group]
        perm = sorted(
            range(len(rs.records)), key=lambda i: (str(rs.records[i].get(group)) if group else "", i)
        )
        pager = Pager.draw(rs, rng, ("single", "page_param"))

        def head_text(value: object) -> str:
            return f"{b.labels[group]}: {value}" if with_label else str(value)

        def cell(f: str, rec: dict) -> str:
            v = rec.get(f)
            return "" if v is None else split_value(str(v), split)

        def render(indices: list[int], _extra: str) -> str:
            out, current, rows = [], object(), []

            def flush() -> None:
                if not rows:
                    return
                if body_tag == "table":
                    head = "".join(f"<th>{esc(b.labels[f])}</th>" for f in fields)
                    out.append(f"<table{b.namer.attr('list')}><tr>{head}</tr>{''.join(rows)}</table>")
                else:
                    out.append(f"<ul{b.namer.attr('list')}>{''.join(rows)}</ul>")
                rows.clear()

            for pos in indices:
                i = perm[pos] if _extra != "noise" else pos
                rec = rs.records[i]
                value = rec.get(group) if group else kind.plural.capitalize()
                if value != current:
                    flush()
                    out.append(f"<{heading}>{esc(head_text(value)) if group else esc(value)}</{heading}>")
                    current = value
                if body_tag == "table":
                    rows.append(
                        f"<tr{b.namer.attr('item')}>"
                        + "".join(f"<td>{cell(f, rec)}</td>" for f in fields)
                        + "</tr>"
                    )
                else:
                    parts = " ".join(
                        f"<span><em>{esc(b.labels[f])}</em> <span>{cell(f, rec)}</span></span>"
                        for f in fields
                    )
                    rows.append(f"<li{b.namer.attr('item')}>{parts}</li>")
            flush()
            return f"<div>{''.join(out)}</div>"

        routes, paths = listing_routes(
            b.entry,
            rs,
            pager,
            b.chrome,
            b.namer,
            render,
            title=f"{kind.plural.capitalize()} by {b.labels[group].lower() if group else 'name'} — {b.site_name}",
            h1=kind.plural.capitalize(),
            shaped_noise=True,
        )
        if body_tag == "table":
            item = "//main/div/table//tr[td]"
            fspecs = {f: spec(f"./td[{k}]") for k, f in enumerate(fields, start=1)}
        else:
            item = "//main/div/ul/li"
            fspecs = {f: spec(f"./span[{k}]/span") for k, f in enumerate(fields, start=1)}
        if group:
            fspecs[group] = spec(f"./preceding::{heading}[1]", f"{b.labels[group]}:" if with_label else None)
        notes = base_notes(
            b,
            self.name,
            pager,
            paths,
            mode="items",
            item=item,
            fields=fspecs,
            detail_link=None,
            group_field=group,
        )
        return ZooSite(
            host=host,
            family=self.name,
            routes=routes + static_pages(b.chrome),
            entry_path=b.entry,
            notes=notes,
        )


FAMILY = GroupedSections()
